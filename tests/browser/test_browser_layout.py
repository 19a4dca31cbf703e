"""The table's layout at a phone (390x844) and a desktop (1280x800), checked by geometry: nothing
covers any card of the hand (``elementFromPoint`` at each card's centre is the card, with the
page scrolled to the hand and at the bottom), a card after a joker in a meld is fully visible, the
score sheet's columns and caption are on the screen or scroll within their own box, and a seat
opened in another window gets a full-width banner and no live buttons.  Screenshots of each go
to ``artifacts/screenshots/``.

The table-family deals are stacked (a test-only hook of the test server, as in
``test_browser_table_family.py``): Remi 51's first player holds fifteen cards (two rows on a
phone) and sets worth 90, which may not open in the first round; at Rummy 40 the opening holds
the meld 9♣ joker J♣, a card after the joker.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    DESKTOP,
    Json,
    Server,
    mouse_drag,
    shoot,
    touch_drag,
    wait_for_me,
)
from playwright.sync_api import Page, expect

PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 375, "height": 667}  # the other browser tests' phone
SIZES = {"phone": PHONE, "desktop": DESKTOP}
# the hand's checks also at a small phone (the other browser tests' phone), where the page is
# taller than the screen
HAND_SIZES = {**SIZES, "small-phone": SMALL_PHONE}
REMI_HAND = "Ks Kh Kd Qs Qh Qd Js Jh Jd 2c 5d 8s 3h 9c 4d"
R40_HAND = "Ks Kh Kd 5h 6h 7h 9c JK Jc 2s 3d 8s 4c"
STACKS = {
    **{f"layout-remi-{size}": {"hands": {"1": REMI_HAND}, "stock": "10d 2h 7c"} for size in HAND_SIZES},
    **{
        f"layout-r40-{size}": {"hands": {"1": R40_HAND}, "pile": "Qs", "stock": "7d 2h 4h"}
        for size in HAND_SIZES
    },
}

# every card of the hand off the screen or under something else: its centre, and points near its
# top and bottom edges (a finger lands anywhere on a card; the next card of a run may cover its
# right edge on a phone, never its middle)
COVERED = """() => {
  const out = [];
  for (const b of document.querySelectorAll('#hand button.card')) {
    const r = b.getBoundingClientRect();
    const x = r.left + r.width / 2;
    for (const f of [0.15, 0.5, 0.88]) {
      const y = r.top + r.height * f;
      if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) {
        out.push(`${b.dataset.card}: off the screen at ${Math.round(x)},${Math.round(y)}`);
        break;
      }
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit.closest('button.card') !== b) {
        const under = hit ? (hit.id || hit.className || hit.tagName) : '-';
        out.push(`${b.dataset.card} at ${Math.round(f * 100)}%: under ${under}`);
        break;
      }
    }
  }
  return out;
}"""

# every meld card not fully visible: its centre and four corners (3 px in) must be the card
HIDDEN_MELD_CARDS = """() => {
  const out = [];
  for (const b of document.querySelectorAll('#melds button.mcard')) {
    b.scrollIntoView({block: 'nearest'});
    const r = b.getBoundingClientRect();
    const points = [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 3, r.top + 3],
      [r.right - 3, r.top + 3], [r.left + 3, r.bottom - 3], [r.right - 3, r.bottom - 3]];
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit.closest('button.mcard') !== b) {
        const under = hit ? (hit.closest('button.mcard')?.dataset.card || hit.className || hit.tagName) : '-';
        out.push(`meld ${b.dataset.meld} slot ${b.dataset.slot} (${b.dataset.card}): under ${under}`);
        break;
      }
    }
  }
  return out;
}"""

# the sheet's header cells and caption that are neither on the screen nor in a box that scrolls
CLIPPED_SHEET = """(root) => {
  const box = document.querySelector(root);
  const out = [];
  const inside = (r) => r.left >= -0.5 && r.right <= innerWidth + 0.5;
  const cap = box.querySelector('.sheet-caption');
  if (!cap) out.push('no caption');
  else if (!inside(cap.getBoundingClientRect()) || cap.scrollWidth > cap.clientWidth + 1)
    out.push('the caption is clipped');
  const wrap = box.querySelector('.sheet-wrap');
  const scrolls = wrap.scrollWidth > wrap.clientWidth
    && ['auto', 'scroll'].includes(getComputedStyle(wrap).overflowX) && inside(wrap.getBoundingClientRect());
  for (const th of box.querySelectorAll('table.sheet thead th')) {
    if (!inside(th.getBoundingClientRect()) && !scrolls) out.push(`column ${th.textContent} is off screen`);
  }
  if (document.documentElement.scrollWidth > innerWidth) out.push('the page is wider than the screen');
  return out;
}"""

# visible controls that can still be used (outside an inert part of the page and the banner)
LIVE_CONTROLS = """() => [...document.querySelectorAll('button, a[href], input, select')]
  .filter(el => (el.offsetWidth || el.offsetHeight) && !el.closest('[inert]') && !el.closest('#banner')
    && !el.closest('dialog:not([open])'))
  .map(el => el.id || el.textContent.trim())"""


@pytest.fixture(scope="module")
def stacked_server(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Server]:
    # asking for ``browser`` first checks that the browser tests can run here (and fails under CI)
    tmp: Path = tmp_path_factory.mktemp("layout-server")
    stacks = tmp / "stacks.json"
    stacks.write_text(json.dumps(STACKS))
    srv = Server(f"sqlite:///{tmp / 'rummykit.db'}", tmp / "server.log", stacks)
    try:
        yield srv
    finally:
        srv.stop()


def new_table(server: Server, preset: str, seed: str) -> str:
    made = server.post(
        "/api/tables",
        {
            "preset": preset,
            "settings": {"players": 2},
            "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "human", "name": "Asha"}],
            "seed": seed,
            "options": {"turn_time": 600, "hints": True},
        },
    )
    return str(made["seats"][1]["invite"])


def nothing_covers_the_hand(page: Page) -> None:
    """Every card's centre is on the screen and is that card, scrolled to the hand and at the bottom."""
    page.evaluate("document.querySelector('#hand').scrollIntoView({block: 'nearest'})")
    assert page.evaluate(COVERED) == [], "scrolled to the hand"
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate(COVERED) == [], "scrolled to the bottom"


