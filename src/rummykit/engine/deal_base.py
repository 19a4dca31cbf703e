"""The turn machine both families share: :class:`Deal`, its verdicts and its limits.

:class:`Deal` is the machinery both families share: the seeded shoe and the
deal-out, seats and turn order, the stock and the open pile, rebuilding the
stock from the pile, turn counting and limits, the event log and views.  It
knows the actions every rummy has (draw from the stock, take the pile's top
card, throw).  The show family's deal (:class:`~rummykit.engine.show.ShowDeal`:
drop, show) and the table family's (:class:`~rummykit.engine.table_family.TableDeal`:
open, lay down, lay off, swap, put back) extend it; this module imports neither,
and :func:`rummykit.engine.deal.new_deal` makes the deal a table's rules name.

The engine is pure and deterministic: no I/O, no clock, no global state.  The
shoe is shuffled by ``random.Random(seed)`` and every later shuffle (a stock
rebuild) uses the same generator, so a seed and a list of actions give the same
deal on any machine.

A turn has two phases (:class:`~rummykit.engine.events.Phase`): ``DRAW``, then
the family's phase after the draw, ``THROW`` for the show family (throw or
show) and ``PLAY`` for the table family (meld, lay off, swap, then throw).

Every action kind has one rule in the family's dispatch table: a check that
answers the reason it is refused (``""`` when legal) and the plan it worked out,
and an apply that carries that plan out without judging again, so an action is
checked once however it comes (:meth:`Deal.apply`, or the named methods).  The
public face of each action is three methods: ``can_x(...)`` answers with a
:class:`Verdict` (truthy when legal, with the reason in players' words when
not), ``verify_x(...)`` raises :class:`IllegalAction` with that reason, and
``x(...)`` applies the action and returns its event; :meth:`Deal.can`,
:meth:`Deal.verify` and :meth:`Deal.apply` do the same for an
:class:`~rummykit.engine.events.Action`.  An illegal action changes nothing.
Actions are by seat index and name cards by *kind* (``card % 53``): the copies
of a card are indistinguishable to a player, so the state picks the physical
copy (the lowest physical id of that kind in the hand).

Settled readings of RULES.md (see also the families' modules):

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Self, overload

from rummykit.engine.cards import ACE, JOKER, KINDS, format_card, shoe
from rummykit.engine.events import (
    Action,
    ActionKind,
    DealEnded,
    DealResult,
    Dealt,
    DrewStock,
    Ending,
    Event,
    Phase,
    SeatStatus,
    StockRebuilt,
    TableMeld,
    Threw,
    TookPile,
)
from rummykit.engine.rules import Rules
from rummykit.engine.views import SeatView, SpectatorView, seat_view, spectator_view

__all__ = [
    "TURN_CAP",
    "ActionRule",
    "Deal",
    "IllegalAction",
    "Seed",
    "Verdict",
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


def verdict(reason: str) -> Verdict:
    """The verdict of a check's reason (``""``: legal)."""
    return _OK if not reason else Verdict(False, reason)


def refuse(reason: str) -> None:
    """Raise :class:`IllegalAction` when a check gave a reason."""
    if reason:
        raise IllegalAction(reason)


# An action kind's rule in a family's dispatch table: the check answers the reason the action
# is refused ("" when legal) and the plan it worked out (``None`` when there is nothing to
# carry over); the apply carries a legal action's plan out without judging it again.
Check = Callable[[Any, int, Action], tuple[str, Any]]
Apply = Callable[[Any, int, Any], Event]
ActionRule = tuple[Check, Apply]


def wild_rank(rules: Rules, cut: int | None) -> int | None:
    """The wild rank a cut card names: its rank; for a printed joker the ace or none by the rules."""
    if cut is None:
        return None
    k = cut % KINDS
    if k == JOKER:
        return ACE if rules.printed_joker_cut == "aces" else None
    return k % 13 + 1


def _sorted_kinds(cards: Sequence[int]) -> tuple[int, ...]:
    # Kinds are numbered suit by suit, rank by rank, the joker last: the plain order is sort_key's.
    return tuple(sorted([c % KINDS for c in cards]))


