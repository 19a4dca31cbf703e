// The lobby: every preset (the show family, then the table family: Rummy 40 and Remi 51), seed
// 000's settings table, the table options (the turn clock, hints), the seats, and the links.
import { possessive } from "./grammar.js";
import {
  clockChoices,
  clockValue,
  openingChoices,
  playersRange,
  seatRows,
  tableSettings,
  targetChoices,
} from "./lobbyform.js";
import { api, ApiError } from "./net.js";
import { $, h, copyText, presetTitle, saved, when } from "./ui.js";

const TAGLINES = {
  nepali: "Two runs, one of them clean; drop for 20 or 40; settlement, the table sums to zero.",
  indian: "Points; a wrong show costs 80; a show before everyone has played halves the charges.",
  kerala: "Pool to 251 with two rejoins; full count 100; three identical cards are a clean run.",
  pool101: "Pool: out at 101; rejoin while the highest total still in is 79 or less.",
  pool201: "Pool: out at 201; drops cost 25 and 50.",
  deals: "Chips over a fixed number of deals; no dropping.",
  maharashtra: "Points with no cap on a hand; drops cost 10 and 40.",
  "north-indian": "Points; one run must be four cards or more; one joker a group.",
  rummy40: "Melds go down on the table: open with 40, lay off, swap jokers; first to empty the hand wins.",
  remi51: "Open with 51 after the first round; 15 cards to the first player; low score wins.",
};
// Settings of seed 000's table that the table family does not have.
const SHOW_ONLY = new Set(["runs_needed", "dropping", "cut_joker", "printed_jokers", "ace_high", "full_count"]);

const FORMATS = {
  settlement: "settlement",
  points: "points",
  pool: "pool",
  deals: "deals",
  target: "one deal (or to 200)",
  penalty: "low score wins",
};

// What each setting changes, in seed 000's words (shortened).
const HINTS = {
  players: "Seats at the table. More seats, more hands racing you.",
  rounds: "Deals in the match. The score runs across all of them.",
  runs_needed: "How many runs a show needs; one of them is always clean.",
  dropping: "Whether a seat may walk out of a deal for a fixed charge.",
  cut_joker: "Whether a card is cut to make one rank wild.",
  printed_jokers: "Whether the two printed jokers are in the shoe.",
  ace_high: "Whether queen, king, ace is a run as well as ace, two, three.",
  full_count: "What a hand with no clean run is charged, and the most any hand pays.",
  difficulty: "How well the bots read their hands, throw, and drop.",
};

const BOOL_WORDS = {
  dropping: ["Allowed", "Not allowed"],
  cut_joker: ["On", "Off"],
  printed_jokers: ["On", "Off"],
  ace_high: ["Below the two and above the king", "Below the two only"],
};

const CHOICE_WORDS = {
  runs_needed: { 1: "One, clean", 2: "Two, one clean" },
  difficulty: {
    random: "Random (plays any legal move)",
    greedy: "Greedy",
    easy: "Easy",
    medium: "Medium",
    hard: "Hard",
    expert: "Expert",
  },
};

let OPTIONS = null;
let preset = null; // the chosen preset's entry from /api/options
const seatState = []; // [{kind, name, bot}] kept while the player count changes

function presetValue(p, key) {
  const s = p.settings;
  switch (key) {
    case "dropping":
      return s.drop_first !== null;
    case "printed_jokers":
      return (s.printed_jokers ?? 0) > 0;
    case "difficulty":
      return p.default_difficulty ?? OPTIONS.default_difficulty;
    default:
      return s[key];
  }
}

function roundsApply(p) {
  return p.format !== "pool" && p.format !== "target";
}

const isTable = (p) => p?.family === "table";

