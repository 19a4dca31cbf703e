"""The deal engine: one turn machine for both families, and the show family's deal.

:class:`Deal` is the machinery both families share: the seeded shoe and the
deal-out, seats and turn order, the stock and the open pile, rebuilding the
stock from the pile, turn counting and limits, the event log and views.  It
knows the actions every rummy has (draw from the stock, take the pile's top
card, throw).  :class:`ShowDeal` adds the show family's (drop, show) and its
endings and charges; the table family (a later issue) extends :class:`Deal` the
same way.

The engine is pure and deterministic: no I/O, no clock, no global state.  The
shoe is shuffled by ``random.Random(seed)`` and every later shuffle (a stock
rebuild) uses the same generator, so a seed and a list of actions give the same
deal on any machine.

Every action comes as three methods: ``can_x(...)`` answers with a
:class:`Verdict` (truthy when legal, with the reason in players' words when
not), ``verify_x(...)`` raises :class:`IllegalAction` with that reason, and
``x(...)`` applies the action and returns its event.  An illegal action changes
nothing.  Actions are by seat index and name cards by *kind* (``card % 53``):
the copies of a card are indistinguishable to a player, so the state picks the
physical copy (the lowest physical id of that kind in the hand).

Settled readings of RULES.md (see also :class:`ShowDeal`):

* A turn ends with a throw, a drop or a wrong show, and each of them counts as
  one turn towards ``turn_limit`` (turns are counted across the table).
* The rule that a card taken from the pile cannot be thrown back applies to its
  kind (a second copy is indistinguishable) and to a show's finishing card.
* The stock is rebuilt when it is empty at the start of a turn, so the seat to
  play always has a stock to draw from.
* Where ``pile_at_deal`` is off (Remi 51, seed 001: "The rest of the cards are
  put aside") no card is turned up: the pile is empty until the first throw,
  and the card the shoe held for it lies under the stock, so a seed deals the
  same hands and the same stock order as with a pile card.
* Hard cap: a deal reaching ``turn_cap`` turns (default :data:`TURN_CAP`, 2000)
  ends the way the turn limit ends it (every hand in is shown as it stands, the
  lowest charge wins), with the ending ``cap``; a ``turn_limit`` above the cap is
  cut to the cap.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Self, overload

from rummykit.engine.arrange import Arranger
from rummykit.engine.cards import ACE, JOKER, KINDS, format_card, format_cards, shoe, sort_key
from rummykit.engine.early_show import halved, is_early_show
from rummykit.engine.events import (
    Action,
    ActionKind,
    DealEnded,
    DealResult,
    Dealt,
    DrewStock,
    Dropped,
    Ending,
    Event,
    Groups,
    Phase,
    SeatResult,
    SeatStatus,
    Showed,
    StockRebuilt,
    TableMeld,
    Threw,
    TookPile,
    WrongShow,
)
from rummykit.engine.groups import check_show
from rummykit.engine.rules import Rules
from rummykit.engine.views import SeatView, SpectatorView, seat_view, spectator_view

__all__ = [
    "TURN_CAP",
    "Action",
    "ActionKind",
    "Deal",
    "Ending",
    "IllegalAction",
    "Phase",
    "ShowDeal",
    "Verdict",
    "new_deal",
    "stacked_shoe",
    "wild_rank",
]

TURN_CAP: Final = 2000

Seed = int | str


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``reason`` is in players' words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether an action is legal now, and why not; truthy when it is."""

    ok: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.ok


_OK: Final = Verdict(True)


def _verdict(reason: str) -> Verdict:
    return _OK if not reason else Verdict(False, reason)


def _check(reason: str) -> None:
    if reason:
        raise IllegalAction(reason)


def wild_rank(rules: Rules, cut: int | None) -> int | None:
    """The wild rank a cut card names: its rank; for a printed joker the ace or none by the rules."""
    if cut is None:
        return None
    k = cut % KINDS
    if k == JOKER:
        return ACE if rules.printed_joker_cut == "aces" else None
    return k % 13 + 1


def _kinds(cards: Sequence[int]) -> list[int]:
    return [c % KINDS for c in cards]


def _sorted_kinds(cards: Sequence[int]) -> tuple[int, ...]:
    # Kinds are numbered suit by suit, rank by rank, the joker last: the plain order is sort_key's.
    return tuple(sorted([c % KINDS for c in cards]))


