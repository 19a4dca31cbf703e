"""Driving the full-screen game by keys in Textual's pilot, as a person at a keyboard would.

:class:`KeyPlayer` reads the person's view, asks a greedy bot what to do, and plays it by
keys only: the cursor to the card, space to mark, ``n`` to make the marked cards a group, then
the move's key (``s p t w d o m f x b``), answering the pick and confirm boxes by keys too.  At
every turn it records the screen as text with the true state beside it, so tests can check what
was shown against what the seat may know, and that every panel fitted the terminal.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from textual.pilot import Pilot

from rummykit.bots import Player, make_player
from rummykit.bots.baseline import GreedyPlayer
from rummykit.engine.cards import parse_cards
from rummykit.engine.deal import Deal
from rummykit.engine.events import Action, ActionKind, Dealt
from rummykit.engine.views import SeatView
from rummykit.tui.app import Confirm, Pick, Reader, SheetScreen, TableApp, TableScreen, TooSmall, screen_text

# a card printed on the screen; "=6♥" under a joker is what it stands for, not a card
CARD = re.compile(r"(?<![=\d])(?:10|[2-9AJQK])[♠♥♦♣]|(?<!=)\bJK\b")
SYMBOLS = dict(zip("♠♥♦♣", "shdc", strict=True))


def card_kinds(text: str) -> list[int]:
    """Every card printed in ``text`` (``10♥``, ``JK``), as kinds."""
    out = []
    for token in CARD.findall(text):
        out += parse_cards("JK" if token == "JK" else token[:-1] + SYMBOLS[token[-1]])
    return out


@dataclass
class Turn:
    """One screen of the person's turn: its text and the truth at that moment."""

    text: str
    view: SeatView
    deal: Deal
    hands: tuple[tuple[int, ...], ...]
    public: frozenset[int]
    fingerprint: object


def public_cards(deal: Deal, view: SeatView) -> set[int]:
    """Every card the person may have seen face up by now, their own hand included."""
    first = deal.events[0]
    assert isinstance(first, Dealt)
    public = set(view.hand) | set(view.pile)
    if first.pile_top is not None:
        public.add(first.pile_top)
    if view.cut is not None:
        public.add(view.cut)
    for s in range(view.players):
        public |= set(view.took[s]) | set(view.thrown[s])
    for m in view.melds:
        public |= set(m.cards)
    return public


