"""Reading a hand with the exact arranger: the measures every difficulty level plays by.

* ``charge``: what the hand pays if another seat shows now (the arranger's exact charge);
* ``away``: how many exchanges from a show (the arranger's exact count, assuming each draw is
  the card wanted);
* the throws of a fourteen-card hand, each with the ``away`` and ``charge`` it leaves.

A :class:`HandReader` caches both measures by hand, so a bot that asks about the same thirteen
cards at its draw and again at its throw pays once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rummykit.bots.tracking import is_wild
from rummykit.engine.arrange import Arranger
from rummykit.engine.cards import JOKER
from rummykit.engine.rules import Rules

__all__ = ["HandReader", "ThrowEval", "pure_pairs"]

_CACHE_LIMIT = 20_000


@dataclass(frozen=True, slots=True)
class ThrowEval:
    """One throw of a fourteen-card hand and the thirteen it leaves."""

    card: int
    away: int
    charge: int
    value: int  # what the card itself would be charged loose
    wild: bool


class HandReader:
    """Cached exact measures of hands for one set of rules."""

    __slots__ = ("_away", "_charge", "_pure", "arranger", "rules")

    def __init__(self, rules: Rules, arranger: Arranger | None = None) -> None:
        self.rules = rules
        self.arranger = arranger if arranger is not None and arranger.rules == rules else Arranger(rules)
        self._away: dict[tuple[tuple[int, ...], int | None], int] = {}
        self._charge: dict[tuple[tuple[int, ...], int | None], int] = {}
        self._pure: dict[tuple[tuple[int, ...], int | None], bool] = {}

    def _key(self, hand: Iterable[int], wild: int | None) -> tuple[tuple[int, ...], int | None]:
        return tuple(sorted(hand)), wild

    def away(self, hand: Iterable[int], wild: int | None) -> int:
        key = self._key(hand, wild)
        got = self._away.get(key)
        if got is None:
            if len(self._away) > _CACHE_LIMIT:
                self._away.clear()
            got = self._away[key] = self.arranger.away(key[0], wild)
        return got

    def charge(self, hand: Iterable[int], wild: int | None) -> int:
        key = self._key(hand, wild)
        got = self._charge.get(key)
        if got is None:
            if len(self._charge) > _CACHE_LIMIT:
                self._charge.clear()
            got = self._charge[key] = self.arranger.charge(key[0], wild)
        return got

    def has_pure(self, hand: Iterable[int], wild: int | None) -> bool:
        """Whether the hand's best arrangement holds a pure run."""
        key = self._key(hand, wild)
        got = self._pure.get(key)
        if got is None:
            if len(self._pure) > _CACHE_LIMIT:
                self._pure.clear()
            got = self._pure[key] = self.arranger.arrange(key[0], wild).has_pure
        return got

    def value(self, k: int, wild: int | None) -> int:
        return self.arranger.value(k, wild)

    def throws(
        self, hand14: Sequence[int], wild: int | None, allowed: Iterable[int], *, with_away: bool = True
    ) -> list[ThrowEval]:
        """Every allowed throw (each kind once) with what it leaves; ``away`` is 0 when skipped."""
        out = []
        for k in sorted(set(allowed)):
            rest = list(hand14)
            rest.remove(k)
            out.append(
                ThrowEval(
                    k,
                    self.away(rest, wild) if with_away else 0,
                    self.charge(rest, wild),
                    self.value(k, wild),
                    is_wild(k, wild),
                )
            )
        return out


def pure_pairs(hand: Sequence[int], ace_high: bool = True) -> int:
    """Pairs of natural cards of one suit one or two ranks apart (the seeds of a pure run).

    A card of the wild rank counts as its natural self here: it may sit in a pure run as itself.
    Two copies of one card are not a pair.
    """
    ranks: list[set[int]] = [set(), set(), set(), set()]
    for k in hand:
        if k != JOKER:
            ranks[k // 13].add(k % 13 + 1)
    n = 0
    for held in ranks:
        if ace_high and 1 in held:
            held = held | {14}
        for r in held:
            if r + 1 in held:
                n += 1
            if r + 2 in held:
                n += 1
    return n
