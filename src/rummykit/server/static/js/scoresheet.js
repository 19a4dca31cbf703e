// The score sheet for real tables: the list and new-sheet form (/sheets), and one sheet's page
// (/sheets/{id} to edit, /s/{share} to read).  Entries are sent as the terminal's tokens (a number,
// or W E D M F X, "-" for a player out), so the server reads and refuses them in the same words.
// E marks the winner of an early show where the rules halve: the server halves the others.
import { $, ask, copyText, h, when } from "./ui.js";

const EDIT_HEADER = "X-Edit-Token";
const STATUS_WORDS = {
  W: ["Win", "winner"],
  E: ["Early", "early show (won before every player had a turn: the others' charges halved)"],
  D: ["Drop", "drop"],
  M: ["Mid", "middle drop"],
  F: ["Full", "full count"],
  X: ["Wrong", "wrong show"],
};
const SETTING_LABELS = {
  drop_first: ["Drop", "A drop before taking a card"],
  drop_middle: ["Middle drop", "A drop later in the deal"],
  full_count: ["Full count", "The most a losing hand counts"],
  wrong_show: ["Wrong show", "What a wrong show costs"],
  point_value: ["Point value", "Money for each point"],
  rounds: ["Deals", "Deals in the match (points: empty for as many as the table likes)"],
  max_rejoins: ["Rejoins each", "How often a player may come back"],
};

/** Share links this browser opened (their tokens): the list shows those sheets read-only. */
const shares = {
  key: "rummykit.shared",
  all() {
    try {
      return JSON.parse(localStorage.getItem(this.key) ?? "[]") ?? [];
    } catch {
      return [];
    }
  },
  add(share) {
    const all = [share, ...this.all().filter((s) => s !== share)].slice(0, 50);
    try {
      localStorage.setItem(this.key, JSON.stringify(all));
    } catch {
      /* private mode */
    }
  },
};

/** Edit tokens this browser holds: sheet id → {token, title}.  Shown once, kept here. */
const tokens = {
  key: "rummykit.sheets",
  all() {
    try {
      return JSON.parse(localStorage.getItem(this.key) ?? "{}") ?? {};
    } catch {
      return {};
    }
  },
  get(id) {
    return this.all()[id]?.token ?? null;
  },
  set(id, token, title) {
    const all = this.all();
    all[id] = { token, title };
    try {
      localStorage.setItem(this.key, JSON.stringify(all));
    } catch {
      /* private mode: the edit link in the address bar still works */
    }
  },
};

async function api(method, url, body, token, extra = {}) {
  const headers = { Accept: "application/json", ...extra };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers[EDIT_HEADER] = token;
  let r;
  try {
    r = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    return { ok: false, status: 0, data: { error: "the server did not answer: check the connection and try again" } };
  }
  let data = null;
  try {
    data = await r.json();
  } catch {
    data = { error: `the server answered ${r.status} without a reason` };
  }
  return { ok: r.ok, status: r.status, data };
}

/** The error line; several problems of one entry, one line each. */
function showError(text, problems) {
  const el = $("#sheet-error");
  if (problems && problems.length > 1) {
    el.replaceChildren(...problems.flatMap((p, i) => (i ? [h("br"), cap(p) + "."] : [cap(p) + "."])));
  } else {
    el.textContent = text ?? "";
  }
  el.hidden = !text;
}

function showMessage(text) {
  const el = $("#sheet-message");
  if (!el) return;
  el.textContent = text ?? "";
  el.hidden = !text;
}

// ---------------------------------------------------------------------------- the list page

