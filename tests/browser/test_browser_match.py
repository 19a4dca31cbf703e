"""Whole Nepali matches played in Chromium as a person plays them: set the table up in the lobby,
take the seat, tap and throw, drag cards onto the pile, Group, Show when the table offers it,
Drop (confirmed), Next round, and at the end the winner and the rematch.  One match at a desktop
size with a mouse and the keyboard, one at a phone size with a finger.

Each match is first played by the same plan straight over the protocol to pick a seed whose
match reaches a show (and a drop); the browser then plays that seed and must end exactly as the
plan did, which also proves the page sent exactly the moves it was asked to."""

from __future__ import annotations

import json
import re
from typing import Any

from browser_helpers import (
    DESKTOP,
    NO_THROW_BACK,
    PHONE,
    Json,
    Server,
    card_button,
    find_seed,
    grouped_order,
    hand_cards,
    i_showed,
    mouse_drag,
    planned_throw,
    shoot,
    table_attr,
    touch_drag,
    wait_for_me,
    wait_version_after,
)
from playwright.sync_api import Page, expect


def seat_and_token(page: Page) -> tuple[str, str]:
    m = re.search(r"/t/(\w+)\?seat_token=([\w-]+)", page.url)
    assert m, page.url
    return m.group(1), m.group(2)


def set_up_in_the_lobby(
    page: Page, server: Server, seed: str, players: int, rounds: int | None, shot: str
) -> str:
    """Fill the lobby as a person would; returns the watch link."""
    page.goto(f"{server.base}/?seed={seed}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#preset-nepali")).to_be_checked()
    if players != 4:
        page.fill("#set-players", str(players))
    if rounds is not None:
        page.fill("#set-rounds", str(rounds))
    expect(page.locator("#seat-rows .seat-row")).to_have_count(players)
    page.fill("#seat-0-name", "Asha")
    shoot(page, shot, full_page=True)
    page.click("#create")
    expect(page.locator("#created")).to_be_visible()
    watch = page.locator("#created input.link").last.input_value()
    assert "/watch/" in watch
    page.click("#take-seat")
    page.wait_for_url(re.compile(r"/t/\w+\?seat_token="))
    return watch


def hand_after_move(page: Page, before: list[str]) -> list[str]:
    """The hand once a card moved within it (the page redraws it just after the pointer lifts)."""
    page.wait_for_function(
        "b => JSON.stringify([...document.querySelectorAll('#hand button.card')]"
        ".map(x => x.dataset.card)) !== b",
        arg=json.dumps(before, separators=(",", ":")),
    )
    return hand_cards(page)


def throw_back_is_refused(page: Page, drag: Any) -> None:
    """The card just taken from the pile: a second tap and a drag onto the pile are both refused,
    the page says why, and nothing goes to the server."""
    version = table_attr(page, "version")
    taken = page.locator("#hand button.card.no-throw")
    expect(taken).to_have_count(1)
    expect(taken).to_have_attribute("aria-label", re.compile("cannot be thrown back"))
    status = page.locator("#status")
    drag("tap", taken)
    drag("tap", taken)
    expect(status).to_contain_text(NO_THROW_BACK)
    page.evaluate("document.querySelector('#status').textContent = ''")
    drag("drag", taken)
    expect(status).to_contain_text(NO_THROW_BACK)
    assert table_attr(page, "version") == version
    assert len(hand_cards(page)) == 14


def check_show_offer(page: Page, view: Json) -> None:
    """Show appears exactly when the hand is a show, with the finishing cards lit."""
    legal = view["legal"]
    finishing = page.locator("#hand button.card.finishing")
    if legal["show"]:
        expect(page.locator("#show")).to_be_visible()
        lit = finishing.evaluate_all("bs => bs.map(b => b.dataset.card)")
        assert set(lit) == set(legal["show"]), (lit, legal["show"])
        expect(page.locator("#strip")).to_contain_text("A show!")
    else:
        expect(page.locator("#show")).to_be_hidden()
        expect(finishing).to_have_count(0)
        expect(page.locator("#strip")).to_contain_text("A show still needs:")


def drop_with_confirmation(page: Page, act: Any, cost: int, shot: str) -> None:
    drop = page.locator("#drop")
    expect(drop).to_have_text(f"Drop ({cost})")
    act("tap", drop)
    dialog = page.locator("dialog.ask")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(f"Drop out of this deal for {cost}?")
    shoot(page, shot)
    act("tap", dialog.get_by_role("button", name="Keep playing"))
    expect(dialog).to_have_count(0)
    assert table_attr(page, "turn") == "mine" and table_attr(page, "step") == "draw"
    act("tap", drop)
    act("tap", page.locator("dialog.ask").get_by_role("button", name=f"Drop for {cost}"))
    expect(page.locator("#table")).to_have_attribute("data-status", "dropped")


