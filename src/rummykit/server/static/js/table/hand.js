// The hand as laid out on this page: the order the person arranged, and the labels Group gave
// it.  The server sends the cards; the layout is the page's only state of its own.  No DOM: the
// node tests import this (tests/js/hand.test.mjs).
//
// A layout is {deal, order: [{uid, card, seg}], segs: [{kind, pure, meld}], nextUid}; `seg`
// indexes `segs` (null: no label).  Every function returns a new layout and leaves its argument
// as it was.

import { cardSortKey, parseCard, rankSortKey } from "../cardtext.js";

export const GROUP_LABELS = {
  run: "Run",
  set: "Set",
  thennaali: "Thennaali",
  jokers: "Jokers",
  meld: "Meld",
  layoff: "Lay off",
  loose: "Loose",
  aside: "Best throw",
};

export function emptyLayout() {
  return { deal: null, order: [], segs: [], nextUid: 1 };
}

function copy(layout) {
  return { ...layout, order: layout.order.map((e) => ({ ...e })), segs: layout.segs.slice() };
}

function add(layout, card, seg = null) {
  const e = { uid: layout.nextUid, card, seg };
  layout.nextUid += 1;
  return e;
}

/** The layout kept between page loads: [[card, seg], ...] and the labels. */
export function saveLayout(layout) {
  return { dealNo: layout.deal, order: layout.order.map((e) => [e.card, e.seg]), segs: layout.segs };
}

export function loadLayout(saved) {
  const out = emptyLayout();
  if (!saved) return out;
  out.deal = saved.dealNo ?? null;
  out.segs = Array.isArray(saved.segs) ? saved.segs.slice() : [];
  for (const [card, seg] of saved.order ?? []) {
    if (typeof card === "string") out.order.push(add(out, card, seg ?? null));
  }
  return out;
}

/** A label that is a group of the grouping (not the loose cards or the best throw). */
export function segIsGroup(layout, seg) {
  const k = layout.segs[seg]?.kind;
  return !!k && k !== "loose" && k !== "aside";
}

function multiset(cards) {
  const left = new Map();
  for (const c of cards) left.set(c, (left.get(c) ?? 0) + 1);
  return left;
}

/** The layout for the cards now held: the local order for the cards still held, new cards at the
 *  end; a new deal starts afresh.  A group that lost a card loses its label, and the "Best throw"
 *  label goes as soon as the hand changes (it names the throw of the hand Group read). */
export function reconcile(layout, cards, deal) {
  if (deal !== layout.deal) {
    const out = { ...emptyLayout(), nextUid: layout.nextUid, deal };
    out.order = cards.map((c) => add(out, c));
    return out;
  }
  const out = copy(layout);
  const left = multiset(cards);
  const kept = [];
  const broken = new Set();
  let changed = false;
  for (const e of out.order) {
    if ((left.get(e.card) ?? 0) > 0) {
      left.set(e.card, left.get(e.card) - 1);
      kept.push(e);
    } else {
      changed = true;
      if (e.seg != null && segIsGroup(out, e.seg)) broken.add(e.seg);
    }
  }
  const added = [];
  for (const c of cards) {
    if ((left.get(c) ?? 0) > 0) {
      left.set(c, left.get(c) - 1);
      added.push(add(out, c));
      changed = true;
    }
  }
  for (const e of kept) {
    if (broken.has(e.seg)) e.seg = null;
    else if (changed && e.seg != null && out.segs[e.seg]?.kind === "aside") e.seg = null;
  }
  out.order = kept.concat(added);
  if (!out.order.some((e) => e.seg != null)) out.segs = [];
  return out;
}

/** Lay ``groups`` ([{cards, kind, pure}]) out first, then ``rest`` under one label, then
 *  ``aside`` alone; the layout's own entries are reused card by card (their uids stay). */
function laidOut(layout, groups, rest, aside) {
  const out = copy(layout);
  const pool = new Map();
  for (const e of out.order) {
    if (!pool.has(e.card)) pool.set(e.card, []);
    pool.get(e.card).push(e);
  }
  const take = (c, seg) => {
    const list = pool.get(c);
    const e = list && list.length ? list.shift() : add(out, c);
    e.seg = seg;
    return e;
  };
  const segs = [];
  const order = [];
  for (const g of groups) {
    if (!g.cards.length) continue;
    const seg = segs.push({ kind: g.kind, pure: !!g.pure, meld: g.meld ?? null }) - 1;
    for (const c of g.cards) order.push(take(c, seg));
  }
  if (rest.cards.length) {
    const seg = segs.push({ kind: rest.kind }) - 1;
    for (const c of rest.cards) order.push(take(c, seg));
  }
  if (aside) {
    const seg = segs.push({ kind: "aside" }) - 1;
    order.push(take(aside, seg));
  }
  // anything the answer did not place (it always places all): keep it, unlabelled, at the end
  for (const list of pool.values()) for (const e of list) if (!order.includes(e)) order.push({ ...e, seg: null });
  out.order = order;
  out.segs = segs;
  return out;
}