async function listPage() {
  const got = await api("GET", "/api/sheet-formats");
  if (!got.ok) {
    showError(`Could not load the formats: ${got.data.error}`);
    return;
  }
  const formats = got.data.formats;
  const select = $("#format");
  select.replaceChildren(
    h("optgroup", { label: "Score sheets" }, formats.filter((f) => f.main).map((f) => h("option", { value: f.preset }, f.title))),
    h("optgroup", { label: "Other house rules" }, formats.filter((f) => !f.main).map((f) => h("option", { value: f.preset }, f.title))),
  );
  const rows = $("#player-rows");
  const addPlayer = (name = "") => {
    const n = rows.children.length + 1;
    const input = h("input.sc-name", {
      id: `player-${n}`,
      name: "player",
      maxlength: 40,
      autocomplete: "off",
      autocapitalize: "words",
      value: name,
      placeholder: `Player ${n}`,
    });
    const remove = h("button.plain.small.icon", { type: "button", "aria-label": `Remove player ${n}` }, "✕");
    const li = h("li.sc-player-row", h("label.sr-only", { for: input.id }, `Player ${n}`), input, remove);
    remove.addEventListener("click", () => {
      if (rows.children.length <= 2) return;
      li.remove();
      renumber();
    });
    rows.append(li);
    renumber();
    return input;
  };
  const renumber = () => {
    [...rows.children].forEach((li, i) => {
      const input = li.querySelector("input");
      input.id = `player-${i + 1}`;
      input.placeholder = `Player ${i + 1}`;
      li.querySelector("label").htmlFor = input.id;
      li.querySelector("label").textContent = `Player ${i + 1}`;
      li.querySelector("button").setAttribute("aria-label", `Remove player ${i + 1}`);
      li.querySelector("button").disabled = rows.children.length <= 2;
    });
    $("#add-player").disabled = rows.children.length >= 8;
  };
  for (let i = 0; i < 4; i++) addPlayer();
  document.body.dataset.ready = "true";
  $("#add-player").addEventListener("click", () => addPlayer().focus());

  const settingRows = $("#setting-rows");
  const fill = () => {
    const f = formats.find((x) => x.preset === select.value) ?? formats[0];
    $("#format-describe").textContent = f.describe + ".";
    settingRows.replaceChildren();
    for (const [name, value] of Object.entries(f.settings)) {
      if (name === "point_value" && !["points", "settlement"].includes(f.format)) continue;
      if (name === "rounds" && !["points", "settlement", "deals"].includes(f.format)) continue;
      if (name === "max_rejoins" && f.format !== "pool") continue;
      if ((name === "drop_first" || name === "drop_middle") && f.format === "deals") continue;
      const [label, hint] = SETTING_LABELS[name] ?? [name, ""];
      const id = `set-${name}`;
      settingRows.append(
        h(
          "div.sc-setting",
          h("label", { for: id }, label),
          h("input", {
            id,
            name,
            type: "number",
            inputmode: "numeric",
            min: name === "point_value" || name === "rounds" ? 1 : 0,
            value: value ?? "",
            placeholder: "none",
            "data-setting": name,
          }),
          h("span.sc-hint", hint),
        ),
      );
    }
  };
  select.addEventListener("change", fill);
  fill();

  $("#new-sheet").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("");
    const players = [...rows.querySelectorAll("input")].map((i) => i.value.trim()).filter(Boolean);
    const settings = {};
    for (const input of settingRows.querySelectorAll("input[data-setting]")) {
      if (input.validity.badInput) {
        const label = settingRows.querySelector(`label[for="${input.id}"]`).textContent;
        showError(`${label}: enter a whole number, or leave it empty for none.`);
        input.focus();
        return;
      }
      settings[input.dataset.setting] = input.value.trim() === "" ? null : Number(input.value);
    }
    const button = $("#create-sheet");
    button.disabled = true;
    const got = await api("POST", "/api/sheets", {
      preset: select.value,
      players,
      settings,
      title: $("#sheet-title").value.trim(),
    });
    button.disabled = false;
    if (!got.ok) {
      showError(got.data.error + (got.data.expected ? ` (expected ${got.data.expected})` : ""));
      return;
    }
    tokens.set(got.data.id, got.data.edit_token, got.data.sheet.title);
    location.assign(`/sheets/${got.data.id}`);
  });
  listSheets();
}

