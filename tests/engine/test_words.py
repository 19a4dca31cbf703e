"""The words people read (engine/words.py): every event of both families and every match step is
told, to each seat ("You", verbs agreeing) and to anyone watching; nobody is told a card the
event they see does not show; every legal move can be named."""

from __future__ import annotations

import random

import pytest

from rummykit.engine.cards import parse_card
from rummykit.engine.deal import new_deal
from rummykit.engine.events import Action, DrewStock, Threw
from rummykit.engine.rules import get_preset
from rummykit.engine.words import (
    Card,
    action_words,
    event_words,
    expected_moves,
    owed_words,
    parts_json,
    plain,
    step_words,
)

NAMES = ["Asha", "Bina", "Chandra", "Dipa"]


@pytest.mark.parametrize("preset", ["nepali", "indian", "pool101", "rummy40", "remi51"])
def test_every_event_is_told_to_every_viewer_with_only_the_cards_it_shows(preset: str) -> None:
    rules = get_preset(preset)
    names = NAMES[: rules.players]
    for seed in range(3):
        deal = new_deal(rules, seed)
        rng = random.Random(seed)
        while deal.to_play is not None:
            seat = deal.to_play
            legal = deal.view(seat).legal
            for action in legal:
                assert plain(action_words(action))  # every move the seat may make can be named
            deal.apply(seat, rng.choice(legal))
        for number, event in enumerate(deal.events):
            for viewer in (None, *range(rules.players)):
                seen = event.seen_by(viewer)
                said = event_words(seen, names, viewer, number=1 if number == 0 else None)
                text = plain(said)
                assert text and text[0].isupper(), (event, text)
                shown = {p.kind for p in said if isinstance(p, Card)}
                if isinstance(event, DrewStock):
                    assert shown == ({event.card} if viewer == event.seat else set()), text
                if event.seat is not None and event.seat == viewer and event.action is not None:
                    assert text.startswith("You "), text
                elif event.seat is not None and event.action is not None:
                    assert text.startswith(names[event.seat] + " "), text


def test_verbs_agree_with_who_is_told() -> None:
    threw = Threw(seq=4, seat=1, card=parse_card("Ks"))
    assert plain(event_words(threw, NAMES, None)) == "Bina throws Ks"
    assert plain(event_words(threw, NAMES, 1)) == "You throw Ks"
    assert plain(event_words(threw, NAMES, 1, auto=True)) == "You throw Ks (played for an away seat)"
    assert parts_json(event_words(threw, NAMES, 1)) == ["You throw ", {"card": "Ks"}]
    drew = DrewStock(seq=5, seat=0, card=parse_card("7h"))
    assert plain(event_words(drew, NAMES, 0)) == "You draw 7h from the stock"
    assert plain(event_words(drew.seen_by(2), NAMES, 2)) == "Asha draws from the stock"


def test_the_match_steps_are_told() -> None:
    assert step_words("ready", 0, NAMES, 0, {}) == "You are ready for the next deal"
    assert step_words("ready", 0, NAMES, 1, {}) == "Asha is ready for the next deal"
    assert step_words("rejoined", 2, NAMES, None, {"total": 80}) == "Chandra rejoins the pool at 80"
    assert step_words("match_over", None, NAMES, 1, {"winners": [1]}) == "The match is over: You win"
    assert (
        step_words("match_over", None, NAMES, None, {"winners": [0, 3]})
        == "The match is over: Asha and Dipa win"
    )
    with pytest.raises(ValueError, match="no words"):
        step_words("dance", 0, NAMES, None, {})


def test_the_moves_a_refusal_expects_are_named_in_the_engines_order() -> None:
    kinds = [a.kind for a in (Action.drop(), Action.draw_stock(), Action.draw_pile())]
    assert expected_moves(kinds) == "one of: drop, draw from the stock, draw from the pile"
    owes = owed_words(parse_card("Qs"), 0)
    assert (
        expected_moves([Action.put_back().kind], owes=owes)
        == "one of: put back, use Qs from the pile in a meld"
    )
    assert expected_moves([]) == "play on"
