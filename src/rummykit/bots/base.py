"""The player contract, and the loop that seats players at a deal or a match.

A *player* is anything with a ``name`` and a :meth:`Player.choose` that turns
the :class:`~rummykit.engine.views.SeatView` of its seat into one of the
view's legal actions (or a show).  It never sees the deal itself: only the
view, and through :meth:`Player.observe` the events as its seat may see them
(:meth:`~rummykit.engine.events.Event.seen_by`).  Players are made by name
with a seed (:func:`rummykit.bots.make_player`); the same seed and the same
views give the same choices.

Later issues extend the contract (difficulty levels, time budgets); a player
that only needs to choose subclasses :class:`BasePlayer`, whose
:meth:`~BasePlayer.observe` does nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, runtime_checkable

from rummykit.engine.deal import Deal
from rummykit.engine.events import Action, DealResult, Event
from rummykit.engine.match import DealRow
from rummykit.engine.session import MatchSession
from rummykit.engine.views import SeatView

__all__ = [
    "BasePlayer",
    "BotError",
    "Player",
    "RejoinPolicy",
    "play_deal",
    "play_match",
    "rejoin_always",
]

Seed = int | str


class BotError(ValueError):
    """A bot that cannot be made (an unknown name), or a player that broke the contract."""


@runtime_checkable
class Player(Protocol):
    """One seat's decisions.  ``choose`` returns one of ``view.legal`` (or a show action)."""

    name: str

    def choose(self, view: SeatView) -> Action:
        """The action for the seat to play, from what that seat may see."""
        ...

    def observe(self, event: Event) -> None:
        """An event of the deal, as this seat may see it (the own seat's too)."""
        ...


class BasePlayer:
    """A player with a seeded generator (``self.rng``) and a no-op :meth:`observe`."""

    name: str = "base"

    def __init__(self, seed: Seed) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise BotError(f"a player's seed is an int or a str, not {seed!r}")  # None would read the clock
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        raise NotImplementedError

    def observe(self, event: Event) -> None:
        """Nothing: the baseline players read only their views."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def _observes(player: Player) -> bool:
    """Whether ``player`` does anything with events (the base class's observe does not)."""
    return getattr(type(player), "observe", None) is not BasePlayer.observe


def turns(deal: Deal, players: Sequence[Player]) -> Iterator[int]:
    """The seats to play, one a turn, until ``deal`` ends (the caller applies each seat's move
    before asking for the next).  ``players[s]`` plays deal seat ``s``; players that observe are
    told every event as their seat sees it (the deal-out included) before each turn."""
    if len(players) != deal.players:
        raise BotError(f"{deal.players} players needed, one per seat, not {len(players)}")
    watchers = [(s, p) for s, p in enumerate(players) if _observes(p)]
    seen = 0
    while True:
        if watchers:
            events = deal.events_since(seen)
            seen += len(events)
            for event in events:
                for s, p in watchers:
                    p.observe(event.seen_by(s))
        seat = deal.to_play
        if seat is None:
            return
        yield seat


def play_deal(deal: Deal, players: Sequence[Player]) -> DealResult:
    """Play ``deal`` out: ``players[s]`` plays deal seat ``s`` and sees only its views and events.

    Players that observe get every event as their seat sees it, the deal-out included.
    """
    choosers = [p.choose for p in players]
    apply, view = deal.apply, deal.view
    for seat in turns(deal, players):
        apply(seat, choosers[seat](view(seat)))
    assert deal.result is not None
    return deal.result


RejoinPolicy = Callable[[MatchSession, int], bool]


def rejoin_always(session: MatchSession, seat: int) -> bool:
    """The simulator's policy: a seat out of a pool rejoins whenever the rules allow it."""
    return True


def play_match(
    session: MatchSession,
    players: Sequence[Player],
    *,
    rejoin: RejoinPolicy | None = rejoin_always,
    max_deals: int = 10_000,
    on_deal: Callable[[Deal, DealRow], None] | None = None,
) -> list[DealRow]:
    """Play ``session``'s match to its end: ``players[s]`` plays match seat ``s``.

    Between deals every seat out of a pool that may rejoin is asked ``rejoin(session, seat)``
    (seats in order; ``None``: nobody rejoins).  ``on_deal(deal, row)`` is called as each deal
    goes on the sheet (``session.deal_seats`` are still that deal's).  ``max_deals`` bounds a
    pool that rejoins without limit; reaching it raises :class:`BotError`.
    """
    if len(players) != session.players:
        raise BotError(f"{session.players} players needed, one per seat, not {len(players)}")
    rows: list[DealRow] = []
    while not session.is_over:
        if len(rows) >= max_deals:
            raise BotError(f"the match is not over after {max_deals} deals")
        deal = session.start_deal()
        play_deal(deal, [players[s] for s in session.deal_seats])
        row = session.finish_deal()
        rows.append(row)
        if on_deal is not None:
            on_deal(deal, row)
        if rejoin is not None:
            for seat in range(session.players):
                if session.can_rejoin(seat) and rejoin(session, seat):
                    session.rejoin(seat)
    return rows
