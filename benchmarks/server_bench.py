"""Load the table server through the real WebSocket protocol, clients in processes of their own.

The server runs as a child process (``rummykit serve`` on 127.0.0.1, a fresh SQLite file per
run, so every move is stored before it is sent, as in play).  The load comes from ``--clients``
other processes, each an asyncio loop with one ``websockets`` socket per seat: every table has
four human seats played by these clients from their own views (show when it can, else draw from
the stock and throw the card the grouping sets aside, Next round between deals), so every move
goes through the server's whole per-move path: parse, check, store, commit, every seat's view
and events, JSON, four frames out.

Two measurements:

* ``idle``: one table, one move at a time as fast as the table answers (the next intent goes
  once every seat has the last update).  The server's CPU per move is the CPU time of the
  server's processes (``/proc``: every thread, user and system) over the measured window
  divided by the moves: the whole path, uvicorn's socket handling included.
* ``ramp``: for each worker count of ``--workers``, tables making ``--rate`` moves a second
  each, in steps of more tables until the p99 of move -> ack (sending an intent until its own
  update, the one with the intent's ``id``, comes back) exceeds ``--p99-limit`` (100 ms).
  Each step prints and records moves a second, the ack's p50/p99, the time until every seat has
  the move, the server's CPU per move and the machine's load average.

Workers: when ``rummykit serve`` has a ``--workers`` option the server is started once with
``--workers N`` (and ``--serve-arg`` for what it needs, e.g. ``--serve-arg=--redis=URL``, with
``--db`` naming the PostgreSQL database the workers share);
without one (``--mode shards``, or ``auto`` on a server without the option), N workers are N
independent single-process servers on N ports with the tables spread over them: an upper bound
on what sharding tables over N processes can give on this machine (no routing, no lease).

Everything runs on 127.0.0.1; the server and the clients share this machine's cores.

Run: ``.venv/bin/python benchmarks/server_bench.py`` (idle, then ramps for 1, 2 and 4 workers);
``--only idle``, ``--only ramp``, ``--no-write`` to leave BENCHMARKS.md alone, ``--json PATH``
for the figures as JSON, ``--py-spy PATH`` to record the idle run's server with py-spy.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import orjson
import websockets

from machine import machine_line, write_section

HOST = "127.0.0.1"  # loopback only: the benchmark never sends anything off this machine
DATABASE = ""  # --db: the servers' database URL ("": a fresh SQLite file for each server)
SERVER_SRC = ""  # --server-src: the directory the server imports rummykit from ("": this one)
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def load_average() -> float:
    """The machine's 1-minute load average (other work on this shared machine slows every figure)."""
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return float("nan")


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system, every thread) of ``pid`` and its live descendants."""
    total = 0.0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / TICKS
            for task in Path(f"/proc/{p}/task").iterdir():
                kids = (task / "children").read_text().split()
                todo.extend(int(k) for k in kids)
        except (OSError, ValueError, IndexError):
            continue
    return total


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of ``pid``'s event loop (its main thread) and of its other threads together
    (the store's writer, ``to_thread`` work: Python 3.11 does not name threads for ``/proc``)."""
    out: dict[str, float] = {}
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                name = "event loop" if task.name == str(pid) else "other threads"
                out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / TICKS
    return out


def serve_has_workers() -> bool:
    out = subprocess.run(
        [sys.executable, "-m", "rummykit", "serve", "--help"], capture_output=True, text=True, check=False
    )
    return "--workers" in out.stdout


