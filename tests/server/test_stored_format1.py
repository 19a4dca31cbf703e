"""Matches stored by the server before the action notation (stored format 1: ``{"a": "draw
stock", ...}``) still replay, exactly, in memory and from SQLite and PostgreSQL after a restart.

``tests/data/stored/format1-matches.json`` holds seven matches as the server of commit 739b87a
stored them (``Intent.payload()``, written before each action was committed): both families,
every kind of action and of step between deals (joins, an early start, deals, Next round,
rejoins at a pool, a declared show and a wrong show, a drop, moves the table played for away
seats, put back, swaps, rematches), finished and unfinished.  With each, the table's log that
those actions made then: every version's kind, seat, deal and engine event line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from server_helpers import live_table, make_app, running

from rummykit.engine.rules import get_preset
from rummykit.server.table import SeatInfo, Table, TableOptions
from rummykit.storage import NewSeat, Store

DATA = Path(__file__).parent.parent / "data" / "stored" / "format1-matches.json"
MATCHES: list[dict[str, Any]] = json.loads(DATA.read_text())["matches"]
Db = tuple[str, dict[str, str] | None]


def _log(table: Table) -> list[list[Any]]:
    return [
        [e.version, e.kind, e.seat, e.deal, None if e.event is None else e.event.text()] for e in table.log
    ]


def _check(table: Table, match: dict[str, Any]) -> None:
    expect = match["expect"]
    assert table.broken is None
    assert table.version == expect["version"] and table.phase == expect["phase"]
    assert list(table.session.totals) == expect["totals"] and len(table.deals) == expect["deals"]
    assert _log(table) == expect["log"]


@pytest.mark.parametrize("match", MATCHES, ids=[m["name"] for m in MATCHES])
def test_a_format1_log_replays_to_the_same_table(match: dict[str, Any]) -> None:
    rules = get_preset(match["preset"]).replace(**match["settings"])
    seats = [SeatInfo(s, f"P{s + 1}", "human") for s in range(match["seats"])]
    table = Table(match["name"], rules, match["seed"], seats, TableOptions())
    table.replay([(seat, payload) for seat, payload in match["actions"]], 0.0)
    _check(table, match)


def test_format1_matches_in_a_database_come_back_after_a_restart(any_db: Db) -> None:
    url, connect_args = any_db
    store = Store(url, connect_args=connect_args)
    ids = []
    try:
        for i, match in enumerate(MATCHES):
            mid = f"formatone{i}"
            ids.append(mid)
            store.create_match(
                preset=match["preset"],
                settings=match["settings"],
                seed=match["seed"],
                seats=[NewSeat(f"P{s + 1}", "human") for s in range(match["seats"])],
                options={"away_time": 3600},
                match_id=mid,
            )
            for seq, (seat, payload) in enumerate(match["actions"]):
                store.append_action(mid, seq, 0, seat, payload)
    finally:
        store.close()
    app = make_app(url, connect_args)
    with running(app):  # the server starts: every match marked playing is replayed from its log
        for mid, match in zip(ids, MATCHES, strict=True):
            _check(live_table(app, mid), match)
