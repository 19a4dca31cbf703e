// History: past (and live) matches, newest first; one match's score sheet and, once it is over,
// each deal's hand history to download (the format `rummykit replay` reads).
import { api } from "./net.js";
import { sheetTable } from "./sheet.js";
import { $, h, presetTitle, tableTokens, when } from "./ui.js";

function showError(text) {
  const el = $("#history-error");
  el.textContent = text ?? "";
  el.hidden = !text;
}

function players(m) {
  return m.names.map((n, i) => {
    const total = m.totals_text?.[i] ?? m.totals?.[i];
    const won = m.winners?.includes(i);
    return h(
      `span.player${won ? ".won" : ""}`,
      n,
      total != null ? h("span.total", ` ${total}`) : null,
      won ? h("span.sr-only", " (winner)") : null,
      won ? h("span", { "aria-hidden": "true" }, " ★") : null,
    );
  });
}

async function renderList() {
  const box = $("#list");
  const status = $("#status-filter").value;
  box.textContent = "";
  let data;
  try {
    // only the matches this browser's tokens open (in a header: tokens never go in an address)
    data = await api(`/api/matches?status=${status}&limit=100`, { headers: { "X-Tokens": tableTokens().join(" ") } });
  } catch (e) {
    showError(`The matches could not be read: ${e.message}`);
    return;
  }
  showError("");
  if (!data.matches.length) {
    box.append(h("p.muted", "No matches on this device yet. Set up a table and play one."));
    return;
  }
  const table = h("table.history-table");
  table.append(
    h("caption.sr-only", "Matches, newest first"),
    h(
      "thead",
      h(
        "tr",
        h("th", { scope: "col" }, "When"),
        h("th", { scope: "col" }, "Game"),
        h("th", { scope: "col" }, "Players and totals"),
        h("th", { scope: "col" }, "Deals"),
        h("th", { scope: "col" }, ""),
      ),
    ),
  );
  const body = h("tbody");
  for (const m of data.matches) {
    const game = m.title ? `${m.title} (${presetTitle(m.preset)})` : presetTitle(m.preset);
    body.append(
      h(
        `tr.match-row.status-${m.status}`,
        { dataset: { match: m.match_id } },
        h("td", when(m.created_at)),
        h("td", game, m.status !== "over" ? h("span.chip.live-chip", " being played") : null),
        h(
          "td.players",
          players(m).flatMap((p, i) => (i ? [", ", p] : [p])),
        ),
        h("td", String(m.deals)),
        h(
          "td",
          h(
            "a.button.plain.small",
            {
              href: `/history?match=${encodeURIComponent(m.match_id)}`,
              "aria-label": `Open ${game} from ${when(m.created_at)}`,
            },
            "Open",
          ),
        ),
      ),
    );
  }
  table.append(body);
  box.append(h("div.table-scroll", table));
}

async function renderDetail(id) {
  const box = $("#detail");
  box.hidden = false;
  box.textContent = "";
  let m;
  try {
    m = await api(`/api/matches/${encodeURIComponent(id)}`);
  } catch (e) {
    box.append(h("p.error", `This match could not be read: ${e.message}`));
    return;
  }
  const game = m.title ? `${m.title} (${presetTitle(m.preset)})` : presetTitle(m.preset);
  box.append(
    h("h2#detail-title", game),
    h(
      "p.muted",
      `${when(m.created_at)} · ${m.status === "over" ? "finished" : "being played"} · ${m.deals} deal${m.deals === 1 ? "" : "s"}`,
    ),
  );
  if (m.winners?.length)
    box.append(h("p.winner-line", `Won by ${m.winners.map((w) => m.names[w]).join(" and ")}`));
  if (m.sheet) box.append(...sheetTable(m.sheet));
  if (m.history_urls?.length) {
    box.append(
      h("h3", "Hand histories"),
      h("p.muted", "Each deal as text, the format rummykit replay reads."),
      h(
        "ul.downloads",
        m.history_urls.map((url, i) =>
          h("li", h("a.download", { href: url, download: "" }, `Download deal ${i + 1}`)),
        ),
      ),
    );
  } else {
    box.append(
      h(
        "p.muted",
        "The hand histories open once the match is over (a deal's history tells the seed of the deals still to come).",
      ),
    );
  }
  box.append(h("p", h("a", { href: "/history" }, "← All matches")));
  box.focus();
}

function main() {
  const id = new URLSearchParams(location.search).get("match");
  $("#status-filter").addEventListener("change", renderList);
  if (id) renderDetail(id);
  renderList().then(() => (document.body.dataset.ready = "true"));
}

main();
