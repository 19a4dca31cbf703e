"""The cluster's parts: the database's fencing tokens (a server that lost a match cannot append
to its log), the sweep's wait before it takes a new match, ``serve``'s refusals of what a
cluster cannot run on, and ``--workers N`` on one port, through the real protocol, one worker
killed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import redis
from test_cluster import Client, Record, free_port, get, phase, play, post, wait_for

from rummykit.cli.main import main as cli
from rummykit.server.cluster import LEASE_MS, settled
from rummykit.storage import LeaseLost, NewSeat, Store, StoreError

Db = tuple[str, dict[str, str] | None]


def test_only_the_newest_fence_appends_and_a_move_is_stored_once(any_db: Db) -> None:
    url, connect_args = any_db
    store = Store(url, connect_args=connect_args)
    try:
        row, _ = store.create_match(
            preset="nepali", settings={}, seed="s", seats=[NewSeat("A", "human"), NewSeat("B", "bot")]
        )
        mid = row.id
        store.take_fence(mid, 1)
        store.append_action(mid, 0, 0, 0, {"type": "join"}, fence=1)
        store.take_fence(mid, 2)  # another server took the match over
        with pytest.raises(LeaseLost):
            store.append_action(mid, 1, 0, None, {"type": "deal"}, fence=1)
        with pytest.raises(LeaseLost):
            store.take_fence(mid, 1)  # an older token never comes back
        store.append_action(mid, 1, 0, None, {"type": "deal"}, fence=2)
        with pytest.raises(StoreError, match="already stored"):
            store.append_action(mid, 1, 0, None, {"type": "deal"}, fence=2)
        assert [(a.seq, a.payload["type"]) for a in store.actions(mid)] == [(0, "join"), (1, "deal")]
        assert store.fence(mid) == 2
    finally:
        store.close()


def test_the_sweep_leaves_a_match_younger_than_a_lease_to_its_creator() -> None:
    """A worker stores a new match and takes its lease just after; a sweep by another worker in
    between must not take it (the creator's own request would fail as "held elsewhere").  Once
    a lease has passed with no lease on it, its creator is gone and the sweep takes it.  A
    time read back from SQLite without its zone counts as UTC."""
    now = datetime(2026, 12, 7, 12, 0, 0, tzinfo=UTC)
    lease = timedelta(milliseconds=LEASE_MS)
    assert not settled(now, now, LEASE_MS)
    assert not settled(now - lease + timedelta(milliseconds=1), now, LEASE_MS)
    assert settled(now - lease, now, LEASE_MS)
    assert settled(now - timedelta(hours=1), now, LEASE_MS)
    assert not settled((now - timedelta(milliseconds=10)).replace(tzinfo=None), now, LEASE_MS)
    assert settled((now - lease).replace(tzinfo=None), now, LEASE_MS)


def test_serve_refuses_workers_or_redis_without_a_shared_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], redis_url: str
) -> None:
    sqlite = f"sqlite:///{tmp_path / 'one.db'}"
    assert cli(["serve", "--port", "0", "--db", sqlite, "--workers", "2"]) == 2
    err = capsys.readouterr().err
    assert (
        err == "rummykit serve: --workers 2 needs --redis URL and a PostgreSQL --db that the workers share\n"
    )
    assert cli(["serve", "--port", "0", "--db", sqlite, "--redis", redis_url]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("rummykit serve: --redis needs a database every server shares")
        and err.count("\n") == 1
    )
    pg = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
    assert cli(["serve", "--port", "0", "--db", pg, "--redis", "redis://127.0.0.1:1/0"]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("rummykit serve: cannot reach Redis at redis://127.0.0.1:1/0") and err.count("\n") == 1
    )


@pytest.mark.xdist_group("cluster")
def test_workers_share_one_port_and_one_killed_is_replaced(
    shared_pg: str, redis_url: str, tmp_path: Path
) -> None:
    port = free_port()
    base = f"127.0.0.1:{port}"
    name = f"rk-workers-{os.getpid()}"
    err = (tmp_path / "workers.log").open("w")
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "rummykit", "serve", "--port", str(port), "--workers", "2"),
            *("--db", shared_pg, "--redis", redis_url, "--cluster-name", name, "--bot-pace", "0"),
            *("--limit", "table_rate=off", "--limit", "bot_min_pace=0"),
        ],
        stdout=subprocess.PIPE,
        stderr=err,
        text=True,
    )
    r = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line == f"rummykit: the table is at http://{base}/ (2 workers)\n", (
            tmp_path / "workers.log"
        ).read_text()
        workers: set[str] = set()

        def both_alive() -> bool:
            workers.update(k.removeprefix(f"{name}:alive:") for k in r.scan_iter(f"{name}:alive:*"))
            return len([w for w in workers if r.exists(f"{name}:alive:{w}")]) == 2

        wait_for(both_alive, "two workers")
        seats = [{"kind": "human", "name": "Asha"}, {"kind": "bot", "bot": "greedy"}]
        t = post(base, "/api/tables", {"preset": "nepali", "settings": {"rounds": 2}, "seats": seats})
        mid, token = t["match_id"], t["seats"][0]["token"]
        record = Record()
        asha = Client(base, mid, token)
        play(asha, record, lambda c: len(record.acked()) >= 4)
        # kill -9 the worker holding the table (its pid is in its name)
        holder = r.get(f"{name}:lease:{mid}")
        assert holder is not None
        os.kill(int(holder.split()[0].split("-")[-2]), signal.SIGKILL)
        while asha.closed is None:
            asha.recv()
        # the client reconnects through the same port and plays on
        end = time.monotonic() + 30
        while True:
            try:
                asha = Client(base, mid, token, last_version=asha.version)
                break
            except (AssertionError, OSError):  # reached the killed worker's socket as it went
                assert time.monotonic() < end, "no worker took the table over"
                time.sleep(0.2)
        play(asha, record, lambda c: phase(c) == "over")
        asha.close()
        # the supervisor started a worker in the place of the killed one
        wait_for(lambda: "ended" in (tmp_path / "workers.log").read_text(), "the supervisor's restart")
        wait_for(both_alive, "a second worker again")
        health = get(base, "/api/health")
        assert health["ok"] and health["cluster"]["worker"] in workers
        assert json.loads(json.dumps(health))["database"] == "postgresql"
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        err.close()
        keys = list(r.scan_iter(f"{name}:*"))
        if keys:
            r.delete(*keys)
    assert proc.returncode == 0


@pytest.mark.xdist_group("cluster")
def test_a_server_whose_table_was_taken_over_stores_no_more_moves(
    shared_pg: str, redis_url: str, tmp_path: Path
) -> None:
    from test_cluster import Server

    name = f"rk-stolen-{os.getpid()}"
    b = Server(shared_pg, redis_url, name, tmp_path / "b.log")
    r = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        seats = [{"kind": "human", "name": "Asha"}, {"kind": "bot", "bot": "greedy"}]
        t = post(b.base, "/api/tables", {"preset": "nepali", "settings": {"rounds": 2}, "seats": seats})
        mid, token = t["match_id"], t["seats"][0]["token"]
        record = Record()
        asha = Client(b.base, mid, token)  # B holds the table
        play(asha, record, lambda c: len(record.acked()) >= 2 and (c.view or {}).get("legal") is not None)
        # another server takes the match over: a newer lease, and its fence in the database
        r.set(f"{name}:lease:{mid}", "thief 1000", px=60_000)
        store = Store(shared_pg)
        try:
            store.take_fence(mid, 1000)
            count = store.action_count(mid)
            record.move(asha)  # refused (could not save) or B let the table go first: either way
            while asha.closed is None:
                asha.recv()
            assert asha.closed == 1012
            assert store.action_count(mid) == count  # nothing stored under B's old fence
            assert [fate for _, fate in record.sent[-1:]] != ["acked"]
        finally:
            store.close()
        wait_for(lambda: b.health()["tables"] == 0, "B letting the table go")
    finally:
        b.stop()
        keys = list(r.scan_iter(f"{name}:*"))
        if keys:
            r.delete(*keys)
