"""The vocabulary of a deal: phases, actions, events and results.

The event log is the single history of a deal: views, replays, storage and
the server's messages are all built from it.  Every event is a frozen value
with a sequence number (``seq``, its index in the log), the seat that acted
(``seat``, ``None`` for the table's own events), a one-line text form for
hand histories (:meth:`Event.text`) and a visibility: :meth:`Event.seen_by`
gives the event as one seat (or a spectator, ``None``) may see it.  Only two
events hide anything: :class:`Dealt` (each seat sees its own hand) and
:class:`DrewStock` (only the drawer sees the card).

Cards in actions and events are card *kinds* (``card % 53``, see
:mod:`rummykit.engine.cards`): the two copies of a card are
indistinguishable to a player, so the state picks the physical copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

from rummykit.engine.cards import KINDS, format_card, format_cards

__all__ = [
    "Action",
    "ActionKind",
    "DealEnded",
    "DealResult",
    "Dealt",
    "DrewStock",
    "Dropped",
    "Ending",
    "Event",
    "LaidDown",
    "LaidOff",
    "Opened",
    "Phase",
    "PutBack",
    "SeatResult",
    "SeatStatus",
    "Showed",
    "StockRebuilt",
    "Swapped",
    "TableMeld",
    "Threw",
    "TookPile",
    "WrongShow",
]

Groups = tuple[tuple[int, ...], ...]


class Phase(StrEnum):
    """Which actions the seat to play may take."""

    DRAW = "draw"  # take a card from the stock or the pile; the show family may also drop
    THROW = "throw"  # the show family after the draw: throw a card, or show
    PLAY = "play"  # the table family after the draw: open, lay down, lay off, swap, put back; a throw ends it
    OVER = "over"  # the deal has ended

    @property
    def step(self) -> str:
        """The phase as the wire (protocol 2), ``replay --json`` and hint seeds spell it: the
        step after the draw is ``throw`` in both families there, as it was before ``PLAY``."""
        return "throw" if self is Phase.PLAY else self.value


class ActionKind(StrEnum):
    DROP = "drop"
    DRAW_STOCK = "draw stock"
    DRAW_PILE = "draw pile"
    THROW = "throw"
    SHOW = "show"
    # the table family (Rummy 40, Remi 51)
    OPEN = "open"
    LAY_DOWN = "lay down"
    LAY_OFF = "lay off"
    SWAP = "swap"
    PUT_BACK = "put back"


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a seat may do; ``card`` is a card kind (throw, and the show's finishing card).

    ``groups`` is a show's declaration (kinds); ``None`` lets the arranger lay the hand out.
    ``layout`` is a show the seat left to the table, pinned to the layout the table gave it
    (replays use it, so that a show does not depend on how the arranger breaks ties); it must
    be a valid show of the thirteen, and the show still counts as not declared.
    The table family: ``groups`` are an opening's melds, ``cards`` a new meld or the cards
    laid off, ``meld`` the id of the meld on the table laid off onto or swapped from, and
    ``card`` the natural card a swap puts in the joker's place.
    """

    kind: ActionKind
    card: int | None = None
    groups: Groups | None = None
    meld: int | None = None
    cards: tuple[int, ...] | None = None
    layout: Groups | None = None

    @staticmethod
    def drop() -> Action:
        return _DROP

    @staticmethod
    def draw_stock() -> Action:
        return _DRAW_STOCK

    @staticmethod
    def draw_pile() -> Action:
        return _DRAW_PILE

    @staticmethod
    def throw(card: int) -> Action:
        if type(card) is int and 0 <= card < KINDS:
            return _THROWS[card]  # made once: bots ask for these every turn
        return Action(ActionKind.THROW, card)

    @staticmethod
    def show(
        card: int,
        groups: Sequence[Sequence[int]] | None = None,
        *,
        layout: Sequence[Sequence[int]] | None = None,
    ) -> Action:
        if groups is None and layout is None and type(card) is int and 0 <= card < KINDS:
            return _SHOWS[card]
        return Action(
            ActionKind.SHOW,
            card,
            None if groups is None else tuple(tuple(g) for g in groups),
            layout=None if layout is None else tuple(tuple(g) for g in layout),
        )

    @staticmethod
    def open(melds: Sequence[Sequence[int]]) -> Action:
        """Open with these melds, all in one action (table family)."""
        return Action(ActionKind.OPEN, groups=tuple(tuple(m) for m in melds))

    @staticmethod
    def lay_down(cards: Sequence[int]) -> Action:
        """Lay a new meld down, after opening (table family)."""
        return Action(ActionKind.LAY_DOWN, cards=tuple(cards))

    @staticmethod
    def lay_off(meld: int, cards: Sequence[int]) -> Action:
        """Add cards to meld ``meld`` on the table, yours or a rival's (table family)."""
        return Action(ActionKind.LAY_OFF, meld=meld, cards=tuple(cards))

    @staticmethod
    def swap(meld: int, card: int) -> Action:
        """Put ``card`` in the place of a joker of meld ``meld``; the joker comes to the hand."""
        return Action(ActionKind.SWAP, card=card, meld=meld)

    @staticmethod
    def put_back() -> Action:
        """Return the card just taken from the pile, before anything else (table family)."""
        return _PUT_BACK

    def __str__(self) -> str:
        """The action in the notation of :mod:`rummykit.engine.notation` (a history's line)."""
        try:
            return action_text(self)
        except ValueError:  # an action missing its card: say what it is anyway
            return f"{self.kind} (no card)"


