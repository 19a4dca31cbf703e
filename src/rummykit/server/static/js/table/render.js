// Drawing the view: the bar, the other seats, the stock and pile, the melds, my hand and buttons,
// and the panels between deals.  What to say and what to offer comes from the pure modules
// (words.js, view.js, hand.js, marks.js); this module only puts it on the page.
import { cardBack, cardName, cardShort, fillFace, isWild, miniRow } from "../cards.js";
import { sheetTable as sheetTableFor } from "../sheet.js";
import { h, presetTitle } from "../ui.js";
import { el } from "./dom.js";
import { clusters, entryOf } from "./hand.js";
import { dealEnd, lastMove, pileThrower } from "./marks.js";
import { send } from "./play.js";
import { ctx, S } from "./state.js";
import { drawStep, meldOwnerOrder, myTurn, offers, playing, seatOrder, secondsLeft, tableGame, throwStep } from "./view.js";
import {
  clockText,
  cutWords,
  eventLine,
  handHelp,
  meterWords,
  nameOf,
  pileWords,
  possessive,
  promptText,
  seatName,
  stripParts,
} from "./words.js";
import { cardValue } from "../cardtext.js";

const sheetTable = (sheet) => sheetTableFor(sheet, { me: S.me });

// ---------------------------------------------------------------------------------------------
// the status line, the log and the live region

export function setStatus(text, kind = "warn") {
  el.status.textContent = text ?? "";
  el.status.dataset.kind = kind;
  clearTimeout(setStatus.timer);
  if (text && kind === "info") setStatus.timer = setTimeout(() => (el.status.textContent = ""), 6000);
}

export function addLogLine(text) {
  S.logLines.push(text);
  if (S.logLines.length > 300) S.logLines.shift();
  el.log.append(h("li", text));
  while (el.log.childElementCount > 200) el.log.firstElementChild.remove();
  el.log.scrollTop = el.log.scrollHeight;
}

export function announce(text) {
  el.announce.append(h("p", text));
  while (el.announce.childElementCount > 4) el.announce.firstElementChild.remove();
}

// ---------------------------------------------------------------------------------------------

export function render() {
  const v = S.view;
  if (!v) return;
  const phase = v.match.phase;
  el.table.dataset.phase = phase;
  el.table.dataset.role = S.role;
  el.table.dataset.version = String(S.version);
  el.table.dataset.turn = myTurn(v, S.me) ? "mine" : playing(v) ? "other" : "";
  el.table.dataset.step = playing(v) ? v.deal.phase : "";
  el.table.dataset.deal = v.deal ? String(v.deal.number) : "";
  el.table.dataset.status = S.me != null && v.deal ? String(v.seats[S.me].status ?? "") : "";
  el.table.dataset.family = tableGame(v) ? "table" : "show";
  document.body.dataset.phase = phase;
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
  el.title.textContent = S.role === "spectator" ? `${title} · watching` : title;
  document.title = `${title} · rummykit`;
  const bits = [];
  if (v.deal) {
    const n = v.deal.number;
    bits.push(m.rounds ? `Deal ${n} of ${m.rounds}` : `Deal ${n}`);
    if (playing(v)) bits.push(`turn ${v.deal.turn}`);
    else if (m.phase === "between") bits.push("between deals");
  } else if (m.rounds) bits.push(`${m.rounds} deal${m.rounds === 1 ? "" : "s"}`);
  el.dealInfo.textContent = bits.join(" · ");
}

const clockFor = (seat) => clockText(secondsLeft(S.deadline, seat, Date.now()));

