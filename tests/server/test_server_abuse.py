"""The server as an attacker would use it (issue 12): every count, length, size and nesting a
client sends is bounded before anything is built from it, bodies are capped before they are read,
the work anyone can ask for is bounded (tables, hints, PDFs, a table of bots), nobody lists
anyone else's matches or sheets, and every refusal says why (docs/protocol.md, "Limits")."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Msg, Sock, drive, live_table, make_app, new_table, phase_of, running, scripted
from starlette.testclient import TestClient
from test_server_serve import free_port

from rummykit.server import hub as hub_module
from rummykit.server import sheets as sheets_module
from rummykit.server.limits import RateLimiter, ServerLimits
from rummykit.server.protocol import Refusal, parse_message, whole_number
from rummykit.server.sheets import EDIT_HEADER, EDIT_TOKENS_HEADER, SHARE_TOKENS_HEADER

Db = tuple[str, dict[str, str] | None]
HUMAN_AND_BOT = [{"kind": "human", "name": "Asha"}, {"kind": "bot", "bot": "greedy"}]
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def eventually(cond: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    """Wait for ``cond`` (a condition the server reaches by itself), failing after ``timeout``."""
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, f"never: {what}"
        time.sleep(0.02)


def refusal(r: Any, status: int) -> Msg:
    assert r.status_code == status, r.text
    body: Msg = r.json()
    assert {"error", "expected", "got"} <= set(body) <= {"error", "expected", "got", "problems"}, body
    return body


# ---- counts before building: the billion players --------------------------------------------

BILLION = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))  # a billion names would need far more
from starlette.testclient import TestClient
from rummykit.engine.match import Match, MatchError
from rummykit.engine.rules import get_preset
from rummykit.server import create_app
try:
    Match.new(get_preset("pool101"), 10**9)
except MatchError as e:
    print("engine:", e)
with TestClient(create_app(sys.argv[1]), raise_server_exceptions=False) as client:
    r = client.post("/api/sheets", json={"preset": "pool101", "players": 10**9})
    print("sheet:", r.status_code, r.json()["error"])
    r = client.post("/api/tables", json={"settings": {"players": 10**9}})
    print("table:", r.status_code, r.json()["error"])
"""


def test_a_billion_players_is_refused_before_a_name_is_made(tmp_path: Path) -> None:
    # In a process whose memory is capped, so the defect fails the test instead of the machine.
    got = subprocess.run(
        [sys.executable, "-c", BILLION, f"sqlite:///{tmp_path / 'b.db'}"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert got.returncode == 0, got.stderr[-2000:]
    assert got.stdout.splitlines() == [
        "engine: a match has 2 to 8 players, not 1000000000",
        "sheet: 400 a match has 2 to 8 players, not 1000000000",
        "table: 400 Nepali rummy seats 2 to 6 players; you asked for 1000000000",
    ]


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with running(make_app(sqlite_url)) as c:
        yield c


def make_sheet(client: TestClient, **body: Any) -> Msg:
    r = client.post(
        "/api/sheets", json={"preset": "pool101", "players": ["Asha", "Bikash", "Chandra"], **body}
    )
    assert r.status_code == 201, r.text
    made: Msg = r.json()
    return made


@pytest.mark.parametrize(
    ("body", "words"),
    [
        # counted before anything is built, and said in players' words
        ({"seats": [{"kind": "bot"}] * 20}, "Nepali rummy seats 2 to 6 players; you asked for 20"),
        ({"seats": []}, "Nepali rummy seats 2 to 6 players; you asked for 0"),
        ({"preset": "pool250", "seats": [{"kind": "bot"}] * 20}, "20 seats"),  # an alias: the plain count
        ({"seats": [{"kind": "human", "name": "x" * 5000}, {"kind": "bot"}]}, "printable characters"),
        ({"settings": {"rounds": 51}}, "rounds=51 is more than this server plays"),
        ({"settings": {"rounds": 1000}}, "rounds=1000 is more than this server plays"),
        ({"preset": "indian", "settings": {"rounds": None}}, "rounds=none is more than this server plays"),
    ],
)
def test_a_table_asking_too_much_is_refused_with_the_reason(
    client: TestClient, body: Msg, words: str
) -> None:
    assert words in refusal(client.post("/api/tables", json=body), 400)["error"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"players": 9}, "a match has 2 to 8 players, not 9"),
        ({"players": -1}, "a match has 2 to 8 players, not -1"),
        ({"players": ["p"] * 2000}, "a match has 2 to 8 players, not 2000"),
        ({"players": ",".join(["p"] * 3000)}, "the list of names is too long"),
        ({"players": ["Asha", "x" * 41]}, "is too long"),
        ({"players": ["Asha", "Bina"], "dealer": "x" * 500}, "dealer is a player's name"),
        ({"players": ["Asha", "Bina"], "dealer": "²"}, "no player '²'"),  # not int("²"): a 500
    ],
)
def test_a_sheet_asking_too_much_is_refused_with_the_reason(
    client: TestClient, body: Msg, words: str
) -> None:
    got = refusal(client.post("/api/sheets", json={"preset": "pool101", **body}), 400)
    assert words in got["error"]


