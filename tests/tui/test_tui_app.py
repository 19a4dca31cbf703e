"""The full-screen game (Textual), driven by keys in the pilot at 80x24 and larger: whole
deals and matches, every screen fitting, the seat's view only, refusals, the log, the sheet,
the too-small notice, and hand histories that replay."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from pilot_keys import KeyPlayer, Turn, card_kinds, check_fits, hand_rows
from rich.text import Text

from rummykit.cli.main import main
from rummykit.engine.events import ActionKind, Phase
from rummykit.engine.rules import PRESET_NAMES, Rules, get_preset
from rummykit.tui.app import Confirm, Pick, Reader, SheetScreen, TableApp, TooSmall, screen_text
from rummykit.tui.game import Settings

NEPALI = get_preset("nepali")
RUMMY40 = get_preset("rummy40")
REMI51 = get_preset("remi51")


def settings(rules: Rules, players: int, seed: int | str = 1, bots: str = "greedy", **kw: object) -> Settings:
    rules = rules.replace(players=players)
    return Settings(rules, seed, "You", (bots,) * (players - 1), 0.0, True, **kw)  # type: ignore[arg-type]


def run_app(
    s: Settings,
    body: Callable[[TableApp, KeyPlayer], Awaitable[None]],
    *,
    size: tuple[int, int] = (80, 24),
    histories: Path | None = None,
    swaps: bool = False,
) -> TableApp:
    app = TableApp(s, histories=histories)

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            player = KeyPlayer(app, pilot, swaps=swaps)
            await player.settle()
            await body(app, player)

    # in a thread of its own: other tests of the suite may leave an event loop running in this one
    failure: list[BaseException] = []

    def main() -> None:
        try:
            asyncio.run(go())
        except BaseException as e:
            failure.append(e)

    thread = threading.Thread(target=main)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return app


def _cards_of(event: object) -> set[int]:
    """The cards an event names (as seen: a hidden draw names none)."""
    out: set[int] = set()
    for name in ("card", "pile_top", "cut"):
        k = getattr(event, name, None)
        if isinstance(k, int):
            out.add(k)
    for name in ("cards",):
        out |= set(getattr(event, name, ()) or ())
    for hand in getattr(event, "hands", ()) or ():
        out |= set(hand or ())
    for g in getattr(event, "groups", ()) or ():
        out |= set(g)
    return out


def check_private(turn: Turn) -> None:
    """Every card on the screen is the person's own or public; the hand shown is the hand."""
    shown = card_kinds(turn.text)
    assert set(shown) <= turn.public, set(shown) - turn.public
    hidden: set[int] = set()
    for s, hand in enumerate(turn.hands):
        if s != turn.view.seat:
            hidden |= set(hand)
    assert not (hidden - turn.public) & set(shown)
    assert Counter(card_kinds(hand_rows(turn.text))) == Counter(turn.view.hand)


# ---- whole matches by keys ----------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (132, 40)])
def test_a_whole_nepali_match_by_keys_fits_and_shows_only_the_seat(size: tuple[int, int]) -> None:
    async def body(app: TableApp, player: KeyPlayer) -> None:
        await player.play()

    holder: dict[str, KeyPlayer] = {}

    async def keep(app: TableApp, player: KeyPlayer) -> None:
        holder["p"] = player
        await body(app, player)

    app = run_app(settings(NEPALI, 4, seed=7), keep, size=size)
    player = holder["p"]
    session = app.session
    assert session is not None and session.is_over and len(session.rows) == 3
    assert len(player.turns) > 20
    for turn in player.turns:
        check_private(turn)
        lines = turn.text.splitlines()
        assert len(lines) == size[1] and all(len(line) <= size[0] for line in lines)
        assert f"Stock {turn.view.stock_count}" in turn.text
        assert "Wild: " in turn.text and "(cut " in turn.text
        assert "q quit" in turn.text  # the keys line is on the screen
        assert ("To show:" in turn.text) or ("SHOW!" in turn.text) or ("Your thirteen" in turn.text)
    assert len(player.sheets) == 3
    assert "deal 3 of 3 is over" in player.sheets[-1] and "Score sheet" in player.sheets[-1]
    assert "Seed 7" in player.sheets[-1]  # the seed once the match is over, never before
    assert not any("Seed 7" in t.text for t in player.turns)
    if size[0] >= 120:
        assert "all keys" in player.turns[0].text  # the keys beside the table


