"""``medium``: plays its own hand well and drops a hopeless first hand.

* Throw: shows whenever it can.  Otherwise every legal throw is scored by what it leaves,
  with the arranger's exact measures: ``away`` (exchanges to a show) first, then the charge,
  weighted more as the deal ages, and the card's own value (high loose cards go early, while
  that is still free).  Wild cards are kept: a joker is thrown only when nothing else may go.
* Draw: takes the pile's top card when it makes a show, when it is a joker, or when the best
  throw after taking it scores clearly better than the hand now (by the same measure);
  otherwise draws blind.
* Drop: only at its first turn, before it has drawn, by a rule on the dealt hand tuned by
  simulation (see :data:`DROP_RULES`): a hand with no pure run, far from a show, is worth
  walking away from for the first-drop charge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.bots.contract import Deadline
from rummykit.bots.level import LevelPlayer, throw_kinds
from rummykit.bots.reading import HandReader, ThrowEval, pure_pairs
from rummykit.bots.tracking import is_wild
from rummykit.engine.views import SeatView

__all__ = ["DROP_RULES", "DropRule", "MediumPlayer", "hand_features"]


@dataclass(frozen=True, slots=True)
class DropRule:
    """Drop the dealt hand when, with no pure run, it is at least ``min_away`` exchanges from a
    show (with a pure run: at least ``min_away_pure``; ``None``: never)."""

    min_away: int
    min_away_pure: int | None = None

    def drops(self, away: int, has_pure: bool) -> bool:
        if has_pure:
            return self.min_away_pure is not None and away >= self.min_away_pure
        return away >= self.min_away


# By seats at the table (4 stands for four or more).  Tuned by simulation (Nepali, medium
# against medium with no drops, 8,000 dealt hands at two seats and 8,000 at four, seed "d"):
# the mean net of each shape of dealt hand played out, against the first drop's 20.  At two
# seats the hands with no pure run five or more away lost 22 to 39 a deal, four away 14; at
# four seats those four or more away lost 27 to 64, and a hand with a pure run five away 23.
DROP_RULES: Final[dict[int, DropRule]] = {2: DropRule(5), 3: DropRule(4), 4: DropRule(4, 5)}


def hand_features(reader: HandReader, hand: Sequence[int], wild: int | None) -> tuple[int, bool, int]:
    """(away, has a pure run, pure pairs) of a thirteen-card hand."""
    a = reader.arranger.arrange(hand, wild)
    return reader.away(hand, wild), a.has_pure, pure_pairs(hand, reader.rules.ace_high)


class MediumPlayer(LevelPlayer):
    """Best throw by ``away`` and charge, the pile when it helps, a tuned first-turn drop."""

    name = "medium"
    budget_ms = 50.0
    away_weight = 10.0  # one exchange nearer a show is worth this many points of charge
    charge_early = 0.15  # the charge's weight at the first turn ...
    charge_late = 0.6  # ... and from ``age_turns`` own turns on
    age_turns = 8
    value_weight = 0.3  # the thrown card's own value (shed high cards while it is free)
    take_margin = 2.0  # the pile card must beat the hand by this much (a blind draw may help too)

    def __init__(self, seed: int | str, *, budget_ms: float | None = None) -> None:
        super().__init__(seed, budget_ms=budget_ms)
        self.drop_rules: dict[int, DropRule] = dict(DROP_RULES)

    # ---- measures ------------------------------------------------------------------------

    def _charge_weight(self, view: SeatView) -> float:
        own_turns = view.turn // max(1, view.players)
        age = min(1.0, own_turns / self.age_turns)
        return self.charge_early + (self.charge_late - self.charge_early) * age

    def score(self, view: SeatView, away: int, charge: int, value: int = 0) -> float:
        """Lower is better: what a hand of ``away`` and ``charge`` is worth now (``value``: the
        card thrown to reach it)."""
        return self.away_weight * away + self._charge_weight(view) * charge - self.value_weight * value

    def ranked_throws(
        self, view: SeatView, reader: HandReader, hand14: Sequence[int], allowed: Sequence[int]
    ) -> list[tuple[float, ThrowEval]]:
        """The throws, best first; wild cards only when nothing else may go."""
        wild = view.wild
        naturals = [k for k in allowed if not is_wild(k, wild)]
        evals = reader.throws(hand14, wild, naturals or allowed)
        ranked = [(self.score(view, t.away, t.charge, t.value), t) for t in evals]
        ranked.sort(key=lambda st: (st[0], -st[1].value, st[1].card))
        return ranked

    # ---- decisions -----------------------------------------------------------------------

    def _drop(self, view: SeatView, reader: HandReader, deadline: Deadline) -> bool:
        if view.drop_cost != view.rules.drop_first or view.took[view.seat] or view.thrown[view.seat]:
            return False  # medium drops only before its first draw
        rule = self.drop_rules.get(min(view.players, 4))
        if rule is None:
            return False
        away, has_pure, _pairs = hand_features(reader, view.hand, view.wild)
        return rule.drops(away, has_pure)

    def _draw(self, view: SeatView, reader: HandReader, deadline: Deadline) -> bool:
        top = view.pile_top
        if top is None:
            return False
        hand, wild = view.hand, view.wild
        if is_wild(top, wild):
            return True  # a joker fills whatever gap the hand ends up with
        finish, _throw, _after = reader.arranger.best_throw((*hand, top), wild)
        if any(k != top for k in finish):
            return True
        now = self.score(view, reader.away(hand, wild), reader.charge(hand, wild))
        allowed = [k for k in set(hand) if k != top]
        ranked = self.ranked_throws(view, reader, (*hand, top), allowed)
        if not ranked:
            return False
        return self._take(view, reader, now, ranked)

    def _take(
        self, view: SeatView, reader: HandReader, now: float, ranked: list[tuple[float, ThrowEval]]
    ) -> bool:
        """Whether the pile's card (which neither shows nor is wild) is worth taking: the best
        throw after it (``ranked``) against the hand held (its score ``now``)."""
        best = ranked[0][1]
        return self.score(view, best.away, best.charge) < now - self.take_margin

    def _throw(self, view: SeatView, reader: HandReader, deadline: Deadline) -> int:
        ranked = self.ranked_throws(view, reader, view.hand, throw_kinds(view))
        return ranked[0][1].card
