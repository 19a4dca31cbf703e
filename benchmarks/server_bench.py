"""Drive N concurrent four-seat tables through the real WebSocket protocol on loopback.

``rummykit serve`` runs as its own process on 127.0.0.1 (a fresh SQLite file each step, so every
move is written to the database before it is sent, as in play).  This process opens four
WebSockets per table with the ``websockets`` library, one a seat; every table makes one move a
second (the seat to play draws, throws, shows or presses Next round, from its own view), and
each seat's client notes when the update for that move reaches it.  A sample is the time from
sending an intent to the moment *every* seat of the table has the update.

Two runs: the target (200 tables, one move a second each: p99 under 100 ms and no error), then
steps of more tables until p99 passes 250 ms, an error appears or the machine runs out of the
step limit; the largest step under 250 ms is what the server holds.  Clients and server share
this machine's cores, so the figures are a floor.  Bounded in count (``--max-tables``) and time
(``--seconds`` a step, ``--budget`` in all); every socket goes to 127.0.0.1 only.

Run: ``.venv/bin/python benchmarks/server_bench.py`` (or ``make bench``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import websockets

from machine import machine_line, write_section

HOST = "127.0.0.1"  # loopback only: the benchmark never sends anything off this machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``rummykit serve`` in a child process on a fresh SQLite file."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.db = workdir / f"bench-{self.port}.db"
        self.base = f"http://{HOST}:{self.port}"
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "rummykit", "serve", "--host", HOST, "--port", str(self.port)),
                *("--db", f"sqlite:///{self.db}", "--bot-pace", "0"),
                # one client machine plays every table: no per-client limits, room for every step
                *("--limit", "table_rate=off", "--limit", "sheet_rate=off"),
                *("--limit", "sockets_per_client=0", "--limit", "max_tables=10000"),
                *("--limit", "max_waiting=10000"),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "the table is at" not in line:
            raise RuntimeError(f"rummykit serve did not start: {line}")
        for _ in range(100):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{self.base}/api/health", timeout=1).read()
                return
            time.sleep(0.05)
        raise RuntimeError("rummykit serve does not answer")

    def create(self, seed: int) -> dict[str, Any]:
        body = {
            "preset": "nepali",
            "settings": {"rounds": 50},
            "seats": [{"kind": "human", "name": f"P{i}"} for i in range(4)],
            "options": {"away_time": 3600},
        }
        req = urllib.request.Request(
            f"{self.base}/api/tables",
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=30) as r:
            data: dict[str, Any] = json.loads(r.read())
            return data

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                Path(f"{self.db}{suffix}").unlink()


def choose(view: dict[str, Any]) -> dict[str, Any] | None:
    """The seat's next intent from its own view (show, draw, throw the card set aside, Next round)."""
    me = view["you"]["seat"]
    phase = view["match"]["phase"]
    if phase == "between":
        return {"type": "next_round"} if me in view["between"]["waiting_for"] else None
    legal = view["legal"]
    if phase != "playing" or legal is None:
        return None
    if legal["show"]:
        return {"type": "show", "card": legal["show"][0]}
    if view["deal"]["phase"] == "draw":
        return {"type": "draw", "from": "stock"}
    aside = view["hand"]["aside"]
    return {"type": "throw", "card": aside if aside in legal["throw"] else legal["throw"][0]}


@dataclass
class Stats:
    samples: list[float] = field(default_factory=list)
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    late: int = 0  # ticks skipped because the previous move was not yet everywhere
    measuring: bool = False


class Seat:
    def __init__(self, table: TableRun, seat: int, token: str) -> None:
        self.table, self.seat, self.token = table, seat, token
        self.ws: Any = None
        self.view: dict[str, Any] | None = None
        self.version = -1

    async def connect(self, base: str, match_id: str) -> None:
        self.ws = await websockets.connect(f"ws://{base}/ws/{match_id}", max_size=2**20, open_timeout=60)
        await self.ws.send(orjson.dumps({"type": "hello", "seat_token": self.token}).decode())

    async def read(self) -> None:
        table = self.table
        try:
            async for raw in self.ws:
                msg = orjson.loads(raw)
                kind = msg["type"]
                if kind in ("update", "state"):
                    self.view, self.version = msg["view"], msg["version"]
                    table.arrived(self.seat, self.version, time.perf_counter())
                elif kind == "error":
                    table.stats.errors.append(f"{msg['reason']} (got {msg['got']})")
        except websockets.ConnectionClosed as e:
            if not table.closing:
                table.stats.errors.append(f"seat closed: {e}")