def hand_after_move(page: Page, before: list[str]) -> list[str]:
    page.wait_for_function(
        "b => JSON.stringify([...document.querySelectorAll('#hand button.card')]"
        ".map(x => x.dataset.card)) !== b",
        arg=json.dumps(before, separators=(",", ":")),
    )
    return hand(page)


def hand(page: Page) -> list[str]:
    got: list[str] = page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    return got


@pytest.mark.parametrize("size", HAND_SIZES)
def test_nothing_covers_remi51s_fifteen_cards_and_a_second_row_card_drags(
    stacked_server: Server, new_page: Any, size: str
) -> None:
    touch = size != "desktop"
    page = new_page(HAND_SIZES[size], touch=touch)
    page.goto(stacked_server.base + new_table(stacked_server, "remi51", f"layout-remi-{size}"))
    # the first player draws nothing on the first turn: it throws
    assert wait_for_me(page) == "throw"
    expect(page.locator("#hand button.card")).to_have_count(15)
    nothing_covers_the_hand(page)
    # a card selected (its move buttons show) and a hint asked for: more lines under the hand
    page.locator("#hand button.card").nth(12).click()
    expect(page.locator("#move-left")).to_be_visible()
    page.locator("#hint").click()
    page.wait_for_function(
        "() => !['', 'Thinking…'].includes(document.querySelector('#hint-line').textContent)"
    )
    nothing_covers_the_hand(page)
    # a full Opening meter with no Open button says why, on the screen (the first round of Remi 51)
    meter = page.locator("#meter")
    expect(meter).to_be_visible()
    assert int(meter.get_attribute("data-points") or 0) >= 51
    expect(page.locator("#open")).to_be_hidden()
    expect(page.locator("#meter-why")).to_be_visible()
    expect(page.locator("#meter-why")).to_have_text("no opening in the first round")
    shoot(page, f"layout-remi51-{size}")
    # the last card (the second row on a phone) drags to the front of the hand
    before = hand(page)
    cards = page.locator("#hand button.card")
    if touch:
        touch_drag(page.context.new_cdp_session(page), cards.last, cards.first, at=(0.2, 0.5))
    else:
        mouse_drag(page, cards.last, cards.first, at=(0.2, 0.5))
    after = hand_after_move(page, before)
    assert after[0] == before[-1] and sorted(after) == sorted(before), (before, after)
    # Sort and Group at the table family: by suit, by rank, melds first
    page.locator("#sort").click()
    expect(page.locator("#sort")).to_have_text("By rank")
    suits = [c[-1] for c in hand(page) if c != "JK"]
    assert suits == sorted(suits, key="shdc".index), suits
    page.locator("#group").click()
    labels = [t.lower() for t in page.locator("#hand .cluster-label").all_text_contents()]
    assert labels == ["run", "run", "run", "loose"] or labels == ["set", "set", "set", "loose"], labels
    assert sorted(hand(page)[:9]) == sorted(REMI_HAND.split()[:9])  # the 90 points of face cards
    nothing_covers_the_hand(page)


@pytest.mark.parametrize("size", HAND_SIZES)
def test_a_card_after_a_joker_in_a_meld_is_fully_visible(
    stacked_server: Server, new_page: Any, size: str
) -> None:
    page = new_page(HAND_SIZES[size], touch=size != "desktop")
    page.goto(stacked_server.base + new_table(stacked_server, "rummy40", f"layout-r40-{size}"))
    assert wait_for_me(page) == "draw"
    page.locator("#stock").click()
    expect(page.locator("#open")).to_be_visible()
    page.locator("#open").click()
    page.wait_for_function("() => document.querySelectorAll('#melds .meld').length === 3")
    cards = page.locator('#melds .meld[data-meld="3"] button.mcard').evaluate_all(
        "bs => bs.map(b => b.dataset.card)"
    )
    assert cards == ["9c", "JK", "Jc"], cards
    nothing_covers_the_hand(page)
    assert page.evaluate(HIDDEN_MELD_CARDS) == []
    # the last move is marked on the table, and it was mine
    expect(page.locator("#last-move")).to_contain_text("You open with")
    expect(page.locator("#melds .meld.last-moved")).to_have_count(3)
    shoot(page, f"layout-rummy40-melds-{size}")


