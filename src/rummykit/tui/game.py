"""The game loop of ``rummykit play``: one person at seat 0, bots in the other seats.

The loop drives a :class:`~rummykit.engine.session.MatchSession` deal by deal.  On the person's
turn it clears the screen, draws the table, the hand (grouped the way the arranger reads it, or
sorted by suit), the strip saying what a show still needs, and the keys that work now; then it
reads one command a line from ``ask`` until one is legal.  The table family (Rummy 40, Remi 51)
adds the melds on the table, the Opening meter, and a turn of several moves (open, lay down,
lay off, swap a joker, put back) before the throw.  A refused command prints the engine's
reason in one line and changes nothing.  Between deals the score sheet waits for Enter.

``ask(prompt)`` returns one line (raising :class:`EOFError` when the input ends, which leaves the
table quietly), so :func:`scripted_ask` and a captured console drive the same loop that a person
drives through :func:`input`.

Settled here:

* Bots see what their seat may see: their own views, and every event as their seat sees it.
* A bot's turn is shown as one line (``Bikash takes 7♥ from the pile and throws 2♣``).  On a
  real terminal each line appears as it is played, ``pace`` seconds apart, and the screen of the
  person's next turn repeats the last few; elsewhere (pipes, tests) only the screens print.
* Once the person has dropped (or is out of a pool) the deal is played out without pauses and
  only its end is shown: watching bots for a hundred turns is nobody's idea of fun.
* Bots out of a pool rejoin whenever the rules allow (as the simulator's bots do); the person
  is asked.
* Throwing a card when the hand could show asks first: a hand that can show should show.
* Table family: ``o``, ``m`` and ``l`` without cards play the engine's own suggestion (the
  best opening, the first meld or lay-off of the cheapest leftover), which the strip names, so
  the Opening meter reaching the threshold is one key away from opening.
* A hint (``a`` or ``hint``, on unless the table was set up with ``--no-hints``) prints the
  ``hard`` bot's move for this decision with its one-line reason and the command that plays
  it; it plays nothing.  The bot reads the person's view and the events the person has seen,
  nothing else.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from rich.console import Console
from rich.padding import Padding
from rich.text import Text

from rummykit.bots import Player, make_player
from rummykit.bots.coach import Coach
from rummykit.bots.hint import hint
from rummykit.engine.cards import CardError, format_card, format_cards, parse_card
from rummykit.engine.deal import Deal, ShowDeal
from rummykit.engine.events import (
    Action,
    ActionKind,
    DealEnded,
    Dealt,
    Dropped,
    Event,
    Phase,
    Showed,
    StockRebuilt,
    Threw,
    WrongShow,
)
from rummykit.engine.history import dump
from rummykit.engine.numbers import ascii_whole
from rummykit.engine.rules import Rules
from rummykit.engine.session import MatchSession
from rummykit.engine.table_deal import TableDeal, ending_note
from rummykit.engine.views import SeatView
from rummykit.engine.words import Part, event_words, fragment, meter_why
from rummykit.tui import render

__all__ = [
    "BOT_NAMES",
    "Ask",
    "Command",
    "Game",
    "Leave",
    "MoveLog",
    "Settings",
    "bot_names",
    "command_for",
    "history_files",
    "parse_command",
    "scripted_ask",
]

Ask = Callable[[str], str]

# Names for the bots' seats (Kerala seats eight: seven bots).
BOT_NAMES: Final = ("Bikash", "Chandra", "Dipa", "Ekta", "Gopal", "Hari", "Isha", "Jamuna")
ME: Final = 0  # the person's match seat


class Leave(Exception):
    """The person quit, or the input ended: the game stops where it is."""


@dataclass(frozen=True, slots=True)
class Settings:
    """One game's table: the rules (players included), the seed, the person's name, a bot a seat."""

    rules: Rules
    seed: int | str
    name: str = "You"
    bots: tuple[str, ...] = ()  # one per seat after the person's
    pace: float = 0.0
    hints: bool = True  # the a (hint) key answers
    seeded: bool = True  # the seed was chosen: the next match takes the next seed (else a fresh one)

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *bot_names(self.name, len(self.bots)))


def bot_names(person: str, count: int) -> list[str]:
    """``count`` names for bots, none the person's own (any case)."""
    taken = person.strip().lower()
    names = [n for n in BOT_NAMES if n.lower() != taken]
    names += [f"Bot {i}" for i in range(1, count + 1) if f"bot {i}" != taken]
    return names[:count]


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "match"


