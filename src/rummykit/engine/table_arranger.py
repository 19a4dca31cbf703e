"""The table family's arranger: the best opening, the cheapest leftover, and whether a turn can end.

Three exact searches over the melds of :mod:`rummykit.engine.melds`:

* :func:`best_opening`: the melds a hand can open with now, maximising points,
  then cards laid down (``must_include``: the card taken from the pile);
* :func:`opening_meter`: the best points and the threshold, for the Opening meter;
* :func:`best_leftover`: the cheapest leftover after laying down new melds and
  laying off onto the melds on the table, with the plan.

And :func:`finish_plan`, the deal's guard that a turn can still end: a card
taken from the pile and the jokers freed by a swap can still all go down.

The searches are depth-first over the hand's cards in kind order: the lowest
card left is either left over or goes into a meld (or onto a meld on the
table) that holds it, so every layout is found exactly once; states are
memoised on what is left.  Cards that fit no meld at all are set aside first,
which keeps ordinary hands to a few hundred states.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations
from typing import Final, Protocol

from rummykit.engine.cards import JOKER, format_card, format_cards
from rummykit.engine.events import TableMeld
from rummykit.engine.groups import GroupRules
from rummykit.engine.melds import (
    Candidate,
    MeldSettings,
    counts_of,
    limits_ok,
    meld_settings,
    melds_with,
    pos_kind,
    run_start,
)

__all__ = [
    "Leftover",
    "Opening",
    "TableRules",
    "best_leftover",
    "best_opening",
    "finish_plan",
    "opening_meter",
]


class TableRules(GroupRules, Protocol):
    """The settings the table family's arranger reads (``Rules`` has them all)."""

    @property
    def opening(self) -> int | None: ...
    @property
    def last_card_discard(self) -> bool: ...


# ---------------------------------------------------------------- the best opening


@dataclass(frozen=True, slots=True)
class Opening:
    """An opening: its melds (cards in order, jokers in their slots), points and cards laid.

    ``waived`` when its points are short of the threshold and it is legal only because it
    leaves 0 or 1 cards (Rummy 40).
    """

    melds: tuple[tuple[int, ...], ...]
    points: int
    cards: int
    left: int  # cards the hand keeps
    waived: bool

    def text(self) -> str:
        return f"{' | '.join(format_cards(m) for m in self.melds)} ({self.points})"


_Best = tuple[int, int] | None  # (points, cards laid), best first
_Buckets = tuple[_Best, _Best, _Best]  # by cards left over: 0, 1, 2 or more
_NONE3: Final[_Buckets] = (None, None, None)


def _better(a: _Best, b: _Best) -> _Best:
    if a is None:
        return b
    if b is None:
        return a
    return a if a >= b else b


def _add(b: _Best, pts: int, n: int) -> _Best:
    return None if b is None else (b[0] + pts, b[1] + n)


def _isolated(counts: list[int], jokers: int, cfg: MeldSettings) -> list[int]:
    """The naturals that fit no meld of the hand at all: they are left over in every layout."""
    alone = []
    for k in range(52):
        if counts[k] and not melds_with(k, counts, jokers, cfg):
            alone += [k] * counts[k]
    return alone


