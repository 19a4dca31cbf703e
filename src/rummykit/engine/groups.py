"""Groups (runs and sets) and shows: are they valid, and if not, why not.

A group is a sequence of card kinds (see :mod:`rummykit.engine.cards`).  The
deal's wild rank ``wild`` (1–13, or ``None``) makes every natural card of that
rank wild, as the printed jokers always are.  A card of the wild rank may also
play as its own natural self; :func:`check_group` picks, per card, whatever
makes the group valid, preferring a pure run, then any run, then a set.

Everything here reads the settings through :class:`GroupRules`, so any object
with those attributes (the frozen ``Rules`` of ``rules.py``, a test stand-in)
will do.  The reasons are written for players: they name the cards and the
rule, like ``8h 8h 8c: a set takes one card per suit``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Final, Protocol

from rummykit.engine.cards import ACE, JOKER, KINDS, KING, format_cards, kind, rank_of, suit_of

__all__ = [
    "GroupCheck",
    "GroupRules",
    "Lives",
    "ShowCheck",
    "arrangement_charge",
    "card_value",
    "check_group",
    "check_show",
    "is_wild",
    "lives",
]

MAX_RUN: Final = 13
MAX_SET: Final = 4
MIN_GROUP: Final = 3


class GroupRules(Protocol):
    """The settings this module reads (RULES.md's names); ``Rules`` satisfies it.

    Declared as read-only properties so that frozen dataclasses match.
    """

    @property
    def ace_high(self) -> bool: ...
    @property
    def wrap(self) -> bool: ...
    @property
    def max_jokers_per_group(self) -> int | None: ...
    @property
    def max_jokers_in_set(self) -> int | None: ...
    @property
    def min_naturals(self) -> int: ...
    @property
    def adjacent_jokers(self) -> bool: ...
    @property
    def joker_only_groups(self) -> bool: ...
    @property
    def thennaali(self) -> bool: ...
    @property
    def runs_needed(self) -> int: ...
    @property
    def long_run_required(self) -> bool: ...
    @property
    def credit(self) -> str: ...
    @property
    def full_count(self) -> int | None: ...
    @property
    def ace_value(self) -> int: ...
    @property
    def joker_value(self) -> int: ...


@dataclass(frozen=True, slots=True)
class GroupCheck:
    """What one group is under the rules, or why it is no group.

    ``kind`` is ``run``, ``set``, ``thennaali``, ``jokers`` (wild cards alone)
    or ``invalid``.  ``naturals`` and ``jokers`` count cards playing as
    themselves and wild cards standing in (for an invalid group: non-wild and
    wild cards).  ``stands_for`` gives, per input card in order, the natural
    kind it plays as; it is ``None`` for joker-only and invalid groups.
    """

    ok: bool
    kind: str
    pure: bool
    is_run: bool
    naturals: int
    jokers: int
    length: int
    reason: str
    stands_for: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class Lives:
    """The facts about an arrangement's groups that decide a show and the credit."""

    has_pure: bool
    runs: int
    has_long: bool

    def complete(self, rules: GroupRules) -> bool:
        """Both lives: a pure run, enough runs, and a long one where required."""
        return (
            self.has_pure
            and self.runs >= rules.runs_needed
            and (self.has_long or not rules.long_run_required)
        )


@dataclass(frozen=True, slots=True)
class ShowCheck:
    """Whether a declaration is a show, why not, and its :class:`Lives`."""

    ok: bool
    reason: str
    has_pure: bool
    runs: int
    has_long: bool
    groups: tuple[GroupCheck, ...]


def is_wild(k: int, wild: int | None) -> bool:
    """A printed joker, or a natural card of the wild rank."""
    return k == JOKER or (wild is not None and rank_of(k) == wild)


def card_value(k: int, rules: GroupRules, wild: int | None) -> int:
    """What a loose card is charged: 2–10 face, J Q K 10, ace and wild cards by the settings."""
    if is_wild(k, wild):
        return rules.joker_value
    r = rank_of(k)
    if r == ACE:
        return rules.ace_value
    return min(r, 10)


# ---------------------------------------------------------------- one group


@dataclass(frozen=True, slots=True)
class _Try:
    """One reading of a group (a run or a set with chosen naturals): fit, or the failure.

    ``depth`` ranks failures by how close they came: 0 nothing to build on,
    1 the shape is wrong, 2 the shape fits but a joker limit forbids it.  The
    deepest failure is the one worth telling the player.
    """

    ok: bool
    depth: int
    rule: str
    naturals: tuple[int, ...] = ()
    window: tuple[int, ...] = ()  # a run's ranks, lowest position first


def _name(kinds: Sequence[int]) -> str:
    return format_cards(kinds) if kinds else "no cards"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _windows(ranks: Iterable[int], length: int, ace_high: bool, wrap: bool) -> list[tuple[int, ...]]:
    """Every run of ``length`` consecutive ranks holding all ``ranks``.

    Without wrap the positions are 1 (ace low) … 13 and, with ``ace_high``,
    14 (ace high); a window of at most 13 never holds both ace positions.
    With wrap every cyclic window counts.
    """
    need = set(ranks)
    out: list[tuple[int, ...]] = []
    if wrap:
        for start in range(1, KING + 1):
            w = tuple((start - 1 + i) % KING + 1 for i in range(length))
            if need <= set(w):
                out.append(w)
        return out
    top = KING + 1 if ace_high else KING
    for start in range(1, top - length + 2):
        w = tuple(p if p <= KING else ACE for p in range(start, start + length))
        if need <= set(w):
            out.append(w)
    return out


def _limits(n_naturals: int, n_jokers: int, rules: GroupRules, in_set: bool) -> str:
    """The first joker limit broken, or ``""``."""
    if in_set and rules.max_jokers_in_set is not None and n_jokers > rules.max_jokers_in_set:
        return f"too many jokers in a set (at most {rules.max_jokers_in_set})"
    if rules.max_jokers_per_group is not None and n_jokers > rules.max_jokers_per_group:
        return f"too many jokers in one group (at most {rules.max_jokers_per_group})"
    if n_naturals < rules.min_naturals:
        return f"needs at least {_plural(rules.min_naturals, 'natural card')}"
    return ""


def _try_run(naturals: tuple[int, ...], length: int, rules: GroupRules) -> _Try:
    """Read the group as a run with these natural cards and the rest standing in."""
    if not naturals:
        return _Try(False, 0, "a group needs a natural card")
    ranks = [rank_of(k) for k in naturals]
    if len({suit_of(k) for k in naturals}) > 1:
        if len(set(ranks)) == len(ranks) and _windows(ranks, length, True, True):
            return _Try(False, 1, "a run is one suit")
        if len(set(ranks)) > 1:
            return _Try(False, 1, "a group is one suit in a row (a run) or one rank (a set)")
        return _Try(False, 1, "a run is one suit")
    if len(set(ranks)) < len(ranks):
        return _Try(False, 1, "a run holds one card of each rank")
    if length > MAX_RUN:
        return _Try(False, 1, f"a run has at most {MAX_RUN} cards")
    windows = _windows(ranks, length, rules.ace_high, rules.wrap)
    if not windows:
        # Say which rule a near miss breaks: the corner, the high ace, or a gap.
        if (
            not rules.wrap
            and _windows(ranks, length, True, True)
            and not _windows(ranks, length, True, False)
        ):
            return _Try(False, 1, "a run cannot turn the corner from king to ace to two")
        if not rules.ace_high and _windows(ranks, length, True, False):
            return _Try(False, 1, "the ace is only low here: a run cannot go from king to ace")
        if length > len(naturals):
            return _Try(False, 1, "a run is consecutive ranks, and the jokers cannot fill the gaps")
        return _Try(False, 1, "a run is consecutive ranks")
    broken = _limits(len(naturals), length - len(naturals), rules, in_set=False)
    if broken:
        return _Try(False, 2, broken)
    have = set(ranks)
    if not rules.adjacent_jokers:
        windows = [w for w in windows if not any(a not in have and b not in have for a, b in pairwise(w))]
        if not windows:
            return _Try(False, 2, "two jokers side by side")
    # Prefer the window where the naturals start first, so jokers extend a run upwards
    # (5h 6h JK reads 5-6-7); any window is equally valid.
    best = min(windows, key=lambda w: next(i for i, r in enumerate(w) if r in have))
    return _Try(True, 0, "", naturals, best)


def _try_set(naturals: tuple[int, ...], length: int, rules: GroupRules) -> _Try:
    """Read the group as a set with these natural cards and the rest standing in."""
    if not naturals:
        return _Try(False, 0, "a group needs a natural card")
    if len({rank_of(k) for k in naturals}) > 1:
        return _Try(False, 1, "a set is one rank")
    if len({suit_of(k) for k in naturals}) < len(naturals):
        return _Try(False, 1, "a set takes one card per suit")
    if length > MAX_SET:
        return _Try(False, 1, f"a set has at most {MAX_SET} cards")
    broken = _limits(len(naturals), length - len(naturals), rules, in_set=True)
    if broken:
        return _Try(False, 2, broken)
    return _Try(True, 0, "", naturals)


def _stands_for_run(kinds: Sequence[int], t: _Try) -> tuple[int, ...]:
    suit = suit_of(t.naturals[0])
    natural_left = list(t.naturals)
    gaps = [kind(suit, r) for r in t.window if r not in {rank_of(k) for k in t.naturals}]
    out = []
    for k in kinds:
        if k in natural_left:
            natural_left.remove(k)
            out.append(k)
        else:
            out.append(gaps.pop(0))
    return tuple(out)


def _stands_for_set(kinds: Sequence[int], t: _Try) -> tuple[int, ...]:
    rank = rank_of(t.naturals[0])
    natural_left = list(t.naturals)
    missing = [kind(s, rank) for s in range(4) if s not in {suit_of(k) for k in t.naturals}]
    out = []
    for k in kinds:
        if k in natural_left:
            natural_left.remove(k)
            out.append(k)
        else:
            out.append(missing.pop(0))
    return tuple(out)


def check_group(kinds: Sequence[int], rules: GroupRules, wild: int | None) -> GroupCheck:
    """Is ``kinds`` a run, a set, a thennaali or a joker-only group under ``rules``?

    The answer does not depend on the order of ``kinds``; only ``stands_for``
    follows it.
    """
    for k in kinds:
        if not 0 <= k < KINDS:
            raise ValueError(f"not a card kind: {k}")
    if wild is not None and not ACE <= wild <= KING:
        raise ValueError(f"wild rank must be 1–13 or None, not {wild}")
    n = len(kinds)
    fixed = tuple(k for k in kinds if not is_wild(k, wild))
    wild_rank = [k for k in kinds if k != JOKER and is_wild(k, wild)]

    def bad(rule: str) -> GroupCheck:
        return GroupCheck(
            False, "invalid", False, False, len(fixed), n - len(fixed), n, f"{_name(kinds)}: {rule}", None
        )

    if n < MIN_GROUP:
        return bad(f"a group has at least {MIN_GROUP} cards")

    # A run holds one card per rank, so at most one wild-rank card plays as itself:
    # read it with none, or with each distinct wild-rank card, as a natural.
    run_tries = [_try_run(fixed, n, rules)]
    run_tries += [_try_run((*fixed, k), n, rules) for k in sorted(set(wild_rank))]
    good_runs = [t for t in run_tries if t.ok]
    best_run = max(good_runs, key=lambda t: len(t.naturals)) if good_runs else None  # fewest stand-ins
    if best_run is not None and len(best_run.naturals) == n:
        return GroupCheck(True, "run", True, True, n, 0, n, "", _stands_for_run(kinds, best_run))
    # Three of one card (wild rank or not, playing as itself) is pure, so it beats an impure run.
    if rules.thennaali and n == 3 and kinds[0] != JOKER and len(set(kinds)) == 1:
        return GroupCheck(True, "thennaali", True, True, 3, 0, n, "", tuple(kinds))
    if best_run is not None:
        m = len(best_run.naturals)
        return GroupCheck(True, "run", False, True, m, n - m, n, "", _stands_for_run(kinds, best_run))

    # A set's natural cards share a rank; if any non-wild card is in it, that rank is not
    # the wild rank and every wild-rank card stands in.  Otherwise one wild-rank card per
    # suit plays naturally: more naturals never breaks a set's limits.
    if fixed:
        set_naturals = fixed
    else:
        by_suit = {suit_of(k): k for k in reversed(wild_rank)}
        set_naturals = tuple(by_suit[s] for s in sorted(by_suit))
    set_try = _try_set(set_naturals, n, rules)
    if set_try.ok:
        j = n - len(set_naturals)
        return GroupCheck(
            True, "set", False, False, len(set_naturals), j, n, "", _stands_for_set(kinds, set_try)
        )

    if not fixed and rules.joker_only_groups:
        # A "set of nothing": exempt from the joker limits, which are about stand-ins.
        return GroupCheck(True, "jokers", False, False, 0, n, n, "", None)

    # Invalid: tell the deepest failure; on a tie, the shape the natural cards point at.
    if not fixed and not wild_rank:
        return bad("wild cards alone are not a group here: it needs a natural card")
    if rules.thennaali and len(set(kinds)) == 1 and n != 3:
        return bad("a thennaali is exactly three of the same card")
    pointing = fixed or set_naturals
    set_intent = len(pointing) >= 2 and len({rank_of(k) for k in pointing}) == 1
    ordered = [set_try, *run_tries] if set_intent else [*run_tries, set_try]
    worst = max(ordered, key=lambda t: t.depth)  # max keeps the first of equals
    return bad(worst.rule)


# ---------------------------------------------------------------- a show


def _lives_of(checks: Iterable[GroupCheck]) -> Lives:
    ok = [c for c in checks if c.ok]
    return Lives(
        has_pure=any(c.pure and c.is_run for c in ok),
        runs=sum(c.is_run for c in ok),
        has_long=any(c.is_run and c.length >= 4 for c in ok),
    )


def lives(groups: Sequence[Sequence[int]], rules: GroupRules, wild: int | None) -> Lives:
    """Pure run, number of runs and long run among the valid groups of an arrangement."""
    return _lives_of(check_group(g, rules, wild) for g in groups)


def check_show(
    groups: Sequence[Sequence[int]], rules: GroupRules, wild: int | None, hand_size: int | None = None
) -> ShowCheck:
    """Is laying out ``groups`` a show?  Every group valid, a pure run, enough runs, a long one if needed.

    Pass ``hand_size`` to also require that many cards in all; without it any
    number of cards is checked (the arranger's search uses that).
    """
    checks = tuple(check_group(g, rules, wild) for g in groups)
    lv = _lives_of(checks)

    def result(reason: str) -> ShowCheck:
        return ShowCheck(not reason, reason, lv.has_pure, lv.runs, lv.has_long, checks)

    held = sum(len(g) for g in groups)
    if hand_size is not None and held != hand_size:
        return result(f"a show lays out all {hand_size} cards, these groups hold {held}")
    for c in checks:
        if not c.ok:
            return result(c.reason)
    if not lv.has_pure:
        return result("no pure run")
    if lv.runs < rules.runs_needed:
        return result(f"needs {_plural(rules.runs_needed, 'run')}, has {lv.runs}")
    if rules.long_run_required and not lv.has_long:
        return result("needs a run of four or more cards")
    return result("")


def arrangement_charge(
    groups: Sequence[Sequence[int]], loose: Sequence[int], rules: GroupRules, wild: int | None
) -> int:
    """What one arrangement (valid ``groups`` plus ``loose`` cards) is charged under the credit mode.

    Hand-level extras (Kerala's complete hand) are the arranger's business.
    """
    checks = [check_group(g, rules, wild) for g in groups]
    for c in checks:
        if not c.ok:
            raise ValueError(f"not a valid group: {c.reason}")

    def value(cards: Iterable[int]) -> int:
        return sum(card_value(k, rules, wild) for k in cards)

    loose_value = value(loose)
    total = loose_value + sum(value(g) for g in groups)
    lv = _lives_of(checks)
    both = lv.complete(rules)
    credit = rules.credit
    if credit == "always":
        charge = loose_value
    elif credit == "pure":
        charge = loose_value if lv.has_pure else total
    elif credit == "lives_except_pure":
        if both:
            charge = loose_value
        elif lv.has_pure:
            charge = total - sum(value(g) for g, c in zip(groups, checks, strict=True) if c.pure and c.is_run)
        else:
            charge = total
    elif credit == "lives_flat":
        flat = rules.full_count if rules.full_count is not None else total
        charge = loose_value if both else flat
    else:
        raise ValueError(f"unknown credit mode {credit!r}")
    if rules.full_count is not None:
        charge = min(charge, rules.full_count)
    return charge


def opening_value(kinds: Sequence[int], rules: GroupRules, wild: int | None) -> int:
    """What a group counts towards an opening (table family): every card as the
    card it plays as, a joker too; 2–10 face, J Q K 10, the ace ``ace_value``
    in a set or at the high end of a run.  Seed 003 counts an ace at the low
    end (A-2-3) as 1; seed 001 (Remi, ace worth 10) makes no such exception,
    so the low ace counts 1 exactly where the ace is worth 11.  Raises
    ``ValueError`` for a group that is no group."""
    check = check_group(kinds, rules, wild)
    if not check.ok or check.stands_for is None:
        raise ValueError(check.reason or f"{_name(kinds)}: wild cards alone have no value to open with")
    ranks = [rank_of(k) for k in check.stands_for]
    ace_low = check.is_run and 13 not in ranks
    total = 0
    for r in ranks:
        if r == 1:
            total += 1 if (ace_low and rules.ace_value == 11) else rules.ace_value
        else:
            total += min(r, 10)
    return total
