// The table: one seat's view (the invite link /t/ID?seat_token=...) or the spectator's
// (the watch link /watch/ID?token=...).  The server is authoritative: this page draws the view it
// sends and sends intents; the only state of its own is how you arranged your hand.
import { cardBack, cardName, cardShort, fillFace, isWild, miniRow, rankPlural, theCard } from "./cards.js";
import { api, TableSocket } from "./net.js";
import { sheetTable as sheetTableFor } from "./sheet.js";
import { $, ask, h, opened, presetTitle } from "./ui.js";

const sheetTable = (sheet) => sheetTableFor(sheet, { me: S.me });

const params = new URLSearchParams(location.search);
const parts = location.pathname.split("/").filter(Boolean);
const ROLE = parts[0] === "watch" ? "spectator" : "seat";
const MATCH = decodeURIComponent(parts[1] ?? "");
const TOKEN = ROLE === "seat" ? params.get("seat_token") : (params.get("token") ?? params.get("watch_token"));
const STORE_KEY = `rummykit.table.${MATCH}.${ROLE === "seat" ? (TOKEN ?? "").slice(0, 6) : "watch"}`;

const GROUP_LABELS = {
  run: "Run",
  set: "Set",
  thennaali: "Thennaali",
  jokers: "Jokers",
  loose: "Loose",
  aside: "Best throw",
};

const S = {
  view: null,
  version: null,
  me: null, // my match seat (null: spectator)
  order: [], // the hand as laid out here: [{uid, card, seg}]
  segs: [], // group labels of the layout Group made: [{kind, pure}]
  dealNo: null,
  marked: null, // uid of the marked card
  selected: new Set(), // the table family: uids of the cards picked for a meld, a lay-off or a swap
  pending: null, // id of the intent in flight
  pendingTimer: null,
  deadline: null, // {seat, until (ms), why}
  wantRematch: false,
  logLines: [],
  nextUid: 1,
  histories: null, // history URLs once the match is over
  connection: "connecting",
};

const el = {
  table: $("#table"),
  banner: $("#banner"),
  title: $("#match-title"),
  dealInfo: $("#deal-info"),
  conn: $("#conn"),
  opponents: $("#opponents"),
  stock: $("#stock"),
  stockLabel: $("#stock-label"),
  pile: $("#pile"),
  pileCard: $("#pile-card"),
  pileUnder: $(".pile-under"),
  pileLabel: $("#pile-label"),
  pileZone: $("#pile-zone"),
  cut: $("#cut-card"),
  cutLabel: $("#cut-label"),
  panel: $("#panel"),
  log: $("#log"),
  logPanel: $("#log-panel"),
  logButton: $("#log-button"),
  me: $("#me"),
  meName: $("#me-name"),
  meTotal: $("#me-total"),
  prompt: $("#prompt"),
  clock: $("#me-clock"),
  strip: $("#strip"),
  hand: $("#hand"),
  drop: $("#drop"),
  group: $("#group"),
  moveLeft: $("#move-left"),
  moveRight: $("#move-right"),
  throw: $("#throw"),
  show: $("#show"),
  status: $("#status"),
  announce: $("#announce"),
  sheetButton: $("#sheet-button"),
  sheetDialog: $("#sheet-dialog"),
  sheetBody: $("#sheet-dialog-body"),
  melds: $("#melds"),
  meter: $("#meter"),
  meterFill: $("#meter-fill"),
  meterText: $("#meter-text"),
  open: $("#open"),
  hint: $("#hint"),
  hintLine: $("#hint-line"),
  putBack: $("#put-back"),
  layDown: $("#lay-down"),
  handHelp: $("#hand-help"),
  cutSlot: $(".cut-slot"),
};

// ---------------------------------------------------------------------------------------------
// small readers of the view

const view = () => S.view;
const seatName = (s) =>
  s == null ? "The table" : s === S.me ? "You" : (S.view?.seats?.[s]?.name ?? `Seat ${s + 1}`);
const nameOf = (s) => S.view?.seats?.[s]?.name ?? `Seat ${s + 1}`;
const playing = () => S.view?.match?.phase === "playing" && S.view?.deal && !S.view.deal.result;
const myTurn = () => S.me != null && playing() && S.view.deal.to_play === S.me && S.view.legal != null;
const drawStep = () => myTurn() && S.view.deal.phase === "draw";
const throwStep = () => myTurn() && S.view.deal.phase === "throw";
const wild = () => S.view?.deal?.wild ?? null;
// Rummy 40 and Remi 51: melds go down on the table during play (docs/protocol.md, the table family)
const tableGame = () => S.view?.rules?.family === "table";

function saveLocal() {
  try {
    sessionStorage.setItem(
      STORE_KEY,
      JSON.stringify({
        version: S.version,
        dealNo: S.dealNo,
        order: S.order.map((e) => [e.card, e.seg]),
        segs: S.segs,
        log: S.logLines.slice(-150),
      }),
    );
  } catch {
    /* storage full or off: the page still works */
  }
}