_DROP = Action(ActionKind.DROP)
_DRAW_STOCK = Action(ActionKind.DRAW_STOCK)
_DRAW_PILE = Action(ActionKind.DRAW_PILE)
_THROWS = tuple(Action(ActionKind.THROW, k) for k in range(KINDS))
_SHOWS = tuple(Action(ActionKind.SHOW, k) for k in range(KINDS))
_PUT_BACK = Action(ActionKind.PUT_BACK)


def _groups_text(groups: Groups) -> str:
    return " | ".join(format_cards(g) for g in groups)


DECLARED: Final = " [declared]"  # a show's groups as the seat declared them (not the table's layout)


def action_text(action: Action) -> str:
    """The action as a hand history writes it after the seat: ``throw Kc``, ``lay off 2 4h``.

    A show is ``show CARD`` when the table lays the hand out, ``show CARD: GROUP | ...`` pinned
    to that layout, and ``show CARD: GROUP | ... [declared]`` as the seat declared it."""
    kind = action.kind
    if kind is ActionKind.THROW:
        return f"throw {_card_out(action.card)}"
    if kind is ActionKind.SHOW:
        text = f"show {_card_out(action.card)}"
        if action.groups is not None:
            return f"{text}: {_groups_text(action.groups)}{DECLARED}"
        if action.layout is not None:
            return f"{text}: {_groups_text(action.layout)}"
        return text
    if kind is ActionKind.OPEN:
        return f"open {_groups_text(action.groups or ())}"
    if kind is ActionKind.LAY_DOWN:
        return f"lay down {format_cards(action.cards or ())}"
    if kind is ActionKind.LAY_OFF:
        return f"lay off {action.meld} {format_cards(action.cards or ())}"
    if kind is ActionKind.SWAP:
        return f"swap {action.meld} {_card_out(action.card)}"
    return str(kind)  # draw stock, draw pile, drop, put back


def _card_out(k: int | None) -> str:
    if k is None:
        raise ValueError("this action has no card")
    return format_card(k)


class Ending(StrEnum):
    """How a deal ended."""

    SHOW = "show"  # a valid show
    LAST_IN = "last in"  # every other seat dropped or sat out after a wrong show
    TURN_LIMIT = "turn limit"  # the rules' turn_limit (Nepali 250): every hand shown as it stands
    CAP = "cap"  # the engine's hard cap on turns, ended the same way as the turn limit
    BLOCKED = "blocked"  # the stock ran out with no rebuild left (stock_rebuilds), ended the same way
    OUT = "out"  # table family: a seat went out (emptied its hand)