def test_rummy40_by_keys_opening_laying_off_and_swapping_through_marks_and_picks() -> None:
    kinds: set[ActionKind] = set()
    picks = 0
    holder: dict[str, KeyPlayer] = {}

    async def body(app: TableApp, player: KeyPlayer) -> None:
        holder["p"] = player
        await player.play()

    for seed in (6, 17, 22, 27):
        app = run_app(settings(RUMMY40, 2, seed=seed), body, swaps=True)
        player = holder["p"]
        session = app.session
        assert session is not None and session.is_over
        for turn in player.turns:
            check_private(turn)
            assert "Opening:" in turn.text or "Opened." in turn.text
            assert "✗" not in turn.text  # every move typed was accepted
        deal = session.deal
        assert deal is not None
        for e in deal.events:
            if e.seat == 0 and e.action is not None:
                kinds.add(e.action.kind)
        picks += player.picks
    assert picks  # a lay-off or a swap that more than one meld would take was picked by number
    assert {ActionKind.OPEN, ActionKind.LAY_DOWN, ActionKind.LAY_OFF, ActionKind.SWAP} <= kinds


@pytest.mark.parametrize(("rules", "players"), [(RUMMY40, 6), (REMI51, 4), (get_preset("kerala"), 8)])
def test_the_largest_tables_play_out_at_80x24(rules: Rules, players: int) -> None:
    holder: dict[str, KeyPlayer] = {}

    async def body(app: TableApp, player: KeyPlayer) -> None:
        holder["p"] = player
        await player.play(quit_after=1)

    app = run_app(settings(rules, players, seed=3), body)
    player = holder["p"]
    assert player.sheets and player.turns
    for turn in player.turns:
        check_private(turn)
    session = app.session
    assert session is not None and len(session.rows) >= 1


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_and_seat_count_fits_80x24(preset: str) -> None:
    lo, hi = get_preset(preset).seat_range
    for players in range(lo, hi + 1):

        async def body(app: TableApp, player: KeyPlayer) -> None:
            for _ in range(3):  # three turns of the person's: draw and throw
                await player.settle()
                view = app.view()
                assert view is not None
                turn = player.record()
                assert turn is not None
                check_fits(app)
                check_private(turn)
                await player.move(view, player.decide(view))
                await player.settle()
                if app.phase != "deal":
                    return

        run_app(settings(get_preset(preset), players, seed=players), body)


# ---- one turn at a time ----------------------------------------------------------------


def test_refused_keys_say_the_engines_reason_in_the_status_line_and_change_nothing() -> None:
    async def body(app: TableApp, player: KeyPlayer) -> None:
        state = app.state
        assert state is not None
        before = state.deal.fingerprint()
        await player.press("t")
        assert "✗ draw first" in screen_text(app)
        await player.press("w")
        assert "✗ draw first" in screen_text(app)
        await player.press("o")  # not this family's move
        assert "✗ " in screen_text(app)
        assert state.deal.fingerprint() == before
        await player.press("p")
        await player.settle()
        view = app.view()
        assert view is not None and view.pile_take is not None
        await player.cursor_to(player.uids([view.pile_take])[0])
        await player.press("t")
        assert "✗ cannot throw back the card just taken from the pile" in screen_text(app)
        await player.press("s")
        assert "✗ you have already drawn" in screen_text(app)
        await player.press("d")
        assert "✗ too late to drop: you have already drawn" in screen_text(app)
        await player.press("w")
        assert "✗ not a show yet: whatever you throw, it still needs" in screen_text(app)
        await player.press("space", "left", "space", "t")
        assert "✗ mark one card to throw, not 2" in screen_text(app)
        assert app.view() == view  # nothing changed

    run_app(settings(NEPALI, 2, seed=1), body)


def test_a_drop_asks_first_with_its_cost() -> None:
    async def body(app: TableApp, player: KeyPlayer) -> None:
        await player.press("d")
        await player.settle()
        assert isinstance(app.screen, Confirm)
        assert "Drop out of this deal for 20? Your hand is not counted or shown." in screen_text(app)
        await player.press("n")
        await player.settle()
        assert "You stay in." in screen_text(app)
        await player.press("d")
        await player.settle()
        await player.press("y")
        await player.settle()  # the bots play the deal out without pauses
        assert isinstance(app.screen, SheetScreen)
        text = screen_text(app)
        assert "deal 1 of 3 is over" in text and "dropped" in text
        session = app.session
        assert session is not None and session.rows[0].charges[0] == 20

    run_app(settings(NEPALI, 3, seed=2), body)