export function renderSeats() {
  const v = S.view;
  el.opponents.textContent = "";
  const order = seatOrder(v, S.me);
  el.opponents.dataset.count = String(order.length);
  const last = lastMove(S.marks, v);
  for (const s of order) {
    const seat = v.seats[s];
    const toPlay = playing(v) && v.deal.to_play === s;
    const dealer = v.deal && v.deal.dealer === s;
    const status = seat.in_deal ? seat.status : seat.standing === "out" ? "out" : null;
    const moved = last && last.seat === s;
    const words = [seat.name];
    if (seat.kind === "bot") words.push(`${seat.bot} bot`);
    else words.push(seat.connected ? "connected" : "away");
    if (seat.in_deal && status === "in") words.push(`${seat.cards} cards`);
    if (status === "dropped") words.push("dropped");
    if (status === "out") words.push("out");
    if (dealer) words.push("dealer");
    if (seat.opened) words.push("opened");
    if (toPlay) words.push("to play");
    if (moved) words.push(`last move: ${eventLine(last)}`);
    words.push(`total ${seat.total_text}`);
    if (seat.took.length) words.push(`took from the pile: ${seat.took.map(cardName).join(", ")}`);
    const cls = ["seat"];
    if (toPlay) cls.push("to-play");
    if (moved) cls.push("last-moved");
    if (status && status !== "in") cls.push(`is-${status}`);
    if (seat.kind === "human" && !seat.connected) cls.push("away");
    const fan = h("span.fan", { "aria-hidden": "true" });
    const shown = seat.in_deal && status === "in" ? Math.min(seat.cards, 5) : 0;
    for (let i = 0; i < shown; i++) fan.append(cardBack("tiny"));
    const clock = clockFor(s);
    const kind =
      seat.kind === "bot" ? `${seat.bot} bot` : seat.connected ? "person" : seat.joined ? "away" : "not here yet";
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
            miniRow(seat.took.slice(-4), { wild: v.deal?.wild }),
          )
        : null,
    );
    el.opponents.append(art);
  }
}

function renderCenter() {
  const v = S.view;
  const d = v.deal;
  el.piles.hidden = !d;
  if (!d) {
    el.lastMove.hidden = true;
    return;
  }
  const canStock = drawStep(v, S.me) && v.legal.draw_stock;
  el.stock.setAttribute("aria-disabled", String(!canStock));
  el.stock.classList.toggle("live", canStock);
  el.stock.setAttribute("aria-label", `Draw from the stock, ${d.stock_count} cards`);
  el.stockLabel.textContent = `Stock · ${d.stock_count}`;
  // the pile: an empty place when nothing is on it (Remi 51 before the first throw)
  const top = d.pile_top;
  el.pileCard.className = "card big";
  if (top) fillFace(el.pileCard, top, { wild: d.wild });
  else {
    el.pileCard.className = "card big empty";
    el.pileCard.textContent = "";
    delete el.pileCard.dataset.card;
  }
  el.pileUnder.textContent = "";
  for (const c of d.pile.slice(0, -1).slice(-2)) {
    const u = h("span.card.big.under");
    fillFace(u, c, { wild: d.wild });
    el.pileUnder.append(u);
  }
  const canPile = drawStep(v, S.me) && v.legal.draw_pile;
  el.pile.setAttribute("aria-disabled", String(!canPile));
  el.pile.classList.toggle("live", canPile);
  const by = pileThrower(S.marks, v);
  const pw = pileWords(v, S.me, by);
  el.pile.setAttribute("aria-label", pw.aria);
  el.pileLabel.textContent = pw.label;
  el.pileZone.dataset.by = by == null ? "" : String(by);
  el.pileZone.classList.toggle("throw-here", throwStep(v, S.me));
  // the last move, marked on the table: whose, and what
  const last = lastMove(S.marks, v);
  el.lastMove.hidden = !last;
  if (last) {
    el.lastMove.textContent = "";
    el.lastMove.dataset.seat = String(last.seat);
    el.lastMove.dataset.kind = last.kind;
    el.lastMove.append(h("span.last-move-label", "Last move"), " ", eventLine(last));
  }
  // the cut card (the table family has none: only its printed jokers are wild)
  el.cutSlot.hidden = tableGame(v);
  const cw = cutWords(d);
  if (d.cut) {
    el.cut.className = "card mid cut";
    fillFace(el.cut, d.cut, { wild: d.wild });
    el.cut.classList.add("mid", "cut");
  } else {
    el.cut.className = "card mid cut empty";
    el.cut.textContent = "";
  }
  el.cut.setAttribute("role", "img");
  el.cut.setAttribute("aria-label", cw.aria);
  el.cutLabel.textContent = cw.label;
}

export function renderMe() {
  const v = S.view;
  el.me.hidden = S.me == null;
  if (S.me == null) return;
  const mine = v.seats[S.me];
  el.meName.textContent = mine.name;
  el.meTotal.textContent = mine.total_text;
  el.meTotal.setAttribute("aria-label", `your total ${mine.total_text}`);
  const prompt = promptText(v, S.me);
  el.prompt.textContent = "";
  if (Array.isArray(prompt)) el.prompt.append(prompt[0], h("span.prompt-more", prompt[1]));
  else el.prompt.textContent = prompt;
  const last = lastMove(S.marks, v);
  el.me.classList.toggle("my-turn", myTurn(v, S.me));
  el.me.classList.toggle("last-moved", !!last && last.seat === S.me);
  renderClock();
  renderStrip();
  renderMeter();
  renderHand();
  renderActions();
}

