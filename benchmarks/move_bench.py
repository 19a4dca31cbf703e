"""The server's own time for one move on an idle server, in process: no network, no client.

The real :class:`~rummykit.server.hub.Hub` on a SQLite file (every move stored before it is
sent, as in play) serves four seats of one table through its real socket loop
(``Hub.serve``), each socket an in-memory stand-in that hands the hub the client's text frames
and notes when a frame goes out.  One move at a time: the seat to play chooses from its own view
(show when it can, else draw and throw the card the grouping sets aside; the table family: the
table's own suggestions, then the dearest card), and a sample is the time from handing the hub
the intent until every seat's socket has been given its update.  Beside the wall time, the
event loop's own CPU time for the move (``time.thread_time`` on the loop's thread: parsing,
checking, committing, the views and events of every seat, JSON) and the time of the store's
write (on its writer thread) are reported, so the figure can be read on a busy shared machine.

Run: ``.venv/bin/python benchmarks/move_bench.py --moves 2000`` (``--profile`` prints where the
loop's time goes).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from starlette.websockets import WebSocketState

from machine import machine_line, write_section
from rummykit.server.hub import Hub
from rummykit.server.limits import ServerLimits
from rummykit.server.lobby import parse_new_table
from rummykit.server.table import TableOptions
from rummykit.storage import Store

Msg = dict[str, Any]


class Socket:
    """Stands in for a Starlette WebSocket: frames in from a queue, frames out to a callback."""

    def __init__(self, on_send: Callable[[Socket, str], None]) -> None:
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.on_send = on_send
        self.application_state = WebSocketState.CONNECTED
        self.client = None  # no peer address: every socket counts as the one client "unknown"
        self.headers: dict[str, str] = {}
        self.view: Msg | None = None
        self.version = 0
        self.last: list[str] = []  # frames sent since the client last read them

    def read(self) -> None:
        for text in self.last:
            msg = orjson.loads(text)
            if msg.get("view") is not None:
                self.view, self.version = msg["view"], msg["version"]
        self.last.clear()

    async def accept(self) -> None:
        return None

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    async def send_text(self, text: str) -> None:
        self.on_send(self, text)

    async def close(self, code: int = 1000) -> None:
        self.application_state = WebSocketState.DISCONNECTED

    def put(self, message: Msg) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": orjson.dumps(message).decode()})


def _weight(card: str) -> tuple[int, str]:
    rank = card[:-1]
    value = 0 if card == "JK" else 10 if rank in ("10", "J", "Q", "K") else 11 if rank == "A" else int(rank)
    return value, card


def choose(view: Msg) -> Msg | None:
    """The seat's next intent from its own view."""
    me = view["you"]["seat"]
    phase = view["match"]["phase"]
    if phase == "between":
        return {"type": "next_round"} if me in view["between"]["waiting_for"] else None
    legal = view["legal"]
    if phase != "playing" or legal is None:
        return None
    if view["deal"]["phase"] == "draw":
        return {"type": "draw", "from": "stock" if legal["draw_stock"] else "pile"}
    if view["rules"]["family"] == "table":
        if legal["open"]:
            return {"type": "open", "melds": legal["open"]}
        if legal["lay_down"]:
            return {"type": "lay_down", "cards": legal["lay_down"][0]}
        if legal["lay_off"]:
            return {"type": "lay_off", **legal["lay_off"][0]}
        if legal["throw"]:
            return {"type": "throw", "card": max(legal["throw"], key=_weight)}
        return {"type": "put_back"}
    if legal["show"]:
        return {"type": "show", "card": legal["show"][0]}
    aside = view["hand"]["aside"]
    return {"type": "throw", "card": aside if aside in legal["throw"] else legal["throw"][0]}


