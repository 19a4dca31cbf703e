"""Two ``rummykit serve --redis`` processes on one PostgreSQL and the machine's Redis, through the
real protocol (HTTP and WebSocket clients on real sockets): a socket reaching the server that
does not hold its table is relayed to the one that does, each seat still getting only its own
view; the holder killed with SIGKILL mid-deal, the other server takes the table over, the client
reconnects and plays on, and the action log holds every acknowledged move exactly once."""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from server_helpers import scripted
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from rummykit.storage import Store

pytestmark = pytest.mark.xdist_group("cluster")

Msg = dict[str, Any]
PORTS = range(18100, 18200)  # this suite's ports on the shared machine


def free_port() -> int:
    start = secrets.randbelow(len(PORTS))
    for i in range(len(PORTS)):
        port = PORTS[(start + i) % len(PORTS)]
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("no free port in 18100-18199")


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(f"http://{base}{path}", timeout=10) as r:
        return json.loads(r.read())


def post(base: str, path: str, body: Any) -> Any:
    req = urllib.request.Request(
        f"http://{base}{path}", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def wait_for(cond: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, f"{what}: not within {timeout} s"
        time.sleep(0.05)


class Server:
    """One ``rummykit serve`` of the cluster, on a port of its own."""

    def __init__(self, db: str, redis: str, cluster: str, log: Path, *extra: str) -> None:
        self.cluster, self.redis = cluster, redis
        self.port = free_port()
        self.base = f"127.0.0.1:{self.port}"
        self.log = log.open("w")
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "rummykit", "serve", "--port", str(self.port)),
                *("--db", db, "--redis", redis, "--cluster-name", cluster, "--bot-pace", "0"),
                *("--limit", "table_rate=off", "--limit", "bot_min_pace=0", *extra),
            ],
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env={**os.environ, "RUMMYKIT_LOG_LEVEL": "INFO"},  # the log tells a failure's story
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line.startswith(f"rummykit: the table is at http://{self.base}/"), log.read_text()
        wait_for(self._answers, f"the server on {self.base}")

    def _answers(self) -> bool:
        try:
            self.health()
        except OSError:
            return False
        return True

    def health(self) -> Msg:
        data: Msg = get(self.base, "/api/health")
        return data

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


