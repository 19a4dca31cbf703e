"""The autopilot (what the table plays for an away seat or one out of time): always a legal move
from the seat's view, it plays every deal of both families to its end, and at the table family
it melds only to pay what the turn owes."""

from __future__ import annotations

import pytest

from rummykit.bots.autopilot import autopilot
from rummykit.bots.coach import Coach
from rummykit.engine.deal import new_deal
from rummykit.engine.events import ActionKind
from rummykit.engine.rules import get_preset

MELDS = {ActionKind.OPEN, ActionKind.LAY_DOWN, ActionKind.LAY_OFF, ActionKind.SWAP}


@pytest.mark.parametrize("preset", ["nepali", "indian", "kerala", "rummy40", "remi51"])
def test_the_autopilot_plays_deals_out_with_legal_moves_only(preset: str) -> None:
    rules = get_preset(preset)
    coach = Coach(rules)
    for seed in range(1 if rules.is_table else 6):  # a table-family deal runs long: it never melds
        deal = new_deal(rules, seed)
        while deal.to_play is not None:
            view = deal.view(deal.to_play)
            action = autopilot(view, coach, drop=seed % 2 == 1)
            assert action in view.legal
            if action.kind in MELDS:
                assert view.pile_due is not None or view.owed_jokers  # only what the turn owes
            deal.apply(deal.to_play, action)
        assert deal.result is not None


def test_a_seat_played_for_long_enough_drops_where_it_may() -> None:
    rules = get_preset("nepali", players=3)
    deal = new_deal(rules, 5)
    view = deal.view(deal.to_play)
    assert str(autopilot(view, Coach(rules), drop=True)) == "drop"
    assert str(autopilot(view, Coach(rules))) == "draw stock"
