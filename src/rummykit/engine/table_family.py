"""The table family's deal: Rummy 40 (seed 003) and Remi 51 (seed 001).

:class:`TableDeal` fills in the shared turn machine of :class:`~rummykit.engine.deal_base.Deal`
(seeded shoe, dealing with ``first_hand_size``, turn order, stock and pile, rebuilds and the
``stock_rebuilds`` limit, turn counting, the log, views) with what melds on the table add:
opening, laying down, laying off, swapping a joker, putting the pile card back, going out, and
the two ways of scoring a deal.

A turn: draw (the stock, or the pile's top card), then the play phase (``Phase.PLAY``: open;
after opening lay down new melds, lay off onto any meld on the table, swap jokers out), which a
throw ends.  Every action comes as ``can_x`` / ``verify_x`` / ``x`` and through
:meth:`~rummykit.engine.deal_base.Deal.apply`, by one check/apply rule per kind; an illegal
action changes nothing.  The meld geometry is :mod:`rummykit.engine.melds`, the searches
(best opening, cheapest leftover, can the turn still end) :mod:`rummykit.engine.table_arranger`.

:meth:`legal_actions` cannot list every meld a hand could make.  In the play phase it lists
the simple actions (put back, every throw allowed) and a bounded set of sensible meld actions:
the best opening when the hand has one, the new melds and lay-offs of the hand's cheapest
leftover, every single card that fits a meld on the table, every joker swap, and the next step
of a way to put down what the turn still owes.  A player may submit any other valid meld
action: ``can`` and ``apply`` judge it on its own.

Readings of RULES.md and the seeds settled here:

* The first player of Remi 51, dealt 15, skips the draw of its first turn: wherever
  ``first_hand_size`` exceeds ``hand_size`` the deal starts in the play phase.  Remi turns no
  card up at the deal (``pile_at_deal``): that first throw starts the pile.
* "The first round" (Remi: ``opening_first_round=false``) is each seat's own first turn.
* The opening threshold is waived for an opening that leaves 0 or 1 cards where the last
  card need not be thrown (Rummy 40); Remi 51 names no waiver, and its opening must leave a
  card to throw.
* A card taken from the pile must go down (melded or laid off) before the turn can end, at
  both tables (Remi's seed takes the pile card "if that card suits to you"); before opening it
  must be in the opening.  Copies are indistinguishable, so any card of that kind put down
  meets the obligation; after that another copy may be thrown.  *Put back* returns the card
  before anything else is done, and the seat then draws from the stock.
* Rummy 40 (``freed_joker_must_go_down``): a joker freed by a swap must go down again that
  turn; the turn cannot end (no throw) while the seat owes it.  Jokers are indistinguishable:
  any joker put down pays the debt.  Remi 51: the freed joker is the seat's, like any card in
  its hand, to meld now or later, to throw or to keep (seed 001: "use that Joker to create (and
  maybe discard) a new Tercet").
* An action that would leave the turn unable to end (the pile card or a freed joker could no
  longer go down, or, in Remi, no card left to throw) is refused, so a seat always has a
  legal action.
* Where a seat's hand is empty after a meld (Rummy 40), the deal ends at once.  In Remi the
  last card must be thrown: an action leaving no card is refused.
* A laid-down meld keeps its jokers' slots: a run given in order keeps that order; a joker
  laid off alone goes to a run's high end where it can, else the low end; a set's jokers stand
  for the suits it lacks.
* Hand Rummy (Rummy 40): the seat went out in the turn in which it opened; every rival's count
  is doubled.  Remi *handling*: the seat opened and went out in one turn without putting a
  card on a rival's meld (seed 001: "we must not add one of our cards to another player's
  exposed group"): −40 and the others count double, as when it closes on a joker.
* The stock is rebuilt from the pile at the start of a turn; with ``stock_rebuilds`` used up,
  or with no card under the pile's top to rebuild from, the deal is blocked.  Blocked (and
  the engine's turn cap): the lightest hand wins (ties: the seat that would have played next).
  Rummy 40: each other seat is charged what its hand outweighs the lightest (the winner's
  score is their sum).  Remi 51: the winner scores −20 and every other seat counts its hand.
* Scoring (``DealResult``): Rummy 40 (``format=target``): the winner is charged 0 and every
  rival its leftover (ace 11, joker 20), doubled for Hand Rummy, so the winner scores the sum.
  Remi 51 (``format=penalty``): the winner is charged −20, or −40 when closing on a joker or
  by handling, every other seat its hand (joker 20), doubled after a −40.  ``hand_charge`` is
  the plain count; ``doubled`` marks a doubled deal; ``finish_card`` is the last throw (None
  when a Rummy 40 hand went out by a meld).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from rummykit.engine.cards import JOKER, KINDS, format_card, format_cards
from rummykit.engine.deal_base import TURN_CAP, Deal, Seed, Verdict, refuse, verdict
from rummykit.engine.events import (
    Action,
    ActionKind,
    DealResult,
    Ending,
    LaidDown,
    LaidOff,
    Opened,
    Phase,
    PutBack,
    SeatResult,
    SeatStatus,
    Swapped,
    TableMeld,
    Threw,
    TookPile,
)
from rummykit.engine.groups import card_value, opening_value
from rummykit.engine.melds import Placed, extend_meld, may_extend, place_meld, swap_slot
from rummykit.engine.rules import Rules
from rummykit.engine.table_arranger import best_leftover, best_opening, finish_plan

__all__ = ["ENDING_MARKS", "REMI_CLOSE", "REMI_JOKER_CLOSE", "SHEET_LEGENDS", "TableDeal", "ending_note"]

REMI_CLOSE: Final = -20
REMI_JOKER_CLOSE: Final = -40

# The score sheet of this family: the winner's cell says how the deal ended when it was not a
# plain going out (the terminal and the web table mark it the same way), by the match format.
ENDING_MARKS: Final = {"Hand Rummy": "HR", "closed on a joker": "×2", "handling": "×2", "blocked": "B"}
SHEET_LEGENDS: Final = {
    "target": "W winner · HR Hand Rummy, every rival's count doubled · B blocked deal, the lightest hand won",
    "penalty": "W winner · ×2 closed on a joker or by handling: -40, the others count double"
    " · B blocked deal, the lightest hand won",
}


def ending_note(rules: Rules, result: DealResult) -> str | None:
    """How a table-family deal ended when it was not a plain going out: ``Hand Rummy``,
    ``closed on a joker``, ``handling`` or ``blocked`` (a key of :data:`ENDING_MARKS`)."""
    if result.ending is Ending.BLOCKED:
        return "blocked"
    if result.ending is not Ending.OUT:
        return str(result.ending)
    if not result.doubled:
        return None
    if rules.format != "penalty":
        return "Hand Rummy"
    return "closed on a joker" if result.finish_card == JOKER else "handling"


# An opening that passed its checks: the melds as they will lie, their points, and whether the
# threshold was waived.
_OpenPlan = tuple[list[Placed], int, bool]


def _as_cards(obj: object) -> tuple[tuple[int, ...] | None, str]:
    """``obj`` as a tuple of card kinds, or why it is not one."""
    if isinstance(obj, str | bytes) or not isinstance(obj, Sequence):
        return None, f"a meld is a list of cards, not {obj!r}"
    for k in obj:
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < KINDS:
            return None, f"not a card: {k!r} (cards are named by kind, 0 to {KINDS - 1})"
    return tuple(obj), ""


class TableDeal(Deal):
    """A table-family deal (Rummy 40, Remi 51).  See the module's docstring for the rules read."""

    family = "table"
    play_phase = Phase.PLAY
    action_names: ClassVar[Mapping[ActionKind, str]] = {
        **Deal.action_names,
        ActionKind.OPEN: "open",
        ActionKind.LAY_DOWN: "lay_down",
        ActionKind.LAY_OFF: "lay_off",
        ActionKind.SWAP: "swap",
        ActionKind.PUT_BACK: "put_back",
    }

    def __init__(
        self,
        rules: Rules,
        seed: Seed = 0,
        *,
        dealer: int = 0,
        order: Sequence[int] | None = None,
        turn_cap: int = TURN_CAP,
    ) -> None:
        n = rules.players
        self._table: list[TableMeld] = []
        self._table_cards: list[list[int]] = []  # the physical cards of each meld, in slot order
        self._next_id = 1
        self._opened_at: list[int | None] = [None] * n  # the table turn in which each seat opened
        # what the turn in progress owes and has done
        self._pile_due: int | None = None  # the kind taken from the pile, not yet put down
        self._owed = 0  # jokers freed by swaps, not yet put down
        self._played = False  # something was put down or swapped this turn (no put back after)
        self._put_back = False  # the seat put the pile card back: the stock only now
        self._rival_touch = False  # a card went onto a rival's meld this turn (Remi's handling)
        self._legal_cache: tuple[int, int, list[Action]] | None = None
        super().__init__(rules, seed, dealer=dealer, order=order, turn_cap=turn_cap)
        if rules.first_hand_size > rules.hand_size:
            self.phase = Phase.PLAY  # Remi: the first player's fifteenth card stands for the draw

    # ---- reading the state -----------------------------------------------------------------

    @property
    def melds(self) -> tuple[TableMeld, ...]:
        return tuple(self._table)

    @property
    def opened(self) -> tuple[bool, ...]:
        return tuple(t is not None for t in self._opened_at)

    @property
    def pile_due(self) -> int | None:
        return self._pile_due if self.phase is Phase.PLAY else None

    @property
    def owed_jokers(self) -> int:
        return self._owed if self.phase is Phase.PLAY else 0

    def meld(self, meld_id: int) -> TableMeld | None:
        """The meld with this id on the table, or ``None``."""
        i = self._meld_index(meld_id)
        return None if i is None else self._table[i]

    def hand_count(self, seat: int) -> int:
        """What ``seat``'s hand counts as it stands (2–10 face, J Q K 10, ace and joker by the rules)."""
        return sum(card_value(c % KINDS, self.rules, None) for c in self._hands[seat])

    def fingerprint(self) -> tuple[object, ...]:
        return (
            *super().fingerprint(),
            tuple(self._table),
            tuple(tuple(c) for c in self._table_cards),
            self._next_id,
            tuple(self._opened_at),
            self._pile_due,
            self._owed,
            self._played,
            self._put_back,
            self._rival_touch,
        )

    def _meld_index(self, meld_id: object) -> int | None:
        if isinstance(meld_id, bool) or not isinstance(meld_id, int):
            return None
        for i, m in enumerate(self._table):
            if m.id == meld_id:
                return i
        return None

    def _is_open(self, seat: int) -> bool:
        return self._opened_at[seat] is not None

    def _min_left(self) -> int:
        return 1 if self.rules.last_card_discard else 0

    # ---- legal actions ------------------------------------------------------------------------

    def _legal_play(self, seat: int) -> list[Action]:
        key = (seat, len(self._events))
        cache = self._legal_cache
        if cache is not None and cache[:2] == key:
            return list(cache[2])
        hand = self.hand(seat)
        kinds = sorted(set(hand))
        candidates: list[Action] = []
        if not self._played and self._pile_take is not None:
            candidates.append(Action.put_back())
        if not self._is_open(seat):
            if self.rules.opening_first_round or self._turns_taken[seat] > 0:
                best = best_opening(hand, self.rules, must_include=self._pile_due)
                if best is not None:
                    candidates.append(Action.open(best.melds))
        else:
            if self._pile_due is not None or self._owed:
                plan = finish_plan(
                    hand,
                    self._table,
                    self.rules,
                    due=self._pile_due,
                    jokers_owed=self._owed,
                    min_left=self._min_left(),
                )
                if plan:
                    target, cards = plan[0]
                    candidates.append(
                        Action.lay_down(cards) if target is None else Action.lay_off(target, cards)
                    )
            left = best_leftover(hand, self._table, self.rules)
            candidates += [Action.lay_down(m) for m in left.melds]
            candidates += [Action.lay_off(i, c) for i, c in left.layoffs]
            for m in self._table:
                for k in kinds:
                    if may_extend(m, k) and extend_meld(m, (k,), self.rules)[0] is not None:
                        candidates.append(Action.lay_off(m.id, (k,)))
                if m.jokers:
                    for k in kinds:
                        if k != JOKER and swap_slot(m, k)[0] is not None:
                            candidates.append(Action.swap(m.id, k))
        out: list[Action] = []
        seen: set[Action] = set()
        for a in candidates:
            if a not in seen and not self._why_not(seat, a):
                seen.add(a)
                out.append(a)
        if self._pile_due is None and not self._owed:
            out += [Action.throw(k) for k in kinds]
        self._legal_cache = (seat, len(self._events), out)
        return list(out)

    # ---- drawing and throwing -----------------------------------------------------------------

    def _why_not_draw_stock(self, seat: int) -> str:
        return self._skips_draw(seat) or super()._why_not_draw_stock(seat)

    def _why_not_draw_pile(self, seat: int) -> str:
        return self._skips_draw(seat) or super()._why_not_draw_pile(seat)

    def _skips_draw(self, seat: int) -> str:
        if (
            self._turns == 0
            and self.phase is Phase.PLAY
            and seat == self._to_play
            and not self._has_drawn[seat]
        ):
            return "the first player skips the draw on the first turn: play and throw"
        return ""

    def _pile_refusal(self, seat: int) -> str:
        if self._put_back:
            return "you put that card back: draw from the stock"
        if not self.rules.pile_before_opening and not self._is_open(seat):
            return "the pile is yours to take only after opening"
        return ""

    def _apply_draw_pile(self, seat: int, plan: None) -> TookPile:
        """Take the pile's top card: it must go down this turn (before opening: in the opening)."""
        event = super()._apply_draw_pile(seat, plan)
        self._pile_due = event.card
        return event

    def _why_not_throw(self, seat: int, card: int | None) -> str:
        reason = self._why_not_turn(seat, Phase.PLAY) or self._why_not_card(seat, card)
        if reason:
            return reason
        if self._pile_due is not None:
            return "use the card you took from the pile before throwing"
        if self._owed:
            return "you must lay the freed joker down this turn"
        return ""

    # ---- put back -------------------------------------------------------------------------

    def _why_not_put_back(self, seat: int) -> str:
        reason = self._why_not_turn(seat, Phase.PLAY)
        if reason:
            return reason
        if self._pile_take is None:
            return "there is no card taken from the pile to put back"
        if self._played:
            return "too late to put the card back: you have already played this turn"
        return ""

    def can_put_back(self, seat: int) -> Verdict:
        return verdict(self._why_not_put_back(seat))

    def verify_put_back(self, seat: int) -> None:
        refuse(self._why_not_put_back(seat))

    def _check_put_back(self, seat: int, action: Action) -> tuple[str, None]:
        return self._why_not_put_back(seat), None

    def put_back(self, seat: int) -> PutBack:
        """Return the card just taken from the pile to its top; the seat then draws from the stock."""
        refuse(self._why_not_put_back(seat))
        return self._apply_put_back(seat, None)

    def _apply_put_back(self, seat: int, plan: None) -> PutBack:
        card = self._drawn
        assert card is not None and card in self._hands[seat]
        self._hands[seat].remove(card)
        self._pile.append(card)
        self._took[seat].pop()
        self._drawn = None
        self._pile_take = None
        self._pile_due = None
        self._put_back = True
        self.phase = Phase.DRAW
        event = PutBack(seq=len(self._events), seat=seat, card=card % KINDS)
        self._emit(event)
        return event

    # ---- shared checks for putting cards down -------------------------------------------------

    def _why_not_play(self, seat: int, *, must_be_open: bool = True) -> str:
        reason = self._why_not_turn(seat, Phase.PLAY)
        if reason:
            return reason
        if must_be_open and not self._is_open(seat):
            return "not before you have opened"
        return ""

    def _missing(self, seat: int, kinds: Sequence[int]) -> list[int]:
        """The cards of ``kinds`` the seat does not hold (as many times as they are missing)."""
        short = Counter(kinds) - Counter(c % KINDS for c in self._hands[seat])
        return sorted(short.elements())

    def _owes_after(self, placed: Sequence[int], freed: int = 0) -> tuple[int | None, int]:
        """What the turn owes after ``placed`` kinds go down and ``freed`` jokers come to hand."""
        due = self._pile_due
        jokers = sum(1 for k in placed if k == JOKER)
        if due is not None:
            if due == JOKER:
                if jokers:
                    due, jokers = None, jokers - 1
            elif due in placed:
                due = None
        return due, max(0, self._owed + freed - jokers)

    def _why_stuck(
        self,
        seat: int,
        removed: Sequence[int],
        added: Sequence[int],
        table: Sequence[TableMeld],
        freed: int = 0,
    ) -> str:
        """Why the turn could not end after this play (``""`` if it still can)."""
        hand = Counter(c % KINDS for c in self._hands[seat])
        hand.subtract(removed)
        hand.update(added)
        left = list(hand.elements())
        if self.rules.last_card_discard and not left:
            return "the last card must be thrown"
        if not left:
            return ""  # the hand is empty: the seat goes out
        due, owed = self._owes_after(removed, freed)
        if due is None and not owed:
            return ""
        plan = finish_plan(left, table, self.rules, due=due, jokers_owed=owed, min_left=self._min_left())
        if plan is not None:
            return ""
        if due is not None:
            return f"then the card you took from the pile, {format_card(due)}, could no longer go down"
        if self.rules.last_card_discard:
            return "then the freed joker could not go down and leave you a card to throw"
        return "then the freed joker could no longer go down this turn"

    def _put_down(self, seat: int, kinds: Sequence[int]) -> list[int]:
        """Take the physical cards of ``kinds`` from the hand, and settle what the turn owes."""
        due, owed = self._owes_after(kinds)
        cards = [self._take_from_hand(seat, k) for k in kinds]
        self._pile_due, self._owed = due, owed
        self._played = True
        return cards

    def _new_meld(self, seat: int, placed: Placed, cards: list[int]) -> TableMeld:
        meld = TableMeld(
            id=self._next_id, owner=seat, kind=placed.kind, cards=placed.cards, stands_for=placed.stands_for
        )
        self._next_id += 1
        self._table.append(meld)
        self._table_cards.append(cards)
        return meld

    def _after_play(self, seat: int) -> None:
        """A hand emptied by a meld goes out at once (Rummy 40)."""
        if not self._hands[seat]:
            self._end_turn(seat)

    # ---- open ---------------------------------------------------------------------------------

    def _judge_open(self, seat: int, melds: object) -> tuple[str, _OpenPlan | None]:
        """Why the opening is refused (``""`` if not), and its placed melds, points and waiver."""
        reason = self._why_not_play(seat, must_be_open=False)
        if reason:
            return reason, None
        if self._is_open(seat):
            return "you have already opened", None
        if not self.rules.opening_first_round and self._turns_taken[seat] == 0:
            return "no opening in the first round", None
        if isinstance(melds, str | bytes) or not isinstance(melds, Sequence) or not melds:
            return "an opening is one or more melds laid down together", None
        placed: list[Placed] = []
        all_kinds: list[int] = []
        for m in melds:
            kinds, why = _as_cards(m)
            if kinds is None:
                return why, None
            all_kinds += kinds
        missing = self._missing(seat, all_kinds)
        if missing:
            return f"the melds hold {format_cards(missing)}, not in your hand", None
        for m in melds:
            p, why = place_meld(tuple(m), self.rules)
            if p is None:
                return why, None
            placed.append(p)
        due = self._pile_due
        if due is not None and due not in all_kinds:
            return f"the card you took from the pile, {format_card(due)}, must be part of your opening", None
        points = sum(opening_value(p.stands_for, self.rules, None) for p in placed)
        left = len(self._hands[seat]) - len(all_kinds)
        if self.rules.last_card_discard and left == 0:
            return "the last card must be thrown", None
        threshold = self.rules.opening or 0
        waived = points < threshold
        if waived and (self.rules.last_card_discard or left > 1):
            return (
                f"an opening needs {threshold} points: these make {points}, {threshold - points} short",
                None,
            )
        table = [*self._table, *(self._as_meld(p, seat, -1 - j) for j, p in enumerate(placed))]
        reason = self._why_stuck(seat, all_kinds, (), table)
        if reason:
            return reason, None
        return "", (placed, points, waived)

    @staticmethod
    def _as_meld(p: Placed, owner: int, meld_id: int) -> TableMeld:
        return TableMeld(id=meld_id, owner=owner, kind=p.kind, cards=p.cards, stands_for=p.stands_for)

    def can_open(self, seat: int, melds: Sequence[Sequence[int]]) -> Verdict:
        return verdict(self._judge_open(seat, melds)[0])

    def verify_open(self, seat: int, melds: Sequence[Sequence[int]]) -> None:
        refuse(self._judge_open(seat, melds)[0])

    def _check_open(self, seat: int, action: Action) -> tuple[str, _OpenPlan | None]:
        return self._judge_open(seat, action.groups)

    def open(self, seat: int, melds: Sequence[Sequence[int]]) -> Opened:
        """Open: lay ``melds`` (kinds; a run in order keeps its jokers' slots) down in one action.

        They must reach ``opening`` points (waived for an opening leaving 0 or 1 cards, Rummy 40).
        """
        reason, plan = self._judge_open(seat, melds)
        refuse(reason)
        assert plan is not None
        return self._apply_open(seat, plan)

    def _apply_open(self, seat: int, plan: _OpenPlan) -> Opened:
        placed, points, waived = plan
        laid = []
        for p in placed:
            laid.append(self._new_meld(seat, p, self._put_down(seat, p.cards)))
        self._opened_at[seat] = self._turns
        event = Opened(seq=len(self._events), seat=seat, melds=tuple(laid), points=points, waived=waived)
        self._emit(event)
        self._after_play(seat)
        return event

    # ---- lay down -----------------------------------------------------------------------------

    def _judge_lay_down(self, seat: int, cards: object) -> tuple[str, Placed | None]:
        reason = self._why_not_play(seat)
        if reason:
            return reason, None
        kinds, why = _as_cards(cards)
        if kinds is None:
            return why, None
        missing = self._missing(seat, kinds)
        if missing:
            return f"{format_cards(missing)} {'is' if len(missing) == 1 else 'are'} not in your hand", None
        placed, why = place_meld(kinds, self.rules)
        if placed is None:
            return why, None
        reason = self._why_stuck(seat, kinds, (), [*self._table, self._as_meld(placed, seat, -1)])
        return reason, (placed if not reason else None)

    def can_lay_down(self, seat: int, cards: Sequence[int]) -> Verdict:
        return verdict(self._judge_lay_down(seat, cards)[0])

    def verify_lay_down(self, seat: int, cards: Sequence[int]) -> None:
        refuse(self._judge_lay_down(seat, cards)[0])

    def _check_lay_down(self, seat: int, action: Action) -> tuple[str, Placed | None]:
        return self._judge_lay_down(seat, action.cards)

    def lay_down(self, seat: int, cards: Sequence[int]) -> LaidDown:
        """Lay a new meld down (after opening; no threshold)."""
        reason, placed = self._judge_lay_down(seat, cards)
        refuse(reason)
        assert placed is not None
        return self._apply_lay_down(seat, placed)

    def _apply_lay_down(self, seat: int, placed: Placed) -> LaidDown:
        meld = self._new_meld(seat, placed, self._put_down(seat, placed.cards))
        event = LaidDown(seq=len(self._events), seat=seat, meld=meld)
        self._emit(event)
        self._after_play(seat)
        return event

    # ---- lay off ------------------------------------------------------------------------------

    def _judge_lay_off(
        self, seat: int, meld_id: object, cards: object
    ) -> tuple[str, tuple[int, Placed, tuple[int, ...]] | None]:
        reason = self._why_not_play(seat)
        if reason:
            return reason, None
        i = self._meld_index(meld_id)
        if i is None:
            return f"there is no meld {meld_id!r} on the table", None
        kinds, why = _as_cards(cards)
        if kinds is None:
            return why, None
        missing = self._missing(seat, kinds)
        if missing:
            return f"{format_cards(missing)} {'is' if len(missing) == 1 else 'are'} not in your hand", None
        meld = self._table[i]
        placed, why = extend_meld(meld, kinds, self.rules)
        if placed is None:
            return why, None
        table = list(self._table)
        table[i] = self._as_meld(placed, meld.owner, meld.id)
        reason = self._why_stuck(seat, kinds, (), table)
        return reason, ((i, placed, kinds) if not reason else None)

    def can_lay_off(self, seat: int, meld_id: int, cards: Sequence[int]) -> Verdict:
        return verdict(self._judge_lay_off(seat, meld_id, cards)[0])

    def verify_lay_off(self, seat: int, meld_id: int, cards: Sequence[int]) -> None:
        refuse(self._judge_lay_off(seat, meld_id, cards)[0])

    def _check_lay_off(
        self, seat: int, action: Action
    ) -> tuple[str, tuple[int, Placed, tuple[int, ...]] | None]:
        return self._judge_lay_off(seat, action.meld, action.cards)

    def lay_off(self, seat: int, meld_id: int, cards: Sequence[int]) -> LaidOff:
        """Add ``cards`` to meld ``meld_id`` on the table, yours or a rival's (after opening)."""
        reason, plan = self._judge_lay_off(seat, meld_id, cards)
        refuse(reason)
        assert plan is not None
        return self._apply_lay_off(seat, plan)

    def _apply_lay_off(self, seat: int, plan: tuple[int, Placed, tuple[int, ...]]) -> LaidOff:
        i, placed, kinds = plan
        old = self._table[i]
        added = self._put_down(seat, kinds)
        # the old cards keep their slots: find where they sit in the grown meld
        phys = list(self._table_cards[i])
        by_kind: dict[int, list[int]] = {}
        for c in added:
            by_kind.setdefault(c % KINDS, []).append(c)
        if old.kind == "set":
            new_phys = phys + added
        else:
            offset = next(j for j in range(len(placed.cards)) if placed.stands_for[j] == old.stands_for[0])
            new_phys = []
            for j, k in enumerate(placed.cards):
                if offset <= j < offset + len(phys):
                    new_phys.append(phys[j - offset])
                else:
                    new_phys.append(by_kind[k].pop())
        meld = self._as_meld(placed, old.owner, old.id)
        self._table[i] = meld
        self._table_cards[i] = new_phys
        if old.owner != seat:
            self._rival_touch = True
        event = LaidOff(seq=len(self._events), seat=seat, meld_id=old.id, cards=kinds, meld=meld)
        self._emit(event)
        self._after_play(seat)
        return event

    # ---- swap ---------------------------------------------------------------------------------

    def _judge_swap(
        self, seat: int, meld_id: object, card: object
    ) -> tuple[str, tuple[int, int, int] | None]:
        reason = self._why_not_play(seat)
        if reason:
            return reason, None
        i = self._meld_index(meld_id)
        if i is None:
            return f"there is no meld {meld_id!r} on the table", None
        reason = self._why_not_card(seat, card)
        if reason:
            return reason, None
        assert isinstance(card, int)
        meld = self._table[i]
        slot, why = swap_slot(meld, card)
        if slot is None:
            return why, None
        table = list(self._table)
        table[i] = self._swapped(meld, slot, card)
        reason = self._why_stuck(seat, (card,), (JOKER,), table, freed=self._owed_by_swap())
        return reason, ((i, slot, card) if not reason else None)

    def _owed_by_swap(self) -> int:
        """Jokers a swap leaves the turn owing: the freed one where it must go down (Rummy 40)."""
        return 1 if self.rules.freed_joker_must_go_down else 0

    def _swapped(self, meld: TableMeld, slot: int, card: int) -> TableMeld:
        cards = list(meld.cards)
        cards[slot] = card
        if meld.kind == "set":
            placed, _ = place_meld(cards, self.rules)
            assert placed is not None
            return self._as_meld(placed, meld.owner, meld.id)
        return TableMeld(
            id=meld.id, owner=meld.owner, kind=meld.kind, cards=tuple(cards), stands_for=meld.stands_for
        )

    def can_swap(self, seat: int, meld_id: int, card: int) -> Verdict:
        return verdict(self._judge_swap(seat, meld_id, card)[0])

    def verify_swap(self, seat: int, meld_id: int, card: int) -> None:
        refuse(self._judge_swap(seat, meld_id, card)[0])

    def swap(self, seat: int, meld_id: int, card: int) -> Swapped:
        """Put ``card`` in the place of the joker it stands for in meld ``meld_id``; the joker
        comes to the hand, and where ``freed_joker_must_go_down`` must go down again this turn."""
        reason, plan = self._judge_swap(seat, meld_id, card)
        refuse(reason)
        assert plan is not None
        return self._apply_swap(seat, plan)

    def _check_swap(self, seat: int, action: Action) -> tuple[str, tuple[int, int, int] | None]:
        return self._judge_swap(seat, action.meld, action.card)

    def _apply_swap(self, seat: int, plan: tuple[int, int, int]) -> Swapped:
        i, slot, card = plan
        old = self._table[i]
        natural = self._take_from_hand(seat, card)
        joker = self._table_cards[i][slot]
        self._table_cards[i][slot] = natural
        self._hands[seat].append(joker)
        self._table[i] = self._swapped(old, slot, card)
        # the pile card may fill the slot
        self._pile_due, self._owed = self._owes_after((card,), freed=self._owed_by_swap())
        self._played = True
        if old.owner != seat:
            self._rival_touch = True
        event = Swapped(seq=len(self._events), seat=seat, meld_id=old.id, card=card, meld=self._table[i])
        self._emit(event)
        return event

    # ---- turns and endings --------------------------------------------------------------------

    def _reset_turn(self) -> None:
        self._pile_due = None
        self._owed = 0
        self._played = False
        self._put_back = False
        self._rival_touch = False

    def _end_turn(self, seat: int) -> None:
        if not self._hands[seat]:
            last = self._events[-1]
            closing = last.card if isinstance(last, Threw) and last.seat == seat else None
            opened_now = self._opened_at[seat] == self._turns
            rival_touch = self._rival_touch
            self._reset_turn()
            self._count_turn(seat)  # going out ends the deal: no one plays next
            self._settle_out(seat, closing, opened_now, rival_touch)
            return
        self._reset_turn()
        super()._end_turn(seat)

    def _rebuild(self) -> None:
        if len(self._pile) <= 1:
            # nothing under the pile's top to make a stock of: the deal cannot go on
            self._end_at_limit(Ending.BLOCKED, self._to_play)
            return
        super()._rebuild()

    def _counted(self, seat: int, charge: int, won: bool = False) -> SeatResult:
        hand = self.hand(seat)
        return SeatResult(seat, SeatStatus.IN, won, charge, self.hand_count(seat), hand, (), hand)

    def _settle_out(self, winner: int, closing: int | None, opened_now: bool, rival_touch: bool) -> None:
        penalty = self.rules.format == "penalty"
        if penalty:
            handling = opened_now and not rival_touch
            doubled = closing == JOKER or handling
            winner_charge = REMI_JOKER_CLOSE if doubled else REMI_CLOSE
        else:
            doubled = opened_now  # Hand Rummy: went out in a turn that began unopened
            winner_charge = 0
        factor = 2 if doubled else 1
        seats = tuple(
            self._counted(s, winner_charge, True)
            if s == winner
            else self._counted(s, factor * self.hand_count(s))
            for s in range(self.players)
        )
        self._finish(DealResult(winner, Ending.OUT, seats, self.dealer, self._turns, False, closing, doubled))

    def _end_at_limit(self, ending: Ending, next_seat: int) -> None:
        order = self._play_order(next_seat)
        counts = {s: self.hand_count(s) for s in order}
        winner = min(order, key=lambda s: counts[s])  # min keeps the first of equals
        light = counts[winner]
        penalty = self.rules.format == "penalty"
        seats = []
        for s in range(self.players):
            if s == winner:
                seats.append(self._counted(s, REMI_CLOSE if penalty else 0, True))
            else:
                seats.append(self._counted(s, counts[s] if penalty else counts[s] - light))
        self._finish(DealResult(winner, ending, tuple(seats), self.dealer, self._turns, False, None))

    def _end_last_in(self, winner: int) -> None:
        # The table family has no dropping, so a lone seat never happens; settle it as blocked.
        self._end_at_limit(Ending.LAST_IN, winner)
