"""What one seat, or a spectator, may know about a deal.

Views are the only thing bots, the terminal and the server's messages are made
from.  A :class:`SpectatorView` holds the public table: the pile, the cut card
and wild rank, every card thrown and every card taken from the pile, each
seat's card count and status, the stock count, whose turn and which phase.  A
:class:`SeatView` adds that seat's own hand, the card it drew this turn and
its legal actions.  Neither ever carries another seat's cards or the stock's
order.  Once the deal is over, ``result`` holds what the table turned face up:
the shown hand and every hand that was counted (never a dropped hand).

The table family adds the public melds on the table (``melds``), who has opened
(``opened``), and what the seat to play still owes this turn: the card it took
from the pile (``pile_due``) and jokers freed by a swap (``owed_jokers``).  The
show family leaves them empty.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import TYPE_CHECKING, Final

from rummykit.engine.events import Action, DealResult, Phase, SeatStatus, TableMeld
from rummykit.engine.rules import Rules

if TYPE_CHECKING:
    from rummykit.engine.deal_base import Deal

__all__ = ["SeatView", "SpectatorView", "seat_view", "spectator_view"]


@dataclass(frozen=True, slots=True)
class SpectatorView:
    """The public table."""

    rules: Rules
    players: int
    dealer: int
    phase: Phase
    to_play: int | None
    turn: int  # the turn in progress, counted across the table from 1 (the last one once over)
    turn_limit: int  # the turn that ends the deal if nothing else does
    cut: int | None  # the cut card's kind
    wild: int | None  # the wild rank, 1–13
    pile: tuple[int, ...]  # kinds, bottom to top
    pile_top: int | None
    pile_take: int | None  # what the seat to play took from the pile this turn
    stock_count: int
    rebuilds: int
    card_counts: tuple[int, ...]
    statuses: tuple[SeatStatus, ...]
    took: tuple[tuple[int, ...], ...]  # per seat, the kinds taken from the pile this deal
    thrown: tuple[tuple[int, ...], ...]  # per seat, the kinds thrown this deal
    result: DealResult | None  # once over: the charges and the hands turned face up
    # the table family (keyword-only, so the show family's positional fields stay as they were)
    melds: tuple[TableMeld, ...] = field(default=(), kw_only=True)  # on the table, by id
    opened: tuple[bool, ...] = field(default=(), kw_only=True)  # per seat
    pile_due: int | None = field(default=None, kw_only=True)  # the pile card still to meld
    owed_jokers: int = field(default=0, kw_only=True)  # freed jokers still to lay down
    # the match around the deal: every seat's total before it, by deal seat (() outside a match)
    match_totals: tuple[int, ...] = field(default=(), kw_only=True)


@dataclass(frozen=True, slots=True)
class SeatView(SpectatorView):
    """The public table plus what one seat holds and may do."""

    seat: int
    hand: tuple[int, ...]  # sorted kinds; () once the seat dropped or sat out
    drawn: int | None  # the kind this seat took this turn
    drop_cost: int | None  # what dropping costs now (None: not allowed)
    legal: tuple[Action, ...]

    @property
    def my_turn(self) -> bool:
        return self.to_play == self.seat


_Public = tuple[
    Rules,
    int,
    int,
    Phase,
    int | None,
    int,
    int,
    int | None,
    int | None,
    tuple[int, ...],
    int | None,
    int | None,
    int,
    int,
    tuple[int, ...],
    tuple[SeatStatus, ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, ...], ...],
    DealResult | None,
]


def _public(deal: Deal) -> _Public:
    """The public fields, in :class:`SpectatorView`'s order."""
    over = deal.phase is Phase.OVER
    return (
        deal.rules,
        deal.players,
        deal.dealer,
        deal.phase,
        deal.to_play,
        deal.turns if over else deal.turns + 1,
        deal.turn_limit,
        deal.cut,
        deal.wild,
        deal.pile,
        deal.pile_top,
        deal.pile_take,
        deal.stock_count,
        deal.rebuilds,
        deal.card_counts,
        deal.statuses,
        deal.took,
        deal.thrown,
        deal.result,
    )


def _table(deal: Deal) -> dict[str, object]:
    """The table family's public fields (empty for the show family)."""
    if not deal.rules.is_table:
        return {}
    return {
        "melds": deal.melds,
        "opened": deal.opened,
        "pile_due": deal.pile_due,
        "owed_jokers": deal.owed_jokers,
    }


def spectator_view(deal: Deal) -> SpectatorView:
    """The view of someone watching, who sees no hand at all."""
    return SpectatorView(*_public(deal), match_totals=deal.match_totals, **_table(deal))  # type: ignore[arg-type]


_POSITIONAL: Final = attrgetter(*(f.name for f in fields(SpectatorView) if not f.kw_only))


def _fields_of(view: SpectatorView) -> _Public:
    """A view's public fields, in :class:`SpectatorView`'s order."""
    fields_: _Public = _POSITIONAL(view)
    return fields_


def seat_view(deal: Deal, seat: int, *, public: SpectatorView | None = None) -> SeatView:
    """The view of ``seat``; ``public``: the deal's spectator view as it stands now, to build on
    (the deal passes its own, made once a state)."""
    if not 0 <= seat < deal.players:
        raise ValueError(f"no seat {seat} at this table (seats 0 to {deal.players - 1})")
    mine = deal.to_play == seat
    if public is None:
        public = spectator_view(deal)
    return SeatView(
        *_fields_of(public),
        seat=seat,
        hand=deal.hand(seat),
        drawn=deal.drawn if mine else None,
        drop_cost=deal.drop_cost(seat),
        legal=tuple(deal.legal_actions(seat)) if mine else (),
        melds=public.melds,
        opened=public.opened,
        pile_due=public.pile_due,
        owed_jokers=public.owed_jokers,
        match_totals=public.match_totals,
    )