def test_the_arrangement_is_kept_between_turns_and_g_and_r_rearrange() -> None:
    async def body(app: TableApp, player: KeyPlayer) -> None:
        layout = app.layout
        await player.press("r")  # by suit
        kinds = layout.kinds()
        first = layout.cards()[0]
        await player.press("home", "greater_than_sign", "greater_than_sign")
        assert layout.cards()[2] is first  # moved two places right
        await player.press("shift+left")
        assert layout.cards()[1] is first
        await player.press("n")
        assert [first] in layout.groups  # the card under the cursor is a group of its own
        order = [h.uid for h in layout.cards()]
        groups = [[h.uid for h in g] for g in layout.groups]
        await player.press("s")
        await player.settle()
        view = app.view()
        assert view is not None and view.drawn is not None
        # the drawn card comes last, in a group of its own, under the cursor; the rest stay put
        assert [h.uid for h in layout.cards()][:-1] == order
        assert [[h.uid for h in g] for g in layout.groups][:-1] == groups
        assert layout.current is layout.cards()[-1] and layout.current.kind == view.drawn
        assert "new" in screen_text(app)
        await player.press("t")  # throw the drawn card: the bot plays, the order stays
        await player.settle()
        assert [h.uid for h in layout.cards()] == order
        await player.press("g")
        assert "Grouped the way the rules read the hand." in screen_text(app)
        await player.press("r")
        assert "Sorted by suit." in screen_text(app)
        assert Counter(layout.kinds()) == Counter(kinds)
        await player.press("r")
        assert "Sorted by rank." in screen_text(app)
        ranks = [k % 13 for k in layout.kinds() if k != 52]
        assert ranks == sorted(ranks)

    run_app(settings(NEPALI, 2, seed=3), body)


def test_the_deals_log_scrolls_and_shows_only_what_the_seat_saw() -> None:
    async def body(app: TableApp, player: KeyPlayer) -> None:
        for _ in range(12):
            view = app.view()
            assert view is not None
            await player.move(view, player.decide(view))
            await player.settle()
            if app.phase != "deal":
                break
        state = app.state
        assert state is not None
        await player.press("v")
        await player.settle()
        assert isinstance(app.screen, Reader)
        text = screen_text(app)
        assert "the deal's log, as your seat saw it" in text
        await player.press("home")
        text = screen_text(app)
        assert "plays first" in text  # the top of the log: the deal
        # every card in the log is public or the person's own (their own draws name the card)
        logged = set(card_kinds(text))
        seen = {k for e in state.deal.events for k in _cards_of(e.seen_by(state.me))}
        assert logged <= seen
        assert {k for e in state.deal.events for k in _cards_of(e)} - seen  # bots' draws stayed hidden
        await player.press("end", "escape")
        await player.settle()
        assert not isinstance(app.screen, Reader)
        await player.press("question_mark")
        assert "the whole deal's log" in screen_text(app)
        await player.press("escape", "c")
        assert "Score sheet" in screen_text(app) or "score sheet" in screen_text(app)
        await player.press("escape")

    run_app(settings(NEPALI, 4, seed=5), body)


def test_terminal_too_small_shows_a_notice_and_resumes_when_resized() -> None:
    async def body(app: TableApp, player: KeyPlayer) -> None:
        assert isinstance(app.screen, TooSmall)
        assert "terminal too small (need 80x24, have 79x30)" in screen_text(app)
        await player.press("s")  # the notice takes no moves
        await player.pilot.resize_terminal(100, 20)
        await player.pilot.pause()
        assert "terminal too small (need 80x24, have 100x20)" in screen_text(app)
        await player.pilot.resize_terminal(80, 24)
        await player.settle()
        assert not isinstance(app.screen, TooSmall)
        view = app.view()
        assert view is not None and view.phase is Phase.DRAW and view.my_turn  # nothing was played
        check_fits(app)
        await player.pilot.resize_terminal(60, 24)
        await player.pilot.pause()
        assert isinstance(app.screen, TooSmall)
        await player.pilot.resize_terminal(120, 30)
        await player.settle()
        check_fits(app)
        assert "all keys" in screen_text(app)

    run_app(settings(NEPALI, 3, seed=4), body, size=(79, 30))


