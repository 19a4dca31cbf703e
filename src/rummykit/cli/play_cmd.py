"""``rummykit play``: a game against bots in the terminal.

You sit at the first seat; bots fill the others.  On a terminal the game runs full screen and
redraws in place: the table (the wild cards and the cut card, the stock, the pile and who threw
its top card, every seat with its card count, what it took from the pile and its total), the
melds on the table (Rummy 40, Remi 51), the last moves, your hand as you arranged it, the strip
saying what a show still needs (or the Opening meter), a status line and the keys that work now:

  ← → (h l)       move the cursor over your cards; space marks one, Esc clears the marks
  < > (Shift+← →) move the card under the cursor; n makes the marked cards a group
  g, r            group the hand as the rules read it; sort by suit (again: by rank)
  s, p            draw from the stock, take the pile's top card
  t or Enter      throw the card under the cursor (or the one marked)
  w, d            show (with the finishing card under the cursor), drop (asks, says the cost)
  o m f x b       Rummy 40, Remi 51: open, lay down, lay off, swap a joker, put back
  a, v, c         a hint (--no-hints turns it off), the deal's whole log, the score sheet
  S, ?, q         save the hand histories, every key, quit (asks first)

The terminal must be 80x24 or larger.  Between deals the score sheet waits for Enter.  With
--histories DIR (or the S key) the match's hand histories are written once it is over, for
rummykit replay.

When the input is not a terminal (a pipe, a script), or with --line, the game reads one short
command a line instead: s, p, a card (Kc, 10h) or its number, show, d, o m l x b, a, g, h, q.
A command the rules refuse prints the reason and changes nothing.  Without --rules the game
asks for the table and the seats first.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path
from typing import Any, Final

from rich.console import Console
from rich.text import Text

from rummykit import bots as bot_registry
from rummykit.cli.arrange_cmd import InputError, add_rules_options, rules_from_args
from rummykit.cli.runner import bots_round_the_table
from rummykit.engine.match import format_for
from rummykit.engine.numbers import whole_number
from rummykit.engine.rules import PRESET_NAMES, Rules, RulesError, get_preset, resolve_rules
from rummykit.tui.game import Ask, Game, Leave, Settings
from rummykit.tui.render import table_title

__all__ = ["add_parser", "best_bot", "choose_settings", "playable_presets", "run", "terminal_ask"]

DEFAULT_PACE: Final = 0.5
# Strongest first: the default bot is the first of these that make_player knows.
_BOT_PREFERENCE: Final = ("hard", "medium", "greedy", "easy", "random")


def add_parser(commands: Any) -> None:
    p = commands.add_parser(
        "play",
        help="play against bots in the terminal",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rules_options(p)
    p.add_argument("--players", metavar="N", help="seats, you included (default: the rules' players)")
    p.add_argument(
        "--bots",
        metavar="LIST",
        help="bots for the other seats, comma-separated, repeated round the table "
        f"({', '.join(bot_registry.BOT_NAMES)}; default: the strongest)",
    )
    p.add_argument("--name", default="You", help="your name on the score sheet (default You)")
    p.add_argument("--seed", metavar="S", help="the match's seed: the same seed deals the same cards")
    p.add_argument(
        "--pace",
        metavar="SECONDS",
        default=str(DEFAULT_PACE),
        help=f"pause after each bot's turn on a terminal (default {DEFAULT_PACE}; 0 for none)",
    )
    p.add_argument(
        "--no-hints",
        dest="hints",
        action="store_false",
        help="no hints at this table (the a key says so); hints are on by default",
    )
    p.add_argument(
        "--histories",
        metavar="DIR",
        help="write each match's hand histories to DIR once the match is over (or you leave it)",
    )
    p.add_argument(
        "--line",
        action="store_true",
        help="one command a line, even on a terminal (the mode for pipes and scripts)",
    )
    p.set_defaults(run=run)


# ---- the table ---------------------------------------------------------------------------


def playable_presets() -> tuple[str, ...]:
    """The presets the terminal table seats: every one, both families."""
    return PRESET_NAMES


def known_bots(rules: Rules) -> tuple[str, ...]:
    """The bot names ``make_player`` knows for the rules' family."""
    return tuple(bot_registry.TABLE_BOTS) if rules.is_table else tuple(bot_registry.BOT_NAMES)


def best_bot(rules: Rules) -> str:
    known = known_bots(rules)
    for name in _BOT_PREFERENCE:
        if name in known:
            return name
    return known[-1]


def _with_players(rules: Rules, players: int) -> Rules:
    try:
        return rules.replace(players=players)
    except RulesError as e:
        raise InputError(str(e)) from None


