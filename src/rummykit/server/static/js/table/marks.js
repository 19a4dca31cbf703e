// What the table remembers from the events, beyond the view: who threw each card of the pile, and
// the last move (whose, what), so the page can mark them.  A reducer over the events (no DOM).
//
// marks = {deal, pile: [seat | null, ...] bottom to top (null: turned up at the deal), last: EVENT,
//          ended: EVENT (the deal's end, as the server told it)}

export const MOVES = new Set([
  "drew_stock",
  "took_pile",
  "threw",
  "dropped",
  "showed",
  "wrong_show",
  "opened",
  "laid_down",
  "laid_off",
  "swapped",
  "put_back",
]);

export function emptyMarks() {
  return { deal: null, pile: [], taken: null, last: null, ended: null };
}

/** The marks after ``events`` (in version order). */
export function markEvents(marks, events) {
  let m = { ...marks, pile: marks.pile.slice() };
  for (const e of events) {
    switch (e.kind) {
      case "dealt":
        m = { deal: e.deal, pile: e.pile_top ? [null] : [], taken: null, last: null, ended: null };
        continue;
      case "deal_ended":
        m.ended = { deal: e.deal, kind: e.kind, line: e.line, text: e.text };
        continue;
      case "threw":
        m.pile.push(e.seat);
        break;
      case "took_pile":
        m.taken = m.pile.length ? m.pile.pop() : null;
        break;
      case "put_back":
        m.pile.push(m.taken ?? null);
        m.taken = null;
        break;
      case "stock_rebuilt":
        m.pile = m.pile.slice(-1);
        break;
      default:
        break;
    }
    if (MOVES.has(e.kind) && e.seat != null) {
      const { hand: _hand, ...small } = e; // never keep a dealt hand
      m.last = small;
    }
  }
  return m;
}

/** The seat that threw the pile's top card: a seat, ``null`` when the card was turned up at the
 *  deal or nobody can tell (``undefined`` when the pile is empty).  The events decide when they
 *  cover this deal; else the view's own record of each seat's throws. */
export function pileThrower(marks, view) {
  const d = view?.deal;
  if (!d || !d.pile?.length) return undefined;
  if (marks.deal === d.number && marks.pile.length === d.pile.length) return marks.pile[marks.pile.length - 1];
  if (d.pile_take) return null; // the seat to play took a card off: the one under is older
  // walking back from the seat to play, the first whose last throw is the top card threw it
  const n = view.seats.length;
  const start = d.to_play ?? 0;
  for (let i = 1; i <= n; i++) {
    const s = view.seats[(start - i + n * 2) % n];
    if (s?.in_deal && s.thrown?.length && s.thrown[s.thrown.length - 1] === d.pile_top) return s.seat;
  }
  return null;
}

/** The deal's end as the server told it (its event), or null when that event is not at hand. */
export function dealEnd(marks, view) {
  const d = view?.deal;
  if (!d || !marks.ended || marks.ended.deal !== d.number) return null;
  return marks.ended;
}

/** The last move of this deal, or null (a new deal, or a view from before any move). */
export function lastMove(marks, view) {
  const d = view?.deal;
  if (!d || !marks.last || marks.deal !== d.number) return null;
  return marks.last;
}