class SeatStatus(StrEnum):
    """Where a seat stands in the deal."""

    IN = "in"
    DROPPED = "dropped"
    OUT = "out"  # sat out after a wrong show


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's part of a deal's result.

    ``charge`` is what the deal charges the seat (the winner 0; the hand's count,
    the drop cost, the wrong-show penalty; halved after an early show, see
    :mod:`rummykit.engine.early_show`).  ``hand_charge`` is the charge of the hand
    as laid out at the end, before halving (the winner at a turn limit has one
    too), ``None`` when the hand was not counted.  ``unhalved`` is what the seat
    would have been charged had the show not been early (``None`` when nothing was
    halved).  ``hand``/``groups``/``loose`` are the cards made public at the end:
    ``()`` for a hand never shown (a drop, the winner who was last in).
    """

    seat: int
    status: SeatStatus
    won: bool
    charge: int
    hand_charge: int | None
    hand: tuple[int, ...]
    groups: Groups
    loose: tuple[int, ...]
    unhalved: int | None = None

    @property
    def dropped(self) -> bool:
        return self.status is SeatStatus.DROPPED

    @property
    def wrong_show(self) -> bool:
        return self.status is SeatStatus.OUT


@dataclass(frozen=True, slots=True)
class DealResult:
    """The settlement-neutral outcome of one deal, for the match formats to score."""

    winner: int
    ending: Ending
    seats: tuple[SeatResult, ...]
    dealer: int
    turns: int  # completed turns across the table (drops and wrong shows count)
    halved: bool  # an early show halved every other seat's charge
    finish_card: int | None  # the winner's finishing card, for a show (table family: the last throw)
    doubled: bool = False  # table family: Hand Rummy, or Remi's -40 (closing on a joker, handling)

    @property
    def charges(self) -> tuple[int, ...]:
        return tuple(s.charge for s in self.seats)

    @property
    def collected(self) -> int:
        """Everything the other seats were charged (what the winner collects under settlement)."""
        return sum(s.charge for s in self.seats if not s.won)

    @property
    def dropped(self) -> tuple[bool, ...]:
        return tuple(s.dropped for s in self.seats)

    @property
    def wrong_shows(self) -> tuple[bool, ...]:
        return tuple(s.wrong_show for s in self.seats)


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table (table family), public: its id (1, 2, … in the order laid down), the
    seat that laid it down, ``run`` or ``set``, its cards in order (runs low to high, jokers in
    their slots) and the natural card each plays as."""

    id: int
    owner: int
    kind: str
    cards: tuple[int, ...]
    stands_for: tuple[int, ...]

    @property
    def jokers(self) -> int:
        return sum(1 for k in self.cards if k % KINDS == 52)

    def text(self) -> str:
        return format_cards(self.cards)


# ---------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """One entry of a deal's log."""

    seq: int
    seat: int | None

    @property
    def public(self) -> bool:
        """True when every viewer sees the whole event."""
        return True

    def seen_by(self, viewer: int | None) -> Event:
        """The event as seat ``viewer`` (``None``: a spectator) may see it."""
        return self

    @property
    def action(self) -> Action | None:
        """The action that made this event, for replays; ``None`` for the table's own events."""
        return None

    def text(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True, kw_only=True)
class Dealt(Event):
    """The deal is out: ``seat`` is the dealer; ``hands[s]`` is ``None`` where hidden;
    ``pile_top`` is the card turned up, ``None`` where the rules turn none up (Remi 51)."""

    hands: tuple[tuple[int, ...] | None, ...]
    pile_top: int | None
    cut: int | None
    wild: int | None
    first: int
    stock_count: int

    @property
    def public(self) -> bool:
        return all(h is None for h in self.hands)

    def seen_by(self, viewer: int | None) -> Dealt:
        hands = tuple(h if s == viewer else None for s, h in enumerate(self.hands))
        return self if hands == self.hands else replace(self, hands=hands)

    def text(self) -> str:
        pile = "" if self.pile_top is None else f" pile {format_card(self.pile_top)}"
        cut = "" if self.cut is None else f" cut {format_card(self.cut)}"
        return f"{self.seat} deal{pile}{cut}"


@dataclass(frozen=True, slots=True, kw_only=True)
class DrewStock(Event):
    """``seat`` drew the stock's top card; ``card`` is ``None`` for everyone else."""

    seat: int
    card: int | None

    @property
    def public(self) -> bool:
        return self.card is None

    def seen_by(self, viewer: int | None) -> DrewStock:
        if viewer == self.seat or self.card is None:
            return self
        return DrewStock(seq=self.seq, seat=self.seat, card=None)  # (asked for every viewer: no replace())

    @property
    def action(self) -> Action:
        return Action.draw_stock()

    def text(self) -> str:
        return f"{self.seat} draw stock"