def hand_rows(text: str) -> str:
    """The hand's rows of a table screen (between its title and the strip)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "── Your hand" in line)
    rows = lines[start + 1 : start + 1 + 8]
    out = []
    for row in rows:
        if row.startswith(("To show", "SHOW!", "Your thirteen", "Opening:", "Opened.")):
            break
        out.append(row)
    return "\n".join(out)


def check_fits(app: TableApp) -> None:
    """Every panel of the table screen got the lines drawn into it (nothing wrapped, which
    would mean a line wider than the terminal) and the last one ends on the screen."""
    screen = app.table_screen
    width, height = app.size
    for name, lines in app.drawn_lines.items():
        widget = screen.query_one(f"#{name}")
        if not lines:
            continue
        assert widget.size.height == lines, (name, widget.size.height, lines, screen_text(app))
        assert widget.size.width <= width
        region = widget.region
        assert region.height == lines and region.bottom <= height, (name, region, screen_text(app))


class KeyPlayer:
    """Plays the person's seat of ``app`` through ``pilot`` by keys, deciding like greedy."""

    def __init__(
        self,
        app: TableApp,
        pilot: Pilot[int],
        *,
        swaps: bool = False,
        own_groups: bool = True,
        on_turn: Callable[[Turn], Awaitable[None] | None] | None = None,
    ) -> None:
        self.app = app
        self.pilot = pilot
        self.swaps = swaps  # table family: swap a joker whenever the engine lists one
        self.own_groups = own_groups  # an opening not the suggestion: make its groups first
        self.on_turn = on_turn
        self.turns: list[Turn] = []
        self.sheets: list[str] = []
        self.keys_pressed = 0
        self.picks = 0  # melds chosen in a pick box
        self._greedy: Player | None = None
        self._alternate = False

    async def press(self, *keys: str) -> None:
        for key in keys:
            self.keys_pressed += 1
            await self.pilot.press(key)

    async def settle(self) -> None:
        """Wait until the app waits for the person: their turn, a sheet, a question."""
        app = self.app
        for _ in range(20_000):
            await self.pilot.pause()
            screen = app.screen
            if isinstance(screen, SheetScreen | Confirm | Pick | Reader | TooSmall):
                return
            if isinstance(screen, TableScreen) and not app.busy:
                view = app.view()
                idle = not any(w.is_running for w in app.workers)
                if (view is None or view.my_turn) and idle:
                    return
            await asyncio.sleep(0.002)
        raise AssertionError("the game never came back to the person:\n" + screen_text(app))

    # ---- the hand by keys --------------------------------------------------------------

    async def cursor_to(self, uid: int) -> None:
        layout = self.app.layout
        at = [h.uid for h in layout.cards()].index(uid)
        delta = at - layout.cursor
        self._alternate = not self._alternate
        right, left = ("right", "left") if self._alternate else ("l", "h")
        if at == 0 and delta < -3:
            await self.press("home")
        else:
            await self.press(*([right] * delta if delta > 0 else [left] * -delta))
        assert self.app.layout.cursor == at

    def uids(self, kinds: tuple[int, ...] | list[int], exclude: list[int] | None = None) -> list[int]:
        """Card ids for ``kinds`` in the layout, distinct copies for repeated kinds (none of
        ``exclude``)."""
        free = [(h.uid, h.kind) for h in self.app.layout.cards() if h.uid not in (exclude or [])]
        out = []
        for k in kinds:
            i = next(i for i, (_, kind) in enumerate(free) if kind == k)
            out.append(free.pop(i)[0])
        return out

    async def mark(self, kinds: tuple[int, ...] | list[int], exclude: list[int] | None = None) -> list[int]:
        """Mark cards of ``kinds`` (the first copies in the hand's order); their ids."""
        uids = self.uids(kinds, exclude)
        await self.mark_uids(uids)
        return uids

    async def mark_uids(self, uids: list[int]) -> None:
        if self.app.layout.marked:
            await self.press("escape")
        for uid in uids:
            await self.cursor_to(uid)
            await self.press("space")
        assert self.app.layout.marked == set(uids)

    async def pick_meld(self, meld: int | None) -> None:
        screen = self.app.screen
        if isinstance(screen, Pick):
            i = next(i for i, c in enumerate(screen.choices) if c.plain.startswith(f"[{meld}]"))
            self.picks += 1
            await self.press(str(i + 1))

    # ---- one move ---------------------------------------------------------------------

    def decide(self, view: SeatView) -> Action:
        if self._greedy is None:
            self._greedy = make_player("greedy", 0, view.rules) if view.rules.is_table else GreedyPlayer(0)
        swaps = [a for a in view.legal if a.kind is ActionKind.SWAP]
        if self.swaps and swaps:
            return swaps[0]
        return self._greedy.choose(view)

    async def move(self, view: SeatView, action: Action) -> None:
        kind = action.kind
        first = next((a for a in view.legal if a.kind is kind), None)
        if kind is ActionKind.DRAW_STOCK:
            await self.press("s")
        elif kind is ActionKind.DRAW_PILE:
            await self.press("p")
        elif kind is ActionKind.PUT_BACK:
            await self.press("b")
        elif kind is ActionKind.DROP:
            await self.press("d")
            await self.settle()
            assert isinstance(self.app.screen, Confirm)
            await self.press("y")
        elif kind in (ActionKind.THROW, ActionKind.SHOW):
            assert action.card is not None
            await self.cursor_to(self.uids([action.card])[0])
            self._alternate = not self._alternate
            await self.press("w" if kind is ActionKind.SHOW else ("t" if self._alternate else "enter"))
        elif kind is ActionKind.OPEN:
            melds = action.groups or ()
            if action == first and not self.own_groups:
                await self.press("o")
            else:
                chosen: list[int] = []
                for meld in melds:
                    chosen += await self.mark(list(meld), chosen)
                    await self.press("n")  # the meld becomes a group of its own
                await self.mark_uids(chosen)
                assert sorted(map(sorted, self.app.layout.marked_groups())) == sorted(map(sorted, melds))
                await self.press("o")
        elif kind is ActionKind.LAY_DOWN:
            if action == first and not self.own_groups:
                await self.press("m")
            else:
                await self.mark(list(action.cards or ()))
                await self.press("m")
        elif kind is ActionKind.LAY_OFF:
            if action == first and not self.own_groups:
                await self.press("f")
            else:
                await self.mark(list(action.cards or ()))
                await self.press("f")
                await self.settle()
                await self.pick_meld(action.meld)
        elif kind is ActionKind.SWAP:
            assert action.card is not None
            if self.app.layout.marked:
                await self.press("escape")
            await self.cursor_to(self.uids([action.card])[0])
            await self.press("x")
            await self.settle()
            await self.pick_meld(action.meld)
        else:  # pragma: no cover
            raise AssertionError(f"no keys for {action}")

    # ---- whole matches ----------------------------------------------------------------

    def record(self) -> Turn | None:
        app = self.app
        view = app.view()
        state = app.state
        if view is None or state is None or not view.my_turn:
            return None
        deal = state.deal
        turn = Turn(
            screen_text(app),
            view,
            deal,
            tuple(deal.hand(s) for s in range(deal.players)),
            frozenset(public_cards(deal, view)),
            deal.fingerprint(),
        )
        self.turns.append(turn)
        return turn

    async def play(self, *, matches: int = 1, max_moves: int = 5_000, quit_after: int | None = None) -> None:
        """Play until ``matches`` matches are over (then leave the sheet up), or ``quit_after``
        deals have ended (then q, y)."""
        app = self.app
        ended = 0
        for _ in range(max_moves):
            await self.settle()
            screen = app.screen
            if isinstance(screen, SheetScreen):
                self.sheets.append(screen_text(app))
                ended += 1
                if quit_after is not None and ended >= quit_after:
                    await self.press("q")
                    await self.settle()
                    await self.press("y")
                    return
                if app.phase == "over":
                    matches -= 1
                    if matches <= 0:
                        return
                await self.press("enter")
                continue
            if isinstance(screen, Confirm):  # a rejoin
                await self.press("y")
                continue
            if isinstance(screen, TooSmall | Reader | Pick):
                raise AssertionError(f"unexpected {type(screen).__name__}:\n{screen_text(app)}")
            view = app.view()
            if view is None:
                continue
            turn = self.record()
            assert turn is not None
            check_fits(app)
            if self.on_turn is not None:
                result = self.on_turn(turn)
                if result is not None:
                    await result
            await self.move(view, self.decide(view))
        raise AssertionError("the match did not end")