@pytest.mark.parametrize(
    ("entries", "words"),
    [
        (["W", "2", "3", "4", "5", "6", "7", "8", "9"], "9 entries"),
        (["W", "2", "3" * 40], "an entry is too long"),
        ("W " * 500, "the line of entries is too long"),
    ],
)
def test_a_deal_entry_too_big_is_refused_before_it_is_split(
    client: TestClient, entries: Any, words: str
) -> None:
    made = make_sheet(client)
    r = client.post(
        f"/api/sheets/{made['id']}/deals",
        json={"entries": entries},
        headers={EDIT_HEADER: made["edit_token"]},
    )
    assert words in refusal(r, 400)["error"]


def test_a_sheet_holds_at_most_max_sheet_deals(sqlite_url: str) -> None:
    with running(make_app(sqlite_url, limits=ServerLimits.lifted(max_sheet_deals=3))) as client:
        made = make_sheet(client, preset="nepali", players=["Asha", "Bikash"], settings={"rounds": 10})
        auth = {EDIT_HEADER: made["edit_token"]}
        for _ in range(3):
            assert client.post(
                f"/api/sheets/{made['id']}/deals", json={"entries": "W 10"}, headers=auth
            ).is_success
        r = client.post(f"/api/sheets/{made['id']}/deals", json={"entries": "W 10"}, headers=auth)
        got = refusal(r, 400)
        assert got["error"] == "this sheet is full: 3 deals" and got["got"] == "deal 4"
        assert client.get(f"/api/sheets/{made['id']}").json()["deals"] == 3


# ---- bodies: capped before they are read ------------------------------------------------------


def test_a_body_is_refused_on_its_content_length_and_a_chunked_one_as_it_grows(sqlite_url: str) -> None:
    with running(make_app(sqlite_url, limits=ServerLimits.lifted(max_body=100))) as client:
        for path in ("/api/tables", "/api/sheets"):
            got = refusal(client.post(path, content=b" " * 101), 413)
            assert got["error"] == "the body is 101 bytes" and got["expected"] == "at most 100 bytes"

            def chunks() -> Iterator[bytes]:  # no Content-Length: sent chunked
                for _ in range(10):
                    yield b" " * 30

            got = refusal(client.post(path, content=chunks()), 413)
            assert got["error"] == "the body is more than 100 bytes"
            got = refusal(client.post(path, content=b"{}", headers={"content-length": "two"}), 400)
            assert got["error"] == "Content-Length is not a number"
        made = make_sheet(client, players=["A", "B"])
        r = client.post(
            f"/api/sheets/{made['id']}/deals", content=b" " * 200, headers={EDIT_HEADER: made["edit_token"]}
        )
        assert refusal(r, 413)["expected"] == "at most 100 bytes"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """``rummykit serve`` for real (uvicorn): the body limits must hold before the body arrives."""
    port = free_port()
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "rummykit", "serve", "--port", str(port)),
            *("--db", f"sqlite:///{tmp_path / 'serve.db'}", "--limit", "sheet_rate=off"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert "the table is at" in proc.stdout.readline(), proc.stderr
        eventually(lambda: _answers("127.0.0.1", port), "rummykit serve answers")
        yield "127.0.0.1", port
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def _first_answer(where: tuple[str, int], *parts: bytes) -> bytes:
    """Send ``parts`` and read the answer without ever finishing the body: a server that waits
    for the whole body never answers (and the read times out)."""
    with socket.create_connection(where, timeout=10) as s:
        for part in parts:
            s.sendall(part)
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer.partition(b"\r\n\r\n")[2]) < _length(answer):
            got = s.recv(65536)
            if not got:
                break
            answer += got
        return answer


def _length(answer: bytes) -> int:
    for line in answer.partition(b"\r\n\r\n")[0].split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