def play_to_between(server: Server, body: Json) -> str:
    """A table whose seat 0 draws and throws its last card until the first deal is over."""
    from websockets.sync.client import connect

    made = server.post("/api/tables", body)
    token = made["seats"][0]["token"]
    with connect(f"{server.ws_base}/ws/{made['match_id']}") as ws:
        ws.send(json.dumps({"type": "hello", "seat_token": token}))
        n, waiting = 0, False
        while True:
            msg = json.loads(ws.recv(timeout=30))
            assert msg["type"] != "error", msg
            if msg["type"] not in ("update", "state"):
                continue
            view = msg["view"]
            if view["match"]["phase"] in ("between", "over"):
                break
            if msg.get("id") is not None:
                waiting = False
            legal = view["legal"]  # only the seat to play has one
            if waiting or legal is None:
                continue
            if view["deal"]["phase"] == "draw":
                intent: Json = {"type": "draw", "from": "stock"}
            elif legal["show"]:
                intent = {"type": "show", "card": legal["show"][0]}
            else:
                intent = {"type": "throw", "card": legal["throw"][-1]}
            n += 1
            ws.send(json.dumps({**intent, "id": str(n)}))
            waiting = True
    return str(made["seats"][0]["invite"])


@pytest.mark.parametrize("size", SIZES)
def test_the_score_sheet_fits_or_scrolls_in_its_own_box(server: Server, new_page: Any, size: str) -> None:
    invite = play_to_between(
        server,
        {
            "preset": "pool101",
            "title": "Friday pool at the Shresthas",
            "settings": {"players": 4},
            "seats": [
                {"kind": "human", "name": "Asha"},
                {"kind": "bot", "name": "Bikash Bahadur"},
                {"kind": "bot", "name": "Chandra Kumari"},
                {"kind": "bot", "name": "Dipa Shrestha"},
            ],
            "seed": f"layout-sheet-{size}",
        },
    )
    page = new_page(SIZES[size], touch=size == "phone")
    page.goto(server.base + invite)
    panel = page.locator("#between-panel")
    expect(panel).to_be_visible()
    assert page.evaluate(CLIPPED_SHEET, "#between-panel") == []
    # a pool sheet shows the running total after each deal
    running = panel.locator("table.sheet tr.running")
    expect(running).to_have_count(1)
    expect(running.locator("th")).to_have_text("Total")
    shoot(page, f"layout-sheet-between-{size}")
    # the same sheet from the bar, during the next deal
    page.locator("#next-round").click()
    expect(page.locator("#table")).to_have_attribute("data-phase", "playing")
    page.locator("#sheet-button").click()
    expect(page.locator("#sheet-dialog")).to_be_visible()
    assert page.evaluate(CLIPPED_SHEET, "#sheet-dialog") == []
    shoot(page, f"layout-sheet-dialog-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_a_seat_opened_in_another_window_gets_a_full_banner_and_no_live_buttons(
    server: Server, new_page: Any, size: str
) -> None:
    made = server.post(
        "/api/tables",
        {
            "preset": "nepali",
            "settings": {"players": 2},
            "seats": [{"kind": "human", "name": "Asha"}, {"kind": "bot", "name": "Bikash"}],
            "seed": f"layout-twice-{size}",
        },
    )
    url = server.base + made["seats"][0]["invite"]
    first = new_page(SIZES[size], touch=size == "phone")
    first.goto(url)
    assert wait_for_me(first) == "draw"
    second = new_page(SIZES[size], touch=size == "phone")
    second.goto(url)
    assert wait_for_me(second) == "draw"
    banner = first.locator("#banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("This seat was opened in another window.")
    box = banner.bounding_box()
    assert box is not None
    assert box["x"] <= 0.5 and abs(box["width"] - SIZES[size]["width"]) <= 1, box  # the full width
    assert box["height"] < 160, box  # a bar, not a squeezed circle
    assert first.evaluate(LIVE_CONTROLS) == []  # only the banner's own button
    expect(banner.locator("#use-here")).to_be_visible()
    shoot(first, f"layout-opened-elsewhere-{size}")
    # Use this window takes the seat back; the other window is the one left out now
    first.locator("#use-here").click()
    expect(first.locator("#banner")).to_be_hidden()
    expect(first.locator("#table")).not_to_have_attribute("inert", "")
    expect(second.locator("#banner")).to_contain_text("opened in another window")
    assert "stock" in first.evaluate(LIVE_CONTROLS)
