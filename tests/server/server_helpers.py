"""Driving the table server through its real protocol in tests: sockets with time-outs, a
scripted player that reads only its view, and an app on a given database."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.testclient import TestClient

from rummykit.server import create_app
from rummykit.server.hub import Live
from rummykit.server.limits import ServerLimits
from rummykit.server.table import Table, TableOptions

Msg = dict[str, Any]


def make_app(
    url: str,
    connect_args: dict[str, str] | None = None,
    *,
    message_rate: tuple[float, float] | None = None,
    limits: ServerLimits | None = None,
    **options: Any,
) -> Starlette:
    """The server on ``url``; bots move at once, fixed seeds allowed, no rate limit and no pace
    floor unless ``limits`` says otherwise (tests only)."""
    defaults = TableOptions(**{"bot_pace": 0.0, "away_time": 30.0, **options})
    return create_app(
        url,
        connect_args=connect_args,
        defaults=defaults,
        allow_seed=True,
        message_rate=message_rate,
        limits=limits or ServerLimits.lifted(),
    )


_OPEN: list[Sock] = []


@contextmanager
def running(app: Starlette) -> Iterator[TestClient]:
    """The app with its lifespan (restored tables, drivers) for the duration.  Sockets still open
    at the end are closed first: an open test socket would keep the client's event loop alive."""
    with TestClient(app) as client:
        try:
            yield client
        finally:
            while _OPEN:
                _OPEN.pop().close()


def new_table(client: TestClient, **body: Any) -> Msg:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    data: Msg = r.json()
    return data


def live_table(app: Starlette, match_id: str) -> Table:
    live: Live = app.state.hub.tables[match_id]
    return live.table


class Sock:
    """One WebSocket to the app, with every message it received kept in order."""

    def __init__(self, client: TestClient, match_id: str, name: str = "") -> None:
        self._cm: Any = client.websocket_connect(f"/ws/{match_id}")
        self.ws = self._cm.__enter__()
        self.name = name
        self.messages: list[Msg] = []
        self.view: Msg | None = None
        self.version = 0
        self.close_code: int | None = None
        self.welcome: Msg | None = None
        _OPEN.append(self)

    # -- sending --
    def send(self, **message: Any) -> None:
        self.ws.send_json(message)

    def send_text(self, text: str) -> None:
        self.ws.send_text(text)

    def send_bytes(self, data: bytes) -> None:
        self.ws.send_bytes(data)

    # -- receiving --
    def _take(self, raw: Msg | None) -> Msg | None:
        if raw is None:
            return None
        if raw["type"] == "websocket.close":
            self.close_code = raw.get("code", 1000)
            return {"type": "closed", "code": self.close_code}
        import json

        msg: Msg = json.loads(raw["text"])
        self.messages.append(msg)
        if msg.get("view") is not None:
            self.view = msg["view"]
            self.version = msg["version"]
        if msg["type"] == "welcome":
            self.welcome = msg
        return msg

    def recv(self, timeout: float = 10.0) -> Msg:
        """The next message (a close is ``{"type": "closed", "code": ...}``); fails after ``timeout``."""
        stream = self.ws._send_rx

        async def get() -> Msg:
            with anyio.fail_after(timeout):
                got: Msg = await stream.receive()
                return got

        try:
            msg = self._take(self.ws.portal.call(get))
        except TimeoutError:
            raise AssertionError(f"{self.name or 'socket'}: no message in {timeout} s") from None
        assert msg is not None
        return msg

    def poll(self) -> list[Msg]:
        """Every message already here, without waiting."""
        stream = self.ws._send_rx

        def nowait() -> Msg | None:
            try:
                got: Msg = stream.receive_nowait()
                return got
            except anyio.WouldBlock:
                return None

        out = []
        while self.close_code is None:
            msg = self._take(self.ws.portal.call(nowait))
            if msg is None:
                break
            out.append(msg)
        return out

    def until(self, pred: Callable[[Msg], bool], timeout: float = 10.0) -> Msg:
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, end - time.monotonic()))
            if pred(msg):
                return msg
            if msg["type"] == "closed":
                raise AssertionError(f"{self.name or 'socket'} closed ({msg['code']}) while waiting")

    def wait(self, cond: Callable[[], bool], timeout: float = 10.0) -> None:
        """Receive until ``cond()`` holds (at once if it already does)."""
        end = time.monotonic() + timeout
        self.poll()
        while not cond():
            msg = self.recv(max(0.01, end - time.monotonic()))
            if msg["type"] == "closed":
                raise AssertionError(f"{self.name or 'socket'} closed ({msg['code']}) while waiting")

    def hello(
        self,
        seat_token: str | None = None,
        watch_token: str | None = None,
        last_version: int | None = None,
    ) -> Msg:
        """Say hello; returns the first update or state after the welcome."""
        msg: Msg = {"type": "hello"}
        if seat_token is not None:
            msg["seat_token"] = seat_token
        if watch_token is not None:
            msg["watch_token"] = watch_token
        if last_version is not None:
            msg["last_version"] = last_version
        self.ws.send_json(msg)
        welcome = self.recv()
        assert welcome["type"] == "welcome", welcome
        first = self.recv()
        assert first["type"] in ("update", "state"), first
        return first

    def close(self) -> None:
        if self._cm is not None:
            cm, self._cm = self._cm, None
            if self in _OPEN:
                _OPEN.remove(self)
            cm.__exit__(None, None, None)