class Server:
    """One ``rummykit serve`` child process on a fresh SQLite file (``workers``: its ``--workers``)."""

    def __init__(self, workdir: Path, extra: Sequence[str] = (), workers: int | None = None) -> None:
        self.port = free_port()
        self.db = workdir / f"bench-{self.port}.db"
        self.base = f"http://{HOST}:{self.port}"
        self.ws = f"ws://{HOST}:{self.port}"
        command = [
            *(sys.executable, "-m", "rummykit", "serve", "--host", HOST, "--port", str(self.port)),
            *("--db", DATABASE or f"sqlite:///{self.db}", "--bot-pace", "0"),
            # one client machine plays every table: no per-client limits, room for every step
            *("--limit", "table_rate=off", "--limit", "sheet_rate=off", "--limit", "message_rate=off"),
            *("--limit", "sockets_per_client=0", "--limit", "max_tables=20000"),
            *("--limit", "max_waiting=20000"),
            *(() if workers is None else ("--workers", str(workers))),
            *extra,
        ]
        env = dict(os.environ)
        if SERVER_SRC:  # the server of another checkout, for before/after figures on one machine
            env["PYTHONPATH"] = os.pathsep.join([SERVER_SRC, *filter(None, [env.get("PYTHONPATH")])])
        self.proc = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "the table is at" not in line:
            raise RuntimeError(f"rummykit serve did not start: {line}{self.proc.stdout.read()}")
        # keep reading its output so a chatty server never blocks on a full pipe
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        for _ in range(200):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{self.base}/api/health", timeout=1).read()
                return
            time.sleep(0.05)
        raise RuntimeError("rummykit serve does not answer")

    def cpu(self) -> float:
        return tree_cpu(self.proc.pid)

    def create(self, rounds: int = 50) -> dict[str, Any]:
        body = {
            "preset": "nepali",
            "settings": {"rounds": rounds},
            "seats": [{"kind": "human", "name": f"P{i}"} for i in range(4)],
            "options": {"away_time": 3600},
        }
        req = urllib.request.Request(
            f"{self.base}/api/tables",
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=60) as r:
            data: dict[str, Any] = json.loads(r.read())
        return {"ws": self.ws, "match_id": data["match_id"], "tokens": [s["token"] for s in data["seats"]]}

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                Path(f"{self.db}{suffix}").unlink()


# ---- the client processes -----------------------------------------------------------------------


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
class Tally:
    acks: list[float] = field(default_factory=list)  # send -> the intent's own update
    everyone: list[float] = field(default_factory=list)  # send -> every seat has the update
    errors: list[str] = field(default_factory=list)
    late: int = 0  # ticks that found the table's last move not yet everywhere
    stale: int = 0  # intents refused as stale: the table had moved by itself (its next deal)
    measuring: bool = False


class Seat:
    def __init__(self, table: TableRun, seat: int, token: str) -> None:
        self.table, self.seat, self.token = table, seat, token
        self.ws: Any = None
        self.raw: str | bytes | None = None  # the latest update or state, parsed only when needed
        self.version = -1

    async def connect(self, url: str) -> None:
        self.ws = await websockets.connect(url, max_size=2**20, open_timeout=120, compression=None)
        await self.ws.send(orjson.dumps({"type": "hello", "seat_token": self.token}).decode())

    async def read(self) -> None:
        table = self.table
        try:
            async for raw in self.ws:
                head = raw[:48]  # the server writes "type" and "version" first
                if b'"error"' in head if isinstance(head, bytes) else '"error"' in head:
                    msg = orjson.loads(raw)
                    if str(msg["reason"]).startswith("stale"):
                        table.tally.stale += 1  # the table moved on its own (a new deal) meanwhile
                    else:
                        table.tally.errors.append(f"{msg['reason']} (got {msg['got']})")
                    table.answered(None, time.perf_counter())
                    continue
                if not (head.startswith('{"type":"update"') or head.startswith('{"type":"state"')):
                    continue
                msg = orjson.loads(raw)
                self.raw, self.version = raw, msg["version"]
                table.arrived(self, msg, time.perf_counter())
        except websockets.ConnectionClosed as e:
            if not table.closing:
                table.tally.errors.append(f"seat closed: {e}")


