"""Numbers people type are ASCII digits: "²" and "٣" (which ``str.isdigit`` takes and ``int()``
refuses or reads as another number) are refused in words, never a traceback (issue 12)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rummykit.cli.main import main
from rummykit.engine.numbers import ascii_whole, whole_number
from rummykit.tui.game import parse_command


@pytest.mark.parametrize("text", ["²", "٣", "1_0", "-1", "+2", " 3", "", "1" * 19])
def test_only_ascii_digits_are_a_whole_number(text: str) -> None:
    assert ascii_whole(text) is None
    assert whole_number(text, 0, 10**20) is None


def test_ascii_digits_read_as_themselves() -> None:
    assert ascii_whole("0") == 0 and ascii_whole("0042") == 42
    assert whole_number("7", 1, 6) is None and whole_number("6", 1, 6) == 6


def test_sheet_players_as_a_superscript_two_is_a_name_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "²" is not a count of players, so it is read as one player's name, which a sheet refuses
    code = main(["sheet", "new", "--rules", "pool101", "--players", "²", "--file", str(tmp_path / "s.json")])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "s.json").exists()


def test_a_count_option_in_another_script_is_refused_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--rules", "nepali", "--deals", "١٠", "--bots", "greedy"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--deals takes a whole number" in err


def test_the_line_games_numbered_prompt_asks_again_after_a_superscript() -> None:
    # the set-up prompt ("how many players") gets "²", then quits
    done = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "play", "--line"],
        input="²\nq\ny\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert "type a number from 1 to" in done.stdout


def test_a_card_numbered_in_another_script_is_a_bad_command_not_a_crash() -> None:
    order = [0, 1, 2]
    assert parse_command("t ²", order).verb == "bad"
    assert parse_command("x ٣ 6h", order).verb == "bad"
    assert parse_command("t 2", order) != parse_command("t ²", order)
