// The score sheet as a table: per deal the Charged row (a letter per status) and what each seat
// gained or paid (Paid, Points or Chips), then the running Total with its sign.
import { h } from "./ui.js";

export function sheetTable(sheet, { caption = true, me = null } = {}) {
  const names = sheet.names;
  // a settlement's signs read as won and lost; points, pools and chips are left plain
  const money = sheet.format === "settlement";
  const sign = (n) => (!money ? "" : n > 0 ? "plus" : n < 0 ? "minus" : "");
  const table = h("table.sheet");
  if (caption) table.append(h("caption", sheet.describe));
  const head = h(
    "tr",
    h("th", { scope: "col" }, "Deal"),
    h("th", { scope: "col" }, h("span.sr-only", "row")),
  );
  names.forEach((n, i) => head.append(h("th", { scope: "col", class: i === me ? "me-col" : "" }, n)));
  table.append(h("thead", head));
  const body = h("tbody");
  for (const row of sheet.rows) {
    const charged = h(
      "tr.charged",
      h("th", { scope: "row", rowspan: 2 }, String(row.deal)),
      h("th", { scope: "row" }, "Charged"),
    );
    row.cells.forEach((c, i) =>
      charged.append(h("td", { class: `${i === me ? "me-col " : ""}status-${row.statuses[i]}` }, c)),
    );
    const paid = h("tr.paid", h("th", { scope: "row" }, sheet.label));
    row.row_text.forEach((c, i) =>
      paid.append(h("td", { class: `${i === me ? "me-col " : ""}${sign(row.row[i])}` }, c)),
    );
    body.append(charged, paid);
  }
  if (!sheet.rows.length)
    body.append(h("tr", h("td", { colspan: names.length + 2 }, "No deal has been played yet.")));
  table.append(body);
  const total = h("tr.total", h("th", { scope: "row", colspan: 2 }, "Total"));
  sheet.totals_text.forEach((t, i) => {
    const out = sheet.standings[i] === "out";
    const win = sheet.winners.includes(i);
    total.append(
      h(
        "td",
        { class: `${i === me ? "me-col " : ""}${sign(sheet.totals[i])}${win ? " winner" : ""}` },
        t,
        out
          ? h("span.standing", " out")
          : sheet.standings[i] === "compel"
            ? h("span.standing", " compel")
            : null,
        win ? h("span.standing", " ★") : null,
      ),
    );
  });
  table.append(h("tfoot", total));
  const wrap = h("div.sheet-wrap", { tabindex: "0", role: "region", "aria-label": "Score sheet" }, table);
  const bits = [wrap, h("p.legend", sheet.legend)];
  if (sheet.rejoins.length) {
    bits.push(
      h(
        "p.legend",
        "Rejoined: " +
          sheet.rejoins.map((r) => `${names[r.seat]} at ${r.total} after deal ${r.after_deals}`).join("; "),
      ),
    );
  }
  return bits;
}