/** The show family's Group: the arranger's groups (runs in playing order, pure first), the loose
 *  cards, the best throw last (the view's HAND: groups, loose, aside). */
export function groupShow(layout, hand) {
  const loose = hand.loose.slice();
  let aside = null;
  if (hand.aside) {
    const i = loose.lastIndexOf(hand.aside);
    if (i >= 0) loose.splice(i, 1);
    aside = hand.aside;
  }
  return laidOut(layout, hand.groups, { kind: "loose", cards: loose }, aside);
}

/** "set" when the natural cards share a rank, else "run" (a meld's cards as text). */
export function meldKind(cards) {
  const ranks = new Set(cards.map(parseCard).filter((c) => !c.joker).map((c) => c.rank));
  return ranks.size <= 1 ? "set" : "run";
}

/** The table family's Group, melds first: before opening the Opening meter's melds, after it the
 *  cheapest leftover's new melds and its lay-offs (by meld), then the cards that stay in hand. */
export function groupTable(layout, hand) {
  const plan = hand.opened ? hand.leftover : hand.meter;
  const melds = plan?.melds ?? [];
  const groups = melds.map((cards) => ({ cards, kind: meldKind(cards) }));
  for (const lo of hand.opened ? (hand.leftover?.layoffs ?? []) : []) {
    groups.push({ cards: lo.cards, kind: "layoff", meld: lo.meld });
  }
  const left = multiset(hand.cards);
  for (const g of groups) for (const c of g.cards) left.set(c, (left.get(c) ?? 0) - 1);
  const rest = [];
  for (const e of layout.order) {
    if ((left.get(e.card) ?? 0) > 0) {
      left.set(e.card, left.get(e.card) - 1);
      rest.push(e.card);
    }
  }
  for (const [c, n] of left) for (let i = 0; i < n; i++) rest.push(c);
  return laidOut(layout, groups, { kind: "loose", cards: rest.sort((a, b) => cardSortKey(a) - cardSortKey(b)) }, null);
}

/** Sort the hand by suit (suit by suit, rank by rank, jokers last) or by rank; labels go. */
export function sortLayout(layout, by) {
  const key = by === "rank" ? rankSortKey : cardSortKey;
  const out = copy(layout);
  out.order = out.order
    .map((e, i) => [e, i])
    .sort((a, b) => key(a[0].card) - key(b[0].card) || a[1] - b[1])
    .map(([e]) => ({ ...e, seg: null }));
  out.segs = [];
  return out;
}

/** Move the card ``uid`` to stand before index ``to`` (``order.length``: the end).  Arranged by
 *  hand, the arranger's labels no longer describe the layout, so they go. */
export function moveEntry(layout, uid, to) {
  const out = copy(layout);
  const from = out.order.findIndex((e) => e.uid === uid);
  if (from < 0) return out;
  const [e] = out.order.splice(from, 1);
  const at = Math.max(0, Math.min(out.order.length, to > from ? to - 1 : to));
  out.order.splice(at, 0, e);
  for (const x of out.order) x.seg = null;
  out.segs = [];
  return out;
}

/** One place left (-1) or right (+1); null when the card is already at that end. */
export function moveBy(layout, uid, delta) {
  const i = layout.order.findIndex((e) => e.uid === uid);
  const to = i + delta;
  if (i < 0 || to < 0 || to >= layout.order.length) return null;
  return { layout: moveEntry(layout, uid, delta > 0 ? to + 1 : to), place: to + 1 };
}

export function entryOf(layout, uid) {
  return layout.order.find((e) => e.uid === uid) ?? null;
}

/** The hand in runs of cards under one label: [{seg, label, entries}] (label null: none). */
export function clusters(layout) {
  const out = [];
  for (const e of layout.order) {
    const last = out[out.length - 1];
    if (last && last.key === e.seg) {
      last.entries.push(e);
      continue;
    }
    const seg = e.seg != null ? (layout.segs[e.seg] ?? null) : null;
    out.push({ key: e.seg, seg, label: segLabel(seg), entries: [e] });
  }
  return out;
}

export function segLabel(seg) {
  if (!seg) return null;
  if (seg.kind === "run" && seg.pure) return "Clean run";
  if (seg.kind === "layoff" && seg.meld != null) return `Lay off on ${seg.meld}`;
  return GROUP_LABELS[seg.kind] ?? seg.kind;
}
