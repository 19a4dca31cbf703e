"""The autopilot: what the table plays for a person whose turn clock ran out, or who is away.

It plays as plainly as a person who stepped away would want (``docs/protocol.md``, "Away
seats"), from the seat's view alone, like every bot:

* the show family draws from the stock (the pile when the stock cannot be drawn) and throws
  the card it drew; after a take from the pile, the throw that leaves the lowest charge (the
  dearest card on a tie).  A seat the table has played for long enough drops, where it may.
* the table family never melds for the seat: a card just taken from the pile is put back (then
  the stock is drawn), the stock's card is thrown, and Remi's first player, who draws nothing,
  throws its dearest card (a joker last).  Only where the seat's own play left the turn owing a
  card (the pile's card after a meld, a freed joker at Rummy 40), which no throw may leave
  owing, does it put that card down by the engine's own plan.  A joker a swap freed at Remi 51 is
  owed nothing (``freed_joker_must_go_down`` is off): it stays in the hand and the autopilot
  throws as on any turn.

>>> from rummykit.engine.deal import ShowDeal
>>> from rummykit.engine.rules import get_preset
>>> deal = ShowDeal(get_preset("nepali", players=2), seed=3)
>>> print(autopilot(deal.view(deal.to_play), Coach(deal.rules)))
draw stock
"""

from __future__ import annotations

from rummykit.bots.coach import Coach
from rummykit.engine.cards import JOKER
from rummykit.engine.events import Action, ActionKind, Phase
from rummykit.engine.groups import card_value
from rummykit.engine.opening import finish_plan
from rummykit.engine.views import SeatView

__all__ = ["autopilot"]


def autopilot(view: SeatView, coach: Coach, *, drop: bool = False) -> Action:
    """The move for the seat to play of ``view``; ``drop``: drop out where dropping is allowed
    now (the seat has been played for its ``away_turns``)."""
    legal = view.legal
    if not legal:
        raise ValueError("the autopilot plays only for the seat to play")
    if view.rules.is_table:
        return _table_family(view)
    if view.phase is Phase.DRAW:
        if drop and Action.drop() in legal:
            return Action.drop()
        return _draw(legal)
    drawn = view.drawn
    if drawn is not None and Action.throw(drawn) in legal:
        return Action.throw(drawn)
    return Action.throw(coach.cheapest_throw(view))


def _draw(legal: tuple[Action, ...]) -> Action:
    for action in (Action.draw_stock(), Action.draw_pile()):
        if action in legal:
            return action
    return legal[0]


def _table_family(view: SeatView) -> Action:
    legal = view.legal
    if view.phase is Phase.DRAW:
        return _draw(legal)
    if Action.put_back() in legal:
        return Action.put_back()
    throws = [a.card for a in legal if a.kind is ActionKind.THROW and a.card is not None]
    if not throws:
        # the turn owes a card it can no longer put back: pay it the engine's way (RULES.md)
        rules = view.rules
        plan = finish_plan(
            view.hand,
            view.melds,
            rules,
            due=view.pile_due,
            jokers_owed=view.owed_jokers,
            min_left=1 if rules.last_card_discard else 0,
        )
        if plan:
            target, cards = plan[0]
            action = Action.lay_down(cards) if target is None else Action.lay_off(target, cards)
            if action in legal:  # the engine offers its own plan's first step when it is legal
                return action
        return legal[0]
    drawn = view.drawn
    if drawn is not None and drawn in throws:
        return Action.throw(drawn)
    # Remi's first player, who drew nothing: the dearest card, a joker last
    rules = view.rules
    return Action.throw(max(throws, key=lambda k: (k != JOKER, card_value(k, rules, None), k)))
