"""The full-screen terminal game (Textual): ``rummykit play`` on a real terminal.

One screen redrawn in place: the deal and the wild cards, the stock and the pile (who threw its
top card), every seat (cards held as a count, opened, dropped, its total, the cards it took
from the pile), the melds on the table (Rummy 40, Remi 51), the last moves, the person's hand
as they arranged it with a cursor and marks, the arranger's reading (what a show still needs,
or the Opening meter), a status line for what just happened or why a move was refused, and the
keys that work now.  Wide terminals get the keys beside the table; tall ones more moves.  A
terminal smaller than 80x24 shows a notice until it is resized.

The screens are made from the person's :class:`~rummykit.engine.views.SeatView` and the events
as their seat saw them (:mod:`rummykit.tui.panels`), never from the deal; the deal is asked only
whether a move is allowed (``deal.can``, whose reason the status line shows) and told the move.

Settled here:

* Bots play in a worker thread, ``pace`` seconds apart while the person is in the deal to
  watch; once the person has dropped (or is out of a pool) the deal is played out at once.
* The hand keeps the person's arrangement between turns (:class:`~rummykit.tui.hand.Layout`);
  each deal starts grouped as the arranger reads it; a drawn card arrives at the end.
* ``o`` ``m`` ``f`` play the marked cards, or with nothing marked the suggestion the strip
  names (the best opening, the first meld or lay-off of the cheapest leftover); a lay-off or a
  swap that more than one meld would take asks which.
* Hand histories are written with :func:`rummykit.engine.history.dump` once the match is over
  (``--histories DIR``, or the ``S`` key, which during a match only asks for them): a deal's
  seed is the match's seed and the deal's number, so any deal's history would tell the deals
  still to come (the web server keeps them closed until the match is over for the same reason).
  Leaving a match before its end writes what was played, the unfinished deal too.
* The match's seed is shown once the match is over (with ``--seed`` it was given anyway).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from rummykit.bots import Player, make_player
from rummykit.bots.coach import Coach
from rummykit.bots.hint import hint
from rummykit.engine.cards import sort_key
from rummykit.engine.deal import Deal, ShowDeal
from rummykit.engine.events import (
    Action,
    ActionKind,
    Dealt,
    Event,
    Phase,
    PutBack,
    StockRebuilt,
    Threw,
    TookPile,
)
from rummykit.engine.numbers import ascii_whole
from rummykit.engine.opening import place_meld
from rummykit.engine.session import MatchSession
from rummykit.engine.table_deal import ending_note
from rummykit.engine.views import SeatView
from rummykit.engine.words import meter_why
from rummykit.tui import panels, render
from rummykit.tui.game import ME, MoveLog, Settings, history_files
from rummykit.tui.hand import Layout

__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "TableApp", "keys_for", "screen_text"]

MIN_WIDTH: Final = 80
MIN_HEIGHT: Final = 24
WIDE: Final = 120  # from this width the keys stand beside the table
SIDE: Final = 38  # their column


# ---- the deal being played ----------------------------------------------------------------


@dataclass(slots=True)
class DealState:
    """What the app keeps about the deal being played (all of it the person may know)."""

    session: MatchSession
    deal: Deal
    me: int | None  # the person's deal seat; None when out of the pool
    names: tuple[str, ...]  # by deal seat
    kinds: tuple[str, ...]  # by deal seat: the bot's name, "" for the person
    players: tuple[Player | None, ...]  # by deal seat (None: the person)
    log: MoveLog
    number: int  # 1-based
    seen: int = 0  # events handed out so far
    pile_from: list[int | None] = field(default_factory=list)  # who threw each pile card
    taken_from: int | None = None  # who had thrown the card last taken (for a put back)

    def thrower(self, view: SeatView) -> int | None:
        """Who threw the pile's top card, when the events say (``None`` for the dealt card)."""
        if len(self.pile_from) != len(view.pile) or not self.pile_from:
            return None
        return self.pile_from[-1]

    def follow(self, event: Event) -> None:
        """Keep who threw each pile card, from the events as the person saw them."""
        if isinstance(event, Dealt):
            self.pile_from = [] if getattr(event, "pile_top", None) is None else [None]
        elif isinstance(event, Threw):
            self.pile_from.append(event.seat)
        elif isinstance(event, TookPile):
            self.taken_from = self.pile_from.pop() if self.pile_from else None
        elif isinstance(event, PutBack):
            self.pile_from.append(self.taken_from)
        elif isinstance(event, StockRebuilt):
            self.pile_from = self.pile_from[-1:]


