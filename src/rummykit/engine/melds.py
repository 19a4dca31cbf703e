"""The table family's melds: their geometry on the table, and the melds a hand holds.

Melds on the table (Rummy 40, Remi 51) are runs and sets whose jokers stand in
for fixed cards.  This module knows their geometry: where each card of a new
meld sits (:func:`place_meld`), which cards a meld on the table takes at its
ends or in its missing suits (:func:`extend_meld`, :func:`may_extend`), which
card frees a joker (:func:`swap_slot`), what a meld counts towards an opening
(:func:`meld_points`); and it enumerates the melds of a hand that hold a given
card (:func:`melds_with`), which the searches of
:mod:`rummykit.engine.table_arranger` are built on.

A run's positions are 1 (ace low) to 13 (king) and 14 (ace high, where
``ace_high``); table-family runs never wrap.  Card kinds as in
:mod:`rummykit.engine.cards`; the table family has no cut joker, so the only
wild cards are printed jokers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, pairwise

from rummykit.engine.cards import JOKER, RANK_PLURALS, SUIT_NAMES, format_card, format_cards
from rummykit.engine.events import TableMeld
from rummykit.engine.groups import GroupRules, check_group

__all__ = [
    "Candidate",
    "MeldSettings",
    "Placed",
    "counts_of",
    "extend_meld",
    "limits_ok",
    "may_extend",
    "meld_points",
    "meld_settings",
    "melds_with",
    "place_meld",
    "pos_kind",
    "run_start",
    "swap_slot",
]


# ---------------------------------------------------------------- settings, once per rules


@dataclass(frozen=True, slots=True)
class MeldSettings:
    """The settings a meld's geometry reads, made once per rules (:func:`meld_settings`)."""

    ace_high: bool
    max_pos: int
    min_nat: int
    max_group: int  # -1: no limit
    max_set: int  # -1: no limit
    adjacent: bool
    ace_value: int
    pen: tuple[int, ...]  # what a loose card costs, by kind (the joker at 52)
    # melds_with's answers, by what they depend on (see there); not part of the settings
    found: dict[tuple[int, int, bytes], tuple[Candidate, ...]] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False
    )


@lru_cache(maxsize=64)
def _cfg_of(
    ace_high: bool,
    min_nat: int,
    max_group: int | None,
    max_set: int | None,
    adjacent: bool,
    ace_value: int,
    joker_value: int,
) -> MeldSettings:
    pen = (*tuple(ace_value if k % 13 == 0 else min(k % 13 + 1, 10) for k in range(52)), joker_value)
    return MeldSettings(
        ace_high,
        14 if ace_high else 13,
        max(1, min_nat),
        -1 if max_group is None else max_group,
        -1 if max_set is None else max_set,
        adjacent,
        ace_value,
        pen,
    )


def meld_settings(rules: GroupRules) -> MeldSettings:
    return _cfg_of(
        rules.ace_high,
        rules.min_naturals,
        rules.max_jokers_per_group,
        rules.max_jokers_in_set,
        rules.adjacent_jokers,
        rules.ace_value,
        rules.joker_value,
    )


def pos_kind(suit: int, pos: int) -> int:
    return suit * 13 + (0 if pos == 14 else pos - 1)


def _rank_points(rank: int, cfg: MeldSettings) -> int:
    return cfg.ace_value if rank == 1 else min(rank, 10)


def _run_points(lo: int, hi: int, cfg: MeldSettings) -> int:
    """Opening points of a run over positions ``lo..hi`` (jokers count as the card they stand for).

    As :func:`rummykit.engine.groups.opening_value`: the ace counts 1 at the low end where an
    ace is worth 11 (seed 003's A-2-3), else its value; a 13-card run reads with the ace high.
    """
    total = 0
    for q in range(lo, hi + 1):
        if q == 14 or (q == 1 and hi == 13):
            total += cfg.ace_value
        elif q == 1:
            total += 1 if cfg.ace_value == 11 else cfg.ace_value
        else:
            total += min(q, 10)
    return total


def limits_ok(nat: int, jk: int, cfg: MeldSettings, in_set: bool) -> bool:
    if nat < cfg.min_nat:
        return False
    if cfg.max_group >= 0 and jk > cfg.max_group:
        return False
    return not (in_set and cfg.max_set >= 0 and jk > cfg.max_set)