class TableRun:
    def __init__(self, info: dict[str, Any], stats: Stats) -> None:
        self.match_id = info["match_id"]
        self.stats = stats
        self.seats = [Seat(self, s["seat"], s["token"]) for s in info["seats"]]
        self.pending: tuple[float, int] | None = None  # (sent at, version it was based on)
        self.got: dict[int, float] = {}
        self.closing = False

    def arrived(self, seat: int, version: int, now: float) -> None:
        pending = self.pending
        if pending is None or version <= pending[1]:
            return
        self.got.setdefault(seat, now)
        if len(self.got) == len(self.seats):
            if self.stats.measuring:
                self.stats.samples.append(max(self.got.values()) - pending[0])
                self.stats.actions += 1
            self.pending = None

    async def play(self, period: float, start: float, stop: float) -> None:
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        tick = start
        while tick < stop:
            if self.pending is not None:
                if time.perf_counter() - self.pending[0] > 5.0:
                    self.stats.errors.append("a move was not seen by every seat within 5 s")
                    self.pending = None
                else:
                    self.stats.late += self.stats.measuring
            else:
                top = max(s.version for s in self.seats)
                for s in self.seats:
                    if s.view is None or s.version != top:
                        continue
                    intent = choose(s.view)
                    if intent is not None:
                        self.got = {}
                        self.pending = (time.perf_counter(), top)
                        await s.ws.send(orjson.dumps({**intent, "version": top}).decode())
                        break
            tick += period
            await asyncio.sleep(max(0.0, tick - time.perf_counter()))


async def run_step(server: Server, tables: int, seconds: float, warmup: float, rate: float) -> dict[str, Any]:
    stats = Stats()
    infos = await asyncio.gather(*(asyncio.to_thread(server.create, i) for i in range(tables)))
    runs = [TableRun(info, stats) for info in infos]
    base = f"{HOST}:{server.port}"
    limit = asyncio.Semaphore(64)

    async def connect(seat: Seat, match_id: str) -> None:
        async with limit:
            await seat.connect(base, match_id)

    await asyncio.gather(*(connect(s, r.match_id) for r in runs for s in r.seats))
    readers = [asyncio.create_task(s.read()) for r in runs for s in r.seats]
    now = time.perf_counter()
    period = 1.0 / rate
    begin = now + 1.0  # the tables start spread over one period, not all at once
    stop = begin + warmup + seconds
    rng = random.Random(tables)
    players = [asyncio.create_task(r.play(period, begin + rng.random() * period, stop)) for r in runs]
    await asyncio.sleep(max(0.0, begin + warmup - time.perf_counter()))
    stats.measuring = True
    measured_from = time.perf_counter()
    await asyncio.gather(*players)
    stats.measuring = False
    elapsed = stop - measured_from  # the window the moves were sent in
    for r in runs:
        r.closing = True
    await asyncio.gather(*(s.ws.close() for r in runs for s in r.seats), return_exceptions=True)
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    samples = sorted(stats.samples)
    q = statistics.quantiles(samples, n=100, method="inclusive") if len(samples) >= 2 else [0.0] * 99
    return {
        "tables": tables,
        "seconds": elapsed,
        "actions": stats.actions,
        "per_second": stats.actions / elapsed if elapsed else 0.0,
        "p50": q[49] * 1000,
        "p99": q[98] * 1000,
        "max": (samples[-1] * 1000) if samples else 0.0,
        "errors": len(stats.errors),
        "first_error": stats.errors[0] if stats.errors else "",
        "late": stats.late,
    }


