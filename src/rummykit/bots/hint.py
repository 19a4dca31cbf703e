"""A hint for a human seat: what the ``hard`` bot would do now, and why, in one line.

Both families: the show family asks :class:`~rummykit.bots.hard.HardPlayer`, the table family
(Rummy 40, Remi 51) :class:`~rummykit.bots.table_levels.TableHard`.  For the terminal game and
the web table:

>>> from rummykit.engine.deal import ShowDeal
>>> from rummykit.engine.rules import get_preset
>>> deal = ShowDeal(get_preset("nepali", players=2), seed=3)
>>> action, reason = hint(deal.view(deal.to_play))
>>> action in deal.view(deal.to_play).legal
True
>>> from rummykit.engine.table_deal import TableDeal
>>> deal = TableDeal(get_preset("rummy40", players=2), seed=3)
>>> action, reason = hint(deal.view(deal.to_play))
>>> action in deal.view(deal.to_play).legal, reason.split(":")[0]
(True, 'Draw from the stock')
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.bots.contract import Deadline
from rummykit.bots.hard import HardPlayer
from rummykit.bots.table_levels import TableHard
from rummykit.engine.events import Action, Event
from rummykit.engine.rules import Rules
from rummykit.engine.views import SeatView

__all__ = ["HINT_BUDGET_MS", "hint"]

HINT_BUDGET_MS = 250.0


def hint(
    view: SeatView,
    rules: Rules | None = None,
    *,
    budget_ms: float = HINT_BUDGET_MS,
    names: Sequence[str] | None = None,
    events: Sequence[Event] = (),
) -> tuple[Action, str]:
    """The hard bot's action for ``view`` (the seat to play) and a one-line reason.

    ``rules`` defaults to the view's own (it is accepted to check the caller's table agrees).
    ``names`` (by seat) lets a table-family reason name whose meld a card goes onto; ``events``
    (the deal's events as this seat saw them) let the bot's card tracking read the deal so far.
    The bot is seeded from the view's seat and turn, so the same view gets the same hint (unless
    the deadline cuts its search short).
    """
    if rules is not None and rules != view.rules:
        raise ValueError("the rules given are not the rules of the view")
    seed = f"hint/{view.seat}/{view.turn}/{view.phase.step}"
    if view.rules.is_table:
        table = TableHard(seed, budget_ms=budget_ms)
        table.names = names
        for event in events:
            table.observe(event)
        action = table.choose(view, Deadline(budget_ms))
        return action, table.last_reason
    bot = HardPlayer(seed, budget_ms=budget_ms)
    for event in events:
        bot.observe(event)
    action = bot.choose(view, Deadline(budget_ms))
    return action, bot.last_reason