def _players_arg(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise InputError(f"--players takes a whole number, not {text!r}") from None


def _bots_arg(text: str, count: int, rules: Rules) -> tuple[str, ...]:
    return bots_round_the_table(text, count, known_bots(rules))


def _seed_arg(text: str | None) -> int | str:
    if text is None:
        return secrets.randbelow(1_000_000)
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        return text


def _pace_arg(text: str) -> float:
    try:
        pace = float(text)
    except ValueError:
        raise InputError(f"--pace takes seconds, like 0.5, not {text!r}") from None
    if not 0 <= pace <= 10:
        raise InputError(f"--pace must be 0 to 10 seconds, not {text}")
    return pace


def _blurb(rules: Rules) -> str:
    """A preset in a few words, for the set-up menu."""
    how = format_for(rules).describe().split(":")[0].replace(" at 1 a point", "")
    if rules.is_table:
        return f"melds on the table, open at {rules.opening}; {how.lower()}"
    return f"13 cards, one show; {how.lower()}"


def _pick(console: Console, ask: Ask, prompt: str, count: int, default: int) -> int:
    """A number from 1 to ``count`` (Enter: ``default``), asked until one is given."""
    while True:
        text = ask(f"{prompt} [{default}] > ").strip()
        if not text:
            return default
        choice = whole_number(text, 1, count)
        if choice is not None:
            return choice
        console.print(Text(f"✗ type a number from 1 to {count}, or Enter for {default}"), highlight=False)


def choose_settings(args: argparse.Namespace, console: Console, ask: Ask) -> Settings:
    """The table from the options, asking for the preset, the seats and the bots when no rules
    are given (numbered choices, Enter takes the default)."""
    players = _players_arg(args.players)
    asking = args.rules is None and args.rules_file is None
    if asking:
        presets = playable_presets()
        console.print(Text("Which table?", style="bold"))
        for i, name in enumerate(presets, start=1):
            rules = get_preset(name)
            what = _blurb(rules)
            console.print(f"  {i:>2}  {table_title(rules):<20} {what}", highlight=False)
        preset = presets[_pick(console, ask, "Table", len(presets), 1) - 1]
        try:
            rules = resolve_rules(preset, None, args.set)
        except RulesError as e:
            raise InputError(str(e)) from None
        if players is None:
            lo, hi = rules.seat_range
            players = _pick(console, ask, f"Players, you included ({lo}-{hi})", hi, rules.players)
            while players < lo:
                console.print(Text(f"✗ {rules.preset} seats {lo} to {hi}"), highlight=False)
                players = _pick(console, ask, f"Players, you included ({lo}-{hi})", hi, rules.players)
    else:
        rules = rules_from_args(args)
    if players is not None and players != rules.players:
        rules = _with_players(rules, players)
    count = rules.players - 1
    if args.bots is not None:
        bots = _bots_arg(args.bots, count, rules)
    elif asking:
        known = known_bots(rules)
        best = best_bot(rules)
        listed = "  ".join(f"{i}) {n}" for i, n in enumerate(known, start=1))
        console.print(Text(f"Bots: {listed}", style="bold"), highlight=False)
        bots = (known[_pick(console, ask, "Bots", len(known), known.index(best) + 1) - 1],) * count
    else:
        bots = (best_bot(rules),) * count
    name = args.name.strip() or "You"
    hints = bool(getattr(args, "hints", True))
    seeded = args.seed is not None
    return Settings(rules, _seed_arg(args.seed), name, bots, _pace_arg(args.pace), hints, seeded)


# ---- running -------------------------------------------------------------------------------


def terminal_ask(console: Console) -> Ask:
    """``ask`` on the real terminal: :func:`input` behind the prompt.  When the input is a pipe
    the typed line is not echoed by any terminal, so it is printed, and the output reads as a
    transcript."""
    echo = not sys.stdin.isatty()

    def ask(prompt: str) -> str:
        line = console.input(Text(prompt, style="bold"))
        if echo:
            console.print(line, highlight=False, markup=False)
        return line

    return ask


def full_screen(args: argparse.Namespace) -> bool:
    """Full screen on a real terminal, unless --line asks for the line mode."""
    return not getattr(args, "line", False) and sys.stdin.isatty() and sys.stdout.isatty()


def _histories_arg(text: str | None) -> Path | None:
    if text is None:
        return None
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise InputError(f"--histories names a directory, and {text!r} is a file")
    return path


def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    ask = terminal_ask(console)
    histories = _histories_arg(getattr(args, "histories", None))
    try:
        settings = choose_settings(args, console, ask)
    except (EOFError, Leave):
        return 0
    if full_screen(args):
        from rummykit.tui.app import TableApp  # Textual loads only for the full screen

        TableApp(settings, histories=histories).run()
        console.print("You leave the table. Thanks for playing.", highlight=False)
        return 0
    names = ", ".join(f"{n} ({b})" for n, b in zip(settings.names[1:], settings.bots, strict=True))
    console.print(
        f"{table_title(settings.rules)}, {settings.rules.players} seats: you and {names}. "
        f"Seed {settings.seed} (--seed {settings.seed} deals the same cards).",
        highlight=False,
    )
    return Game(settings, console, ask, histories=histories).run()
