"""The lobby with every setting and preset, invite links, the history pages and a deal's
download, the reconnecting table, the server's refusals in the status line, and the basics of
accessibility: every control labelled, cards announced as text, the hand played from the keyboard."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_helpers import (
    DESKTOP,
    PHONE,
    Server,
    hand_cards,
    play_by_protocol,
    shoot,
    table_attr,
    unlabelled_controls,
    wait_for_me,
    wait_version_after,
)
from playwright.sync_api import Page, expect

CARD_NAME = re.compile(
    r"^(printed joker|(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
    r"(spades|hearts|diamonds|clubs))(, .*)?$"
)


def open_lobby(page: Page, server: Server, query: str = "") -> None:
    page.goto(f"{server.base}/{query}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def test_the_lobby_sets_up_a_table_with_every_setting(server: Server, new_page: Any) -> None:
    options = server.get("/api/options")
    page = new_page(DESKTOP)
    open_lobby(page, server)
    # every preset (eight of the show family, Rummy 40 and Remi 51), and seed 000's settings table
    assert len(options["presets"]) == 10
    for p in options["presets"]:
        expect(page.locator(f"#preset-{p['name']}")).to_have_count(1)
    for item in options["lobby"]:
        expect(page.get_by_label(item["label"], exact=True)).to_be_visible()
    # a preset fills the settings with its own values
    page.locator("label[for=preset-kerala]").click()
    expect(page.locator("#set-players")).to_have_attribute("max", "8")
    expect(page.locator("#set-rounds")).to_be_disabled()
    expect(page.locator("#set-full_count")).to_have_value("100")
    page.locator("label[for=preset-maharashtra]").click()
    expect(page.locator("#set-full_count")).to_have_value("")
    expect(page.locator("#set-full_count")).to_have_attribute("placeholder", "no cap")
    page.locator("label[for=preset-deals]").click()
    expect(page.locator("#set-dropping")).not_to_be_checked()
    page.locator("label[for=preset-nepali]").click()
    expect(page.locator("#set-dropping")).to_be_checked()
    expect(page.locator("#set-rounds")).to_have_value("3")

    # change every setting of the table
    page.fill("#set-players", "5")
    expect(page.locator("#seat-rows .seat-row")).to_have_count(5)
    page.fill("#seat-0-name", "Asha")
    page.fill("#set-players", "4")
    expect(page.locator("#seat-rows .seat-row")).to_have_count(4)
    expect(page.locator("#seat-0-name")).to_have_value("Asha")
    page.fill("#set-rounds", "2")
    page.select_option("#set-runs_needed", "1")
    page.uncheck("#set-dropping")
    expect(page.locator("#set-dropping-state")).to_have_text("Not allowed")
    page.uncheck("#set-cut_joker")
    page.uncheck("#set-printed_jokers")
    page.uncheck("#set-ace_high")
    page.fill("#set-full_count", "60")
    # every level in words, none as its bare code name
    levels = page.locator("#set-difficulty option").all_inner_texts()
    assert levels[-2:] == ["Hard", "Expert"] and all(w[:1].isupper() for w in levels), levels
    page.select_option("#set-difficulty", "easy")
    page.select_option("#seat-1-kind", "human")
    page.fill("#seat-1-name", "Dipa")
    page.fill("#seat-2-name", "Chandra")
    page.select_option("#seat-2-bot", "greedy")
    page.fill("#title", "Friday rummy")
    assert unlabelled_controls(page) == []
    page.click("#create")
    created = page.locator("#created")
    expect(created).to_be_visible()
    expect(created).to_contain_text("Invite for seat 2 (Dipa)")
    shoot(page, "desktop-lobby-created")
    links = created.locator("input.link")
    expect(links).to_have_count(3)  # my seat, Dipa's invite, the watch link
    mine, dipa = links.nth(0).input_value(), links.nth(1).input_value()
    match_id, token = re.findall(r"/t/(\w+)\?seat_token=([\w-]+)", mine)[0]
    rules = server.view(match_id, token)["rules"]
    assert rules["players"] == 4 and rules["rounds"] == 2 and rules["runs_needed"] == 1
    assert rules["drop_first"] is None and rules["drop_middle"] is None
    assert rules["cut_joker"] is False and rules["printed_jokers"] == 0 and rules["ace_high"] is False
    assert rules["full_count"] == 60
    seats = server.view(match_id, token)["seats"]
    assert [(s["name"], s["kind"], s["bot"]) for s in seats] == [
        ("Asha", "human", None),
        ("Dipa", "human", None),
        ("Chandra", "bot", "greedy"),
        ("Bot 4", "bot", "easy"),
    ]
    # the links are kept on this device
    open_lobby(page, server)
    expect(page.locator("#recent-list")).to_contain_text("Friday rummy")

    # my seat waits for Dipa; Dipa opens her invite on a phone, and the first deal starts
    page.goto(mine)
    expect(page.locator("#waiting-panel")).to_contain_text("Dipa: has not opened the invite link yet")
    expect(page.locator("#start")).to_be_visible()
    shoot(page, "desktop-waiting")
    phone = new_page(PHONE, touch=True)
    phone.goto(dipa)
    for p in (page, phone):
        expect(p.locator("#table")).to_have_attribute("data-phase", "playing")
    expect(page.locator('#opponents .seat[data-seat="1"]')).to_contain_text("person")
    expect(phone.locator("#me-name")).to_have_text("Dipa")
    expect(phone.locator("#hand button.card")).to_have_count(13)
    # no cut card, no printed jokers: the table says so
    expect(page.locator("#cut-label")).to_contain_text("No cut")


def test_the_lobby_shows_the_servers_reason_for_a_bad_setting(server: Server, new_page: Any) -> None:
    new_page.allow(r"status of 400")
    page = new_page(PHONE, touch=True)
    open_lobby(page, server)
    page.fill("#set-full_count", "0")
    page.locator("#create").tap()
    error = page.locator("#lobby-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("The table was not created: full_count")
    expect(page.locator("#created")).to_be_hidden()


def test_the_lobby_refuses_nine_players_in_the_servers_words_and_lists_your_seat(
    server: Server, new_page: Any
) -> None:
    """Nine players at Nepali rummy were clamped to six without a word: now nine seats are drawn,
    the field is marked, and Create shows the server's own sentence.  The form's limits are the
    server's.  The links kept on this device say "Your seat", not "You's seat"."""
    new_page.allow(r"status of 400")
    options = {p["name"]: p for p in server.get("/api/options")["presets"]}
    page = new_page(PHONE, touch=True)
    open_lobby(page, server)
    players = page.locator("#set-players")
    for name in ("nepali", "kerala", "remi51"):
        page.locator(f"label[for=preset-{name}]").tap()
        low, high = options[name]["players"]
        expect(players).to_have_attribute("min", str(low))
        expect(players).to_have_attribute("max", str(high))
    page.locator("label[for=preset-nepali]").tap()
    players.fill("9")
    expect(page.locator("#seat-rows .seat-row")).to_have_count(9)
    expect(players).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#set-players-hint")).to_contain_text("Nepali rummy seats 2 to 6 players")
    page.locator("#create").tap()
    error = page.locator("#lobby-error")
    expect(error).to_have_text(
        "The table was not created: Nepali rummy seats 2 to 6 players; you asked for 9"
    )
    expect(page.locator("#created")).to_be_hidden()
    players.fill("2")
    expect(players).to_have_attribute("aria-invalid", "false")
    page.locator("#create").tap()
    expect(page.locator("#created")).to_be_visible()
    open_lobby(page, server)
    recent = page.locator("#recent-list")
    expect(recent.get_by_role("link", name="Your seat").first).to_be_visible()
    assert "You's" not in recent.inner_text()