def test_table_family_refusals_and_put_back() -> None:
    async def body(app: TableApp, player: KeyPlayer) -> None:
        for _ in range(40):
            view = app.view()
            assert view is not None
            if view.phase is Phase.DRAW and any(a.kind is ActionKind.DRAW_PILE for a in view.legal):
                break
            await player.move(view, player.decide(view))
            await player.settle()
        else:
            pytest.fail("never a pile card to take")
        await player.press("f")
        assert "✗ " in screen_text(app)
        await player.press("p")
        await player.settle()
        view = app.view()
        assert view is not None and view.pile_due is not None
        assert "(b puts it back)" in screen_text(app)
        other = next(h for h in app.layout.cards() if h.kind != view.pile_due)
        await player.cursor_to(other.uid)
        await player.press("t")
        assert "✗ use the card you took from the pile before throwing" in screen_text(app)
        await player.press("b")
        await player.settle()
        await player.press("p")
        assert "✗ you put that card back: draw from the stock" in screen_text(app)

    run_app(settings(RUMMY40, 2, seed=3), body)


def test_a_remi51_deal_whose_pile_starts_empty_is_drawn() -> None:
    """Remi 51 may deal no pile card: the header, the log line and the keys say so."""
    from dataclasses import replace

    from rummykit.engine.events import Dealt
    from rummykit.tui import panels
    from rummykit.tui.game import MoveLog
    from rummykit.tui.render import line_plain

    log = MoveLog(("You", "Bikash"), 0)
    dealt = Dealt(
        seq=0, seat=1, hands=(None, None), pile_top=None, cut=None, wild=None, first=0, stock_count=77
    )  # type: ignore[arg-type]
    log.add(dealt)
    said = line_plain(log.lines[-1])
    assert said == "Bikash deals; You play first. No card is turned up: the first throw starts the pile"
    from rummykit.engine.deal import new_deal

    deal = new_deal(REMI51.replace(players=2), 1)
    view = deal.view(0)
    assert view.pile_top is None  # Remi 51 turns no card up at the deal
    assert replace(view, pile=()) == view
    head = panels.header_lines(view, "Remi 51", "deal 1", 80, ("You", "Bikash"), None)
    assert "Pile empty" in head[-1].plain
    keys = panels.keys_lines(panels.turn_keys(view, hints=True, busy=False), 80)
    assert "pile" not in " ".join(k.plain for k in keys).split("cursor")[0].replace("stock", "")


# ---- hand histories ----------------------------------------------------------------------


def test_histories_are_written_once_the_match_is_over_and_replay(tmp_path: Path) -> None:
    out = tmp_path / "hist"

    async def body(app: TableApp, player: KeyPlayer) -> None:
        # deal by deal: nothing is written while deals are still to come
        while True:
            await player.settle()
            if isinstance(app.screen, SheetScreen):
                if app.phase == "over":
                    break
                assert not out.exists() or not list(out.iterdir())
                await player.press("S")
                assert "written when the match is over" in screen_text(app)
                assert not out.exists() or not list(out.iterdir())
                await player.press("enter")
                continue
            view = app.view()
            assert view is not None
            await player.move(view, player.decide(view))
        assert "Saved 3 hand histories" in screen_text(app)

    app = run_app(settings(NEPALI, 3, seed=9), body, histories=out)
    files = sorted(out.iterdir())
    assert [f.name for f in files] == [f"match-9-deal-0{n}.txt" for n in (1, 2, 3)]
    session = app.session
    assert session is not None
    for n, f in enumerate(files):
        text = f.read_text()
        assert f'seed "9/{n}"' in text and "name 0 You" in text
        assert main(["replay", str(f)]) == 0


def test_the_save_key_asks_for_histories_and_leaving_writes_the_deals_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    async def body(app: TableApp, player: KeyPlayer) -> None:
        await player.press("S")
        text = screen_text(app)
        assert "written when the match is over" in text
        assert not list(tmp_path.iterdir())
        view = app.view()
        assert view is not None
        await player.move(view, player.decide(view))
        await player.settle()
        await player.press("q")
        await player.settle()
        assert "The deals played so far are saved" in screen_text(app)
        await player.press("y")

    run_app(settings(NEPALI, 2, seed=12), body)
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["match-12-deal-01.txt"]
    assert main(["replay", str(files[0])]) == 0  # the unfinished deal replays to where it stood
    assert "end" in files[0].read_text()


