"""``rummykit sheet``: seed 004's score sheet in the terminal, its rules played through the command."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rummykit.cli import sheet_cmd
from rummykit.cli.main import main
from rummykit.engine.match import Match, Standing

Capsys = pytest.CaptureFixture[str]


class Sheet:
    """A sheet file in a temporary folder, driven through ``rummykit sheet``."""

    def __init__(self, path: Path, capsys: Capsys) -> None:
        self.path = path
        self.capsys = capsys
        self.out = ""
        self.err = ""

    def run(self, action: str, *args: str) -> int:
        code = main(["sheet", action, "--file", str(self.path), *args])
        captured = self.capsys.readouterr()
        self.out, self.err = captured.out, captured.err
        return code

    def ok(self, action: str, *args: str) -> str:
        code = self.run(action, *args)
        assert code == 0, self.err
        assert self.err == ""
        return self.out

    def refused(self, action: str, *args: str) -> str:
        """The one-line refusal of ``action``, checking the file did not change."""
        before = self.path.read_bytes()
        assert self.run(action, *args) == 2
        assert self.path.read_bytes() == before
        lines = self.err.strip().splitlines()
        assert len(lines) == 1, self.err
        assert self.out == ""
        assert lines[0].startswith("rummykit sheet: ")
        return lines[0].removeprefix("rummykit sheet: ")

    def refused_all(self, action: str, *args: str) -> list[str]:
        """Every problem of a refused ``action``, one line each, checking the file did not change."""
        before = self.path.read_bytes()
        assert self.run(action, *args) == 2
        assert self.path.read_bytes() == before and self.out == ""
        lines = self.err.strip().splitlines()
        assert all(line.startswith("rummykit sheet: ") for line in lines)
        return [line.removeprefix("rummykit sheet: ") for line in lines]

    def add(self, *entries: str) -> str:
        return self.ok("add", *entries)

    @property
    def match(self) -> Match:
        return sheet_cmd.load_sheet(self.path)[0]


def new_sheet(tmp_path: Path, capsys: Capsys, rules: str, players: str, *extra: str) -> Sheet:
    sheet = Sheet(tmp_path / "game.json", capsys)
    code = main(["sheet", "new", "--rules", rules, "--players", players, "--file", str(sheet.path), *extra])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    sheet.out = captured.out
    return sheet


# -- seed 004: Pool 250 the Kerala way ------------------------------------------------------------


def test_seed004_pool250_a_player_on_250_still_plays_and_251_puts_them_out(
    tmp_path: Path, capsys: Capsys
) -> None:
    sheet = new_sheet(tmp_path, capsys, "kerala", "Anu,Biju,Chinnu")
    assert "Pool 250: out at 251" in sheet.out
    assert "Drop 25, middle drop 50, full count 100, wrong show 100." in sheet.out
    sheet.add("F", "W", "0")
    sheet.add("F", "W", "0")
    out = sheet.add("M", "W", "0")
    assert "Anu 250 (compel)" in out  # on 250, in compel, but still in
    out = sheet.add("1", "W", "3")  # a seat on 250 plays the deal
    assert "Anu 251 (out)" in out
    assert sheet.match.standing(0) is Standing.OUT
    message = sheet.refused("add", "5", "W", "3")
    assert message == "Anu is out of the pool and cannot play (mark the seat out, or rejoin first)"
    # The players still in may be entered alone, or the out player marked with -.
    sheet.add("W", "3")
    sheet.add("-", "W", "3")
    assert sheet.match.totals == (251, 0, 9)


def test_seed004_pool250_compel_starts_at_226(tmp_path: Path, capsys: Capsys) -> None:
    sheet = new_sheet(tmp_path, capsys, "pool250", "Anu,Biju,Chinnu")
    sheet.add("W", "100", "0")
    sheet.add("W", "100", "0")
    out = sheet.add("W", "25", "0")
    assert "Biju 225," in out and "compel" not in out
    out = sheet.ok("edit", "W", "26", "0")
    assert "Deal 3 replaced." in out
    assert "Biju 226 (compel)" in out
    assert "compel from 226" in sheet.ok("show")
    # In compel a player may still drop: 226 + 25 reaches 251.
    out = sheet.add("W", "D", "0")
    assert "Biju 251 (out)" in out


def test_seed004_kerala_two_rejoins_then_no_more(tmp_path: Path, capsys: Capsys) -> None:
    sheet = new_sheet(tmp_path, capsys, "kerala", "Anu,Biju,Chinnu")
    for number in (1, 2):
        for _ in range(3):
            sheet.add("F", "W", "5")
        assert f"May rejoin: Anu at {5 * 3 * number + 1}" in sheet.out
        out = sheet.ok("rejoin", "anu")
        assert f"Anu rejoins at {15 * number + 1} (rejoin {number} of 2)." in out
    for _ in range(3):
        sheet.add("F", "W", "5")
    assert "May rejoin" not in sheet.out
    assert sheet.refused("rejoin", "Anu") == "Anu cannot rejoin: no rejoins left (2 used)"


# -- seed 004: Pool 101 and Pool 201 rejoins ------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "deals", "top", "allowed"),
    [
        ("pool101", [["W", "40", "F"], ["79", "W", "30"]], 79, True),
        ("pool101", [["W", "40", "F"], ["80", "W", "30"]], 80, False),
        ("pool201", [["F", "W", "F"], ["F", "W", "F"], ["14", "W", "F"]], 174, True),
        ("pool201", [["F", "W", "F"], ["F", "W", "F"], ["15", "W", "F"]], 175, False),
    ],
)
def test_seed004_pool_101_and_201_rejoin_while_the_top_score_is_79_or_174(
    tmp_path: Path, capsys: Capsys, rules: str, deals: list[list[str]], top: int, allowed: bool
) -> None:
    sheet = new_sheet(tmp_path, capsys, rules, "Asha,Bikash,Chandra")
    for deal in deals:
        sheet.add(*deal)
    assert sheet.match.totals[0] == top
    assert "Chandra" in sheet.out and "(out)" in sheet.out
    if allowed:
        assert f"May rejoin: Chandra at {top + 1}" in sheet.out
        out = sheet.ok("rejoin", "Chandra")
        assert f"Chandra rejoins at {top + 1} (rejoin 1)." in out
        assert sheet.match.seats_in == (0, 1, 2)
    else:
        limit = 79 if rules == "pool101" else 174
        assert "May rejoin" not in sheet.out
        assert sheet.refused("rejoin", "3") == (
            f"Chandra cannot rejoin: the highest total still in is {top}, above {limit}"
        )


def test_a_whole_pool101_game_at_the_prompt_with_a_rejoin(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = tmp_path / "game.json"
    html_out, pdf_out = tmp_path / "sheet.html", tmp_path / "sheet.pdf"
    typed = [
        "W 40 F D",  # 0 40 80 20
        "M W 30 10",  # 40 40 110 30: Chandra out
        "rejoin Chandra",  # at 41, the top still in + 1
        "5 W 20 X",  # 45 40 61 110: Dipa out
        "W 5 5",  # the players still in alone: Dipa is out
        "undo",
        "rejoin dipa",  # at 62
        "W 12 5 Q",  # a typo: refused, nothing changes
        "W F 40 M",  # 45 120 101 102: Asha is the last in
        f"html {html_out}",
        f"pdf {pdf_out}",
        "quit",
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(typed) + "\n"))
    code = main(
        ["sheet", "play", "--rules", "pool101", "--players", "Asha,Bikash,Chandra,Dipa", "--file", str(game)]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    out = captured.out
    # It says what to type, and which players the deal is for.
    assert "one entry per player" in out and "W          the winner" in out
    assert "deal 1 [Asha Bikash Chandra Dipa]> " in out
    assert "Chandra rejoins at 41 (rejoin 1)." in out
    assert "Undid deal 4." in out
    assert "Dipa rejoins at 62 (rejoin 1)." in out
    assert "  Dipa: 'Q' is not a number or one of W E D M F X -" in out
    assert "After deal 4: Asha 45, Bikash 120 (out), Chandra 101 (out), Dipa 102 (out)" in out
    assert "Winner: Asha (45)" in out
    assert "The match is over" in out
    match, title = sheet_cmd.load_sheet(game)
    assert title == "Pool 101 score sheet"
    assert match.totals == (45, 120, 101, 102) and match.winner == 0
    assert [(r.seat, r.total) for r in match.rejoins] == [(2, 41), (3, 62)]
    page = html_out.read_text()
    assert "Chandra rejoins at 41" in page and "Dipa rejoins at 62" in page
    assert pdf_out.read_bytes().startswith(b"%PDF-")


def test_the_prompt_runs_from_a_pipe_without_a_file() -> None:
    typed = "W 14 41 F\nbogus\n0 W 0 0\nW 1 2 3\nquit\n"
    result = subprocess.run(
        [sys.executable, "-m", "rummykit", "sheet", "play", "--rules", "nepali", "--players", "4"],
        input=typed,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert result.returncode == 0, result.stderr
    assert "Not saved to a file" in result.stdout
    assert "seat 1: 'bogus' is not a number" not in result.stdout  # one token for four players
    assert "a deal needs 4 entries" in result.stdout
    assert "Winner: seat 1 (+141)" in result.stdout
    assert "+135" in result.stdout  # the final sheet is printed on the way out


# -- other formats --------------------------------------------------------------------------------


def test_settlement_totals_print_with_signs_and_sum_to_zero(tmp_path: Path, capsys: Capsys) -> None:
    sheet = new_sheet(tmp_path, capsys, "nepali", "Asha,Bina,Chet,Dev")
    out = sheet.add("W", "14", "41", "F")
    assert "After deal 1: Asha +135, Bina -14, Chet -41, Dev -80" in out
    sheet.add("D", "W", "M", "33")
    sheet.add("10", "5", "W", "F")
    assert sum(sheet.match.totals) == 0
    shown = sheet.ok("show")
    assert "Paid" in shown and "+135" in shown and "Winner: Asha (+105)" in shown
    assert sheet.refused("add", "W", "1", "2", "3") == "the match is over: no more deals"


def test_points_money_is_points_times_the_point_value(tmp_path: Path, capsys: Capsys) -> None:
    sheet = new_sheet(
        tmp_path, capsys, "indian", "Asha,Bikash,Chandra", "--set", "point_value=5", "--set", "rounds=2"
    )
    assert "point value 5" in sheet.out
    sheet.add("W", "30", "F")
    out = sheet.add("12", "W", "D")
    assert "After deal 2: Asha 12, Bikash 30, Chandra 100" in out
    assert "Money (x 5): Asha 60, Bikash 150, Chandra 500" in out
    assert "Winner: Asha (12)" in out


def test_deals_a_tie_plays_one_more_deal_and_nobody_drops(tmp_path: Path, capsys: Capsys) -> None:
    sheet = new_sheet(tmp_path, capsys, "deals", "Asha,Bikash")
    assert "No dropping" in sheet.out
    sheet.add("W", "20")
    assert (
        sheet.refused("add", "D", "W") == "Asha is marked dropped, but there is no dropping in a deals match"
    )
    out = sheet.add("20", "W")
    assert "Asha 160, Bikash 160" in out
    assert "a tie for most chips: one more deal" in out
    out = sheet.add("W", "5")
    assert "Winner: Asha (165)" in out


# -- entering deals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        (["W", "W", "3", "4"], "exactly one winner per deal: Asha and Bikash are both marked winner"),
        (["3", "4", "5", "6"], "no winner: mark the player who won the deal with W (E for an early show)"),
        (["W", "81", "3", "4"], "Bikash's count 81 is above the full count 80"),
        (["DW", "3", "4", "5"], "Asha dropped, so cannot be the winner"),
        (
            ["W", "25D", "3", "4"],
            "Bikash dropped first and is charged 20, not 25",
        ),
        (["W", "FX", "3", "4"], "Bikash: 'FX' has more than one letter; give each player one"),
        (["W", "3", "Z", "4"], "Chandra: 'Z' is not a number or one of W E D M F X -"),
        (["W", "3", "4"], "a deal needs 4 entries (one per player: Asha, Bikash, Chandra, Dipa), got 3"),
        (["W", "-", "3", "4"], "Bikash is still in the pool, so cannot be marked out"),
        (["W", "-3", "3", "4"], "Bikash: a negative number (-3) is refused"),
    ],
)
def test_a_bad_deal_is_refused_in_one_line_and_the_file_is_unchanged(
    tmp_path: Path, capsys: Capsys, entries: list[str], message: str
) -> None:
    sheet = new_sheet(tmp_path, capsys, "pool101", "Asha,Bikash,Chandra,Dipa")
    assert sheet.refused("add", *entries) == message
    assert sheet.match.rows == ()


def test_letters_take_their_numbers_from_the_rules_and_overrides(tmp_path: Path, capsys: Capsys) -> None:
    sheet = new_sheet(
        tmp_path,
        capsys,
        "pool101",
        "Asha,Bikash,Chandra,Dipa,Eapen",
        "--set",
        "drop_first=25",
        "--set",
        "wrong_show=60",
    )
    assert "Drop 25, middle drop 40, full count 80, wrong show 60" in sheet.out
    out = sheet.add("W,D,M", "F", "X")  # commas work too
    assert "After deal 1: Asha 0, Bikash 25, Chandra 40, Dipa 80 (compel), Eapen 60" in out
    # an early show (e, any case): the sheet halves the others, letters' costs and numbers alike
    out = sheet.add("e", "25D", "M", "0", "7")
    assert "After deal 2: Asha 0, Bikash 37, Chandra 60, Dipa 80 (compel), Eapen 63" in out
    assert sheet.match.rows[-1].entry.early


def test_eight_players_fit_a_pool_sheet_and_nine_do_not(tmp_path: Path, capsys: Capsys) -> None:
    names = ",".join(f"P{n}" for n in range(1, 9))
    sheet = new_sheet(tmp_path, capsys, "pool101", names)
    sheet.add("W", "1", "2", "3", "4", "5", "6", "7")
    assert sheet.match.totals == (0, 1, 2, 3, 4, 5, 6, 7)
    code = main(["sheet", "new", "--players", names + ",P9", "--file", str(tmp_path / "nine.json")])
    assert code == 2
    assert "2 to 8 players, not 9" in capsys.readouterr().err
    assert not (tmp_path / "nine.json").exists()


def test_undo_and_edit(tmp_path: Path, capsys: Capsys) -> None:
    sheet = new_sheet(tmp_path, capsys, "pool101", "Asha,Bikash,Chandra")
    assert sheet.refused("undo") == "nothing to undo: no deals yet"
    assert sheet.refused("edit", "W", "1", "2") == "nothing to edit: no deals yet"
    sheet.add("W", "40", "F")
    sheet.add("30", "W", "30")  # Chandra out on 110
    out = sheet.ok("edit", "30", "W", "20")  # Chandra still in on 100: the edit is for the seats then
    assert "Chandra 100" in out and "(out)" not in out
    sheet.ok("edit", "30", "W", "30")
    sheet.ok("rejoin", "Chandra")
    out = sheet.ok("undo")
    assert "Undid Chandra's rejoin at 41." in out
    out = sheet.ok("undo")
    assert "Undid deal 2." in out
    assert sheet.match.totals == (0, 40, 80)


def test_show_writes_html_and_pdf(tmp_path: Path, capsys: Capsys) -> None:
    sheet = new_sheet(
        tmp_path, capsys, "kerala", "Anu,Biju,Chinnu", "--title", "Onam night", "--dealer", "biju"
    )
    sheet.add("F", "W", "7")
    html_out, pdf_out = tmp_path / "s.html", tmp_path / "s.pdf"
    out = sheet.ok("show", "--html", str(html_out), "--pdf", str(pdf_out), "--paper", "letter")
    assert out.startswith("Onam night\n")
    assert "Deal 1 (dealer Biju)" in out
    assert f"Wrote {html_out}" in out and f"Wrote {pdf_out}" in out
    assert "<title>Onam night</title>" in html_out.read_text()
    assert pdf_out.read_bytes().startswith(b"%PDF-")


# -- the file -------------------------------------------------------------------------------------


def test_the_file_is_the_match_as_json_with_a_title(tmp_path: Path, capsys: Capsys) -> None:
    sheet = new_sheet(tmp_path, capsys, "pool101", "Asha,Bikash")
    sheet.add("W", "30")
    data = json.loads(sheet.path.read_text())
    assert data["kind"] == "rummykit-sheet"
    assert data["title"] == "Pool 101 score sheet"
    assert data["names"] == ["Asha", "Bikash"]
    assert Match.from_dict(data).totals == (0, 30)


def test_new_does_not_overwrite_a_sheet_unless_forced(tmp_path: Path, capsys: Capsys) -> None:
    sheet = new_sheet(tmp_path, capsys, "pool101", "Asha,Bikash")
    sheet.add("W", "30")
    code = main(["sheet", "new", "--players", "A,B", "--file", str(sheet.path)])
    assert code == 2 and "already exists" in capsys.readouterr().err
    assert sheet.match.totals == (0, 30)
    assert main(["sheet", "new", "--players", "A,B", "--file", str(sheet.path), "--force"]) == 0
    assert sheet.match.names == ("A", "B")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "does not exist: start a sheet with rummykit sheet new"),
        (b"{not json", "is not a score sheet (not JSON"),
        (b'{"kind": "something else"}', "is not a score sheet made by rummykit sheet new"),
        (b'{"kind": "rummykit-sheet", "version": 99}', "unsupported match version 99"),
    ],
)
def test_a_missing_or_broken_file_is_named(
    tmp_path: Path, capsys: Capsys, content: bytes | None, message: str
) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_bytes(content)
    assert main(["sheet", "show", "--file", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and str(path) in err


def test_writes_are_atomic_a_failed_write_keeps_the_old_sheet(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet = new_sheet(tmp_path, capsys, "pool101", "Asha,Bikash")
    sheet.add("W", "30")
    before = sheet.path.read_bytes()

    def crash(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    assert sheet.run("add", "W", "10") == 2
    assert "cannot write" in sheet.err and "No space left on device" in sheet.err
    assert sheet.path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no temporary file left


def test_write_atomic_keeps_the_file_mode(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"old")
    path.chmod(0o640)
    sheet_cmd.write_atomic(path, b"new")
    assert path.read_bytes() == b"new"
    assert path.stat().st_mode & 0o777 == 0o640


def test_play_continues_an_existing_file(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet = new_sheet(tmp_path, capsys, "pool101", "Asha,Bikash")
    sheet.add("W", "30")
    monkeypatch.setattr(sys, "stdin", io.StringIO("40 W\n"))  # ends without quit: end of input
    assert main(["sheet", "play", "--file", str(sheet.path)]) == 0
    out = capsys.readouterr().out
    assert "Continuing" in out and "After deal 1: Asha 0, Bikash 30" in out
    assert sheet.match.totals == (40, 30)
    code = main(["sheet", "play", "--players", "A,B", "--file", str(sheet.path)])
    assert code == 2 and "already holds a sheet" in capsys.readouterr().err


def test_sheet_without_an_action_prints_its_usage(capsys: Capsys) -> None:
    assert main(["sheet"]) == 2
    out = capsys.readouterr().out
    for action in ("new", "add", "show", "undo", "edit", "rejoin", "play"):
        assert action in out


# -- issue 12: several problems, early shows, Nepali wrong shows, points settle-up ----------------


def test_an_entry_with_several_problems_prints_one_line_each_and_changes_nothing(
    tmp_path: Path, capsys: Capsys
) -> None:
    sheet = new_sheet(tmp_path, capsys, "pool101", "Asha,Bikash,Chandra,Dipa")
    assert sheet.refused_all("add", "abc", "85", "25D", "W") == [
        "Asha: 'abc' is not a number or one of W E D M F X -",
        "Bikash's count 85 is above the full count 80",
        "Chandra dropped first and is charged 20, not 25",
    ]
    assert sheet.match.rows == ()


def test_an_early_show_is_entered_with_e_and_the_sheet_halves_the_others(
    tmp_path: Path, capsys: Capsys
) -> None:
    sheet = new_sheet(tmp_path, capsys, "indian", "Asha,Bikash,Chandra")
    assert "an early show (E) halves every other player's charge" in sheet.out
    out = sheet.add("45", "E", "D")
    assert "After deal 1: Asha 22, Bikash 0, Chandra 10" in out
    shown = sheet.ok("show")
    assert "0E" in shown and "E early show" in shown


def test_a_nepali_sheet_takes_a_wrong_show_at_the_full_count(tmp_path: Path, capsys: Capsys) -> None:
    sheet = new_sheet(tmp_path, capsys, "nepali", "Asha,Bikash,Chandra")
    assert "wrong show 80" in sheet.out
    out = sheet.add("W", "X", "30")
    assert "After deal 1: Asha +110, Bikash -80, Chandra -30" in out
    assert "Settle up at Rs 1 a point: Bikash pays Asha Rs 80; Chandra pays Asha Rs 30." in out


def test_a_points_sheet_goes_on_and_says_who_pays_whom(tmp_path: Path, capsys: Capsys) -> None:
    sheet = new_sheet(tmp_path, capsys, "indian", "Asha,Bikash,Chandra")
    assert "as many deals as the table likes" in sheet.out
    sheet.add("W", "20", "30")
    out = sheet.add("10", "W", "5")
    assert "Next: deal 3" in out
    assert "Settle up at ₹1 a point: Bikash pays Asha ₹5; Chandra pays Asha ₹35." in out