def test_history_lists_matches_and_a_finished_deal_downloads(server: Server, new_page: Any) -> None:
    body = {
        "preset": "nepali",
        "title": "History check",
        "settings": {"players": 2, "rounds": 2},
        "seats": [{"kind": "human", "name": "Asha"}, {"kind": "bot", "name": "Bikash"}],
        "seed": "history-1",
    }
    got = play_by_protocol(server, body, drop_deal=None)
    match_id = got["match"]["match_id"]
    totals = got["view"]["sheet"]["totals_text"]
    # the history lists the matches this browser holds a link of (nobody else's): a stranger's
    # browser does not see this one; Asha's does, once she has opened her seat's link
    stranger = new_page(DESKTOP)
    stranger.goto(f"{server.base}/history")
    expect(stranger.locator("body")).to_have_attribute("data-ready", "true")
    expect(stranger.locator(f'tr[data-match="{match_id}"]')).to_have_count(0)
    page = new_page(DESKTOP)
    page.goto(f"{server.base}{got['match']['seats'][0]['invite']}")
    page.wait_for_function("(localStorage.getItem('rummykit.opened') ?? '').length > 2")
    page.goto(f"{server.base}/history")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    row = page.locator(f'tr[data-match="{match_id}"]')
    expect(row).to_contain_text("History check")
    for t in totals:
        expect(row).to_contain_text(t)
    assert unlabelled_controls(page) == []
    shoot(page, "desktop-history")
    row.get_by_role("link").click()
    detail = page.locator("#detail")
    expect(detail).to_contain_text("History check")
    expect(detail.locator("table.sheet tfoot")).to_contain_text(totals[0])
    downloads = detail.locator("a.download")
    expect(downloads).to_have_count(2)
    with page.expect_download() as info:
        downloads.first.click()
    download = info.value
    assert download.suggested_filename == f"rummykit-{match_id}-deal-1.txt"
    text = Path(download.path()).read_text()
    assert text.startswith("# rummykit hand history")
    assert text == server.text(f"/api/matches/{match_id}/deals/1/history")
    shoot(page, "desktop-history-match")
    phone = new_page(PHONE, touch=True)
    phone.goto(f"{server.base}/history?match={match_id}")
    expect(phone.locator("#detail a.download")).to_have_count(2)
    shoot(phone, "phone-history-match")