function renderPresets() {
  const box = $("#presets");
  box.querySelector(".loading")?.remove();
  const grid = h("div.preset-grid");
  for (const p of OPTIONS.presets) {
    const id = `preset-${p.name}`;
    const s = p.settings;
    const facts = isTable(p)
      ? [`${p.players[0]}–${p.players[1]} players`, `opening ${p.opening}`, FORMATS[p.format] ?? p.format]
      : [
          `${p.players[0]}–${p.players[1]} players`,
          FORMATS[p.format] ?? p.format,
          s.format !== "pool" && s.rounds
            ? `${s.rounds} deal${s.rounds === 1 ? "" : "s"}`
            : `out at ${s.pool_out}`,
        ];
    grid.append(
      h(
        "label.preset-card",
        { for: id },
        h("input", { type: "radio", name: "preset", id, value: p.name, checked: p.name === "nepali" }),
        h("span.preset-name", presetTitle(p.name)),
        h("span.preset-facts", facts.join(" · ")),
        h("span.preset-tag", TAGLINES[p.name] ?? ""),
      ),
    );
  }
  box.append(grid);
  box.addEventListener("change", (ev) => {
    if (ev.target.name === "preset") choosePreset(ev.target.value);
  });
}

function field(item) {
  const id = `set-${item.key}`;
  const hint = h(`span.hint#${id}-hint`, HINTS[item.key] ?? "");
  let control;
  if (item.type === "int") {
    control = h("input", {
      id,
      name: item.key,
      type: "number",
      inputmode: "numeric",
      min: item.min,
      max: item.max,
      step: 1,
      "aria-describedby": `${id}-hint`,
    });
  } else if (item.type === "choice") {
    control = h("select", { id, name: item.key, "aria-describedby": `${id}-hint` });
    for (const c of item.choices) {
      control.append(h("option", { value: String(c) }, CHOICE_WORDS[item.key]?.[c] ?? String(c)));
    }
  } else {
    const words = BOOL_WORDS[item.key] ?? ["On", "Off"];
    const state = h(`span.switch-state#${id}-state`, words[0]);
    const box = h("input", {
      id,
      name: item.key,
      type: "checkbox",
      role: "switch",
      "aria-describedby": `${id}-state ${id}-hint`,
    });
    box.addEventListener("change", () => {
      state.textContent = box.checked ? words[0] : words[1];
    });
    control = h("span.switch", box, state);
  }
  return h(
    `div.setting.setting-${item.type}`,
    { dataset: { key: item.key } },
    h("label", { for: id }, item.label),
    control,
    hint,
  );
}

function choiceSetting(key, label, hint) {
  const select = h(`select#set-${key}`, { name: key, "aria-describedby": `set-${key}-hint` });
  return h(
    "div.setting.setting-choice",
    { dataset: { key } },
    h("label", { for: `set-${key}` }, label),
    select,
    h(`span.hint#set-${key}-hint`, hint),
  );
}

function fillChoices(select, choices) {
  select.textContent = "";
  for (const c of choices) select.append(h("option", { value: c.value, selected: c.selected }, c.label));
  select.closest(".setting").hidden = !choices.length;
}

function renderSettings() {
  const box = $("#settings");
  for (const item of OPTIONS.lobby) box.append(field(item));
  // Rummy 40's room options (seed 003): the opening, and the match's length
  box.append(choiceSetting("opening", "Opening", "Points your first melds need, laid down together."));
  box.append(choiceSetting("target", "Match", "One deal, or deal after deal until a winner reaches the target."));
  // the table options: the turn clock and hints (any game)
  box.append(
    choiceSetting(
      "clock",
      "Turn clock",
      "Time for a whole turn; when it runs out the table draws and throws for you.",
    ),
  );
  const hints = h("input#set-hints", {
    name: "hints",
    type: "checkbox",
    role: "switch",
    "aria-describedby": "set-hints-state set-hints-hint",
  });
  const hintsState = h("span.switch-state#set-hints-state", "Off");
  hints.addEventListener("change", () => {
    hintsState.textContent = hints.checked ? "On" : "Off";
  });
  box.append(
    h(
      "div.setting.setting-bool",
      { dataset: { key: "hints" } },
      h("label", { for: "set-hints" }, "Hints"),
      h("span.switch", hints, hintsState),
      h("span.hint#set-hints-hint", "A Hint button on your turn: what the strongest bot would do, and why."),
    ),
  );
  $("#set-players").addEventListener("input", () => {
    checkPlayers();
    renderSeats();
  });
  $("#set-difficulty").addEventListener("change", () => renderSeats());
}