class TableRun:
    def __init__(self, info: dict[str, Any], tally: Tally) -> None:
        self.url = f"{info['ws']}/ws/{info['match_id']}"
        self.tally = tally
        self.seats = [Seat(self, n, token) for n, token in enumerate(info["tokens"])]
        self.pending: tuple[float, int, int] | None = None  # (sent at, version it was based on, id)
        self.got = 0
        self.acked = False
        self.closing = False
        self.ready = asyncio.Event()  # the last move is everywhere: the next may go
        self.next_id = 0

    def arrived(self, seat: Seat, msg: dict[str, Any], now: float) -> None:
        pending = self.pending
        if pending is None or msg["version"] <= pending[1]:
            if pending is None and all(s.version >= 0 for s in self.seats):
                self.ready.set()
            return
        sent, _version, msg_id = pending
        if msg.get("id") == msg_id and not self.acked:
            self.acked = True
            if self.tally.measuring:
                self.tally.acks.append(now - sent)
        self.got |= 1 << seat.seat
        if self.got == (1 << len(self.seats)) - 1:
            if self.tally.measuring:
                self.tally.everyone.append(now - sent)
            self.pending = None
            self.ready.set()

    def answered(self, _seat: Seat | None, _now: float) -> None:
        """An error answers the pending intent: the table goes on from the next update."""
        self.pending = None
        self.ready.set()

    async def send_next(self) -> bool:
        top = max(s.version for s in self.seats)
        for s in self.seats:
            if s.raw is None or s.version != top:
                continue
            intent = choose(orjson.loads(s.raw)["view"])
            if intent is not None:
                self.next_id += 1
                self.got, self.acked = 0, False
                self.ready.clear()
                self.pending = (time.perf_counter(), top, self.next_id)
                await s.ws.send(orjson.dumps({**intent, "version": top, "id": self.next_id}).decode())
                return True
        return False

    async def play(self, period: float, start: float, stop: float) -> None:
        """One intent a ``period`` (0: the next as soon as the last is everywhere) until ``stop``."""
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        tick = start
        while tick < stop:
            if period <= 0:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(max(0.0, stop - time.monotonic())):
                        await self.ready.wait()
                if time.monotonic() >= stop:
                    return
                if not await self.send_next():
                    await asyncio.sleep(0.001)  # nobody can act yet (a deal on its way)
                continue
            if self.pending is not None:
                if time.perf_counter() - self.pending[0] > 10.0:
                    self.tally.errors.append("a move was not seen by every seat within 10 s")
                    self.pending = None
                else:
                    self.tally.late += self.tally.measuring
            else:
                await self.send_next()
            tick += period
            await asyncio.sleep(max(0.0, tick - time.monotonic()))


async def client_loop(tables: list[dict[str, Any]], period: float, pipe: Connection) -> dict[str, Any]:
    tally = Tally()
    runs = [TableRun(info, tally) for info in tables]
    limit = asyncio.Semaphore(32)

    async def connect(seat: Seat) -> None:
        async with limit:
            await seat.connect(seat.table.url)

    await asyncio.gather(*(connect(s) for r in runs for s in r.seats))
    readers = [asyncio.create_task(s.read()) for r in runs for s in r.seats]
    loop = asyncio.get_running_loop()
    pipe.send("ready")
    begin, measure_from, stop = await loop.run_in_executor(None, pipe.recv)
    rng = random.Random(len(tables))
    players = [
        asyncio.create_task(r.play(period, begin + rng.random() * max(period, 0.0), stop)) for r in runs
    ]
    await asyncio.sleep(max(0.0, measure_from - time.monotonic()))
    tally.measuring = True
    await asyncio.gather(*players)
    tally.measuring = False
    for r in runs:
        r.closing = True
    await asyncio.gather(*(s.ws.close() for r in runs for s in r.seats), return_exceptions=True)
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    return {
        "acks": tally.acks,
        "everyone": tally.everyone,
        "errors": tally.errors,
        "late": tally.late,
        "stale": tally.stale,
    }


def client_main(tables: list[dict[str, Any]], period: float, pipe: Connection) -> None:
    """A client process: its share of the tables, reported back through ``pipe``."""
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    try:
        result = asyncio.run(client_loop(tables, period, pipe))
    except Exception as e:  # the parent reports it as the step's error
        failed = f"client failed: {type(e).__name__}: {e}"
        result = {"acks": [], "everyone": [], "errors": [failed], "late": 0, "stale": 0}
    pipe.send(result)


# ---- the parent: servers, steps, figures --------------------------------------------------------


def quantile(samples: list[float], q: float) -> float:
    if not samples:
        return float("nan")
    if len(samples) == 1:
        return samples[0] * 1000
    return statistics.quantiles(samples, n=100, method="inclusive")[round(q * 100) - 1] * 1000