def load_average() -> float:
    """The machine's 1-minute load average before a step (other work on it slows every figure)."""
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return float("nan")


def step(workdir: Path, tables: int, args: argparse.Namespace) -> dict[str, Any]:
    load = load_average()
    server = Server(workdir)
    try:
        result = asyncio.run(run_step(server, tables, args.seconds, args.warmup, args.rate))
    finally:
        server.stop()
    result["load"] = load
    print(
        f"{tables:5d} tables: {result['per_second']:7.1f} actions/s, p50 {result['p50']:6.1f} ms, "
        f"p99 {result['p99']:6.1f} ms, max {result['max']:6.1f} ms, errors {result['errors']}, "
        f"load {load:.1f}" + (f" ({result['first_error']})" if result["errors"] else ""),
        flush=True,
    )
    return result


def row(r: dict[str, Any]) -> str:
    return (
        f"| {r['tables']} | {r['tables'] * 4} | {r['actions']} in {r['seconds']:.0f} s "
        f"| {r['per_second']:.0f} | {r['p50']:.1f} ms | {r['p99']:.1f} ms | {r['max']:.0f} ms "
        f"| {r['errors']} | {r['load']:.1f} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables of the target run (default 200)")
    parser.add_argument("--rate", type=float, default=1.0, help="moves a second at each table (default 1)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds a step (default 20)")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured seconds first (default 3)")
    parser.add_argument("--max-tables", type=int, default=2000, help="the largest step tried (default 2000)")
    parser.add_argument("--budget", type=float, default=900.0, help="seconds for every step together")
    parser.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md alone")
    args = parser.parse_args()
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()  # the clients' loop: the server's own figures should not wait on it
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        target = step(workdir, args.tables, args)
        ramp: list[dict[str, Any]] = []
        held: dict[str, Any] | None = target if target["p99"] < 250 and not target["errors"] else None
        failed: dict[str, Any] | None = None if held is not None else target
        tables = args.tables
        while failed is None and time.monotonic() - started < args.budget:
            tables = max(tables + 50, int(tables * 1.5) // 50 * 50)
            if tables > args.max_tables:
                break
            result = step(workdir, tables, args)
            ramp.append(result)
            if result["p99"] >= 250 or result["errors"]:
                failed = result
                break
            held = result
        # between the last step held and the first that was not, halve the gap (to 50 tables)
        while (
            held is not None
            and failed is not None
            and failed["tables"] - held["tables"] > 50
            and time.monotonic() - started < args.budget
        ):
            result = step(workdir, (held["tables"] + failed["tables"]) // 100 * 50, args)
            ramp.append(result)
            if result["p99"] >= 250 or result["errors"]:
                failed = result
            else:
                held = result
        ramp.sort(key=lambda r: int(r["tables"]))
    ok = target["p99"] < 100 and target["errors"] == 0
    lines = [
        "`rummykit serve` on 127.0.0.1 (uvicorn, SQLite file, every move stored before it is sent), "
        "driven through the real WebSocket protocol by four `websockets` clients a table, each seat "
        f"acting from its own view; every table makes {args.rate:g} move a second.  Latency: from sending "
        "an intent until every seat of the table has the update.  Clients and server share the "
        "machine's cores; *load before* is the machine's 1-minute load average as the step began "
        "(other work on this shared machine slows every figure).",
        "",
        f"Machine: {machine_line()}",
        f"Command: `python benchmarks/server_bench.py --tables {args.tables} --seconds {args.seconds:g}`",
        "",
        "| tables | sockets | moves measured | actions / s | p50 | p99 | max | errors | load before |",
        "|---|---|---|---|---|---|---|---|---|",
        row(target),
        *(row(r) for r in ramp),
        "",
        f"Target ({args.tables} tables, p99 under 100 ms, no error): {'met' if ok else 'NOT met'}.",
        f"Largest step held under 250 ms p99 with no error: "
        f"{held['tables'] if held else 'none'} tables"
        + (f" ({failed['tables']} did not)" if failed is not None else "")
        + ".",
    ]
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        write_section("server", "The table server", body)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())