def history_files(
    directory: Path, seed: int | str, deals: Sequence[tuple[Deal, Sequence[str]]]
) -> list[Path]:
    """Write each deal's hand history (:func:`rummykit.engine.history.dump`, its seats named
    as at the table) into ``directory`` as ``match-SEED-deal-NN.txt``; the paths written.

    Only for a match that is over (or left): deal ``n``'s seed is the match's seed and ``n``,
    so one deal's history tells every deal still to come."""
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for n, (deal, names) in enumerate(deals, start=1):
        path = directory / f"match-{_safe(str(seed))}-deal-{n:02d}.txt"
        path.write_text(dump(deal, names=list(names), match={"seed": seed, "deal": n}), encoding="utf-8")
        out.append(path)
    return out


def scripted_ask(console: Console, lines: Iterable[str]) -> Ask:
    """An ``ask`` that answers from ``lines`` and prints each prompt with its answer, as a
    terminal would show them; :class:`EOFError` once the lines run out."""
    it: Iterator[str] = iter(lines)

    def ask(prompt: str) -> str:
        try:
            line = next(it)
        except StopIteration:
            raise EOFError from None
        console.print(Text(prompt, style="bold") + Text(line), highlight=False)
        return line

    return ask


# ---- commands --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    """One line of input, understood.

    ``verb``: stock, pile, drop, throw, show, group, help, hint, quit, empty, or bad (``error``
    says why); the table family adds open (``melds``), meld (``cards``), layoff (``meld``,
    ``cards``), swap (``meld``, ``card``) and back.  A meld verb without cards means the one
    the strip suggests.
    """

    verb: str
    card: int | None = None
    error: str = ""
    cards: tuple[int, ...] = ()
    melds: tuple[tuple[int, ...], ...] = ()
    meld: int | None = None


_WORDS: Final = {
    "s": "stock",
    "stock": "stock",
    "draw": "stock",
    "p": "pile",
    "pile": "pile",
    "take": "pile",
    "d": "drop",
    "drop": "drop",
    "b": "back",
    "back": "back",
    "g": "group",
    "group": "group",
    "sort": "group",
    "h": "help",
    "?": "help",
    "help": "help",
    "a": "hint",
    "hint": "hint",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
}
_MELD_WORDS: Final = {
    "o": "open",
    "open": "open",
    "m": "meld",
    "meld": "meld",
    "lay": "meld",
    "l": "layoff",
    "layoff": "layoff",
    "x": "swap",
    "swap": "swap",
}


def _card_arg(word: str, order: Sequence[int]) -> Command | int:
    """A card named by its number in the displayed hand or by its text; a bad Command if neither."""
    n = ascii_whole(word)
    if n is not None:
        if not 1 <= n <= len(order):
            return Command("bad", error=f"no card {n}: your cards are numbered 1 to {len(order)}")
        return order[n - 1]
    try:
        return parse_card(word)
    except CardError:
        return Command("bad", error=f"{word!r} is not a command or a card: type h for help")


def _cards_arg(words: Sequence[str], order: Sequence[int]) -> Command | tuple[int, ...]:
    """Cards by name or number (numbers name different cards even where kinds repeat)."""
    out = []
    for w in words:
        arg = _card_arg(w, order)
        if isinstance(arg, Command):
            return arg
        out.append(arg)
    return tuple(out)


def _meld_command(verb: str, args: list[str], order: Sequence[int]) -> Command:
    """``o [cards / cards]``, ``m [cards]``, ``l [meld cards]``, ``x meld card``."""
    if verb == "open":
        melds = []
        for part in " ".join(args).replace("|", "/").split("/"):
            cards = _cards_arg(part.split(), order)
            if isinstance(cards, Command):
                return cards
            if cards:
                melds.append(cards)
        return Command("open", melds=tuple(melds))
    if verb == "meld":
        cards = _cards_arg(args, order)
        return cards if isinstance(cards, Command) else Command("meld", cards=cards)
    if not args and verb == "layoff":
        return Command("layoff")
    if not args or ascii_whole(args[0]) is None:
        example = "l 2 8h" if verb == "layoff" else "x 2 6h"
        return Command("bad", error=f"name the meld on the table by its number first: {example}")
    cards = _cards_arg(args[1:], order)
    if isinstance(cards, Command):
        return cards
    if verb == "swap":
        if len(cards) != 1:
            return Command("bad", error="a swap puts one card in the joker's place: x 2 6h")
        return Command("swap", card=cards[0], meld=int(args[0]))
    if not cards:
        return Command("bad", error="name the cards to lay off: l 2 8h")
    return Command("layoff", cards=cards, meld=int(args[0]))


def parse_command(line: str, order: Sequence[int]) -> Command:
    """Read one line: a key word, a card (``Kc``, ``10h``, ``JK``) or its number in ``order``
    (the hand as displayed), ``show`` with an optional card, ``throw`` with a card, or a table
    family meld command."""
    words = line.strip().split()
    if not words:
        return Command("empty")
    head = words[0].lower()
    if head == "show":
        if len(words) > 2:
            return Command("bad", error="show takes at most one card: show, or show Kc")
        if len(words) == 1:
            return Command("show")
        arg = _card_arg(words[1], order)
        return arg if isinstance(arg, Command) else Command("show", arg)
    if head in ("t", "throw"):
        if len(words) != 2:
            return Command("bad", error="throw takes one card: throw Kc, or just Kc")
        arg = _card_arg(words[1], order)
        return arg if isinstance(arg, Command) else Command("throw", arg)
    if head in _MELD_WORDS:
        return _meld_command(_MELD_WORDS[head], words[1:], order)
    if len(words) > 1:
        return Command("bad", error=f"one command a line, not {line.strip()!r}: type h for help")
    verb = _WORDS.get(head)
    if verb is not None:
        return Command(verb)
    arg = _card_arg(words[0], order)
    return arg if isinstance(arg, Command) else Command("throw", arg)


# ---- what happened, in words -----------------------------------------------------------------


class MoveLog:
    """The moves of a deal as lines of words, one a turn, from the events as the person sees them.

    A turn's actions are joined into one line (``Bikash takes 7♥ from the pile, lays down 7♥ 8♥
    9♥ and throws 2♣``); the line is in :attr:`lines` from its first action on, so a screen drawn
    mid-turn shows the turn so far.
    """

    _CLOSING = (Threw, Showed, WrongShow, Dropped)  # the actions that end a turn

    def __init__(self, names: Sequence[str], me: int | None) -> None:
        self.names = names
        self.me = me
        self.lines: list[list[Part]] = []
        self._seat: int | None = None  # the seat whose turn line is still open
        self._frags: list[list[Part]] = []  # that turn's actions so far

    def _who(self, seat: int) -> tuple[str, str]:
        """The subject and the verb ending: ("You", "") or ("Bikash", "s")."""
        return ("You", "") if seat == self.me else (self.names[seat], "s")

    def _line(self, closed: bool) -> list[Part]:
        assert self._seat is not None
        who, _ = self._who(self._seat)
        line: list[Part] = [who, " "]
        frags = self._frags
        for i, frag in enumerate(frags):
            if i:
                line.append(" and " if closed and i == len(frags) - 1 else ", ")
            line += frag
        return line

    def add(self, event: Event) -> list[Part] | None:
        """Take in one event; the line it completes, if it completes one."""
        seat = event.seat
        if seat is not None and not isinstance(event, Dealt | DealEnded):
            frag = fragment(event, seat == self.me)  # the words of engine.words, as the web table's
            if frag is None:
                return None
            if seat != self._seat:
                self._seat, self._frags = seat, []
                self.lines.append([])
            self._frags.append(frag)
            closed = isinstance(event, self._CLOSING)
            self.lines[-1] = self._line(closed)
            if closed:
                self._seat = None
                return self.lines[-1]
            return None
        line: list[Part]
        if isinstance(event, StockRebuilt | Dealt):
            line = event_words(event, self.names, self.me)
        else:
            if isinstance(event, DealEnded) and self._seat is not None:
                self._seat = None  # a hand emptied by a meld: the turn ended without a throw
            return None
        self._seat = None
        self.lines.append(line)
        return line

    def last(self, n: int) -> list[list[Part]]:
        return self.lines[-n:] if n > 0 else []


# ---- the game ----------------------------------------------------------------------------


@dataclass(slots=True)
class _Deal:
    """What the loop keeps about the deal being played."""

    session: MatchSession
    deal: Deal
    me: int | None  # the person's deal seat; None when out of the pool
    names: tuple[str, ...]  # by deal seat
    kinds: tuple[str, ...]  # by deal seat: the bot's name, "you" for the person
    players: tuple[Player, ...]  # by deal seat (the person's entry is never asked)
    log: MoveLog
    number: int  # 1-based
    seen: int = 0  # events handed out so far


class Game:
    """Matches against bots, read from ``ask`` and drawn on ``console``."""

    def __init__(
        self,
        settings: Settings,
        console: Console,
        ask: Ask,
        *,
        sleep: Callable[[float], None] = time.sleep,
        histories: Path | None = None,
    ) -> None:
        self.settings = settings
        self.console = console
        self._ask = ask
        self._sleep = sleep
        self.grouped = True  # the g key: grouped as the arranger reads it, or sorted by suit
        self.title = render.table_title(settings.rules)
        self.session: MatchSession | None = None  # the match being played
        self.hand_order: list[int] = []  # the person's hand as last displayed: number i is [i - 1]
        self.ending_notes: dict[int, str] = {}  # table family: deal index -> how it ended, if not plain
        self.coach = Coach(settings.rules)  # the hand's help, from the person's view (as the web table's)
        self.histories = histories  # where each match's hand histories go once it is over
        self.played: list[tuple[Deal, tuple[str, ...]]] = []  # the match's deals, names by deal seat

    # ---- the outer loop ------------------------------------------------------------------

    def run(self) -> int:
        """Play matches until the person says no more (or quits); the exit status, 0."""
        seed = self.settings.seed
        try:
            while self.play_match(seed):
                if not self.settings.seeded:
                    seed = secrets.randbelow(1_000_000)
                else:
                    seed = seed + 1 if isinstance(seed, int) else f"{seed}+"
        except Leave:
            session = self.session
            if session is not None and not session.is_over:
                self._save_histories(session.seed)  # the match ends here: nothing is still to come
            self.console.print("You leave the table. Thanks for playing.")
        return 0

    def _save_histories(self, seed: int | str) -> None:
        if self.histories is None or not self.played:
            return
        try:
            paths = history_files(self.histories, seed, self.played)
        except OSError as e:
            self.refuse(f"the hand histories were not saved: {e}")
            return
        self.say(f"Saved {len(paths)} hand histories in {self.histories} (rummykit replay {paths[0].name}).")

    def ask(self, prompt: str) -> str:
        try:
            return self._ask(prompt)
        except EOFError:
            self.console.print()
            raise Leave from None

    def confirm(self, question: str) -> bool:
        """A yes/no question; anything but y (or yes) is no."""
        return self.ask(f"{question} (y/n) > ").strip().lower() in ("y", "yes")

    def say(self, text: str | Text, style: str = "") -> None:
        self.console.print(text, style=style, highlight=False)

    def refuse(self, reason: str) -> None:
        """An input that changes nothing: the reason, in one line."""
        self.console.print(Text("✗ ", style="bold red") + Text(reason), highlight=False)

    def play_match(self, seed: int | str) -> bool:
        """One match from its first deal to its winner; whether to play another."""
        s = self.settings
        session = MatchSession(s.rules, seed, s.names)
        self.session = session
        self.ending_notes = {}
        self.played = []
        bots: list[Player | None] = [None]
        for seat, bot in enumerate(s.bots, start=1):
            bots.append(make_player(bot, f"{seed}/seat {seat}", s.rules))
        self.say(f"{session.match.format.describe()}.", style="dim")
        while not session.is_over:
            deal = session.start_deal()
            seats = session.deal_seats
            names = tuple(s.names[m] for m in seats)
            me = session.deal_seat(ME)
            players = tuple(b if b is not None else _Nobody() for b in (bots[m] for m in seats))
            you = "" if s.name.lower() == "you" else "(you)"
            kinds = tuple(you if m == ME else s.bots[m - 1] for m in seats)
            log = MoveLog(names, me)
            ctx = _Deal(session, deal, me, names, kinds, players, log, session.deals_played + 1)
            self.played.append((deal, names))
            self.play_deal(ctx)
            session.finish_deal()
            self.between_deals(ctx)
        self._save_histories(seed)
        return self.confirm("Play again?")

    def play_deal(self, ctx: _Deal) -> None:
        """Bots and the person take turns until the deal is over."""
        deal = ctx.deal
        while True:
            self._hand_out_events(ctx)
            seat = deal.to_play
            if seat is None:
                return
            if seat == ctx.me:
                self.person_acts(ctx)
                continue
            deal.apply(seat, ctx.players[seat].choose(deal.view(seat)))
            # the bot's turn is over and the person is still in the deal to watch it
            if deal.to_play not in (None, seat) and ctx.me in deal.in_play():
                self._live(ctx)

    def _hand_out_events(self, ctx: _Deal) -> None:
        """Every new event to each bot as its seat sees it, and to the move log as the person does."""
        events = ctx.deal.events_since(ctx.seen)
        ctx.seen += len(events)
        for event in events:
            for seat, player in enumerate(ctx.players):
                if seat != ctx.me:
                    player.observe(event.seen_by(seat))
            ctx.log.add(event.seen_by(ctx.me))

    def _live(self, ctx: _Deal) -> None:
        """On a real terminal, the bot's turn as it is played, then a short pause."""
        if not self.console.is_terminal or self.settings.pace <= 0:
            return
        self._hand_out_events(ctx)
        if ctx.log.lines:
            self.say(render.line_text(ctx.log.lines[-1]))
        self._sleep(self.settings.pace)

    # ---- the person's turn -----------------------------------------------------------------

    def _deal_text(self, ctx: _Deal) -> str:
        rules = self.settings.rules
        # formats that play a fixed number of deals (a pool or a target plays until decided)
        fixed = ctx.session.match.format.key in ("settlement", "points", "deals", "penalty")
        if fixed and rules.rounds is not None and rules.rounds > 1 and ctx.number <= rules.rounds:
            return f"deal {ctx.number} of {rules.rounds}"
        return f"deal {ctx.number}"

    def _totals(self, ctx: _Deal) -> list[str]:
        session = ctx.session
        show = session.match.format.show_total
        return [f"total {show(session.totals[m])}" for m in session.deal_seats]

    def screen(self, ctx: _Deal) -> SeatView:
        """Clear the screen and draw the person's view of the table; the view drawn."""
        assert ctx.me is not None
        view = ctx.deal.view(ctx.me)
        con = self.console
        con.clear()
        head, *info = render.table_lines(view, self.title, self._deal_text(ctx))
        con.rule(head, style="dim")
        for line in info:
            self.say(line)
        con.print(render.seat_table(view, ctx.names, ctx.kinds, self._totals(ctx), ctx.me))
        if view.melds:
            self.say(Text("\nOn the table", style="bold"))
            con.print(Padding(render.melds_table(view, ctx.names), (0, 0, 0, 2), expand=False))
        recent = ctx.log.last(max(3, view.players))
        if recent:
            self.say(Text("\nLast moves", style="bold"))
            for parts in recent:
                self.say(Text("  ") + render.line_text(parts, view.wild))
        self._draw_hand(ctx, view)
        self.say(self._keys(view))
        return view

    def _keys(self, view: SeatView) -> Text:
        hints = self.settings.hints
        if view.rules.is_table:
            return render.table_keys_line(view, len(view.hand), self.grouped, hints=hints)
        return render.keys_line(view, len(view.hand), self.grouped, hints=hints)

    def _hint(self, ctx: _Deal, view: SeatView) -> None:
        """The hard bot's move for this decision, its reason, and the command that plays it."""
        if not self.settings.hints:
            self.refuse("hints are off at this table (--no-hints)")
            return
        assert ctx.me is not None
        seen = [e.seen_by(ctx.me) for e in ctx.deal.events]
        action, reason = hint(view, names=ctx.names, events=seen)
        line = Text("Hint: ", style="bold magenta")
        line.append(reason[:1].upper() + reason[1:] if reason else str(action))
        typed = command_for(action, view)
        if typed:
            line.append("  (type ", style="dim")
            line.append(typed, style="bold cyan")
            line.append(")", style="dim")
        self.say(line)

    def _draw_hand(self, ctx: _Deal, view: SeatView) -> None:
        """The hand, numbered as the commands read it, and the strip under it."""
        deal = ctx.deal
        strip: Text
        if isinstance(deal, TableDeal):
            # before opening nothing can go onto the table's melds: the hand is grouped on its own
            leftover = self.coach.leftover(view)
            segments = render.table_segments(view.hand, leftover, view.rules, view.drawn)
            meter = self.coach.meter(view)
            strip = render.table_strip(view, (meter.points, meter.threshold), leftover)
            reading = "grouped as it could go down"
        else:
            assert isinstance(deal, ShowDeal)
            a = self.coach.arrangement(view, away=True)
            segments = render.grouped(view.hand, a, view.wild, view.drawn)
            strip = render.strip(view, a)
            reading = "grouped as the rules read it"
        heading = Text(f"\nYour hand ({len(view.hand)} cards) ", style="bold")
        if segments is None or not self.grouped:
            segments = render.by_suit(view.hand, view.wild, view.drawn)
            reading = "sorted by suit"
        heading.append(reading, style="dim")
        self.say(heading)
        lines, self.hand_order = render.hand_lines(segments, view.wild, self.console.width)
        for line in lines:
            self.console.print(line, no_wrap=True, crop=True, highlight=False)
        self.say(strip)

    def person_acts(self, ctx: _Deal) -> None:
        """One action of the person's turn: the screen, then commands until one is played."""
        assert ctx.me is not None
        deal, me = ctx.deal, ctx.me
        view = self.screen(ctx)
        prompts = {Phase.DRAW: "draw > ", Phase.THROW: "throw > ", Phase.PLAY: "play > "}
        prompt = prompts.get(view.phase, "> ")
        while True:
            cmd = parse_command(self.ask(prompt), self.hand_order)
            verb = cmd.verb
            if verb == "empty":
                self.say(self._keys(view))
            elif verb == "bad":
                self.refuse(cmd.error)
            elif verb == "help":
                rules, hints = self.settings.rules, self.settings.hints
                self.console.print(
                    render.table_help_text(rules, hints=hints)
                    if rules.is_table
                    else render.help_text(rules, hints=hints)
                )
            elif verb == "hint":
                self._hint(ctx, view)
            elif verb == "group":
                self.grouped = not self.grouped
                view = self.screen(ctx)
            elif verb == "quit":
                if self.confirm("Quit the game?"):
                    raise Leave
            elif isinstance(deal, TableDeal):
                if self._table_move(deal, me, view, cmd):
                    return
            elif self._show_move(deal, me, view, cmd):
                return

    def _show_move(self, deal: Deal, me: int, view: SeatView, cmd: Command) -> bool:
        """A show-family move; whether it was played."""
        assert isinstance(deal, ShowDeal)
        verb = cmd.verb
        if verb == "drop":
            return self._drop(deal, me, view)
        if verb == "show":
            return self._show(deal, me, view, cmd.card)
        if verb == "throw":
            assert cmd.card is not None
            return self._throw(deal, me, view, cmd.card)
        return self._play(deal, me, _simple_action(cmd))

    def _table_move(self, deal: TableDeal, me: int, view: SeatView, cmd: Command) -> bool:
        """A table-family move (draw, open, lay down, lay off, swap, put back, throw)."""
        verb = cmd.verb
        if verb == "open" and not cmd.melds:
            return self._suggested(deal, me, view, ActionKind.OPEN, self._why_no_opening(deal, me, view))
        if verb == "meld" and not cmd.cards:
            why = "no new meld in your hand: name one, like m 5h 6h 7h"
            return self._suggested(deal, me, view, ActionKind.LAY_DOWN, why)
        if verb == "layoff" and not cmd.cards:
            why = "nothing in your hand goes onto the melds on the table: name one, like l 2 8h"
            return self._suggested(deal, me, view, ActionKind.LAY_OFF, why)
        if verb == "open":
            return self._play(deal, me, Action.open(cmd.melds))
        if verb == "meld":
            return self._play(deal, me, Action.lay_down(cmd.cards))
        if verb == "layoff":
            assert cmd.meld is not None
            return self._play(deal, me, Action.lay_off(cmd.meld, cmd.cards))
        if verb == "swap":
            assert cmd.meld is not None and cmd.card is not None
            return self._play(deal, me, Action.swap(cmd.meld, cmd.card))
        return self._play(deal, me, _simple_action(cmd))

    def _suggested(self, deal: Deal, me: int, view: SeatView, kind: ActionKind, why: str) -> bool:
        """Play the engine's first suggestion of ``kind`` (what the strip names), or say why not."""
        action = next((a for a in view.legal if a.kind is kind), None)
        if action is None:
            # Ask the engine about an empty move of that kind: a turn-level refusal ("draw first",
            # "not before you have opened", "no opening in the first round") is the person's
            # reason; one about the probe's missing cards or meld is not, so ``why`` says it.
            probe = {
                ActionKind.OPEN: Action.open(()),
                ActionKind.LAY_DOWN: Action.lay_down(()),
                ActionKind.LAY_OFF: Action.lay_off(0, ()),
            }[kind]
            reason = deal.can(me, probe).reason
            generic = not reason or "meld" in reason or "card" in reason
            self.refuse(why if generic and view.phase is Phase.PLAY else reason or why)
            return False
        return self._play(deal, me, action)

    def _why_no_opening(self, deal: TableDeal, me: int, view: SeatView) -> str:
        if view.opened and view.opened[me]:
            return "you have opened already: lay down (m) or lay off (l)"
        meter = self.coach.meter(view)
        if meter.best is not None:
            return deal.can(me, Action.open(meter.best.melds)).reason or "no opening now"
        return "no opening yet: " + render.line_plain(meter_why(meter.points, meter.threshold, meter.due))

    def _play(self, deal: Deal, me: int, action: Action) -> bool:
        """Play ``action`` if the engine allows it, else say why; whether it was played."""
        verdict = deal.can(me, action)
        if not verdict:
            self.refuse(verdict.reason)
            return False
        deal.apply(me, action)
        return True

    def _drop(self, deal: Deal, me: int, view: SeatView) -> bool:
        verdict = deal.can(me, Action.drop())
        if not verdict:
            self.refuse(verdict.reason)
            return False
        cost = view.drop_cost
        if not self.confirm(f"Drop out of this deal for {cost}? Your hand is not counted or shown."):
            self.say("You stay in.")
            return False
        if self._play(deal, me, Action.drop()):
            self.say(f"You drop out for {cost}; the others play the deal out.")
            return True
        return False

    def _throw(self, deal: ShowDeal, me: int, view: SeatView, card: int) -> bool:
        action = Action.throw(card)
        verdict = deal.can(me, action)
        if not verdict:
            self.refuse(verdict.reason)
            return False
        can_show = any(a.kind is ActionKind.SHOW for a in view.legal)
        question = f"Your hand can show now (type show). Throw {render.card_plain(card)} anyway?"
        if can_show and not self.confirm(question):
            return False
        return self._play(deal, me, action)

    def _show(self, deal: ShowDeal, me: int, view: SeatView, card: int | None) -> bool:
        shows = [a.card for a in view.legal if a.kind is ActionKind.SHOW and a.card is not None]
        if card is not None:
            if card in shows:
                return self._play(deal, me, Action.show(card))
            self.refuse(deal.check_declaration(me, card).reason or "that is not a show")
            return False
        if not shows:
            self.refuse(self._why_no_show(deal, me, view))
            return False
        if len(shows) == 1:
            return self._play(deal, me, Action.show(shows[0]))
        choices = Text("Show by throwing which card?")
        for i, k in enumerate(shows, start=1):
            choices += Text(f"  {i}) ") + render.card_text(k, view.wild)
        self.say(choices)
        answer = self.ask("show with (number or card; Enter to go back) > ").strip()
        if not answer:
            return False
        pick = _card_arg(answer, shows)
        if isinstance(pick, Command):
            self.refuse(pick.error)
            return False
        if pick not in shows:
            self.refuse(deal.check_declaration(me, pick).reason or "that is not a show")
            return False
        return self._play(deal, me, Action.show(pick))

    def _why_no_show(self, deal: ShowDeal, me: int, view: SeatView) -> str:
        if view.phase is Phase.DRAW:
            return deal.check_declaration(me, view.hand[0]).reason  # the engine's "draw first"
        a = self.coach.arrangement(view)
        return f"not a show yet: whatever you throw, it still needs {render.needs_text(a)}"

    # ---- between deals -----------------------------------------------------------------------

    def between_deals(self, ctx: _Deal) -> None:
        """The deal's end, the score sheet, rejoins; then wait for Enter (or, at the end, the winner)."""
        session, deal = ctx.session, ctx.deal
        result = deal.result
        assert result is not None
        con = self.console
        con.clear()
        con.rule(Text(f"{self.title} · {self._deal_text(ctx)} is over", style="bold"), style="dim")
        self.say(render.ending_words(result, ctx.names, ctx.me))
        recent = ctx.log.last(4)
        if recent:
            self.say(Text("\nLast moves", style="bold"))
            for parts in recent:
                self.say(Text("  ") + render.line_text(parts, deal.wild))
        con.print(render.deal_result(result, ctx.names, deal.rules, deal.wild))
        note = ending_note(deal.rules, result) if deal.rules.is_table else None
        if note is not None and session.match.rows:
            self.ending_notes[session.match.rows[-1].index] = note
        con.rule(Text("Score sheet", style="bold"), style="dim")
        con.print(render.sheet_table(session.match, ME, self.ending_notes))
        for line in render.sheet_notes(session.match, deal.rules):
            self.say(line)
        self._rejoins(session)
        if session.is_over:
            winners = session.winners
            if winners == (ME,):
                self.say("You win the match!", style="bold green")
            elif ME in winners:
                self.say("You share the win.", style="bold green")
            else:
                names = " and ".join(session.names[w] for w in winners)
                self.say(f"{names} win{'s' if len(winners) == 1 else ''} the match.", style="bold")
            return
        answer = self.ask("Press Enter for the next round (q to quit) > ").strip().lower()
        if answer in ("q", "quit") and self.confirm("Quit the game?"):
            raise Leave

    def _rejoins(self, session: MatchSession) -> None:
        """Offer the person a rejoin when the pool allows one; bots always take theirs."""
        for offer in session.rejoin_offers():
            if offer.seat != ME:
                continue
            left = "" if offer.rejoins_left is None else f" ({offer.rejoins_left} rejoin(s) left)"
            if self.confirm(f"You are out of the pool. Rejoin at {offer.total}{left}?"):
                record = session.rejoin(ME)
                self.say(f"You rejoin at {record.total}.", style="green")
        for seat in range(session.players):
            if seat != ME and session.can_rejoin(seat):
                record = session.rejoin(seat)
                self.say(f"{session.names[seat]} rejoins at {record.total}.")