def run_step(
    servers: list[Server], tables: int, *, clients: int, period: float, warmup: float, seconds: float
) -> dict[str, Any]:
    """``tables`` tables spread over ``servers``, played by ``clients`` processes for one step."""
    with ThreadPoolExecutor(16) as pool:
        infos = list(pool.map(lambda i: servers[i % len(servers)].create(), range(tables)))
    clients = max(1, min(clients, tables))
    shares = [infos[k::clients] for k in range(clients)]
    ctx = mp.get_context("spawn")
    procs, pipes = [], []
    for share in shares:
        here, there = ctx.Pipe()
        proc = ctx.Process(target=client_main, args=(share, period, there), daemon=True)
        proc.start()
        procs.append(proc)
        pipes.append(here)
    try:
        for pipe in pipes:
            if not pipe.poll(300):
                raise RuntimeError("a client process did not connect its seats in 300 s")
            pipe.recv()
        load = load_average()
        begin = time.monotonic() + 0.5
        measure_from = begin + warmup
        stop = measure_from + seconds
        for pipe in pipes:
            pipe.send((begin, measure_from, stop))
        time.sleep(max(0.0, measure_from - time.monotonic()))
        cpu0 = sum(s.cpu() for s in servers)
        threads0 = thread_cpu(servers[0].proc.pid)
        time.sleep(max(0.0, stop - time.monotonic()))
        cpu1 = sum(s.cpu() for s in servers)
        threads1 = thread_cpu(servers[0].proc.pid)
        results = []
        for pipe in pipes:
            if not pipe.poll(120):
                raise RuntimeError("a client process did not report in 120 s")
            results.append(pipe.recv())
    finally:
        for proc in procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
    acks = sorted(a for r in results for a in r["acks"])
    everyone = sorted(a for r in results for a in r["everyone"])
    errors = [e for r in results for e in r["errors"]]
    moves = len(everyone)
    return {
        "tables": tables,
        "sockets": tables * 4,
        "seconds": seconds,
        "moves": moves,
        "per_second": moves / seconds,
        "ack_p50": quantile(acks, 0.50),
        "ack_p99": quantile(acks, 0.99),
        "all_p50": quantile(everyone, 0.50),
        "all_p99": quantile(everyone, 0.99),
        "cpu_ms": (cpu1 - cpu0) / moves * 1000 if moves else float("nan"),
        "cpu_share": (cpu1 - cpu0) / seconds,
        # the first server's threads, ms a move of the whole step's moves over the servers
        "threads_ms": {
            name: (threads1[name] - threads0.get(name, 0.0)) / moves * 1000 * len(servers)
            for name in threads1
            if moves and threads1[name] > threads0.get(name, 0.0)
        },
        "errors": len(errors),
        "first_error": errors[0] if errors else "",
        "late": sum(r["late"] for r in results),
        "stale": sum(r["stale"] for r in results),
        "load": load,
    }


@dataclass
class Setup:
    workdir: Path
    mode: str  # workers | shards
    extra: list[str]

    def start(self, workers: int) -> list[Server]:
        if self.mode == "workers":
            return [Server(self.workdir, self.extra, workers)]
        servers: list[Server] = []
        try:
            for _ in range(workers):
                servers.append(Server(self.workdir, self.extra))
        except BaseException:
            for s in servers:
                s.stop()
            raise
        return servers


def spy_top(path: str, count: int = 12) -> list[str]:
    """The top of a py-spy raw profile: each function's own share of the samples, and its share
    with what it calls (the loop's and the threads' entry frames left out)."""
    own: dict[str, int] = {}
    within: dict[str, int] = {}
    total = 0
    for line in Path(path).read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack or not n.isdigit():
            continue
        frames = stack.split(";")
        total += int(n)
        own[frames[-1]] = own.get(frames[-1], 0) + int(n)
        for f in set(frames):
            within[f] = within.get(f, 0) + int(n)
    entry: tuple[str, ...] = ("runpy", "__main__", "cli/main.py", "serve_cmd.py", "uvicorn/server.py")
    entry += ("_compat.py", "runners.py", "threading.py", "thread (")

    def top(counts: dict[str, int]) -> list[str]:
        kept = [(n, f) for f, n in counts.items() if not any(e in f for e in entry)]
        return [f"  {100 * n / max(total, 1):5.1f}% {f}" for n, f in sorted(kept, reverse=True)[:count]]

    return [f"{total} samples; own:", *top(own), "with what it calls:", *top(within)]