@pytest.mark.parametrize("path", ["/api/tables", "/api/sheets"])
def test_a_real_server_refuses_a_huge_body_before_it_arrives(served: tuple[str, int], path: str) -> None:
    head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n".encode()
    answer = _first_answer(served, head + b"Content-Length: 1000000000\r\n\r\n", b"{")
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"the body is 1000000000 bytes" in answer
    # chunked, no length: refused once more than 16 KiB have come, the rest never read
    chunk = b"400\r\n" + b" " * 1024 + b"\r\n"
    answer = _first_answer(served, head + b"Transfer-Encoding: chunked\r\n\r\n", chunk * 20)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"the body is more than 16384 bytes" in answer


def test_json_nesting_is_bounded(client: TestClient) -> None:
    deep: Any = "x"
    for _ in range(20):
        deep = [deep]
    for path in ("/api/tables", "/api/sheets"):
        got = refusal(client.post(path, json={"settings": {"rounds": deep}}), 400)
        assert got["error"] == "the body nests more than 8 levels deep"
        got = refusal(client.post(path, content=b"[" * 2000 + b"]" * 2000), 400)  # past orjson's own
        assert got["error"] == "the body nests more than 8 levels deep"
    with pytest.raises(Refusal) as caught:
        parse_message(json.dumps({"type": "show", "card": "Kh", "groups": [[[["Kh"]]]], "id": 4}))
    assert caught.value.reason == "the message nests more than 4 levels deep" and caught.value.msg_id == 4


# ---- one strict parser for ids and numbers in paths -----------------------------------------


def test_unicode_digits_and_letters_in_paths_are_refused_not_crashed_on(client: TestClient) -> None:
    t = new_table(client, seats=HUMAN_AND_BOT)
    mid = t["match_id"]
    for n in ("²", "١", "٣", "1_0", "+1", " 1", "01x"):
        r = client.get(f"/api/matches/{mid}/deals/{n}/history")
        assert refusal(r, 400)["error"] == "deals are counted from 1", n
    for path in (f"/api/matches/{mid[:-1]}²", f"/api/tables/{mid[:-1]}é", "/api/sheets/abc²", "/api/s/abc²"):
        refusal(client.get(path), 404)
    for path in ("/api/matches", "/api/sheets"):
        for limit in ("٥", "²", "5 ", "-1", "0", "501"):
            assert (
                "limit is a whole number" in refusal(client.get(path, params={"limit": limit}), 400)["error"]
            )
    assert whole_number("42", 1, 50) == 42 and whole_number("٤٢", 1, 50) is None
    s = Sock(client, f"{mid[:-1]}²")
    assert s.recv()["reason"].startswith("no match")
    assert s.recv()["code"] == 4404


def test_a_rejoin_naming_a_seat_in_another_script_is_refused_in_words(client: TestClient) -> None:
    made = make_sheet(client)
    r = client.post(
        f"/api/sheets/{made['id']}/rejoin", json={"player": "²"}, headers={EDIT_HEADER: made["edit_token"]}
    )
    assert "no player '²'" in refusal(r, 400)["error"]


# ---- WebSocket: ids on every error, and a rate before hello --------------------------------


@pytest.mark.parametrize(
    ("frame", "reason"),
    [
        ({"type": "thorw", "card": "Kh", "id": "c7"}, "unknown message type"),
        ({"type": "throw", "id": "c7"}, "missing field 'card'"),
        ({"type": "throw", "card": "Xz", "id": "c7"}, "unknown card"),
        ({"type": "draw", "from": "stock", "pad": 1, "id": "c7"}, "unknown field 'pad'"),
        ({"type": "draw", "from": "deck", "id": "c7"}, "draw from 'deck'?"),
        ({"type": "drop", "version": "new", "id": "c7"}, "version must be a whole number"),
        ({"type": "show", "card": "Kh", "groups": [[[[["Kh"]]]]], "id": "c7"}, "the message nests"),
    ],
)
def test_every_error_carries_the_messages_id(client: TestClient, frame: Msg, reason: str) -> None:
    t = new_table(client, seats=HUMAN_AND_BOT)
    s = Sock(client, t["match_id"])
    # before hello: a hello that does not parse, and any other message
    s.send(type="hello", id="h1")
    error = s.recv()
    assert error["reason"].startswith("hello needs exactly one") and error["id"] == "h1"
    s.send_text(json.dumps(frame))
    error = s.recv()
    assert error["type"] == "error" and error["id"] == "c7", error
    s.hello(seat_token=t["seats"][0]["token"])
    s.send_text(json.dumps(frame))
    error = s.until(lambda m: m["type"] == "error")
    assert error["reason"].startswith(reason) and error["id"] == "c7", error


