"""What the browser tests share: the server in a subprocess, a player that speaks the protocol
directly (to find a seed whose match goes the way a test needs), and a person's hands on the page
(tap, drag with a mouse or a finger, read what the table shows)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

try:
    from playwright.sync_api import CDPSession, Locator, Page
except ImportError as e:  # the test modules import this first: without Playwright, skip them
    if os.environ.get("CI") == "true":
        raise ImportError(f"CI runs the browser tests, and Playwright for Python is missing: {e}") from e
    pytest.skip(
        f"browser tests skipped: Playwright for Python is not installed ({e}): pip install -e '.[test]'",
        allow_module_level=True,
    )

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 667}
NO_THROW_BACK = "cannot throw back the card just taken from the pile"

Json = dict[str, Any]


# ---- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``rummykit``'s app under uvicorn in a subprocess on a free port of 127.0.0.1."""

    def __init__(self, db_url: str, log_path: Path, stacks: Path | None = None) -> None:
        self.db_url = db_url
        self.log_path = log_path
        self.stacks = stacks  # tests only: stacked table-family deals (serve_for_tests.py)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        log = self.log_path.open("ab")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                str(HERE / "serve_for_tests.py"),
                str(self.port),
                self.db_url,
                *([str(self.stacks)] if self.stacks is not None else []),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env=env,
        )
        log.close()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the test server exited ({self.proc.returncode}):\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(self.base + "/api/health", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"the test server did not answer in {timeout} s:\n{self.log_tail()}")

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)

    def restart(self) -> None:
        self.stop()
        self.start()

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as r:
            return json.loads(r.read())

    def post(self, path: str, body: Json) -> Any:
        req = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            raise AssertionError(f"POST {path}: {e.code} {e.read().decode()}") from None

    def view(self, match_id: str, token: str) -> Json:
        got: Json = self.get(f"/api/tables/{match_id}?seat_token={token}")["view"]
        return got

    def text(self, path: str) -> str:
        with urllib.request.urlopen(self.base + path, timeout=10) as r:
            return str(r.read().decode())


# ---- the person's plan, spoken straight to the server -------------------------------------------
#
# The browser tests play by one plan: show whenever the table offers Show; take the pile on the
# first turn of deal 1 (to try throwing it back); drop on the first turn of ``drop_deal``; else
# draw from the stock, press Group and throw the last card of the grouped hand (the grouping's best
# throw) that may be thrown.  ``choose`` is that plan on a view, so a seed can be picked by playing
# it over the protocol (fast), then played again in the browser, which must end the same way.


def grouped_order(hand: Json) -> list[str]:
    """The hand as the Group button lays it out: groups, loose cards, the best throw last."""
    order = [c for g in hand["groups"] for c in g["cards"]]
    loose = list(hand["loose"])
    aside = hand["aside"]
    if aside and aside in loose:
        del loose[len(loose) - 1 - loose[::-1].index(aside)]
    order += loose
    if aside:
        order.append(aside)
    return order


def choose(view: Json, turns: dict[int, int], drop_deal: int | None) -> Json | None:
    """The plan's next message for this view (``turns`` counts my draws in each deal)."""
    me = view["you"]["seat"]
    phase = view["match"]["phase"]
    if phase == "between":
        between = view["between"]
        if me in between["waiting_for"]:
            return {"type": "rejoin"} if between["offer"] else {"type": "next_round"}
        return None
    legal = view["legal"]
    if phase != "playing" or legal is None:
        return None
    deal = view["deal"]["number"]
    if view["deal"]["phase"] == "draw":
        k = turns.get(deal, 0)
        turns[deal] = k + 1
        if deal == drop_deal and k == 0 and legal["drop"]:
            return {"type": "drop"}
        if deal == 1 and k == 0 and legal["draw_pile"]:
            return {"type": "draw", "from": "pile"}
        return {"type": "draw", "from": "stock"}
    if legal["show"]:
        return {"type": "show", "card": legal["show"][0]}
    for card in reversed(grouped_order(view["hand"])):
        if card in legal["throw"]:
            return {"type": "throw", "card": card}
    return {"type": "throw", "card": legal["throw"][0]}


def summary(results: list[Json]) -> list[tuple[int, str, int]]:
    return [(r["winner"], r["ending"], r["turns"]) for r in results]


def play_by_protocol(server: Server, body: Json, drop_deal: int | None, timeout: float = 60.0) -> Json:
    """Create a table and play seat 0 by the plan until the match is over; what happened."""
    from websockets.sync.client import connect

    made = server.post("/api/tables", body)
    token = made["seats"][0]["token"]
    turns: dict[int, int] = {}
    results: list[Json] = []
    moves: list[Json] = []
    end = time.monotonic() + timeout
    with connect(f"{server.ws_base}/ws/{made['match_id']}") as ws:
        ws.send(json.dumps({"type": "hello", "seat_token": token}))
        waiting = False
        view: Json | None = None
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"the plan did not finish the match in {timeout} s")
            msg = json.loads(ws.recv(timeout=left))
            if msg["type"] == "error":
                raise AssertionError(f"the server refused the plan's move: {msg}")
            if msg["type"] not in ("update", "state"):
                continue
            view = msg["view"]
            assert view is not None
            results += [e["result"] for e in msg.get("events", []) if e["kind"] == "deal_ended"]
            if msg.get("id") is not None:
                waiting = False
            if view["match"]["phase"] == "over":
                break
            if waiting:
                continue
            intent = choose(view, turns, drop_deal)
            if intent is not None:
                moves.append({"deal": (view["deal"] or {}).get("number"), **intent})
                ws.send(json.dumps({**intent, "id": str(len(moves))}))
                waiting = True
    return {"match": made, "results": results, "moves": moves, "view": view}