async def run(preset: str, moves: int, db: Path, profile: cProfile.Profile | None) -> dict[str, Any]:
    store = Store(f"sqlite:///{db}")
    writes: list[float] = []
    append = store.append_action

    def timed_append(*args: Any, **kwargs: Any) -> None:
        t0 = time.perf_counter()
        append(*args, **kwargs)
        writes.append(time.perf_counter() - t0)

    store.append_action = timed_append  # type: ignore[method-assign]
    defaults = TableOptions(bot_pace=0.0, away_time=3600.0)
    limits = ServerLimits.lifted(max_rounds=1000)  # one client plays the table as fast as it can
    hub = Hub(store, defaults=defaults, allow_seed=True, limits=limits)
    await hub.start()
    body = {
        "preset": preset,
        "settings": {"players": 4, **({"rounds": 50} if preset != "rummy40" else {"target": 100000})},
        "seats": [{"kind": "human", "name": f"P{i}"} for i in range(4)],
        "seed": f"move-bench-{preset}",
    }
    live, tokens = await hub.create(parse_new_table(body, defaults, allow_seed=True, limits=limits))
    match_id = live.table.match_id
    waiting: set[Socket] = set()
    done = asyncio.Event()

    def on_send(sock: Socket, text: str) -> None:
        # the client's side stays out of the loop's measured time: keep the text, read it later
        sock.last.append(text)
        if text.startswith('{"type":"update"'):
            waiting.discard(sock)
            if not waiting:
                done.set()

    socks = [Socket(on_send) for _ in tokens]
    serving = [asyncio.create_task(hub.serve(s, match_id)) for s in socks]  # type: ignore[arg-type]
    for s, token in zip(socks, tokens, strict=True):
        s.put({"type": "hello", "seat_token": token})
    while min(s.version for s in socks) < live.table.version or live.table.phase == "waiting":
        await asyncio.sleep(0.01)
        for s in socks:
            s.read()
    walls: list[float] = []
    cpus: list[float] = []
    made = 0
    while made < moves and live.table.phase not in ("over", "broken"):
        for s in socks:
            s.read()
        top = max(s.version for s in socks)
        sender = next(
            (s for s in socks if s.view is not None and s.version == top and choose(s.view) is not None), None
        )
        if sender is None:
            await asyncio.sleep(0.001)  # the table is dealing by itself
            continue
        assert sender.view is not None
        intent = {**(choose(sender.view) or {}), "version": top}
        waiting.clear()
        waiting.update(socks)
        done.clear()
        if profile is not None:
            profile.enable()
        c0, t0 = time.thread_time(), time.perf_counter()
        sender.put(intent)
        await done.wait()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.thread_time() - c0)
        if profile is not None:
            profile.disable()
        made += 1
    for s in socks:
        s.inbox.put_nowait({"type": "websocket.disconnect"})
    await asyncio.gather(*serving, return_exceptions=True)
    await hub.stop()
    store.close()

    def q(values: list[float], p: int) -> float:
        if len(values) < 2:
            return 0.0
        return statistics.quantiles(values, n=100, method="inclusive")[p - 1] * 1000

    return {
        "preset": preset,
        "moves": made,
        "wall_p50": q(walls, 50),
        "wall_p99": q(walls, 99),
        "cpu_p50": q(cpus, 50),
        "cpu_p99": q(cpus, 99),
        "cpu_mean": statistics.fmean(cpus) * 1000 if cpus else 0.0,
        "write_p50": q(writes, 50),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=2000, help="moves a preset (default 2000)")
    parser.add_argument("--presets", default="nepali,rummy40", help="comma-separated (nepali,rummy40)")
    parser.add_argument("--profile", action="store_true", help="print where the event loop's time goes")
    parser.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md alone")
    args = parser.parse_args()
    profile = cProfile.Profile() if args.profile else None
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for preset in args.presets.split(","):
            r = asyncio.run(run(preset, args.moves, Path(tmp) / f"{preset}.db", profile))
            rows.append(r)
            print(
                f"{preset}: {r['moves']} moves, wall p50 {r['wall_p50']:.2f} ms p99 {r['wall_p99']:.2f} ms; "
                f"loop CPU p50 {r['cpu_p50']:.3f} ms p99 {r['cpu_p99']:.3f} ms mean {r['cpu_mean']:.3f} ms; "
                f"store write p50 {r['write_p50']:.2f} ms",
                flush=True,
            )
    if profile is not None:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
    body = "\n".join(
        [
            "One table of four seats on an idle server, in process (the real hub and its socket loop, "
            "sockets in memory, a SQLite file): one move at a time, from handing the hub the intent "
            "until every seat's socket has its update.  *Loop CPU* is the event loop thread's own CPU "
            "time for the move (parse, check, store hand-off, commit, every seat's view and events, "
            "JSON); *write* is the store's append on its writer thread.",
            "",
            f"Machine: {machine_line()}",
            f"Command: `python benchmarks/move_bench.py --moves {args.moves} --presets {args.presets}`",
            "",
            "| preset | moves | wall p50 | wall p99 | loop CPU p50 | loop CPU p99 | loop CPU mean "
            "| write p50 |",
            "|---|---|---|---|---|---|---|---|",
            *(
                f"| {r['preset']} | {r['moves']} | {r['wall_p50']:.2f} ms | {r['wall_p99']:.2f} ms "
                f"| {r['cpu_p50']:.3f} ms | {r['cpu_p99']:.3f} ms | {r['cpu_mean']:.3f} ms "
                f"| {r['write_p50']:.2f} ms |"
                for r in rows
            ),
        ]
    )
    print(body)
    if not args.no_write:
        write_section("move", "One move's server time", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