function setControl(key, value) {
  const el = $(`#set-${key}`);
  if (!el) return;
  if (el.type === "checkbox") {
    el.checked = !!value;
    el.dispatchEvent(new Event("change"));
  } else if (el.type === "number") {
    el.value = value == null ? "" : String(value);
    el.placeholder = value == null ? "no cap" : "";
  } else {
    el.value = String(value);
  }
}

function readControl(key) {
  const el = $(`#set-${key}`);
  if (!el) return undefined;
  if (el.type === "checkbox") return el.checked;
  if (el.type === "number") return el.value === "" ? null : Number(el.value);
  const item = OPTIONS.lobby.find((i) => i.key === key);
  const raw = el.value;
  return item && typeof item.choices?.[0] === "number" ? Number(raw) : raw;
}

function choosePreset(name) {
  preset = OPTIONS.presets.find((p) => p.name === name) ?? OPTIONS.presets[0];
  for (const item of OPTIONS.lobby) setControl(item.key, presetValue(preset, item.key));
  const table = isTable(preset);
  for (const key of SHOW_ONLY) {
    const row = document.querySelector(`.setting[data-key="${key}"]`);
    if (row) row.hidden = table;
  }
  const bots = preset.bots ?? OPTIONS.bots;
  for (const opt of $("#set-difficulty").options) opt.disabled = !bots.includes(opt.value);
  fillChoices($("#set-clock"), clockChoices(preset));
  fillChoices($("#set-opening"), table ? openingChoices(preset) : []);
  fillChoices($("#set-target"), table ? targetChoices(preset) : []);
  // the form's limits are the server's
  const players = $("#set-players");
  players.min = String(preset.players[0]);
  players.max = String(preset.players[1]);
  checkPlayers();
  const rounds = $("#set-rounds");
  const applies = roundsApply(preset);
  rounds.disabled = !applies;
  $('.setting[data-key="rounds"] .hint').textContent = applies
    ? HINTS.rounds
    : preset.format === "target"
      ? "Rummy 40 plays one deal, or on to a target: see Match."
      : `A pool plays until one seat is left (out at ${preset.settings.pool_out}).`;
  renderSeats();
}

/** Players outside the preset's seats: marked on the field; the server says why on Create. */
function checkPlayers() {
  const field = $("#set-players");
  const range = playersRange(preset, typedPlayers());
  field.setAttribute("aria-invalid", String(!range.ok && field.value !== ""));
  $("#set-players-hint").textContent = `${HINTS.players} ${presetTitle(preset.name)} seats ${range.text}.`;
}

function typedPlayers() {
  const raw = $("#set-players").value.trim();
  return raw === "" ? null : Number(raw);
}