# ---------------------------------------------------------------- placing one meld


@dataclass(frozen=True, slots=True)
class Placed:
    """A meld as it lies on the table: its cards in order (runs low to high, jokers in their
    slots) and the natural card each plays as."""

    kind: str  # "run" or "set"
    cards: tuple[int, ...]
    stands_for: tuple[int, ...]


def _set_stands_for(cards: Sequence[int]) -> tuple[int, ...]:
    """A set's jokers stand for the suits it lacks, in suit order."""
    rank = next(k % 13 for k in cards if k != JOKER)
    held = {k // 13 for k in cards if k != JOKER}
    missing = [s * 13 + rank for s in range(4) if s not in held]
    return tuple(k if k != JOKER else missing.pop(0) for k in cards)


def _run_ok(slots: Sequence[int], cfg: MeldSettings) -> bool:
    """Joker limits and no adjacent jokers, for a run's slots (kinds, JOKER in joker slots)."""
    jk = sum(1 for k in slots if k == JOKER)
    if not limits_ok(len(slots) - jk, jk, cfg, in_set=False):
        return False
    if not cfg.adjacent:
        for a, b in pairwise(slots):
            if a == JOKER and b == JOKER:
                return False
    return 3 <= len(slots) <= 13


def _run_from_order(cards: Sequence[int], cfg: MeldSettings) -> int | None:
    """The start position when ``cards`` read, in the order given, as a run low to high."""
    n = len(cards)
    starts: set[int] | None = None
    for i, k in enumerate(cards):
        if k == JOKER:
            continue
        r = k % 13 + 1
        mine = {r - i} if r != 1 else {1 - i, 14 - i}
        starts = mine if starts is None else starts & mine
    if not starts:
        return None
    fits = [s for s in starts if s >= 1 and s + n - 1 <= cfg.max_pos]
    return min(fits) if fits else None


def place_meld(cards: Sequence[int], rules: GroupRules) -> tuple[Placed | None, str]:
    """Where each card of a new meld sits, or why the cards are no meld.

    A run given in order (low to high, jokers in their slots) keeps that order, so
    ``JK 6h 7h`` is 5-6-7 and ``6h 7h JK`` is 6-7-8; otherwise the cards are read as
    :func:`~rummykit.engine.groups.check_group` reads them (jokers extend a run upwards).
    """
    check = check_group(cards, rules, None)
    if not check.ok or check.stands_for is None:
        return None, check.reason
    cfg = meld_settings(rules)
    if not check.is_run:
        return Placed("set", tuple(cards), _set_stands_for(cards)), ""
    suit = next(k // 13 for k in cards if k != JOKER)
    start = _run_from_order(cards, cfg)
    if start is not None and _run_ok(list(cards), cfg):
        stands = tuple(pos_kind(suit, start + i) for i in range(len(cards)))
        return Placed("run", tuple(cards), stands), ""
    # check_group's reading: order the cards by the position they stand for
    ranks = [k % 13 + 1 for k in check.stands_for]
    high_ace = 13 in ranks
    pos = [14 if (r == 1 and high_ace) else r for r in ranks]
    order = sorted(range(len(cards)), key=lambda i: pos[i])
    ordered = tuple(cards[i] for i in order)
    stands = tuple(check.stands_for[i] for i in order)
    if not _run_ok(ordered, cfg):
        return None, f"{format_cards(cards)}: two jokers side by side"
    return Placed("run", ordered, stands), ""


def meld_points(meld: Placed | TableMeld, rules: GroupRules) -> int:
    """What a meld counts towards an opening (the value of the cards its cards stand for)."""
    cfg = meld_settings(rules)
    if meld.kind == "set":
        r = meld.stands_for[0] % 13 + 1
        return _rank_points(r, cfg) * len(meld.stands_for)
    lo = run_start(meld.stands_for)
    return _run_points(lo, lo + len(meld.stands_for) - 1, cfg)


def run_start(stands_for: Sequence[int]) -> int:
    """The position of a run's first card (an ace first is low)."""
    return stands_for[0] % 13 + 1


def _describe(meld: TableMeld) -> str:
    if meld.kind == "set":
        return f"a set of {RANK_PLURALS[meld.stands_for[0] % 13 + 1]}"
    return f"a run of {SUIT_NAMES[meld.stands_for[0] // 13]}"


# ---------------------------------------------------------------- laying off, swapping


def extend_meld(meld: TableMeld, cards: Sequence[int], rules: GroupRules) -> tuple[Placed | None, str]:
    """``meld`` with ``cards`` laid off onto it, or why they do not fit, naming the rule.

    A set takes natural cards of its rank in suits it lacks (and jokers), up to four cards.  A
    run grows at either end; its cards keep their slots.  Jokers fill the gaps between the run
    and the natural cards laid off with them; a joker beyond goes to the high end where it can,
    else the low end.
    """
    if not cards:
        return None, "lay off at least one card"
    cfg = meld_settings(rules)

    def bad() -> str:  # the refusal's opening words, built only for a refusal (a hot path)
        return f"{format_cards(cards)} does not fit meld {meld.id}: {_describe(meld)}"

    naturals = [k for k in cards if k != JOKER]
    jokers = len(cards) - len(naturals)
    if meld.kind == "set":
        rank = meld.stands_for[0] % 13
        held = {k // 13 for k in meld.cards if k != JOKER}
        suits = [k // 13 for k in naturals]
        if any(k % 13 != rank for k in naturals):
            return None, f"{bad()}, which takes only {RANK_PLURALS[rank + 1]}"
        if len(set(suits)) < len(suits):
            return None, f"{bad()}, which takes one card of each suit"
        if held & set(suits):
            twice = next(k for k in naturals if k // 13 in held)
            return None, f"{bad()}, which already holds {format_card(twice)}"
        size = len(meld.cards) + len(cards)
        if size > 4:
            return None, f"{bad()}, which holds at most four cards"
        old_jk = sum(1 for k in meld.cards if k == JOKER)
        if not limits_ok(len(meld.cards) - old_jk + len(naturals), old_jk + jokers, cfg, in_set=True):
            return None, f"{bad()}: {_joker_limit(cfg, in_set=True)}"
        new = (*meld.cards, *cards)
        return Placed("set", new, _set_stands_for(new)), ""
    suit = meld.stands_for[0] // 13
    if any(k // 13 != suit for k in naturals):
        return None, f"{bad()}, which takes only {SUIT_NAMES[suit]}"
    lo = run_start(meld.stands_for)
    hi = lo + len(meld.cards) - 1

    def span() -> str:
        return f"{bad()} from {format_card(meld.stands_for[0])} to {format_card(meld.stands_for[-1])}"

    # Each natural card's position: an ace may be low (1) or high (14); try both.
    choices: list[list[int]] = [[]]
    for k in naturals:
        r = k % 13 + 1
        opts = [1, 14] if r == 1 else [r]
        inside = [p for p in opts if lo <= p <= hi]
        if inside and all(lo <= p <= hi for p in opts if p <= cfg.max_pos):
            if meld.cards[inside[0] - lo] == JOKER:
                return None, f"{span()}: a joker holds {format_card(k)}'s place (swap it out instead)"
            return None, f"{span()}, which already has {format_card(k)}"
        opts = [p for p in opts if (p < lo or p > hi) and p <= cfg.max_pos]
        if not opts:
            return None, f"{span()}: a run cannot go past the ace"
        choices = [[*c, p] for c in choices for p in opts]
    reasons: list[str] = []
    for positions in choices:
        if len(set(positions)) < len(positions):
            reasons.append("two cards for one place")
            continue
        placed, reason = _extend_run(meld, suit, lo, hi, naturals, positions, jokers, cfg)
        if placed is not None:
            return placed, ""
        reasons.append(reason)
    # an ace low or high: the nearest miss (the shortest reason names the fewest missing cards)
    return None, f"{span()}: {min(reasons, key=len)}"


def may_extend(meld: TableMeld, k: int) -> bool:
    """A quick necessary condition for laying ``k`` alone off onto ``meld``: a joker, or a
    natural of the set's rank or the run's suit (spares :func:`extend_meld` most cards)."""
    if k == JOKER:
        return True
    first = meld.stands_for[0]
    return k % 13 == first % 13 if meld.kind == "set" else k // 13 == first // 13


def _joker_limit(cfg: MeldSettings, *, in_set: bool) -> str:
    """The joker rule a meld broke (the limits of :func:`limits_ok`)."""
    if in_set and cfg.max_set >= 0 and (cfg.max_group < 0 or cfg.max_set < cfg.max_group):
        return f"a set holds at most {_jokers(cfg.max_set)}"
    if cfg.max_group >= 0:
        return f"a meld holds at most {_jokers(cfg.max_group)}"
    return f"a meld needs at least {cfg.min_nat} natural cards"


def _jokers(n: int) -> str:
    return "one joker" if n == 1 else f"{n} jokers"


def _extend_run(
    meld: TableMeld,
    suit: int,
    lo: int,
    hi: int,
    naturals: Sequence[int],
    positions: Sequence[int],
    jokers: int,
    cfg: MeldSettings,
) -> tuple[Placed | None, str]:
    low = [p for p in positions if p < lo]
    high = [p for p in positions if p > hi]
    new_lo = min(low) if low else lo
    new_hi = max(high) if high else hi
    gaps = (lo - new_lo - len(low)) + (new_hi - hi - len(high))
    extra = jokers - gaps
    if extra < 0:
        missing = [q for q in (*range(new_lo, lo), *range(hi + 1, new_hi + 1)) if q not in positions]
        gap = " ".join(format_card(pos_kind(suit, q)) for q in missing)
        return None, f"it would leave a gap at {gap}"
    at: dict[int, int] = dict(zip(positions, naturals, strict=True))
    why = "a run cannot go past the ace"
    # extra jokers: as many at the high end as fit, then the low end; else shift them down
    for up in range(extra, -1, -1):
        down = extra - up
        a, b = new_lo - down, new_hi + up
        if a < 1 or b > cfg.max_pos or b - a + 1 > 13:
            continue
        slots: list[int] = []
        for q in range(a, b + 1):
            if lo <= q <= hi:
                slots.append(meld.cards[q - lo])
            else:
                slots.append(at.get(q, JOKER))
        if _run_ok(slots, cfg):
            return Placed("run", tuple(slots), tuple(pos_kind(suit, q) for q in range(a, b + 1))), ""
        jk = sum(1 for k in slots if k == JOKER)
        if not limits_ok(len(slots) - jk, jk, cfg, in_set=False):
            why = _joker_limit(cfg, in_set=False)
        elif not cfg.adjacent and any(x == JOKER and y == JOKER for x, y in pairwise(slots)):
            why = "two jokers may not lie side by side"
    return None, why


def swap_slot(meld: TableMeld, card: int) -> tuple[int | None, str]:
    """The index of the joker that ``card`` frees from ``meld``, or why none.

    In a run the card must be exactly the card the joker stands for; in a set, the set's rank
    in a suit the set does not hold yet.
    """
    slots = [i for i, k in enumerate(meld.cards) if k == JOKER]
    if not slots:
        return None, f"meld {meld.id} holds no joker"
    if card == JOKER:
        return None, "swap a joker out with a natural card"
    if meld.kind == "set":
        held = {k // 13 for k in meld.cards if k != JOKER}
        if card % 13 == meld.stands_for[0] % 13 and card // 13 not in held:
            return slots[0], ""
        rank = meld.stands_for[0] % 13
        wanted = [s * 13 + rank for s in range(4) if s not in held]
        return None, f"the slot needs {' or '.join(format_card(k) for k in wanted)}"
    for i in slots:
        if meld.stands_for[i] == card:
            return i, ""
    wanted = [meld.stands_for[i] for i in slots]
    word = "the slot needs" if len(wanted) == 1 else "the slots need"
    return None, f"{word} {' or '.join(format_card(k) for k in wanted)}"


# ---------------------------------------------------------------- enumerating melds in a hand

# A candidate meld: (cards in order, the natural kinds it uses, jokers it uses, opening points,
# what its cards would cost left in the hand).
Candidate = tuple[tuple[int, ...], tuple[int, ...], int, int, int]


def _runs_with(c: int, counts: Sequence[int], jokers: int, cfg: MeldSettings, out: list[Candidate]) -> None:
    """Every run holding the natural ``c`` with other naturals from ``counts`` and up to
    ``jokers`` jokers."""
    suit = c // 13
    r = c % 13 + 1
    base = suit * 13
    pen = cfg.pen
    jv = pen[JOKER]
    ps = [r] if r != 1 else ([1, 14] if cfg.ace_high else [1])
    max_pos = cfg.max_pos
    adjacent = cfg.adjacent
    max_group = cfg.max_group
    min_nat = cfg.min_nat
    for p in ps:
        for a in range(p, max(1, p - 12) - 1, -1):
            # Fill positions a.. upwards; position p holds c.
            stack: list[tuple[int, list[int], int, int, int, bool]] = [(a, [], 0, 0, 0, False)]
            while stack:
                q, slots, nat, jk, cost, prev_jk = stack.pop()
                length = len(slots)
                if q > p and length >= 3 and nat >= min_nat:
                    lo = q - length
                    nats = tuple(k for k in slots if k != JOKER)
                    out.append((tuple(slots), nats, jk, _run_points(lo, q - 1, cfg), cost))
                if q > max_pos or length == 13:
                    continue
                if q == p:
                    stack.append((q + 1, [*slots, c], nat + 1, jk, cost + pen[c], False))
                    continue
                k = base + (0 if q == 14 else q - 1)
                if counts[k] > 0 and k != c:
                    stack.append((q + 1, [*slots, k], nat + 1, jk, cost + pen[k], False))
                if jk < jokers and (adjacent or not prev_jk) and (max_group < 0 or jk < max_group):
                    stack.append((q + 1, [*slots, JOKER], nat, jk + 1, cost + jv, True))


def _sets_with(c: int, counts: Sequence[int], jokers: int, cfg: MeldSettings, out: list[Candidate]) -> None:
    """Every set holding the natural ``c`` with naturals of other suits from ``counts`` and jokers."""
    rank0 = c % 13
    s0 = c // 13
    others = [t * 13 + rank0 for t in range(4) if t != s0 and counts[t * 13 + rank0] > 0]
    pts = _rank_points(rank0 + 1, cfg)
    pen = cfg.pen
    for n in range(len(others) + 1):
        for combo in combinations(others, n):
            nat = 1 + n
            nats = tuple(sorted((c, *combo)))
            cost = sum(pen[k] for k in nats)
            for j in range(min(jokers, 4 - nat) + 1):
                size = nat + j
                if size < 3 or not limits_ok(nat, j, cfg, in_set=True):
                    continue
                out.append((nats + (JOKER,) * j, nats, j, pts * size, cost + j * pen[JOKER]))


_FOUND_CAP = 1 << 16  # answers kept per settings (about 30 MB at most) before they are dropped


def melds_with(c: int, counts: Sequence[int], jokers: int, cfg: MeldSettings) -> tuple[Candidate, ...]:
    """Every meld (run or set) holding the natural ``c`` with other naturals from ``counts`` and
    up to ``jokers`` jokers.

    A meld holds each kind at most once, so the answer reads only which kinds of ``c``'s suit
    and of ``c``'s rank are present: the searches ask it hundreds of times a hand with the same
    few cards around ``c``, so answers are kept on ``cfg`` under those cards (the exact counts,
    which a two-deck hand may hold twice: the key stays a plain slice).
    """
    base = c - c % 13
    r0 = c % 13
    key = (c, jokers, bytes(counts[base : base + 13]) + bytes(counts[r0::13]))
    found = cfg.found
    hit = found.get(key)
    if hit is not None:
        return hit
    out: list[Candidate] = []
    _runs_with(c, counts, jokers, cfg, out)
    _sets_with(c, counts, jokers, cfg, out)
    if len(found) >= _FOUND_CAP:
        found.clear()
    res = found[key] = tuple(out)
    return res


def counts_of(kinds: Iterable[int]) -> tuple[list[int], int]:
    counts = [0] * 52
    jokers = 0
    for k in kinds:
        if k == JOKER:
            jokers += 1
        elif 0 <= k < 52:
            counts[k] += 1
        else:
            raise ValueError(f"not a card kind: {k}")
    return counts, jokers