function loadLocal() {
  try {
    const d = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? "null");
    if (!d) return null;
    S.dealNo = d.dealNo ?? null;
    S.order = (d.order ?? []).map(([card, seg]) => ({ uid: S.nextUid++, card, seg }));
    S.segs = d.segs ?? [];
    for (const line of d.log ?? []) addLogLine(line, false);
    return d.version ?? null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// words for events: short for the log, spoken for the live region

function describe(e, spoken) {
  const who = seatName(e.seat);
  const card = (c) => (spoken ? theCard(c) : cardShort(c));
  switch (e.kind) {
    case "dealt": {
      const cut = e.cut ? ` Cut: ${card(e.cut)}.` : "";
      const w = e.wild
        ? ` ${rankPlural(e.wild)[0].toUpperCase()}${rankPlural(e.wild).slice(1)} are wild.`
        : "";
      return `Deal ${e.deal}: ${nameOf(e.dealer)} dealt.${cut}${w} ${seatName(e.first)} ${e.first === S.me ? "play" : "plays"} first.`;
    }
    case "drew_stock":
      return e.card ? `${who} drew ${card(e.card)} from the stock` : `${who} drew from the stock`;
    case "took_pile":
      return `${who} took ${card(e.card)} from the pile`;
    case "threw":
      return `${who} threw ${card(e.card)}`;
    case "dropped":
      return `${who} dropped out of the deal (${e.cost})`;
    case "showed":
      return `${who} showed, finishing with ${card(e.card)}`;
    case "wrong_show":
      return `${who} showed wrong: ${e.reason} (${e.penalty})`;
    case "stock_rebuilt":
      return `The pile under its top card became the stock (${e.count} cards)`;
    case "opened": {
      const melds = e.melds.map((m) => m.cards.map(card).join(" ")).join(" | ");
      return `${who} opened with ${e.points}${e.waived ? " (threshold waived)" : ""}: ${melds}`;
    }
    case "laid_down":
      return `${who} laid down ${e.meld.cards.map(card).join(" ")}`;
    case "laid_off":
      return `${who} laid ${e.cards.map(card).join(" ")} off onto meld ${e.meld_id}`;
    case "swapped":
      return `${who} swapped ${card(e.card)} for the joker in meld ${e.meld_id}`;
    case "put_back":
      return `${who} put ${card(e.card)} back on the pile`;
    case "deal_ended": {
      const r = e.result;
      const ending = {
        show: "showed",
        "last in": "was the last seat in",
        "turn limit": "had the cheapest hand at the turn limit",
      };
      return `Deal ${e.deal} is over: ${seatName(r.winner)} ${ending[r.ending] ?? `won (${r.ending})`}`;
    }
    case "match_over": {
      const names = e.winners.map(seatName).join(" and ") || "nobody";
      return `The match is over: ${names} won`;
    }
    case "ready":
      return `${who} ${e.seat === S.me ? "are" : "is"} ready for the next deal`;
    case "joined":
      return `${who} joined the table`;
    case "started":
      return `${who} started the match`;
    case "rejoined":
      return `${who} rejoined the pool at ${e.total}`;
    case "rematch":
      return "A rematch is set up";
    default:
      return e.text ?? e.kind;
  }
}

const ANNOUNCED = new Set([
  "opened",
  "laid_down",
  "laid_off",
  "swapped",
  "put_back",
  "took_pile",
  "threw",
  "dropped",
  "showed",
  "wrong_show",
  "deal_ended",
  "match_over",
  "dealt",
  "rejoined",
  "rematch",
]);

function addLogLine(text, persist = true) {
  S.logLines.push(text);
  if (S.logLines.length > 300) S.logLines.shift();
  el.log.append(h("li", text));
  while (el.log.childElementCount > 200) el.log.firstElementChild.remove();
  el.log.scrollTop = el.log.scrollHeight;
  if (persist) saveLocal();
}

function announce(text) {
  const line = h("p", text);
  el.announce.append(line);
  while (el.announce.childElementCount > 4) el.announce.firstElementChild.remove();
}

function onEvents(events, catchup) {
  for (const e of events) {
    const short = describe(e, false) + (e.auto ? " (played for an away seat)" : "");
    addLogLine(short, false);
    if (
      !catchup &&
      ANNOUNCED.has(e.kind) &&
      (e.seat !== S.me || e.kind === "deal_ended" || e.kind === "match_over" || e.kind === "dealt")
    ) {
      announce(describe(e, true));
    }
  }
  if (events.length) saveLocal();
}

// ---------------------------------------------------------------------------------------------
// the hand as laid out here

function entry(card, seg = null) {
  return { uid: S.nextUid++, card, seg };
}

function segIsGroup(seg) {
  const k = S.segs[seg]?.kind;
  return k && k !== "loose" && k !== "aside";
}

/** Keep the local order for the cards still held; new cards go at the end. */
function reconcile() {
  const v = S.view;
  const cards = v?.hand?.cards ?? [];
  const dealNo = v?.deal?.number ?? null;
  if (dealNo !== S.dealNo) {
    S.dealNo = dealNo;
    S.order = cards.map((c) => entry(c));
    S.segs = [];
    S.marked = null;
    S.selected.clear();
    return;
  }
  const left = new Map();
  for (const c of cards) left.set(c, (left.get(c) ?? 0) + 1);
  const kept = [];
  const broken = new Set();
  for (const e of S.order) {
    if ((left.get(e.card) ?? 0) > 0) {
      left.set(e.card, left.get(e.card) - 1);
      kept.push(e);
    } else {
      if (e.seg != null && segIsGroup(e.seg)) broken.add(e.seg);
      if (S.marked === e.uid) S.marked = null;
    }
  }
  for (const e of kept) if (broken.has(e.seg)) e.seg = null;
  const added = [];
  for (const c of cards) {
    if ((left.get(c) ?? 0) > 0) {
      left.set(c, left.get(c) - 1);
      added.push(entry(c));
    }
  }
  S.order = kept.concat(added);
  if (!S.order.some((e) => e.seg != null)) S.segs = [];
  for (const uid of [...S.selected]) if (!S.order.some((e) => e.uid === uid)) S.selected.delete(uid);
}

/** Group: the hand as the arranger reads it, groups first, loose cards after. */
function groupHand() {
  const hand = S.view?.hand;
  if (!hand || !hand.cards.length) return;
  const pool = new Map();
  for (const e of S.order) {
    if (!pool.has(e.card)) pool.set(e.card, []);
    pool.get(e.card).push(e);
  }
  const take = (c, seg) => {
    const list = pool.get(c);
    const e = list && list.length ? list.shift() : entry(c);
    e.seg = seg;
    return e;
  };
  const segs = [];
  const order = [];
  for (const g of hand.groups) {
    const seg = segs.push({ kind: g.kind, pure: g.pure }) - 1;
    for (const c of g.cards) order.push(take(c, seg));
  }
  const loose = hand.loose.slice();
  let aside = null;
  if (hand.aside) {
    const i = loose.lastIndexOf(hand.aside);
    if (i >= 0) loose.splice(i, 1);
    aside = hand.aside;
  }
  if (loose.length) {
    const seg = segs.push({ kind: "loose" }) - 1;
    for (const c of loose) order.push(take(c, seg));
  }
  if (aside) {
    const seg = segs.push({ kind: "aside" }) - 1;
    order.push(take(aside, seg));
  }
  // anything the answer did not place (it always places all): keep it at the end
  for (const list of pool.values()) for (const e of list) if (!order.includes(e)) order.push(e);
  const placed = new Set();
  S.order = order.filter((e) => (placed.has(e.uid) ? false : placed.add(e.uid)));
  S.segs = segs;
  saveLocal();
  renderHand();
  const runs = hand.groups.filter((g) => g.kind === "run").length;
  const sets = hand.groups.filter((g) => g.kind === "set").length;
  setStatus(
    `Grouped: ${runs} run${runs === 1 ? "" : "s"}, ${sets} set${sets === 1 ? "" : "s"}, ${hand.loose.length} loose card${hand.loose.length === 1 ? "" : "s"}.`,
    "info",
  );
}

function moveEntry(uid, to) {
  const from = S.order.findIndex((e) => e.uid === uid);
  if (from < 0) return;
  const [e] = S.order.splice(from, 1);
  const at = Math.max(0, Math.min(S.order.length, to > from ? to - 1 : to));
  S.order.splice(at, 0, e);
  // arranged by hand: the arranger's labels no longer describe the layout
  for (const x of S.order) x.seg = null;
  S.segs = [];
  saveLocal();
  renderHand();
}

function moveBy(uid, delta) {
  const i = S.order.findIndex((e) => e.uid === uid);
  if (i < 0) return;
  const to = i + delta;
  if (to < 0 || to >= S.order.length) return;
  moveEntry(uid, delta > 0 ? to + 1 : to);
  focusCard(uid);
  announce(
    `${cardName(S.order.find((e) => e.uid === uid).card)} moved to place ${to + 1} of ${S.order.length}`,
  );
}

// ---------------------------------------------------------------------------------------------
// intents

function setStatus(text, kind = "warn") {
  el.status.textContent = text ?? "";
  el.status.dataset.kind = kind;
  clearTimeout(setStatus.timer);
  if (text && kind === "info") setStatus.timer = setTimeout(() => (el.status.textContent = ""), 6000);
}

let socket = null;

function send(intent) {
  if (S.pending) return false;
  const id = socket?.send(intent);
  if (!id) {
    setStatus("Not connected to the table: reconnecting…");
    return false;
  }
  S.pending = id;
  el.table.dataset.busy = "true";
  clearTimeout(S.pendingTimer);
  S.pendingTimer = setTimeout(clearPending, 8000);
  return true;
}

function clearPending() {
  S.pending = null;
  clearTimeout(S.pendingTimer);
  el.table.dataset.busy = "false";
}

function entryOf(uid) {
  return S.order.find((e) => e.uid === uid) ?? null;
}

async function tryThrow(uid) {
  const e = entryOf(uid);
  if (!e) return;
  const v = S.view;
  if (!playing()) return;
  if (v.deal.to_play !== S.me || !v.legal) {
    setStatus(`Not your turn: ${nameOf(v.deal.to_play)} is to play.`);
    return;
  }
  if (v.deal.phase === "draw") {
    setStatus("Take a card first: tap the stock or the pile.");
    return;
  }
  const legal = v.legal;
  if (!legal.throw.includes(e.card)) {
    if (legal.no_throw && legal.no_throw.card === e.card) {
      setStatus(`You cannot throw ${cardShort(e.card)}: ${legal.no_throw.reason}.`);
      shake(uid);
      return;
    }
    setStatus(`${cardShort(e.card)} cannot be thrown now.`);
    return;
  }
  if (legal.show.includes(e.card)) {
    const choice = await ask({
      title: "This card finishes a show",
      text: `Throwing ${theCard(e.card)} ends the deal with a show: you pay nothing. Show now, or just throw it?`,
      buttons: [
        { value: "show", label: `Show with ${cardShort(e.card)}`, kind: "show", autofocus: true },
        { value: "throw", label: "Just throw it", kind: "plain" },
        { value: "cancel", label: "Cancel", kind: "plain" },
      ],
    });
    if (choice === "show") return doShow(e.card);
    if (choice !== "throw") return;
  }
  if (send({ type: "throw", card: e.card })) {
    S.marked = null;
    S.selected.clear(); // the turn ends with the throw: nothing stays picked
    setStatus("");
  }
}

function doShow(card) {
  const legal = S.view?.legal;
  if (!legal?.show?.length) return;
  const marked = entryOf(S.marked)?.card;
  const finish = card ?? (marked && legal.show.includes(marked) ? marked : legal.show[0]);
  if (send({ type: "show", card: finish })) setStatus("");
}

function draw(from) {
  const v = S.view;
  if (!playing()) return;
  if (v.deal.to_play !== S.me || !v.legal) {
    setStatus(
      S.me == null ? "Spectators only watch." : `Not your turn: ${nameOf(v.deal.to_play)} is to play.`,
    );
    return;
  }
  if (v.deal.phase !== "draw") {
    if (from === "pile" && S.marked != null) {
      tryThrow(S.marked); // a marked card, then the pile: throw it there
      return;
    }
    setStatus("You have taken your card: now throw one (tap it twice, or drag it onto the pile).");
    return;
  }
  if (from === "pile" && !v.legal.draw_pile) {
    setStatus(v.legal.pile_refusal ?? "The pile cannot be taken now.");
    return;
  }
  send({ type: "draw", from });
}

async function doDrop() {
  const legal = S.view?.legal;
  if (!legal?.drop) return;
  const cost = legal.drop.cost;
  const choice = await ask({
    title: `Drop out of this deal for ${cost}?`,
    text: `You pay ${cost}, your hand is never shown, and the deal goes on without you.`,
    buttons: [
      { value: "keep", label: "Keep playing", kind: "plain", autofocus: true },
      { value: "drop", label: `Drop for ${cost}`, kind: "danger" },
    ],
  });
  if (choice === "drop" && S.view?.legal?.drop) send({ type: "drop" });
}

function tap(uid) {
  if (S.me == null) return;
  if (tableGame()) {
    pick(uid);
    return;
  }
  if (S.marked === uid) {
    tryThrow(uid);
    return;
  }
  S.marked = uid;
  renderHand();
  renderActions();
  focusCard(uid);
  const e = entryOf(uid);
  if (throwStep()) {
    const legal = S.view.legal;
    if (legal.no_throw && legal.no_throw.card === e.card) {
      setStatus(`${cardShort(e.card)} was just taken from the pile: ${legal.no_throw.reason}.`);
    } else {
      setStatus(`${cardShort(e.card)} marked: tap it again to throw it.`, "info");
    }
  }
}

function shake(uid) {
  const b = el.hand.querySelector(`button.card[data-uid="${uid}"]`);
  if (!b) return;
  b.classList.remove("shake");
  void b.offsetWidth;
  b.classList.add("shake");
}

// ---------------------------------------------------------------------------------------------
// rendering

function render() {
  const v = S.view;
  if (!v) return;
  const phase = v.match.phase;
  el.table.dataset.phase = phase;
  el.table.dataset.role = ROLE;
  el.table.dataset.version = String(S.version);
  el.table.dataset.turn = myTurn() ? "mine" : playing() ? "other" : "";
  el.table.dataset.step = playing() ? v.deal.phase : "";
  el.table.dataset.deal = v.deal ? String(v.deal.number) : "";
  el.table.dataset.status = S.me != null && v.deal ? String(v.seats[S.me].status ?? "") : "";
  document.body.dataset.phase = phase;
  el.table.dataset.family = tableGame() ? "table" : "show";
  renderHeader();
  renderSeats();
  renderCenter();
  renderMelds();
  renderMe();
  renderPanel();
}

function renderHeader() {
  const v = S.view;
  const m = v.match;
  const title = m.title || presetTitle(m.preset);
  el.title.textContent = ROLE === "spectator" ? `${title} · watching` : title;
  document.title = `${title} · rummykit`;
  const bits = [];
  if (v.deal) {
    const n = v.deal.number;
    bits.push(m.rounds ? `Deal ${n} of ${m.rounds}` : `Deal ${n}`);
    if (playing()) bits.push(`turn ${v.deal.turn}`);
    else if (m.phase === "between") bits.push("between deals");
  } else if (m.rounds) bits.push(`${m.rounds} deal${m.rounds === 1 ? "" : "s"}`);
  el.dealInfo.textContent = bits.join(" · ");
}

function seatOrder() {
  const n = S.view.seats.length;
  if (S.me == null) return S.view.seats.map((s) => s.seat);
  const out = [];
  for (let i = 1; i < n; i++) out.push((S.me + i) % n);
  return out;
}

function deadlineText(seat) {
  const d = S.deadline;
  if (!d || d.seat !== seat) return "";
  const left = Math.max(0, Math.ceil((d.until - Date.now()) / 1000));
  return `${left} s`;
}

function renderSeats() {
  const v = S.view;
  el.opponents.textContent = "";
  el.opponents.dataset.count = String(seatOrder().length);
  for (const s of seatOrder()) {
    const seat = v.seats[s];
    const toPlay = playing() && v.deal.to_play === s;
    const dealer = v.deal && v.deal.dealer === s;
    const status = seat.in_deal ? seat.status : seat.standing === "out" ? "out" : null;
    const words = [seat.name];
    if (seat.kind === "bot") words.push(`${seat.bot} bot`);
    else words.push(seat.connected ? "connected" : "away");
    if (seat.in_deal && status === "in") words.push(`${seat.cards} cards`);
    if (status === "dropped") words.push("dropped");
    if (status === "out") words.push("out");
    if (dealer) words.push("dealer");
    if (seat.opened) words.push("opened");
    if (toPlay) words.push("to play");
    words.push(`total ${seat.total_text}`);
    if (seat.took.length) words.push(`took from the pile: ${seat.took.map(cardName).join(", ")}`);
    const cls = ["seat"];
    if (toPlay) cls.push("to-play");
    if (status && status !== "in") cls.push(`is-${status}`);
    if (seat.kind === "human" && !seat.connected) cls.push("away");
    const fan = h("span.fan", { "aria-hidden": "true" });
    const shown = seat.in_deal && status === "in" ? Math.min(seat.cards, 5) : 0;
    for (let i = 0; i < shown; i++) fan.append(cardBack("tiny"));
    const clock = deadlineText(s);
    const kind =
      seat.kind === "bot"
        ? `${seat.bot} bot`
        : seat.connected
          ? "person"
          : seat.joined
            ? "away"
            : "not here yet";
    const art = h(
      `article.${cls.join(".")}`,
      { dataset: { seat: s }, "aria-label": words.join(", ") },
      h(
        "div.seat-head",
        { "aria-hidden": "true" },
        h("span.avatar", seat.name.slice(0, 1).toUpperCase()),
        h("span.seat-id", h("span.seat-name", seat.name), h("span.seat-sub", kind)),
        dealer ? h("span.chip.dealer", { title: "dealer" }, "D") : null,
      ),
      h(
        "div.seat-cards",
        { "aria-hidden": "true" },
        fan,
        seat.in_deal && status === "in" ? h("span.count", String(seat.cards)) : null,
        status === "dropped" ? h("span.chip.state", "Dropped") : null,
        status === "out" ? h("span.chip.state", "Out") : null,
        seat.opened ? h("span.chip.opened", "Opened") : null,
        toPlay ? h("span.chip.turn", clock || "to play") : null,
        !toPlay && clock ? h("span.chip.turn", clock) : null,
        h("span.seat-total", { title: "total" }, seat.total_text),
      ),
      seat.took.length
        ? h(
            "div.seat-took",
            { "aria-hidden": "true" },
            h("span.took-label", "took"),
            miniRow(seat.took.slice(-4), { wild: wild() }),
          )
        : null,
    );
    el.opponents.append(art);
  }
}

function renderCenter() {
  const v = S.view;
  const d = v.deal;
  el.piles = el.piles ?? $("#piles");
  el.piles.hidden = !d;
  if (!d) return;
  // stock
  const canStock = drawStep() && v.legal.draw_stock;
  el.stock.setAttribute("aria-disabled", String(!canStock));
  el.stock.classList.toggle("live", canStock);
  el.stock.setAttribute("aria-label", `Draw from the stock, ${d.stock_count} cards`);
  el.stockLabel.textContent = `Stock · ${d.stock_count}`;
  // pile
  const top = d.pile_top;
  el.pileCard.className = "card big";
  if (top) fillFace(el.pileCard, top, { wild: d.wild });
  else {
    el.pileCard.className = "card big empty";
    el.pileCard.textContent = "";
  }
  el.pileUnder.textContent = "";
  const under = d.pile.slice(0, -1).slice(-2);
  for (const c of under) {
    const u = h("span.card.big.under");
    fillFace(u, c, { wild: d.wild });
    el.pileUnder.append(u);
  }
  const canPile = drawStep() && v.legal.draw_pile;
  el.pile.setAttribute("aria-disabled", String(!canPile));
  el.pile.classList.toggle("live", canPile);
  // Remi 51 turns no card up at the deal: the pile is empty until the first throw
  let pileLabel = top ? `The pile: ${cardName(top)} on top` : "The pile is empty";
  if (drawStep() && top)
    pileLabel = canPile
      ? `Take ${theCard(top)} from the pile`
      : `The pile (${cardName(top)}): ${v.legal.pile_refusal ?? "cannot be taken"}`;
  else if (throwStep())
    pileLabel = `${top ? `The pile: ${cardName(top)} on top` : "The pile is empty"}. Throw the marked card here`;
  el.pile.setAttribute("aria-label", pileLabel);
  el.pileLabel.textContent =
    d.pile_take && d.to_play != null
      ? `Pile · ${seatName(d.to_play)} took ${cardShort(d.pile_take)}`
      : `Pile · ${d.pile.length}`;
  el.pileZone.classList.toggle("throw-here", throwStep());
  // the cut card (the table family has none: only its printed jokers are wild)
  if (el.cutSlot) el.cutSlot.hidden = tableGame();
  if (d.cut) {
    el.cut.className = "card mid cut";
    fillFace(el.cut, d.cut, { wild: d.wild });
    el.cut.classList.add("mid", "cut");
    el.cut.setAttribute("role", "img");
    el.cut.setAttribute(
      "aria-label",
      `The cut card: ${cardName(d.cut)}${d.wild ? `; ${rankPlural(d.wild)} are wild` : ""}`,
    );
    el.cutLabel.textContent = d.wild ? `Cut · ${rankPlural(d.wild)} wild` : "Cut";
  } else {
    el.cut.className = "card mid cut empty";
    el.cut.textContent = "";
    el.cut.setAttribute("role", "img");
    el.cut.setAttribute(
      "aria-label",
      d.wild ? `No cut card; ${rankPlural(d.wild)} are wild` : "No cut card: only printed jokers are wild",
    );
    el.cutLabel.textContent = d.wild ? `${rankPlural(d.wild)} wild` : "No cut · jokers wild";
  }
}

function promptText() {
  const v = S.view;
  if (S.me == null) return "";
  const phase = v.match.phase;
  if (phase === "waiting") return "Waiting for the table to start";
  if (phase === "between") return "Between deals";
  if (phase === "over") return "The match is over";
  if (!v.deal) return "";
  const mine = v.seats[S.me];
  if (!mine.in_deal) return "You sit this deal out";
  if (mine.status === "dropped") return "You dropped out of this deal";
  if (mine.status === "out") return "You are out of this deal";
  if (myTurn() && tableGame()) {
    if (v.deal.phase === "draw") return ["Your turn: take a card", " from the stock or the pile"];
    if (v.deal.pile_due)
      return [`Use ${cardShort(v.deal.pile_due)} in a meld`, " before you throw (or put it back)"];
    if (v.deal.owed_jokers) return ["Lay the freed joker down", " this turn"];
    return v.hand?.opened
      ? ["Your turn: meld, lay off, then throw", " (select cards, tap a meld)"]
      : ["Your turn: open or throw", " (drag a card onto the pile)"];
  }
  if (myTurn()) {
    if (v.deal.phase === "draw") return ["Your turn: take a card", " from the stock or the pile"];
    return v.legal.show.length
      ? ["Your turn: you can show!", ""]
      : ["Your turn: throw a card", " (tap it twice, or drag it onto the pile)"];
  }
  return `${nameOf(v.deal.to_play)} is to play`;
}

function renderMe() {
  const v = S.view;
  el.me.hidden = S.me == null;
  if (S.me == null) return;
  const mine = v.seats[S.me];
  el.meName.textContent = mine.name;
  el.meTotal.textContent = mine.total_text;
  el.meTotal.setAttribute("aria-label", `your total ${mine.total_text}`);
  const prompt = promptText();
  el.prompt.textContent = "";
  if (Array.isArray(prompt)) el.prompt.append(prompt[0], h("span.prompt-more", prompt[1]));
  else el.prompt.textContent = prompt;
  el.me.classList.toggle("my-turn", myTurn());
  const clock = deadlineText(S.me);
  el.clock.hidden = !clock;
  el.clock.textContent = clock ? `⏱ ${clock}` : "";
  renderStrip();
  renderMeter();
  renderHand();
  renderActions();
}

function renderStrip() {
  const v = S.view;
  const hand = v.hand;
  el.strip.textContent = "";
  el.strip.className = "strip";
  if (!hand || !hand.cards.length || !playing()) {
    el.strip.hidden = true;
    return;
  }
  el.strip.hidden = false;
  const legal = v.legal;
  if (tableGame()) {
    const left = hand.leftover;
    el.strip.append(h("span.count-label", `Your hand counts ${hand.count}`));
    if (left) {
      const moves = left.melds.length + left.layoffs.length;
      el.strip.append(
        h("span.charge", moves ? ` · down to ${left.cost} if you put down what fits` : " · nothing more fits the table"),
      );
    }
    return;
  }
  if (legal?.show?.length) {
    el.strip.classList.add("ready");
    const cards = legal.show.map(cardShort).join(" or ");
    el.strip.append(h("strong", "A show! "), `Throw ${cards} and lay the thirteen down: press Show.`);
    return;
  }
  if (hand.can_show) {
    el.strip.classList.add("ready");
    el.strip.append(
      h("strong", "Your thirteen cards are a show. "),
      "Take a card, then show with the card you do not need.",
    );
    return;
  }
  el.strip.append(h("span.needs-label", "A show still needs: "), h("span.needs", hand.needs.join(" · ")));
  el.strip.append(h("span.charge", ` · now you would pay ${hand.charge}`));
}

function renderHand() {
  const v = S.view;
  const hand = v?.hand;
  const focusedUid = document.activeElement?.closest?.("#hand button.card")?.dataset.uid;
  el.hand.textContent = "";
  if (!hand || !hand.cards.length) {
    el.hand.hidden = true;
    return;
  }
  el.hand.hidden = false;
  const legal = v.legal;
  const finishing = new Set(legal?.show ?? []);
  const noThrow = legal?.no_throw?.card ?? null;
  const drawn = hand.drawn;
  let drawnMarked = false;
  const lastDrawnIndex = drawn ? S.order.map((e) => e.card).lastIndexOf(drawn) : -1;
  if (S.marked != null && !entryOf(S.marked)) S.marked = null;
  const tabUid = S.marked ?? (focusedUid ? Number(focusedUid) : S.order[0]?.uid);
  // clusters: runs of entries with the same group label
  let cluster = null;
  let clusterSeg;
  S.order.forEach((e, i) => {
    if (!cluster || e.seg !== clusterSeg) {
      clusterSeg = e.seg;
      const seg = e.seg != null ? S.segs[e.seg] : null;
      const label = seg
        ? seg.kind === "run" && seg.pure
          ? "Clean run"
          : (GROUP_LABELS[seg.kind] ?? seg.kind)
        : null;
      cluster = h(`div.cluster${seg ? `.seg-${seg.kind}${seg.pure ? ".pure" : ""}` : ".unlabelled"}`, {
        role: "group",
      });
      if (label) {
        cluster.setAttribute("aria-label", label);
        cluster.append(h("span.cluster-label", { "aria-hidden": "true" }, label));
      } else cluster.setAttribute("aria-label", "Cards");
      cluster.append(h("span.cluster-cards"));
      el.hand.append(cluster);
    }
    const b = h("button.card.hand-card", {
      type: "button",
      dataset: { uid: e.uid, card: e.card },
      tabindex: e.uid === tabUid ? "0" : "-1",
    });
    fillFace(b, e.card, { wild: v.deal?.wild });
    b.classList.add("hand-card");
    const notes = [];
    if (isWild(e.card, v.deal?.wild) && e.card !== "JK") notes.push("wild");
    const picked = e.uid === S.marked || S.selected.has(e.uid);
    if (picked) {
      b.classList.add("marked");
      notes.push(tableGame() ? "selected" : "marked");
    }
    b.setAttribute("aria-pressed", String(picked));
    if (finishing.has(e.card)) {
      b.classList.add("finishing");
      notes.push("finishing card: throw it to show");
    }
    if (i === lastDrawnIndex && !drawnMarked) {
      drawnMarked = true;
      b.classList.add("fresh");
      notes.push(
        noThrow === e.card ? "just taken from the pile, cannot be thrown back this turn" : "just drawn",
      );
      if (noThrow === e.card) b.classList.add("no-throw");
    } else if (noThrow === e.card && !drawn) {
      b.classList.add("no-throw");
    }
    if (b.classList.contains("no-throw")) {
      b.append(h("span.badge.no-throw-badge", { "aria-hidden": "true" }, "taken"));
    } else if (b.classList.contains("fresh")) {
      b.append(h("span.badge.fresh-badge", { "aria-hidden": "true" }, "new"));
    }
    if (finishing.has(e.card)) b.append(h("span.badge.finish-badge", { "aria-hidden": "true" }, "show"));
    b.setAttribute("aria-label", [cardName(e.card), ...notes].join(", "));
    cluster.lastElementChild.append(b);
  });
  el.hand.setAttribute("aria-label", `Your hand, ${hand.cards.length} cards`);
  if (focusedUid) focusCard(Number(focusedUid));
}

function focusCard(uid) {
  const b = el.hand.querySelector(`button.card[data-uid="${uid}"]`);
  if (!b) return;
  for (const x of el.hand.querySelectorAll("button.card")) x.tabIndex = -1;
  b.tabIndex = 0;
  if (document.activeElement !== b) b.focus({ preventScroll: true });
}

function renderActions() {
  const v = S.view;
  const hand = v.hand;
  const has = !!(hand && hand.cards.length && playing() && v.seats[S.me]?.status === "in");
  el.group.hidden = !has || tableGame();
  renderTableActions();
  // the table family throws one selected card; with several selected, Throw waits
  const marked = tableGame() && S.selected.size > 1 ? null : entryOf(S.marked);
  el.moveLeft.hidden = el.moveRight.hidden = !(has && marked);
  // Drop: only when the server says it is allowed now, kept apart from the throw
  const drop = drawStep() ? v.legal.drop : null;
  el.drop.hidden = !drop;
  if (drop) {
    el.drop.textContent = `Drop (${drop.cost})`;
    el.drop.setAttribute("aria-label", `Drop out of this deal for ${drop.cost}`);
  }
  // Throw: the marked card
  const canThrow = throwStep();
  el.throw.hidden = !canThrow;
  if (canThrow) {
    const blocked = !!marked && !v.legal.throw.includes(marked.card);
    el.throw.disabled = !marked;
    el.throw.classList.toggle("blocked", blocked);
    el.throw.setAttribute("aria-disabled", String(blocked));
    el.throw.textContent = "";
    if (!marked) el.throw.append("Throw");
    else if (blocked) el.throw.append("Can't throw", h("span.wide-only", ` ${cardShort(marked.card)} back`));
    else el.throw.append("Throw", h("span.wide-only", ` ${cardShort(marked.card)}`));
    el.throw.setAttribute(
      "aria-label",
      !marked
        ? "Throw: mark a card first"
        : blocked
          ? `${cardName(marked.card)} cannot be thrown now`
          : `Throw ${cardName(marked.card)}`,
    );
  }
  // Show: only when this is genuinely a show
  const shows = throwStep() ? v.legal.show : [];
  el.show.hidden = !shows.length;
  if (shows.length) {
    const finish = marked && shows.includes(marked.card) ? marked.card : shows[0];
    el.show.textContent = "";
    el.show.append("Show", h("span.sub.wide-only", ` with ${cardShort(finish)}`));
    el.show.setAttribute("aria-label", `Show, finishing with ${cardName(finish)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// the table family (Rummy 40, Remi 51): melds on the table, the Opening meter, lay-offs and swaps

function selectedCards() {
  return S.order.filter((e) => S.selected.has(e.uid)).map((e) => e.card);
}

/** Tap a card: select it, or let it go (several may be selected: a meld, a lay-off). */
function pick(uid) {
  const e = entryOf(uid);
  if (!e) return;
  if (S.selected.has(uid)) {
    S.selected.delete(uid);
    if (S.marked === uid) S.marked = [...S.selected].pop() ?? null;
  } else {
    S.selected.add(uid);
    S.marked = uid;
  }
  renderHand();
  renderActions();
  focusCard(uid);
  const n = S.selected.size;
  if (!n) setStatus("");
  else if (throwStep()) {
    const words = n === 1 ? `${cardShort(e.card)} selected` : `${n} cards selected`;
    const opened = S.view.hand?.opened;
    setStatus(
      opened
        ? `${words}: tap a meld to lay ${n === 1 ? "it" : "them"} off${n === 1 ? ", a joker to swap it in, or Throw" : ", or Lay down"}.`
        : `${words}.${n === 1 ? " Throw it, or drag it onto the pile." : ""}`,
      "info",
    );
  }
}

function clearSelection() {
  S.selected.clear();
  S.marked = null;
}

function seatsInMeldOrder() {
  const n = S.view.seats.length;
  if (S.me == null) return S.view.seats.map((s) => s.seat);
  return Array.from({ length: n }, (_, i) => (S.me + i) % n);
}

function renderMelds() {
  const v = S.view;
  const d = v.deal;
  el.melds.textContent = "";
  el.melds.hidden = !tableGame() || !d;
  if (el.melds.hidden) return;
  const melds = d.melds ?? [];
  el.melds.dataset.count = String(melds.length);
  if (!melds.length) {
    el.melds.append(h("p.melds-empty", `No melds on the table yet. Opening needs ${d.opening} points.`));
    return;
  }
  const tap = throwStep() && v.hand?.opened;
  for (const owner of seatsInMeldOrder()) {
    const mine = melds.filter((m) => m.owner === owner);
    if (!mine.length) continue;
    const group = h(
      `section.meld-owner${owner === S.me ? ".mine" : ""}`,
      { "aria-label": `${owner === S.me ? "Your" : `${nameOf(owner)}'s`} melds` },
      h("h3.meld-owner-name", owner === S.me ? "Your melds" : nameOf(owner)),
    );
    const row = h("div.meld-row");
    for (const m of mine) {
      const words = m.cards
        .map((c, i) => (c === "JK" ? `joker as ${cardName(m.stands_for[i])}` : cardName(c)))
        .join(", ");
      const box = h(`div.meld.${m.kind}${tap ? ".live" : ""}`, {
        role: "group",
        dataset: { meld: m.id },
        "aria-label": `Meld ${m.id}, ${m.kind}: ${words}`,
      });
      box.append(h("span.meld-id", { "aria-hidden": "true" }, String(m.id)));
      m.cards.forEach((c, i) => {
        const joker = c === "JK";
        const b = h("button.card.mini.mcard", {
          type: "button",
          dataset: { meld: m.id, slot: i },
          "aria-label": joker
            ? `Swap into meld ${m.id}: the joker stands for ${cardName(m.stands_for[i])}`
            : `Lay off onto meld ${m.id} (${cardName(c)})`,
        });
        fillFace(b, c, {});
        b.classList.add("mini", "mcard");
        if (joker) {
          b.classList.add("joker-slot");
          b.dataset.stands = m.stands_for[i];
          b.append(h("span.stands", { "aria-hidden": "true" }, cardShort(m.stands_for[i])));
        }
        box.append(b);
      });
      row.append(box);
    }
    group.append(row);
    el.melds.append(group);
  }
}

function onMeldClick(ev) {
  const b = ev.target.closest("button.mcard");
  if (!b) return;
  playOnMeld(Number(b.dataset.meld), b.classList.contains("joker-slot"), selectedCards());
}

/** Selected cards onto meld ``id``: a swap when one natural card goes onto a joker, else a lay-off. */
function playOnMeld(id, onJoker, cards) {
  if (S.me == null) return;
  const v = S.view;
  if (!myTurn()) {
    setStatus(playing() ? `Not your turn: ${nameOf(v.deal.to_play)} is to play.` : "No deal is being played.");
    return;
  }
  if (v.deal.phase === "draw") {
    setStatus("Take a card first: tap the stock or the pile.");
    return;
  }
  if (!cards.length) {
    setStatus(
      onJoker
        ? "Select the card the joker stands for in your hand, then tap the joker."
        : "Select a card in your hand first, then tap the meld.",
    );
    return;
  }
  const message =
    onJoker && cards.length === 1 && cards[0] !== "JK"
      ? { type: "swap", meld: id, card: cards[0] }
      : { type: "lay_off", meld: id, cards };
  // the selection stays until the update takes the cards away (a refusal leaves it as it was)
  if (send(message)) setStatus("");
}

function layDown() {
  const cards = selectedCards();
  if (cards.length < 3) {
    setStatus("Select three or more cards for a new meld.");
    return;
  }
  if (send({ type: "lay_down", cards })) setStatus("");
}

function openWithMeter() {
  const meter = S.view?.hand?.meter;
  if (!meter?.can_open) {
    setStatus(meter?.why ?? "No opening now.");
    return;
  }
  if (send({ type: "open", melds: meter.melds })) setStatus("");
}

function askHint() {
  if (!myTurn()) return;
  el.hintLine.hidden = false;
  el.hintLine.textContent = "Thinking…";
  if (!socket?.send({ type: "hint" })) el.hintLine.textContent = "Not connected to the table.";
}

function onHint(msg) {
  el.hintLine.hidden = false;
  el.hintLine.textContent = msg.text;
  S.hintVersion = msg.version;
}

function renderMeter() {
  const v = S.view;
  const meter = tableGame() && playing() ? v.hand?.meter : null;
  el.meter.hidden = !meter;
  if (!meter) return;
  const { points, threshold } = meter;
  el.meter.dataset.points = String(points);
  el.meter.dataset.threshold = String(threshold);
  el.meter.classList.toggle("ready", meter.ready);
  el.meterFill.style.width = `${Math.min(100, Math.round((100 * points) / Math.max(1, threshold)))}%`;
  el.meterText.textContent = `${points} / ${threshold}`;
  el.meter.setAttribute(
    "aria-label",
    `Opening meter: your best opening makes ${points} of the ${threshold} points${meter.why ? `; ${meter.why}` : ""}`,
  );
  el.meter.setAttribute("role", "group");
  el.open.hidden = !meter.can_open;
  if (meter.can_open) {
    el.open.textContent = `Open (${points})`;
    el.open.setAttribute(
      "aria-label",
      `Open with ${meter.melds.map((m) => m.map(cardShort).join(" ")).join(", ")}: ${points} points`,
    );
  }
  el.meter.title = meter.why ?? "";
}

function renderTableActions() {
  const v = S.view;
  const table = tableGame();
  const step = table && throwStep();
  el.putBack.hidden = !(step && v.legal.put_back);
  const opened = !!v.hand?.opened;
  el.layDown.hidden = !(step && opened);
  el.layDown.disabled = S.selected.size < 3;
  el.hint.hidden = !(myTurn() && v.match.hints);
  if (S.hintVersion != null && S.hintVersion !== S.version) {
    el.hintLine.hidden = true; // the table moved on: the hint was for a moment gone by
    S.hintVersion = null;
  }
  el.handHelp.textContent = table
    ? "Tap cards to select them. Tap a meld on the table to lay them off, or tap a joker there to swap your card in; drag a card onto a meld or onto the pile. Lay down makes a new meld of the selected cards."
    : "Tap a card to mark it, tap it again to throw it, or drag it onto the pile. Drag cards along the hand to arrange them. Keys: ← → between cards, Shift + ← → moves a card, Enter marks and throws.";
}

/** The meld (and whether its joker) under a point, for a card dragged out of the hand. */
function meldAt(x, y) {
  if (!tableGame() || el.melds.hidden) return null;
  for (const box of el.melds.querySelectorAll(".meld")) {
    const r = box.getBoundingClientRect();
    if (x >= r.left - 6 && x <= r.right + 6 && y >= r.top - 6 && y <= r.bottom + 6) {
      let joker = false;
      for (const j of box.querySelectorAll(".joker-slot")) {
        const q = j.getBoundingClientRect();
        if (x >= q.left && x <= q.right && y >= q.top && y <= q.bottom) joker = true;
      }
      return { id: Number(box.dataset.meld), box, joker };
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// panels: waiting, between deals (the score sheet waits for Next round), the end of the match

const VALUE = { A: 10, J: 10, Q: 10, K: 10 };

function cardValue(card, wildRank) {
  if (isWild(card, wildRank)) return 0;
  const rank = card.slice(0, -1);
  return VALUE[rank] ?? Number(rank);
}

function endingWords(r) {
  const who = seatName(r.winner);
  const finish = r.finish_card ? `, finishing with ${cardShort(r.finish_card)}` : "";
  switch (r.ending) {
    case "show":
      return `${who} showed${finish}`;
    case "last in":
      return `${who} ${who === "You" ? "were" : "was"} the last seat in: everybody else dropped`;
    case "turn limit":
      return `The turn limit: ${who} had the cheapest hand`;
    case "out": {
      const how = r.finish_card ? `, closing with ${cardShort(r.finish_card)}` : " by laying down the last card";
      const note = r.note ? ` (${r.note}${r.doubled ? ": the others count double" : ""})` : "";
      return `${who} went out${how}${note}`;
    }
    case "blocked":
      return `The deal is blocked: ${who} had the lightest hand`;
    default:
      return `${who} won (${r.ending})`;
  }
}

/** Every hand of the finished deal as it was laid down (public once the deal is over). */
function resultBlock(deal) {
  const r = deal.result;
  const rules = S.view.rules;
  const box = h("section.result", { "aria-labelledby": "result-title" });
  box.append(h("h3#result-title.result-title", `The hands of deal ${deal.number}`));
  const grid = h("div.result-seats");
  for (const rs of r.seats) {
    const name = nameOf(rs.seat);
    const card = h(`div.result-seat${rs.won ? ".won" : ""}${rs.seat === S.me ? ".mine" : ""}`);
    const charge = rs.won
      ? `Winner · ${rs.charge}`
      : rs.status === "dropped"
        ? `Dropped · ${rs.charge}`
        : rs.status === "out"
          ? `Wrong show · ${rs.charge}`
          : `Charged ${rs.charge}`;
    card.append(h("div.result-head", h("span.result-name", name), h("span.result-charge", charge)));
    if (r.halved && rs.unhalved != null && rs.unhalved !== rs.charge) {
      // an early show halves what every other seat is charged, drops and wrong shows too
      card.append(h("p.note.halved", `Halved from ${rs.unhalved}: an early show.`));
    }
    if (rs.status === "dropped") {
      card.append(h("p.muted", "Dropped: the hand is never shown."));
    } else {
      const groups = h("div.result-groups");
      for (const g of rs.groups) groups.append(miniRow(g, { wild: deal.wild, label: "group", size: "mini" }));
      if (rs.loose.length) {
        const table = rules.family === "table";
        const loose = h(
          "span.loose-row",
          h("span.loose-label", { "aria-hidden": "true" }, table ? "left" : "loose"),
          miniRow(rs.loose, { wild: deal.wild, label: table ? "cards left in hand" : "loose cards", size: "mini" }),
        );
        groups.append(loose);
      }
      card.append(groups);
      const looseSum = rs.loose.reduce((t, c) => t + cardValue(c, deal.wild), 0);
      const notes = [];
      if (rules.family === "table") {
        if (!rs.won && r.doubled) notes.push(`${rs.hand_charge} counted double`);
        if (rs.won && !rs.loose.length) notes.push("Went out: no card left");
      } else if (!rs.won && rs.charge > looseSum && rs.status === "in") {
        notes.push(
          rules.credit === "pure"
            ? "No clean run: every card counts"
            : "Not enough runs: the groups do not count",
        );
      }
      if (
        !rs.won &&
        rules.full_count != null &&
        rs.charge === rules.full_count &&
        rs.hand_charge != null &&
        rs.hand_charge > rs.charge
      ) {
        notes.push(`capped at ${rules.full_count}`);
      }
      if (notes.length) card.append(h("p.note", notes.join(", ") + "."));
    }
    grid.append(card);
  }
  box.append(grid);
  return box;
}

function renderPanel() {
  const v = S.view;
  const phase = v.match.phase;
  const key = `${phase}/${S.version}/${S.wantRematch}/${S.histories?.length ?? -1}`;
  if (el.panel.dataset.key === key) return;
  const keepFocus = el.panel.contains(document.activeElement) ? document.activeElement.id : null;
  el.panel.dataset.key = key;
  el.panel.textContent = "";
  el.panel.hidden = true;
  if (v.match.broken) {
    el.panel.hidden = false;
    el.panel.append(h("section.panel.broken", h("h2", "This table cannot go on"), h("p", v.match.broken)));
    return;
  }
  if (phase === "waiting") {
    el.panel.hidden = false;
    const waiting = v.seats.filter((s) => s.kind === "human" && !s.joined);
    const box = h("section.panel.waiting#waiting-panel", { "aria-labelledby": "waiting-title" });
    box.append(h("h2#waiting-title", "Waiting for the seats to open their links"));
    box.append(
      h(
        "ul.waiting-list",
        v.seats.map((s) =>
          h(
            "li",
            `${s.name}: ${s.kind === "bot" ? "a bot, ready" : s.joined ? "here" : "has not opened the invite link yet"}`,
          ),
        ),
      ),
    );
    if (S.me != null && waiting.length) {
      box.append(
        h(
          "p",
          "The first deal starts when everybody is here. You can also start now without the seats that have not come.",
        ),
        h("button.primary#start", { type: "button", onclick: () => send({ type: "start" }) }, "Start now"),
      );
    }
    el.panel.append(box);
  } else if (phase === "between" || phase === "over") {
    el.panel.hidden = false;
    const box = h(`section.panel.sheet-panel.${phase}#${phase}-panel`, {
      "aria-labelledby": `${phase}-title`,
    });
    const r = v.deal?.result;
    if (phase === "over") {
      const winners = v.match.winners;
      const names = winners.map(seatName).join(" and ") || "Nobody";
      const mine = winners.includes(S.me);
      const others = winners
        .filter((w) => w !== S.me)
        .map(nameOf)
        .join(" and ");
      const words = mine
        ? others
          ? `You share the match with ${others}!`
          : "You win the match!"
        : `${names} ${winners.length > 1 ? "share" : "wins"} the match`;
      box.append(
        h("h2#over-title.winner-title", h("span.trophy", { "aria-hidden": "true" }, "★"), " ", words),
      );
      if (r) box.append(h("p.deal-line", `Last deal: ${endingWords(r)}.`));
    } else {
      box.append(
        h(
          "h2#between-title",
          `After deal ${v.match.deals_played}${v.match.rounds ? ` of ${v.match.rounds}` : ""}`,
        ),
      );
      if (r) box.append(h("p.deal-line", `${endingWords(r)}.`));
    }
    box.append(...sheetTable(v.sheet));
    const actions = h("div.panel-actions");
    if (phase === "between") {
      const b = v.between;
      if (S.me != null) {
        const ready = b.ready.includes(S.me);
        if (b.offer) {
          actions.append(
            h(
              "button.show#rejoin",
              { type: "button", onclick: () => send({ type: "rejoin" }) },
              `Rejoin at ${b.offer.total}`,
            ),
          );
          const left = b.offer.rejoins_left;
          actions.append(
            h(
              "span.muted",
              left == null
                ? "You are out of the pool: rejoin, or watch the rest"
                : `You are out of the pool · ${left} rejoin${left === 1 ? "" : "s"} left`,
            ),
          );
        }
        if (!(b.offer && v.seats[S.me].standing === "out")) {
          actions.append(
            h(
              "button.primary.big#next-round",
              { type: "button", disabled: ready, onclick: () => send({ type: "next_round" }) },
              ready ? "Ready" : "Next round",
            ),
          );
        }
      }
      const waiting = b.waiting_for.filter((s) => s !== S.me);
      if (waiting.length)
        actions.append(h("p.muted.waiting-for", `Waiting for ${waiting.map(nameOf).join(", ")}`));
      if (v.sheet.offers.length && S.me == null)
        actions.append(
          h(
            "p.muted",
            `Offered a rejoin: ${v.sheet.offers.map((o) => `${nameOf(o.seat)} at ${o.total}`).join(", ")}`,
          ),
        );
      box.append(h("p.status-line", v.sheet.status_line), actions);
    } else {
      const rm = v.match.rematch;
      if (rm?.url) {
        actions.append(
          h(
            "a.button.primary.big#rematch-link",
            { href: rm.url },
            S.me == null ? "Watch the rematch" : "Play the rematch",
          ),
        );
      } else if (S.me != null) {
        actions.append(
          h(
            "button.primary.big#rematch",
            {
              type: "button",
              disabled: S.wantRematch,
              onclick: () => {
                S.wantRematch = true;
                if (!send({ type: "rematch" })) S.wantRematch = false;
                renderPanel();
              },
            },
            S.wantRematch ? "Setting up the rematch…" : "Rematch",
          ),
        );
      }
      actions.append(h("a.button.plain", { href: "/" }, "New table"));
      actions.append(h("a.button.plain", { href: `/history?match=${encodeURIComponent(MATCH)}` }, "History"));
      box.append(actions);
      if (S.histories?.length) {
        box.append(
          h(
            "p.downloads-line",
            "Hand histories: ",
            h(
              "span.downloads",
              S.histories.flatMap((url, i) => [
                i ? " · " : "",
                h("a", { href: url, download: "" }, `deal ${i + 1}`),
              ]),
            ),
          ),
        );
      }
    }
    if (r) box.append(resultBlock(v.deal));
    el.panel.append(box);
  }
  if (keepFocus) document.getElementById(keepFocus)?.focus();
}

