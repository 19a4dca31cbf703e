"""The baseline players: ``random`` and ``greedy``, the yardsticks for the stronger bots.

* :class:`RandomPlayer` picks any legal action uniformly (drops and shows included) with its
  seeded generator.
* :class:`GreedyPlayer` is simple and deterministic: it takes the pile's top card only when
  that lowers its best charge, never drops, shows as soon as it can and otherwise throws the
  card that leaves the lowest charge.  It reads only its :class:`SeatView` and asks the
  arranger one question a turn (its :meth:`~rummykit.engine.arrange.Arranger.best_throw`).
"""

from __future__ import annotations

from rummykit.bots.base import BasePlayer, BotError, Seed
from rummykit.engine.arrange import Arranger
from rummykit.engine.events import Action, ActionKind, Phase
from rummykit.engine.rules import Rules
from rummykit.engine.views import SeatView

__all__ = ["GreedyPlayer", "RandomPlayer"]


class RandomPlayer(BasePlayer):
    """Any legal action, uniformly: drop, draw from either place, any throw or show."""

    name = "random"

    def choose(self, view: SeatView) -> Action:
        if not view.legal:
            raise BotError(f"{self.name}: seat {view.seat} has nothing to do (it is not its turn)")
        return self.rng.choice(view.legal)


class GreedyPlayer(BasePlayer):
    """Lowest charge now, one turn at a time.

    * Draw: take the pile's top card when the fourteen cards it makes have a show (a finishing
      card other than that card), or when their best throw leaves a lower charge than the hand
      has now and that best throw is not the card just taken (it could not be thrown back, so
      taking it would not help); otherwise draw from the stock.  Never drops.
    * Throw: show as soon as a finishing card is legal (the lowest such kind); otherwise throw
      the card whose throw leaves the lowest charge (the arranger's best throw; ties go to the
      dearer card).

    The charge of the hand at rest is remembered from the throw that left it, so a turn costs
    one call into the search, two when the pile is looked at.
    """

    name = "greedy"

    def __init__(self, seed: Seed) -> None:
        super().__init__(seed)
        self._rules: Rules | None = None
        self._arranger: Arranger | None = None
        # (hand at rest, wild, its charge): set by the throw that left it
        self._rest: tuple[tuple[int, ...], int | None, int] | None = None
        # (fourteen kinds, wild, finishing kinds, best throw, charge after it): the last search
        self._last: tuple[tuple[int, ...], int | None, bytes, int, int] | None = None

    def _arranger_for(self, rules: Rules) -> Arranger:
        arranger = self._arranger
        if arranger is None or (rules is not self._rules and rules != self._rules):
            arranger = self._arranger = Arranger(rules)
            self._rest = self._last = None
        self._rules = rules
        return arranger

    def _best_throw(
        self, arranger: Arranger, kinds: tuple[int, ...], wild: int | None
    ) -> tuple[bytes, int, int]:
        last = self._last
        if last is not None and last[0] == kinds and last[1] == wild:
            return last[2], last[3], last[4]
        finish, throw, charge = arranger.best_throw(kinds, wild)
        self._last = (kinds, wild, finish, throw, charge)
        return finish, throw, charge

    def _charge_now(self, arranger: Arranger, hand: tuple[int, ...], wild: int | None) -> int:
        rest = self._rest
        if rest is not None and rest[0] == hand and rest[1] == wild:
            return rest[2]
        return arranger.charge(hand, wild)

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        if not legal:
            raise BotError(f"{self.name}: seat {view.seat} has nothing to do (it is not its turn)")
        arranger = self._arranger_for(view.rules)
        if view.phase is Phase.DRAW:
            return self._draw(view, arranger)
        return self._throw(view, arranger)

    def _draw(self, view: SeatView, arranger: Arranger) -> Action:
        take = Action.draw_pile()
        top = view.pile_top
        if top is None or take not in view.legal:
            return _stock_or_first(view)
        hand, wild = view.hand, view.wild
        kinds = tuple(sorted((*hand, top)))
        finish, throw, after = self._best_throw(arranger, kinds, wild)
        if any(k != top for k in finish):
            return take  # a show next: throw a finishing card other than this one
        if not finish and throw != top and after < self._charge_now(arranger, hand, wild):
            return take
        return _stock_or_first(view)

    def _throw(self, view: SeatView, arranger: Arranger) -> Action:
        legal = view.legal
        if legal[0].kind is ActionKind.SHOW:
            return legal[0]  # the engine lists the valid shows first
        hand, wild = view.hand, view.wild
        _finish, throw, after = self._best_throw(arranger, hand, wild)
        if throw == view.pile_take or Action.throw(throw) not in legal:
            throw, after = self._fallback_throw(view, arranger)
        rest = list(hand)
        rest.remove(throw)
        self._rest = (tuple(rest), wild, after)
        return Action.throw(throw)

    def _fallback_throw(self, view: SeatView, arranger: Arranger) -> tuple[int, int]:
        """The best legal throw, one charge at a time: only when the arranger's best throw is the
        card just taken from the pile (a position this player does not walk into itself)."""
        best: tuple[int, int, int] | None = None  # (charge after, -value, kind)
        wild = view.wild
        for action in view.legal:
            if action.kind is not ActionKind.THROW or action.card is None:
                continue
            rest = list(view.hand)
            rest.remove(action.card)
            key = (arranger.charge(rest, wild), -arranger.value(action.card, wild), action.card)
            if best is None or key < best:
                best = key
        if best is None:
            raise BotError(f"{self.name}: no card to throw")
        return best[2], best[0]


def _stock_or_first(view: SeatView) -> Action:
    """Draw from the stock; a greedy player never drops."""
    draw = Action.draw_stock()
    if draw in view.legal:
        return draw
    for action in view.legal:
        if action.kind is not ActionKind.DROP:
            return action
    raise BotError(f"greedy: seat {view.seat} can only drop")