def test_messages_before_hello_are_rate_limited_too(sqlite_url: str) -> None:
    with running(make_app(sqlite_url, message_rate=(3.0, 0.001))) as client:
        t = new_table(client, seats=HUMAN_AND_BOT)
        s = Sock(client, t["match_id"])
        for i in range(6):
            s.send(type="draw", **{"from": "stock"}, id=i)
        answers = [s.recv() for _ in range(6)]
        assert [a["reason"] for a in answers[:3]] == [
            "expected hello first (the connection is CONNECTING)"
        ] * 3
        assert [a["reason"] for a in answers[3:]] == ["too many messages"] * 3
        assert [a["id"] for a in answers] == list(range(6))  # each error answers its own message


def test_one_client_holds_a_bounded_number_of_sockets(sqlite_url: str) -> None:
    with running(make_app(sqlite_url, limits=ServerLimits.lifted(sockets_per_client=2))) as client:
        t = new_table(client, seats=HUMAN_AND_BOT)
        first, _second = Sock(client, t["match_id"]), Sock(client, t["match_id"])
        third = Sock(client, t["match_id"])
        error = third.recv()
        assert (
            error["reason"] == "too many connections from your address" and "at most 2" in error["expected"]
        )
        assert third.recv() == {"type": "closed", "code": 1013}
        first.close()
        eventually(lambda: not client.app.state.hub._sockets.get("testclient", 0) > 1, "the socket is let go")  # type: ignore[attr-defined]
        assert Sock(client, t["match_id"]).hello(seat_token=t["seats"][0]["token"])["type"] in (
            "update",
            "state",
        )


# ---- creation limits per client --------------------------------------------------------------


def test_new_tables_and_sheets_are_limited_per_client(sqlite_url: str) -> None:
    limits = ServerLimits.lifted(table_rate=(2.0, 0.0001), sheet_rate=(2.0, 0.0001))
    with running(make_app(sqlite_url, limits=limits)) as client:
        for path, body, what in (
            ("/api/tables", {"seats": HUMAN_AND_BOT}, "tables"),
            ("/api/sheets", {"preset": "pool101", "players": ["A", "B"]}, "sheets"),
        ):
            assert [client.post(path, json=body).status_code for _ in range(2)] == [201, 201]
            r = client.post(path, json=body)
            assert refusal(r, 429)["error"] == f"too many new {what} from your address"
            assert int(r.headers["retry-after"]) >= 1
            # a proxy header is not trusted unless the server is told to
            assert client.post(path, json=body, headers={"x-forwarded-for": "10.0.0.9"}).status_code == 429
    limits = ServerLimits.lifted(table_rate=(1.0, 0.0001), client_header="x-forwarded-for")
    with running(make_app(sqlite_url, limits=limits)) as client:
        via = {"x-forwarded-for": "203.0.113.9, 10.0.0.1"}  # the proxy saw 10.0.0.1
        assert client.post("/api/tables", json={"seats": HUMAN_AND_BOT}, headers=via).status_code == 201
        assert client.post("/api/tables", json={"seats": HUMAN_AND_BOT}, headers=via).status_code == 429
        other = {"x-forwarded-for": "203.0.113.9, 10.0.0.2"}
        assert client.post("/api/tables", json={"seats": HUMAN_AND_BOT}, headers=other).status_code == 201


def test_a_rate_limiter_remembers_a_bounded_number_of_clients() -> None:
    limiter = RateLimiter((1.0, 1.0), kept=3)
    assert [limiter.take(f"c{i}", now=0.0) for i in range(5)] == [0.0] * 5
    assert len(limiter._buckets) == 3
    assert limiter.take("c4", now=0.0) == pytest.approx(1.0)  # one second until its next token
    assert limiter.take("c4", now=1.0) == 0.0


# ---- tables waiting for players: timed out, evicted for room --------------------------------


def status_of(client: TestClient, match_id: str) -> str:
    row = client.app.state.store.match(match_id)  # type: ignore[attr-defined]
    return str(row.status)


def test_a_table_nobody_opens_is_closed_and_its_link_says_so(sqlite_url: str) -> None:
    app = make_app(sqlite_url, limits=ServerLimits.lifted(waiting_timeout=0.3))
    with running(app) as client:
        t = new_table(client, seats=HUMAN_AND_BOT)
        mid, token = t["match_id"], t["seats"][0]["token"]
        eventually(lambda: status_of(client, mid) == "evicted", "the waiting table is closed")
        assert mid not in app.state.hub.tables
        got = refusal(client.get(f"/api/tables/{mid}", params={"seat_token": token}), 410)
        assert (
            got["error"]
            == "this table was closed after waiting 0.3 seconds for its players with nobody at it"
        )
        assert got["expected"] == "a new table from the lobby"
        refusal(client.get(f"/api/matches/{mid}"), 410)
        s = Sock(client, mid)
        assert s.recv()["reason"] == got["error"]
        assert s.recv() == {"type": "closed", "code": 4410}
        listed = client.get("/api/matches", headers={"X-Tokens": token}).json()["matches"]
        assert [(m["match_id"], m["status"]) for m in listed] == [(mid, "evicted")]
    with running(make_app(sqlite_url)) as client:  # a restart does not bring it back
        assert mid not in client.app.state.hub.tables  # type: ignore[attr-defined]
        refusal(client.get(f"/api/tables/{mid}", params={"seat_token": token}), 410)


