"""A hint for a human seat: what the ``hard`` bot would do now, and why, in one line.

For the terminal game and the web table:

>>> from rummykit.engine.deal import ShowDeal
>>> from rummykit.engine.rules import get_preset
>>> deal = ShowDeal(get_preset("nepali", players=2), seed=3)
>>> action, reason = hint(deal.view(deal.to_play))
>>> action in deal.view(deal.to_play).legal
True
"""

from __future__ import annotations

from rummykit.bots.contract import Deadline
from rummykit.bots.hard import HardPlayer
from rummykit.engine.events import Action
from rummykit.engine.rules import Rules
from rummykit.engine.views import SeatView

__all__ = ["HINT_BUDGET_MS", "hint"]

HINT_BUDGET_MS = 250.0


def hint(
    view: SeatView, rules: Rules | None = None, *, budget_ms: float = HINT_BUDGET_MS
) -> tuple[Action, str]:
    """The hard bot's action for ``view`` (the seat to play) and a one-line reason.

    ``rules`` defaults to the view's own (it is accepted to check the caller's table agrees).
    The bot is seeded from the view's seat and turn, so the same view gets the same hint (unless
    the deadline cuts its search short).
    """
    if rules is not None and rules != view.rules:
        raise ValueError("the rules given are not the rules of the view")
    bot = HardPlayer(f"hint/{view.seat}/{view.turn}/{view.phase}", budget_ms=budget_ms)
    action = bot.choose(view, Deadline(budget_ms))
    return action, bot.last_reason