class _OpeningSearch:
    """Best (points, cards) per leftover bucket, memoised on the cards left."""

    def __init__(self, cfg: MeldSettings, counts: list[int]) -> None:
        self.cfg = cfg
        self.counts = counts
        self.memo: dict[tuple[bytes, int], _Buckets] = {}

    def solve(self, start: int, jokers: int) -> _Buckets:
        counts = self.counts
        k = start
        while k < 52 and counts[k] == 0:
            k += 1
        if k == 52:
            b: list[_Best] = [None, None, None]
            b[min(jokers, 2)] = (0, 0)
            return (b[0], b[1], b[2])
        key = (bytes(counts), jokers)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        cands = melds_with(k, counts, jokers, self.cfg)
        counts[k] -= 1
        sub = self.solve(k, jokers)
        counts[k] += 1
        best: list[_Best] = [None, sub[0], _better(sub[1], sub[2])]  # k left over: one card more
        for _cards, nats, jk, pts, _cost in cands:
            for x in nats:
                counts[x] -= 1
            sub = self.solve(k, jokers - jk)
            for x in nats:
                counts[x] += 1
            n = len(nats) + jk
            for i in range(3):
                best[i] = _better(best[i], _add(sub[i], pts, n))
        res = (best[0], best[1], best[2])
        self.memo[key] = res
        return res

    def rebuild(self, start: int, jokers: int, bucket: int, want: tuple[int, int]) -> list[tuple[int, ...]]:
        """The melds of a layout in ``bucket`` worth ``want`` (points, cards)."""
        counts = self.counts
        k = start
        while k < 52 and counts[k] == 0:
            k += 1
        if k == 52:
            assert want == (0, 0)
            return []
        cands = melds_with(k, counts, jokers, self.cfg)
        counts[k] -= 1
        sub = self.solve(k, jokers)
        for b in (0,) if bucket == 1 else (1, 2) if bucket == 2 else ():
            if sub[b] == want:
                melds = self.rebuild(k, jokers, b, want)
                counts[k] += 1
                return melds
        counts[k] += 1
        for cards, nats, jk, pts, _cost in cands:
            for x in nats:
                counts[x] -= 1
            sub = self.solve(k, jokers - jk)
            n = len(nats) + jk
            got = sub[bucket]
            if got is not None and (got[0] + pts, got[1] + n) == want:
                melds = [cards, *self.rebuild(k, jokers - jk, bucket, got)]
                for x in nats:
                    counts[x] += 1
                return melds
            for x in nats:
                counts[x] += 1
        raise AssertionError("the opening search could not retrace its best layout")


_Layouts = tuple[tuple[int, int, int, tuple[tuple[int, ...], ...]], ...]


def _opening_layouts(hand: Sequence[int], rules: GroupRules, must_include: int | None) -> _Layouts:
    """The best layout for each leftover bucket: (bucket, points, cards, melds)."""
    # A turn asks this of the same hand three times (the legal actions' opening, the Opening
    # meter's points and its opening), so answers are kept: the hand's order does not matter.
    return _layouts(tuple(sorted(hand)), meld_settings(rules), must_include)


@lru_cache(maxsize=4096)
def _layouts(hand: tuple[int, ...], cfg: MeldSettings, must_include: int | None) -> _Layouts:
    found = _search_layouts(hand, cfg, must_include)
    return tuple((b, pts, laid, tuple(melds)) for b, pts, laid, melds in found)


def _search_layouts(
    hand: Sequence[int], cfg: MeldSettings, must_include: int | None
) -> list[tuple[int, int, int, list[tuple[int, ...]]]]:
    counts, jokers = counts_of(hand)
    if must_include is not None and must_include != JOKER and not counts[must_include]:
        raise ValueError(f"{format_card(must_include)} is not in the hand")
    if must_include == JOKER and not jokers:
        raise ValueError("no joker in the hand")
    n = len(hand)
    alone = _isolated(counts, jokers, cfg)
    for k in alone:
        counts[k] -= 1
    if must_include is not None and must_include in alone:
        return []
    found: list[tuple[int, int, int, list[tuple[int, ...]]]] = []
    search = _OpeningSearch(cfg, counts)
    if must_include is None:
        top = search.solve(0, jokers)
        for b in range(3):
            best = top[b]
            if best is None:
                continue
            # the bucket counts cards left among the searched ones; add the isolated ones
            left = n - best[1]
            melds = search.rebuild(0, jokers, b, best)
            found.append((min(left, 2), best[0], best[1], melds))
        return _merge_buckets(found)
    # The card taken from the pile must be in the opening: try every meld that holds it.
    if must_include == JOKER:
        cands = {}
        for k in range(52):
            if counts[k]:
                for cand in melds_with(k, counts, jokers, cfg):
                    if cand[2]:
                        cands[cand[0]] = cand
        first: Sequence[Candidate] = list(cands.values())
    else:
        first = melds_with(must_include, counts, jokers, cfg)
    for cards, nats, jk, pts, _cost in first:
        for x in nats:
            counts[x] -= 1
        sub = search.solve(0, jokers - jk)
        for b in range(3):
            best = sub[b]
            if best is None:
                continue
            laid = best[1] + len(cards)
            melds = [cards, *search.rebuild(0, jokers - jk, b, best)]
            found.append((min(n - laid, 2), best[0] + pts, laid, melds))
        for x in nats:
            counts[x] += 1
    return _merge_buckets(found)