export function renderClock() {
  if (S.me == null) return;
  const clock = clockFor(S.me);
  el.clock.hidden = !clock;
  el.clockText.textContent = clock;
  el.clock.setAttribute("aria-label", clock ? `Turn clock: ${clock} left` : "Turn clock");
}

function renderStrip() {
  const v = S.view;
  const hand = v.hand;
  el.strip.textContent = "";
  el.strip.className = "strip";
  if (!hand || !hand.cards.length || !playing(v)) {
    el.strip.hidden = true;
    return;
  }
  el.strip.hidden = false;
  const { ready, parts } = stripParts(v);
  el.strip.classList.toggle("ready", ready);
  for (const p of parts) {
    if (p.tag === "strong") el.strip.append(h("strong", p.text));
    else if (p.tag) el.strip.append(h(`span.${p.tag === "count" ? "count-label" : p.tag}`, p.text));
    else el.strip.append(p.text);
  }
}

function renderMeter() {
  const v = S.view;
  const meter = tableGame(v) && playing(v) ? v.hand?.meter : null;
  el.meter.hidden = !meter;
  if (!meter) return;
  const { points, threshold } = meter;
  const w = meterWords(meter);
  el.meter.dataset.points = String(points);
  el.meter.dataset.threshold = String(threshold);
  el.meter.classList.toggle("ready", meter.ready);
  el.meterFill.style.width = `${Math.min(100, Math.round((100 * points) / Math.max(1, threshold)))}%`;
  el.meterText.textContent = w.text;
  el.meter.setAttribute("aria-label", w.aria);
  el.meter.setAttribute("role", "group");
  // no Open button: say why on the screen (the first round of Remi 51, the pile card left out...)
  el.meterWhy.hidden = !w.why;
  el.meterWhy.textContent = w.why ?? "";
  el.open.hidden = !meter.can_open;
  if (meter.can_open) {
    el.open.textContent = `Open (${points})`;
    el.open.setAttribute(
      "aria-label",
      `Open with ${meter.melds.map((m) => m.map(cardShort).join(" ")).join(", ")}: ${points} points`,
    );
  }
}

export function renderHand() {
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
  const order = S.layout.order;
  const lastDrawnIndex = drawn ? order.map((e) => e.card).lastIndexOf(drawn) : -1;
  if (S.marked != null && !entryOf(S.layout, S.marked)) S.marked = null;
  const tabUid = S.marked ?? (focusedUid ? Number(focusedUid) : order[0]?.uid);
  const table = tableGame(v);
  let i = 0;
  for (const c of clusters(S.layout)) {
    const seg = c.seg;
    const cluster = h(`div.cluster${seg ? `.seg-${seg.kind}${seg.pure ? ".pure" : ""}` : ".unlabelled"}`, {
      role: "group",
      "aria-label": c.label ?? "Cards",
    });
    if (c.label) cluster.append(h("span.cluster-label", { "aria-hidden": "true" }, c.label));
    const cards = h("span.cluster-cards");
    cluster.append(cards);
    el.hand.append(cluster);
    for (const e of c.entries) {
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
        notes.push(table ? "selected" : "marked");
      }
      b.setAttribute("aria-pressed", String(picked));
      if (finishing.has(e.card)) {
        b.classList.add("finishing");
        notes.push("finishing card: throw it to show");
      }
      if (i === lastDrawnIndex) {
        b.classList.add("fresh");
        notes.push(noThrow === e.card ? "just taken from the pile, cannot be thrown back this turn" : "just drawn");
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
      cards.append(b);
      i += 1;
    }
  }
  el.hand.setAttribute("aria-label", `Your hand, ${hand.cards.length} cards`);
  if (focusedUid) focusCard(Number(focusedUid));
}

export function focusCard(uid) {
  const b = el.hand.querySelector(`button.card[data-uid="${uid}"]`);
  if (!b) return;
  for (const x of el.hand.querySelectorAll("button.card")) x.tabIndex = -1;
  b.tabIndex = 0;
  if (document.activeElement !== b) b.focus({ preventScroll: true });
}