def play_match(
    page: Page,
    server: Server,
    act: Any,
    prefix: str,
    drop_deal: int | None,
    watcher: Page | None = None,
    until: Any = None,
) -> dict[str, Any]:
    """Play the plan on the page until the match is over (or ``until(moves)``); returns what
    happened on the page."""
    match_id, token = seat_and_token(page)
    turns: dict[int, int] = {}
    moves: list[Json] = []
    throws = 0
    shots: set[str] = set()

    def once(name: str, target: Page | None = None) -> None:
        if name not in shots:
            shots.add(name)
            shoot(target or page, name)

    while until is None or not until(moves):
        state = wait_for_me(page)
        if state == "over":
            break
        if state == "between" and page.locator("#rejoin").count():
            view = server.view(match_id, token)
            offer = view["between"]["offer"]
            assert offer is not None and view["seats"][view["you"]["seat"]]["standing"] == "out"
            panel = page.locator("#between-panel")
            expect(panel.locator("table.sheet tfoot")).to_contain_text("out")
            expect(page.locator("#rejoin")).to_have_text(f"Rejoin at {offer['total']}")
            expect(page.locator("#next-round")).to_have_count(0)
            once(f"{prefix}-rejoin")
            moves.append({"deal": int(table_attr(page, "deal")), "type": "rejoin"})
            version = table_attr(page, "version")
            act("tap", page.locator("#rejoin"))
            wait_version_after(page, version)
            continue
        if state == "between":
            panel = page.locator("#between-panel")
            expect(panel.locator("table.sheet tfoot")).to_contain_text("Total")
            expect(panel.locator("table.sheet tr.paid").first).to_be_visible()
            once(f"{prefix}-between")
            if watcher is not None and f"{prefix}-watch-between" not in shots:
                expect(watcher.locator("#between-panel")).to_be_visible()
                expect(watcher.locator("#between-panel #next-round")).to_have_count(0)
                once(f"{prefix}-watch-between", watcher)
            moves.append({"deal": int(table_attr(page, "deal")), "type": "next_round"})
            version = table_attr(page, "version")
            act("tap", page.locator("#next-round"))
            wait_version_after(page, version)
            continue
        deal = int(table_attr(page, "deal"))
        view = server.view(match_id, token)
        assert view["legal"] is not None and view["deal"]["number"] == deal
        version = table_attr(page, "version")
        if state == "draw":
            k = turns.get(deal, 0)
            turns[deal] = k + 1
            expect(page.locator("#show")).to_be_hidden()
            expect(page.locator("#throw")).to_be_hidden()
            if view["legal"]["drop"]:
                expect(page.locator("#drop")).to_be_visible()
            else:
                expect(page.locator("#drop")).to_be_hidden()
            once(f"{prefix}-table-draw")
            if watcher is not None:
                expect(watcher.locator("#table")).to_have_attribute(
                    "data-version", table_attr(page, "version")
                )
                expect(watcher.locator("#hand button.card")).to_have_count(0)
                once(f"{prefix}-watch-playing", watcher)
            if deal == drop_deal and k == 0 and view["legal"]["drop"]:
                drop_with_confirmation(page, act, view["legal"]["drop"]["cost"], f"{prefix}-drop-confirm")
                moves.append({"deal": deal, "type": "drop"})
                continue
            if deal == 1 and k == 0 and view["legal"]["draw_pile"]:
                act("tap", page.locator("#pile"))
                wait_version_after(page, version)
                moves.append({"deal": deal, "type": "draw", "from": "pile"})
                once(f"{prefix}-took-pile")
                throw_back_is_refused(page, act)
                once(f"{prefix}-throw-back-refused")
                expect(page.locator("#drop")).to_be_hidden()  # too late once a card is taken
            else:
                act("tap", page.locator("#stock"))
                wait_version_after(page, version)
                moves.append({"deal": deal, "type": "draw", "from": "stock"})
            continue
        # the throw: Show if the table offers it, else Group and throw the best throw
        check_show_offer(page, view)
        if view["legal"]["show"]:
            expect(page.locator("#strip")).to_have_class(re.compile("ready"))
            once(f"{prefix}-show")
            card = view["legal"]["show"][0]
            expect(page.locator("#show")).to_have_attribute("aria-label", re.compile("Show, finishing with"))
            act("tap", page.locator("#show"))
            wait_version_after(page, version)
            moves.append({"deal": deal, "type": "show", "card": card})
            continue
        if throws == 0:
            # arrange by hand first: drag the last card to the front; Group puts it all back
            before = hand_cards(page)
            last = page.locator("#hand button.card").last
            act("drag", last, page.locator("#hand button.card").first, (0.2, 0.5))
            after = hand_after_move(page, before)
            assert sorted(after) == sorted(before) and after[0] == before[-1], (before, after)
        act("tap", page.locator("#group"))
        assert hand_cards(page) == grouped_order(view["hand"])
        expect(page.locator("#hand .cluster-label").first).to_be_visible()
        uid, card = planned_throw(page)
        assert card in view["legal"]["throw"]
        button = card_button(page, uid)
        how = ("tap", "drag", "keys")[throws % 3]
        if how == "keys" and not act.keys:
            how = "tap"
        if how == "tap":
            act("tap", button)
            expect(button).to_have_class(re.compile(r"\bmarked\b"))
            expect(page.locator("#throw")).to_have_text(re.compile("Throw"))
            once(f"{prefix}-table-marked")
            act("tap", button)
        elif how == "drag":
            act("drag", button, page.locator("#pile"))
        else:
            button.focus()
            page.keyboard.press("Enter")
            expect(button).to_have_attribute("aria-pressed", "true")
            page.keyboard.press("Enter")
        wait_version_after(page, version)
        moves.append({"deal": deal, "type": "throw", "card": card})
        throws += 1
    return {"match_id": match_id, "token": token, "moves": moves}