@pytest.fixture
def cluster(shared_pg: str, redis_url: str, tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start servers of one cluster (its own name in Redis) on the shared database."""
    name = "rk-test-" + secrets.token_hex(4)
    started: list[Server] = []

    def start(*extra: str) -> Server:
        server = Server(shared_pg, redis_url, name, tmp_path / f"server{len(started)}.log", *extra)
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            server.stop()
        import redis

        r = redis.Redis.from_url(redis_url)
        keys = list(r.scan_iter(f"{name}:*"))
        if keys:
            r.delete(*keys)


class Client:
    """One seat's WebSocket, every message kept; a close is ``{"type": "closed", "code": ...}``."""

    def __init__(self, base: str, match_id: str, token: str, last_version: int | None = None) -> None:
        self._stack = ExitStack()
        self.ws = self._stack.enter_context(connect(f"ws://{base}/ws/{match_id}", open_timeout=10))
        self.messages: list[Msg] = []
        self.view: Msg | None = None
        self.version = 0 if last_version is None else last_version
        self.closed: int | None = None
        hello: Msg = {"type": "hello", "seat_token": token}
        if last_version is not None:
            hello["last_version"] = last_version
        self.ws.send(json.dumps(hello))
        welcome = self.recv()
        assert welcome["type"] == "welcome", welcome
        first = self.recv()
        assert first["type"] in ("update", "state"), first

    def recv(self, timeout: float = 30.0) -> Msg:
        if self.closed is not None:
            return {"type": "closed", "code": self.closed}
        try:
            text = self.ws.recv(timeout=timeout)
        except ConnectionClosed as e:
            self.closed = e.rcvd.code if e.rcvd is not None else 1006
            return {"type": "closed", "code": self.closed}
        msg: Msg = json.loads(text)
        self.messages.append(msg)
        if msg.get("view") is not None:
            self.view = msg["view"]
            self.version = msg["version"]
        return msg

    def poll(self) -> None:
        """Take every message already here."""
        while self.closed is None:
            try:
                self.recv(timeout=0.01)
            except TimeoutError:
                return

    def send(self, message: Msg) -> None:
        try:
            self.ws.send(json.dumps(message))
        except ConnectionClosed as e:  # the server closed it first: recv says so
            self.closed = e.rcvd.code if e.rcvd is not None else 1006

    def close(self) -> None:
        self._stack.close()


class Record:
    """One seat's moves across its connections: each sent intent and what became of it
    (``acked``: the update answering it came back; ``refused``; ``unknown``: the connection
    went before an answer)."""

    def __init__(self) -> None:
        self.sent: list[tuple[Msg, str]] = []
        self._ids = 0

    def acked(self) -> list[Msg]:
        return [intent for intent, fate in self.sent if fate == "acked"]

    def move(self, client: Client, *, kill: Callable[[], None] | None = None) -> bool:
        """Play the seat's next move if it has one (False: it has none now); ``kill`` runs just
        after the intent is sent, before its answer."""
        intent = None if client.view is None else scripted(client.view)
        if intent is None:
            return False
        self._ids += 1
        client.send({**intent, "id": self._ids, "version": client.version})
        self.sent.append((intent, "unknown"))
        if kill is not None:
            kill()
        while True:
            msg = client.recv()
            if msg["type"] == "closed":
                return True
            if msg.get("id") == self._ids:
                if msg["type"] == "update":
                    self.sent[-1] = (intent, "acked")
                else:
                    # stale: the table moved on first; could not save: the server lost the table
                    assert msg["type"] == "error", msg
                    assert msg["reason"].startswith(("stale", "could not save the move")), msg
                    self.sent[-1] = (intent, "refused")
                return True


def play(client: Client, record: Record, stop: Callable[[Client], bool], timeout: float = 60.0) -> None:
    """Play the seat by :func:`scripted` until ``stop`` (the server plays the bots)."""
    end = time.monotonic() + timeout
    while not stop(client):
        assert time.monotonic() < end, "the game did not get there in time"
        assert client.closed is None, f"the socket closed ({client.closed})"
        if not record.move(client):
            client.recv()


def phase(client: Client) -> str:
    return "" if client.view is None else str(client.view["match"]["phase"])


def stored(db: str, match_id: str) -> list[Any]:
    store = Store(db)
    try:
        return store.actions(match_id)
    finally:
        store.close()


def test_a_socket_on_either_server_plays_the_table_and_sees_only_its_seat(
    cluster: Callable[..., Server],
) -> None:
    a, b = cluster(), cluster()
    seats = [{"kind": "human", "name": "Asha"}, {"kind": "human", "name": "Bina"}, {"kind": "bot"}]
    t = post(b.base, "/api/tables", {"preset": "nepali", "settings": {"players": 3}, "seats": seats})
    mid = t["match_id"]
    asha = Client(a.base, mid, t["seats"][0]["token"])  # relayed: B holds the table
    bina = Client(b.base, mid, t["seats"][1]["token"])
    assert a.health()["tables"] == 0 and a.health()["cluster"]["relays"] == 1
    assert b.health()["tables"] == 1 and b.health()["cluster"]["leases"] == 1
    records = {0: Record(), 1: Record()}
    end = time.monotonic() + 60
    # until each seat has played four moves of its own (the bot plays on B)
    while min(len(r.acked()) for r in records.values()) < 4:
        assert time.monotonic() < end, "the game did not get there in time"
        for client in (asha, bina):
            client.poll()
            assert client.closed is None
        top = max(asha.version, bina.version)
        moved = [records[seat].move(c) for seat, c in ((0, asha), (1, bina)) if c.version == top]
        if not any(moved):
            (asha if asha.version < top else bina).recv()
    for client in (asha, bina):
        client.send({"type": "ping", "id": "sync"})
        while client.recv()["type"] != "pong":
            pass
    assert asha.closed is None and bina.closed is None
    # each socket had its own seat's views, and never a card another seat drew
    for me, client in ((0, asha), (1, bina)):
        for msg in client.messages:
            if msg.get("view") is not None:
                assert msg["view"]["you"]["seat"] == me
            for event in msg.get("events", []):
                if event["kind"] == "drew_stock":
                    assert (event["card"] is not None) == (event["seat"] == me), event
    draws = {e["seat"] == 0 for m in asha.messages for e in m.get("events", []) if e["kind"] == "drew_stock"}
    assert draws == {True, False}  # Asha saw her own draws from the stock and another seat's
    # the relayed view is the holder's view of that seat, message for message the same
    owner_view = get(b.base, f"/api/tables/{mid}?seat_token={t['seats'][0]['token']}")
    assert owner_view["version"] == asha.version
    for view in (owner_view["view"], asha.view):
        assert view is not None
        view.pop("deadline")
    assert owner_view["view"] == asha.view
    # an HTTP read on the server that does not hold the table reads the stored log
    replica = get(a.base, f"/api/tables/{mid}?seat_token={t['seats'][1]['token']}")
    assert replica["version"] == bina.version and replica["view"]["you"]["seat"] == 1
    assert replica["view"]["hand"] == (bina.view or {})["hand"]
    assert a.health()["tables"] == 0  # ... without taking it
    asha.close()
    bina.close()


def test_the_holder_killed_mid_deal_its_table_goes_on_on_the_other_server(
    cluster: Callable[..., Server], shared_pg: str
) -> None:
    a, b = cluster(), cluster()
    seats = [{"kind": "human", "name": "Asha"}, {"kind": "bot", "bot": "greedy"}]
    # two deals: a deal the bot wins quickly still leaves one to kill B in
    t = post(b.base, "/api/tables", {"preset": "nepali", "settings": {"rounds": 2}, "seats": seats})
    mid, token = t["match_id"], t["seats"][0]["token"]
    record = Record()
    asha = Client(a.base, mid, token)  # relayed to B
    play(asha, record, lambda c: len(record.acked()) >= 6)
    assert b.health()["tables"] == 1
    # Asha's next move in a deal goes out, and B dies before (or just after) it is stored
    end = time.monotonic() + 60
    while not (phase(asha) == "playing" and record.move(asha, kill=b.kill)):
        assert time.monotonic() < end and phase(asha) != "over", "no deal to kill B in"
        if not record.move(asha):
            asha.recv()
    while asha.recv()["type"] != "closed":
        pass
    assert asha.closed == 1012  # A's relay saw B's lease go: reconnect
    # the client reconnects (to A, which takes the table from the log) and plays on
    asha = Client(a.base, mid, token, last_version=asha.version)
    assert asha.messages[1]["type"] == "update" and asha.messages[1].get("catchup") is True
    health = a.health()
    assert health["tables"] == 1 and health["cluster"]["taken"] == 1
    play(asha, record, lambda c: phase(c) == "over")
    # every acknowledged move is in the log exactly once, in order; the one B may have stored
    # without answering is there at most once, where it was played
    actions = stored(shared_pg, mid)
    assert [a.seq for a in actions] == list(range(len(actions)))
    mine = [dict(a.payload) for a in actions if a.seat == 0 and not a.payload.get("auto")]
    mine = [p for p in mine if p["type"] != "join"]  # the table's own step at the first hello
    acked = record.acked()
    unknown = [i for i, (_, fate) in enumerate(record.sent) if fate == "unknown"]
    candidates = [acked]
    for i in unknown:
        sent = [*record.sent[:i], (record.sent[i][0], "acked"), *record.sent[i + 1 :]]
        candidates.append([intent for intent, fate in sent if fate == "acked"])
    assert mine in candidates
    assert len(acked) > 6
    # the table the other server rebuilt is the one the log makes: the client's version
    assert get(a.base, f"/api/tables/{mid}?seat_token={token}")["version"] == asha.version
    # and A still holds it, its lease renewed all along (the deal outlasted many a lease)
    health = a.health()["cluster"]
    assert health["leases"] == 1 and health["lost"] == 0
    import redis

    holder = redis.Redis.from_url(a.redis, decode_responses=True).get(f"{a.cluster}:lease:{mid}")
    assert holder is not None and holder.split()[0] == health["worker"]
    asha.close()