function renderSeats() {
  const box = $("#seat-rows");
  const n = seatRows(typedPlayers(), preset);
  while (seatState.length < n) {
    const i = seatState.length;
    seatState.push(i === 0 ? { kind: "human", name: "You", bot: "" } : { kind: "bot", name: "", bot: "" });
  }
  // keep what was typed in the rows that stay
  for (const row of box.querySelectorAll(".seat-row")) {
    const i = Number(row.dataset.seat);
    if (i < seatState.length) {
      seatState[i] = {
        kind: row.querySelector(".kind-select").value,
        name: row.querySelector(".name-input").value,
        bot: row.querySelector(".bot-select").value,
      };
    }
  }
  box.textContent = "";
  const level = $("#set-difficulty").value;
  for (let i = 0; i < n; i++) {
    const st = seatState[i];
    const kindId = `seat-${i}-kind`;
    const nameId = `seat-${i}-name`;
    const botId = `seat-${i}-bot`;
    const kind = h(
      "select.kind-select",
      { id: kindId },
      h(
        "option",
        { value: "human", selected: st.kind === "human" },
        i === 0 ? "You" : "A person (invite link)",
      ),
      h("option", { value: "bot", selected: st.kind === "bot" }, "A bot"),
    );
    const name = h("input.name-input", {
      id: nameId,
      maxlength: 40,
      value: st.name,
      placeholder: st.kind === "bot" ? `Bot ${i + 1}` : `Player ${i + 1}`,
      autocomplete: "off",
    });
    const bot = h("select.bot-select", { id: botId });
    bot.append(h("option", { value: "" }, `Table difficulty (${CHOICE_WORDS.difficulty[level] ?? level})`));
    for (const b of preset?.bots ?? OPTIONS.bots) {
      bot.append(h("option", { value: b, selected: st.bot === b }, CHOICE_WORDS.difficulty[b] ?? b));
    }
    const botWrap = h("span.seat-bot-wrap", h("label", { for: botId }, "Bot"), bot);
    botWrap.hidden = st.kind !== "bot";
    kind.addEventListener("change", () => {
      botWrap.hidden = kind.value !== "bot";
      name.placeholder = kind.value === "bot" ? `Bot ${i + 1}` : `Player ${i + 1}`;
    });
    box.append(
      h(
        "div.seat-row",
        { dataset: { seat: i }, role: "group", "aria-label": `Seat ${i + 1}` },
        h("span.seat-no", { "aria-hidden": "true" }, String(i + 1)),
        h("span.seat-kind-wrap", h("label", { for: kindId }, `Seat ${i + 1}`), kind),
        h("span.seat-name-wrap", h("label", { for: nameId }, "Name"), name),
        botWrap,
      ),
    );
  }
}

function readSeats() {
  return [...document.querySelectorAll("#seat-rows .seat-row")].map((row) => {
    const kind = row.querySelector(".kind-select").value;
    const name = row.querySelector(".name-input").value.trim();
    const seat = { kind };
    if (name) seat.name = name;
    if (kind === "bot") {
      const bot = row.querySelector(".bot-select").value;
      if (bot) seat.bot = bot;
    }
    return seat;
  });
}

function body() {
  const seats = readSeats();
  // the count as typed: a count the preset does not seat is the server's to refuse, in words
  const typed = typedPlayers();
  const settings = { players: Number.isInteger(typed) ? typed : seats.length };
  for (const item of OPTIONS.lobby) {
    const key = item.key;
    if (key === "players" || key === "difficulty") continue;
    if (isTable(preset) && SHOW_ONLY.has(key)) continue;
    if (key === "rounds" && !roundsApply(preset)) continue;
    const value = readControl(key);
    if (value === undefined) continue;
    if (value === null) {
      if (presetValue(preset, key) !== null) settings[key] = "none";
      continue;
    }
    if (value !== presetValue(preset, key)) settings[key] = value;
  }
  const out = {
    preset: preset.name,
    settings,
    difficulty: readControl("difficulty"),
    seats,
  };
  if (isTable(preset)) {
    Object.assign(settings, tableSettings(preset, { opening: $("#set-opening").value, target: $("#set-target").value }));
  }
  const options = {};
  const clock = clockValue($("#set-clock").value);
  if (clock !== (preset.clock?.default ?? null)) options.turn_time = clock;
  if ($("#set-hints").checked) options.hints = true;
  if (Object.keys(options).length) out.options = options;
  const title = $("#title").value.trim();
  if (title) out.title = title;
  // tests (and a server started to allow it) may fix the deals: /?seed=...
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed) out.seed = seed;
  return out;
}

function showError(text) {
  const el = $("#lobby-error");
  el.textContent = text;
  el.hidden = !text;
}