def find_seed(
    server: Server,
    body: Json,
    drop_deal: int | None,
    wanted: Callable[[Json], bool],
    prefix: str,
    tries: int = 60,
) -> tuple[str, Json]:
    """The first seed ``prefix-N`` whose match, played by the plan, is ``wanted``."""
    for i in range(tries):
        seed = f"{prefix}-{i}"
        got = play_by_protocol(server, {**body, "seed": seed}, drop_deal)
        if wanted(got):
            return seed, got
    raise AssertionError(f"no seed {prefix}-0 … {prefix}-{tries - 1} plays the way this test needs")


def i_showed(got: Json) -> list[int]:
    """The deals (from 1) that seat 0 won by showing."""
    return [n + 1 for n, r in enumerate(got["results"]) if r["winner"] == 0 and r["ending"] == "show"]


# ---- a person at the page -----------------------------------------------------------------------

READY = """() => {
  const t = document.querySelector('#table');
  if (!t || t.dataset.busy === 'true') return false;
  const p = t.dataset.phase;
  if (p === 'over') return !!document.querySelector('#over-panel');
  if (p === 'between') {
    const b = document.querySelector('#rejoin') || document.querySelector('#next-round');
    return !!b && !b.disabled;
  }
  return p === 'playing' && t.dataset.turn === 'mine';
}"""


def wait_for_me(page: Page, timeout: float = 20_000) -> str:
    """Wait until the page wants something of me; returns ``draw``, ``throw``, ``between`` or ``over``."""
    page.wait_for_function(READY, timeout=timeout)
    table = page.locator("#table")
    phase = table.get_attribute("data-phase")
    if phase == "playing":
        return str(table.get_attribute("data-step"))
    return str(phase)


def table_attr(page: Page, name: str) -> str:
    return str(page.locator("#table").get_attribute(f"data-{name}"))


def wait_version_after(page: Page, version: str, timeout: float = 10_000) -> None:
    page.wait_for_function(
        "v => { const t = document.querySelector('#table');"
        " return t.dataset.version !== v && t.dataset.busy !== 'true'; }",
        arg=version,
        timeout=timeout,
    )


def hand_cards(page: Page) -> list[str]:
    return [
        str(x) for x in page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    ]


def card_button(page: Page, uid: str) -> Locator:
    return page.locator(f'#hand button.card[data-uid="{uid}"]')


def planned_throw(page: Page) -> tuple[str, str]:
    """(uid, card) of the plan's throw: the last card of the grouped hand that may be thrown."""
    cards = page.locator("#hand button.card").evaluate_all(
        "bs => bs.map(b => [b.dataset.uid, b.dataset.card, b.classList.contains('no-throw')])"
    )
    banned = {card for _, card, no in cards if no}
    for uid, card, _ in reversed(cards):
        if card not in banned:
            return str(uid), str(card)
    raise AssertionError("no card of the hand may be thrown")


def center(loc: Locator, at: tuple[float, float] = (0.5, 0.5)) -> tuple[float, float]:
    """A point of the element: ``at`` is the fraction of its width and height (the middle)."""
    loc.scroll_into_view_if_needed()
    box = loc.bounding_box()
    assert box is not None, "the element is not on the screen"
    return box["x"] + box["width"] * at[0], box["y"] + box["height"] * at[1]


def mouse_drag(
    page: Page, source: Locator, target: Locator, steps: int = 10, at: tuple[float, float] = (0.5, 0.5)
) -> None:
    x0, y0 = center(source)
    x1, y1 = center(target, at)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 4, y0 - 4, steps=2)
    page.mouse.move(x1, y1, steps=steps)
    page.mouse.up()


def touch_drag(
    cdp: CDPSession, source: Locator, target: Locator, steps: int = 10, at: tuple[float, float] = (0.5, 0.5)
) -> None:
    """A finger on ``source``, moved onto ``target``, held still and lifted (Chromium's touch
    input).  The moves are a frame apart and the finger rests before it lifts, as a person's does:
    touches sent all at once read as a fling, and a tap during a fling only stops it."""
    x0, y0 = center(source)
    x1, y1 = center(target, at)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        x = x0 + (x1 - x0) * i / steps
        y = y0 + (y1 - y0) * i / steps
        time.sleep(0.016)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    time.sleep(0.12)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x1, "y": y1}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def shoot(page: Page, name: str, full_page: bool = False) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


UNLABELLED = """() => {
  const named = (el) => {
    if (el.getAttribute('aria-label')) return true;
    const by = el.getAttribute('aria-labelledby');
    if (by && by.split(' ').some(id => document.getElementById(id)?.textContent.trim())) return true;
    if (el.id && document.querySelector(`label[for="${el.id}"]`)?.textContent.trim()) return true;
    if (el.closest('label')?.textContent.trim()) return true;
    if (el.tagName !== 'INPUT' && el.tagName !== 'SELECT' && el.textContent.trim()) return true;
    return false;
  };
  const visible = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  return [...document.querySelectorAll('button, a[href], input, select, textarea, [role=switch]')]
    .filter(el => visible(el) && !named(el))
    .map(el => el.outerHTML.slice(0, 120));
}"""


def unlabelled_controls(page: Page) -> list[str]:
    """Visible controls without an accessible name (should be none)."""
    got: list[str] = page.evaluate(UNLABELLED)
    return got
