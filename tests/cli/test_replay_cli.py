"""``rummykit replay``: the readable report, ``--verbose``, ``--json``, and refused files, for
both families (format 1.2: the dealt hands, then the events; older files replay too)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from rummykit.cli.main import main
from rummykit.engine.deal import new_deal
from rummykit.engine.history import dump
from rummykit.engine.rules import get_preset

HISTORIES = Path(__file__).resolve().parent.parent / "data" / "histories"
INDIAN = HISTORIES / "indian-show.txt"
NEPALI = HISTORIES / "nepali-unfinished.txt"
RUMMY40 = HISTORIES / "rummy40-hand-rummy.txt"
REMI51 = HISTORIES / "remi51-joker-close.txt"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["replay", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_finished_history_prints_header_result_and_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(INDIAN))
    assert code == 0 and err == ""
    assert "Rules    indian\n" in out
    assert "Seed     20240601\n" in out
    assert "Dealer   seat 2 Chandra\n" in out
    assert "Seats    4: 0 Asha, 1 Bikash, 2 Chandra, 3 Dawa\n" in out
    assert "Match    id=m-17, deal=2\n" in out
    assert "Result   1 wins (show): 80 0 8 40 after 14 turns\n" in out
    assert "  seat 0 Asha     wrong show, charge 80: 3d 7c 6c | 2d 3d Kd | 5s 6s 9c | 6c Qh 9h Jd\n" in out
    assert "  seat 3 Dawa     dropped, charge 40\n" in out
    assert out.endswith("replayed 27 actions: the result matches the history\n")
    assert "line 12" not in out  # the events only with --verbose


def test_verbose_prints_every_event_with_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(INDIAN), "--verbose")
    assert code == 0
    events = [line for line in out.splitlines() if line.startswith("  line ")]
    history = INDIAN.read_text().splitlines()
    assert len(events) == 1 + 27 + 1  # the deal, every action, the end of the deal
    for line in events:
        number, text = line.removeprefix("  line ").strip().split("  ", 1)
        assert history[int(number) - 1].startswith(text)  # a show's line adds its [declared] note


def test_an_unfinished_history(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(NEPALI))
    assert code == 0
    assert "Rules    nepali (packs=1, printed_jokers=1, runs_needed=1, drop_middle=30)\n" in out
    assert 'Seed     "golden"\n' in out
    assert "State    not over after 22 turns: seat 0 is to throw\n" in out
    assert "  seat 0         in, 14 cards\n" in out
    assert out.endswith("replayed 45 actions: the unfinished deal matches the history (seat 0 is to throw)\n")


def test_json_is_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(INDIAN), "--json")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert obj["rules"] == "indian" and obj["seed"] == 20240601 and obj["dealer"] == 2
    assert obj["names"] == ["Asha", "Bikash", "Chandra", "Dawa"]
    assert obj["match"] == {"id": "m-17", "deal": "2"}
    assert obj["actions"] == 27 and obj["over"] is True and obj["matches"] is True
    result = obj["result"]
    assert result["winner"] == 1 and result["ending"] == "show" and result["charges"] == [80, 0, 8, 40]
    assert result["seats"][2]["loose"] == ["3s", "2d", "3c"]
    assert result["seats"][3]["status"] == "dropped" and result["seats"][3]["groups"] == []
    assert "events" not in obj
    code, out, _ = run(capsys, str(NEPALI), "--json", "--verbose")
    obj = json.loads(out)
    assert obj["result"] is None and obj["over"] is False and obj["to_play"] == 0 and obj["phase"] == "throw"
    assert obj["seed"] == "golden" and obj["settings"]["runs_needed"] == "1"
    assert obj["events"][0] == "1 deal pile 3d cut 4c" and len(obj["events"]) == 47


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deal.txt"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("edit", "line", "words"),
    [
        (lambda t: t.replace("3 take 8c", "3 take 9c"), 35, "'3 take 9c' is not what happened"),
        (lambda t: t.replace("seed 20240601", "seed 20240602"), 12, "do not deal this history"),
        (lambda t: t.replace(" 9c\nhand 1 ", " 10c\nhand 1 "), 12, "seat 0's hand is not what was dealt"),
        (lambda t: t.replace("rules indian\n", "rules indian\nset colour=red\n"), 3, "unknown setting"),
        (lambda t: t.replace("hand history 1.2", "hand history 2.0"), 1, "newer than this rummykit"),
        (lambda t: t[: t.index("0 wrong show")] + "0 wro", 38, "cut off in the middle"),
        (lambda t: t[: t.index("0 wrong show")], 37, "cut short"),
        (lambda t: t + "more\n", 53, "text after the end"),
        (lambda t: t.replace("charge 8:", "charge 9:"), 50, "seat 2's charge 9 is not the 8 of line 47"),
        (lambda t: t.replace("loose 3s 2d 3c", "loose 3s 2d 4c"), 50, "the result differs"),
    ],
)
def test_a_refused_history_exits_2_with_one_line_naming_the_line(
    edit: Callable[[str], str], line: int, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, edit(INDIAN.read_text()))
    code, out, err = run(capsys, str(path))
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"rummykit replay: {path}: line {line}: "), lines[0]
    assert words in lines[0]
    code, out, err = run(capsys, str(path), "--json")
    assert code == 2 and out == "" and f"line {line}: " in err


def test_unreadable_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, str(tmp_path / "missing.txt"))
    assert code == 2 and "missing.txt: cannot read the file" in err
    path = tmp_path / "binary.txt"
    path.write_bytes(b"\xff\xfe\x00junk")
    code, _, err = run(capsys, str(path))
    assert code == 2 and "not UTF-8 text" in err
    code, _, err = run(capsys, str(tmp_path))
    assert code == 2 and "cannot read the file" in err


def test_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(INDIAN.read_bytes()))
    monkeypatch.setattr(sys, "stdin", stdin)
    code, out, _ = run(capsys, "-")
    assert code == 0 and "History  - (format 1.2)" in out and "the result matches" in out


def test_the_installed_command(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "rummykit"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "rummykit"]
    ok = subprocess.run([*command, "replay", str(INDIAN)], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and "the result matches the history" in ok.stdout
    text = INDIAN.read_text().removesuffix("end\n")
    bad = write(tmp_path, text)
    refused = subprocess.run([*command, "replay", str(bad)], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and refused.stdout == ""
    last = text.count("\n")
    expected = (
        f"rummykit replay: {bad}: line {last}: the history is cut short: it stops here without its 'end' line"
    )
    assert refused.stderr == expected + "\n"


# ---------------------------------------------------------------- the table family


def test_a_rummy40_history_prints_the_melds_and_the_doubled_result(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, str(RUMMY40))
    assert code == 0 and err == ""
    assert out.startswith(f"History  {RUMMY40} (format 1.2)\nRules    rummy40\nSeed     70\n")
    assert "Seats    4: 0 Giulia, 1 Marco, 2 Sofia, 3 Luca\n" in out
    assert "Table    8 melds\n  meld 1  set  seat 1 Marco: 3s 3h 3c 3d\n" in out
    assert "  meld 8  run  seat 2 Sofia: 4c 5c JK\n" in out
    assert "Result   2 wins (out, doubled): 152 70 0 56 after 24 turns\n" in out
    assert "  seat 1 Marco   in, charge 70 (hand 35): loose 4s 6h 2d 6c 7c Qc\n" in out
    assert "  seat 2 Sofia   won, charge 0\n" in out
    assert out.endswith("replayed 68 actions: the result matches the history\n")


def test_verbose_table_events_are_their_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(REMI51), "--verbose")
    assert code == 0
    history = REMI51.read_text().splitlines()
    events = [line for line in out.splitlines() if line.startswith("  line ")]
    assert len(events) == 1 + 54 + 1
    for line in events[:-1]:  # a table-family event's line is exactly its text
        number, text = line.removeprefix("  line ").strip().split("  ", 1)
        assert history[int(number) - 1] == text
    assert any(" swap " in e for e in events) and any(" put back" in e for e in events)
    assert "Result   0 wins (out, doubled): -40 104 4 after 18 turns\n" in out
    assert "  seat 0 Ana     won, charge -40 (hand 0)\n" in out


def test_table_json_has_the_melds_and_doubling(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(REMI51), "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["format"] == "1.2" and obj["rules"] == "remi51" and obj["actions"] == 54
    result = obj["result"]
    assert result["charges"] == [-40, 104, 4] and result["doubled"] is True and result["ending"] == "out"
    assert result["seats"][1]["hand_charge"] == 52 and result["seats"][1]["groups"] == []
    assert obj["melds"] and {"id", "owner", "kind", "cards"} == set(obj["melds"][0])
    assert [m["id"] for m in obj["melds"]] == list(range(1, len(obj["melds"]) + 1))
    code, out, _ = run(capsys, str(INDIAN), "--json")
    assert "melds" not in json.loads(out) and json.loads(out)["result"]["doubled"] is False


def test_an_unfinished_table_history(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal = new_deal(get_preset("remi51", players=2), 8, dealer=1)
    seat = deal.to_play
    assert seat == 0  # dealt fifteen: no draw, so it is to play at once
    path = write(tmp_path, dump(deal))
    code, out, _ = run(capsys, str(path))
    assert code == 0
    assert "State    not over after 0 turns: seat 0 is to play\n" in out
    assert "  seat 0  in, 15 cards\n  seat 1  in, 14 cards\n" in out
    assert "Table" not in out
    assert out.endswith("replayed 0 actions: the unfinished deal matches the history (seat 0 is to play)\n")


@pytest.mark.parametrize(
    ("edit", "line", "words"),
    [
        (lambda t: t.replace("1 lay off 1 JK", "1 lay off 9 JK"), 69, "there is no meld 9 on the table"),
        (lambda t: t.replace("1 open 3s 3h 3c |", "1 open 3s 3h 3d |"), 27, "not in your hand"),
        (lambda t: t.replace("(53)", "(54)"), 62, "is not what happened: the deal has '3 open"),
        (lambda t: t.replace("2 swap 1 3d", "2 swap 2 3d"), 82, "the slot needs"),
        (lambda t: t.replace("(out, doubled)", "(out)"), 87, "the result differs"),
        (lambda t: t.replace("history 1.2", "history 1.1"), 12, "a 'hand' line is in format 1.2 and newer"),
        (
            lambda t: re.sub(r"\nhand .*", "", t).replace("history 1.2", "history 1.0"),
            2,
            "format 1.1 or newer",
        ),
    ],
)
def test_a_refused_table_history_names_the_line(
    edit: Callable[[str], str], line: int, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = RUMMY40.read_text()
    assert edit(text) != text
    path = write(tmp_path, edit(text))
    code, out, err = run(capsys, str(path))
    assert code == 2 and out == ""
    assert err.startswith(f"rummykit replay: {path}: line {line}: "), err
    assert words in err and len(err.splitlines()) == 1