class Mouse:
    """A person with a mouse and a keyboard."""

    keys = True

    def __init__(self, page: Page) -> None:
        self.page = page

    def __call__(self, how: str, loc: Any, target: Any = None, at: tuple[float, float] = (0.5, 0.5)) -> None:
        if how == "tap":
            loc.click()
        else:
            mouse_drag(self.page, loc, target if target is not None else self.page.locator("#pile"), at=at)


class Finger:
    """A person with a touch screen."""

    keys = False

    def __init__(self, page: Page) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)

    def __call__(self, how: str, loc: Any, target: Any = None, at: tuple[float, float] = (0.5, 0.5)) -> None:
        if how == "tap":
            loc.tap()
        else:
            touch_drag(self.cdp, loc, target if target is not None else self.page.locator("#pile"), at=at)


def throws(got: Json) -> int:
    return sum(m["type"] == "throw" for m in got["moves"])


def same_moves(planned: list[Json], played: list[Json]) -> None:
    keep = ("deal", "type", "from", "card")
    a = [{k: m.get(k) for k in keep} for m in planned]
    b = [{k: m.get(k) for k in keep} for m in played]
    assert a == b


def test_a_whole_nepali_match_at_a_desktop(server: Server, new_page: Any) -> None:
    body = {
        "preset": "nepali",
        "settings": {"players": 4},
        "difficulty": "medium",
        "seats": [{"kind": "human", "name": "Asha"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
    }
    seed, plan = find_seed(
        server,
        body,
        drop_deal=2,
        wanted=lambda g: (
            any(d != 2 for d in i_showed(g))
            and any(m["type"] == "drop" and m["deal"] == 2 for m in g["moves"])
            and throws(g) >= 3  # a tap, a drag and the keyboard
            and len(g["moves"]) <= 40
        ),
        prefix="desktop",
    )
    page = new_page(DESKTOP)
    watch = set_up_in_the_lobby(page, server, seed, 4, None, "desktop-lobby")
    watcher = new_page(DESKTOP)
    watcher.goto(watch)
    expect(watcher.locator("#table")).to_have_attribute("data-phase", re.compile("playing|between"))
    # the spectator sees the table and nobody's hidden cards
    expect(watcher.locator("#me")).to_be_hidden()
    expect(watcher.locator("#hand button.card")).to_have_count(0)
    expect(watcher.locator("#opponents .seat")).to_have_count(4)
    expect(watcher.locator("#table")).to_have_attribute("data-role", "spectator")

    played = play_match(page, server, Mouse(page), "desktop", drop_deal=2, watcher=watcher)
    shoot(watcher, "desktop-watch-over")
    same_moves(plan["moves"], played["moves"])

    # the end: the winner, the final sheet, the rematch
    final = server.view(played["match_id"], played["token"])
    assert final["sheet"]["totals"] == plan["view"]["sheet"]["totals"]
    winners = final["match"]["winners"]
    names = [final["seats"][w]["name"] for w in winners]
    title = page.locator("#over-title")
    expect(title).to_be_visible()
    for n in names:
        expect(title).to_contain_text("You" if n == "Asha" else n)
    totals = page.locator("#over-panel table.sheet tfoot td")
    expect(totals).to_contain_text(final["sheet"]["totals_text"])
    assert any(t.startswith("+") for t in final["sheet"]["totals_text"])
    expect(page.locator("#over-panel .downloads a")).to_have_count(3)
    shoot(page, "desktop-over")
    page.locator("#rematch").click()
    page.wait_for_url(lambda url: played["match_id"] not in url)
    expect(page.locator("#table")).to_have_attribute("data-phase", re.compile("playing|between"))
    assert "/t/" in page.url and "seat_token=" in page.url
    expect(watcher.locator("#rematch-link")).to_be_visible()


def test_a_nepali_match_on_a_phone(server: Server, new_page: Any) -> None:
    body = {
        "preset": "nepali",
        "settings": {"players": 3, "rounds": 1},
        "difficulty": "medium",
        "seats": [{"kind": "human", "name": "Asha"}, {"kind": "bot"}, {"kind": "bot"}],
    }
    seed, plan = find_seed(
        server,
        body,
        drop_deal=None,
        wanted=lambda g: i_showed(g) == [1] and throws(g) >= 2 and len(g["moves"]) <= 40,
        prefix="phone",
    )
    page = new_page(PHONE, touch=True)
    watch = set_up_in_the_lobby(page, server, seed, 3, 1, "phone-lobby")
    watcher = new_page(PHONE, touch=True)
    watcher.goto(watch)
    expect(watcher.locator("#me")).to_be_hidden()
    finger = Finger(page)
    # a finger drags cards along the hand too
    state = wait_for_me(page)
    assert state == "draw"
    before = hand_cards(page)
    finger(
        "drag", page.locator("#hand button.card").nth(0), page.locator("#hand button.card").nth(5), (0.8, 0.5)
    )
    after = hand_after_move(page, before)
    assert sorted(after) == sorted(before) and after != before
    played = play_match(page, server, finger, "phone", drop_deal=None, watcher=watcher)
    same_moves(plan["moves"], played["moves"])
    expect(page.locator("#over-title")).to_contain_text("You win the match")
    shoot(page, "phone-over")
    page.locator("#over-panel table.sheet").scroll_into_view_if_needed()
    shoot(page, "phone-over-sheet", full_page=True)
    expect(watcher.locator("#over-panel")).to_be_visible()
    expect(watcher.locator("#rematch")).to_have_count(0)
    shoot(watcher, "phone-watch-over")


def test_a_pool_sheet_offers_a_rejoin(server: Server, new_page: Any) -> None:
    body = {
        "preset": "pool101",
        "settings": {"players": 3},
        "difficulty": "medium",
        "seats": [{"kind": "human", "name": "Asha"}, {"kind": "bot"}, {"kind": "bot"}],
    }

    def rejoined(moves: list[Json]) -> bool:
        return any(m["type"] == "rejoin" for m in moves)

    seed, plan = find_seed(
        server,
        body,
        drop_deal=None,
        wanted=lambda g: rejoined(g["moves"]) and len(g["moves"]) <= 80,
        prefix="pool",
    )
    page = new_page(DESKTOP)
    page.goto(f"{server.base}/?seed={seed}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.locator("label[for=preset-pool101]").click()
    expect(page.locator("#set-rounds")).to_be_disabled()
    page.fill("#set-players", "3")
    page.fill("#seat-0-name", "Asha")
    page.click("#create")
    page.click("#take-seat")
    page.wait_for_url(re.compile(r"/t/\w+\?seat_token="))
    played = play_match(page, server, Mouse(page), "pool", drop_deal=None, until=rejoined)
    n = len(played["moves"])
    same_moves(plan["moves"][:n], played["moves"])
    # back in the pool: the next deal deals me in at the offered total
    expect(page.locator("#table")).to_have_attribute("data-phase", "playing")
    view = server.view(played["match_id"], played["token"])
    assert view["seats"][0]["standing"] != "out" and view["seats"][0]["in_deal"]
    assert view["sheet"]["rejoins"][0]["seat"] == 0