function renderSheetDialog() {
  el.sheetBody.textContent = "";
  if (S.view) el.sheetBody.append(...sheetTable(S.view.sheet));
}

// ---------------------------------------------------------------------------------------------
// the socket

function applyView({ view: v, version, events, catchup, id, kind }) {
  const firstView = S.view == null;
  const before = S.view;
  S.view = v;
  S.version = version;
  S.me = v.you.seat;
  if (v.deadline)
    S.deadline = {
      seat: v.deadline.seat,
      until: Date.now() + v.deadline.seconds * 1000,
      why: v.deadline.why,
    };
  else S.deadline = null;
  if (id && id === S.pending) clearPending();
  else if (S.pending && kind === "update" && events.some((e) => e.seat === S.me)) clearPending();
  reconcile();
  // the table family: a move of mine went through, so an older warning no longer applies
  if (tableGame() && !catchup && events.some((e) => e.seat === S.me && e.deal != null) && el.status.dataset.kind === "warn")
    setStatus("");
  onEvents(events, catchup || firstView);
  // your turn, said once when it comes round
  const wasMine = before && before.deal && before.deal.to_play === S.me && before.match.phase === "playing";
  if (myTurn() && (!wasMine || before.deal.number !== v.deal.number) && !firstView) announce("Your turn.");
  if (v.match.rematch?.url && S.wantRematch) {
    location.href = v.match.rematch.url;
    return;
  }
  if (v.match.phase === "over" && S.histories == null) loadHistories();
  render();
  saveLocal();
}

