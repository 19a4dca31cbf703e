"""The hand coach: what a seat's hand is worth and how it could go down, from its view alone.

The web table and the terminal game show a person the same help beside their hand, and both
ask this one object for it:

* the show family: the arrangement (groups, loose cards, the charge, what a show still needs,
  the card to set aside with fourteen) and the finishing cards (the throws that leave a show);
* the table family: the hand's count, the Opening meter (the best opening the hand can make
  now, with the pile card in it when one is due, against the threshold) and, once opened, the
  cheapest leftover (the new melds and lay-offs that leave the least in hand).

Like a bot it sees only a :class:`~rummykit.engine.views.SeatView`, so it can never tell
anyone more than that seat may know.  Answers are kept per seat until the hand (or the table's
melds) change: a turn asks the same questions several times (every message of the turn).

>>> from rummykit.engine.table_deal import TableDeal
>>> from rummykit.engine.rules import get_preset
>>> deal = TableDeal(get_preset("rummy40", players=2), seed=3)
>>> coach = Coach(deal.rules)
>>> meter = coach.meter(deal.view(deal.to_play))
>>> meter.threshold, meter.points <= meter.threshold or meter.best is not None
(40, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rummykit.engine.arrange import Arrangement, Arranger
from rummykit.engine.events import ActionKind
from rummykit.engine.groups import card_value
from rummykit.engine.opening import Leftover, Opening, best_leftover, best_opening, opening_meter
from rummykit.engine.rules import Rules
from rummykit.engine.views import SeatView

__all__ = ["Coach", "Meter"]

_KEEP: Final = 16  # seats whose answers are kept (a table has at most eight)


@dataclass(frozen=True, slots=True)
class Meter:
    """The Opening meter: the best ``points`` the hand's melds make now against ``threshold``,
    and ``best``, the opening the rules allow now by its points (or the waiver), if any.
    ``due`` is the card taken from the pile that any opening this turn must hold."""

    points: int
    threshold: int
    best: Opening | None
    due: int | None

    @property
    def ready(self) -> bool:
        return self.best is not None

    @property
    def short(self) -> int:
        """Points still missing (0 once ready)."""
        return 0 if self.best is not None else max(0, self.threshold - self.points)


class Coach:
    """The hand coach for one table's rules (any deal of them: a pool's deals differ only in
    the number of seats, which no answer here depends on)."""

    def __init__(self, rules: Rules, arranger: Arranger | None = None) -> None:
        if arranger is not None and arranger.rules != rules:
            raise ValueError("the arranger was built for other rules")
        self.rules: Final = rules
        self._arranger = arranger
        self._arranged: dict[tuple[int, bool], tuple[tuple[tuple[int, ...], int | None], Arrangement]] = {}
        self._meters: dict[int, tuple[tuple[tuple[int, ...], int | None], Meter]] = {}
        self._leftovers: dict[int, tuple[tuple[tuple[int, ...], tuple[object, ...]], Leftover]] = {}

    @property
    def arranger(self) -> Arranger:
        if self._arranger is None:
            self._arranger = Arranger(self.rules)  # built when first asked: the table family never is
        return self._arranger

    # ---- the show family ------------------------------------------------------------------

    def arrangement(self, view: SeatView, *, away: bool = False) -> Arrangement:
        """The Group button's answer for the seat's hand (``away``: with the cards it still is
        from a show, which costs a search of its own)."""
        key = (view.hand, view.wild)
        slot = (view.seat, away)
        cached = self._arranged.get(slot)
        if cached is not None and cached[0] == key:
            return cached[1]
        a = self.arranger.arrange(view.hand, view.wild, away=away) if away else self.arranger.arrange(*key)
        self._keep(self._arranged, slot, (key, a))
        return a

    @staticmethod
    def finishing(view: SeatView) -> tuple[int, ...]:
        """The cards whose throw leaves a show, for the seat to play after drawing (the engine
        offers exactly those shows)."""
        return tuple(a.card for a in view.legal if a.kind is ActionKind.SHOW and a.card is not None)

    def cheapest_throw(self, view: SeatView) -> int:
        """Of the throws the view allows, the one that leaves the lowest charge (the dearest
        card on a tie)."""
        arranger = self.arranger
        best: tuple[int, int, int] | None = None
        for action in view.legal:
            if action.kind is not ActionKind.THROW or action.card is None:
                continue
            rest = list(view.hand)
            rest.remove(action.card)
            key = (arranger.charge(rest, view.wild), -arranger.value(action.card, view.wild), action.card)
            if best is None or key < best:
                best = key
        if best is None:
            raise ValueError("the view allows no throw")
        return best[2]

    # ---- the table family -----------------------------------------------------------------

    def count(self, view: SeatView) -> int:
        """What the hand counts as it stands (2–10 face, J Q K 10, the ace and the joker by the rules)."""
        rules = view.rules
        return sum(card_value(k, rules, None) for k in view.hand)

    def meter(self, view: SeatView) -> Meter:
        """The Opening meter of the seat's hand; on its own turn a card taken from the pile and
        not yet put down must be in the opening."""
        due = view.pile_due if view.my_turn else None
        key = (view.hand, due)
        cached = self._meters.get(view.seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        points, threshold = opening_meter(view.hand, view.rules, must_include=due)
        meter = Meter(points, threshold, best_opening(view.hand, view.rules, must_include=due), due)
        self._keep(self._meters, view.seat, (key, meter))
        return meter

    def leftover(self, view: SeatView) -> Leftover:
        """The cheapest leftover: after the new melds and, once the seat has opened, the lay-offs
        onto the table's melds (before opening nothing can go onto them)."""
        opened = bool(view.opened) and view.opened[view.seat]
        melds = view.melds if opened else ()
        key = (view.hand, tuple(melds))
        cached = self._leftovers.get(view.seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        left = best_leftover(view.hand, melds, view.rules)
        self._keep(self._leftovers, view.seat, (key, left))
        return left

    @staticmethod
    def _keep(store: dict, key: object, value: object) -> None:  # type: ignore[type-arg]
        if len(store) >= _KEEP and key not in store:
            store.clear()
        store[key] = value
