"""The show family's deal: Nepali, Indian and Kerala 13-card rummy with drop and show.

:class:`ShowDeal` adds the show family's actions (drop, show) to the shared turn
machine of :class:`~rummykit.engine.deal_base.Deal`, with its endings and
charges; the exact arranger (:mod:`rummykit.engine.arrange`) lays a show out and
counts the hands left in.  A show is judged once: its check asks the arranger for
the thirteen's arrangement, and the apply lays out what the check found.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from rummykit.engine.arrange import Arranger
from rummykit.engine.cards import JOKER, KINDS, format_cards, sort_key
from rummykit.engine.deal_base import TURN_CAP, Deal, Seed, Verdict, refuse, verdict
from rummykit.engine.early_show import halved, is_early_show
from rummykit.engine.events import (
    Action,
    ActionKind,
    DealResult,
    Dropped,
    Ending,
    Groups,
    Phase,
    SeatResult,
    SeatStatus,
    Showed,
    WrongShow,
)
from rummykit.engine.groups import check_show
from rummykit.engine.rules import Rules

__all__ = ["ShowDeal"]


def _kinds(cards: Sequence[int]) -> list[int]:
    return [c % KINDS for c in cards]


@dataclass(frozen=True, slots=True)
class _ShowPlan:
    """A show that passed the action checks: whether it is valid, and its layout."""

    card: int
    rest: tuple[int, ...]  # the thirteen, sorted kinds
    declared: Groups | None
    valid: bool
    reason: str  # why it is no show ("" when valid)
    laid: Groups  # what goes on the table: the declared groups, the pinned layout or the arranger's
    loose: tuple[int, ...] = ()  # a wrong show left to the arranger: its cards in no group


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
    play_phase = Phase.THROW
    action_names: ClassVar[Mapping[ActionKind, str]] = {
        **Deal.action_names,
        ActionKind.DROP: "drop",
        ActionKind.SHOW: "show",
    }

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

    def _legal_play(self, seat: int) -> list[Action]:
        shows = [Action.show(k) for k in self._finishing(seat) if k != self._pile_take]
        return shows + super()._legal_play(seat)

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

    # ---- drop ----------------------------------------------------------------------------------

    def _why_not_drop(self, seat: int) -> str:
        reason = self._why_not_seat(seat)
        if reason:
            return reason
        if self.rules.drop_first is None:
            return "dropping is not allowed at this table"
        return self._why_not_turn(seat, Phase.DRAW, late="too late to drop: you have already drawn")

    def _check_drop(self, seat: int, action: Action) -> tuple[str, None]:
        return self._why_not_drop(seat), None

    def can_drop(self, seat: int) -> Verdict:
        return verdict(self._why_not_drop(seat))

    def verify_drop(self, seat: int) -> None:
        refuse(self._why_not_drop(seat))

    def drop(self, seat: int) -> Dropped:
        """Leave the deal before drawing, for the drop cost; the hand is never shown."""
        refuse(self._why_not_drop(seat))
        return self._apply_drop(seat, None)

    def _apply_drop(self, seat: int, plan: None) -> Dropped:
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
        """Why the show cannot be made (``""`` if it can), and the plan to make it.

        The one place a show asks the arranger (once) about the thirteen it lays out.
        """
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
        loose: tuple[int, ...] = ()
        if groups is None:
            arranged = self.arranger.arrange(rest, self.wild)
            if len(rest) == self.rules.hand_size + 1:
                # not a show's count of cards (a house first hand): the arranger reads one card
                # more as a hand to throw from, so ask the show question of these cards as they are
                valid = self.arranger.can_show(rest, self.wild)
            else:
                valid = arranged.can_show
            why = "" if valid else _needs_reason(arranged.needs)
            laid: Groups = tuple(g.cards for g in arranged.groups)
            loose = arranged.loose
        else:
            declared, why = _declaration(groups, rest)
            if why:
                return why, None
            check = check_show(declared, self.rules, self.wild)
            valid, why = check.ok, check.reason
            laid = declared
        if not valid and self.rules.wrong_show is None:
            return f"that is not a show: {why}", None
        return "", _ShowPlan(card, rest, declared, valid, why, laid, loose)

    def check_declaration(
        self, seat: int, card: int, groups: Sequence[Sequence[int]] | None = None
    ) -> Verdict:
        """Whether showing with ``card`` (and ``groups``) would be a valid show, at any table.

        Unlike :meth:`can_show`, a show that would only cost the wrong-show penalty is not ok here.
        """
        reason, plan = self._judge_show(seat, card, groups)
        if plan is not None and not plan.valid:
            reason = f"that is not a show: {plan.reason}"
        return verdict(reason)

    def can_show(self, seat: int, card: int, groups: Sequence[Sequence[int]] | None = None) -> Verdict:
        """Whether the show is accepted: a valid show, or where a wrong show costs a penalty any
        well-formed one (see :meth:`check_declaration`)."""
        return verdict(self._judge_show(seat, card, groups)[0])

    def verify_show(self, seat: int, card: int, groups: Sequence[Sequence[int]] | None = None) -> None:
        refuse(self._judge_show(seat, card, groups)[0])

    def _check_show(self, seat: int, action: Action) -> tuple[str, _ShowPlan | None]:
        return self._judge_show(seat, action.card, action.groups, action.layout)

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
        refuse(reason)
        assert plan is not None
        return self._apply_show(seat, plan)

    def _apply_show(self, seat: int, plan: _ShowPlan) -> Showed | WrongShow:
        card = plan.card
        # Early show is judged before this turn counts: has every other seat had a turn?
        halve = self.rules.early_show_halves and is_early_show(self._turns_taken, seat)
        self._pile.append(self._take_from_hand(seat, card))
        self._thrown[seat].append(card)
        seq = len(self._events)
        if plan.valid:
            showed = Showed(seq=seq, seat=seat, card=card, groups=plan.laid, declared=plan.declared)
            self._emit(showed)
            self._count_turn(seat)  # a show ends the deal, not just the turn: no one plays next
            self._settle_show(seat, showed, halve)
            return showed
        penalty = self.rules.wrong_show
        assert penalty is not None
        wrong = WrongShow(
            seq=seq,
            seat=seat,
            card=card,
            groups=plan.laid,
            loose=plan.loose,
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
