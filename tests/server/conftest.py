"""Fixtures for the server's tests: a SQLite file per test, and both real back ends for the
tests that must run on each."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from rummykit.storage import Store


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'rk.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, dict[str, str] | None]]:
    """(url, connect_args) of an empty database on each back end."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'rk.db'}", None
        return
    url, connect_args = request.getfixturevalue("pg_schema_url")
    store = Store(url, connect_args=connect_args)
    with store.engine.begin() as conn:  # one schema per run: each test starts empty
        conn.execute(text("truncate matches, seats, actions, histories, sheets cascade"))
    store.close()
    yield url, connect_args
