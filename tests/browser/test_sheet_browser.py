"""The score sheet for real tables in the browser (seed 004): a whole Pool 101 game entered with the
one-tap buttons and numbers, refusals that keep the typed entry, a player out and rejoining, the
last deal edited and undone, a winner, then the read-only share link, the print view and the PDF."""

from __future__ import annotations

import re
from typing import Any

from browser_helpers import DESKTOP, PHONE, Server, shoot, unlabelled_controls
from playwright.sync_api import Page, expect

NAMES = ["Asha", "Bikash", "Chandra", "Dipa"]


def tap(page: Page, name: str, letter: str) -> None:
    """One tap on a player's Winner / Drop / Middle drop / Full count / Wrong show button."""
    page.get_by_role("group", name=name, exact=True).locator(f'button[data-letter="{letter}"]').click()


def count(page: Page, name: str, value: str) -> None:
    page.locator(f"#count-{NAMES.index(name)}").fill(value)


def enter(page: Page, entries: dict[str, str], *, button: str = "Add deal") -> None:
    """Enter one deal: a letter taps its button, anything else is typed; then wait for the sheet."""
    version = int(page.locator("#main").get_attribute("data-version") or "0")
    for name, value in entries.items():
        if value in ("W", "D", "M", "F", "X"):
            tap(page, name, value)
        else:
            count(page, name, value)
    page.get_by_role("button", name=button).click()
    expect(page.locator("#main")).to_have_attribute("data-version", str(version + 1))
    expect(page.locator("#sheet-error")).to_be_hidden()


def totals(page: Page) -> list[str]:
    return [str(t) for t in page.locator("#standings .sc-player-total").all_inner_texts()]


def standing(page: Page, name: str) -> str:
    return str(
        page.locator(f'#standings .sc-player[data-seat="{NAMES.index(name)}"]').get_attribute("data-standing")
    )


