"""The action notation: dict and text round trips over real legal-action lists of random deals
of both families, the hand histories' lines read as notation, clear refusals that build
nothing, and every stored payload shape read as today's dict."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.engine.cards import format_card, parse_card, parse_cards
from rummykit.engine.deal import Deal, ShowDeal, new_deal
from rummykit.engine.events import (
    Action,
    ActionKind,
    DrewStock,
    Dropped,
    Event,
    LaidDown,
    LaidOff,
    Opened,
    PutBack,
    Showed,
    Swapped,
    Threw,
    TookPile,
    WrongShow,
)
from rummykit.engine.history import load
from rummykit.engine.notation import (
    ACTION_TYPES,
    NotationError,
    from_dict,
    from_text,
    read_payload,
    to_dict,
    to_text,
    type_of,
)
from rummykit.engine.rules import get_preset

HISTORIES = Path(__file__).parent.parent / "data" / "histories"
PRESETS = ["nepali", "indian", "kerala", "pool101", "rummy40", "remi51"]


def played(preset: str, seed: int, steps: int) -> tuple[Deal, list[Action]]:
    """A deal played ``steps`` legal actions in, and every action any seat was offered on the way.

    Shows are taken when offered; the show family mostly throws the card the arranger sets
    aside (so shows come), drops now and then, and tries a wrong show now and then where it
    costs a penalty (laid out by the table, or declared); the table family picks any legal
    action."""
    rules = get_preset(preset)
    deal = new_deal(rules, seed)
    rng = random.Random(seed)
    offered: list[Action] = []
    for _ in range(steps):
        seat = deal.to_play
        if seat is None:
            break
        view = deal.view(seat)
        legal = view.legal
        offered += legal
        shows = [a for a in legal if a.kind is ActionKind.SHOW]
        action = rng.choice(shows or legal)
        if isinstance(deal, ShowDeal) and not shows:
            if action.kind is ActionKind.DROP and rng.random() < 0.9:
                action = next(a for a in legal if a.kind is not ActionKind.DROP)
            aside = deal.arranger.arrange(view.hand, view.wild).throw
            if aside is not None and Action.throw(aside) in legal and rng.random() < 0.8:
                action = Action.throw(aside)
            if action.kind is ActionKind.THROW and rules.wrong_show is not None and rng.random() < 0.03:
                assert action.card is not None
                rest = list(view.hand)
                rest.remove(action.card)
                declared = [rest[:3], rest[3:6], rest[6:9], rest[9:]]  # the thirteen, all wrong
                action = Action.show(action.card, declared if rng.random() < 0.5 else None)
        deal.apply(seat, action)
    return deal, offered


def actions_of(deal: Deal, offered: list[Action]) -> list[Action]:
    """The offered actions, the actions the log's events replay as (shows pinned to their
    layout), and each valid show as declared by the seat."""
    out = list(offered)
    for e in deal.events:
        if e.action is not None:
            out.append(e.action)
        if isinstance(e, Showed):
            out.append(Action.show(e.card, e.groups))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10**6), steps=st.integers(0, 120))
def test_every_real_action_round_trips_through_the_dict_and_the_text(
    preset: str, seed: int, steps: int
) -> None:
    deal, offered = played(preset, seed, steps)
    for action in actions_of(deal, offered):
        d = to_dict(action)
        assert d["type"] == type_of(action) and d["type"] in ACTION_TYPES
        assert from_dict(d) == action
        assert to_dict(from_dict(d)) == d
        text = to_text(action)
        assert from_text(text) == action
        assert to_text(from_text(text)) == text


def _line(event: Event) -> str:
    """The event's hand-history line after its seat (with a declared show's note)."""
    text = event.text()
    if isinstance(event, Showed) and event.declared is not None:
        text += " [declared]"
    if isinstance(event, WrongShow) and event.declared is not None:
        text += " [declared: " + " | ".join(" ".join(map(format_card, g)) for g in event.declared) + "]"
    return text.split(" ", 1)[1]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10**6))
def test_a_history_line_is_the_notation_of_its_action(preset: str, seed: int) -> None:
    deal, _ = played(preset, seed, 400)
    for event in deal.events:
        action = event.action
        if action is None:
            continue  # the table's own events
        assert from_text(_line(event)) == action, event
        if isinstance(event, DrewStock | Threw | LaidDown | LaidOff | Swapped | PutBack | Showed):
            assert _line(event) == to_text(action), event  # the line is the action's text
        else:
            assert isinstance(event, TookPile | Dropped | Opened | WrongShow)  # it adds what happened


def test_the_golden_histories_action_lines_are_notation() -> None:
    files = sorted(HISTORIES.glob("*.txt"))
    assert files
    for path in files:
        text = path.read_text()
        history = load(text)
        lines = text.splitlines()
        for entry in history.entries:
            if entry.action is None:
                continue
            body = lines[entry.number - 1].strip().split(" ", 1)[1]
            assert from_text(body) == entry.action, (path.name, body)


def test_the_dict_is_the_message_that_plays_the_action() -> None:
    c = parse_card
    assert to_dict(Action.draw_stock()) == {"type": "draw", "from": "stock"}
    assert to_dict(Action.throw(c("10h"))) == {"type": "throw", "card": "10h"}
    assert to_dict(Action.show(c("9d"))) == {"type": "show", "card": "9d"}
    groups = ((c("Ah"), c("2h"), c("3h")),)
    assert to_dict(Action.show(c("9d"), groups)) == {
        "type": "show",
        "card": "9d",
        "groups": [["Ah", "2h", "3h"]],
    }
    assert to_dict(Action.show(c("9d"), layout=groups))["layout"] == [["Ah", "2h", "3h"]]
    assert to_dict(Action.open(groups)) == {"type": "open", "melds": [["Ah", "2h", "3h"]]}
    assert to_dict(Action.swap(3, c("Jc"))) == {"type": "swap", "meld": 3, "card": "Jc"}
    assert to_dict(Action.put_back()) == {"type": "put_back"} and to_dict(Action.drop()) == {"type": "drop"}
    # any spelling in, the canonical one out
    assert to_dict(from_dict({"type": "lay_down", "cards": ["th", "J♥", "jk"]}))["cards"] == [
        "10h",
        "Jh",
        "JK",
    ]


def test_the_text_reads_a_history_lines_extra_words() -> None:
    assert from_text("take Kc") == Action.draw_pile()
    assert from_text("drop 40") == Action.drop()
    opened = from_text("open Ks Kh Kd | 5h 6h 7h (48)")
    assert opened == Action.open([parse_cards("Ks Kh Kd"), parse_cards("5h 6h 7h")])
    assert from_text("  lay   off 2  4h ") == Action.lay_off(2, [parse_card("4h")])
    declared = from_text("show 9d: Ah 2h 3h | 4s 5s 6s [declared]")
    assert declared.groups is not None and declared.layout is None
    pinned = from_text("show 9d: Ah 2h 3h | 4s 5s 6s")
    assert pinned.layout is not None and pinned.groups is None


BAD_DICTS: list[tuple[dict[str, Any], str, str]] = [
    ({"type": "thorw", "card": "Kh"}, "unknown action type 'thorw'", "throw"),
    ({"card": "Kh"}, "unknown action type None", "type: one of"),
    ({"type": "throw"}, "missing field 'card' in throw", "card"),
    ({"type": "draw", "from": "stock", "seat": 1}, "unknown field 'seat' in draw", "from"),
    ({"type": "draw", "from": "deck"}, "draw from 'deck'?", '"stock" or "pile"'),
    ({"type": "throw", "card": "Xz"}, "unknown card 'Xz'", "a card such as 10h"),
    ({"type": "throw", "card": 7}, "card must be card text", "card"),
    ({"type": "show", "card": "Kh", "groups": "Kh Qh"}, "groups must be a list", "groups"),
    ({"type": "show", "card": "Kh", "groups": [["Kh", 1]]}, "a group's card must be card text", "card"),
    ({"type": "open", "melds": [[]]}, "each meld is a list of cards", "melds"),
    ({"type": "open", "melds": [["Ks"]] * 14}, "melds must be a list of melds", "melds"),
    ({"type": "lay_down", "cards": ["9c"] * 16}, "cards must be a list of cards", "cards"),
    ({"type": "lay_off", "meld": "two", "cards": ["4h"]}, "meld must be the id", "meld"),
    ({"type": "lay_off", "meld": True, "cards": ["4h"]}, "meld must be the id", "meld"),
    ({"type": "swap", "meld": 3}, "missing field 'card' in swap", "card"),
]


@pytest.mark.parametrize(("data", "problem", "expected"), BAD_DICTS, ids=[b[1] for b in BAD_DICTS])
def test_a_bad_dict_is_refused_with_its_problem(data: dict[str, Any], problem: str, expected: str) -> None:
    with pytest.raises(NotationError) as caught:
        from_dict(data)
    assert caught.value.problem.startswith(problem)
    assert expected in (caught.value.expected or "")


def test_the_callers_envelope_is_allowed_and_nothing_else() -> None:
    assert from_dict({"type": "drop", "id": 3, "version": 7}, extra=("id", "version")) == Action.drop()
    with pytest.raises(NotationError, match="unknown field 'id' in drop"):
        from_dict({"type": "drop", "id": 3})


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("thorw Kc", "unknown action 'thorw Kc'"),
        ("throw", "'throw' is no action, or it is missing its cards"),
        ("throw Xz", "throw Xz: unknown card 'Xz'"),
        ("lay off two 4h", "lay off two 4h: 'two' is no meld id"),
        ("swap 3", "'swap 3' names a meld and then its cards"),
        ("show 9d: Ah 2h | ", "needs 1 to 15 cards"),
        ("open " + " | ".join(["Ks Kh Kd"] * 14), "has more than 13 groups"),
    ],
)
def test_a_bad_text_is_refused_with_its_problem(text: str, problem: str) -> None:
    with pytest.raises(NotationError) as caught:
        from_text(text)
    assert problem in caught.value.problem


FORMAT1: list[tuple[dict[str, Any], dict[str, Any]]] = [
    # (as the server stored it until notation.py, as it reads now)
    ({"a": "draw stock", "auto": True}, {"type": "draw", "from": "stock", "auto": True}),
    ({"a": "draw pile"}, {"type": "draw", "from": "pile"}),
    ({"a": "throw", "card": "Jh"}, {"type": "throw", "card": "Jh"}),
    ({"a": "show", "card": "9d"}, {"type": "show", "card": "9d"}),
    (
        {"a": "show", "card": "9d", "groups": [["Ah", "2h", "3h"]]},
        {"type": "show", "card": "9d", "groups": [["Ah", "2h", "3h"]]},
    ),
    ({"a": "drop"}, {"type": "drop"}),
    ({"a": "open", "groups": [["Ks", "Kh", "Kd"]]}, {"type": "open", "melds": [["Ks", "Kh", "Kd"]]}),
    ({"a": "lay down", "cards": ["2c", "3c", "4c"]}, {"type": "lay_down", "cards": ["2c", "3c", "4c"]}),
    ({"a": "lay off", "meld": 2, "cards": ["4h"]}, {"type": "lay_off", "meld": 2, "cards": ["4h"]}),
    ({"a": "swap", "meld": 3, "card": "Jc"}, {"type": "swap", "meld": 3, "card": "Jc"}),
    ({"a": "put back", "auto": True}, {"type": "put_back", "auto": True}),
    ({"a": "join"}, {"type": "join"}),
    ({"a": "deal"}, {"type": "deal"}),
    ({"a": "ready"}, {"type": "next_round"}),
    ({"a": "rejoin"}, {"type": "rejoin"}),
    ({"a": "rematch", "match": "3f2a9c0d1e4b5a67"}, {"type": "rematch", "match": "3f2a9c0d1e4b5a67"}),
]


@pytest.mark.parametrize(("stored", "now"), FORMAT1)
def test_a_format1_payload_reads_as_todays_dict(stored: dict[str, Any], now: dict[str, Any]) -> None:
    assert read_payload(stored) == now
    assert read_payload(now) == now  # format 2 is read as it is
    if now["type"] in ACTION_TYPES:
        from_dict(now, extra=("auto",))  # and it is an action


@pytest.mark.parametrize(
    ("stored", "problem"),
    [
        ([1, 2], "a stored action is a JSON object"),
        ({"card": "Kh"}, "a stored action has a type"),
        ({"type": 3}, "a stored type is text"),
        ({"a": "throw", "card": "Kh", "seat": 2}, "unknown field 'seat' in a format-1 stored throw"),
    ],
)
def test_a_garbled_payload_is_refused(stored: Any, problem: str) -> None:
    with pytest.raises(NotationError, match=problem):
        read_payload(stored)
