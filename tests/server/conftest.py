"""Fixtures for the server's tests: a SQLite file per test, and both real back ends for the
tests that must run on each."""

from __future__ import annotations

import os
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


REDIS_URL = os.environ.get("RUMMYKIT_TEST_REDIS", "redis://127.0.0.1:6379/2")  # db 2: this suite's


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The machine's Redis for the cluster's tests (``RUMMYKIT_TEST_REDIS``).  With CI=true a
    missing server fails the run; elsewhere the tests that need it are skipped with the reason."""
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()
    except (redis.RedisError, OSError) as e:
        problem = f"Redis at {REDIS_URL} does not answer: {e}"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs Redis for the cluster tests: {problem}")
        pytest.skip(f"no Redis for the cluster tests here: {problem}")
    return REDIS_URL


@pytest.fixture
def shared_pg(request: pytest.FixtureRequest) -> Iterator[str]:
    """An empty schema of the test PostgreSQL as one URL (the schema in its ``options``), for
    server processes that share it."""
    url, connect_args = request.getfixturevalue("pg_schema_url")
    store = Store(url, connect_args=connect_args)
    with store.engine.begin() as conn:
        conn.execute(text("truncate matches, seats, actions, histories, sheets cascade"))
    store.close()
    schema = connect_args["options"].removeprefix("-csearch_path=")
    yield f"{url}?options=-csearch_path%3D{schema}"