def test_the_table_reconnects_when_the_server_restarts(server: Server, new_page: Any) -> None:
    new_page.allow(r"WebSocket connection to .* failed")
    made = server.post(
        "/api/tables",
        {
            "preset": "nepali",
            "settings": {"players": 2},
            "seats": [{"kind": "human", "name": "Asha"}, {"kind": "bot", "name": "Bikash"}],
            "seed": "reconnect-1",
        },
    )
    page = new_page(DESKTOP)
    page.goto(server.base + made["seats"][0]["invite"])
    assert wait_for_me(page) == "draw"
    version = table_attr(page, "version")
    log = page.locator("#log li")
    lines = log.count()
    server.stop()
    banner = page.locator("#banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Reconnecting")
    expect(page.locator("#conn")).to_have_attribute("data-state", "reconnecting")
    shoot(page, "desktop-reconnecting")
    server.start()
    expect(banner).to_be_hidden(timeout=20_000)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    # the same table at the same version, nothing missed, nothing twice
    assert table_attr(page, "version") == version
    assert log.count() == lines
    page.locator("#stock").click()
    wait_version_after(page, version)
    assert table_attr(page, "step") == "throw"
    assert len(hand_cards(page)) == 14


def test_a_refusal_from_the_server_shows_in_the_status_line(server: Server, new_page: Any) -> None:
    made = server.post(
        "/api/tables",
        {
            "preset": "nepali",
            "settings": {"players": 2},
            "seats": [{"kind": "human", "name": "Asha"}, {"kind": "bot", "name": "Bikash"}],
            "seed": "refusal-1",
        },
    )
    page = new_page(DESKTOP)
    page.goto(server.base + made["seats"][0]["invite"])
    assert wait_for_me(page) == "draw"
    # an intent the page itself would never send: the server's reason reaches the status line
    page.evaluate("window.rummykit.socket.send({type: 'throw', card: 'Kc'})")
    expect(page.locator("#status")).to_contain_text("draw first")
    # and what the page checks itself is said there too
    page.locator("#hand button.card").first.click()
    page.locator("#hand button.card.marked").click()
    expect(page.locator("#status")).to_contain_text("Take a card first")
    assert table_attr(page, "step") == "draw"


def test_every_control_is_labelled_and_the_hand_plays_from_the_keyboard(
    server: Server, new_page: Any
) -> None:
    page = new_page(DESKTOP)
    open_lobby(page, server)
    assert unlabelled_controls(page) == []
    made = server.post(
        "/api/tables",
        {
            "preset": "nepali",
            "settings": {"players": 2},
            "seats": [{"kind": "human", "name": "Asha"}, {"kind": "bot", "name": "Bikash"}],
            "seed": "keys-1",
        },
    )
    page.goto(server.base + made["seats"][0]["invite"])
    assert wait_for_me(page) == "draw"
    assert unlabelled_controls(page) == []
    # cards are buttons announced as text: "ten of hearts"
    labels = page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")
    assert len(labels) == 13 and all(CARD_NAME.match(x) for x in labels), labels
    expect(page.locator("#stock")).to_have_attribute(
        "aria-label", re.compile(r"Draw from the stock, \d+ cards")
    )
    expect(page.locator("#pile")).to_have_attribute("aria-label", re.compile(r"Take the .+ from the pile"))
    expect(page.locator("#cut-card")).to_have_attribute(
        "aria-label", re.compile(r"The cut card: .+ are wild")
    )
    # Tab reaches the hand; arrows walk it; Shift+arrow moves a card
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('#hand button.card')"):
            break
    else:
        raise AssertionError("Tab never reached the hand")
    expect(page.locator("#hand-help")).to_be_visible()
    first = page.evaluate("document.activeElement.dataset.card")
    before = hand_cards(page)
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == before[1]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Shift+ArrowRight")
    after = hand_cards(page)
    assert (
        after[1] == first
        and after[0] == before[1]
        and page.evaluate("document.activeElement.dataset.card") == first
    )
    shoot(page, "desktop-keyboard")
    # the stock from the keyboard, then mark and throw with Enter
    page.locator("#stock").focus()
    version = table_attr(page, "version")
    page.keyboard.press("Enter")
    wait_version_after(page, version)
    page.locator("#group").focus()
    page.keyboard.press("Enter")
    card = page.locator("#hand button.card").last
    thrown = card.get_attribute("data-card")
    card.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#hand button.card.marked")).to_have_count(1)
    version = table_attr(page, "version")
    page.keyboard.press("Enter")
    wait_version_after(page, version)
    assert page.locator("#pile-card").get_attribute("data-card") is not None
    # what the others did is announced in words
    expect(page.locator("#announce")).to_contain_text(
        re.compile(r"Bikash (throws|takes) (the \w+ of \w+|a printed joker)")
    )
    assert thrown is not None
    # the score sheet opens from the bar, and closes
    page.locator("#sheet-button").click()
    dialog = page.locator("#sheet-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("table.sheet")).to_contain_text("Total")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    page.goto(f"{server.base}/history")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    assert unlabelled_controls(page) == []
