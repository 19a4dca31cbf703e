"""Remi 51 in the browser: no card is turned up at the deal (seed 001: "The rest of the cards are
put aside on the table"), so the first player, dealt fifteen, sees an empty pile place, throws
onto it, and that throw starts the pile.  Any script error fails the test (``new_page``)."""

from __future__ import annotations

import re
from typing import Any

from browser_helpers import DESKTOP, Server, hand_cards, wait_for_me
from playwright.sync_api import expect


def test_remi51_shows_an_empty_pile_until_the_first_throw_starts_it(server: Server, new_page: Any) -> None:
    made = server.post(
        "/api/tables",
        {
            "preset": "remi51",
            "settings": {"players": 2},
            "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "human", "name": "Ana"}],
            "seed": "remi-empty-pile",
            "options": {"turn_time": 600},
        },
    )
    seat = made["seats"][1]
    page = new_page(DESKTOP)
    page.goto(server.base + seat["invite"])
    step = wait_for_me(page)
    view = server.view(made["match_id"], seat["token"])
    assert view["deal"]["stock_count"] == 108 - 15 - 14  # the first player draws nothing
    assert view["deal"]["pile"] == [] and view["deal"]["pile_top"] is None
    assert step == "throw"  # Ana, left of the dealer, holds fifteen cards and does not draw
    assert len(hand_cards(page)) == 15
    expect(page.locator("#pile-card")).to_have_class(re.compile(r"\bempty\b"))
    expect(page.locator("#pile-label")).to_have_text("Pile · empty")
    expect(page.locator("#pile")).to_have_attribute("aria-label", re.compile(r"^The pile is empty\."))
    card = hand_cards(page)[-1]
    page.locator(f'#hand button.card[data-card="{card}"]').last.click()
    page.locator("#throw").click()
    # the throw starts the pile; the bot, not yet opened, may not take it and throws in turn
    assert wait_for_me(page) == "draw"
    expect(page.locator("#pile-card")).not_to_have_class(re.compile(r"\bempty\b"))
    expect(page.locator("#pile-label")).to_have_text("Thrown by Bot 1")  # two cards, the bot's on top
    expect(page.locator("#pile .pile-under .card")).to_have_count(1)