def screen_text(app: App[object]) -> str:
    """The screen as plain text, line by line (what a person reads; for tests and checks)."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), force_terminal=True, color_system=None, record=True
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text(styles=False)


# ---- small screens ------------------------------------------------------------------------


class Confirm(ModalScreen[bool]):
    """A yes/no question: y or Enter says yes, n or Esc says no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "yes"),
        Binding("n,escape,q", "answer(False)", "no"),
    ]
    DEFAULT_CSS = """
    Confirm { align: center middle; }
    Confirm > Static { width: 70; height: auto; border: round $warning; padding: 1 2; background: $panel; }
    """

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        text = Text(self.question, style="bold")
        text.append("\n\n")
        text.append("y", style="bold cyan")
        text.append(" yes   ")
        text.append("n", style="bold cyan")
        text.append(" no")
        yield Static(text)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class Pick(ModalScreen[int | None]):
    """One of a few choices, by number or by the arrows and Enter; Esc goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,left,k,h", "move(-1)", "up"),
        Binding("down,right,j,l", "move(1)", "down"),
        Binding("enter", "choose", "choose"),
        Binding("escape,q", "cancel", "back"),
    ]
    DEFAULT_CSS = """
    Pick { align: center middle; }
    Pick > Static { width: 76; height: auto; max-height: 20; border: round $accent; padding: 0 1;
                    background: $panel; }
    """

    def __init__(self, question: str, choices: Sequence[Text]) -> None:
        super().__init__()
        self.question = question
        self.choices = list(choices)
        self.at = 0

    def compose(self) -> ComposeResult:
        yield Static(self._body(), id="pick")

    def _body(self) -> Text:
        out = Text(self.question, style="bold")
        for i, c in enumerate(self.choices):
            out.append("\n")
            line = Text(f" {i + 1} ", style="bold cyan")
            line.append_text(c)
            if i == self.at:
                line.stylize("reverse")
            out.append_text(line)
        out.append("\n")
        out.append("1-9 or ↑↓ and Enter: choose · Esc: back", style="dim")
        return out

    def on_key(self, event: events.Key) -> None:
        n = ascii_whole(event.character)
        if n is not None and 1 <= n <= len(self.choices):
            event.stop()
            self.dismiss(n - 1)

    def action_move(self, delta: int) -> None:
        self.at = (self.at + delta) % len(self.choices)
        self.query_one("#pick", Static).update(self._body())

    def action_choose(self) -> None:
        self.dismiss(self.at)

    def action_cancel(self) -> None:
        self.dismiss(None)


class Reader(ModalScreen[None]):
    """A page to read and scroll (the deal's log, the help, the score sheet): Esc goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,v,c,question_mark,enter", "close", "back"),
        Binding("up,k", "scroll(-1)", "up", show=False),
        Binding("down,j", "scroll(1)", "down", show=False),
        Binding("pageup,b", "scroll(-10)", "page up", show=False),
        Binding("pagedown,space", "scroll(10)", "page down", show=False),
        Binding("home,g", "home", "top", show=False),
        Binding("end,G", "end", "bottom", show=False),
    ]
    DEFAULT_CSS = """
    Reader { background: $background; }
    Reader > #title { height: 1; background: $primary; color: $text; padding: 0 1; }
    Reader > VerticalScroll { height: 1fr; padding: 0 1; }
    Reader > #foot { height: 1; color: $text-muted; padding: 0 1; }
    """

    def __init__(self, title: str, body: RenderableType, *, at_end: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.at_end = at_end

    def compose(self) -> ComposeResult:
        yield Static(Text(self.title_text, style="bold"), id="title")
        with VerticalScroll():
            yield Static(self.body)
        yield Static("↑↓ PgUp PgDn Home End: scroll · Esc: back", id="foot")

    def on_mount(self) -> None:
        if self.at_end:
            self.query_one(VerticalScroll).scroll_end(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, lines: int) -> None:
        self.query_one(VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_home(self) -> None:
        self.query_one(VerticalScroll).scroll_home(animate=False)

    def action_end(self) -> None:
        self.query_one(VerticalScroll).scroll_end(animate=False)


class TooSmall(Screen[None]):
    """Shown while the terminal is smaller than the game needs; q still leaves."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q,ctrl+c", "app.leave", "quit")]
    DEFAULT_CSS = """
    TooSmall { align: center middle; }
    TooSmall > Static { width: auto; height: auto; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="notice")

    def on_mount(self) -> None:
        self.show(self.app.size.width, self.app.size.height)

    def show(self, width: int, height: int) -> None:
        text = Text(
            f"terminal too small (need {MIN_WIDTH}x{MIN_HEIGHT}, have {width}x{height})", style="bold"
        )
        text.append("\nmake the window larger to go on · q quits", style="dim")
        self.query_one("#notice", Static).update(text)


# ---- the table ----------------------------------------------------------------------------


class Moves(Widget):
    """The last moves, as many as its height holds."""

    def render(self) -> RenderableType:
        app = self.app
        assert isinstance(app, TableApp)
        state = app.state
        if state is None:
            return Text()
        lines = panels.moves_lines(state.log.lines, state.deal.wild, self.size.width, self.size.height)
        return Group(*lines)


class TableScreen(Screen[None]):
    """The deal: the table, the hand, the strip, the status line and the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "cursor(-1)", "left", show=False),
        Binding("right,l", "cursor(1)", "right", show=False),
        Binding("home", "jump(0)", "first", show=False),
        Binding("end", "jump(1)", "last", show=False),
        Binding("tab", "group_cursor(1)", "next group", show=False, priority=True),
        Binding("shift+tab", "group_cursor(-1)", "previous group", show=False, priority=True),
        Binding("space", "mark", "mark", show=False),
        Binding("escape", "unmark", "clear marks", show=False),
        Binding("less_than_sign,shift+left,comma", "shift(-1)", "move left", show=False),
        Binding("greater_than_sign,shift+right,full_stop", "shift(1)", "move right", show=False),
        Binding("n", "split", "new group", show=False),
        Binding("g", "regroup", "group", show=False),
        Binding("r", "sort", "sort", show=False),
        Binding("s", "stock", "stock", show=False),
        Binding("p", "pile", "pile", show=False),
        Binding("t,enter", "throw", "throw", show=False),
        Binding("w", "show", "show", show=False),
        Binding("d", "drop", "drop", show=False),
        Binding("o", "open", "open", show=False),
        Binding("m", "meld", "lay down", show=False),
        Binding("f", "lay_off", "lay off", show=False),
        Binding("x", "swap", "swap", show=False),
        Binding("b", "put_back", "put back", show=False),
        Binding("a", "hint", "hint", show=False),
        Binding("v", "log", "log", show=False),
        Binding("c", "sheet", "sheet", show=False),
        Binding("S,shift+s", "save", "save", show=False),
        Binding("question_mark,f1", "help", "help", show=False),
        Binding("q", "quit_game", "quit", show=False),
    ]
    DEFAULT_CSS = """
    TableScreen { layout: horizontal; }
    TableScreen #main { width: 1fr; height: 100%; }
    TableScreen #side { width: 38; height: 100%; border-left: solid $primary; padding: 0 1; display: none; }
    TableScreen #side.shown { display: block; }
    TableScreen #header, TableScreen #seats, TableScreen #melds { height: auto; }
    TableScreen #moves { height: 1fr; min-height: 0; color: $text-muted; }
    TableScreen #hand, TableScreen #strip, TableScreen #keys { height: auto; }
    TableScreen #status { height: auto; max-height: 3; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="main"):
                yield Static(id="header")
                yield Static(id="seats")
                yield Static(id="melds")
                yield Moves(id="moves")
                yield Static(id="hand")
                yield Static(id="strip")
                yield Static(id="status")
                yield Static(id="keys")
            yield Static(id="side")

    def on_resize(self, event: events.Resize) -> None:
        app = self.app
        if isinstance(app, TableApp):
            app.redraw()

    # the keys ask the app, which owns the game
    def _app(self) -> TableApp:
        app = self.app
        assert isinstance(app, TableApp)
        return app

    def action_cursor(self, delta: int) -> None:
        self._app().layout_key(lambda lay: lay.move(delta))

    def action_jump(self, end: int) -> None:
        self._app().layout_key(lambda lay: lay.jump(bool(end)))

    def action_group_cursor(self, delta: int) -> None:
        self._app().layout_key(lambda lay: lay.next_group(delta))

    def action_mark(self) -> None:
        self._app().layout_key(lambda lay: lay.toggle_mark())

    def action_unmark(self) -> None:
        self._app().layout_key(lambda lay: lay.clear_marks())

    def action_shift(self, delta: int) -> None:
        self._app().layout_key(lambda lay: lay.shift(delta))

    def action_split(self) -> None:
        self._app().layout_key(lambda lay: lay.split())

    def action_regroup(self) -> None:
        self._app().regroup()

    def action_sort(self) -> None:
        self._app().sort()

    def action_stock(self) -> None:
        self._app().play_simple(Action.draw_stock())

    def action_pile(self) -> None:
        self._app().play_simple(Action.draw_pile())

    def action_put_back(self) -> None:
        self._app().play_simple(Action.put_back())

    def action_throw(self) -> None:
        self._app().throw()

    def action_show(self) -> None:
        self._app().show()

    def action_drop(self) -> None:
        self._app().drop()

    def action_open(self) -> None:
        self._app().open()

    def action_meld(self) -> None:
        self._app().meld()

    def action_lay_off(self) -> None:
        self._app().lay_off()

    def action_swap(self) -> None:
        self._app().swap()

    def action_hint(self) -> None:
        self._app().ask_hint()

    def action_log(self) -> None:
        self._app().show_log()

    def action_sheet(self) -> None:
        self._app().show_sheet()

    def action_save(self) -> None:
        self._app().save()

    def action_help(self) -> None:
        self._app().show_help()

    def action_quit_game(self) -> None:
        self._app().ask_quit()


class SheetScreen(Screen[None]):
    """Between deals: how the deal ended, every hand turned up, the score sheet; Enter goes on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "next", "next deal"),
        Binding("v", "log", "log"),
        Binding("S,shift+s", "save", "save"),
        Binding("q", "quit_game", "quit"),
        Binding("up,k", "scroll(-1)", "up", show=False),
        Binding("down,j", "scroll(1)", "down", show=False),
        Binding("pageup", "scroll(-10)", "page up", show=False),
        Binding("pagedown", "scroll(10)", "page down", show=False),
        Binding("question_mark", "help", "help", show=False),
    ]
    DEFAULT_CSS = """
    SheetScreen > #title { height: 1; background: $primary; padding: 0 1; }
    SheetScreen > VerticalScroll { height: 1fr; padding: 0 1; }
    SheetScreen > #status { height: auto; padding: 0 1; }
    SheetScreen > #foot { height: auto; padding: 0 1; }
    """

    def __init__(self, title: str, body: RenderableType, foot: Text, news: Sequence[Text] = ()) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.foot = foot
        self.news = list(news)

    def compose(self) -> ComposeResult:
        yield Static(Text(self.title_text, style="bold"), id="title")
        with VerticalScroll():
            yield Static(self.body, id="body")
        yield Static(Group(*self.news), id="status")
        yield Static(self.foot, id="foot")

    def say(self, text: Text) -> None:
        """A line under the sheet (after the match's end, which stays)."""
        self.query_one("#status", Static).update(Group(*self.news, text))

    def _app(self) -> TableApp:
        app = self.app
        assert isinstance(app, TableApp)
        return app

    def action_next(self) -> None:
        self._app().next_deal()

    def action_log(self) -> None:
        self._app().show_log()

    def action_save(self) -> None:
        self._app().save()

    def action_quit_game(self) -> None:
        self._app().ask_quit()

    def action_help(self) -> None:
        self._app().show_help()

    def action_scroll(self, lines: int) -> None:
        self.query_one(VerticalScroll).scroll_relative(y=lines, animate=False)


# ---- the app ------------------------------------------------------------------------------


class TableApp(App[int]):
    """Matches against bots, full screen.  ``histories``: where to write the hand histories
    (``None``: only when asked with ``S``, into the current directory)."""

    TITLE = "rummykit"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+c", "leave", "quit", show=False, priority=True)]

    def __init__(self, settings: Settings, *, histories: Path | None = None) -> None:
        super().__init__()
        self.settings = settings
        self.histories = histories
        self.save_asked = histories is not None
        self.title_text = render.table_title(settings.rules)
        self.seed: int | str = settings.seed
        self.session: MatchSession | None = None
        self.state: DealState | None = None
        self.layout = Layout()
        self.status = Text()
        self.busy = False  # the bots are playing: the person's moves wait
        self.played: list[tuple[Deal, tuple[str, ...]]] = []  # this match's deals, for histories
        self.ending_notes: dict[int, str] = {}
        self.saved: list[Path] = []
        self.phase = "deal"  # "deal", "sheet" (between deals) or "over" (the match is over)
        self._bots: list[Player | None] = []
        self.coach = Coach(settings.rules)  # the hand's help, from the person's view (as the web table's)
        self._fits = asyncio.Event()
        self._by_rank = False
        self.table_screen = TableScreen()
        self.drawn_lines: dict[str, int] = {}  # panel id -> the lines last drawn into it (for checks)

    # ---- start and size ------------------------------------------------------------------

    def on_mount(self) -> None:
        self.push_screen(self.table_screen)
        self._check_size(self.size.width, self.size.height)
        self.start_match()

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        top = self.screen
        if small:
            self._fits.clear()
            if isinstance(top, TooSmall):
                top.show(width, height)
            else:
                self.push_screen(TooSmall())
        else:
            self._fits.set()
            while isinstance(self.screen, TooSmall):
                self.pop_screen()
            self.redraw()

    @property
    def too_small(self) -> bool:
        return not self._fits.is_set()

    def action_leave(self) -> None:
        self.leave()

    def leave(self) -> None:
        """Leave now; a match not over writes what was played when histories were asked for."""
        if self.save_asked and self.phase != "over" and self.played_so_far():
            self._write(self.played_so_far())
        self.exit(0)

    # ---- the match -----------------------------------------------------------------------

    def start_match(self) -> None:
        s = self.settings
        self.session = MatchSession(s.rules, self.seed, s.names)
        self.played = []
        self.ending_notes = {}
        self.saved = []
        self._bots = [None]
        for seat, bot in enumerate(s.bots, start=1):
            self._bots.append(make_player(bot, f"{self.seed}/seat {seat}", s.rules))
        self.start_deal()

    def start_deal(self) -> None:
        session = self.session
        assert session is not None
        s = self.settings
        deal = session.start_deal()
        seats = session.deal_seats
        names = tuple(s.names[m] for m in seats)
        me = session.deal_seat(ME)
        kinds = tuple("" if m == ME else s.bots[m - 1] for m in seats)
        players = tuple(self._bots[m] for m in seats)
        self.state = DealState(
            session, deal, me, names, kinds, players, MoveLog(names, me), session.deals_played + 1
        )
        self.played.append((deal, names))
        self.phase = "deal"
        self.layout = Layout()
        self._by_rank = False
        self.status = Text()
        self._hand_out_events()
        if me is not None:
            self.layout.sync(deal.hand(me))
            self._auto_group()
            self.layout.jump(False)
        else:
            self.say(Text("You are out of the pool: the others play this deal."))
        self._advance()

    def played_so_far(self) -> list[tuple[Deal, tuple[str, ...]]]:
        return list(self.played)

    def _hand_out_events(self) -> None:
        """Every new event to each bot as its seat sees it, and to the moves as the person does."""
        state = self.state
        if state is None:
            return
        new = state.deal.events_since(state.seen)
        state.seen += len(new)
        for event in new:
            for seat, player in enumerate(state.players):
                if player is not None and seat != state.me:
                    player.observe(event.seen_by(seat))
            seen = event.seen_by(state.me)
            state.log.add(seen)
            state.follow(seen)

    def view(self) -> SeatView | None:
        state = self.state
        if state is None or state.me is None:
            return None
        return state.deal.view(state.me)

    def _advance(self) -> None:
        """After a move: the person's turn goes on, or the bots play."""
        state = self.state
        assert state is not None
        self._hand_out_events()
        if state.deal.to_play is not None and state.deal.to_play == state.me:
            self.busy = False
            self.redraw()
            return
        self.busy = True
        self.redraw()
        self._drive()

    @work(exclusive=True, group="bots")
    async def _drive(self) -> None:
        """The bots' turns, until the person's or the end of the deal."""
        state = self.state
        assert state is not None
        deal = state.deal
        while True:
            self._hand_out_events()
            seat = deal.to_play
            if seat is None:
                break
            if seat == state.me:
                self.busy = False
                self.redraw()
                return
            player = state.players[seat]
            assert player is not None
            view = deal.view(seat)
            action = await asyncio.to_thread(player.choose, view)
            deal.apply(seat, action)
            watching = state.me is not None and state.me in deal.in_play()
            if watching and deal.to_play not in (None, seat) and self.settings.pace > 0:
                self._hand_out_events()
                self.redraw()
                await asyncio.sleep(self.settings.pace)
        self._hand_out_events()
        self.busy = False
        await self._deal_over()

    async def _deal_over(self) -> None:
        state = self.state
        assert state is not None and self.session is not None
        session, deal = self.session, state.deal
        session.finish_deal()
        result = deal.result
        assert result is not None
        note = ending_note(deal.rules, result) if deal.rules.is_table else None
        if note is not None and session.match.rows:
            self.ending_notes[session.match.rows[-1].index] = note
        while not self._fits.is_set():
            await self._fits.wait()
        rejoined = []
        for offer in session.rejoin_offers():
            if offer.seat != ME:
                continue
            left = "" if offer.rejoins_left is None else f" ({offer.rejoins_left} rejoin(s) left)"
            if await self.push_screen_wait(
                Confirm(f"You are out of the pool. Rejoin at {offer.total}{left}?")
            ):
                record = session.rejoin(ME)
                rejoined.append(f"You rejoin at {record.total}.")
        for seat in range(session.players):
            if seat != ME and session.can_rejoin(seat):
                record = session.rejoin(seat)
                rejoined.append(f"{session.names[seat]} rejoins at {record.total}.")
        self.phase = "over" if session.is_over else "sheet"
        if self.phase == "over" and self.save_asked:
            self._write(self.played)
        self.push_screen(self._sheet_screen(rejoined))

    def _deal_text(self, state: DealState) -> str:
        rules = self.settings.rules
        fixed = state.session.match.format.key in ("settlement", "points", "deals", "penalty")
        if fixed and rules.rounds is not None and rules.rounds > 1 and state.number <= rules.rounds:
            return f"deal {state.number} of {rules.rounds}"
        return f"deal {state.number}"

    def _sheet_body(self, *, with_deal: bool) -> list[RenderableType]:
        state, session = self.state, self.session
        assert state is not None and session is not None
        parts: list[RenderableType] = []
        deal = state.deal
        if with_deal and deal.result is not None:
            result = deal.result
            parts.append(render.ending_words(result, state.names, state.me))
            parts.append(render.deal_result(result, state.names, deal.rules, deal.wild))
        parts.append(Text("Score sheet", style="bold underline"))
        parts.append(render.sheet_table(session.match, ME, self.ending_notes))
        parts += render.sheet_notes(session.match, deal.rules)
        return parts

    def _sheet_screen(self, rejoined: Sequence[str]) -> SheetScreen:
        state, session = self.state, self.session
        assert state is not None and session is not None
        title = f"{self.title_text} · {self._deal_text(state)} is over"
        body = self._sheet_body(with_deal=True)
        body += [Text(line, style="green") for line in rejoined]
        foot = Text()
        news: list[Text] = []  # under the sheet, always in sight: the match's end
        if session.is_over:
            winners = session.winners
            if winners == (ME,):
                news.append(Text("You win the match!", style="bold green"))
            elif ME in winners:
                news.append(Text("You share the win.", style="bold green"))
            else:
                names = " and ".join(session.names[w] for w in winners)
                news.append(Text(f"{names} win{'s' if len(winners) == 1 else ''} the match.", style="bold"))
            news.append(Text(f"Seed {self.seed} (--seed {self.seed} deals this match again).", style="dim"))
            if self.saved:
                news.append(self._saved_text())
            hints = [("Enter", "a new match"), ("v", "this deal's log"), ("S", "save the hand histories")]
        else:
            hints = [("Enter", "the next deal"), ("v", "this deal's log"), ("S", "save the hand histories")]
        hints += [("↑↓", "scroll"), ("q", "quit")]
        for i, (key, what) in enumerate(hints):
            if i:
                foot.append("  ")
            foot.append(key, style="bold cyan")
            foot.append(" " + what)
        return SheetScreen(title, Group(*body), foot, news)

    def next_deal(self) -> None:
        if self.phase == "deal":
            return
        if isinstance(self.screen, SheetScreen):
            self.pop_screen()
        if self.phase == "over":
            self.seed = self._next_seed()
            self.start_match()
        else:
            self.start_deal()

    def _next_seed(self) -> int | str:
        if not self.settings.seeded:
            return secrets.randbelow(1_000_000)
        seed = self.seed
        return seed + 1 if isinstance(seed, int) else f"{seed}+"

    # ---- drawing ---------------------------------------------------------------------------

    def main_width(self) -> int:
        width = self.size.width
        return width - SIDE - 1 if width >= WIDE else width

    def say(self, text: Text | str, style: str = "") -> None:
        self.status = Text(text, style=style) if isinstance(text, str) else text
        self.redraw()

    def refuse(self, reason: str) -> None:
        self.say(Text("✗ ", style="bold red") + Text(reason or "not now"))

    def redraw(self) -> None:
        """Draw the table screen from the person's view (nothing if it is not up)."""
        screen = self.table_screen
        if not screen.is_mounted or self.state is None:
            return
        state = self.state
        width = self.main_width()
        height = self.size.height
        view = self.view()
        wide = self.size.width >= WIDE
        side = screen.query_one("#side", Static)
        side.set_class(wide, "shown")
        if wide:
            side.update(self._help_renderable(compact=True))
        header = screen.query_one("#header", Static)
        if view is None:
            header.update(Text(f"{self.title_text} · {self._deal_text(state)}", style="bold"))
            for name in ("#seats", "#melds", "#hand", "#strip", "#keys"):
                screen.query_one(name, Static).update("")
            screen.query_one("#status", Static).update(self.status)
            screen.query_one("#moves", Moves).refresh()
            return
        if view.drawn is None:
            self.layout.fresh = None
        self.layout.sync(view.hand, view.drawn)
        names = state.names
        thrower = state.thrower(view)
        head = panels.header_lines(view, self.title_text, self._deal_text(state), width, names, thrower)
        header.update(Group(*head))
        totals = self._totals(state)
        columns = 2 if view.players > 4 and height < 32 else 1
        seats = panels.seat_lines(view, names, state.kinds, totals, width, columns=columns)
        screen.query_one("#seats", Static).update(Group(*seats))
        meld_lines = panels.meld_lines(view, names, width) if view.melds else []
        melds = screen.query_one("#melds", Static)
        melds.display = bool(view.melds)
        if view.melds:
            melds.update(Group(*meld_lines))
        hand_title = Text("── Your hand ", style="dim")
        hand_title.append(f"{len(view.hand)} cards ", style="bold")
        if view.hand:
            hand_title.append("· ←→ space <> g r ", style="dim")
        hand_title.append("─" * max(0, width - hand_title.cell_len), style="dim")
        if view.hand:
            hand = [hand_title, *panels.hand_lines(self.layout, view, width)]
        else:
            hand = [
                hand_title,
                Text("  (none: you are out of this deal; the others play it out)", style="dim"),
            ]
        screen.query_one("#hand", Static).update(Group(*hand))
        screen.query_one("#strip", Static).update(self._strip(view))
        screen.query_one("#status", Static).update(self.status)
        keys = panels.keys_lines(panels.turn_keys(view, hints=self.settings.hints, busy=self.busy), width)
        screen.query_one("#keys", Static).update(Group(*keys))
        self.drawn_lines = {
            "header": len(head),
            "seats": len(seats),
            "melds": len(meld_lines),
            "hand": len(hand),
            "keys": len(keys),
        }
        screen.query_one("#moves", Moves).refresh()

    @staticmethod
    def _fit(text: Text, width: int) -> Text:
        if text.cell_len > width:
            text = text.copy()
            text.truncate(width, overflow="ellipsis")
        return text

    def _totals(self, state: DealState) -> list[str]:
        session = state.session
        fmt = session.match.format
        if not session.match.rows:
            return [""] * len(state.names)
        return [f"total {fmt.show_total(session.totals[m])}" for m in session.deal_seats]

    def _strip(self, view: SeatView) -> RenderableType:
        if not view.hand:
            return Text()
        if view.rules.is_table:
            leftover = self.coach.leftover(view)
            meter = self.coach.meter(view)
            return render.table_strip(view, (meter.points, meter.threshold), leftover, keys=_APP_KEYS)
        a = self.coach.arrangement(view, away=True)
        return render.strip(view, a, keys=_APP_KEYS)

    def _help_renderable(self, *, compact: bool = False) -> RenderableType:
        rules = self.settings.rules
        grid = Table.grid(padding=(0, 1) if compact else (0, 2))
        grid.add_column(style="bold cyan", no_wrap=True)
        grid.add_column()
        lines = panels.short_help if compact else panels.help_lines
        for key, what in lines(rules, hints=self.settings.hints):
            grid.add_row(key, what)
        title = Text("Keys", style="bold")
        footer = Text("A move the rules refuse says why in the status line; nothing changes.", style="dim")
        if compact:
            footer = Text("A refused move says why below the hand.", style="dim")
        return Group(title, grid, footer)

    # ---- the hand ------------------------------------------------------------------------

    def layout_key(self, change: Callable[[Layout], None]) -> None:
        if self.view() is None:
            return
        change(self.layout)
        self.redraw()

    def _auto_group(self) -> bool:
        """Lay the hand out as the arranger reads it; whether it could."""
        view = self.view()
        if view is None or not view.hand:
            return False
        groups: list[list[int]] = []
        if view.rules.is_table:
            leftover = self.coach.leftover(view)
            for cards in leftover.melds:
                placed, _ = place_meld(cards, view.rules)
                groups.append(list(placed.cards if placed is not None else cards))
            groups += [list(cards) for _, cards in leftover.layoffs]
            groups.append(sorted(leftover.loose, key=sort_key))
        else:
            a = self.coach.arrangement(view)
            groups = [list(g.cards) for g in a.groups]
            loose = list(a.loose) + ([a.throw] if a.throw is not None else [])
            groups.append(sorted(loose, key=sort_key))
        try:
            self.layout.set_groups(groups)
        except ValueError:
            self.layout.sort()
            return False
        return True

    def regroup(self) -> None:
        if self.view() is None:
            return
        self._by_rank = False  # r after g: by suit first
        if self._auto_group():
            self.say("Grouped the way the rules read the hand.")
        else:
            self.say("Sorted by suit.")

    def sort(self) -> None:
        if self.view() is None:
            return
        self.layout.sort(by_rank=self._by_rank)
        self.say("Sorted by rank." if self._by_rank else "Sorted by suit.")
        self._by_rank = not self._by_rank

    # ---- the person's moves ----------------------------------------------------------------

    def _turn(self) -> tuple[DealState, SeatView] | None:
        """The deal and the person's view when it is the person's move; else says why not."""
        state, view = self.state, self.view()
        if state is None or view is None or self.phase != "deal":
            return None
        if self.busy or not view.my_turn:
            self.refuse("not your turn: the others are playing")
            return None
        return state, view

    def play(self, action: Action, used: Sequence[int] = (), words: str = "") -> bool:
        """Play ``action`` for the person if the engine allows it, else say why."""
        turn = self._turn()
        if turn is None:
            return False
        state, _ = turn
        me = state.me
        assert me is not None
        verdict = state.deal.can(me, action)
        if not verdict:
            self.refuse(verdict.reason)
            return False
        state.deal.apply(me, action)
        self.layout.discard(used)
        self.layout.marked.clear()
        self._hand_out_events()
        line = state.log.lines[-1] if state.log.lines else None
        self.status = Text(words) if words else (render.line_text(line, state.deal.wild) if line else Text())
        self._advance()
        return True

    def play_simple(self, action: Action) -> None:
        self.play(action)

    def _chosen(self) -> list[int]:
        return [h.uid for h in self.layout.selection()]

    def throw(self) -> None:
        turn = self._turn()
        if turn is None:
            return
        state, view = turn
        chosen = self.layout.selection()
        if len(chosen) != 1:
            self.refuse(f"mark one card to throw, not {len(chosen)} (Esc clears the marks)")
            return
        card = chosen[0]
        action = Action.throw(card.kind)
        me = state.me
        assert me is not None
        verdict = state.deal.can(me, action)
        if not verdict:
            self.refuse(verdict.reason)
            return
        if any(a.kind is ActionKind.SHOW for a in view.legal):
            question = f"Your hand can show now (w). Throw {render.card_plain(card.kind)} anyway?"

            def answer(yes: bool | None) -> None:
                if yes:
                    self.play(action, [card.uid])

            self.push_screen(Confirm(question), answer)
            return
        self.play(action, [card.uid])

    def show(self) -> None:
        turn = self._turn()
        if turn is None:
            return
        state, view = turn
        me = state.me
        assert me is not None
        deal = state.deal
        if not isinstance(deal, ShowDeal):
            self.refuse(deal.can(me, Action.show(view.hand[0] if view.hand else 0)).reason)
            return
        shows = [a.card for a in view.legal if a.kind is ActionKind.SHOW and a.card is not None]
        chosen = self.layout.selection()
        if not shows:
            if view.phase is Phase.DRAW:
                self.refuse(deal.check_declaration(me, view.hand[0]).reason)
            else:
                a = self.coach.arrangement(view)
                self.refuse(f"not a show yet: whatever you throw, it still needs {render.needs_text(a)}")
            return
        for h in chosen:
            if h.kind in shows:
                self.play(Action.show(h.kind), [h.uid])
                return
        if len(shows) == 1:
            self.play(Action.show(shows[0]))
            return

        def picked(i: int | None) -> None:
            if i is not None:
                self.play(Action.show(shows[i]))

        choices = [render.card_text(k, view.wild) for k in shows]
        self.push_screen(Pick("Show by throwing which card?", choices), picked)

    def drop(self) -> None:
        turn = self._turn()
        if turn is None:
            return
        state, view = turn
        me = state.me
        assert me is not None
        verdict = state.deal.can(me, Action.drop())
        if not verdict:
            self.refuse(verdict.reason)
            return
        cost = view.drop_cost

        def answer(yes: bool | None) -> None:
            if yes:
                self.play(Action.drop(), words=f"You drop out for {cost}; the others play the deal out.")
            else:
                self.say("You stay in.")

        self.push_screen(
            Confirm(f"Drop out of this deal for {cost}? Your hand is not counted or shown."), answer
        )

    def _suggestion(self, view: SeatView, kind: ActionKind) -> Action | None:
        return next((a for a in view.legal if a.kind is kind), None)

    def _why_not(self, state: DealState, view: SeatView, kind: ActionKind, why: str) -> str:
        """The engine's reason a move of ``kind`` cannot be made now, when it is about the turn
        (draw first, not before opening, not in the first round); else ``why``."""
        assert state.me is not None
        probe = {
            ActionKind.OPEN: Action.open(()),
            ActionKind.LAY_DOWN: Action.lay_down(()),
            ActionKind.LAY_OFF: Action.lay_off(0, ()),
            ActionKind.SWAP: Action.swap(0, 0),
        }[kind]
        reason = state.deal.can(state.me, probe).reason
        generic = not reason or "meld" in reason or "card" in reason
        return why if generic and view.phase is Phase.PLAY else reason or why

    def open(self) -> None:
        turn = self._turn()
        if turn is None:
            return
        state, view = turn
        marked = self.layout.marked_groups()
        if marked:
            self.play(Action.open(marked), [h.uid for h in self.layout.marked_cards()])
            return
        action = self._suggestion(view, ActionKind.OPEN)
        if action is not None:
            self.play(action)
            return
        assert state.me is not None
        if view.opened and view.opened[view.seat]:
            self.refuse("you have opened already: lay down (m) or lay off (f)")
            return
        meter = self.coach.meter(view)  # the pile's card counts only on the person's own turn
        if meter.best is not None:
            self.refuse(state.deal.can(state.me, Action.open(meter.best.melds)).reason or "no opening now")
        else:
            why = "no opening yet: " + render.line_plain(meter_why(meter.points, meter.threshold, meter.due))
            self.refuse(self._why_not(state, view, ActionKind.OPEN, why))

    def meld(self) -> None:
        turn = self._turn()
        if turn is None:
            return
        state, view = turn
        marked = self.layout.marked_cards()
        if marked:
            self.play(Action.lay_down([h.kind for h in marked]), [h.uid for h in marked])
            return
        action = self._suggestion(view, ActionKind.LAY_DOWN)
        if action is not None:
            self.play(action)
            return
        why = "no new meld in your hand: mark its cards (space), then m"
        self.refuse(self._why_not(state, view, ActionKind.LAY_DOWN, why))

    def _onto(
        self, state: DealState, view: SeatView, make: Callable[[int], Action], what: str, used: Sequence[int]
    ) -> None:
        """Play ``make(meld id)`` onto the one meld that takes it, or ask which; else say why."""
        assert state.me is not None
        verdicts = [(m, state.deal.can(state.me, make(m.id))) for m in view.melds]
        fits = [m for m, v in verdicts if v]
        if not fits:
            reasons = {v.reason for _, v in verdicts}
            if len(reasons) == 1:
                self.refuse(reasons.pop())
            elif not view.melds:
                self.refuse("no melds on the table yet")
            else:
                self.refuse(f"no meld on the table takes {what}")
            return
        if len(fits) == 1:
            self.play(make(fits[0].id), used)
            return

        def picked(i: int | None) -> None:
            if i is not None:
                self.play(make(fits[i].id), used)

        choices = []
        for m in fits:
            who = "you" if m.owner == view.seat else state.names[m.owner]
            line = Text(f"[{m.id}] {who}: ")
            line.append_text(render.meld_text(m.cards, m.stands_for))
            choices.append(line)
        self.push_screen(Pick(f"{what}: onto which meld?", choices), picked)

    def lay_off(self) -> None:
        turn = self._turn()
        if turn is None:
            return
        state, view = turn
        marked = self.layout.marked_cards()
        if not marked:
            action = self._suggestion(view, ActionKind.LAY_OFF)
            if action is not None:
                self.play(action)
                return
            why = "nothing in your hand goes onto the melds on the table: mark cards, then f"
            self.refuse(self._why_not(state, view, ActionKind.LAY_OFF, why))
            return
        kinds = [h.kind for h in marked]
        what = "Lay off " + " ".join(render.card_plain(k) for k in kinds)
        self._onto(state, view, lambda mid: Action.lay_off(mid, kinds), what, [h.uid for h in marked])

    def swap(self) -> None:
        turn = self._turn()
        if turn is None:
            return
        state, view = turn
        chosen = self.layout.selection()
        if len(chosen) != 1:
            self.refuse("a swap puts one card in a joker's place: mark one card (or none)")
            return
        card = chosen[0]
        what = f"Swap {render.card_plain(card.kind)} for a joker"
        self._onto(state, view, lambda mid: Action.swap(mid, card.kind), what, [card.uid])

    def ask_hint(self) -> None:
        if not self.settings.hints:
            self.refuse("hints are off at this table (--no-hints)")
            return
        turn = self._turn()
        if turn is None:
            return
        self.say(Text("Thinking…", style="dim"))
        self._hint_worker()

    @work(exclusive=True, group="hint")
    async def _hint_worker(self) -> None:
        state, view = self.state, self.view()
        if state is None or view is None or state.me is None:
            return
        seen = [e.seen_by(state.me) for e in state.deal.events]
        action, reason = await asyncio.to_thread(hint, view, names=state.names, events=seen)
        if self.view() != view:
            return  # the turn moved on while the bot thought
        line = Text("Hint: ", style="bold magenta")
        line.append(reason[:1].upper() + reason[1:] if reason else str(action))
        keys = keys_for(action)
        if keys:
            line.append(f" ({keys})", style="dim")
        self.say(line)

    # ---- pages -------------------------------------------------------------------------------

    def show_log(self) -> None:
        state = self.state
        if state is None:
            return
        lines: list[RenderableType] = [render.line_text(parts, state.deal.wild) for parts in state.log.lines]
        if not lines:
            lines = [Text("Nothing has happened yet.")]
        title = f"{self.title_text} · {self._deal_text(state)} · the deal's log, as your seat saw it"
        self.push_screen(Reader(title, Group(*lines), at_end=True))

    def show_sheet(self) -> None:
        if self.session is None or self.state is None:
            return
        self.push_screen(
            Reader(f"{self.title_text} · the score sheet", Group(*self._sheet_body(with_deal=False)))
        )

    def show_help(self) -> None:
        self.push_screen(Reader(f"{self.title_text} · keys", self._help_renderable()))

    # ---- saving and leaving ----------------------------------------------------------------

    def _target(self) -> Path:
        return self.histories if self.histories is not None else Path.cwd()

    def _write(self, deals: Sequence[tuple[Deal, tuple[str, ...]]]) -> None:
        try:
            self.saved = history_files(self._target(), self.seed, deals)
        except OSError as e:
            self.saved = []
            self.refuse(f"the hand histories were not saved: {e}")

    def _saved_text(self) -> Text:
        if not self.saved:
            return Text()
        where = self.saved[0].parent
        return Text(
            f"Saved {len(self.saved)} hand histor{'y' if len(self.saved) == 1 else 'ies'} in {where} "
            f"(rummykit replay {self.saved[0].name})",
            style="green",
        )

    def save(self) -> None:
        """The S key: write the histories now if the match is over, else once it is."""
        self.save_asked = True
        if self.phase == "over":
            self._write(self.played)
            if isinstance(self.screen, SheetScreen) and self.saved:
                self.screen.say(self._saved_text())
            return
        message = Text(
            "Hand histories: written when the match is over (a deal's seed tells the deals to come), "
            f"to {self._target()}",
            style="green",
        )
        if isinstance(self.screen, SheetScreen):
            self.screen.say(message)
        else:
            self.say(message)

    def ask_quit(self) -> None:
        def answer(yes: bool | None) -> None:
            if yes:
                self.leave()

        question = "Quit the game?"
        if self.save_asked and self.phase != "over":
            question += " The deals played so far are saved as hand histories."
        self.push_screen(Confirm(question), answer)


_APP_KEYS: Final = {"show": "press w", "layoff": "f", "back": "b", "open": "o", "meld": "m"}


def keys_for(action: Action) -> str:
    """The keys that play ``action`` in the full-screen game."""
    kind = action.kind
    if kind is ActionKind.DRAW_STOCK:
        return "press s"
    if kind is ActionKind.DRAW_PILE:
        return "press p"
    if kind is ActionKind.DROP:
        return "press d"
    if kind is ActionKind.PUT_BACK:
        return "press b"
    if kind is ActionKind.THROW and action.card is not None:
        return f"cursor on {render.card_plain(action.card)}, then t"
    if kind is ActionKind.SHOW and action.card is not None:
        return f"cursor on {render.card_plain(action.card)}, then w"
    if kind is ActionKind.OPEN:
        return "o opens with the best melds, or mark yours and press o"
    if kind is ActionKind.LAY_DOWN:
        return "mark " + " ".join(render.card_plain(k) for k in action.cards or ()) + ", then m"
    if kind is ActionKind.LAY_OFF:
        return (
            "mark "
            + " ".join(render.card_plain(k) for k in action.cards or ())
            + f", then f onto [{action.meld}]"
        )
    if kind is ActionKind.SWAP and action.card is not None:
        return f"cursor on {render.card_plain(action.card)}, then x onto [{action.meld}]"
    return ""
