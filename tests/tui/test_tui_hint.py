"""The hint in the terminal game: the a (hint) key, its line, the keys and help, --no-hints."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from rummykit.cli.main import main
from rummykit.engine.cards import parse_cards
from rummykit.engine.deal import Deal
from rummykit.engine.events import Action, ActionKind
from rummykit.engine.rules import Rules, get_preset
from rummykit.engine.table_deal import TableDeal
from rummykit.tui import render
from rummykit.tui.game import Game, Settings, command_for, parse_command

RUMMY40 = get_preset("rummy40", players=2)
NEPALI = get_preset("nepali", players=2)


def plain(item: object) -> str:
    console = Console(file=io.StringIO(), width=120, force_terminal=False)
    console.print(item)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


class Script:
    """Answers prompts from lines, then q / y to leave; keeps each prompt with the deal's
    fingerprint at that moment."""

    def __init__(self, console: Console, lines: list[str]) -> None:
        self.console = console
        self.lines = list(lines)
        self.game: Game | None = None
        self.seen: list[tuple[str, str, object]] = []

    def deal(self) -> Deal | None:
        assert self.game is not None
        session = self.game.session
        return None if session is None else session.deal

    def __call__(self, prompt: str) -> str:
        deal = self.deal()
        line = self.lines.pop(0) if self.lines else ("y" if "(y/n)" in prompt else "q")
        self.seen.append((prompt, line, None if deal is None else deal.fingerprint()))
        self.console.print(prompt + line, highlight=False)
        return line


def play(rules: Rules, lines: list[str], *, hints: bool = True, seed: int = 5) -> tuple[str, Script]:
    console = Console(file=io.StringIO(), width=110, force_terminal=False)
    script = Script(console, lines)
    game = Game(Settings(rules, seed, "You", ("greedy",), 0.0, hints), console, script)
    script.game = game
    game.run()
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out, script


def test_a_and_hint_are_read_as_the_hint() -> None:
    order = parse_cards("5h 6h 7h Kc Kd Kh 2s")
    assert parse_command("a", order).verb == "hint"
    assert parse_command(" HINT ", order).verb == "hint"
    assert parse_command("?", order).verb == "help"  # ? stays the help


@pytest.mark.parametrize("rules", [RUMMY40, NEPALI], ids=lambda r: r.preset)
def test_the_hint_names_a_move_and_why_and_plays_nothing(rules: Rules) -> None:
    out, script = play(rules, ["a", "a", "s", "a"])
    hints = [line for line in out.splitlines() if line.startswith("Hint: ")]
    assert len(hints) == 3
    for line in hints:
        assert re.match(r"Hint: [A-Z].+: .+  \(type [^)]+\)$", line), line
    # the deal did not move while hints were asked for: the same fingerprint at the next prompt
    assert script.seen[0][2] == script.seen[1][2] == script.seen[2][2]
    assert "draw" in script.seen[2][0]
    assert "a hint" in out  # on the keys line


def test_with_no_hints_the_key_says_so() -> None:
    out, _ = play(RUMMY40, ["a"], hints=False)
    assert "✗ hints are off at this table (--no-hints)" in out
    assert "Hint: " not in out
    assert "a hint" not in out


def test_keys_and_help_list_the_hint_only_when_it_is_on() -> None:
    deal = TableDeal(RUMMY40, "keys", dealer=1)
    view = deal.view(0)
    assert "a hint" in plain(render.table_keys_line(view, 13, True, hints=True))
    assert "a hint" not in plain(render.table_keys_line(view, 13, True))
    assert "a, hint" in plain(render.table_help_text(RUMMY40, hints=True))
    assert "a, hint" not in plain(render.table_help_text(RUMMY40))
    assert "a, hint" in plain(render.help_text(NEPALI, hints=True))


def test_command_for_types_what_plays_the_move() -> None:
    deal = TableDeal(RUMMY40, "typed", dealer=1)
    view = deal.view(0)
    assert command_for(Action.draw_stock(), view) == "s"
    assert command_for(Action.draw_pile(), view) == "p"
    assert command_for(Action.throw(parse_cards("Kc")[0]), view) == "Kc"
    assert command_for(Action.lay_off(2, parse_cards("8h")), view) == "l 2 8h"
    assert command_for(Action.lay_down(parse_cards("5h 6h 7h")), view) == "m 5h 6h 7h"
    assert command_for(Action.swap(3, parse_cards("6h")[0]), view) == "x 3 6h"
    assert command_for(Action.put_back(), view) == "b"
    melds = (tuple(parse_cards("5h 6h 7h")), tuple(parse_cards("Kc Kd Kh")))
    assert command_for(Action.open(melds), view) == "o 5h 6h 7h / Kc Kd Kh"
    for line in ("s", "p", "l 2 8h", "m 5h 6h 7h", "x 3 6h", "b", "o 5h 6h 7h / Kc Kd Kh"):
        assert parse_command(line, view.hand).verb not in ("bad", "help")
    assert Action.throw(0).kind is ActionKind.THROW


def test_play_takes_no_hints(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    argv = ["play", "--rules", "rummy40", "--players", "2", "--seed", "3", "--pace", "0"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("a\nq\ny\n"))
    assert main([*argv, "--no-hints"]) == 0
    assert "hints are off at this table" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("a\nq\ny\n"))
    assert main(argv) == 0  # hints are on by default
    assert "Hint: " in capsys.readouterr().out