@dataclass(frozen=True, slots=True, kw_only=True)
class TookPile(Event):
    seat: int
    card: int

    @property
    def action(self) -> Action:
        return Action.draw_pile()

    def text(self) -> str:
        return f"{self.seat} take {format_card(self.card)}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Threw(Event):
    seat: int
    card: int

    @property
    def action(self) -> Action:
        return Action.throw(self.card)

    def text(self) -> str:
        return f"{self.seat} throw {format_card(self.card)}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Dropped(Event):
    """``seat`` dropped out for ``cost``; ``first`` when before it had taken a card this deal."""

    seat: int
    cost: int
    first: bool

    @property
    def action(self) -> Action:
        return Action.drop()

    def text(self) -> str:
        return f"{self.seat} drop {self.cost}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Showed(Event):
    """A valid show: ``card`` went down as the finishing card, ``groups`` are the thirteen laid out.

    ``declared`` is the declaration as the seat gave it (``None``: the arranger laid it out).
    """

    seat: int
    card: int
    groups: Groups
    declared: Groups | None

    @property
    def action(self) -> Action:
        """The show as made: the declaration, or the table's layout pinned (see ``Action.layout``)."""
        if self.declared is not None:
            return Action.show(self.card, self.declared)
        return Action.show(self.card, layout=self.groups)

    def text(self) -> str:
        return f"{self.seat} show {format_card(self.card)}: {_groups_text(self.groups)}"


@dataclass(frozen=True, slots=True, kw_only=True)
class WrongShow(Event):
    """A show that failed (tables with a wrong-show penalty): the seat pays ``penalty`` and sits out.

    The thirteen were laid out in public: ``groups`` and ``loose`` as declared (or as the
    arranger laid them out when ``declared`` is ``None``); ``reason`` says why it is no show.
    """

    seat: int
    card: int
    groups: Groups
    loose: tuple[int, ...]
    declared: Groups | None
    reason: str
    penalty: int

    @property
    def action(self) -> Action:
        return Action.show(self.card, self.declared)

    def text(self) -> str:
        return f"{self.seat} wrong show {format_card(self.card)}: {self.reason}"


@dataclass(frozen=True, slots=True, kw_only=True)
class StockRebuilt(Event):
    """Everything under the pile's top card became the new stock (its order stays hidden)."""

    count: int

    def text(self) -> str:
        return f"stock rebuilt: {self.count} cards"


@dataclass(frozen=True, slots=True, kw_only=True)
class DealEnded(Event):
    """The deal is over; the result makes the shown hands public."""

    result: DealResult

    def text(self) -> str:
        r = self.result
        return f"{r.winner} wins ({r.ending}): {' '.join(str(c) for c in r.charges)}"


# ---------------------------------------------------------------------------- table family


@dataclass(frozen=True, slots=True, kw_only=True)
class Opened(Event):
    """``seat`` opened: ``melds`` went down together, worth ``points`` (``waived``: short of the
    threshold, allowed because the opening left 0 or 1 cards)."""

    seat: int
    melds: tuple[TableMeld, ...]
    points: int
    waived: bool = False

    @property
    def action(self) -> Action:
        return Action.open([m.cards for m in self.melds])

    def text(self) -> str:
        return f"{self.seat} open {_groups_text(tuple(m.cards for m in self.melds))} ({self.points})"


@dataclass(frozen=True, slots=True, kw_only=True)
class LaidDown(Event):
    """``seat`` laid a new meld down after opening."""

    seat: int
    meld: TableMeld

    @property
    def action(self) -> Action:
        return Action.lay_down(self.meld.cards)

    def text(self) -> str:
        return f"{self.seat} lay down {self.meld.text()}"


@dataclass(frozen=True, slots=True, kw_only=True)
class LaidOff(Event):
    """``seat`` laid ``cards`` off onto meld ``meld_id``; ``meld`` is that meld now."""

    seat: int
    meld_id: int
    cards: tuple[int, ...]
    meld: TableMeld

    @property
    def action(self) -> Action:
        return Action.lay_off(self.meld_id, self.cards)

    def text(self) -> str:
        return f"{self.seat} lay off {self.meld_id} {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Swapped(Event):
    """``seat`` put ``card`` in a joker's slot of meld ``meld_id`` and took the joker."""

    seat: int
    meld_id: int
    card: int
    meld: TableMeld

    @property
    def action(self) -> Action:
        return Action.swap(self.meld_id, self.card)

    def text(self) -> str:
        return f"{self.seat} swap {self.meld_id} {format_card(self.card)}"


@dataclass(frozen=True, slots=True, kw_only=True)
class PutBack(Event):
    """``seat`` returned ``card``, just taken from the pile, to the pile's top."""

    seat: int
    card: int

    @property
    def action(self) -> Action:
        return Action.put_back()

    def text(self) -> str:
        return f"{self.seat} put back"