def test_a_waiting_table_with_someone_at_it_is_not_closed(sqlite_url: str) -> None:
    app = make_app(sqlite_url, limits=ServerLimits.lifted(waiting_timeout=0.3))
    with running(app) as client:
        seats = [{"kind": "human", "name": "Asha"}, {"kind": "human", "name": "Bina"}]
        t = new_table(client, seats=seats)
        mid = t["match_id"]
        asha = Sock(client, mid, "Asha")
        asha.hello(seat_token=t["seats"][0]["token"])
        time.sleep(1.0)  # more than three time-outs with Asha at the table
        assert mid in app.state.hub.tables and status_of(client, mid) == "playing"
        assert phase_of(asha) == "waiting"  # for Bina
        asha.close()  # now nobody is at it: its time-out starts
        eventually(lambda: status_of(client, mid) == "evicted", "the table is closed once Asha left")


def test_room_is_made_from_idle_waiting_tables_and_bots_never_a_human_game(sqlite_url: str) -> None:
    limits = ServerLimits.lifted(max_tables=3, max_waiting=2)
    app = make_app(sqlite_url, limits=limits)
    slow = {"bot_pace": 30}
    two = [{"kind": "human", "name": "Asha"}, {"kind": "human", "name": "Bina"}]  # waits for Bina
    with running(app) as client:
        hub = app.state.hub
        idle = new_table(client, seats=two)["match_id"]
        kept = new_table(client, seats=two)
        Sock(client, kept["match_id"]).hello(seat_token=kept["seats"][0]["token"])
        third = new_table(client, seats=two)  # two waiting already: the idle one goes
        assert status_of(client, idle) == "evicted" and idle not in hub.tables
        assert kept["match_id"] in hub.tables and third["match_id"] in hub.tables
        Sock(client, third["match_id"]).hello(seat_token=third["seats"][0]["token"])
        # two waiting tables, each with a person at it: no room for a third
        r = client.post("/api/tables", json={"seats": two})
        got = refusal(r, 503)
        assert got["error"] == "the server is full: 2 tables waiting for their players are open"
        assert r.headers["retry-after"] == "60"
        # a table of bots only does not wait; the third of three, the limit
        bots = new_table(client, seats=BOTS, options=slow)["match_id"]
        more = new_table(client, seats=BOTS, options=slow)  # full: the oldest bots' table goes
        assert status_of(client, bots) == "evicted" and more["match_id"] in hub.tables
        Sock(client, more["match_id"]).hello(watch_token=more["watch_token"])  # now watched
        r = client.post("/api/tables", json={"seats": BOTS, "options": slow})
        assert refusal(r, 503)["error"] == "the server is full: 3 tables are open"
        # the games with people at them were never touched
        for t in (kept, third):
            assert status_of(client, t["match_id"]) == "playing" and t["match_id"] in hub.tables


def test_a_table_everyone_left_long_ago_makes_room_one_with_a_person_never(sqlite_url: str) -> None:
    app = make_app(sqlite_url, limits=ServerLimits.lifted(max_tables=1, waiting_timeout=0.5))
    with running(app) as client:
        t = new_table(client, seats=HUMAN_AND_BOT)
        asha = Sock(client, t["match_id"], "Asha")
        asha.hello(seat_token=t["seats"][0]["token"])
        asha.wait(lambda: phase_of(asha) == "playing")
        time.sleep(1.0)  # past the time-out, with Asha at the table: no room
        assert refusal(client.post("/api/tables", json={"seats": HUMAN_AND_BOT}), 503)
        asha.close()  # she leaves; her away turns wait (away_time 30 s) and nobody comes back
        codes: list[int] = []
        eventually(
            lambda: (
                codes.append(client.post("/api/tables", json={"seats": HUMAN_AND_BOT}).status_code)
                or codes[-1] == 201
            ),
            "the table everyone left makes room",
        )
        assert status_of(client, t["match_id"]) == "evicted"
        got = refusal(
            client.get(f"/api/tables/{t['match_id']}", params={"seat_token": t["seats"][0]["token"]}), 410
        )
        assert got["error"] == (
            "this table was closed to make room for a new table: "
            "everyone had left it more than 0.5 seconds before"
        )