function linkRow(label, path, { primary = false } = {}) {
  const url = new URL(path, location.href).href;
  const id = `link-${Math.random().toString(36).slice(2, 8)}`;
  const input = h("input.link", { id, value: url, readonly: true });
  const copy = h("button.plain.copy", { type: "button", "aria-label": `Copy ${label}` }, "Copy");
  copy.addEventListener("click", async () => {
    const ok = await copyText(url);
    copy.textContent = ok ? "Copied" : "Select and copy";
    setTimeout(() => (copy.textContent = "Copy"), 2000);
  });
  return h(
    "li.link-row",
    h("label", { for: id }, label),
    h("span.link-line", input, copy, h(`a.button.${primary ? "primary" : "plain"}`, { href: path }, "Open")),
  );
}

function renderCreated(made, request) {
  const box = $("#created");
  box.textContent = "";
  const mine = made.seats.find((s) => s.kind === "human");
  box.append(h("h2#created-title", "Your table is ready"));
  box.append(
    h(
      "p",
      `${presetTitle(request.preset)} for ${made.seats.length} players` +
        (request.title ? `: ${request.title}` : "") +
        ". Each link below is shown only this once (this device keeps a copy under “Your tables”).",
    ),
  );
  const list = h("ul.links");
  for (const s of made.seats) {
    if (s.invite) {
      const who =
        s === mine
          ? `Your seat (seat ${s.seat + 1}, ${s.name})`
          : `Invite for seat ${s.seat + 1} (${s.name})`;
      list.append(linkRow(who, s.invite, { primary: s === mine }));
    } else {
      const level = CHOICE_WORDS.difficulty[s.bot] ? s.bot : (s.bot ?? "");
      const article = /^[aeiou]/i.test(level) ? "an" : "a";
      list.append(h("li.link-row.bot-seat", `Seat ${s.seat + 1}: ${s.name}, ${article} ${level} bot`));
    }
  }
  list.append(linkRow("Watch link (spectators see no hidden cards)", made.watch));
  box.append(list);
  const go = mine
    ? h("a.button.primary.big#take-seat", { href: mine.invite }, "Take your seat")
    : h("a.button.primary.big#take-seat", { href: made.watch }, "Watch the table");
  box.append(h("p.go", go));
  box.hidden = false;
  box.focus();
  box.scrollIntoView({ block: "start" });
}

function renderRecent() {
  const items = saved.list();
  const box = $("#recent");
  const list = $("#recent-list");
  list.textContent = "";
  box.hidden = items.length === 0;
  for (const e of items) {
    const links = [];
    for (const s of e.seats ?? []) links.push(h("a", { href: s.invite }, `${possessive(s.name)} seat`));
    if (e.watch) links.push(h("a", { href: e.watch }, "watch"));
    list.append(
      h(
        "li",
        h("span.recent-title", e.title || presetTitle(e.preset)),
        " ",
        h("span.muted", when(e.created)),
        " ",
        h(
          "span.recent-links",
          links.flatMap((a, i) => (i ? [" · ", a] : [a])),
        ),
      ),
    );
  }
}

async function create(ev) {
  ev.preventDefault();
  showError("");
  const button = $("#create");
  const request = body();
  button.disabled = true;
  button.textContent = "Creating…";
  try {
    const made = await api("/api/tables", { method: "POST", body: request });
    saved.add({
      match_id: made.match_id,
      title: request.title ?? "",
      preset: request.preset,
      created: new Date().toISOString(),
      seats: made.seats.filter((s) => s.invite).map((s) => ({ name: s.name, invite: s.invite })),
      watch: made.watch,
    });
    renderCreated(made, request);
    renderRecent();
  } catch (e) {
    showError(
      e instanceof ApiError ? `The table was not created: ${e.message}` : `The server did not answer: ${e}`,
    );
  } finally {
    button.disabled = false;
    button.textContent = "Create table";
  }
}

async function main() {
  renderRecent();
  try {
    OPTIONS = await api("/api/options");
  } catch (e) {
    showError(`The server did not answer: ${e.message}`);
    return;
  }
  renderPresets();
  renderSettings();
  choosePreset("nepali");
  $("#new-table").addEventListener("submit", create);
  document.body.dataset.ready = "true";
}

main();
