"""What any rummy app is expected to have, at the web table: the pile says who threw its top card
and the last move is marked (whose, what); Group's "Best throw" label goes once the hand changes;
cards fly on draws and throws (and do not when the person prefers reduced motion); sounds, off
until turned on, and this browser remembers; a Leave table button that asks first, closes the
socket and goes back to the lobby, the seat then played by the server's away rules."""

from __future__ import annotations

import re
import time
from typing import Any

from browser_helpers import DESKTOP, PHONE, Server, table_attr, wait_for_me, wait_version_after
from playwright.sync_api import Page, expect


def two_seat_table(server: Server, seed: str) -> str:
    made = server.post(
        "/api/tables",
        {
            "preset": "nepali",
            "settings": {"players": 2},
            "seats": [{"kind": "human", "name": "Asha"}, {"kind": "bot", "name": "Bikash", "bot": "greedy"}],
            "seed": seed,
        },
    )
    return server.base + made["seats"][0]["invite"]


def counts(page: Page) -> dict[str, int]:
    got: dict[str, int] = page.evaluate("() => ({...window.rummykit.counts})")
    return got


def draw_from_stock(page: Page) -> None:
    assert wait_for_me(page) == "draw"
    version = table_attr(page, "version")
    page.locator("#stock").click()
    wait_version_after(page, version)


def throw_card(page: Page, button: Any) -> None:
    version = table_attr(page, "version")
    button.click()
    button.click()
    wait_version_after(page, version)


def test_the_pile_names_its_thrower_the_last_move_is_marked_and_best_throw_goes(
    server: Server, new_page: Any
) -> None:
    page = new_page(DESKTOP)
    page.goto(two_seat_table(server, "features-pile"))
    assert wait_for_me(page) in ("draw", "throw")
    # the card turned up at the deal was thrown by nobody
    if table_attr(page, "deal") == "1" and not page.locator("#last-move").is_visible():
        expect(page.locator("#pile-label")).to_have_text(re.compile(r"^Pile · \d+$"))
    draw_from_stock(page)
    expect(page.locator("#last-move")).to_contain_text("You draw")
    # Group lays the best throw aside; throwing another card takes the label away (defect: it stayed)
    page.locator("#group").click()
    aside = page.locator("#hand .cluster.seg-aside")
    expect(aside).to_have_count(1)
    best = aside.locator("button.card").get_attribute("data-card")
    other = page.locator("#hand .cluster.seg-loose button.card").first
    thrown = other.get_attribute("data-card")
    assert thrown != best
    throw_card(page, other)
    expect(page.locator("#hand .cluster-label", has_text="Best throw")).to_have_count(0)
    # the bot plays at once: its throw is the pile's top card and the last move, marked on its seat
    assert wait_for_me(page) == "draw"
    expect(page.locator("#pile-label")).to_have_text("Thrown by Bikash")
    expect(page.locator("#pile")).to_have_attribute("aria-label", re.compile(r"thrown by Bikash$"))
    expect(page.locator("#last-move")).to_contain_text(
        re.compile(r"Bikash throws (10|[2-9AJQK])[♠♥♦♣]|Joker")
    )
    expect(page.locator('#opponents .seat[data-seat="1"]')).to_have_class(re.compile(r"\blast-moved\b"))
    draw_from_stock(page)
    card = page.locator("#hand button.card").last
    thrown = card.get_attribute("data-card")
    version = table_attr(page, "version")
    card.click()
    card.click()
    # my own throw, before the bot answers, or the bot's after it: the label names the thrower
    wait_version_after(page, version)
    expect(page.locator("#pile-label")).to_have_text(re.compile(r"^Thrown by (you|Bikash)$"))


def test_cards_fly_unless_motion_is_reduced_and_sounds_wait_to_be_turned_on(
    server: Server, new_page: Any
) -> None:
    page = new_page(DESKTOP)
    url = two_seat_table(server, "features-motion")
    page.goto(url)
    sound = page.locator("#sound-button")
    # sounds are off until this browser turns them on
    expect(sound).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('rummykit.sound')") is None
    draw_from_stock(page)
    page.wait_for_function("() => window.rummykit.counts.flights >= 1")  # the stock's card flies in
    assert counts(page)["sounds"] == 0
    throw_card(page, page.locator("#hand button.card").last)
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    expect(sound).to_have_accessible_name("Sound")
    assert page.evaluate("localStorage.getItem('rummykit.sound')") == "on"
    draw_from_stock(page)
    page.wait_for_function("() => window.rummykit.counts.sounds >= 1")
    # this browser remembers, and a person who prefers reduced motion sees nothing fly
    page.emulate_media(reduced_motion="reduce")
    page.reload()
    expect(page.locator("#table")).to_have_attribute("data-phase", "playing")
    expect(sound).to_have_attribute("aria-pressed", "true")
    assert wait_for_me(page) == "throw"
    throw_card(page, page.locator("#hand button.card").last)
    draw_from_stock(page)
    assert counts(page)["flights"] == 0
    assert counts(page)["sounds"] >= 1
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('rummykit.sound')") == "off"


def test_leave_asks_closes_the_socket_and_goes_back_to_the_lobby(server: Server, new_page: Any) -> None:
    made = server.post(
        "/api/tables",
        {
            "preset": "nepali",
            "settings": {"players": 2},
            "seats": [{"kind": "human", "name": "Asha"}, {"kind": "bot", "name": "Bikash", "bot": "greedy"}],
            "seed": "features-leave",
        },
    )
    mid, token = made["match_id"], made["seats"][0]["token"]
    page = new_page(PHONE, touch=True)
    page.goto(server.base + made["seats"][0]["invite"])
    assert wait_for_me(page) == "draw"
    leave = page.locator("#leave-button")
    expect(leave).to_have_accessible_name("Leave the table")
    leave.tap()
    dialog = page.locator("dialog.ask")
    expect(dialog).to_contain_text("Leave the table?")
    expect(dialog).to_contain_text("plays your turns for you")
    dialog.get_by_role("button", name="Stay").tap()
    expect(dialog).to_have_count(0)
    assert page.url.startswith(f"{server.base}/t/")
    leave.tap()
    page.locator("dialog.ask").get_by_role("button", name="Leave the table").tap()
    page.wait_for_url(f"{server.base}/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    # the seat is away now: the server's away rules play it
    end = time.monotonic() + 10
    while server.view(mid, token)["seats"][0]["connected"]:
        assert time.monotonic() < end, "the seat still looks connected"
        time.sleep(0.1)
