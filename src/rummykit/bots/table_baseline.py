"""Baseline players for the table family (Rummy 40, Remi 51).

* :class:`TableRandom`: any legal action of the view, uniformly.
* :class:`TableGreedy`: opens as soon as it can with the best opening, lays down and lays off
  whatever it can, swaps a joker out when that lowers its leftover, takes the pile's top card
  only when it can use it at once, and throws the dearest card it cannot use.

Both see only their seat's view (:class:`~rummykit.engine.views.SeatView`, whose table-family
fields carry the melds on the table) and choose from ``view.legal``; the same seed and views
give the same choices.  They have the shape of the ``Player`` protocol of
:mod:`rummykit.bots.base` (``name``, ``choose``, ``observe``).
"""

from __future__ import annotations

import random
from collections import Counter

from rummykit.engine.cards import JOKER
from rummykit.engine.events import Action, ActionKind, Event, Phase, TableMeld
from rummykit.engine.groups import card_value
from rummykit.engine.opening import best_leftover, best_opening, swap_slot
from rummykit.engine.views import SeatView

__all__ = ["TableGreedy", "TableRandom"]

Seed = int | str


class _TablePlayer:
    name = "table"

    def __init__(self, seed: Seed = 0) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise ValueError(f"a player's seed is an int or a str, not {seed!r}")
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        raise NotImplementedError

    def observe(self, event: Event) -> None:
        """Nothing: the baseline players read only their views."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


class TableRandom(_TablePlayer):
    """Any legal action, uniformly at random."""

    name = "table-random"

    def choose(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError("no legal action: it is not this seat's turn")
        return self.rng.choice(view.legal)


def _with_card(meld: TableMeld, card: int) -> TableMeld:
    """``meld`` after ``card`` takes a joker's slot (for judging a swap)."""
    slot, _ = swap_slot(meld, card)
    assert slot is not None
    cards = list(meld.cards)
    cards[slot] = card
    return TableMeld(
        id=meld.id, owner=meld.owner, kind=meld.kind, cards=tuple(cards), stands_for=meld.stands_for
    )


class TableGreedy(_TablePlayer):
    """Open early, put down whatever it can, draw the pile only to use it, throw the dearest
    card it cannot use."""

    name = "table-greedy"

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action: it is not this seat's turn")
        if view.phase is Phase.DRAW:
            return self._draw(view)
        by_kind: dict[ActionKind, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        if ActionKind.OPEN in by_kind:
            return by_kind[ActionKind.OPEN][0]  # the engine offers the best opening
        opened = bool(view.opened) and view.opened[view.seat]
        if not opened:
            if ActionKind.PUT_BACK in by_kind:
                return by_kind[ActionKind.PUT_BACK][0]  # cannot open with it after all
            return self._throw(view, by_kind)
        rules = view.rules
        table = list(view.melds)
        now = best_leftover(view.hand, table, rules)
        for a in by_kind.get(ActionKind.SWAP, []):
            assert a.meld is not None and a.card is not None
            hand = list(view.hand)
            hand.remove(a.card)
            hand.append(JOKER)
            after = [_with_card(m, a.card) if m.id == a.meld else m for m in table]
            if best_leftover(hand, after, rules).cost < now.cost - card_value(a.card, rules, None):
                return a
        if ActionKind.LAY_DOWN in by_kind:
            return max(by_kind[ActionKind.LAY_DOWN], key=lambda a: len(a.cards or ()))
        if ActionKind.LAY_OFF in by_kind:
            return max(by_kind[ActionKind.LAY_OFF], key=lambda a: len(a.cards or ()))
        if ActionKind.THROW not in by_kind and ActionKind.PUT_BACK in by_kind:
            return by_kind[ActionKind.PUT_BACK][0]
        return self._throw(view, by_kind)

    def _draw(self, view: SeatView) -> Action:
        top = view.pile_top
        if Action.draw_pile() in view.legal and top is not None and self._uses(view, top):
            return Action.draw_pile()
        return Action.draw_stock() if Action.draw_stock() in view.legal else view.legal[0]

    def _uses(self, view: SeatView, top: int) -> bool:
        """Whether the pile's top card could go down at once."""
        rules = view.rules
        hand = [*view.hand, top]
        opened = bool(view.opened) and view.opened[view.seat]
        if not opened:
            first_round = not rules.opening_first_round and view.thrown[view.seat] == ()
            return not first_round and best_opening(hand, rules, must_include=top) is not None
        plan = best_leftover(hand, list(view.melds), rules)
        return Counter(plan.loose)[top] < Counter(hand)[top]

    def _throw(self, view: SeatView, by_kind: dict[ActionKind, list[Action]]) -> Action:
        throws = by_kind.get(ActionKind.THROW, [])
        if not throws:
            return self.rng.choice(view.legal)  # owes a card to the table: any step that pays it
        rules = view.rules
        opened = bool(view.opened) and view.opened[view.seat]
        loose = set(best_leftover(view.hand, list(view.melds) if opened else [], rules).loose)

        def worth(a: Action) -> tuple[int, int, int]:
            k = a.card if a.card is not None else 0
            # the dearest loose card; never a joker while another card will do
            return (k != JOKER, k in loose, card_value(k, rules, None))

        return max(throws, key=worth)
