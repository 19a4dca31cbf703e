"""A Rummy 40 deal in the browser: the Opening meter's one-tap Open, a lay-off by dragging a card
onto a meld, a joker swap (select the natural card, tap the joker), a lay-off by tap-then-tap,
Put back, and a refusal shown as one line; then the same table at a phone's width.

The deal is stacked (a test-only hook of the test server: ``serve_for_tests.py`` with a stacks
file, never reachable through the API), so the person's hand and draws are known:

* turn 1: draw 7♦; the meter reads 77 of 40 (K K K, 5 6 7 of hearts, 9 10 of clubs with a
  joker standing for the J♣); Open; throw 8♠.
* turn 2: draw 4♥ and drag it onto the hearts; throw 7♦.
* turn 3: draw J♣, tap it and tap the joker of the clubs (a swap); the freed joker must go down:
  tap it and tap the hearts (a lay-off by tap-then-tap); throw 2♠.

The bot at seat 0 is dealt spread-out cards that make no meld, so it only draws and throws.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import DESKTOP, PHONE, Server, mouse_drag, shoot, unlabelled_controls, wait_for_me
from playwright.sync_api import Page, expect

SEED = "tf-browser"
STACKS = {
    SEED: {
        "hands": {"1": "Ks Kh Kd 5h 6h 7h 9c 10c JK 2s 3d 8s 4c"},
        "pile": "Qs",
        "stock": "7d 2h 4h 3c Jc 5d 6c 9d",
    },
    # on the phone, 2♦ 3♦ wait for the 4♦ of the second turn, to be laid down as a new meld
    f"{SEED}-phone": {
        "hands": {"1": "Ks Kh Kd 5h 6h 7h 9c 10c JK 2d 3d 8s 4c"},
        "pile": "Qs",
        "stock": "7d 2h 4d 3c Jc 5c 6c 9h",
    },
}


@pytest.fixture(scope="module")
def stacked_server(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Server]:
    # asking for ``browser`` first checks that the browser tests can run here (and fails under CI)
    tmp: Path = tmp_path_factory.mktemp("table-family-server")
    stacks = tmp / "stacks.json"
    stacks.write_text(json.dumps(STACKS))
    srv = Server(f"sqlite:///{tmp / 'rummykit.db'}", tmp / "server.log", stacks)
    try:
        yield srv
    finally:
        srv.stop()


def new_table(server: Server, seed: str) -> tuple[str, str]:
    made = server.post(
        "/api/tables",
        {
            "preset": "rummy40",
            "settings": {"players": 2},
            "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "human", "name": "Asha"}],
            "seed": seed,
            "options": {"turn_time": 600},
        },
    )
    return made["match_id"], made["seats"][1]["invite"]


def hand(page: Page) -> list[str]:
    got: list[str] = page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    return got


def meld_cards(page: Page, meld: int) -> list[str]:
    got: list[str] = page.locator(f'#melds .meld[data-meld="{meld}"] button.mcard').evaluate_all(
        "bs => bs.map(b => b.dataset.card)"
    )
    return got


def hand_card(page: Page, card: str) -> Any:
    return page.locator(f'#hand button.card[data-card="{card}"]').last


def draw_stock(page: Page, expect_card: str) -> None:
    assert wait_for_me(page) == "draw"
    page.locator("#stock").click()
    page.wait_for_function("() => document.querySelector('#table').dataset.step === 'throw'")
    expect(hand_card(page, expect_card)).to_be_visible()


def throw(page: Page, card: str) -> None:
    hand_card(page, card).click()
    page.locator("#throw").click()
    page.wait_for_function(
        "() => document.querySelector('#table').dataset.turn !== 'mine'"
        " || document.querySelector('#table').dataset.step === 'draw'"
    )


def test_a_rummy40_deal_open_lay_off_by_drag_and_by_tap_and_a_joker_swap(
    stacked_server: Server, new_page: Any
) -> None:
    _mid, invite = new_table(stacked_server, SEED)
    page = new_page(DESKTOP)
    page.goto(stacked_server.base + invite)
    assert wait_for_me(page) == "draw"
    assert page.locator("#table").get_attribute("data-family") == "table"
    expect(page.locator("#melds")).to_contain_text("No melds on the table yet")
    expect(page.locator(".cut-slot")).to_be_hidden()
    expect(page.locator("#group")).to_be_visible()  # melds first, by the Opening meter
    expect(page.locator("#sort")).to_be_visible()
    # the turn clock runs (10 minutes here), drawn with an inline icon: no glyph a font may lack
    expect(page.locator("#me-clock-text")).to_have_text(re.compile(r"^(\d+ s|\d+:\d\d)$"))
    expect(page.locator("#me-clock svg.clock-icon")).to_be_visible()
    assert "⏱" not in page.locator("#me-clock").inner_text()

    # the pile card must be used: throwing it is refused with the reason, Put back undoes the take
    page.locator("#pile").click()
    expect(page.locator("#put-back")).to_be_visible()
    expect(page.locator("#throw")).to_have_attribute("aria-disabled", "false")
    mouse_drag(page, hand_card(page, "Qs"), page.locator("#pile-zone"))
    expect(page.locator("#status")).to_contain_text("use the card you took from the pile before throwing")
    page.locator("#put-back").click()
    page.wait_for_function("() => document.querySelector('#table').dataset.step === 'draw'")
    expect(page.locator("#put-back")).to_be_hidden()
    assert "Qs" not in hand(page)

    # turn 1: the meter reads the best opening; one tap opens with it
    draw_stock(page, "7d")
    meter = page.locator("#meter")
    expect(meter).to_be_visible()
    assert meter.get_attribute("data-points") == "77" and meter.get_attribute("data-threshold") == "40"
    expect(page.locator("#meter-text")).to_have_text("77 / 40")
    expect(page.locator("#open")).to_be_visible()
    shoot(page, "table-family-meter")
    page.locator("#open").click()
    page.wait_for_function("() => document.querySelectorAll('#melds .meld').length === 3")
    assert meld_cards(page, 1) == ["Ks", "Kh", "Kd"]
    assert meld_cards(page, 2) == ["5h", "6h", "7h"]
    assert meld_cards(page, 3) == ["9c", "10c", "JK"]
    joker = page.locator('#melds .meld[data-meld="3"] .joker-slot')
    assert joker.get_attribute("data-stands") == "Jc"
    expect(joker).to_contain_text("J♣")
    expect(page.locator("#meter")).to_be_hidden()
    expect(page.locator("#melds .meld-owner.mine")).to_contain_text("Your melds")
    assert unlabelled_controls(page) == []  # every meld card and button has a name
    # a lay-off that does not fit is refused, with the engine's reason, in one line
    hand_card(page, "2s").click()
    page.locator('#melds .meld[data-meld="1"] button.mcard').first.click()
    expect(page.locator("#status")).to_contain_text("2s does not fit meld 1: a set of kings")
    hand_card(page, "2s").click()  # let it go again
    throw(page, "8s")

    # turn 2: drag the 4♥ onto the hearts
    draw_stock(page, "4h")
    mouse_drag(page, hand_card(page, "4h"), page.locator('#melds .meld[data-meld="2"]'))
    page.wait_for_function(
        "() => document.querySelectorAll('#melds .meld[data-meld=\"2\"] button.mcard').length === 4"
    )
    assert meld_cards(page, 2) == ["4h", "5h", "6h", "7h"]
    assert "4h" not in hand(page)
    throw(page, "7d")

    # turn 3: swap the J♣ in for the joker, then lay the joker off by tap-then-tap
    draw_stock(page, "Jc")
    hand_card(page, "Jc").click()
    page.locator('#melds .meld[data-meld="3"] .joker-slot').click()
    page.wait_for_function("() => !document.querySelector('#melds .meld[data-meld=\"3\"] .joker-slot')")
    assert meld_cards(page, 3) == ["9c", "10c", "Jc"]
    assert "JK" in hand(page)
    expect(page.locator("#prompt")).to_contain_text("freed joker")
    hand_card(page, "JK").click()
    page.locator('#melds .meld[data-meld="2"] button.mcard').first.click()
    page.wait_for_function(
        "() => document.querySelectorAll('#melds .meld[data-meld=\"2\"] button.mcard').length === 5"
    )
    assert meld_cards(page, 2) == ["4h", "5h", "6h", "7h", "JK"]
    assert page.locator('#melds .meld[data-meld="2"] .joker-slot').get_attribute("data-stands") == "8h"
    shoot(page, "table-family-melds")
    throw(page, "2s")
    assert sorted(hand(page)) == ["3d", "4c"]
    # the log tells the story
    log = page.locator("#log").inner_text()
    # in the server's words (engine/words.py), as this seat reads them
    for words in (
        "You open with",
        "(77 points)",
        "You lay off 4♥ onto meld 2",
        "You swap J♣",
        "You put Q♠ back",
    ):
        assert words in log, (words, log)


def test_the_lobby_sets_up_a_rummy40_table_with_its_clock_opening_match_and_hints(
    server: Server, new_page: Any
) -> None:
    page = new_page(DESKTOP)
    page.goto(f"{server.base}/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    # a turn clock for every game (RULES.md): off at Nepali rummy and Remi 51, 45 s at Rummy 40
    expect(page.locator('.setting[data-key="clock"]')).to_be_visible()
    expect(page.locator("#set-clock")).to_have_value("")
    expect(page.locator('.setting[data-key="opening"]')).to_be_hidden()  # the show family opens nothing
    page.locator("label[for=preset-remi51]").click()
    expect(page.locator("#set-clock")).to_have_value("")
    expect(page.locator('.setting[data-key="opening"]')).to_be_hidden()  # Remi 51 opens with 51, no choice
    page.locator("label[for=preset-rummy40]").click()
    for key in ("runs_needed", "dropping", "cut_joker", "printed_jokers", "ace_high", "full_count"):
        expect(page.locator(f'.setting[data-key="{key}"]')).to_be_hidden()
    expect(page.locator("#set-clock")).to_have_value("45")
    options = page.locator("#set-clock option").evaluate_all("os => os.map(o => o.value)")
    assert options == ["", "30", "45", "60", "90", "600"]
    # Rummy 40's room options (seed 003): the opening 30, 40 or 51; one deal or to 200
    expect(page.locator("#set-opening")).to_have_value("40")
    assert page.locator("#set-opening option").all_inner_texts() == ["30 points", "40 points", "51 points"]
    assert page.locator("#set-target option").all_inner_texts() == ["One deal", "First to 200"]
    rummy40 = next(p for p in server.get("/api/options")["presets"] if p["name"] == "rummy40")
    level = rummy40["default_difficulty"]
    expect(page.locator("#set-difficulty")).to_have_value(level)
    page.fill("#set-players", "3")
    page.select_option("#set-clock", "90")
    page.select_option("#set-opening", "30")
    page.select_option("#set-target", "200")
    page.check("#set-hints")
    expect(page.locator("#set-hints-state")).to_have_text("On")
    page.click("#create")
    created = page.locator("#created")
    expect(created).to_be_visible()
    mine = created.locator("input.link").nth(0).input_value()
    page.goto(mine)
    page.wait_for_function("() => document.querySelector('#table').dataset.family === 'table'")
    view = page.evaluate("() => window.rummykit.state.view")
    assert view["match"]["preset"] == "rummy40" and view["match"]["turn_time"] == 90
    assert (view["rules"]["opening"], view["rules"]["target"]) == (30, 200)
    assert view["match"]["hints"] is True and len(view["seats"]) == 3
    assert [s["bot"] for s in view["seats"][1:]] == [level, level]
    # my turn comes round (the seat left of the dealer plays first): Hint answers in one line
    assert wait_for_me(page) == "draw"
    expect(page.locator("#hint")).to_be_visible()
    page.locator("#hint").click()
    expect(page.locator("#hint-line")).to_be_visible()
    page.wait_for_function(
        "() => !['', 'Thinking…'].includes(document.querySelector('#hint-line').textContent)"
    )
    text = page.locator("#hint-line").inner_text()
    assert text.startswith("Hint: ") or text == "No hint for this game yet.", text


def test_the_table_family_fits_a_phone_and_lays_down_a_new_meld(
    stacked_server: Server, new_page: Any
) -> None:
    _mid, invite = new_table(stacked_server, f"{SEED}-phone")
    page = new_page(PHONE, touch=True)
    page.goto(stacked_server.base + invite)
    draw_stock(page, "7d")
    expect(page.locator("#open")).to_be_visible()
    page.locator("#open").tap()
    page.wait_for_function("() => document.querySelectorAll('#melds .meld').length === 3")
    # nothing is wider than the screen, and the melds, the hand and the actions are all on it
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    for sel in ("#melds", "#hand", "#throw", "#lay-down"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, (sel, box)
    shoot(page, "table-family-phone", full_page=True)
    hand_card(page, "8s").tap()
    page.locator("#throw").tap()
    # turn 2: the 4♦ comes; select 2♦ 3♦ 4♦ and lay them down as a new meld
    draw_stock(page, "4d")
    expect(page.locator("#lay-down")).to_be_disabled()
    for card in ("2d", "3d", "4d"):
        hand_card(page, card).tap()
    expect(page.locator("#lay-down")).to_be_enabled()
    page.locator("#lay-down").tap()
    page.wait_for_function("() => document.querySelectorAll('#melds .meld').length === 4")
    assert meld_cards(page, 4) == ["2d", "3d", "4d"]
    assert sorted(hand(page)) == ["4c", "7d"]