async function listSheets() {
  const items = $("#sheet-items");
  // the server lists only the sheets these tokens open (sent in headers, never in the address)
  const mine = tokens.all();
  const edit = Object.values(mine).map((e) => e.token).filter(Boolean).slice(0, 100);
  const got = await api("GET", "/api/sheets", undefined, null, {
    "X-Edit-Tokens": edit.join(" "),
    "X-Share-Tokens": shares.all().slice(0, 100).join(" "),
  });
  if (!got.ok) {
    items.replaceChildren(h("li.error", `Could not list the sheets: ${got.data.error}`));
    return;
  }
  if (!got.data.sheets.length) {
    items.replaceChildren(h("li.muted", "No sheets on this device yet: start one above."));
    return;
  }
  items.replaceChildren(
    ...got.data.sheets.map((s) => {
      const editable = s.can_edit;
      const href = editable ? `/sheets/${s.id}` : s.share;
      const players = (s.names ?? []).map((n, i) =>
        h(`span.sc-chip${s.standings?.[i] === "out" ? ".sc-out" : ""}`, `${n} ${s.totals_text?.[i] ?? ""}`),
      );
      return h(
        "li.sc-item",
        h("a.sc-item-title", { href }, s.title || "Score sheet"),
        h("span.sc-badge", editable ? "yours: edit" : "read-only"),
        h("div.sc-item-sub", [s.format_title, `${s.deals ?? 0} deal${s.deals === 1 ? "" : "s"}`, when(s.updated_at)].filter(Boolean).join(" · ")),
        s.problem ? h("div.error", s.problem) : h("div.sc-chips", players),
        s.result ? h("div.sc-item-sub", s.result) : null,
      );
    }),
  );
}

// ---------------------------------------------------------------------------- one sheet

const state = {
  sheet: null,
  token: null,
  api: null, // where the sheet is read from
  editing: false, // the entry form replaces the last deal
  entries: {}, // seat → {status: letter | "", text: typed}
  busy: false,
};

