"""Bad input and security: every refusal goes to the sender only, says what was expected and
what arrived, and changes nothing; other tables keep being served meanwhile."""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_helpers import Msg, Sock, drive, live_table, make_app, new_table, phase_of, running, scripted
from starlette.testclient import TestClient

from rummykit.engine.events import Action
from rummykit.server import hub as hub_module
from rummykit.server.protocol import MAX_MESSAGE_BYTES, Refusal, parse_message


def two_people(client: TestClient, **body: Any) -> tuple[Msg, Sock, Sock]:
    seats = [{"kind": "human", "name": "Asha"}, {"kind": "human", "name": "Bina"}, {"kind": "bot"}]
    t = new_table(client, seats=seats, seed="refusals", **body)
    asha, bina = Sock(client, t["match_id"], "Asha"), Sock(client, t["match_id"], "Bina")
    asha.hello(seat_token=t["seats"][0]["token"])
    bina.hello(seat_token=t["seats"][1]["token"])
    # both joined: the deal is dealt; wait until it is Asha's turn to draw
    drive([asha, bina], lambda: asha.view is not None and asha.view["legal"] is not None)
    return t, asha, bina


def quiet(sock: Sock) -> None:
    """``sock`` got nothing since: its next message is the answer to a ping."""
    sock.send(type="ping", id="quiet")
    assert sock.recv() == {"type": "pong", "id": "quiet"}


BAD: list[tuple[str, Any, str, str | None]] = [
    # (what, frame, reason starts with, expected contains)
    ("not JSON", "{nope", "not JSON", "a JSON object"),
    ("an array", "[1, 2]", "a message is a JSON object", "a JSON object"),
    ("no type", {"card": "Kh"}, "a message needs a type", "type: one of"),
    ("unknown type", {"type": "thorw", "card": "Kh"}, "unknown message type 'thorw'", "throw"),
    ("missing field", {"type": "throw"}, "missing field 'card' in throw", "card"),
    ("another seat", {"type": "draw", "from": "stock", "seat": 1}, "unknown field 'seat' in draw", "from"),
    ("bad source", {"type": "draw", "from": "deck"}, "draw from 'deck'?", '"stock" or "pile"'),
    ("bad card", {"type": "throw", "card": "Xz"}, "unknown card 'Xz'", "a card such as 10h"),
    ("card not text", {"type": "throw", "card": 7}, "card must be card text", "card"),
    ("bad groups", {"type": "show", "card": "Kh", "groups": "Kh Qh"}, "groups must be a list", "groups"),
    ("bad version", {"type": "drop", "version": "new"}, "version must be a whole number", "version"),
    ("long id", {"type": "drop", "id": "x" * 65}, "id must be a string or a number", "id"),
    ("hello again", {"type": "hello", "seat_token": "x"}, "already said hello", "an intent"),
    ("oversized", {"type": "drop", "id": "x", "pad": "x" * MAX_MESSAGE_BYTES}, "message too large", "4096"),
    ("throw first", {"type": "throw", "card": "Kh"}, "draw first", "draw from the stock"),
    ("stale", {"type": "draw", "from": "stock", "version": 1}, "stale: the table is at version", "version"),
    ("next round now", {"type": "next_round"}, "next_round is between deals", "play the deal"),
    ("start now", {"type": "start"}, "the match has already started", None),
    ("rejoin now", {"type": "rejoin"}, "rejoin is between deals", None),
    ("rematch now", {"type": "rematch"}, "a rematch is for a match that is over", None),
    # the table family's intents at a show-family table
    (
        "open here",
        {"type": "open", "melds": [["Ks", "Kh", "Kd"]]},
        "open is not an action at this table",
        None,
    ),
    ("put back here", {"type": "put_back"}, "put back is not an action at this table", None),
    ("no melds", {"type": "open"}, "missing field 'melds' in open", "melds"),
    ("bad meld id", {"type": "lay_off", "meld": "two", "cards": ["4h"]}, "meld must be the id", "meld"),
    ("hint off", {"type": "hint"}, "hints are off at this table", None),
]


