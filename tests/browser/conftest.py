"""Fixtures of the browser tests: Debian's Chromium driven by Playwright, and the table server.

Playwright for Python is pinned to the release whose Chromium matches Debian's (``playwright``
in the ``test`` extra); its own browser download is never used: the tests launch
``/usr/bin/chromium`` (``apt-get install chromium``, or ``make system-deps``).  Without it the
tests are skipped with the reason, except under CI=true, where they fail: CI always runs them.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"


def _problem() -> str | None:
    """None when the browser tests can run here, else why not."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as e:
        return f"Playwright for Python is not installed ({e}): pip install -e '.[test]'"
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        found = shutil.which("chromium")
        extra = f" (there is one at {found}, but the tests use {CHROMIUM})" if found else ""
        return f"no Chromium at {CHROMIUM}{extra}: apt-get install chromium, or make system-deps"
    return None


def _need_browser() -> None:
    problem = _problem()
    if problem:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI runs the browser tests, and they cannot run: {problem}")
        pytest.skip(f"browser tests skipped: {problem}")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    _need_browser()
    from browser_helpers import FLAGS
    from playwright.sync_api import expect, sync_playwright

    # the assertions wait as long as the pages' actions (15 s), not Playwright's 5 s: a loaded
    # two-core CI machine is slow, and a wait that is never met still fails
    expect.set_options(timeout=15_000)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    _need_browser()
    from browser_helpers import Server

    tmp: Path = tmp_path_factory.mktemp("browser-server")
    srv = Server(f"sqlite:///{tmp / 'rummykit.db'}", tmp / "server.log")
    try:
        yield srv
    finally:
        srv.stop()


class Pages:
    """new_page(viewport, touch=False): a page in a fresh context.  Errors the pages report (script
    errors, console errors) fail the test, except those matching a pattern given to ``allow``."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []
        self.allowed: list[str] = []

    def allow(self, pattern: str) -> None:
        self.allowed.append(pattern)

    def __call__(self, viewport: dict[str, int], touch: bool = False) -> Any:
        ctx = self.browser.new_context(
            viewport=viewport, has_touch=touch, is_mobile=touch, device_scale_factor=1, accept_downloads=True
        )
        ctx.set_default_timeout(15_000)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        page.on(
            "console",
            lambda m: self.errors.append(f"{page.url}: console: {m.text}") if m.type == "error" else None,
        )
        return page

    def close(self) -> list[str]:
        for ctx in self.contexts:
            ctx.close()
        return [e for e in self.errors if not any(re.search(p, e) for p in self.allowed)]


@pytest.fixture
def new_page(browser: Any) -> Iterator[Pages]:
    pages = Pages(browser)
    yield pages
    errors = pages.close()
    assert not errors, "the pages reported errors:\n" + "\n".join(errors)
