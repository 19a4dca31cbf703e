"""Playing a deal out with decision functions, and replaying one from its log.

A *chooser* is any function from a :class:`~rummykit.engine.views.SeatView`
to an :class:`~rummykit.engine.events.Action`; it sees only what its seat may
know.  The bots (a later issue) are choosers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from rummykit.engine.deal import new_deal
from rummykit.engine.deal_base import TURN_CAP, Deal
from rummykit.engine.events import Action, DealResult, Event
from rummykit.engine.rules import Rules
from rummykit.engine.views import SeatView

__all__ = ["Chooser", "moves_of", "play_out", "replay"]

Chooser = Callable[[SeatView], Action]


def play_out(deal: Deal, choose: Chooser | Sequence[Chooser]) -> DealResult:
    """Ask the seat to play for an action until the deal ends; one chooser for all, or one a seat.

    The engine's turn cap bounds the loop (each turn takes at most three actions).
    """
    choosers = [choose] * deal.players if callable(choose) else list(choose)
    while True:
        seat = deal.to_play
        if seat is None:
            break
        deal.apply(seat, choosers[seat](deal.view(seat)))
    assert deal.result is not None
    return deal.result


def moves_of(events: Iterable[Event]) -> list[tuple[int, Action]]:
    """The (seat, action) pairs that made a log, for :func:`replay`."""
    out = []
    for e in events:
        action = e.action
        if action is not None and e.seat is not None:
            out.append((e.seat, action))
    return out


def replay(
    rules: Rules,
    seed: int | str,
    moves: Iterable[tuple[int, Action]],
    *,
    dealer: int = 0,
    turn_cap: int = TURN_CAP,
) -> Deal:
    """The deal that ``seed`` and ``moves`` make, of the family the rules name (raises
    IllegalAction on a move that does not fit)."""
    deal = new_deal(rules, seed, dealer=dealer, turn_cap=turn_cap)
    for seat, action in moves:
        deal.apply(seat, action)
    return deal