export function renderActions() {
  const v = S.view;
  if (S.me == null || !v) return;
  const marked = entryOf(S.layout, S.marked)?.card ?? null;
  const o = offers(v, S.me, { marked, selected: S.selected.size });
  el.group.hidden = !o.group;
  el.sort.hidden = !o.sort;
  const by = S.sortBy;
  el.sort.textContent = by === "rank" ? "By rank" : "By suit";
  el.sort.setAttribute("aria-label", `Sort the hand by ${by}`);
  el.group.setAttribute(
    "aria-label",
    tableGame(v) ? "Group: melds first, then the cards that stay in hand" : "Group: the hand as the rules read it",
  );
  el.moveLeft.hidden = el.moveRight.hidden = !o.move;
  el.drop.hidden = !o.drop;
  if (o.drop) {
    el.drop.textContent = `Drop (${o.drop.cost})`;
    el.drop.setAttribute("aria-label", `Drop out of this deal for ${o.drop.cost}`);
  }
  el.throw.hidden = !o.throw;
  if (o.throw) {
    const card = o.throwCard;
    el.throw.disabled = !card;
    el.throw.classList.toggle("blocked", o.throwBlocked);
    el.throw.setAttribute("aria-disabled", String(o.throwBlocked));
    el.throw.textContent = "";
    if (!card) el.throw.append("Throw");
    else if (o.throwBlocked) el.throw.append("Can't throw", h("span.wide-only", ` ${cardShort(card)} back`));
    else el.throw.append("Throw", h("span.wide-only", ` ${cardShort(card)}`));
    el.throw.setAttribute(
      "aria-label",
      !card ? "Throw: mark a card first" : o.throwBlocked ? `${cardName(card)} cannot be thrown now` : `Throw ${cardName(card)}`,
    );
  }
  el.show.hidden = !o.show.length;
  if (o.show.length) {
    const finish = marked && o.show.includes(marked) ? marked : o.show[0];
    el.show.textContent = "";
    el.show.append("Show", h("span.sub.wide-only", ` with ${cardShort(finish)}`));
    el.show.setAttribute("aria-label", `Show, finishing with ${cardName(finish)}`);
  }
  el.putBack.hidden = !o.putBack;
  el.layDown.hidden = !o.layDown;
  el.layDown.disabled = S.selected.size < 3;
  el.hint.hidden = !o.hint;
  if (S.hintVersion != null && S.hintVersion !== S.version) {
    el.hintLine.hidden = true; // the table moved on: the hint was for a moment gone by
    S.hintVersion = null;
  }
  el.handHelp.textContent = handHelp(tableGame(v));
}

// ---------------------------------------------------------------------------------------------
// the table family's melds

