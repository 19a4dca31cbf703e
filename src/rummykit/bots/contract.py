"""The bot contract beyond :class:`~rummykit.bots.base.Player`: time budgets, deadlines, timed play.

Everything that seats a bot (the terminal, the web table, the simulator, the tournament, an
outside program) holds it to the same contract:

* it sees only its seat: each decision gets a :class:`~rummykit.engine.views.SeatView`, and
  :meth:`~rummykit.bots.base.Player.observe` gets every event as that seat may see it
  (:meth:`~rummykit.engine.events.Event.seen_by`); nothing else of the deal reaches it;
* it answers each decision (drop, draw from the stock or the pile, throw or show) within a
  time budget.  A *timed* player (:class:`TimedPlayer`) has a ``budget_ms`` attribute and a
  ``choose(view, deadline=None)`` that accepts a :class:`Deadline`; an anytime bot returns its
  best answer so far when the deadline passes.  :func:`decide` is the one place a seat is asked:
  it makes the deadline, times the answer, checks it is legal and, with ``strict``, refuses an
  answer that came later than the budget and its grace;
* its randomness comes from its seed only, so the same seed and the same views give the same
  answers (a search cut short by its deadline is the one exception: :func:`decide` reports it
  as ``late`` or the bot counts it in ``cutoffs``).

A plain :class:`~rummykit.bots.base.Player` (``choose(view)`` only) still sits at every table:
it is timed the same way but cannot be told its deadline.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol, runtime_checkable

from rummykit.bots.base import BotError, Player, turns
from rummykit.engine.deal import Deal
from rummykit.engine.events import Action, ActionKind, DealResult
from rummykit.engine.session import MatchSession
from rummykit.engine.views import SeatView

__all__ = [
    "DEFAULT_GRACE_MS",
    "Deadline",
    "Decision",
    "MatchContext",
    "TimedDeal",
    "TimedPlayer",
    "budget_of",
    "decide",
    "is_timed",
    "play_deal_timed",
]

DEFAULT_GRACE_MS: Final = 250.0  # how late an answer may be before strict play refuses it


class Deadline:
    """A point in time (``time.perf_counter``) by which an answer is due; ``None`` budget: never."""

    __slots__ = ("at", "budget_ms")

    def __init__(self, budget_ms: float | None, *, start: float | None = None) -> None:
        if budget_ms is not None and budget_ms < 0:
            raise ValueError(f"a budget is at least 0 ms, not {budget_ms}")
        self.budget_ms = budget_ms
        now = time.perf_counter() if start is None else start
        self.at: float | None = None if budget_ms is None else now + budget_ms / 1000.0

    def remaining_ms(self) -> float:
        """Milliseconds left (``inf`` with no budget, never below 0)."""
        if self.at is None:
            return float("inf")
        return max(0.0, (self.at - time.perf_counter()) * 1000.0)

    def expired(self) -> bool:
        return self.at is not None and time.perf_counter() >= self.at

    def __repr__(self) -> str:
        return f"Deadline(budget_ms={self.budget_ms!r}, remaining_ms={self.remaining_ms():.1f})"


@runtime_checkable
class TimedPlayer(Protocol):
    """A player that is told its deadline: ``budget_ms`` is the time it asks for per decision
    (``None``: it needs no budget), and ``choose`` returns by ``deadline``."""

    name: str
    budget_ms: float | None

    def choose(self, view: SeatView, deadline: Deadline | None = None) -> Action: ...

    def observe(self, event: object) -> None: ...


def is_timed(player: Player) -> bool:
    """Whether ``player`` takes a deadline (it has a ``budget_ms`` attribute)."""
    return hasattr(player, "budget_ms")


def budget_of(player: Player) -> float | None:
    """The player's own budget per decision in ms (``None``: none)."""
    budget = getattr(player, "budget_ms", None)
    return None if budget is None else float(budget)


@dataclass(frozen=True, slots=True)
class Decision:
    """One answer: the action, how long it took, and whether it came after the deadline."""

    action: Action
    ms: float
    late: bool


def decide(
    player: Player,
    view: SeatView,
    *,
    budget_ms: float | None = None,
    strict: bool = False,
    grace_ms: float = DEFAULT_GRACE_MS,
) -> Decision:
    """Ask ``player`` for its action on ``view`` and time it.

    ``budget_ms`` (default: the player's own ``budget_ms``) makes the deadline a timed player is
    given.  The answer must be one of ``view.legal`` (or a show, which the engine checks);
    anything else raises :class:`BotError`.  ``late`` is set when the answer came more than
    ``grace_ms`` after the deadline; with ``strict`` a late answer raises :class:`BotError`.
    """
    budget = budget_of(player) if budget_ms is None else budget_ms
    start = time.perf_counter()
    if is_timed(player):
        deadline = Deadline(budget, start=start)
        action = player.choose(view, deadline=deadline)  # type: ignore[call-arg]
    else:
        action = player.choose(view)
    ms = (time.perf_counter() - start) * 1000.0
    if not isinstance(action, Action):
        raise BotError(f"{player.name}: choose returned {action!r}, not an Action")
    if action not in view.legal and action.kind is not ActionKind.SHOW:
        raise BotError(f"{player.name}: {action} is not a legal action for seat {view.seat} now")
    late = budget is not None and ms > budget + grace_ms
    if late and strict:
        raise BotError(f"{player.name}: answered in {ms:.0f} ms, over its {budget:.0f} ms budget")
    return Decision(action, ms, late)


@dataclass(slots=True)
class TimedDeal:
    """A deal played by :func:`play_deal_timed`: its result and every decision's time, by seat."""

    result: DealResult
    ms: list[list[float]] = field(default_factory=list)
    late: list[int] = field(default_factory=list)


def play_deal_timed(
    deal: Deal,
    players: Sequence[Player],
    *,
    budget_ms: float | None = None,
    strict: bool = False,
    grace_ms: float = DEFAULT_GRACE_MS,
) -> TimedDeal:
    """Play ``deal`` out like :func:`~rummykit.bots.base.play_deal`, every decision through
    :func:`decide`: seat ``s`` sees only its views and, when it observes, its events."""
    n = deal.players
    timed = TimedDeal(deal.result, [[] for _ in range(n)], [0] * n)  # type: ignore[arg-type]
    for seat in turns(deal, players):
        d = decide(players[seat], deal.view(seat), budget_ms=budget_ms, strict=strict, grace_ms=grace_ms)
        timed.ms[seat].append(d.ms)
        timed.late[seat] += d.late
        deal.apply(seat, d.action)
    assert deal.result is not None
    timed.result = deal.result
    return timed


@dataclass(frozen=True, slots=True)
class MatchContext:
    """What a seat knows of the match around a deal (by *deal* seat): the totals before it,
    and the pool's limit (``None`` outside a pool).  A bot that drops by expected cost reads it
    to weigh going out of a pool (and compel)."""

    totals: tuple[int, ...]
    pool_out: int | None = None

    @classmethod
    def of(cls, session: MatchSession) -> MatchContext:
        """The context of ``session``'s current deal, by deal seat."""
        totals = tuple(session.totals[m] for m in session.deal_seats)
        pool_out = session.rules.pool_out if session.rules.format == "pool" else None
        return cls(totals, pool_out)

    def compelled(self, seat: int, drop_first: int | None) -> bool:
        """Whether ``seat`` is in compel: its total plus the first drop would reach the pool's limit."""
        if self.pool_out is None or drop_first is None:
            return False
        return self.totals[seat] + drop_first >= self.pool_out
