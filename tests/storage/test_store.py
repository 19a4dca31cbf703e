"""The store on both back ends: SQLite (a file) and the real PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from rummykit.storage import NewSeat, Store, StoreError


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store(f"sqlite:///{tmp_path / 'rk.db'}")
    else:
        url, connect_args = request.getfixturevalue("pg_schema_url")
        s = Store(url, connect_args=connect_args)
        with s.engine.begin() as conn:  # one schema per run: each test starts empty
            conn.execute(text("truncate matches, seats, actions, histories, sheets cascade"))
    yield s
    s.close()


def _match(store: Store) -> tuple[str, list[str]]:
    row, tokens = store.create_match(
        preset="nepali",
        settings={"players": 3},
        seed="s1",
        seats=[NewSeat("Asha", "human"), NewSeat("Bot", "bot", "hard"), NewSeat("Dipa", "human")],
        title="Friday",
    )
    return row.id, tokens


def test_match_seats_and_tokens_are_hashed(store: Store) -> None:
    mid, tokens = _match(store)
    assert tokens[1] == "" and tokens[0] and tokens[2] and tokens[0] != tokens[2]
    assert store.seat_for_token(mid, tokens[0]) == 0
    assert store.seat_for_token(mid, tokens[2]) == 2
    assert store.seat_for_token(mid, "guess") is None
    assert store.seat_for_token(mid, "") is None
    assert all(tokens[0] not in s.token_hash for s in store.seats(mid))
    assert [s.name for s in store.seats(mid)] == ["Asha", "Bot", "Dipa"]
    row = store.match(mid)
    assert row is not None and row.preset == "nepali" and row.settings == {"players": 3}


def test_action_log_is_ordered_and_refuses_a_repeated_number(store: Store) -> None:
    mid, _ = _match(store)
    for i in range(5):
        store.append_action(mid, i, 0, i % 3, {"a": f"throw {i}"})
    with pytest.raises(StoreError, match="action 3 is already stored"):
        store.append_action(mid, 3, 0, 1, {"a": "again"})
    assert [a.payload["a"] for a in store.actions(mid)] == [f"throw {i}" for i in range(5)]
    assert store.action_count(mid) == 5


def test_actions_survive_a_new_store_on_the_same_database(store: Store, tmp_path: Path) -> None:
    """Persistence survives a restart: a second Store on the same URL reads every action."""
    mid, _ = _match(store)
    store.append_action(mid, 0, 0, 0, {"a": "draw stock"})
    again = Store(store.url, connect_args=store.connect_args)
    try:
        assert [a.payload for a in again.actions(mid)] == [{"a": "draw stock"}]
        assert [m.id for m in again.live_matches()] == [mid]
    finally:
        again.close()


def test_concurrent_writers_never_store_the_same_action_twice(store: Store) -> None:
    mid, _ = _match(store)
    wins: list[int] = []
    errors: list[str] = []

    def write(who: int) -> None:
        try:
            store.append_action(mid, 0, 0, who, {"who": who})
            wins.append(who)
        except StoreError as e:
            errors.append(str(e))

    threads = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1 and len(errors) == 3
    assert store.action_count(mid) == 1


def test_histories_and_status(store: Store) -> None:
    mid, _ = _match(store)
    store.save_history(mid, 1, "# rummykit hand history 1\n")
    store.save_history(mid, 0, "first")
    store.save_history(mid, 1, "second, edited")
    assert store.histories(mid) == [(0, "first"), (1, "second, edited")]
    assert store.history(mid, 7) is None
    store.update_match(mid, status="over", summary={"totals": [1, -1, 0]})
    row = store.match(mid)
    assert row is not None and row.status == "over" and row.summary == {"totals": [1, -1, 0]}
    assert store.live_matches() == []
    with pytest.raises(StoreError, match="no match"):
        store.update_match("nope", status="over")


def test_sheets_share_and_edit_tokens(store: Store) -> None:
    row, edit = store.create_sheet({"version": 1, "events": []}, title="Pool 101 at Asha's")
    assert store.can_edit_sheet(row.id, edit)
    assert not store.can_edit_sheet(row.id, "wrong")
    assert not store.can_edit_sheet(row.id, "")
    shared = store.sheet_by_share(row.share_token)
    assert shared is not None and shared.id == row.id
    store.save_sheet(row.id, {"version": 1, "events": [{"deal": 1}]})
    again = store.sheet(row.id)
    assert again is not None and again.data["events"] == [{"deal": 1}]
    assert [s.id for s in store.sheets()] == [row.id]


def test_an_unreachable_database_is_one_clear_error() -> None:
    with pytest.raises(StoreError, match="cannot reach the database"):
        Store("postgresql+psycopg://nobody@127.0.0.1:1/none", connect_args={"connect_timeout": 2})
