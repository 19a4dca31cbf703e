"""The expert's draw: by hard's look (the pile's hand with its next draw against the held hand
with the blind draw), at every seat count; by the learned values only with ``look_draw`` off.
Played on real deals against medium, every draw decision of the expert's checked against what
the rule says."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rummykit.bots import make_player
from rummykit.bots.base import turns
from rummykit.bots.expert import ExpertPlayer
from rummykit.bots.tracking import is_wild
from rummykit.engine.deal import ShowDeal
from rummykit.engine.events import Action, ActionKind, Phase
from rummykit.engine.rules import get_preset
from rummykit.engine.views import SeatView


def expert_draws(players: int, decks: int, **options: float) -> Iterator[tuple[ExpertPlayer, SeatView, bool]]:
    """(the expert, its view, whether it took the pile card) at each of its draws with a card on
    the pile; the expert sits at seat 0, medium at the others."""
    rules = get_preset("nepali", players=players)
    for i in range(decks):
        deal = ShowDeal(rules, f"expert-draw/{i}", dealer=i % players)
        expert = ExpertPlayer(f"expert-draw/{i}/e")
        expert.untimed = True
        for key, value in options.items():
            setattr(expert, key, value)
        seats = [expert, *(make_player("medium", f"expert-draw/{i}/{s}") for s in range(1, players))]
        for seat in turns(deal, seats):
            view = deal.view(seat)
            action = seats[seat].choose(view)
            drawing = seat == 0 and view.phase is Phase.DRAW and view.pile_top is not None
            if drawing and Action.draw_pile() in view.legal and action.kind is not ActionKind.DROP:
                yield expert, view, action.kind is ActionKind.DRAW_PILE
            deal.apply(seat, action)


def makes_a_show(expert: ExpertPlayer, view: SeatView) -> bool:
    top = view.pile_top
    assert top is not None
    finish = expert.reader(view.rules).arranger.best_throw((*view.hand, top), view.wild)[0]
    return any(k != top for k in finish)


@pytest.mark.parametrize("players", [2, 4])
def test_it_takes_a_card_that_shows_or_a_joker_and_weighs_the_rest_by_the_look(players: int) -> None:
    took = left = 0
    for expert, view, taken in expert_draws(players, 6, search_worlds=8):
        top = view.pile_top
        assert top is not None
        if is_wild(top, view.wild) or makes_a_show(expert, view):
            assert taken
            continue
        values = expert.last_values  # the look's two sides, as worths (higher is better)
        assert taken == (values["pile"] > values["stock"] + expert.look_draw_margin)
        took += taken
        left += not taken
    assert took and left  # both answers were given on these decks


def test_a_margin_no_hand_can_beat_takes_only_shows_and_jokers() -> None:
    for expert, view, taken in expert_draws(2, 3, look_draw_margin=1000.0):
        top = view.pile_top
        assert top is not None
        assert taken == (is_wild(top, view.wild) or makes_a_show(expert, view))


@pytest.mark.parametrize("players", [2, 3])
def test_without_the_look_the_learned_values_draw(monkeypatch: pytest.MonkeyPatch, players: int) -> None:
    def no_look(*args: object) -> bool:
        raise AssertionError("look_draw is off")

    monkeypatch.setattr(ExpertPlayer, "_draw_by_look", no_look)
    compared = 0
    for expert, _view, _taken in expert_draws(players, 3, look_draw=False, search_worlds=8):
        compared += set(expert.last_values) == {"pile", "stock"}  # the learned values' sides
        expert.last_values = {}
    assert compared
