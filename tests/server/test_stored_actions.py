"""The action log (docs/storage.md).  Matches stored by the server before the action notation
(stored format 1: ``{"a": "draw stock", ...}``) still replay, exactly, in memory and from SQLite
and PostgreSQL after a restart, and go on in format 2 (the action's notation dict).

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

from rummykit.bots import make_player
from rummykit.engine.notation import ACTION_TYPES, from_dict, to_dict
from rummykit.engine.rules import stored_rules
from rummykit.server.table import STEPS, Intent, SeatInfo, Table, TableOptions
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


def _table(match: dict[str, Any]) -> Table:
    rules = stored_rules(match["preset"], match["settings"])  # as the server reads stored rules
    seats = [SeatInfo(s, f"P{s + 1}", "human") for s in range(match["seats"])]
    return Table(match["name"], rules, match["seed"], seats, TableOptions())


@pytest.mark.parametrize("match", MATCHES, ids=[m["name"] for m in MATCHES])
def test_a_format1_log_replays_to_the_same_table(match: dict[str, Any]) -> None:
    table = _table(match)
    table.replay([(seat, payload) for seat, payload in match["actions"]], 0.0)
    _check(table, match)


@pytest.mark.parametrize(
    "match", [m for m in MATCHES if m["expect"]["phase"] == "playing"], ids=lambda m: m["name"]
)
def test_a_format1_match_goes_on_in_format2_and_the_mixed_log_replays(match: dict[str, Any]) -> None:
    table = _table(match)
    log: list[tuple[int | None, dict[str, Any]]] = [(seat, payload) for seat, payload in match["actions"]]
    table.replay(log, 0.0)
    bots = {s: make_player("greedy", s, table.rules) for s in range(len(table.seats))}
    while table.phase != "over" and len(log) < 2000:
        seat: int | None
        if table.phase == "between":
            seat, intent = (table.waiting_for() or [None])[0], Intent(step="next_round")
            if seat is None:
                intent = Intent(step="deal")
        else:
            seat = table.to_play()
            assert seat is not None and table.deal is not None
            dseat = table.session.deal_seat(seat)
            assert dseat is not None
            intent = Intent(bots[seat].choose(table.deal.view(dseat)))
        table.check(seat, intent)
        payload = intent.payload()
        assert "a" not in payload and payload["type"] in (*ACTION_TYPES, *STEPS)  # format 2
        if intent.action is not None:
            assert payload == to_dict(intent.action) and from_dict(payload) == intent.action
        log.append((seat, payload))
        table.commit(seat, intent, 0.0)
    again = _table(match)
    again.replay(log, 0.0)
    assert again.broken is None and again.phase == table.phase == "over"
    assert _log(again) == _log(table)


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
