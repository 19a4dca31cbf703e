"""``easy``: a beginner who reads the hand with the arranger but plays it loosely.

Seed 000: "an easy bot plays every hand to the end and keeps paying the full count for it".

* Never drops.
* Draw: takes the pile's top card when the arranger says it lowers the charge (as ``greedy``
  does), and otherwise draws blind; it never looks at what the other seats take.
* Throw: shows whenever it can.  Otherwise, like a beginner who has found the groups but not
  the plan, it throws one of the loose cards of its best arrangement: a random one
  (:attr:`EasyPlayer.random_loose` of the time), the dearest one (:attr:`EasyPlayer.high_loose`),
  or the arranger's best throw by charge.  It never counts how far the hand is from a show,
  so it breaks up half-made pure runs and keeps no plan for a second run.
"""

from __future__ import annotations

from rummykit.bots.contract import Deadline
from rummykit.bots.level import LevelPlayer, throw_kinds
from rummykit.bots.reading import HandReader
from rummykit.bots.tracking import is_wild
from rummykit.engine.views import SeatView

__all__ = ["EasyPlayer"]


class EasyPlayer(LevelPlayer):
    """Loose play: the arranger's groups, a careless throw, no drops."""

    name = "easy"
    budget_ms = 50.0
    random_loose = 0.6  # a random loose card
    high_loose = 0.3  # the dearest loose card

    def _draw(self, view: SeatView, reader: HandReader, deadline: Deadline) -> bool:
        top = view.pile_top
        if top is None:
            return False
        hand, wild = view.hand, view.wild
        finish, throw, after = reader.arranger.best_throw((*hand, top), wild)
        if any(k != top for k in finish):
            return True
        return not finish and throw != top and after < reader.charge(hand, wild)

    def _throw(self, view: SeatView, reader: HandReader, deadline: Deadline) -> int:
        hand, wild = view.hand, view.wild
        allowed = throw_kinds(view)
        _finish, best, _charge = reader.arranger.best_throw(hand, wild)
        naturals = [k for k in allowed if not is_wild(k, wild)]
        if best not in allowed or (is_wild(best, wild) and naturals):
            # even a beginner keeps the jokers: the cheapest natural throw by charge instead
            evals = reader.throws(hand, wild, naturals or allowed, with_away=False)
            best = min(evals, key=lambda t: (t.charge, -t.value, t.card)).card
        roll = self.rng.random()
        if roll >= self.random_loose + self.high_loose:
            return best
        a = reader.arranger.arrange(hand, wild)
        # the loose cards of the best arrangement of the other thirteen, and the best throw itself
        loose = sorted({k for k in (*a.loose, best) if k in allowed and not is_wild(k, wild)})
        if not loose:
            return best
        if roll < self.random_loose:
            return self.rng.choice(loose)
        return max(loose, key=lambda k: (reader.value(k, wild), k))