def scripted(view: Msg) -> Msg | None:
    """A simple player that reads only its view: show when it can, else draw from the stock and
    throw the card the grouping leaves aside; Next round (or rejoin when offered) between deals.
    At a table-family game: :func:`table_scripted`."""
    me = view["you"]["seat"]
    if me is None:
        return None
    phase = view["match"]["phase"]
    if phase == "between":
        between = view["between"]
        if me in between["waiting_for"]:
            return {"type": "rejoin"} if between["offer"] else {"type": "next_round"}
        return None
    legal = view["legal"]
    if phase != "playing" or legal is None:
        return None
    if view["rules"]["family"] == "table":
        return table_scripted(view)
    if legal["show"]:
        return {"type": "show", "card": legal["show"][0]}
    if view["deal"]["phase"] == "draw":
        return {"type": "draw", "from": "stock" if legal["draw_stock"] else "pile"}
    aside = view["hand"]["aside"]
    return {"type": "throw", "card": aside if aside in legal["throw"] else legal["throw"][0]}


def table_scripted(view: Msg) -> Msg:
    """The table family's simple player: draw from the stock; open with the table's suggestion
    when it can; then lay down, lay off and swap what the table offers; throw the dearest card."""
    legal = view["legal"]
    if view["deal"]["phase"] == "draw":
        return {"type": "draw", "from": "stock" if legal["draw_stock"] else "pile"}
    if legal["open"]:
        return {"type": "open", "melds": legal["open"]}
    if legal["lay_down"]:
        return {"type": "lay_down", "cards": legal["lay_down"][0]}
    if legal["lay_off"]:
        return {"type": "lay_off", **legal["lay_off"][0]}
    if legal["swap"]:
        return {"type": "swap", **legal["swap"][0]}
    if legal["throw"]:
        return {"type": "throw", "card": max(legal["throw"], key=_card_weight)}
    assert legal["put_back"], f"a turn with nothing to do: {legal}"
    return {"type": "put_back"}


def _card_weight(card: str) -> tuple[int, str]:
    rank = card[:-1]
    value = 0 if card == "JK" else 10 if rank in ("10", "J", "Q", "K") else 11 if rank == "A" else int(rank)
    return value, card


def drive(
    socks: list[Sock],
    stop: Callable[[], bool],
    policy: Callable[[Msg], Msg | None] = scripted,
    *,
    timeout: float = 60.0,
) -> None:
    """Let every seat socket play by ``policy`` (bots play on the server) until ``stop()``."""
    end = time.monotonic() + timeout
    acted: dict[int, int] = {}
    while True:
        for s in socks:
            for msg in s.poll():
                if msg["type"] == "error" and not msg["reason"].startswith("stale"):
                    raise AssertionError(f"{s.name}: {msg}")
        if stop():
            return
        assert time.monotonic() < end, "the game did not get there in time"
        top = max(s.version for s in socks)
        moved: Sock | None = None
        for i, s in enumerate(socks):
            if s.view is None or s.version < top or acted.get(i) == s.version:
                continue
            intent = policy(s.view)
            if intent is not None:
                s.send(**intent, version=s.version)
                acted[i] = s.version
                moved = s
        (moved or socks[0]).recv(timeout=10.0)


def phase_of(sock: Sock) -> str:
    return "" if sock.view is None else str(sock.view["match"]["phase"])
