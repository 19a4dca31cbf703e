"""Fixtures shared by every test directory: real databases for storage tests."""

from __future__ import annotations

import os
import secrets
import signal
from collections.abc import Iterator

import pytest

# A shell that starts the suite in the background (``make test &`` in a script, nohup) leaves
# SIGINT ignored, and an ignored signal stays ignored in every child: the tests that press
# Ctrl-C on a ``rummykit`` process would then find it deaf.  Python's own handler is not
# inherited across exec, so with it here each child starts with Ctrl-C's usual effect.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

PG_URL = os.environ.get("RUMMYKIT_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _postgres_problem() -> str | None:
    """None when the test PostgreSQL answers, else why not."""
    try:
        import psycopg
    except ImportError as e:  # pragma: no cover - psycopg is a dependency
        return f"psycopg is not installed: {e}"
    dsn = PG_URL.replace("postgresql+psycopg://", "postgresql://")
    try:
        with psycopg.connect(dsn, connect_timeout=3) as conn:
            conn.execute("select 1")
    except Exception as e:
        return f"PostgreSQL at {dsn} does not answer: {e}"
    return None


@pytest.fixture(scope="session")
def pg_schema_url() -> Iterator[tuple[str, dict[str, str]]]:
    """A fresh schema in the test PostgreSQL for this run, dropped afterwards.

    With CI=true a missing server fails the run; elsewhere the tests that need
    it are skipped with the reason in the summary (never passed silently)."""
    problem = _postgres_problem()
    if problem:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs PostgreSQL for the storage tests: {problem}")
        pytest.skip(f"no PostgreSQL for the storage tests here: {problem}")
    import psycopg

    schema = "rk_test_" + secrets.token_hex(4)
    dsn = PG_URL.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"create schema {schema}")
    try:
        yield PG_URL, {"options": f"-csearch_path={schema}"}
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f"drop schema {schema} cascade")