async function sheetPage() {
  const path = location.pathname;
  const shared = path.startsWith("/s/");
  const key = decodeURIComponent(path.split("/")[2] ?? "");
  if (!shared) {
    const m = /(?:^#|&)edit=([^&]+)/.exec(location.hash);
    if (m) {
      tokens.set(key, decodeURIComponent(m[1]), "");
      history.replaceState(null, "", location.pathname + location.search);
    }
    state.token = tokens.get(key);
  }
  if (shared) shares.add(key);
  state.api = shared ? `/api/s/${encodeURIComponent(key)}` : `/api/sheets/${encodeURIComponent(key)}`;
  wire();
  await reload();
  document.body.dataset.ready = "true";
}

async function reload() {
  const got = await api("GET", state.api, undefined, state.token);
  if (!got.ok) {
    showError(got.data.error);
    $("#main").dataset.state = "error";
    return false;
  }
  render(got.data);
  return true;
}

function canEdit() {
  return !!(state.sheet?.can_edit && state.token);
}

function wire() {
  $("#entry").addEventListener("submit", (ev) => {
    ev.preventDefault();
    submitDeal();
  });
  $("#entry-clear").addEventListener("click", () => {
    state.entries = {};
    showError("");
    renderEntry();
  });
  $("#entry-cancel").addEventListener("click", () => {
    state.editing = false;
    state.entries = {};
    showError("");
    renderEntry();
  });
  $("#edit-last").addEventListener("click", () => {
    const last = state.sheet?.last;
    if (!last) return;
    state.editing = true;
    state.entries = {};
    last.entries.forEach((tok, seat) => {
      if (tok === "-") return;
      const letter = /^[WEDMFX]$/.test(tok) ? tok : "";
      state.entries[seat] = { status: letter, text: letter ? "" : tok };
    });
    showError("");
    showMessage("");
    renderEntry();
    $("#entry").scrollIntoView({ block: "start" });
    $("#entry-rows input")?.focus();
  });
  $("#undo-last").addEventListener("click", async () => {
    const what = lastThing();
    const choice = await ask({
      title: `Undo ${what}?`,
      text: "The sheet goes back to how it was before it.",
      buttons: [
        { value: "undo", label: `Undo ${what}`, kind: "primary", autofocus: true },
        { value: "keep", label: "Keep it", kind: "plain" },
      ],
    });
    if (choice === "undo") change("DELETE", "/deals/last", {});
  });
  $("#share").addEventListener("click", async () => {
    const url = new URL(state.sheet.links.share, location.href).href;
    const line = $("#share-line");
    line.replaceChildren(
      "Read-only link: ",
      h("a#share-link", { href: url }, url),
      " ",
      (await copyText(url)) ? h("span.muted", "(copied)") : null,
    );
    line.hidden = false;
  });
  $("#print").addEventListener("click", () => window.print());
}

/** What Undo takes back: the latest deal, or a rejoin made after it. */
function lastThing() {
  const s = state.sheet;
  const rejoins = s.view.deals.at(-1)?.rejoins ?? [];
  return rejoins.length ? "the last rejoin" : `deal ${s.deals}`;
}

function render(sheet) {
  state.sheet = sheet;
  const main = $("#main");
  main.dataset.state = sheet.over ? "over" : "playing";
  main.dataset.version = String(sheet.version);
  main.dataset.canEdit = String(canEdit());
  document.title = `${sheet.title} · rummykit`;
  $("#sheet-title").textContent = sheet.title;
  $("#sheet-format").textContent = sheet.view.format_line;
  $("#sheet-settings").textContent = sheet.view.settings_line;
  const ro = $("#read-only");
  ro.hidden = canEdit();
  ro.textContent = location.pathname.startsWith("/s/")
    ? "Read-only: this is a shared sheet. It shows the latest scores when you reload."
    : "Read-only: this device does not hold the edit link of this sheet.";
  const result = $("#sheet-result");
  result.textContent = sheet.view.result;
  result.classList.toggle("sc-won", sheet.over);
  $("#pdf").href = sheet.links.pdf;
  $("#pdf").setAttribute("download", `${sheet.title.replace(/[^\w -]+/g, "").trim() || "score-sheet"}.pdf`);
  $("#edit-last").hidden = !canEdit() || !sheet.last;
  $("#undo-last").hidden = !canEdit() || sheet.version === 0;
  renderStandings();
  renderEntry();
  renderSheet();
  $("#sheet-legend").textContent = sheet.view.legend ? `${sheet.view.legend}.` : "";
}

function renderStandings() {
  const sheet = state.sheet;
  const s = sheet.settings;
  const box = $("#standings");
  box.replaceChildren(
    ...sheet.players.map((p) => {
      const tags = [];
      if (p.winner) tags.push(h("span.sc-tag.sc-tag-won", "winner"));
      else if (p.standing === "out") tags.push(h("span.sc-tag.sc-tag-out", "out"));
      else if (p.standing === "compel")
        tags.push(
          h(
            "span.sc-tag.sc-tag-compel",
            { title: `a drop would put ${p.name} out (compel from ${s.compel_from})` },
            "compel",
          ),
        );
      const bits = [];
      if (sheet.format === "pool" && (s.max_rejoins !== null || p.rejoins)) {
        bits.push(h("span.sc-rejoins", `rejoins ${p.rejoins}${s.max_rejoins === null ? "" : ` of ${s.max_rejoins}`}`));
      }
      let action = null;
      if (p.rejoin) {
        const left = p.rejoin.rejoins_left === null ? "" : ` (${p.rejoin.rejoins_left} left)`;
        action = canEdit()
          ? h(
              "button.primary.small.sc-rejoin",
              { type: "button", "data-seat": p.seat, onclick: () => change("POST", "/rejoin", { player: p.seat }) },
              `Rejoin at ${p.rejoin.total}`,
            )
          : h("span.sc-may", `may rejoin at ${p.rejoin.total}${left}`);
        if (canEdit() && left) bits.push(h("span.sc-may", left.trim()));
      }
      return h(
        `div.sc-player.sc-${p.standing}${p.winner ? ".sc-player-won" : ""}`,
        { "data-seat": p.seat, "data-standing": p.standing, "data-total": p.total },
        h("div.sc-player-name", p.name),
        h("div.sc-player-total", p.total_text),
        h("div.sc-player-tags", tags, bits),
        action,
      );
    }),
  );
}

function entryToken(seat) {
  const e = state.entries[seat] ?? { status: "", text: "" };
  if (e.status) return e.status;
  return e.text.trim();
}

function renderEntry() {
  const sheet = state.sheet;
  const form = $("#entry");
  const open = canEdit() && (state.editing ? !!sheet.last : !sheet.over);
  form.hidden = !open;
  if (!open) return;
  const seatsIn = state.editing ? sheet.last.seats : sheet.seats_in;
  $("#entry-title").textContent = state.editing
    ? `Edit deal ${sheet.last.deal}`
    : `Deal ${sheet.next.deal} · dealer ${sheet.next.dealer}`;
  $("#entry-submit").textContent = state.editing ? `Save deal ${sheet.last.deal}` : "Add deal";
  $("#entry-cancel").hidden = !state.editing;
  form.dataset.mode = state.editing ? "edit" : "add";
  const rows = $("#entry-rows");
  const focused = document.activeElement?.id;
  rows.replaceChildren(
    ...sheet.players.map((p) => {
      if (!seatsIn.includes(p.seat)) {
        return h(
          "div.sc-entry-row.sc-entry-out",
          { "data-seat": p.seat },
          h("span.sc-entry-name", p.name),
          h("span.sc-entry-outword", "out of the pool: not playing"),
        );
      }
      const e = (state.entries[p.seat] ??= { status: "", text: "" });
      const id = `count-${p.seat}`;
      const input = h("input.sc-count", {
        id,
        type: "text",
        inputmode: "numeric",
        autocomplete: "off",
        enterkeyhint: "done",
        maxlength: 12,
        value: e.status ? "" : e.text,
        placeholder: e.status ? String(sheet.buttons[e.status] ?? "") : "count",
        "aria-describedby": "entry-hint",
      });
      input.addEventListener("input", () => {
        e.text = input.value;
        if (e.status && input.value.trim() !== "") {
          e.status = "";
          row.querySelectorAll("button[aria-pressed]").forEach((b) => b.setAttribute("aria-pressed", "false"));
          input.placeholder = "count";
        }
        row.removeAttribute("aria-invalid");
      });
      // E only where an early show halves: elsewhere there is no such button at all
      const letters = Object.entries(STATUS_WORDS).filter(([letter]) => letter !== "E" || sheet.buttons.E != null);
      const buttons = letters.map(([letter, [short, word]]) => {
        const value = sheet.buttons[letter];
        const allowed = value !== null && value !== undefined;
        return h(
          `button.sc-status.sc-status-${letter}`,
          {
            type: "button",
            "data-letter": letter,
            "aria-pressed": String(e.status === letter),
            "aria-label": `${p.name}: ${word}${allowed && !"WE".includes(letter) ? ` (${value})` : ""}`,
            title: allowed ? `${word}${!"WE".includes(letter) ? `: ${value}` : ""}` : `${word}: not in these rules`,
            disabled: !allowed,
            onclick: () => {
              e.status = e.status === letter ? "" : letter;
              e.text = "";
              input.value = "";
              input.placeholder = e.status ? String(value) : "count";
              row.querySelectorAll("button[aria-pressed]").forEach((b) =>
                b.setAttribute("aria-pressed", String(b.dataset.letter === e.status)),
              );
              row.removeAttribute("aria-invalid");
            },
          },
          h("span.sc-letter", letter),
          h("span.sc-word", short),
        );
      });
      const row = h(
        "div.sc-entry-row",
        { "data-seat": p.seat, role: "group", "aria-label": p.name },
        h("label.sc-entry-name", { for: id }, p.name, h("span.sc-entry-total", ` ${p.total_text}`)),
        input,
        h("div.sc-status-buttons", buttons),
      );
      return row;
    }),
  );
  if (focused) document.getElementById(focused)?.focus();
}

function markInvalid(text) {
  for (const row of document.querySelectorAll("#entry-rows .sc-entry-row[data-seat]")) {
    const name = state.sheet.players[Number(row.dataset.seat)].name;
    if (text.includes(name)) row.setAttribute("aria-invalid", "true");
  }
}

async function submitDeal() {
  if (state.busy) return;
  const sheet = state.sheet;
  const seatsIn = state.editing ? sheet.last.seats : sheet.seats_in;
  const entries = sheet.players.map((p) => (seatsIn.includes(p.seat) ? entryToken(p.seat) : "-"));
  const ok = await change(state.editing ? "PUT" : "POST", state.editing ? "/deals/last" : "/deals", { entries });
  if (ok) {
    state.editing = false;
    state.entries = {};
    renderEntry();
    const first = $("#entry-rows input");
    if (first && !state.sheet.over) first.focus({ preventScroll: true });
  }
}

/** One change to the sheet; the typed entry stays put when it is refused. */
async function change(method, suffix, body) {
  if (state.busy) return false;
  state.busy = true;
  $("#main").dataset.busy = "true";
  showMessage("");
  const got = await api(method, `/api/sheets/${state.sheet.id}${suffix}`, { ...body, version: state.sheet.version }, state.token);
  state.busy = false;
  $("#main").dataset.busy = "false";
  if (!got.ok) {
    const text = got.data.error ?? `refused (${got.status})`;
    showError(got.status === 400 || got.status === 409 ? cap(text) + "." : cap(text), got.data.problems);
    markInvalid(text);
    if (got.status === 409) {
      const keep = state.entries;
      await reload();
      state.entries = keep;
      renderEntry();
    }
    return false;
  }
  showError("");
  if (method === "DELETE") state.editing = false; // the deal being edited may be gone
  render(got.data.sheet);
  showMessage(got.data.message);
  return true;
}

function cap(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** The sheet as the printed sheet draws it (the same model as the PDF). */
function renderSheet() {
  const view = state.sheet.view;
  const names = view.names;
  const cell = (c) => {
    const cls = ["sc-cell", c.won && "sc-won", c.out && "sc-out", c.compel && "sc-compel"].filter(Boolean).join(".");
    const inner = [c.text === "–" ? h("span", { "aria-label": "not playing" }, "–") : c.text];
    if (c.mark) inner.push(" ", h("abbr.sc-mark", { title: STATUS_WORDS[c.mark]?.[1] ?? c.mark }, c.mark));
    if (c.tag === "C") inner.push(" ", h("abbr.sc-tag-cell", { title: "compel" }, "C"));
    else if (c.tag) inner.push(" ", h("span.sc-tag-cell", c.tag));
    return h(`td.${cls}`, inner);
  };
  const table = h("table.sc-table");
  table.append(
    h("caption", `Deals, running totals and standings for ${names.join(", ")}`),
    h(
      "thead",
      h("tr", h("th", { scope: "col" }, "Deal"), h("th", { scope: "col" }, h("span.sr-only", "Line")), names.map((n) => h("th", { scope: "col" }, n))),
    ),
  );
  for (const block of view.deals) {
    const body = h("tbody.sc-deal", { "data-deal": block.number });
    block.lines.forEach((line, i) => {
      const tr = h(`tr.sc-line-${line.kind}`);
      if (i === 0) {
        tr.append(
          h(
            "th",
            { scope: "rowgroup", rowspan: block.lines.length + block.rejoins.length },
            `Deal ${block.number}`,
            h("span.sc-dealer", `dealer ${block.dealer}`),
          ),
        );
      }
      tr.append(h("th", { scope: "row" }, line.label), ...line.cells.map(cell));
      body.append(tr);
    });
    for (const sentence of block.rejoins) {
      body.append(h("tr.sc-line-rejoin", h("th", { scope: "row" }, "Rejoin"), h("td", { colspan: names.length }, sentence)));
    }
    table.append(body);
  }
  const summary = h("tbody.sc-summary");
  view.summary.forEach((line, i) => {
    const tr = h(`tr.sc-line-${line.kind}`);
    if (i === 0) tr.append(h("th", { scope: "rowgroup", rowspan: view.summary.length }, "Now"));
    tr.append(h("th", { scope: "row" }, line.label), ...line.cells.map(cell));
    summary.append(tr);
  });
  table.append(summary);
  const bits = [h("div.sc-scroll", { tabindex: "0", role: "region", "aria-label": "Score sheet table" }, table)];
  if (view.offers) bits.push(h("p.sc-offers", view.offers));
  if (view.settle_up?.length) {
    // who pays whom, in the fewest payments (the same sentences as the print and the PDF)
    bits.push(
      h(
        "section.sc-settle",
        { "aria-label": "Settle up" },
        h("h2", "Settle up"),
        h("ul", view.settle_up.map((sentence) => h("li", sentence))),
      ),
    );
  }
  $("#sheet").replaceChildren(...bits);
}

// ---------------------------------------------------------------------------- start

const page = document.body.dataset.page;
if (page === "list") listPage();
else if (page === "sheet") sheetPage();
