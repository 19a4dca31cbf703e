"""A deliberately simple reference arranger: the yardstick for the fast one.

It knows nothing clever about runs or sets.  It tries every way of splitting a
hand into groups plus loose cards, asks :func:`check_group` whether each group
is one, and asks :func:`arrangement_charge` / :func:`check_show` what each
arrangement is charged and whether it shows.  Two things keep it fast enough
for a 13-card hand, and both are explained where they happen:

* candidate groups are grown card by card and abandoned once they can no
  longer become a group (two checks that only ever get worse as cards are
  added);
* the search is memoised on the sorted multiset of cards still to place, and
  for each such multiset it keeps one arrangement per *summary*: the handful
  of numbers that :func:`arrangement_charge` and :func:`check_show` read.  Two
  arrangements with the same summary are charged the same, so keeping one of
  them cannot change the minimum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.engine.cards import format_card, rank_of, suit_of
from rummykit.engine.groups import (
    GroupCheck,
    arrangement_charge,
    card_value,
    check_group,
    check_show,
    is_wild,
)

Cards = tuple[int, ...]
# An arrangement: its groups, and its loose cards.
Arrangement = tuple[tuple[Cards, ...], Cards]
# What arrangement_charge and check_show read of an arrangement of some cards (the cards'
# total value is the same for every arrangement of them, so it is not needed):
# (loose value, any loose card, value of the pure runs, has a pure run, runs, has a run of 4+).
Summary = tuple[int, bool, int, bool, int, bool]


@dataclass(frozen=True)
class BruteResult:
    """The hand's charge (its best arrangement, plus the complete-hand rule) and whether it shows."""

    charge: int
    can_show: bool


class _Search:
    """One hand's search under fixed rules and wild rank; every table lives for one call."""

    def __init__(self, rules: Any, wild: int | None) -> None:
        self.rules = rules
        self.wild = wild
        self.checks: dict[Cards, GroupCheck] = {}
        self.memo: dict[Cards, dict[Summary, Arrangement]] = {}

    def check(self, group: Cards) -> GroupCheck:
        """check_group, cached on the sorted cards (it ignores their order)."""
        got = self.checks.get(group)
        if got is None:
            got = self.checks[group] = check_group(group, self.rules, self.wild)
        return got

    def value(self, cards: Cards) -> int:
        return sum(card_value(k, self.rules, self.wild) for k in cards)

    def groups_with_first(self, rest: Cards) -> list[tuple[Cards, Cards]]:
        """Every valid group holding ``rest[0]`` and some later cards, with the cards left over.

        Cards are added in order (include or skip each later card).  A branch is
        abandoned when its non-wild cards are
        (1) neither all one suit nor all one rank: a run's natural cards share a
            suit, a set's a rank, a thennaali is one card, a joker-only group has
            none, so no valid group looks like this, and adding cards never helps;
        (2) of two or more suits while it already holds more than 4 cards: only a
            set mixes suits, a set has at most 4 cards, and adding cards only grows it.
        Everything that survives is still judged by check_group.
        """
        first, later = rest[0], rest[1:]
        found: dict[Cards, Cards] = {}

        def grow(i: int, chosen: list[int], skipped: list[int], suits: set[int], ranks: set[int]) -> None:
            if len(suits) > 1 and len(ranks) > 1:
                return  # pruning (1)
            if len(suits) > 1 and len(chosen) > 4:
                return  # pruning (2)
            if i == len(later):
                if len(chosen) >= 3:
                    group = tuple(sorted(chosen))
                    if group not in found and self.check(group).ok:
                        found[group] = tuple(sorted(skipped))
                return
            k = later[i]
            if is_wild(k, self.wild):
                grow(i + 1, [*chosen, k], skipped, suits, ranks)
            else:
                grow(i + 1, [*chosen, k], skipped, suits | {suit_of(k)}, ranks | {rank_of(k)})
            grow(i + 1, chosen, [*skipped, k], suits, ranks)

        if is_wild(first, self.wild):
            grow(0, [first], [], set(), set())
        else:
            grow(0, [first], [], {suit_of(first)}, {rank_of(first)})
        return list(found.items())

    def arrangements(self, rest: Cards) -> dict[Summary, Arrangement]:
        """One arrangement of ``rest`` (sorted) per summary, over every arrangement of it.

        The first card is either loose or in a group with some later cards; the
        rest is arranged the same way.
        """
        got = self.memo.get(rest)
        if got is not None:
            return got
        out: dict[Summary, Arrangement] = {}
        if not rest:
            out[(0, False, 0, False, 0, False)] = ((), ())
            self.memo[rest] = out
            return out
        first = rest[0]
        first_value = card_value(first, self.rules, self.wild)
        for (lv, _, pv, pure, runs, long_), (groups, loose) in self.arrangements(rest[1:]).items():
            key = (lv + first_value, True, pv, pure, runs, long_)
            out.setdefault(key, (groups, (first, *loose)))
        for group, left in self.groups_with_first(rest):
            c = self.check(group)
            is_pure_run = c.pure and c.is_run
            gv = self.value(group) if is_pure_run else 0
            for (lv, any_loose, pv, pure, runs, long_), (groups, loose) in self.arrangements(left).items():
                key = (
                    lv,
                    any_loose,
                    pv + gv,
                    pure or is_pure_run,
                    runs + c.is_run,
                    long_ or (c.is_run and c.length >= 4),
                )
                out.setdefault(key, ((group, *groups), loose))
        self.memo[rest] = out
        return out


def brute_arrange(kinds: Sequence[int], rules: Any, wild: int | None) -> BruteResult:
    """The least charge over every arrangement of ``kinds``, and whether some arrangement shows."""
    search = _Search(rules, wild)
    reps = search.arrangements(tuple(sorted(kinds)))
    charge = min(arrangement_charge(groups, loose, rules, wild) for groups, loose in reps.values())
    can_show = any(not loose and check_show(groups, rules, wild).ok for groups, loose in reps.values())
    if rules.complete_hand_charge is not None and can_show:
        # Kerala: a hand that could have shown counts 2, one more when twos are wild.
        charge = rules.complete_hand_charge + (1 if wild == 2 else 0)
    return BruteResult(charge, can_show)


def brute_finish(kinds14: Sequence[int], rules: Any, wild: int | None) -> list[str]:
    """The distinct cards (as text, sorted) whose throw leaves a hand that shows."""
    out = set()
    for k in set(kinds14):
        rest = list(kinds14)
        rest.remove(k)
        if brute_arrange(rest, rules, wild).can_show:
            out.add(format_card(k))
    return sorted(out)