def command_for(action: Action, view: SeatView) -> str:
    """What to type to play ``action`` (``""`` when no single command does)."""
    kind = action.kind
    cards = action.cards or ()
    if kind is ActionKind.DRAW_STOCK:
        return "s"
    if kind is ActionKind.DRAW_PILE:
        return "p"
    if kind is ActionKind.DROP:
        return "d"
    if kind is ActionKind.PUT_BACK:
        return "b"
    if kind is ActionKind.THROW and action.card is not None:
        return format_card(action.card)
    if kind is ActionKind.SHOW and action.card is not None:
        shows = [a for a in view.legal if a.kind is ActionKind.SHOW]
        return "show" if len(shows) == 1 else f"show {format_card(action.card)}"
    if kind is ActionKind.OPEN and action.groups:
        first = next((a for a in view.legal if a.kind is ActionKind.OPEN), None)
        if first == action:
            return "o"
        return "o " + " / ".join(format_cards(m) for m in action.groups)
    if kind is ActionKind.LAY_DOWN:
        return "m " + format_cards(cards)
    if kind is ActionKind.LAY_OFF and action.meld is not None:
        return f"l {action.meld} {format_cards(cards)}"
    if kind is ActionKind.SWAP and action.meld is not None and action.card is not None:
        return f"x {action.meld} {format_card(action.card)}"
    return ""


def _simple_action(cmd: Command) -> Action:
    """The action of a command that names no cards, or a throw; anything else is refused by the
    engine as not an action at this table (a drop at Rummy 40, a show at Remi 51)."""
    if cmd.verb == "throw" and cmd.card is not None:
        return Action.throw(cmd.card)
    return {
        "stock": Action.draw_stock(),
        "pile": Action.draw_pile(),
        "back": Action.put_back(),
        "drop": Action.drop(),
        "show": Action.show(cmd.card if cmd.card is not None else 0),
        "open": Action.open(cmd.melds),
        "meld": Action.lay_down(cmd.cards),
        "layoff": Action.lay_off(cmd.meld or 0, cmd.cards),
        "swap": Action.swap(cmd.meld or 0, cmd.card if cmd.card is not None else 0),
    }[cmd.verb]


class _Nobody:
    """The person's place among the players: never asked (the loop reads the keyboard instead)."""

    name = "you"

    def choose(self, view: SeatView) -> Action:
        raise AssertionError("the person's seat is played from the keyboard")

    def observe(self, event: Event) -> None:
        return None