def idle(setup: Setup, args: argparse.Namespace) -> dict[str, Any]:
    servers = setup.start(1)
    spy: subprocess.Popen[bytes] | None = None
    try:
        if args.py_spy:
            exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
            record = ["record", "--pid", str(servers[0].proc.pid), "--rate", "500", "--nonblocking"]
            output = [
                "--format",
                "raw",
                "--output",
                args.py_spy,
                "--duration",
                f"{args.idle_seconds + 4:.0f}",
            ]
            spy = subprocess.Popen(
                [exe, *record, *args.py_spy_arg, *output],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        result = run_step(servers, 1, clients=1, period=0.0, warmup=2.0, seconds=args.idle_seconds)
    finally:
        for s in servers:
            s.stop()
        if spy is not None:
            spy.wait(30)
    print(
        f"idle: {result['moves']} moves in {result['seconds']:.0f} s, server CPU {result['cpu_ms']:.2f} ms "
        f"a move, ack p50 {result['ack_p50']:.2f} ms, every seat p50 {result['all_p50']:.2f} ms, "
        f"errors {result['errors']}, load {result['load']:.1f}"
        + (f" ({result['first_error']})" if result["errors"] else ""),
        flush=True,
    )
    print("  by thread: " + ", ".join(f"{k} {v:.2f} ms" for k, v in sorted(result["threads_ms"].items())))
    if args.py_spy and Path(args.py_spy).exists():
        print("\n".join(spy_top(args.py_spy)))
    return result


def ramp(setup: Setup, workers: int, args: argparse.Namespace, deadline: float) -> list[dict[str, Any]]:
    """Steps of more tables until a step passes the p99 limit (or errs) twice running: on this
    shared machine one step in a few catches someone else's burst, so a failed step is run
    once more before the ramp ends (both rows are kept)."""
    steps: list[dict[str, Any]] = []
    tables = args.start
    failed = 0
    while tables <= args.max_tables and time.monotonic() < deadline:
        servers = setup.start(workers)
        try:
            result = run_step(
                servers,
                tables,
                clients=args.clients,
                period=1.0 / args.rate,
                warmup=args.warmup,
                seconds=args.seconds,
            )
        finally:
            for s in servers:
                s.stop()
        result["workers"] = workers
        steps.append(result)
        print(
            f"{workers} worker(s) {tables:5d} tables: {result['per_second']:7.1f} moves/s, "
            f"ack p50 {result['ack_p50']:6.1f} ms p99 {result['ack_p99']:6.1f} ms, "
            f"every seat p99 {result['all_p99']:6.1f} ms, server CPU {result['cpu_ms']:.2f} ms a move "
            f"({result['cpu_share']:.2f} cores), errors {result['errors']}, load {result['load']:.1f}"
            + (f" ({result['first_error']})" if result["errors"] else ""),
            flush=True,
        )
        if result["ack_p99"] > args.p99_limit or result["errors"]:
            failed += 1
            if failed >= args.retries + 1:
                break
            continue
        failed = 0
        tables = max(tables + 10 * workers, round(tables * args.factor))
    return steps


def held(steps: list[dict[str, Any]], limit: float) -> dict[str, Any] | None:
    ok = [s for s in steps if s["ack_p99"] <= limit and not s["errors"]]
    return max(ok, key=lambda s: s["per_second"], default=None)


def section(
    args: argparse.Namespace, mode: str, still: dict[str, Any] | None, steps: list[dict[str, Any]]
) -> str:
    how = (
        f"`rummykit serve --workers N` ({' '.join(args.serve_arg)})"
        if mode == "workers"
        else "N independent `rummykit serve` processes on N ports, the tables spread over them "
        "(no routing, no lease: an upper bound on what sharding tables over N processes gives "
        "on this machine)"
    )
    lines = [
        "`rummykit serve` on 127.0.0.1 (uvicorn, a SQLite file, every move stored before it is sent), "
        f"driven through the real WebSocket protocol by {args.clients} client processes of their own "
        "(`websockets`, one socket a seat, four human seats a table, each acting from its own view). "
        "*Server CPU a move*: the CPU time of the server's processes (every thread, user and system, "
        "from `/proc`) over the measured window, divided by the moves.  The server and the clients "
        "share the machine's two cores, with other work on it: *load* is the 1-minute load average "
        "as the step began.",
        "",
        f"Machine: {machine_line()}",
        "",
    ]
    if still is not None:
        lines += [
            "### One move on an idle server",
            "",
            "One table, the next intent sent as soon as every seat has the last move.",
            "",
            f"Command: `python benchmarks/server_bench.py --only idle --idle-seconds {args.idle_seconds:g}`",
            "",
            "| moves | server CPU a move | ack p50 | ack p99 | every seat p50 | errors | load |",
            "|---|---|---|---|---|---|---|",
            f"| {still['moves']} in {still['seconds']:.0f} s | {still['cpu_ms']:.2f} ms "
            f"| {still['ack_p50']:.2f} ms | {still['ack_p99']:.2f} ms | {still['all_p50']:.2f} ms "
            f"| {still['errors']} | {still['load']:.1f} |",
            "",
        ]
    if steps:
        workers = sorted({s["workers"] for s in steps})
        lines += [
            "### Throughput against workers",
            "",
            f"Every table makes {args.rate:g} move(s) a second; steps of more tables until the p99 of "
            f"move -> ack (the intent's own update back) passes {args.p99_limit:g} ms (a step over it is "
            f"run {args.retries} more time(s) before the ramp ends: other work on the machine).  "
            f"Workers: {how}.",
            "",
            "Command: `python benchmarks/server_bench.py --only ramp "
            f"--workers {','.join(map(str, workers))} "
            f"--rate {args.rate:g} --start {args.start} --factor {args.factor:g} --seconds {args.seconds:g} "
            f"--clients {args.clients} --retries {args.retries}`",
            "",
            "| workers | tables | moves / s | ack p50 | ack p99 | every seat p99 | server CPU a move "
            "| server cores busy | errors | load |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for s in steps:
            lines.append(
                f"| {s['workers']} | {s['tables']} | {s['per_second']:.0f} | {s['ack_p50']:.1f} ms "
                f"| {s['ack_p99']:.1f} ms | {s['all_p99']:.1f} ms | {s['cpu_ms']:.2f} ms "
                f"| {s['cpu_share']:.2f} | {s['errors']} | {s['load']:.1f} |"
            )
        lines += ["", f"Most moves a second with ack p99 under {args.p99_limit:g} ms and no error:", ""]
        for w in workers:
            best = held([s for s in steps if s["workers"] == w], args.p99_limit)
            lines.append(
                f"- {w} worker(s): "
                + (
                    "none of the steps"
                    if best is None
                    else f"{best['per_second']:.0f} ({best['tables']} tables)"
                )
            )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("idle", "ramp"), help="one measurement (default both)")
    parser.add_argument("--workers", default="1,2,4", help="worker counts to ramp (default 1,2,4)")
    parser.add_argument("--mode", choices=("auto", "workers", "shards"), default="auto")
    parser.add_argument("--serve-arg", action="append", default=[], help="one more argument for serve")
    parser.add_argument("--clients", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--rate", type=float, default=1.0, help="moves a second at each table (default 1)")
    parser.add_argument("--start", type=int, default=100, help="tables of the first step (default 100)")
    parser.add_argument("--factor", type=float, default=1.4, help="each step's tables over the last's")
    parser.add_argument("--max-tables", type=int, default=4000, help="the largest step tried")
    parser.add_argument("--p99-limit", type=float, default=100.0, help="ack p99 that ends a ramp (ms)")
    parser.add_argument("--retries", type=int, default=1, help="reruns of a step over the limit (default 1)")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured seconds a step")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured seconds before")
    parser.add_argument("--idle-seconds", type=float, default=10.0, help="measured seconds of idle")
    parser.add_argument("--budget", type=float, default=1800.0, help="seconds for the ramps together")
    parser.add_argument("--py-spy", metavar="PATH", help="record the idle server with py-spy (raw format)")
    parser.add_argument("--py-spy-arg", action="append", default=[], help="one more argument for py-spy")
    parser.add_argument(
        "--db", metavar="URL", default="", help="the servers' database (default: a fresh SQLite file each)"
    )
    parser.add_argument(
        "--server-src", metavar="DIR", default="", help="run the server from this src/ (another checkout)"
    )
    parser.add_argument("--json", metavar="PATH", help="write the figures as JSON too")
    parser.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md alone")
    args = parser.parse_args()
    global DATABASE, SERVER_SRC
    DATABASE, SERVER_SRC = args.db, args.server_src
    mode = args.mode
    if mode == "auto":
        mode = "workers" if serve_has_workers() else "shards"
    print(f"workers as: {mode}", flush=True)
    deadline = time.monotonic() + args.budget
    still: dict[str, Any] | None = None
    steps: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        setup = Setup(Path(tmp), mode, list(args.serve_arg))
        if args.only in (None, "idle"):
            still = idle(setup, args)
        if args.only in (None, "ramp"):
            for w in (int(x) for x in args.workers.split(",")):
                steps += ramp(setup, w, args, deadline)
    if args.json:
        Path(args.json).write_text(json.dumps({"mode": mode, "idle": still, "steps": steps}, indent=1))
    if not args.no_write:
        write_section("server", "The table server", section(args, mode, still, steps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