class Deal(ABC):
    """The turn machine both families share.  Make one with a family's class (or :func:`new_deal`)."""

    family: ClassVar[str]
    # The match totals before this deal, by deal seat (public: they are on the score sheet);
    # a match session sets them, so that a seat's view can weigh a pool's limit.
    match_totals: tuple[int, ...] = ()

    def __init__(
        self,
        rules: Rules,
        seed: Seed = 0,
        *,
        dealer: int = 0,
        order: Sequence[int] | None = None,
        turn_cap: int = TURN_CAP,
    ) -> None:
        if rules.family != self.family:
            raise ValueError(f"{type(self).__name__} plays the {self.family} family, not {rules.family}")
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise TypeError(f"a deal's seed is an int or a str, not {seed!r}")  # None would read the clock
        n = rules.players
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat, 0 to {n - 1}, not {dealer}")
        if turn_cap < 1:
            raise ValueError(f"turn_cap must be at least 1, not {turn_cap}")
        self.rules: Final = rules
        self.seed: Final = seed
        self.dealer: Final = dealer
        self.players: Final = n
        self._turn_cap = turn_cap
        self._stacked = order is not None  # dealt from a given order, not from the seed's shuffle
        self._rng = random.Random(seed)
        cards = shoe(rules.packs, rules.printed_jokers)
        if order is None:
            self._rng.shuffle(cards)
        else:
            if sorted(order) != sorted(cards):
                raise ValueError("a stacked shoe must hold every card of the shoe exactly once")
            cards = list(order)

        # Deal one card at a time starting left of the dealer; the first player's extra cards after.
        first = (dealer + 1) % n
        self._hands: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        for i in range(rules.hand_size * n):
            self._hands[(first + i) % n].append(cards[pos])
            pos += 1
        extra = rules.first_hand_size - rules.hand_size
        self._hands[first] += cards[pos : pos + extra]
        pos += extra
        # The top is the last card.  Without pile_at_deal (Remi 51) the pile starts empty, and the
        # card that would have been turned up goes under the stock: the seed deals the same hands
        # and the stock is drawn in the same order either way.
        self._pile: list[int] = []
        under = cards[pos]
        pos += 1
        if rules.pile_at_deal:
            self._pile.append(under)
        self._cut: int | None = None
        if rules.cut_joker:
            self._cut = cards[pos]
            pos += 1
        self._stock: list[int] = cards[pos:][::-1]  # the top is the last card, so drawing is a pop
        if not rules.pile_at_deal:
            self._stock.insert(0, under)
        self._out: list[int] = []  # cards out of play: dropped hands, wrong shows
        self.wild: Final = wild_rank(rules, self._cut)

        self.phase = Phase.DRAW
        self._to_play = first
        self._turns = 0
        self._turns_taken = [0] * n
        self._has_drawn = [False] * n  # taken a card this deal (decides the drop cost)
        self._drawn: int | None = None  # the physical card taken this turn
        self._pile_take: int | None = None  # the kind taken from the pile this turn
        self._status = [SeatStatus.IN] * n
        self._took: list[list[int]] = [[] for _ in range(n)]  # kinds each seat took from the pile
        self._thrown: list[list[int]] = [[] for _ in range(n)]  # kinds each seat threw (finishing cards too)
        self._rebuilds = 0
        self._events: list[Event] = []
        self.result: DealResult | None = None
        # The public view, made once an event: every change of a deal's state is an event.
        self._public_view: tuple[int, SpectatorView] | None = None

        limit = rules.turn_limit
        if limit is not None and limit <= turn_cap:
            self._limit, self._limit_ending = limit, Ending.TURN_LIMIT
        else:
            self._limit, self._limit_ending = turn_cap, Ending.CAP

        self._emit(
            Dealt(
                seq=0,
                seat=dealer,
                hands=tuple(_sorted_kinds(h) for h in self._hands),
                pile_top=self._pile[-1] % KINDS if self._pile else None,
                cut=None if self._cut is None else self._cut % KINDS,
                wild=self.wild,
                first=first,
                stock_count=len(self._stock),
            )
        )

    @classmethod
    def from_shoe(
        cls, rules: Rules, order: Sequence[int], *, dealer: int = 0, seed: Seed = 0, turn_cap: int = TURN_CAP
    ) -> Self:
        """A deal from a stacked shoe (physical cards, top first); ``seed`` drives later rebuilds."""
        return cls(rules, seed, dealer=dealer, order=order, turn_cap=turn_cap)

    # ---- reading the state ---------------------------------------------------------------

    @property
    def to_play(self) -> int | None:
        """The seat to play, ``None`` once the deal is over."""
        return None if self.phase is Phase.OVER else self._to_play

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def turns(self) -> int:
        """Completed turns across the table."""
        return self._turns

    @property
    def turn_limit(self) -> int:
        """The turn at which the deal ends if nothing else ends it (the rules' limit or the cap)."""
        return self._limit

    @property
    def turn_cap(self) -> int:
        """The engine's hard cap on turns this deal was made with (default :data:`TURN_CAP`)."""
        return self._turn_cap

    @property
    def stacked(self) -> bool:
        """Dealt from a stacked shoe (:meth:`from_shoe`), not from its seed: the seed alone does
        not deal these cards again."""
        return self._stacked

    @property
    def cut(self) -> int | None:
        """The cut card's kind (out of play, public), ``None`` without a cut joker."""
        return None if self._cut is None else self._cut % KINDS

    @property
    def pile(self) -> tuple[int, ...]:
        """The open pile's kinds, bottom to top (public)."""
        return tuple([c % KINDS for c in self._pile])

    @property
    def pile_top(self) -> int | None:
        return self._pile[-1] % KINDS if self._pile else None

    @property
    def stock_count(self) -> int:
        return len(self._stock)

    @property
    def rebuilds(self) -> int:
        return self._rebuilds

    @property
    def statuses(self) -> tuple[SeatStatus, ...]:
        return tuple(self._status)

    @property
    def card_counts(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self._hands)

    @property
    def took(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, the kinds it took from the pile this deal, in order (public)."""
        return tuple(tuple(t) for t in self._took)

    @property
    def thrown(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, the kinds it threw this deal, finishing cards included (public)."""
        return tuple(tuple(t) for t in self._thrown)

    @property
    def drawn(self) -> int | None:
        """The kind the seat to play took this turn (private when from the stock)."""
        return None if self._drawn is None or self.phase is not Phase.THROW else self._drawn % KINDS

    @property
    def pile_take(self) -> int | None:
        """The kind the seat to play took from the pile this turn (public)."""
        return self._pile_take if self.phase is Phase.THROW else None

    @property
    def events(self) -> tuple[Event, ...]:
        """The whole log, unredacted (use :meth:`Event.seen_by` before showing it to anyone)."""
        return tuple(self._events)

    def events_since(self, seq: int) -> tuple[Event, ...]:
        return tuple(self._events[seq:])

    def hand(self, seat: int) -> tuple[int, ...]:
        """Seat ``seat``'s cards as sorted kinds: the whole truth, not for other seats' eyes."""
        return _sorted_kinds(self._hands[seat])

    def in_play(self) -> tuple[int, ...]:
        """Seats still in the deal."""
        return tuple(s for s in range(self.players) if self._status[s] is SeatStatus.IN)

    def drop_cost(self, seat: int) -> int | None:
        """What dropping would cost ``seat`` now; ``None`` where a family or table has no dropping."""
        return None

    # The table family's public state (see TableDeal); empty for the show family.

    @property
    def melds(self) -> tuple[TableMeld, ...]:
        """The melds on the table, by id (table family)."""
        return ()

    @property
    def opened(self) -> tuple[bool, ...]:
        """Per seat, whether it has opened (table family)."""
        return ()

    @property
    def pile_due(self) -> int | None:
        """The kind taken from the pile this turn that must still go down (table family)."""
        return None

    @property
    def owed_jokers(self) -> int:
        """Jokers freed by swaps this turn that must still go down (table family)."""
        return 0

    def is_wild(self, k: int) -> bool:
        """A printed joker, or a card of the deal's wild rank."""
        return k == JOKER or (self.wild is not None and k % 13 + 1 == self.wild)

    @overload
    def view(self, seat: int) -> SeatView: ...
    @overload
    def view(self, seat: None) -> SpectatorView: ...
    @overload
    def view(self, seat: int | None) -> SeatView | SpectatorView: ...
    def view(self, seat: int | None) -> SeatView | SpectatorView:
        """What ``seat`` may know now (``None``: a spectator, who sees no hand at all)."""
        key = len(self._events)
        cached = self._public_view
        if cached is None or cached[0] != key:
            cached = self._public_view = (key, spectator_view(self))
        return cached[1] if seat is None else seat_view(self, seat, public=cached[1])

    def fingerprint(self) -> tuple[object, ...]:
        """Every piece of state, for tests that check an action changed nothing."""
        return (
            tuple(tuple(h) for h in self._hands),
            tuple(self._stock),
            tuple(self._pile),
            self._cut,
            tuple(self._out),
            self.phase,
            self._to_play,
            self._turns,
            tuple(self._turns_taken),
            tuple(self._has_drawn),
            self._drawn,
            self._pile_take,
            tuple(self._status),
            tuple(tuple(t) for t in self._took),
            tuple(tuple(t) for t in self._thrown),
            self._rebuilds,
            len(self._events),
            self.result,
            self._rng.getstate(),
        )

    # ---- legal actions and dispatch (one legal/apply pair per phase) -----------------------

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now (nothing unless it is the seat to play)."""
        if self.phase is Phase.OVER or seat != self._to_play:
            return []
        if self.phase is Phase.DRAW:
            return self._legal_draw(seat)
        return self._legal_throw(seat)

    def _legal_draw(self, seat: int) -> list[Action]:
        out = []
        if self._stock:
            out.append(Action.draw_stock())
        if not self._why_not_draw_pile(seat):
            out.append(Action.draw_pile())
        return out

    def _legal_throw(self, seat: int) -> list[Action]:
        # The seat and phase are right (legal_actions checked them); only the card rules remain.
        take = self._pile_take
        kinds = sorted({c % KINDS for c in self._hands[seat]})
        return [Action.throw(k) for k in kinds if k != take and not self._throw_refusal(seat, k)]

    def _why_not(self, seat: int, action: Action) -> str:
        kind, card = action.kind, action.card
        if kind is ActionKind.DRAW_STOCK:
            return self._why_not_draw_stock(seat)
        if kind is ActionKind.DRAW_PILE:
            return self._why_not_draw_pile(seat)
        if kind is ActionKind.THROW:
            return self._why_not_throw(seat, card)
        return f"{kind} is not an action at this table"

    def _apply(self, seat: int, action: Action) -> Event:
        kind = action.kind
        if kind is ActionKind.DRAW_STOCK:
            return self.draw_stock(seat)
        if kind is ActionKind.DRAW_PILE:
            return self.draw_pile(seat)
        if kind is ActionKind.THROW:
            assert action.card is not None  # checked by _why_not
            return self.throw(seat, action.card)
        raise IllegalAction(f"{kind} is not an action at this table")

    def can(self, seat: int, action: Action) -> Verdict:
        return _verdict(self._why_not(seat, action))

    def verify(self, seat: int, action: Action) -> None:
        _check(self._why_not(seat, action))

    def apply(self, seat: int, action: Action) -> Event:
        """Apply ``action`` for ``seat`` and return its event; IllegalAction changes nothing."""
        _check(self._why_not(seat, action))
        return self._apply(seat, action)

    # ---- shared checks ---------------------------------------------------------------------

    def _why_not_seat(self, seat: int) -> str:
        if self.phase is Phase.OVER:
            return "the deal is over"
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            return f"no seat {seat!r} at this table (seats 0 to {self.players - 1})"
        return ""

    def _why_not_turn(self, seat: int, phase: Phase, late: str = "you have already drawn") -> str:
        """The seat may act in ``phase`` now, or why not; ``late`` is the reason after drawing."""
        reason = self._why_not_seat(seat)
        if reason:
            return reason
        status = self._status[seat]
        if status is SeatStatus.DROPPED:
            return "you have dropped out of this deal"
        if status is SeatStatus.OUT:
            return "you are out of this deal after a wrong show"
        if seat != self._to_play:
            return f"not your turn: seat {self._to_play} is to play"
        if self.phase is not phase:
            return "draw first" if phase is Phase.THROW else late
        return ""

    def _why_not_card(self, seat: int, card: object) -> str:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < KINDS:
            return f"not a card: {card!r} (cards are named by kind, 0 to {KINDS - 1})"
        for c in self._hands[seat]:
            if c % KINDS == card:
                return ""
        return f"{format_card(card)} is not in your hand"

    def _take_from_hand(self, seat: int, k: int) -> int:
        """Remove the lowest physical copy of kind ``k`` from the hand (copies are indistinguishable)."""
        hand = self._hands[seat]
        best = min(c for c in hand if c % KINDS == k)
        hand.remove(best)
        return best

    # ---- draw from the stock ---------------------------------------------------------------

    def _why_not_draw_stock(self, seat: int) -> str:
        reason = self._why_not_turn(seat, Phase.DRAW)
        if not reason and not self._stock:
            reason = "the stock is empty"  # never at the start of a turn: it is rebuilt first
        return reason

    def can_draw_stock(self, seat: int) -> Verdict:
        return _verdict(self._why_not_draw_stock(seat))

    def verify_draw_stock(self, seat: int) -> None:
        _check(self._why_not_draw_stock(seat))

    def draw_stock(self, seat: int) -> DrewStock:
        """Take the stock's top card."""
        _check(self._why_not_draw_stock(seat))
        card = self._stock.pop()
        self._hands[seat].append(card)
        self._has_drawn[seat] = True
        self._drawn = card
        self._pile_take = None
        self.phase = Phase.THROW
        event = DrewStock(seq=len(self._events), seat=seat, card=card % KINDS)
        self._emit(event)
        return event

    # ---- take the pile's top card -----------------------------------------------------------

    def _why_not_draw_pile(self, seat: int) -> str:
        reason = self._why_not_turn(seat, Phase.DRAW)
        if reason:
            return reason
        if not self._pile:
            return "the pile is empty"
        if not self.rules.pick_joker_from_pile and self.is_wild(self._pile[-1] % KINDS):
            return "a joker on the pile cannot be taken at this table"
        return self._pile_refusal(seat)

    def _pile_refusal(self, seat: int) -> str:
        """A family's own reason to refuse the pile (the table family: before opening)."""
        return ""

    def can_draw_pile(self, seat: int) -> Verdict:
        return _verdict(self._why_not_draw_pile(seat))

    def verify_draw_pile(self, seat: int) -> None:
        _check(self._why_not_draw_pile(seat))

    def draw_pile(self, seat: int) -> TookPile:
        """Take the open pile's top card, in view of the table."""
        _check(self._why_not_draw_pile(seat))
        card = self._pile.pop()
        k = card % KINDS
        self._hands[seat].append(card)
        self._has_drawn[seat] = True
        self._drawn = card
        self._pile_take = k
        self._took[seat].append(k)
        self.phase = Phase.THROW
        event = TookPile(seq=len(self._events), seat=seat, card=k)
        self._emit(event)
        return event

    # ---- throw -----------------------------------------------------------------------------

    def _why_not_throw(self, seat: int, card: int | None) -> str:
        reason = self._why_not_turn(seat, Phase.THROW) or self._why_not_card(seat, card)
        if reason:
            return reason
        if card == self._pile_take:
            return "cannot throw back the card just taken from the pile"
        assert card is not None
        return self._throw_refusal(seat, card)

    def _throw_refusal(self, seat: int, card: int) -> str:
        """A family's own reason to refuse a throw (the table family: a pile card not yet melded)."""
        return ""

    def can_throw(self, seat: int, card: int) -> Verdict:
        return _verdict(self._why_not_throw(seat, card))

    def verify_throw(self, seat: int, card: int) -> None:
        _check(self._why_not_throw(seat, card))

    def throw(self, seat: int, card: int) -> Threw:
        """Throw a card (a kind) onto the pile, ending the turn."""
        _check(self._why_not_throw(seat, card))
        self._pile.append(self._take_from_hand(seat, card))
        self._thrown[seat].append(card)
        event = Threw(seq=len(self._events), seat=seat, card=card)
        self._emit(event)
        self._end_turn(seat)
        return event

    # ---- turns, the stock, the end -----------------------------------------------------------

    def _emit(self, event: Event) -> None:
        self._events.append(event)

    def _next_in(self, seat: int) -> int:
        """The next seat to the left still in the deal."""
        n = self.players
        s = (seat + 1) % n
        while self._status[s] is not SeatStatus.IN:
            s = (s + 1) % n
        return s

    def _play_order(self, start: int) -> list[int]:
        """Seats still in, in turn order from ``start``."""
        n = self.players
        return [s for s in ((start + i) % n for i in range(n)) if self._status[s] is SeatStatus.IN]

    def _end_turn(self, seat: int) -> None:
        """Count the turn, then end the deal or pass the turn on (rebuilding the stock if need be)."""
        self._turns += 1
        self._turns_taken[seat] += 1
        self._drawn = None
        self._pile_take = None
        in_play = self.in_play()
        if len(in_play) == 1:
            self._end_last_in(in_play[0])
            return
        nxt = self._next_in(seat)
        if self._turns >= self._limit:
            self._end_at_limit(self._limit_ending, nxt)
            return
        self._to_play = nxt
        self.phase = Phase.DRAW
        if not self._stock:
            allowed = self.rules.stock_rebuilds
            if allowed is not None and self._rebuilds >= allowed:
                self._end_at_limit(Ending.BLOCKED, nxt)
                return
            self._rebuild()

    def _rebuild(self) -> None:
        """Everything under the pile's top card, shuffled with the deal's generator, is the new stock."""
        under = self._pile[:-1]
        del self._pile[:-1]
        self._rng.shuffle(under)
        self._stock = under
        self._rebuilds += 1
        self._emit(StockRebuilt(seq=len(self._events), seat=None, count=len(under)))

    def _finish(self, result: DealResult) -> None:
        self.result = result
        self.phase = Phase.OVER
        self._drawn = None
        self._pile_take = None
        self._emit(DealEnded(seq=len(self._events), seat=None, result=result))

    @abstractmethod
    def _end_last_in(self, winner: int) -> None:
        """Every seat but ``winner`` has left the deal."""

    @abstractmethod
    def _end_at_limit(self, ending: Ending, next_seat: int) -> None:
        """The turn limit, the cap or a blocked stock ended the deal; ``next_seat`` would have played."""


@dataclass(frozen=True, slots=True)
class _ShowPlan:
    """A show that passed the action checks: whether it is valid, and its layout."""

    card: int
    rest: tuple[int, ...]  # the thirteen, sorted kinds
    declared: Groups | None
    valid: bool
    reason: str  # why it is no show ("" when valid)
    layout: Groups | None = None  # the table's layout, pinned by the action (not declared)


class ShowDeal(Deal):
    """A show-family deal (Nepali, Indian, Kerala and their variants).

    Adds dropping and showing to the shared turn machine, and settles the deal.
    Readings of RULES.md settled here:

    * A wrong show (tables with a penalty): the finishing card goes to the pile,
      the thirteen go out of play, the seat is charged the penalty and skipped
      for the rest of the deal.  A declaration whose groups are not the seat's
      thirteen cards is refused at every table: that is a slip, not a show.
    * :meth:`legal_actions` lists valid shows only; where a wrong show costs a
      penalty, any other finishing card is also accepted (and costs it), and
      ``legal_actions(seat, wrong_shows=True)`` lists those too.
    * Early show (``early_show_halves``): a show made while some other seat has
      not yet ended a turn of its own (a drop and a wrong show end one) halves,
      rounding down, every other seat's charge: hand counts, drop costs and
      wrong-show penalties alike (:mod:`rummykit.engine.early_show`, the rule the
      score sheet checks too).
    * The turn limit: every hand in is charged as it stands; the lowest charge
      wins (ties: the first in turn order from the seat that would have played
      next), is charged 0 and the others their own charge.
    """

    family = "show"

    def __init__(
        self,
        rules: Rules,
        seed: Seed = 0,
        *,
        dealer: int = 0,
        order: Sequence[int] | None = None,
        turn_cap: int = TURN_CAP,
        arranger: Arranger | None = None,
    ) -> None:
        if arranger is not None and arranger.rules != rules:
            raise ValueError("the arranger was built for other rules")
        # An arranger builds its tables once; pass one in to share it between deals.
        self.arranger: Final = arranger if arranger is not None else Arranger(rules)
        self._charged: list[int] = [0] * rules.players  # drop costs and wrong-show penalties
        self._wrong: dict[int, WrongShow] = {}
        self._finish_cache: tuple[int, list[int]] | None = None  # (log length, finishing kinds)
        super().__init__(rules, seed, dealer=dealer, order=order, turn_cap=turn_cap)

    # ---- legal actions -----------------------------------------------------------------------

    def legal_actions(self, seat: int, *, wrong_shows: bool = False) -> list[Action]:
        """What ``seat`` may do now; with ``wrong_shows`` also the shows that would fail and cost
        the penalty (only where ``wrong_show`` is a penalty)."""
        actions = super().legal_actions(seat)
        if wrong_shows and self.phase is Phase.THROW and actions and self.rules.wrong_show is not None:
            finishing = set(self._finishing(seat))
            actions += [
                Action.show(a.card)
                for a in actions
                if a.kind is ActionKind.THROW and a.card is not None and a.card not in finishing
            ]
        return actions

    def _legal_draw(self, seat: int) -> list[Action]:
        out = super()._legal_draw(seat)
        if self.rules.drop_first is not None:
            out.insert(0, Action.drop())
        return out

    def _legal_throw(self, seat: int) -> list[Action]:
        shows = [Action.show(k) for k in self._finishing(seat) if k != self._pile_take]
        return shows + super()._legal_throw(seat)

    def _finishing(self, seat: int) -> list[int]:
        """The kinds whose throw leaves the seat a show (cached until the state changes)."""
        key = len(self._events)
        cache = self._finish_cache
        if cache is not None and cache[0] == key:
            return cache[1]
        kinds = _kinds(self._hands[seat])
        finishing = self.arranger.finishing(kinds, self.wild) if self._may_show(kinds) else []
        self._finish_cache = (key, finishing)
        return finishing

    def _may_show(self, kinds: Sequence[int]) -> bool:
        """A quick necessary condition for a show among ``kinds``: a pure run's three naturals.

        Every show needs a pure run, so a hand without three consecutive natural cards of one
        suit (or, with thennaali, three of the very same card) has no finishing card; this
        spares the exact search on most turns.
        """
        masks = [0, 0, 0, 0]
        for k in kinds:
            if k != JOKER:
                masks[k // 13] |= 2 << (k % 13)  # bit r for rank r (1-13)
        rules = self.rules
        for m in masks:
            if rules.wrap:
                m |= m << 13  # the low ranks again above the king: Q-K-A, K-A-2
            elif rules.ace_high and m & 2:
                m |= 1 << 14  # the ace above the king
            if m & (m >> 1) & (m >> 2):
                return True
        if rules.thennaali:
            return any(n >= 3 for k, n in Counter(kinds).items() if k != JOKER)
        return False

    def finishing_cards(self, seat: int) -> list[int]:
        """For the seat to play after drawing: the kinds it may show with (the card just taken
        from the pile excluded)."""
        if self.phase is not Phase.THROW or seat != self._to_play:
            return []
        return [k for k in self._finishing(seat) if k != self._pile_take]

    def drop_cost(self, seat: int) -> int | None:
        """What dropping would cost ``seat`` now (``None`` where dropping is not allowed)."""
        if self.rules.drop_first is None:
            return None
        return self.rules.drop_middle if self._has_drawn[seat] else self.rules.drop_first

    def _why_not(self, seat: int, action: Action) -> str:
        if action.kind is ActionKind.DROP:
            return self._why_not_drop(seat)
        if action.kind is ActionKind.SHOW:
            return self._judge_show(seat, action.card, action.groups, action.layout)[0]
        return super()._why_not(seat, action)

    def _apply(self, seat: int, action: Action) -> Event:
        if action.kind is ActionKind.DROP:
            return self.drop(seat)
        if action.kind is ActionKind.SHOW:
            assert action.card is not None  # checked by _why_not
            return self.show(seat, action.card, action.groups, layout=action.layout)
        return super()._apply(seat, action)

    # ---- drop ----------------------------------------------------------------------------------

    def _why_not_drop(self, seat: int) -> str:
        reason = self._why_not_seat(seat)
        if reason:
            return reason
        if self.rules.drop_first is None:
            return "dropping is not allowed at this table"
        return self._why_not_turn(seat, Phase.DRAW, late="too late to drop: you have already drawn")

    def can_drop(self, seat: int) -> Verdict:
        return _verdict(self._why_not_drop(seat))

    def verify_drop(self, seat: int) -> None:
        _check(self._why_not_drop(seat))

    def drop(self, seat: int) -> Dropped:
        """Leave the deal before drawing, for the drop cost; the hand is never shown."""
        _check(self._why_not_drop(seat))
        cost = self.drop_cost(seat)
        assert cost is not None
        first = not self._has_drawn[seat]
        self._status[seat] = SeatStatus.DROPPED
        self._charged[seat] = cost
        self._out += self._hands[seat]
        self._hands[seat] = []
        event = Dropped(seq=len(self._events), seat=seat, cost=cost, first=first)
        self._emit(event)
        self._end_turn(seat)
        return event

    # ---- show ----------------------------------------------------------------------------------

    def _judge_show(
        self,
        seat: int,
        card: int | None,
        groups: Sequence[Sequence[int]] | None,
        layout: Sequence[Sequence[int]] | None = None,
    ) -> tuple[str, _ShowPlan | None]:
        """Why the show cannot be made (``""`` if it can), and the plan to make it."""
        reason = self._why_not_turn(seat, Phase.THROW) or self._why_not_card(seat, card)
        if reason:
            return reason, None
        assert card is not None
        if card == self._pile_take:
            return "cannot throw back the card just taken from the pile, not even to show", None
        rest_list = _kinds(self._hands[seat])
        rest_list.remove(card)
        rest = tuple(sorted(rest_list, key=sort_key))
        declared: Groups | None = None
        if layout is not None:
            # The table's layout of a show, pinned (a replay): it must be a show as it stands.
            if groups is not None:
                return "a show is declared by the seat or laid out by the table, not both", None
            pinned, why = _declaration(layout, rest)
            if why:
                return why, None
            check = check_show(pinned, self.rules, self.wild)
            if not check.ok:
                return f"that layout is not a show: {check.reason}", None
            return "", _ShowPlan(card, rest, None, True, "", pinned)
        if groups is None:
            valid = self.arranger.can_show(rest, self.wild)
            why = "" if valid else _needs_reason(self.arranger.arrange(rest, self.wild).needs)
        else:
            declared, why = _declaration(groups, rest)
            if why:
                return why, None
            check = check_show(declared, self.rules, self.wild)
            valid, why = check.ok, check.reason
        if not valid and self.rules.wrong_show is None:
            return f"that is not a show: {why}", None
        return "", _ShowPlan(card, rest, declared, valid, why)

    def check_declaration(
        self, seat: int, card: int, groups: Sequence[Sequence[int]] | None = None
    ) -> Verdict:
        """Whether showing with ``card`` (and ``groups``) would be a valid show, at any table.

        Unlike :meth:`can_show`, a show that would only cost the wrong-show penalty is not ok here.
        """
        reason, plan = self._judge_show(seat, card, groups)
        if plan is not None and not plan.valid:
            reason = f"that is not a show: {plan.reason}"
        return _verdict(reason)

    def can_show(self, seat: int, card: int, groups: Sequence[Sequence[int]] | None = None) -> Verdict:
        """Whether the show is accepted: a valid show, or where a wrong show costs a penalty any
        well-formed one (see :meth:`check_declaration`)."""
        return _verdict(self._judge_show(seat, card, groups)[0])

    def verify_show(self, seat: int, card: int, groups: Sequence[Sequence[int]] | None = None) -> None:
        _check(self._judge_show(seat, card, groups)[0])

    def show(
        self,
        seat: int,
        card: int,
        groups: Sequence[Sequence[int]] | None = None,
        *,
        layout: Sequence[Sequence[int]] | None = None,
    ) -> Showed | WrongShow:
        """Put ``card`` down as the finishing card and lay out the other thirteen.

        ``groups`` (kinds) is checked as declared; ``None`` lets the arranger lay the hand out.
        ``layout`` pins the table's layout instead of asking the arranger (a replay's show, see
        ``Action.layout``): it must be a valid show, and the show is not a declared one.
        A valid show ends the deal; a wrong show is refused or costs the penalty (by the rules).
        """
        reason, plan = self._judge_show(seat, card, groups, layout)
        _check(reason)
        assert plan is not None
        # Early show is judged before this turn counts: has every other seat had a turn?
        halve = self.rules.early_show_halves and is_early_show(self._turns_taken, seat)
        self._pile.append(self._take_from_hand(seat, card))
        self._thrown[seat].append(card)
        seq = len(self._events)
        if plan.valid:
            laid_out = plan.declared if plan.declared is not None else plan.layout
            if laid_out is None:
                laid_out = tuple(g.cards for g in self.arranger.arrange(plan.rest, self.wild).groups)
            showed = Showed(seq=seq, seat=seat, card=card, groups=laid_out, declared=plan.declared)
            self._emit(showed)
            self._turns += 1
            self._turns_taken[seat] += 1
            self._settle_show(seat, showed, halve)
            return showed
        penalty = self.rules.wrong_show
        assert penalty is not None
        laid: Groups
        loose: tuple[int, ...]
        if plan.declared is not None:
            laid, loose = plan.declared, ()
        else:
            a = self.arranger.arrange(plan.rest, self.wild)
            laid, loose = tuple(g.cards for g in a.groups), a.loose
        wrong = WrongShow(
            seq=seq,
            seat=seat,
            card=card,
            groups=laid,
            loose=loose,
            declared=plan.declared,
            reason=plan.reason,
            penalty=penalty,
        )
        self._status[seat] = SeatStatus.OUT
        self._charged[seat] = penalty
        self._wrong[seat] = wrong
        self._out += self._hands[seat]
        self._hands[seat] = []
        self._emit(wrong)
        self._end_turn(seat)
        return wrong

    # ---- endings and charges ---------------------------------------------------------------------

    def _left_result(self, seat: int, halve: bool = False) -> SeatResult:
        """The result of a seat that dropped or sat out after a wrong show (its cost halved,
        rounding down, after an early show)."""
        status = self._status[seat]
        cost = self._charged[seat]
        charge, unhalved = (halved(cost), cost) if halve else (cost, None)
        wrong = self._wrong.get(seat)
        if wrong is None:
            return SeatResult(seat, status, False, charge, None, (), (), (), unhalved)
        hand = tuple(sorted([*(k for g in wrong.groups for k in g), *wrong.loose], key=sort_key))
        return SeatResult(seat, status, False, charge, None, hand, wrong.groups, wrong.loose, unhalved)

    def _counted(self, seat: int, halve: bool = False) -> SeatResult:
        """A hand still in, shown as it stands and charged its best arrangement (halved, rounding
        down, after an early show)."""
        kinds = self.hand(seat)
        a = self.arranger.arrange(kinds, self.wild)
        charge, unhalved = (halved(a.charge), a.charge) if halve else (a.charge, None)
        groups = tuple(g.cards for g in a.groups)
        return SeatResult(seat, SeatStatus.IN, False, charge, a.charge, kinds, groups, a.loose, unhalved)

    def _settle_show(self, winner: int, showed: Showed, halve: bool) -> None:
        seats = []
        for s in range(self.players):
            if s == winner:
                seats.append(SeatResult(s, SeatStatus.IN, True, 0, 0, self.hand(s), showed.groups, ()))
            elif self._status[s] is SeatStatus.IN:
                seats.append(self._counted(s, halve))
            else:
                seats.append(self._left_result(s, halve))
        self._finish(
            DealResult(winner, Ending.SHOW, tuple(seats), self.dealer, self._turns, halve, showed.card)
        )

    def _end_last_in(self, winner: int) -> None:
        seats = tuple(
            SeatResult(s, SeatStatus.IN, True, 0, None, (), (), ()) if s == winner else self._left_result(s)
            for s in range(self.players)
        )
        self._finish(DealResult(winner, Ending.LAST_IN, seats, self.dealer, self._turns, False, None))

    def _end_at_limit(self, ending: Ending, next_seat: int) -> None:
        order = self._play_order(next_seat)
        counted = {s: self._counted(s) for s in order}
        # min() keeps the first of equal charges, and order starts at the seat that would play next
        winner = min(order, key=lambda s: counted[s].hand_charge or 0)
        seats = []
        for s in range(self.players):
            if s == winner:
                r = counted[s]
                seats.append(SeatResult(s, r.status, True, 0, r.hand_charge, r.hand, r.groups, r.loose))
            elif s in counted:
                seats.append(counted[s])
            else:
                seats.append(self._left_result(s))
        self._finish(DealResult(winner, ending, tuple(seats), self.dealer, self._turns, False, None))


def _declaration(groups: Sequence[Sequence[int]], rest: tuple[int, ...]) -> tuple[Groups, str]:
    """The declared groups as tuples, and why they are not exactly the thirteen (``""`` if they are)."""
    declared: list[tuple[int, ...]] = []
    for g in groups:
        if isinstance(g, str | bytes) or not isinstance(g, Sequence):
            return (), f"a group is a list of cards, not {g!r}"
        for k in g:
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < KINDS:
                return (), f"not a card: {k!r} (cards are named by kind, 0 to {KINDS - 1})"
        declared.append(tuple(g))
    have = Counter(rest)
    laid = Counter(k for g in declared for k in g)
    extra = sorted((laid - have).elements(), key=sort_key)
    missing = sorted((have - laid).elements(), key=sort_key)
    if extra:
        return (
            (),
            f"the groups hold {format_cards(extra)}, not among the cards you show",
        )
    if missing:
        return (), f"the groups leave out {format_cards(missing)}: a show lays out all {len(rest)} cards"
    return tuple(declared), ""


def _needs_reason(needs: Sequence[str]) -> str:
    """The arranger's list of what a show still needs, as the reason a show is refused."""
    words = []
    for need in needs:
        if need == "a pure run":
            words.append("no pure run")
        elif need.endswith("loose card") or need.endswith("loose cards"):
            n = need.split()[0]
            words.append(f"{n} card{'' if n == '1' else 's'} in no group")
        elif need == "its jokers placed":
            words.append("jokers left out of the groups")
        else:
            words.append(f"needs {need}")
    return "; ".join(words) or "the cards are not in groups"


def new_deal(
    rules: Rules,
    seed: Seed = 0,
    *,
    dealer: int = 0,
    turn_cap: int = TURN_CAP,
    arranger: Arranger | None = None,
) -> Deal:
    """A deal of the family the rules name; ``arranger`` is shared with a show-family deal (the
    table family has none)."""
    if rules.is_show:
        return ShowDeal(rules, seed, dealer=dealer, turn_cap=turn_cap, arranger=arranger)
    from rummykit.engine.table_deal import TableDeal  # here: table_deal imports this module

    return TableDeal(rules, seed, dealer=dealer, turn_cap=turn_cap)


def stacked_shoe(
    rules: Rules,
    hands: Sequence[Sequence[int]],
    pile: int | None,
    cut: int | None = None,
    stock: Sequence[int] = (),
    *,
    dealer: int = 0,
) -> list[int]:
    """A shoe order (physical cards, top first) that deals ``hands`` (kinds, by seat), turns
    ``pile`` up (``None`` where the rules turn no card up at the deal), cuts ``cut`` and leaves
    ``stock`` (kinds, top first) on top of the stock; the rest of the stock follows in the
    shoe's own order (without a pile card, its last card lies in the pile card's place of the
    shoe, which the deal puts under the stock).  For tests and worked examples."""
    n = rules.players
    if len(hands) != n:
        raise ValueError(f"{n} hands needed, one per seat")
    if (pile is None) == rules.pile_at_deal:
        raise ValueError("a pile card is needed exactly when the rules turn one up at the deal")
    if (cut is None) == rules.cut_joker:
        raise ValueError("a cut card is needed exactly when the rules cut a joker")
    first = (dealer + 1) % n
    for s, h in enumerate(hands):
        want = rules.first_hand_size if s == first else rules.hand_size
        if len(h) != want:
            raise ValueError(f"seat {s} needs {want} cards, not {len(h)}")
    free: dict[int, list[int]] = {}
    for c in shoe(rules.packs, rules.printed_jokers):
        free.setdefault(c % KINDS, []).append(c)

    def take(k: int) -> int:
        copies = free.get(k)
        if not copies:
            raise ValueError(f"the shoe holds no more {format_card(k)}")
        return copies.pop(0)

    order = [take(hands[(first + i) % n][i // n]) for i in range(rules.hand_size * n)]
    order += [take(k) for k in hands[first][rules.hand_size :]]
    slot = len(order)  # the pile card's place
    if pile is not None:
        order.append(take(pile))
    if cut is not None:
        order.append(take(cut))
    order += [take(k) for k in stock]
    rest = sorted(c for copies in free.values() for c in copies)
    if pile is None:
        order.insert(slot, (rest or order).pop())  # the deal puts it under the stock: its bottom card
    return order + rest