function renderMelds() {
  const v = S.view;
  const d = v.deal;
  el.melds.textContent = "";
  el.melds.hidden = !tableGame(v) || !d;
  if (el.melds.hidden) return;
  const melds = d.melds ?? [];
  el.melds.dataset.count = String(melds.length);
  if (!melds.length) {
    el.melds.append(h("p.melds-empty", `No melds on the table yet. Opening needs ${d.opening} points.`));
    return;
  }
  const live = throwStep(v, S.me) && v.hand?.opened;
  const c = ctx();
  const last = lastMove(S.marks, v);
  const touched = new Set();
  if (last?.kind === "opened") for (const m of last.melds ?? []) touched.add(m.id);
  if (last?.kind === "laid_down") touched.add(last.meld?.id);
  if (last?.kind === "laid_off" || last?.kind === "swapped") touched.add(last.meld_id);
  for (const owner of meldOwnerOrder(v, S.me)) {
    const mine = melds.filter((m) => m.owner === owner);
    if (!mine.length) continue;
    const who = seatName(c, owner);
    const group = h(
      `section.meld-owner${owner === S.me ? ".mine" : ""}`,
      { "aria-label": `${possessive(who)} melds` },
      h("h3.meld-owner-name", owner === S.me ? "Your melds" : nameOf(c, owner)),
    );
    const row = h("div.meld-row");
    for (const m of mine) {
      const words = m.cards
        .map((card, i) => (card === "JK" ? `joker as ${cardName(m.stands_for[i])}` : cardName(card)))
        .join(", ");
      const box = h(`div.meld.${m.kind}${live ? ".live" : ""}${touched.has(m.id) ? ".last-moved" : ""}`, {
        role: "group",
        dataset: { meld: m.id },
        "aria-label": `Meld ${m.id}, ${m.kind}: ${words}`,
      });
      box.append(h("span.meld-id", { "aria-hidden": "true" }, String(m.id)));
      m.cards.forEach((card, i) => {
        const joker = card === "JK";
        const b = h("button.card.mini.mcard", {
          type: "button",
          dataset: { meld: m.id, slot: i },
          "aria-label": joker
            ? `Swap into meld ${m.id}: the joker stands for ${cardName(m.stands_for[i])}`
            : `Lay off onto meld ${m.id} (${cardName(card)})`,
        });
        fillFace(b, card, {});
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

// ---------------------------------------------------------------------------------------------
// panels: waiting, between deals (the score sheet waits for Next round), the end of the match

/** Every hand of the finished deal as it was laid down (public once the deal is over). */
function resultBlock(deal) {
  const r = deal.result;
  const rules = S.view.rules;
  const table = rules.family === "table";
  const box = h("section.result", { "aria-labelledby": "result-title" });
  box.append(h("h3#result-title.result-title", `The hands of deal ${deal.number}`));
  const grid = h("div.result-seats");
  for (const rs of r.seats) {
    const card = h(`div.result-seat${rs.won ? ".won" : ""}${rs.seat === S.me ? ".mine" : ""}`);
    const charge = rs.won
      ? `Winner · ${rs.charge}`
      : rs.status === "dropped"
        ? `Dropped · ${rs.charge}`
        : rs.status === "out"
          ? `Wrong show · ${rs.charge}`
          : `Charged ${rs.charge}`;
    card.append(h("div.result-head", h("span.result-name", nameOf(ctx(), rs.seat)), h("span.result-charge", charge)));
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
        groups.append(
          h(
            "span.loose-row",
            h("span.loose-label", { "aria-hidden": "true" }, table ? "left" : "loose"),
            miniRow(rs.loose, { wild: deal.wild, label: table ? "cards left in hand" : "loose cards", size: "mini" }),
          ),
        );
      }
      card.append(groups);
      const looseSum = rs.loose.reduce((t, c) => t + cardValue(c, deal.wild), 0);
      const notes = [];
      if (table) {
        if (!rs.won && r.doubled) notes.push(`${rs.hand_charge} counted double`);
        if (rs.won && !rs.loose.length) notes.push("Went out: no card left");
      } else if (!rs.won && rs.charge > looseSum && rs.status === "in") {
        notes.push(rules.credit === "pure" ? "No clean run: every card counts" : "Not enough runs: the groups do not count");
      }
      if (!rs.won && rules.full_count != null && rs.charge === rules.full_count && rs.hand_charge != null && rs.hand_charge > rs.charge) {
        notes.push(`capped at ${rules.full_count}`);
      }
      if (notes.length) card.append(h("p.note", notes.join(", ") + "."));
    }
    grid.append(card);
  }
  box.append(grid);
  return box;
}

export function renderPanel() {
  const v = S.view;
  const phase = v.match.phase;
  const key = `${phase}/${S.version}/${S.wantRematch}/${S.histories?.length ?? -1}`;
  if (el.panel.dataset.key === key) return;
  const keepFocus = el.panel.contains(document.activeElement) ? document.activeElement.id : null;
  el.panel.dataset.key = key;
  el.panel.textContent = "";
  const c = ctx();
  if (v.match.broken) {
    el.panel.append(h("section.panel.broken", h("h2", "This table cannot go on"), h("p", v.match.broken)));
    return;
  }
  if (phase === "waiting") {
    const waiting = v.seats.filter((s) => s.kind === "human" && !s.joined);
    const box = h("section.panel.waiting#waiting-panel", { "aria-labelledby": "waiting-title" });
    box.append(h("h2#waiting-title", "Waiting for the seats to open their links"));
    box.append(
      h(
        "ul.waiting-list",
        v.seats.map((s) =>
          h("li", `${s.name}: ${s.kind === "bot" ? "a bot, ready" : s.joined ? "here" : "has not opened the invite link yet"}`),
        ),
      ),
    );
    if (S.me != null && waiting.length) {
      box.append(
        h("p", "The first deal starts when everybody is here. You can also start now without the seats that have not come."),
        h("button.primary#start", { type: "button", onclick: () => send({ type: "start" }) }, "Start now"),
      );
    }
    el.panel.append(box);
  } else if (phase === "between" || phase === "over") {
    const box = h(`section.panel.sheet-panel.${phase}#${phase}-panel`, { "aria-labelledby": `${phase}-title` });
    const r = v.deal?.result;
    if (phase === "over") {
      const winners = v.match.winners;
      const names = winners.map((s) => seatName(c, s)).join(" and ") || "Nobody";
      const mine = winners.includes(S.me);
      const others = winners
        .filter((w) => w !== S.me)
        .map((s) => nameOf(c, s))
        .join(" and ");
      const words = mine
        ? others
          ? `You share the match with ${others}!`
          : "You win the match!"
        : `${names} ${winners.length > 1 ? "share" : "wins"} the match`;
      box.append(h("h2#over-title.winner-title", h("span.trophy", { "aria-hidden": "true" }, "★"), " ", words));
    } else {
      box.append(h("h2#between-title", `After deal ${v.match.deals_played}${v.match.rounds ? ` of ${v.match.rounds}` : ""}`));
    }
    // how the deal ended, in the server's words (its deal_ended event, when this page has it)
    const ended = dealEnd(S.marks, v);
    if (ended) box.append(h("p.deal-line", `${eventLine(ended)}.`));
    box.append(...sheetTable(v.sheet));
    const actions = h("div.panel-actions");
    if (phase === "between") {
      const b = v.between;
      if (S.me != null) {
        const ready = b.ready.includes(S.me);
        if (b.offer) {
          actions.append(
            h("button.show#rejoin", { type: "button", onclick: () => send({ type: "rejoin" }) }, `Rejoin at ${b.offer.total}`),
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
      if (waiting.length) actions.append(h("p.muted.waiting-for", `Waiting for ${waiting.map((s) => nameOf(c, s)).join(", ")}`));
      if (v.sheet.offers.length && S.me == null)
        actions.append(
          h("p.muted", `Offered a rejoin: ${v.sheet.offers.map((o) => `${nameOf(c, o.seat)} at ${o.total}`).join(", ")}`),
        );
      box.append(h("p.status-line", v.sheet.status_line), actions);
    } else {
      const rm = v.match.rematch;
      if (rm?.url) {
        actions.append(h("a.button.primary.big#rematch-link", { href: rm.url }, S.me == null ? "Watch the rematch" : "Play the rematch"));
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
      actions.append(h("a.button.plain", { href: `/history?match=${encodeURIComponent(S.match)}` }, "History"));
      box.append(actions);
      if (S.histories?.length) {
        box.append(
          h(
            "p.downloads-line",
            "Hand histories: ",
            h(
              "span.downloads",
              S.histories.flatMap((url, i) => [i ? " · " : "", h("a", { href: url, download: "" }, `deal ${i + 1}`)]),
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

export function renderSheetDialog() {
  el.sheetBody.textContent = "";
  if (S.view) el.sheetBody.append(...sheetTable(S.view.sheet));
}

/** The connection's state in the bar and the banner.  A seat opened in another window is final:
 *  a full-width banner says so, and nothing on this page can be played any more. */
export function renderConnection(state, detail, reconnect) {
  el.conn.dataset.state = state;
  el.conn.setAttribute("aria-label", state === "open" ? "connected" : state);
  el.conn.title = state === "open" ? "connected" : state;
  const closed = state === "closed";
  el.table.inert = closed;
  el.bar.inert = closed;
  el.skip.hidden = closed;
  el.table.dataset.connection = state;
  if (state === "open") {
    el.banner.hidden = true;
    el.banner.textContent = "";
    return;
  }
  if (state === "reconnecting") {
    el.banner.hidden = false;
    el.banner.dataset.kind = "warn";
    el.banner.textContent = "Reconnecting…";
    return;
  }
  if (closed) {
    el.banner.hidden = false;
    el.banner.dataset.kind = "error";
    el.banner.textContent = "";
    el.banner.append(h("span.banner-text", detail?.reason ?? "Disconnected."));
    if (detail?.code === 4409 && reconnect) {
      el.banner.append(h("button.plain.small#use-here", { type: "button", onclick: reconnect }, "Use this window"));
    }
  }
}
