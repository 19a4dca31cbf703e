"""The server as an attacker would use it (issue 12): every count, length, size and nesting a
client sends is bounded before anything is built from it, bodies are capped before they are read,
the work anyone can ask for is bounded (tables, hints, PDFs, a table of bots), nobody lists
anyone else's matches or sheets, and every refusal says why (docs/protocol.md, "Limits")."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Msg, Sock, make_app, new_table, running
from starlette.testclient import TestClient
from test_server_serve import free_port

from rummykit.server.limits import RateLimiter, ServerLimits
from rummykit.server.protocol import Refusal, parse_message, whole_number
from rummykit.server.sheets import EDIT_HEADER

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
    assert set(body) == {"error", "expected", "got"}, body
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
        "table: 400 players=1000000000 is out of range for nepali: 2 to 6 seats",
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
        ({"seats": [{"kind": "bot"}] * 20}, "20 seats"),
        ({"seats": []}, "0 seats"),
        ({"seats": [{"kind": "human", "name": "x" * 5000}, {"kind": "bot"}]}, "printable characters"),
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


def test_a_rate_limiter_remembers_a_bounded_number_of_clients() -> None:
    limiter = RateLimiter((1.0, 1.0), kept=3)
    assert [limiter.take(f"c{i}", now=0.0) for i in range(5)] == [0.0] * 5
    assert len(limiter._buckets) == 3
    assert limiter.take("c4", now=0.0) == pytest.approx(1.0)  # one second until its next token
    assert limiter.take("c4", now=1.0) == 0.0


# ---- tables waiting for players: timed out, evicted for room --------------------------------


# ---- a table of bots only: bounded rounds, a floor on its pace -------------------------------


# ---- hints: one search per seat and version, in a pool of their own ---------------------------


# ---- PDFs: a bounded pool --------------------------------------------------------------------


# ---- listing: only what the caller's tokens open ----------------------------------------------
