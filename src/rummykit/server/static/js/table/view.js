// Readers of the server's view (docs/protocol.md, "The view"): whose turn, which step, which
// seats sit where, what a tap on a meld sends.  No DOM: the node tests import this.

export const playing = (v) => v?.match?.phase === "playing" && !!v?.deal && !v.deal.result;
export const myTurn = (v, me) => me != null && playing(v) && v.deal.to_play === me && v.legal != null;
export const drawStep = (v, me) => myTurn(v, me) && v.deal.phase === "draw";
export const throwStep = (v, me) => myTurn(v, me) && v.deal.phase === "throw";
// Rummy 40 and Remi 51: melds go down on the table during play (docs/protocol.md, the table family)
export const tableGame = (v) => v?.rules?.family === "table";

/** The other seats, from the one on my left round to the one on my right (a spectator: all). */
export function seatOrder(v, me) {
  const n = v.seats.length;
  if (me == null) return v.seats.map((s) => s.seat);
  const out = [];
  for (let i = 1; i < n; i++) out.push((me + i) % n);
  return out;
}

/** Every seat, mine first: the order the melds on the table are grouped in. */
export function meldOwnerOrder(v, me) {
  const n = v.seats.length;
  if (me == null) return v.seats.map((s) => s.seat);
  return Array.from({ length: n }, (_, i) => (me + i) % n);
}

/** The deadline the clocks count down: {seat, until (ms), why}, or null. */
export function deadlineFrom(d, now) {
  return d ? { seat: d.seat, until: now + d.seconds * 1000, why: d.why } : null;
}

/** Whole seconds left on ``deadline`` for ``seat`` (null: that seat is on no clock). */
export function secondsLeft(deadline, seat, now) {
  if (!deadline || deadline.seat !== seat) return null;
  return Math.max(0, Math.ceil((deadline.until - now) / 1000));
}

/** The message a tap (or a drop) of ``cards`` on meld ``id`` sends: a swap when one natural card
 *  goes onto a joker's slot, else a lay-off. */
export function meldIntent(id, onJoker, cards) {
  return onJoker && cards.length === 1 && cards[0] !== "JK"
    ? { type: "swap", meld: id, card: cards[0] }
    : { type: "lay_off", meld: id, cards };
}

/** Which of my buttons the view offers now (the server's LEGAL decides; the page only shows it). */
export function offers(v, me, { marked = null, selected = 0 } = {}) {
  const hand = v.hand;
  const table = tableGame(v);
  const inDeal = !!(hand && hand.cards.length && playing(v) && v.seats[me]?.status === "in");
  const step = throwStep(v, me);
  const legal = v.legal;
  const throwCard = table && selected > 1 ? null : marked;
  return {
    group: inDeal,
    sort: inDeal,
    move: inDeal && throwCard != null,
    drop: drawStep(v, me) ? (legal.drop ?? null) : null,
    throw: step,
    throwCard: step ? throwCard : null,
    throwBlocked: step && throwCard != null && !legal.throw.includes(throwCard),
    show: step && !table ? legal.show : [],
    putBack: table && step && !!legal.put_back,
    layDown: table && step && !!hand?.opened,
    hint: myTurn(v, me) && !!v.match.hints,
  };
}