class Deal(ABC):
    """The turn machine both families share.  Make one with a family's class (or
    :func:`~rummykit.engine.deal.new_deal`)."""

    family: ClassVar[str]
    # The phase after the draw: THROW for the show family, PLAY for the table family.
    play_phase: ClassVar[Phase]
    # The family's actions, each by the name of its rule's two methods, ``_check_<name>(seat,
    # action)`` and ``_apply_<name>(seat, plan)``; a family adds its own.  The dispatch table
    # (:attr:`action_rules`) is made from them once per class, so a family's override of either
    # method is the rule.
    action_names: ClassVar[Mapping[ActionKind, str]] = {
        ActionKind.DRAW_STOCK: "draw_stock",
        ActionKind.DRAW_PILE: "draw_pile",
        ActionKind.THROW: "throw",
    }
    action_rules: ClassVar[Mapping[ActionKind, ActionRule]] = {}
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
        # The last action judged, with its answer: (log length, seat, action, reason, plan), so
        # that a check followed by the apply of the same action (the server's) judges it once.
        self._judged: tuple[int, int, Action, str, Any] | None = None
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

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.action_rules = {
            kind: (getattr(cls, f"_check_{name}"), getattr(cls, f"_apply_{name}"))
            for kind, name in cls.action_names.items()
        }

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
        return None if self._drawn is None or self.phase is not self.play_phase else self._drawn % KINDS

    @property
    def pile_take(self) -> int | None:
        """The kind the seat to play took from the pile this turn (public)."""
        return self._pile_take if self.phase is self.play_phase else None

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

    # ---- legal actions and dispatch (one check/apply rule per action kind) ------------------

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now (nothing unless it is the seat to play)."""
        if self.phase is Phase.OVER or seat != self._to_play:
            return []
        if self.phase is Phase.DRAW:
            return self._legal_draw(seat)
        return self._legal_play(seat)

    def _legal_draw(self, seat: int) -> list[Action]:
        out = []
        if self._stock:
            out.append(Action.draw_stock())
        if not self._why_not_draw_pile(seat):
            out.append(Action.draw_pile())
        return out

    def _legal_play(self, seat: int) -> list[Action]:
        # The seat and phase are right (legal_actions checked them); only the card rules remain.
        take = self._pile_take
        kinds = sorted({c % KINDS for c in self._hands[seat]})
        return [Action.throw(k) for k in kinds if k != take and not self._throw_refusal(seat, k)]

    def _judge(self, seat: int, action: Action) -> tuple[str, Any]:
        """The reason ``action`` is refused (``""`` if legal) and its plan, by the dispatch table."""
        key = len(self._events)
        last = self._judged
        # The same action object for the same seat, and nothing has happened since (every change
        # of a deal's state is an event): the answer stands.
        if (
            last is not None
            and last[2] is action
            and last[0] == key
            and type(seat) is int
            and last[1] == seat
        ):
            return last[3], last[4]
        kind = action.kind
        rule = self.action_rules.get(kind) if isinstance(kind, ActionKind) else None
        if rule is None:
            reason, plan = f"{kind} is not an action at this table", None
        else:
            reason, plan = rule[0](self, seat, action)
        self._judged = (key, seat, action, reason, plan)
        return reason, plan

    def _why_not(self, seat: int, action: Action) -> str:
        return self._judge(seat, action)[0]

    def can(self, seat: int, action: Action) -> Verdict:
        return verdict(self._judge(seat, action)[0])

    def verify(self, seat: int, action: Action) -> None:
        refuse(self._judge(seat, action)[0])

    def apply(self, seat: int, action: Action) -> Event:
        """Apply ``action`` for ``seat`` and return its event; IllegalAction changes nothing.

        The action is checked once: its rule's apply carries out the plan its check made.
        """
        reason, plan = self._judge(seat, action)
        refuse(reason)
        return self.action_rules[action.kind][1](self, seat, plan)

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
            return late if phase is Phase.DRAW else "draw first"
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
        return verdict(self._why_not_draw_stock(seat))

    def verify_draw_stock(self, seat: int) -> None:
        refuse(self._why_not_draw_stock(seat))

    def _check_draw_stock(self, seat: int, action: Action) -> tuple[str, None]:
        return self._why_not_draw_stock(seat), None

    def draw_stock(self, seat: int) -> DrewStock:
        """Take the stock's top card."""
        refuse(self._why_not_draw_stock(seat))
        return self._apply_draw_stock(seat, None)

    def _apply_draw_stock(self, seat: int, plan: None) -> DrewStock:
        card = self._stock.pop()
        self._hands[seat].append(card)
        self._has_drawn[seat] = True
        self._drawn = card
        self._pile_take = None
        self.phase = self.play_phase
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
        return verdict(self._why_not_draw_pile(seat))

    def verify_draw_pile(self, seat: int) -> None:
        refuse(self._why_not_draw_pile(seat))

    def _check_draw_pile(self, seat: int, action: Action) -> tuple[str, None]:
        return self._why_not_draw_pile(seat), None

    def draw_pile(self, seat: int) -> TookPile:
        """Take the open pile's top card, in view of the table."""
        refuse(self._why_not_draw_pile(seat))
        return self._apply_draw_pile(seat, None)

    def _apply_draw_pile(self, seat: int, plan: None) -> TookPile:
        card = self._pile.pop()
        k = card % KINDS
        self._hands[seat].append(card)
        self._has_drawn[seat] = True
        self._drawn = card
        self._pile_take = k
        self._took[seat].append(k)
        self.phase = self.play_phase
        event = TookPile(seq=len(self._events), seat=seat, card=k)
        self._emit(event)
        return event

    # ---- throw -----------------------------------------------------------------------------

    def _why_not_throw(self, seat: int, card: int | None) -> str:
        reason = self._why_not_turn(seat, self.play_phase) or self._why_not_card(seat, card)
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
        return verdict(self._why_not_throw(seat, card))

    def verify_throw(self, seat: int, card: int) -> None:
        refuse(self._why_not_throw(seat, card))

    def _check_throw(self, seat: int, action: Action) -> tuple[str, int | None]:
        return self._why_not_throw(seat, action.card), action.card

    def throw(self, seat: int, card: int) -> Threw:
        """Throw a card (a kind) onto the pile, ending the turn."""
        refuse(self._why_not_throw(seat, card))
        return self._apply_throw(seat, card)

    def _apply_throw(self, seat: int, card: int) -> Threw:
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

    def _count_turn(self, seat: int) -> None:
        """``seat``'s turn is over: count it, across the table and as the seat's own."""
        self._turns += 1
        self._turns_taken[seat] += 1
        self._drawn = None
        self._pile_take = None

    def _end_turn(self, seat: int) -> None:
        """Count the turn, then end the deal or pass the turn on (rebuilding the stock if need be)."""
        self._count_turn(seat)
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