# ---- a table of bots only: bounded rounds, a floor on its pace -------------------------------


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"settings": {"rounds": 11}}, "a table of bots only plays at most 10 rounds"),
        ({"options": {"bot_pace": 0}}, "a table of bots only moves at most once every 0.5 seconds"),
        ({"options": {"bot_pace": 0.2}}, "a table of bots only moves at most once every 0.5 seconds"),
        ({"preset": "pool101", "settings": {"pool_out": 5001}}, "its preset's pool_out (101) or less"),
    ],
)
def test_a_table_of_bots_only_asks_a_bounded_match(sqlite_url: str, body: Msg, words: str) -> None:
    with running(make_app(sqlite_url, limits=ServerLimits(table_rate=None))) as client:
        got = refusal(client.post("/api/tables", json={"seats": BOTS, **body}), 400)
        assert got["error"] == words or words in got["error"], got
        # with a person at the table the same match is fine
        assert client.post("/api/tables", json={"seats": HUMAN_AND_BOT, **body}).status_code == 201


def test_a_table_of_bots_only_gets_the_minimum_pace_by_default(sqlite_url: str) -> None:
    with running(make_app(sqlite_url, limits=ServerLimits(table_rate=None))) as client:
        bots = new_table(client, seats=BOTS)  # the server's default pace here is 0 (tests)
        assert live_table(client.app, bots["match_id"]).options.bot_pace == 0.5  # type: ignore[arg-type]
        people = new_table(client, seats=HUMAN_AND_BOT)
        assert live_table(client.app, people["match_id"]).options.bot_pace == 0.0  # type: ignore[arg-type]


def test_a_table_nobody_is_connected_to_moves_no_faster_than_the_floor(sqlite_url: str) -> None:
    # A floor of 1000 s: while Asha is away nothing moves (the table would otherwise play her
    # turns at once, away_time 0, and the bot's at pace 0); back at the table, it plays on.
    limits = ServerLimits.lifted(bot_min_pace=1000.0)
    app = make_app(sqlite_url, limits=limits, away_time=0.0, away_turns=1000)
    with running(app) as client:
        t = new_table(client, seats=HUMAN_AND_BOT, settings={"rounds": 1}, seed="floor")
        mid, token = t["match_id"], t["seats"][0]["token"]
        asha = Sock(client, mid, "Asha")
        asha.hello(seat_token=token)
        asha.wait(lambda: phase_of(asha) == "playing")
        asha.close()
        table = live_table(app, mid)
        eventually(lambda: not table.connected[0], "Asha is away")
        before = table.version
        time.sleep(1.0)  # at pace 0 the whole deal would be played in this second
        # (a bot's move already under way when she left may land)
        assert table.version <= before + 1, "the table played on while nobody was at it"
        asha = Sock(client, mid, "Asha")
        asha.hello(seat_token=token)
        drive([asha], lambda: table.version > before + 6 or phase_of(asha) != "playing")  # at once again
        assert table.version > before + 6


# ---- hints: one search per seat and version, in a pool of their own ---------------------------