@pytest.mark.parametrize(("what", "frame", "reason", "expected"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_message_is_refused_to_its_sender_only(
    sqlite_url: str, what: str, frame: Any, reason: str, expected: str | None
) -> None:
    app = make_app(sqlite_url)
    with running(app) as client:
        t, asha, bina = two_people(client)
        table = live_table(app, t["match_id"])
        before = (table.version, table.deal.fingerprint() if table.deal else None, table.actions)
        asha.send_text(frame if isinstance(frame, str) else json.dumps(frame))
        error = asha.until(lambda m: m["type"] != "presence")
        assert error["type"] == "error", error
        assert error["reason"].startswith(reason), error
        if expected is not None:
            assert expected in (error["expected"] or ""), error
        assert set(error) >= {"reason", "expected", "got", "version"} and error["version"] == before[0]
        assert (table.version, table.deal.fingerprint() if table.deal else None, table.actions) == before
        quiet(bina)  # Bina heard nothing of it
        # and the table goes on: Asha's real move is taken
        asha.send(type="draw", **{"from": "stock"})
        assert asha.until(lambda m: m["type"] == "update")["events"][0]["kind"] == "drew_stock"


def test_acting_out_of_turn_and_binary_frames(sqlite_url: str) -> None:
    app = make_app(sqlite_url)
    with running(app) as client:
        _t, asha, bina = two_people(client)
        bina.send(type="draw", **{"from": "stock"}, id=3)
        error = bina.until(lambda m: m["type"] == "error")
        assert error == {
            "type": "error",
            "reason": "not your turn: Asha is to play",
            "expected": "wait for your turn: Asha is to play",
            "got": "draw stock",
            "version": bina.version,
            "id": 3,
        }
        bina.send_bytes(b'{"type": "ping"}')
        error = bina.until(lambda m: m["type"] == "error")
        assert error["reason"] == "binary frames are not read here" and error["got"] == "a binary frame"
        quiet(asha)


def test_hello_comes_first_and_tokens_open_only_their_seat(sqlite_url: str) -> None:
    app = make_app(sqlite_url)
    with running(app) as client:
        t = new_table(client, seats=[{"kind": "human", "name": "Asha"}, {"kind": "bot"}], seed="hello")
        other = new_table(client, seats=[{"kind": "human", "name": "Zed"}, {"kind": "bot"}], seed="other")
        mid = t["match_id"]
        s = Sock(client, mid)
        s.send(type="draw", **{"from": "stock"})
        error = s.recv()
        assert error["reason"] == "expected hello first (the connection is CONNECTING)"
        assert (error["expected"], error["got"]) == ("hello", "draw")
        s.send(type="hello")
        assert s.recv()["reason"] == "hello needs exactly one of seat_token and watch_token"
        s.send(type="hello", seat_token=other["seats"][0]["token"])  # another table's token
        error = s.recv()
        assert error["reason"] == "this token opens no seat at this table"
        assert s.recv() == {"type": "closed", "code": 4403}
        s = Sock(client, mid)
        s.send(type="hello", watch_token=t["seats"][0]["token"])  # a seat's token is no watch token
        assert s.recv()["reason"] == "this token opens no watch at this table"
        assert s.recv()["code"] == 4403
        s = Sock(client, "0000000000000000")
        assert s.recv()["reason"] == "no match '0000000000000000' here"
        assert s.recv()["code"] == 4404
        s = Sock(client, mid)
        first = s.hello(seat_token=t["seats"][0]["token"])
        assert first["view"]["you"]["seat"] == 0


def test_a_socket_that_never_says_hello_is_closed(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_module, "HELLO_TIMEOUT", 0.2)
    with running(make_app(sqlite_url)) as client:
        t = new_table(client, seats=[{"kind": "human"}, {"kind": "bot"}])
        s = Sock(client, t["match_id"])
        assert s.recv()["reason"] == "no hello in time"
        assert s.recv() == {"type": "closed", "code": 4408}


def test_a_flood_is_slowed_down(sqlite_url: str) -> None:
    with running(make_app(sqlite_url, message_rate=(5.0, 1.0))) as client:
        t = new_table(client, seats=[{"kind": "human"}, {"kind": "bot"}])
        s = Sock(client, t["match_id"])
        s.hello(seat_token=t["seats"][0]["token"])
        for _ in range(12):
            s.send(type="ping")
        answers = [s.until(lambda m: m["type"] in ("pong", "error")) for _ in range(12)]
        assert [a["type"] for a in answers].count("pong") >= 4  # the burst of 5, less the hello
        assert any(a.get("reason") == "too many messages" for a in answers)


def test_one_table_abused_while_another_plays_on(sqlite_url: str) -> None:
    app = make_app(sqlite_url)
    with running(app) as client:
        _t, asha, _bina = two_people(client)
        seats = [{"kind": "human", "name": "Cleo"}, {"kind": "bot", "bot": "greedy"}]
        u = new_table(client, seats=seats, settings={"rounds": 1}, seed="calm")
        cleo = Sock(client, u["match_id"], "Cleo")
        cleo.hello(seat_token=u["seats"][0]["token"])
        junk = ["{", "[]", json.dumps({"type": "x" * 100}), "y" * 5000, json.dumps({"type": "throw"})]
        errors, acted = 0, -1
        while phase_of(cleo) != "over":
            for frame in junk:
                asha.send_text(frame)
            errors += len([m for m in asha.poll() if m["type"] == "error"])
            intent = scripted(cleo.view) if cleo.view is not None and cleo.version != acted else None
            if intent is not None:
                cleo.send(**intent)
                acted = cleo.version
            cleo.recv()
        assert errors > 0 and live_table(app, u["match_id"]).phase == "over"


@pytest.mark.parametrize(
    ("frame", "reason"),
    [
        ('{"type": "hello", "seat_token": "a", "watch_token": "b"}', "exactly one of"),
        ('{"type": "hello", "seat_token": 5}', "seat_token must be the token text"),
        ('{"type": "hello", "seat_token": "a", "last_version": -1}', "last_version must be a whole number"),
        ('{"type": "show", "card": "Kh", "groups": [["Kh", 1]]}', "a group's card must be card text"),
        ('{"type": "show", "card": "Kh", "groups": [[]]}', "each group is a list of cards"),
        ('{"type": "open", "melds": [[]]}', "each meld is a list of cards"),
        ('{"type": "open", "melds": "Ks Kh Kd"}', "melds must be a list of melds"),
        ('{"type": "lay_down", "cards": "9c 10c JK"}', "cards must be a list of cards"),
        ('{"type": "lay_off", "meld": -1, "cards": ["4h"]}', "meld must be the id of a meld"),
        ('{"type": "lay_off", "meld": true, "cards": ["4h"]}', "meld must be the id of a meld"),
        ('{"type": "swap", "meld": 3}', "missing field 'card' in swap"),
        ('{"type": "swap", "meld": 3, "card": "Zz"}', "unknown card"),
    ],
)
def test_message_schema(frame: str, reason: str) -> None:
    with pytest.raises(Refusal) as caught:
        parse_message(frame)
    assert reason in caught.value.reason


def test_message_schema_reads_the_table_familys_intents() -> None:
    msg = parse_message('{"type": "open", "melds": [["Ks", "Kh", "Kd"], ["5h", "6h", "7h"]]}')
    assert msg.action == Action.open(((12, 25, 38), (17, 18, 19)))
    msg = parse_message('{"type": "lay_off", "meld": 2, "cards": ["4h"], "version": 7}')
    assert (msg.action, msg.version) == (Action.lay_off(2, (16,)), 7)
    assert msg.describe() == "lay off 2 4h"  # the action's notation
    msg = parse_message('{"type": "swap", "meld": 3, "card": "Jc"}')
    assert msg.action == Action.swap(3, 49) and msg.describe() == "swap 3 Jc"
    assert parse_message('{"type": "put_back"}').action == Action.put_back()
    assert parse_message('{"type": "hint", "id": "h1"}').id == "h1"


def test_message_schema_reads_cards_in_any_spelling() -> None:
    msg = parse_message('{"type": "show", "card": "th", "groups": [["a♠", "2S", "3s"]], "id": 9}')
    assert msg.action == Action.show(22, ((0, 1, 2),)) and msg.id == 9
    assert msg.describe() == "show 10h: As 2s 3s [declared]"
