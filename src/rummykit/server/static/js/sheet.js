// The score sheet as a table (the rows come from sheetmodel.js).  The caption is a paragraph
// above the table, outside its scroll box: on a phone the table may scroll sideways, and the
// words above it must not scroll away with it.
import { sheetModel } from "./sheetmodel.js";
import { h } from "./ui.js";

let nextId = 1;

export function sheetTable(sheet, { caption = true, me = null } = {}) {
  const m = sheetModel(sheet, me);
  const captionId = `sheet-caption-${nextId++}`;
  const table = h("table.sheet", caption ? { "aria-describedby": captionId } : {});
  // "Deal" on a wide screen, "#" on a phone (the names need the room)
  const deal = h("th", { scope: "col", "aria-label": "Deal" }, h("span.wide-only", "Deal"), h("span.narrow-only", "#"));
  const head = h("tr", deal, h("th", { scope: "col" }, h("span.sr-only", "row")));
  m.names.forEach((n, i) => head.append(h("th", { scope: "col", class: i === me ? "me-col" : "" }, n)));
  table.append(h("thead", head));
  const body = h("tbody");
  const tag = (t) => (t ? h("span.standing", ` ${t}`) : null);
  for (const d of m.deals) {
    d.lines.forEach((line, k) => {
      const tr = h(`tr.${line.kind}`);
      if (k === 0) tr.append(h("th", { scope: "row", rowspan: d.lines.length }, String(d.deal)));
      tr.append(h("th", { scope: "row" }, line.label));
      for (const c of line.cells) tr.append(h("td", { class: c.cls }, c.text, tag(c.tag)));
      body.append(tr);
    });
  }
  if (!m.deals.length) body.append(h("tr", h("td", { colspan: m.names.length + 2 }, "No deal has been played yet.")));
  table.append(body);
  const total = h("tr.total", h("th", { scope: "row", colspan: 2 }, "Total"));
  for (const c of m.total) total.append(h("td", { class: c.cls }, c.text, tag(c.tag), c.won ? h("span.standing", " ★") : null));
  table.append(h("tfoot", total));
  const wrap = h("div.sheet-wrap", { tabindex: "0", role: "region", "aria-label": "Score sheet" }, table);
  const bits = [];
  if (caption) bits.push(h(`p.sheet-caption#${captionId}`, m.caption));
  bits.push(wrap, ...m.notes.map((n) => h("p.legend", n)));
  return bits;
}
