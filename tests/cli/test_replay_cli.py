"""``rummykit replay``: the readable report, ``--verbose``, ``--json``, and refused files."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from rummykit.cli.main import main

HISTORIES = Path(__file__).resolve().parent.parent / "data" / "histories"
INDIAN = HISTORIES / "indian-show.txt"
NEPALI = HISTORIES / "nepali-unfinished.txt"


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
        (lambda t: t.replace("3 take 8c", "3 take 9c"), 30, "'3 take 9c' is not what happened"),
        (lambda t: t.replace("seed 20240601", "seed 20240602"), 13, "do not deal this history"),
        (lambda t: t.replace("rules indian\n", "rules indian\nset colour=red\n"), 3, "unknown setting"),
        (lambda t: t.replace("hand history 1.0", "hand history 2.0"), 1, "newer than this rummykit"),
        (lambda t: t[: t.index("0 wrong show")] + "0 wro", 33, "cut off in the middle"),
        (lambda t: t[: t.index("0 wrong show")], 32, "cut short"),
        (lambda t: t + "more\n", 48, "text after the end"),
        (lambda t: t.replace("charge 8:", "charge 9:"), 45, "seat 2's charge 9 is not the 8 of line 42"),
        (lambda t: t.replace("loose 3s 2d 3c", "loose 3s 2d 4c"), 45, "the result differs"),
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
    assert code == 0 and "History  - (format 1.0)" in out and "the result matches" in out


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