def test_a_hint_flood_runs_one_search_a_version_and_another_table_plays_on(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    searches: list[int] = []
    real = hub_module.hint

    def counted(view: Any, **kwargs: Any) -> Any:
        searches.append(view.seat)
        return real(view, **kwargs)

    monkeypatch.setattr(hub_module, "hint", counted)
    app = make_app(sqlite_url)
    with running(app) as client:
        a = new_table(client, seats=HUMAN_AND_BOT, seed="flood-1", options={"hints": True})
        asha = Sock(client, a["match_id"], "Asha")
        asha.hello(seat_token=a["seats"][0]["token"])
        asha.wait(lambda: asha.view is not None and asha.view["legal"] is not None)
        b = new_table(
            client,
            seats=[{"kind": "human", "name": "Cleo"}, {"kind": "bot", "bot": "greedy"}],
            settings={"rounds": 1},
            seed="calm",
        )
        cleo = Sock(client, b["match_id"], "Cleo")
        cleo.hello(seat_token=b["seats"][0]["token"])
        # Asha floods hints at one version while Cleo plays her whole match
        flood = 200
        for i in range(flood):
            asha.send(type="hint", id=f"h{i}")
        sent: list[str] = []
        answered: list[str] = []
        while phase_of(cleo) != "over":
            cleo.wait(
                lambda: (
                    phase_of(cleo) == "over" or (cleo.view is not None and scripted(cleo.view) is not None)
                )
            )
            if phase_of(cleo) == "over":
                break
            intent = scripted(cleo.view)  # type: ignore[arg-type]
            assert intent is not None
            mid = f"c{len(sent)}"
            sent.append(mid)
            cleo.send(**intent, id=mid)
            answer = cleo.until(lambda m, mid=mid: m.get("id") == mid)  # type: ignore[misc]
            assert answer["type"] == "update", answer  # nothing refused
            answered.append(answer["id"])
        assert answered == sent and len(sent) > 5  # every move answered, in order
        hints = [asha.until(lambda m: m["type"] in ("hint", "error")) for _ in range(flood)]
        assert [h["type"] for h in hints] == ["hint"] * flood
        assert [h["id"] for h in hints] == [f"h{i}" for i in range(flood)]
        assert len({json.dumps(h["action"]) for h in hints}) == 1  # the same hint, worked out once
        assert searches == [0]
        assert app.state.hub.counts["hint_searches"] == 1
        # a new version is a new question: one more search
        intent = scripted(asha.view)  # type: ignore[arg-type]
        assert intent is not None and intent["type"] == "draw"
        asha.send(**intent, version=asha.version)
        asha.wait(lambda: asha.view is not None and asha.view["deal"]["phase"] == "throw")
        asha.send(type="hint", id="again")
        assert asha.until(lambda m: m.get("id") == "again")["type"] == "hint"
        assert searches == [0, 0]


def test_hints_beyond_the_queue_are_refused_as_busy(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    real = hub_module.hint

    def slow(view: Any, **kwargs: Any) -> Any:
        release.wait(20)
        return real(view, **kwargs)

    monkeypatch.setattr(hub_module, "hint", slow)
    app = make_app(sqlite_url, limits=ServerLimits.lifted(hint_workers=1, hint_queue=0))
    with running(app) as client:
        socks = []
        for seed in ("q1", "q2"):
            t = new_table(client, seats=HUMAN_AND_BOT, seed=seed, options={"hints": True})
            s = Sock(client, t["match_id"])
            s.hello(seat_token=t["seats"][0]["token"])
            s.wait(lambda s=s: s.view is not None and s.view["legal"] is not None)  # type: ignore[misc]
            socks.append(s)
        socks[0].send(type="hint", id="first")
        eventually(lambda: app.state.hub._hints_pending == 1, "the first hint is being worked out")
        socks[1].send(type="hint", id="second")
        busy = socks[1].until(lambda m: m.get("id") == "second")
        assert busy["type"] == "error" and busy["reason"] == "the hints are busy: ask again in a moment"
        release.set()
        assert socks[0].until(lambda m: m.get("id") == "first")["type"] == "hint"
        socks[1].send(type="hint", id="third")
        assert socks[1].until(lambda m: m.get("id") == "third")["type"] == "hint"


# ---- PDFs: a bounded pool --------------------------------------------------------------------


def test_pdfs_beyond_the_queue_are_refused_as_busy(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    release, started = threading.Event(), threading.Event()
    real = sheets_module.sheet_pdf

    def slow(*args: Any, **kwargs: Any) -> bytes:
        started.set()
        release.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(sheets_module, "sheet_pdf", slow)
    with running(make_app(sqlite_url, limits=ServerLimits.lifted(pdf_workers=1, pdf_queue=0))) as client:
        made = make_sheet(client)
        path = f"/sheets/{made['id']}.pdf"
        answers: list[int] = []
        first = threading.Thread(target=lambda: answers.append(client.get(path).status_code))
        first.start()
        assert started.wait(20)  # one PDF is being made: the only one at a time here
        r = client.get(path)
        assert refusal(r, 503)["error"] == "too many PDFs at once: try again in a moment"
        assert r.headers["retry-after"] == "2"
        release.set()
        first.join(30)
        assert answers == [200]
        assert client.get(path).status_code == 200


def test_a_sheets_replay_never_runs_on_the_event_loop(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every change replays the whole sheet (tens of milliseconds at a few hundred deals): on the
    # event loop that would stall every table while a client floods one sheet with requests.
    threads: list[str] = []
    for name in ("read_document", "sheet_json", "sheet_document", "sheet_html"):
        real = getattr(sheets_module, name)

        def spy(*args: Any, real: Any = real, **kwargs: Any) -> Any:
            threads.append(threading.current_thread().name)
            return real(*args, **kwargs)

        monkeypatch.setattr(sheets_module, name, spy)
    with running(make_app(sqlite_url)) as client:
        made = make_sheet(client)
        auth = {EDIT_HEADER: made["edit_token"]}
        share = made["sheet"]["links"]["share"]
        client.post(f"/api/sheets/{made['id']}/deals", json={"entries": "W 10 20"}, headers=auth)
        for path in (
            f"/api/sheets/{made['id']}",
            f"/api{share}",
            f"{share}/print",
            f"/sheets/{made['id']}/print",
        ):
            assert client.get(path).status_code == 200, path
        client.get("/api/sheets", headers={EDIT_TOKENS_HEADER: made["edit_token"]})
        client.delete(f"/api/sheets/{made['id']}/deals/last", headers=auth)
    assert len(threads) > 10 and all(name.startswith("rummykit-sheet") for name in threads), threads


# ---- listing: only what the caller's tokens open ----------------------------------------------


def test_the_matches_listed_are_those_the_tokens_open(any_db: Db) -> None:
    with running(make_app(*any_db)) as client:
        mine = new_table(client, seats=HUMAN_AND_BOT, title="mine")
        theirs = new_table(client, seats=HUMAN_AND_BOT, title="theirs")
        assert client.get("/api/matches").json()["matches"] == []  # no token: nothing
        listed = client.get("/api/matches", headers={"X-Tokens": mine["seats"][0]["token"]}).json()["matches"]
        assert [m["title"] for m in listed] == ["mine"]
        both = f"{mine['watch_token']}, {theirs['seats'][0]['token']}"  # a watch token opens it too
        listed = client.get("/api/matches", headers={"X-Tokens": both}).json()["matches"]
        assert sorted(m["title"] for m in listed) == ["mine", "theirs"]
        assert client.get("/api/matches", headers={"X-Tokens": "guess"}).json()["matches"] == []
        r = client.get("/api/matches", headers={"X-Tokens": " ".join(f"t{i}" for i in range(101))})
        assert refusal(r, 400)["expected"] == "at most 100 tokens"
        r = client.get("/api/matches", headers={"X-Tokens": mine["watch_token"]})
        assert r.headers["cache-control"] == "no-store"


def test_the_sheets_listed_are_those_the_tokens_open_and_share_links_stay_secret(any_db: Db) -> None:
    with running(make_app(*any_db)) as client:
        mine = make_sheet(client, title="mine")
        theirs = make_sheet(client, title="theirs")
        assert client.get("/api/sheets").json()["sheets"] == []
        listed = client.get("/api/sheets", headers={EDIT_TOKENS_HEADER: mine["edit_token"]}).json()["sheets"]
        assert [(s["title"], s["can_edit"]) for s in listed] == [("mine", True)]
        assert listed[0]["share"] == mine["sheet"]["links"]["share"]
        dumped = json.dumps(listed)
        assert theirs["sheet"]["links"]["share"] not in dumped and theirs["id"] not in dumped
        # a share link opened on this device lists that sheet read-only
        share = theirs["sheet"]["links"]["share"].removeprefix("/s/")
        headers = {EDIT_TOKENS_HEADER: mine["edit_token"], SHARE_TOKENS_HEADER: share}
        listed = client.get("/api/sheets", headers=headers).json()["sheets"]
        assert sorted((s["title"], s["can_edit"]) for s in listed) == [("mine", True), ("theirs", False)]
        # an edit token passed as a share token opens nothing (and the other way round)
        wrong = {SHARE_TOKENS_HEADER: mine["edit_token"], EDIT_TOKENS_HEADER: share}
        assert client.get("/api/sheets", headers=wrong).json()["sheets"] == []


# ---- shutting down -------------------------------------------------------------------------


def test_a_tables_driver_ends_when_cancelled_as_the_table_wakes(sqlite_url: str) -> None:
    # The server's stop cancels every driver while the sockets it closes wake their tables.
    # With asyncio.wait_for (Python 3.11) a cancel arriving as the wake is set was swallowed:
    # the driver went on waiting and the shutdown waited for it forever.
    app = make_app(sqlite_url)
    with running(app) as client:
        t = new_table(client, seats=HUMAN_AND_BOT, seed="flood-1", options={"turn_time": 600})
        asha = Sock(client, t["match_id"], "Asha")
        asha.hello(seat_token=t["seats"][0]["token"])
        asha.wait(lambda: asha.view is not None and asha.view["legal"] is not None)
        live = app.state.hub.tables[t["match_id"]]  # waiting 600 s for Asha's clock

        async def cancel_as_it_wakes() -> bool:
            driver = live.driver
            assert driver is not None
            await asyncio.sleep(0.1)  # settled in its wait
            live.wake.set()
            driver.cancel()
            done, _ = await asyncio.wait({driver}, timeout=30)
            return driver in done

        assert client.portal.call(cancel_as_it_wakes)