def _merge_buckets(
    found: list[tuple[int, int, int, list[tuple[int, ...]]]],
) -> list[tuple[int, int, int, list[tuple[int, ...]]]]:
    best: dict[int, tuple[int, int, int, list[tuple[int, ...]]]] = {}
    for item in found:
        b = item[0]
        if b not in best or (item[1], item[2]) > (best[b][1], best[b][2]):
            best[b] = item
    return [best[b] for b in sorted(best)]


def _waiver(rules: TableRules) -> bool:
    """Rummy 40 waives the threshold for an opening that leaves 0 or 1 cards; Remi 51, whose
    last card must be thrown, names no such waiver (settled with ``last_card_discard``)."""
    return not rules.last_card_discard


def best_opening(hand: Sequence[int], rules: TableRules, must_include: int | None = None) -> Opening | None:
    """The best opening ``hand`` (kinds) can make now, or ``None``.

    Maximises points, then cards laid down, among the openings the rules allow: the points
    reach ``rules.opening``, or (Rummy 40) the opening leaves 0 or 1 cards; where the last card
    must be thrown (Remi 51) it leaves at least one.  ``must_include``: a kind the opening must
    hold (the card taken from the pile).  Exact.
    """
    threshold = rules.opening or 0
    n = len(hand)
    best: Opening | None = None
    for _bucket, pts, laid, melds in _opening_layouts(hand, rules, must_include):
        left = n - laid
        if not melds or (rules.last_card_discard and left == 0):
            continue
        waived = pts < threshold
        if waived and not (_waiver(rules) and left <= 1):
            continue
        cand = Opening(tuple(melds), pts, laid, left, waived)
        if best is None or (cand.points, cand.cards) > (best.points, best.cards):
            best = cand
    return best


def opening_meter(hand: Sequence[int], rules: TableRules, must_include: int | None = None) -> tuple[int, int]:
    """(the best points the hand's melds make now, the threshold): the Opening meter.

    The points are the best whatever the threshold (0 when no meld can be made); an opening
    that leaves 0 or 1 cards may go down below the threshold where the waiver holds (see
    :func:`best_opening`).
    """
    threshold = rules.opening or 0
    n = len(hand)
    points = 0
    for _bucket, pts, laid, melds in _opening_layouts(hand, rules, must_include):
        if melds and not (rules.last_card_discard and laid == n):
            points = max(points, pts)
    return points, threshold


# ---------------------------------------------------------------- the cheapest leftover


@dataclass(frozen=True, slots=True)
class _Shape:
    """What a meld on the table offers: its geometry and joker counts."""

    index: int  # position in the table list
    id: int
    is_set: bool
    suit: int  # runs
    rank0: int  # sets: rank - 1
    lo: int
    hi: int
    lo_jk: bool
    hi_jk: bool
    held: int  # sets: bitmask of natural suits
    nat: int
    jk: int
    length: int