def test_play_options_histories_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    assert main(["play", "--rules", "nepali", "--histories", str(f)]) == 2
    assert "--histories names a directory" in capsys.readouterr().err


def test_a_pick_goes_back_with_escape_and_changes_nothing() -> None:
    async def body(app: TableApp, player: KeyPlayer) -> None:
        # play until a lay-off or swap has a choice of melds, or the deal ends
        for _ in range(200):
            await player.settle()
            if app.phase != "deal" or isinstance(app.screen, SheetScreen):
                return
            view = app.view()
            assert view is not None
            state = app.state
            assert state is not None and state.me is not None
            me = state.me
            if view.phase is Phase.PLAY and view.opened and view.opened[me]:
                from rummykit.engine.events import Action

                for h in app.layout.cards():
                    fits = [m for m in view.melds if state.deal.can(me, Action.lay_off(m.id, (h.kind,)))]
                    if len(fits) > 1:
                        await player.mark([h.kind])
                        before = state.deal.fingerprint()
                        await player.press("f")
                        await player.settle()
                        assert isinstance(app.screen, Pick)
                        await player.press("down", "escape")
                        await player.settle()
                        assert state.deal.fingerprint() == before
                        return
            await player.move(view, player.decide(view))
        pytest.fail("no lay-off with a choice of melds")

    run_app(settings(RUMMY40, 2, seed=22), body)


def test_seats_show_counts_dropped_seats_and_who_is_to_play() -> None:
    from rummykit.engine.deal import ShowDeal
    from rummykit.engine.events import Action
    from rummykit.tui import panels

    deal = ShowDeal(NEPALI.replace(players=3), 4)
    seat = deal.to_play
    assert seat is not None and seat != 0
    deal.apply(seat, Action.drop())
    view = deal.view(0)
    names = ("You", "Bikash", "Chandra")
    lines = [t.plain for t in panels.seat_lines(view, names, ("", "greedy", "greedy"), ("",) * 3, 80)]
    assert "dropped" in lines[seat] and "cards" not in lines[seat]
    nxt = deal.to_play
    assert nxt is not None and lines[nxt].startswith("▶ ")
    assert all(f"{view.card_counts[s]} cards" in lines[s] for s in range(3) if s != seat)
    two = panels.seat_lines(view, names, ("", "greedy", "greedy"), ("",) * 3, 80, columns=2)
    assert len(two) == 2 and all(t.cell_len <= 80 for t in two)


def test_a_bots_pile_card_is_not_the_persons_to_put_down() -> None:
    """``pile_due`` is the seat to play's: drawn between the person's turns (a key pressed while
    a bot that took the pile card is still playing) the screen asked the Opening meter to
    include a card the person does not hold, and the game stopped with a ValueError."""
    from rummykit.bots import make_player
    from rummykit.engine.table_deal import TableDeal

    rules = RUMMY40.replace(players=2)
    for seed in range(40):
        deal = TableDeal(rules, seed)
        bots = [make_player("greedy", s, rules) for s in range(2)]
        while deal.to_play is not None:
            seat = deal.to_play
            deal.apply(seat, bots[seat].choose(deal.view(seat)))
            view = deal.view(0)
            if seat == 1 and view.pile_due is not None and view.pile_due not in view.hand:
                app = TableApp(settings(RUMMY40, 2))
                strip = app._strip(view)
                assert isinstance(strip, Text)
                assert "you took from the pile" not in strip.plain
                return
    pytest.fail("no bot took a pile card in 40 deals")


def test_the_line_mode_writes_histories_once_the_match_is_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io
    import sys

    out = tmp_path / "hist"
    monkeypatch.setattr(sys, "stdin", io.StringIO("s\nshow\n14\n" * 600))
    argv = ["play", "--rules", "nepali", "--players", "2", "--seed", "1", "--pace", "0"]
    assert main([*argv, "--histories", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Saved 3 hand histories in" in text
    assert text.index("Saved 3 hand histories") > text.index("deal 3 of 3 is over")
    files = sorted(out.iterdir())
    assert [f.name for f in files] == [f"match-1-deal-0{n}.txt" for n in (1, 2, 3)]
    for f in files:
        assert main(["replay", str(f)]) == 0