async function loadHistories() {
  S.histories = [];
  try {
    const d = await api(`/api/matches/${encodeURIComponent(MATCH)}`);
    S.histories = d.history_urls ?? [];
  } catch {
    S.histories = [];
  }
  if (S.view) renderPanel();
}

function onPresence(msg) {
  if (!S.view) return;
  for (const p of msg.seats) {
    const seat = S.view.seats[p.seat];
    if (seat) {
      seat.connected = p.connected;
      seat.away_turns = p.away_turns;
    }
  }
  const d = msg.deadline;
  S.deadline = d ? { seat: d.seat, until: Date.now() + d.seconds * 1000, why: d.why } : null;
  renderSeats();
  if (S.me != null) renderMe();
}

function onError(msg) {
  if (msg.id && msg.id === S.pending) clearPending();
  if (msg.id && S.wantRematch) {
    S.wantRematch = false;
    renderPanel();
  }
  setStatus(msg.reason + (msg.expected && !/^stale/.test(msg.reason) ? ` (${msg.expected})` : ""));
}

function onConnection(state, detail) {
  S.connection = state;
  el.conn.dataset.state = state;
  el.conn.setAttribute("aria-label", state === "open" ? "connected" : state);
  el.conn.title = state === "open" ? "connected" : state;
  if (state === "open") {
    el.banner.hidden = true;
    el.banner.textContent = "";
    return;
  }
  if (state === "reconnecting") {
    el.banner.hidden = false;
    el.banner.dataset.kind = "warn";
    el.banner.textContent = "Reconnecting…";
    clearPending();
    return;
  }
  if (state === "closed") {
    el.banner.hidden = false;
    el.banner.dataset.kind = "error";
    el.banner.textContent = "";
    el.banner.append(detail?.reason ?? "Disconnected.");
    if (detail?.code === 4409) {
      el.banner.append(
        " ",
        h("button.plain.small", { type: "button", onclick: () => socket.connect() }, "Use this window"),
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// pointer: tap, drag onto the pile, drag within the hand (mouse and touch alike)

let drag = null;
let suppressClick = false;

function dropIndexAt(x, y, uid) {
  const buttons = [...el.hand.querySelectorAll("button.card")].filter((b) => Number(b.dataset.uid) !== uid);
  let after = null;
  for (const b of buttons) {
    const r = b.getBoundingClientRect();
    if (y < r.top - 14 || y > r.bottom + 14) continue;
    const idx = S.order.findIndex((e) => e.uid === Number(b.dataset.uid));
    if (x < r.left + r.width / 2) return idx;
    after = idx + 1;
  }
  return after ?? S.order.length;
}

function overPile(x, y) {
  const r = el.pileZone.getBoundingClientRect();
  const pad = 16;
  return x >= r.left - pad && x <= r.right + pad && y >= r.top - pad && y <= r.bottom + pad;
}

function overHand(x, y) {
  const r = el.hand.getBoundingClientRect();
  return x >= r.left - 10 && x <= r.right + 10 && y >= r.top - 30 && y <= r.bottom + 30;
}

function clearDropMarks() {
  for (const b of el.hand.querySelectorAll(".insert-before, .insert-after"))
    b.classList.remove("insert-before", "insert-after");
}

function onPointerDown(ev) {
  const b = ev.target.closest("button.card");
  if (!b || !el.hand.contains(b) || (ev.pointerType === "mouse" && ev.button !== 0)) return;
  suppressClick = false;
  drag = {
    uid: Number(b.dataset.uid),
    button: b,
    x0: ev.clientX,
    y0: ev.clientY,
    id: ev.pointerId,
    pointerType: ev.pointerType,
    started: false,
    ghost: null,
  };
  try {
    b.setPointerCapture(ev.pointerId);
  } catch {
    /* not capturable: still works without */
  }
}

function onPointerMove(ev) {
  if (!drag || ev.pointerId !== drag.id) return;
  const dx = ev.clientX - drag.x0;
  const dy = ev.clientY - drag.y0;
  if (!drag.started) {
    if (Math.hypot(dx, dy) < 8) return;
    drag.started = true;
    const r = drag.button.getBoundingClientRect();
    drag.offX = drag.x0 - r.left;
    drag.offY = drag.y0 - r.top;
    const ghost = drag.button.cloneNode(true);
    ghost.removeAttribute("id");
    ghost.classList.add("ghost");
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.width = `${r.width}px`;
    ghost.style.height = `${r.height}px`;
    document.body.append(ghost);
    drag.ghost = ghost;
    drag.button.classList.add("dragging");
    el.table.classList.add("dragging-card");
  }
  ev.preventDefault();
  drag.ghost.style.transform = `translate(${ev.clientX - drag.offX}px, ${ev.clientY - drag.offY}px) rotate(-4deg)`;
  const onPile = overPile(ev.clientX, ev.clientY);
  el.pileZone.classList.toggle("drag-over", onPile);
  clearDropMarks();
  const over = onPile ? null : meldAt(ev.clientX, ev.clientY);
  for (const box of el.melds.querySelectorAll(".meld.drag-over")) box.classList.remove("drag-over");
  if (over) over.box.classList.add("drag-over");
  if (!onPile && overHand(ev.clientX, ev.clientY)) {
    const idx = dropIndexAt(ev.clientX, ev.clientY, drag.uid);
    const target = S.order[idx];
    if (target && target.uid !== drag.uid) {
      el.hand.querySelector(`button.card[data-uid="${target.uid}"]`)?.classList.add("insert-before");
    } else if (!target && S.order.length) {
      const last = S.order[S.order.length - 1];
      if (last.uid !== drag.uid)
        el.hand.querySelector(`button.card[data-uid="${last.uid}"]`)?.classList.add("insert-after");
    }
  }
}

function endDrag(ev, cancelled) {
  if (!drag || ev.pointerId !== drag.id) return;
  const d = drag;
  drag = null;
  el.pileZone.classList.remove("drag-over");
  el.table.classList.remove("dragging-card");
  clearDropMarks();
  for (const box of el.melds.querySelectorAll(".meld.drag-over")) box.classList.remove("drag-over");
  if (!d.started) return; // a tap: the click that follows handles it
  suppressClick = true;
  setTimeout(() => (suppressClick = false), 400);
  d.ghost?.remove();
  d.button.classList.remove("dragging");
  if (cancelled) return;
  // act after the touch ends: redrawing the hand under a finger that is still down would take
  // the touch's target away, and the browser would then make no click of the next tap
  const x = ev.clientX;
  const y = ev.clientY;
  const meld = overPile(x, y) ? null : meldAt(x, y);
  if (overPile(x, y)) {
    if (S.me != null) setTimeout(() => tryThrow(d.uid), 0);
  } else if (meld) {
    // a dragged card carries the selection it belongs to, else itself
    const dragged = entryOf(d.uid);
    const cards = S.selected.has(d.uid) && S.selected.size > 1 ? selectedCards() : dragged ? [dragged.card] : [];
    if (S.me != null) setTimeout(() => playOnMeld(meld.id, meld.joker, cards), 0);
  } else if (overHand(x, y)) {
    const to = dropIndexAt(x, y, d.uid);
    setTimeout(() => {
      moveEntry(d.uid, to);
      if (d.pointerType !== "touch") focusCard(d.uid);
    }, 0);
  }
}

function onHandClick(ev) {
  const b = ev.target.closest("button.card");
  if (!b) return;
  if (suppressClick) {
    suppressClick = false;
    ev.preventDefault();
    return;
  }
  tap(Number(b.dataset.uid));
}

function onHandKey(ev) {
  const b = ev.target.closest("button.card");
  if (!b) return;
  const uid = Number(b.dataset.uid);
  const i = S.order.findIndex((e) => e.uid === uid);
  const shiftish = ev.shiftKey || ev.altKey || ev.ctrlKey || ev.metaKey;
  if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
    ev.preventDefault();
    const delta = ev.key === "ArrowLeft" ? -1 : 1;
    if (shiftish) moveBy(uid, delta);
    else {
      const next = S.order[i + delta];
      if (next) focusCard(next.uid);
    }
  } else if (ev.key === "Home" || ev.key === "End") {
    ev.preventDefault();
    const next = ev.key === "Home" ? S.order[0] : S.order[S.order.length - 1];
    if (next) focusCard(next.uid);
  } else if (ev.key === "Escape") {
    S.marked = null;
    renderHand();
    renderActions();
    focusCard(uid);
  }
}

// ---------------------------------------------------------------------------------------------

function wire() {
  el.hand.addEventListener("pointerdown", onPointerDown);
  el.hand.addEventListener("pointermove", onPointerMove);
  el.hand.addEventListener("pointerup", (ev) => endDrag(ev, false));
  el.hand.addEventListener("pointercancel", (ev) => endDrag(ev, true));
  el.hand.addEventListener("click", onHandClick);
  el.hand.addEventListener("keydown", onHandKey);
  el.hand.addEventListener("dragstart", (ev) => ev.preventDefault());
  el.stock.addEventListener("click", () => draw("stock"));
  el.pile.addEventListener("click", () => draw("pile"));
  el.group.addEventListener("click", () => groupHand());
  el.moveLeft.addEventListener("click", () => S.marked && moveBy(S.marked, -1));
  el.moveRight.addEventListener("click", () => S.marked && moveBy(S.marked, 1));
  el.throw.addEventListener("click", () => S.marked && tryThrow(S.marked));
  el.show.addEventListener("click", () => doShow());
  el.drop.addEventListener("click", () => doDrop());
  el.melds.addEventListener("click", onMeldClick);
  el.open.addEventListener("click", () => openWithMeter());
  el.layDown.addEventListener("click", () => layDown());
  el.putBack.addEventListener("click", () => {
    if (send({ type: "put_back" })) clearSelection();
  });
  el.hint.addEventListener("click", () => askHint());
  el.sheetButton.addEventListener("click", () => {
    renderSheetDialog();
    el.sheetDialog.showModal();
  });
  el.logButton.addEventListener("click", () => {
    const open = el.logPanel.classList.toggle("open");
    el.logButton.setAttribute("aria-expanded", String(open));
  });
  setInterval(() => {
    if (S.deadline && S.view) {
      renderSeats();
      if (S.me != null) {
        const clock = deadlineText(S.me);
        el.clock.hidden = !clock;
        el.clock.textContent = clock ? `⏱ ${clock}` : "";
      }
    }
  }, 1000);
}

function start() {
  wire();
  if (!MATCH || !TOKEN) {
    onConnection("closed", {
      reason:
        ROLE === "seat"
          ? "This link has no seat token: open the invite link you were given."
          : "This watch link has no token.",
    });
    el.table.dataset.phase = "broken";
    return;
  }
  document.body.dataset.role = ROLE;
  opened.add(TOKEN); // the history page lists the matches this browser holds a token of
  if (ROLE === "spectator") {
    el.me.hidden = true;
    document.querySelector(".skip")?.setAttribute("href", "#center");
  }
  const last = loadLocal();
  socket = new TableSocket({
    matchId: MATCH,
    seatToken: ROLE === "seat" ? TOKEN : null,
    watchToken: ROLE === "spectator" ? TOKEN : null,
    lastVersion: last ?? 0, // 0: send what happened so far, for the log (or the state, past 500 events)
    handlers: { onView: applyView, onPresence, onError, onConnection, onHint, onWelcome: () => {} },
  });
  // a handle for people poking at the page, and for the browser tests
  window.rummykit = { socket, state: S };
  socket.connect();
}

start();