def _shape(i: int, m: TableMeld) -> _Shape:
    jk = sum(1 for k in m.cards if k == JOKER)
    if m.kind == "set":
        held = 0
        for k in m.cards:
            if k != JOKER:
                held |= 1 << (k // 13)
        return _Shape(
            i,
            m.id,
            True,
            0,
            m.stands_for[0] % 13,
            0,
            0,
            False,
            False,
            held,
            len(m.cards) - jk,
            jk,
            len(m.cards),
        )
    lo = run_start(m.stands_for)
    return _Shape(
        i,
        m.id,
        False,
        m.stands_for[0] // 13,
        0,
        lo,
        lo + len(m.cards) - 1,
        m.cards[0] == JOKER,
        m.cards[-1] == JOKER,
        0,
        len(m.cards) - jk,
        jk,
        len(m.cards),
    )


# An extension: (cards added in order, low part first; natural kinds used; jokers used; cost).
_Ext = tuple[tuple[int, ...], tuple[int, ...], int, int]


def _may_take(sh: _Shape, k: int) -> bool:
    """Whether the natural ``k`` could go onto this meld at all: a run of its suit, a set of its rank."""
    return sh.rank0 == k % 13 if sh.is_set else sh.suit == k // 13


def _end_runs(
    sh: _Shape, step: int, counts: Sequence[int], jokers: int, cfg: MeldSettings
) -> list[tuple[list[int], int, int]]:
    """The ways to grow a run at one end: (slots outward from the run, naturals, jokers)."""
    out: list[tuple[list[int], int, int]] = [([], 0, 0)]
    q0 = sh.lo - 1 if step < 0 else sh.hi + 1
    edge_jk = sh.lo_jk if step < 0 else sh.hi_jk
    room = 13 - sh.length
    stack: list[tuple[int, list[int], int, int, bool]] = [(q0, [], 0, 0, edge_jk)]
    while stack:
        q, slots, nat, jk, prev_jk = stack.pop()
        if q < 1 or q > cfg.max_pos or len(slots) >= room:
            continue
        k = pos_kind(sh.suit, q)
        if counts[k] > 0:
            s2 = [*slots, k]
            out.append((s2, nat + 1, jk))
            stack.append((q + step, s2, nat + 1, jk, False))
        if jk < jokers and (cfg.adjacent or not prev_jk):
            s2 = [*slots, JOKER]
            out.append((s2, nat, jk + 1))
            stack.append((q + step, s2, nat, jk + 1, True))
    return out


def _extensions(
    sh: _Shape, counts: Sequence[int], jokers: int, cfg: MeldSettings, need: int | None
) -> list[_Ext]:
    """Every way to lay off cards from the hand onto one meld; ``need``: a kind that must be among
    them (``JOKER``: at least one joker; ``None``: any non-empty lay-off)."""
    pen = cfg.pen
    out: list[_Ext] = []
    if sh.is_set:
        avail = [
            t * 13 + sh.rank0 for t in range(4) if not sh.held >> t & 1 and counts[t * 13 + sh.rank0] > 0
        ]
        for n in range(len(avail) + 1):
            for combo in combinations(avail, n):
                for j in range(min(jokers, 4 - sh.length - n) + 1):
                    if n + j == 0 or sh.length + n + j > 4:
                        continue
                    if not limits_ok(sh.nat + n, sh.jk + j, cfg, in_set=True):
                        continue
                    if need is not None and (need not in combo if need != JOKER else j == 0):
                        continue
                    cards = (*combo, *(JOKER,) * j)
                    out.append((cards, combo, j, sum(pen[k] for k in combo) + j * pen[JOKER]))
        return out
    lows = _end_runs(sh, -1, counts, jokers, cfg)
    highs = _end_runs(sh, 1, counts, jokers, cfg)
    for low, _ln, lj in lows:
        for high, _hn, hj in highs:
            n_add = len(low) + len(high)
            if n_add == 0 or lj + hj > jokers or sh.length + n_add > 13:
                continue
            if cfg.max_group >= 0 and sh.jk + lj + hj > cfg.max_group:
                continue
            if need is not None:
                if need == JOKER:
                    if lj + hj == 0:
                        continue
                elif need not in low and need not in high:
                    continue
            nats = tuple(k for k in (*low, *high) if k != JOKER)
            if any(counts[k] < nats.count(k) for k in nats):
                continue  # an ace both low and high, with one ace in hand
            cards = (*low[::-1], *high)
            out.append((cards, nats, lj + hj, sum(pen[k] for k in nats) + (lj + hj) * pen[JOKER]))
    return out


def _joker_room(sh: _Shape, cfg: MeldSettings) -> int:
    """How many jokers alone a meld on the table can take."""
    if sh.is_set:
        room = 4 - sh.length
        if cfg.max_set >= 0:
            room = min(room, cfg.max_set - sh.jk)
    else:
        low = sh.lo - 1
        high = cfg.max_pos - sh.hi
        if not cfg.adjacent:
            low = min(low, 0 if sh.lo_jk else 1)
            high = min(high, 0 if sh.hi_jk else 1)
        room = min(low + high, 13 - sh.length)
    if cfg.max_group >= 0:
        room = min(room, cfg.max_group - sh.jk)
    return max(room, 0)


@dataclass(frozen=True, slots=True)
class Leftover:
    """The cheapest leftover of a hand: what it costs, the loose cards, and the plan to get there
    (new melds to lay down, then cards to lay off by meld id)."""

    cost: int
    loose: tuple[int, ...]
    melds: tuple[tuple[int, ...], ...]
    layoffs: tuple[tuple[int, tuple[int, ...]], ...]

    @property
    def placed(self) -> int:
        return sum(len(m) for m in self.melds) + sum(len(c) for _, c in self.layoffs)


# a step of a plan: ("meld", cards) for a new meld, or (meld id, cards) for a lay-off
_Step = tuple[int | str, tuple[int, ...]]


class _LeftoverSearch:
    def __init__(self, cfg: MeldSettings, counts: list[int], shapes: list[_Shape], free_room: int) -> None:
        self.cfg = cfg
        self.counts = counts
        self.shapes = shapes  # melds some natural of the hand may go onto
        self.free_room = free_room  # jokers the other melds on the table take
        self.memo: dict[tuple[bytes, int, int], int] = {}
        # the melds a natural could go onto: the runs of its suit, the sets of its rank
        self.suit_mask = [0] * 4
        self.rank_mask = [0] * 13
        for sh in shapes:
            if sh.is_set:
                self.rank_mask[sh.rank0] |= 1 << sh.index
            else:
                self.suit_mask[sh.suit] |= 1 << sh.index
        self.found: dict[tuple[int, int, int, bytes], list[tuple[_Step, tuple[int, ...], int, int]]] = {}

    def _options(self, k: int, jokers: int, used: int) -> list[tuple[_Step, tuple[int, ...], int, int]]:
        """(step, naturals, jokers, cost placed) for every way to put ``k`` down."""
        # They read only the cards of k's suit and rank, the jokers, and which of the melds k
        # could go onto are taken: the search meets the same few again and again.
        counts = self.counts
        suit, rank0 = divmod(k, 13)
        base = k - rank0
        onto = self.suit_mask[suit] | self.rank_mask[rank0]
        key = (k, jokers, used & onto, bytes(counts[base : base + 13]) + bytes(counts[rank0::13]))
        hit = self.found.get(key)
        if hit is not None:
            return hit
        opts: list[tuple[_Step, tuple[int, ...], int, int]] = []
        for cards, nats, jk, _pts, cost in melds_with(k, counts, jokers, self.cfg):
            opts.append((("meld", cards), nats, jk, cost))
        for sh in self.shapes:
            if not onto >> sh.index & 1 or used >> sh.index & 1:
                continue
            for cards, nats, jk, cost in _extensions(sh, counts, jokers, self.cfg, k):
                opts.append(((sh.index, cards), nats, jk, cost))
        self.found[key] = opts
        return opts

    def _leaf(self, jokers: int, used: int) -> int:
        room = self.free_room + sum(
            _joker_room(sh, self.cfg) for sh in self.shapes if not used >> sh.index & 1
        )
        return max(0, jokers - room) * self.cfg.pen[JOKER]

    def solve(self, start: int, jokers: int, used: int) -> int:
        counts = self.counts
        k = start
        while k < 52 and counts[k] == 0:
            k += 1
        if k == 52:
            return self._leaf(jokers, used)
        key = (bytes(counts), jokers, used)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        opts = self._options(k, jokers, used)
        counts[k] -= 1
        best = self.cfg.pen[k] + self.solve(k, jokers, used)
        counts[k] += 1
        for step, nats, jk, _cost in opts:
            if best == 0:
                break
            for x in nats:
                counts[x] -= 1
            u = used if step[0] == "meld" else used | 1 << int(step[0])
            got = self.solve(k, jokers - jk, u)
            for x in nats:
                counts[x] += 1
            best = min(best, got)
        self.memo[key] = best
        return best

    def rebuild(self, start: int, jokers: int, used: int, loose: list[int]) -> tuple[list[_Step], int, int]:
        """The steps of the best layout; returns (steps, jokers left, melds used)."""
        counts = self.counts
        k = start
        while k < 52 and counts[k] == 0:
            k += 1
        if k == 52:
            return [], jokers, used
        want = self.solve(k, jokers, used)
        opts = self._options(k, jokers, used)
        counts[k] -= 1
        if self.cfg.pen[k] + self.solve(k, jokers, used) == want:
            loose.append(k)
            res = self.rebuild(k, jokers, used, loose)
            counts[k] += 1
            return res
        counts[k] += 1
        for step, nats, jk, _cost in opts:
            for x in nats:
                counts[x] -= 1
            u = used if step[0] == "meld" else used | 1 << int(step[0])
            if self.solve(k, jokers - jk, u) == want:
                steps, j_left, u_end = self.rebuild(k, jokers - jk, u, loose)
                for x in nats:
                    counts[x] += 1
                return [step, *steps], j_left, u_end
            for x in nats:
                counts[x] += 1
        raise AssertionError("the leftover search could not retrace its best layout")


def _fits_hand(sh: _Shape, counts: Sequence[int], jokers: int, cfg: MeldSettings) -> bool:
    """Some natural of the hand could go onto this meld."""
    for cards, _nats, _jk, _cost in _extensions(sh, counts, jokers, cfg, None):
        if any(k != JOKER for k in cards):
            return True
    return False


def best_leftover(hand: Sequence[int], table: Sequence[TableMeld], rules: GroupRules) -> Leftover:
    """The cheapest leftover of ``hand`` (kinds) after laying down new melds and laying off onto
    the melds ``table`` holds (yours or a rival's), by card value (2–10 face, J Q K 10, the
    ace ``ace_value``, a joker ``joker_value``).  Joker swaps are not considered.  Exact.

    With no melds on the table this is the hand's deadwood, the arranger's ``always`` charge.
    """
    # A turn asks this of the same hand and table more than once (the legal actions, then the
    # seat's bot), so answers are kept: the hand's order does not matter, the table's does.
    return _best_leftover(tuple(sorted(hand)), tuple(table), meld_settings(rules))


@lru_cache(maxsize=4096)
def _best_leftover(hand: tuple[int, ...], table: tuple[TableMeld, ...], cfg: MeldSettings) -> Leftover:
    counts, jokers = counts_of(hand)
    full = list(counts)
    all_shapes = [_shape(i, m) for i, m in enumerate(table)]
    # the melds some natural of the hand may go onto (with jokers beside it, where there are)
    shapes = [sh for sh in all_shapes if _fits_hand(sh, counts, jokers, cfg)]
    relevant = {sh.index for sh in shapes}
    others = [sh for sh in all_shapes if sh.index not in relevant]
    free_room = sum(_joker_room(sh, cfg) for sh in others)
    # re-index the relevant melds to small bit positions
    packed = [replace(sh, index=i) for i, sh in enumerate(shapes)]
    loose_fixed: list[int] = []
    for k in range(52):
        fits = counts[k] and (
            melds_with(k, full, jokers, cfg)
            or any(_extensions(sh, full, jokers, cfg, k) for sh in packed if _may_take(sh, k))
        )
        if counts[k] and not fits:
            loose_fixed += [k] * counts[k]
            counts[k] = 0
    search = _LeftoverSearch(cfg, counts, packed, free_room)
    cost = search.solve(0, jokers, 0) + sum(cfg.pen[k] for k in loose_fixed)
    loose: list[int] = list(loose_fixed)
    steps, j_left, used = search.rebuild(0, jokers, 0, loose)
    melds = [cards for target, cards in steps if target == "meld"]
    layoffs = [(packed[int(target)].id, cards) for target, cards in steps if target != "meld"]
    # the jokers left: onto melds that can still take one, then loose
    for sh in [*(s for s in packed if not used >> s.index & 1), *others]:
        if not j_left:
            break
        room = min(_joker_room(sh, cfg), j_left)
        if room:
            layoffs.append((sh.id, (JOKER,) * room))
            j_left -= room
    loose += [JOKER] * j_left
    loose.sort()
    return Leftover(cost, tuple(loose), tuple(melds), tuple(layoffs))


# ---------------------------------------------------------------- can the turn still end?


def finish_plan(
    hand: Sequence[int],
    table: Sequence[TableMeld],
    rules: GroupRules,
    *,
    due: int | None,
    jokers_owed: int,
    min_left: int,
) -> list[tuple[int | None, tuple[int, ...]]] | None:
    """Steps that put down the card ``due`` (the card taken from the pile; ``JOKER`` for a
    joker) and ``jokers_owed`` jokers (freed by swaps), keeping at least ``min_left`` cards, or
    ``None`` when they cannot all go down.  A step is ``(None, cards)`` for a new meld or
    ``(meld id, cards)`` for a lay-off.  The seat has opened.
    """
    cfg = meld_settings(rules)
    counts, jokers = counts_of(hand)
    if due == JOKER:
        jokers_owed += 1
        due = None
    shapes = [_shape(i, m) for i, m in enumerate(table)]
    return _finish(cfg, counts, jokers, shapes, due, jokers_owed, min_left, len(hand), 0)


def _finish(
    cfg: MeldSettings,
    counts: list[int],
    jokers: int,
    shapes: list[_Shape],
    due: int | None,
    owed: int,
    min_left: int,
    size: int,
    used: int,
) -> list[tuple[int | None, tuple[int, ...]]] | None:
    if due is None and owed <= 0:
        return [] if size >= min_left else None
    if due is not None and not counts[due]:
        return None
    if owed > jokers:
        return None
    # (the meld on the table, or None for a new meld; cards; naturals; jokers)
    options: list[tuple[_Shape | None, tuple[int, ...], tuple[int, ...], int]] = []
    free = [sh for sh in shapes if not used >> sh.index & 1]
    if due is None:
        # jokers alone first: the cheapest way to put a joker down
        options += [(sh, (JOKER,), (), 1) for sh in free if _joker_room(sh, cfg) > 0]
        for sh in free:
            for cards, nats, jk, _c in _extensions(sh, counts, jokers, cfg, JOKER):
                if nats:
                    options.append((sh, cards, nats, jk))
        seen = set()
        for k in range(52):
            if counts[k]:
                for cards, nats, jk, _p, _c in melds_with(k, counts, jokers, cfg):
                    if jk and cards not in seen:
                        seen.add(cards)
                        options.append((None, cards, nats, jk))
    else:
        for sh in free:
            for cards, nats, jk, _c in _extensions(sh, counts, jokers, cfg, due):
                options.append((sh, cards, nats, jk))
        for cards, nats, jk, _p, _c in melds_with(due, counts, jokers, cfg):
            options.append((None, cards, nats, jk))
    options.sort(key=lambda o: len(o[1]))
    for sh_used, cards, nats, jk in options:
        n = len(cards)
        if size - n < min_left:
            continue
        for x in nats:
            counts[x] -= 1
        u = used if sh_used is None else used | 1 << sh_used.index
        rest = _finish(cfg, counts, jokers - jk, shapes, None, owed - jk, min_left, size - n, u)
        for x in nats:
            counts[x] += 1
        target = None if sh_used is None else sh_used.id
        if rest is not None:
            return [(target, cards), *rest]
    return None