def test_a_whole_pool101_game_is_entered_with_a_rejoin_then_shared_printed_and_downloaded(
    server: Server, new_page: Any
) -> None:
    new_page.allow(r"status of 40\d")  # the refused entries below answer 400, on purpose
    page = new_page(DESKTOP)
    page.goto(f"{server.base}/")
    page.get_by_role("link", name="Score sheets").click()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")

    # a new Pool 101 sheet: the preset's values are pre-filled
    page.get_by_label("What your table plays").select_option("pool101")
    expect(page.get_by_label("Drop", exact=True)).to_have_value("20")
    expect(page.get_by_label("Middle drop")).to_have_value("40")
    expect(page.get_by_label("Full count")).to_have_value("80")
    expect(page.get_by_label("Wrong show")).to_have_value("80")
    for i, name in enumerate(NAMES):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    page.get_by_label("Title").fill("Browser pool")
    assert unlabelled_controls(page) == []
    page.get_by_role("button", name="Start the sheet").click()
    page.wait_for_url(re.compile(r"/sheets/[0-9a-f]+$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("h1")).to_have_text("Browser pool")
    expect(page.locator("#entry-title")).to_have_text("Deal 1 · dealer Asha")

    # deal 1: one tap each, and a number
    enter(page, {"Asha": "W", "Bikash": "F", "Chandra": "30", "Dipa": "D"})
    assert totals(page) == ["0", "80", "30", "20"]
    expect(page.locator("#sheet-message")).to_have_text("Deal 1 added.")

    # deal 2, entered wrong first: two winners and a count above the full count; the sheet says
    # what is wrong, changes nothing and keeps what was typed
    tap(page, "Asha", "W")
    tap(page, "Bikash", "W")
    count(page, "Chandra", "85")
    tap(page, "Dipa", "M")
    page.get_by_role("button", name="Add deal").click()
    error = page.locator("#sheet-error")
    expect(error).to_contain_text("Exactly one winner per deal: Asha and Bikash are both marked winner")
    expect(error).to_contain_text("Chandra's count 85 is above the full count 80")
    expect(page.locator("#main")).to_have_attribute("data-version", "1")
    expect(page.locator("#count-2")).to_have_value("85")
    expect(
        page.get_by_role("group", name="Dipa", exact=True).locator('button[data-letter="M"]')
    ).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("group", name="Chandra", exact=True)).to_have_attribute("aria-invalid", "true")
    shoot(page, "sheet-refused-entry")
    # put it right: Bikash had the full count, Chandra 25
    enter(page, {"Bikash": "F", "Chandra": "25"})
    assert totals(page) == ["0", "160", "55", "60"]
    assert standing(page, "Bikash") == "out"
    expect(page.locator('#entry-rows .sc-entry-out[data-seat="1"]')).to_contain_text("out of the pool")

    # Bikash may rejoin at the highest total still in + 1 (60 ≤ 79)
    expect(page.locator("#sheet")).to_contain_text("May rejoin: Bikash at 61")
    page.get_by_role("button", name="Rejoin at 61").click()
    expect(page.locator("#sheet-message")).to_have_text("Bikash rejoins at 61 (rejoin 1).")
    assert totals(page) == ["0", "61", "55", "60"]
    assert standing(page, "Bikash") == "in"
    expect(page.locator('#standings .sc-player[data-seat="1"]')).to_contain_text("rejoins 1")

    # deal 3 goes in wrong, is edited, then undone and entered again
    enter(page, {"Asha": "W", "Bikash": "20", "Chandra": "F", "Dipa": "21"})
    assert totals(page) == ["0", "81", "135", "81"]
    assert [standing(page, n) for n in NAMES] == ["in", "compel", "out", "compel"]
    expect(page.get_by_role("button", name=re.compile("^Rejoin at"))).to_have_count(0)  # top 81 > 79
    page.get_by_role("button", name="Edit last deal").click()
    expect(page.locator("#entry-title")).to_have_text("Edit deal 3")
    expect(page.locator("#count-3")).to_have_value("21")
    count(page, "Dipa", "10")
    page.get_by_role("button", name="Save deal 3").click()
    expect(page.locator("#sheet-message")).to_have_text("Deal 3 replaced.")
    assert totals(page) == ["0", "81", "135", "70"]
    page.get_by_role("button", name="Undo last").click()
    page.get_by_role("button", name="Undo deal 3").click()
    expect(page.locator("#sheet-message")).to_have_text("Undid deal 3.")
    assert totals(page) == ["0", "61", "55", "60"]
    enter(page, {"Asha": "W", "Bikash": "20", "Chandra": "F", "Dipa": "10"})
    assert totals(page) == ["0", "81", "135", "70"]
    assert [standing(page, n) for n in NAMES] == ["in", "compel", "out", "in"]

    # deal 4: Chandra is out and sits it out; Dipa goes out too
    enter(page, {"Asha": "F", "Bikash": "W", "Dipa": "F"})
    assert totals(page) == ["80", "81", "135", "150"]
    assert [standing(page, n) for n in NAMES] == ["in", "compel", "out", "out"]
    # deal 5 decides it
    enter(page, {"Asha": "30", "Bikash": "W"})
    assert totals(page) == ["110", "81", "135", "150"]
    expect(page.locator("#sheet-result")).to_have_text("Winner: Bikash (81)")
    expect(page.locator("#main")).to_have_attribute("data-state", "over")
    expect(page.locator("#entry")).to_be_hidden()
    expect(page.locator('#standings .sc-player[data-seat="1"]')).to_contain_text("winner")
    summary = page.locator("#sheet tbody.sc-summary tr.sc-line-total td")
    expect(summary).to_have_text(["110 out", "81 C", "135 out", "150 out"])
    expect(page.locator("#sheet tbody.sc-deal")).to_have_count(5)
    expect(page.locator("#sheet")).to_contain_text("Bikash rejoins at 61 (rejoin 1)")
    shoot(page, "sheet-over", full_page=True)

    # print: a clean sheet without the entry and the buttons
    page.emulate_media(media="print")
    expect(page.locator("#tools")).to_be_hidden()
    expect(page.locator("#standings")).to_be_hidden()
    expect(page.locator("#sheet table")).to_be_visible()
    shoot(page, "sheet-print", full_page=True)
    page.emulate_media(media="screen")

    # the share link opens the sheet read-only on another device
    page.get_by_role("button", name="Share link").click()
    share = str(page.locator("#share-link").get_attribute("href"))
    assert re.search(r"/s/[\w-]+$", share)
    pdf_href = str(page.locator("#pdf").get_attribute("href"))
    other = new_page(PHONE, touch=True)
    other.goto(share)
    expect(other.locator("body")).to_have_attribute("data-ready", "true")
    expect(other.locator("#read-only")).to_be_visible()
    expect(other.locator("#read-only")).to_contain_text("Read-only")
    expect(other.locator("#entry")).to_be_hidden()
    for name in ("Edit last deal", "Undo last"):
        expect(other.get_by_role("button", name=name)).to_be_hidden()
    assert [str(t) for t in other.locator("#standings .sc-player-total").all_inner_texts()] == [
        "110",
        "81",
        "135",
        "150",
    ]
    expect(other.locator("#sheet-result")).to_contain_text("Winner: Bikash (81)")
    width = other.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the read-only sheet is {width}px wide on a phone"
    shoot(other, "sheet-shared-phone", full_page=True)

    # the PDF link answers a PDF of this sheet
    got = other.request.get(f"{server.base}{pdf_href}" if pdf_href.startswith("/") else pdf_href)
    assert got.status == 200 and got.headers["content-type"] == "application/pdf"
    assert got.body().startswith(b"%PDF-")

    # the list shows the sheet, editable on this device, read-only on the other
    page.goto(f"{server.base}/sheets")
    item = page.locator(".sc-item", has_text="Browser pool")
    expect(item).to_contain_text("yours: edit")
    expect(item).to_contain_text("Winner: Bikash (81)")
    other.goto(f"{server.base}/sheets")
    expect(other.locator(".sc-item", has_text="Browser pool")).to_contain_text("read-only")


def test_the_entry_works_on_a_phone_with_taps(server: Server, new_page: Any) -> None:
    page = new_page(PHONE, touch=True)
    made = server.post("/api/sheets", {"preset": "pool250", "players": ["Anu", "Biju", "Chinnu"]})
    page.goto(f"{server.base}{made['edit']}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page).to_have_url(re.compile(r"/sheets/[0-9a-f]+$"))  # the token left the address bar
    for seat, letter in ((0, "W"), (1, "M"), (2, "F")):
        button = page.locator(f'#entry-rows .sc-entry-row[data-seat="{seat}"] button[data-letter="{letter}"]')
        box = button.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44
        button.tap()
    page.get_by_role("button", name="Add deal").tap()
    expect(page.locator("#main")).to_have_attribute("data-version", "1")
    assert [str(t) for t in page.locator("#standings .sc-player-total").all_inner_texts()] == [
        "0",
        "50",
        "100",
    ]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the sheet page is {width}px wide on a phone"
    assert unlabelled_controls(page) == []


def test_a_points_sheet_on_a_phone_early_show_every_problem_and_who_pays_whom(
    server: Server, new_page: Any
) -> None:
    new_page.allow(r"status of 40\d")  # the refused entry below answers 400, on purpose
    page = new_page(PHONE, touch=True)
    made = server.post("/api/sheets", {"preset": "points", "players": ["Asha", "Bikash", "Chandra"]})
    page.goto(f"{server.base}{made['edit']}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    group = page.get_by_role("group", name="Asha", exact=True)
    expect(group.locator('button[data-letter="E"]')).to_have_count(1)  # points halve after an early show

    # two problems at once: each on its own line, nothing entered
    page.locator("#count-0").fill("abc")
    page.locator("#count-1").fill("85")
    page.locator("#count-2").fill("3")
    page.get_by_role("button", name="Add deal").tap()
    error = page.locator("#sheet-error")
    expect(error).to_contain_text("Asha: 'abc' is not a number or one of W E D M F X -.")
    expect(error).to_contain_text("Bikash's count 85 is above the full count 80.")
    expect(error.locator("br")).to_have_count(2)  # three problems, three lines
    expect(page.locator("#main")).to_have_attribute("data-version", "0")

    # an early show: E for the winner, the counts as the cards say; the sheet halves them
    page.locator("#count-0").fill("45")
    page.get_by_role("group", name="Bikash", exact=True).locator('button[data-letter="E"]').tap()
    page.get_by_role("group", name="Chandra", exact=True).locator('button[data-letter="D"]').tap()
    page.get_by_role("button", name="Add deal").tap()
    expect(page.locator("#main")).to_have_attribute("data-version", "1")
    assert [str(t) for t in page.locator("#standings .sc-player-total").all_inner_texts()] == [
        "22",
        "0",
        "10",
    ]
    expect(page.locator("#sheet tbody.sc-deal td").nth(1)).to_have_text("0 E")
    expect(page.locator("#sheet-legend")).to_contain_text("E early show")
    # the table plays on, and the sheet says who pays whom
    expect(page.locator("#entry-title")).to_contain_text("Deal 2")
    settle = page.locator("#sheet .sc-settle li")
    expect(settle).to_have_text(["Asha pays Bikash ₹22", "Chandra pays Bikash ₹10"])
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the sheet page is {width}px wide on a phone"
    assert unlabelled_controls(page) == []
    shoot(page, "sheet-points-early-show-phone", full_page=True)
