"""``rummykit arrange``: the command-line contract, exactly as the issue writes it."""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from rummykit.cli.arrange_cmd import batch
from rummykit.cli.main import main
from rummykit.engine.arrange import Arranger
from rummykit.engine.rules import get_preset

EXAMPLE = ["4h", "5h", "6h", "9s", "10s", "7c", "Kc", "Qd", "As", "8d", "3c", "2h", "5s"]


def test_readable_answer_for_the_issue_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arrange", "--rules", "nepali", "--wild", "7", *EXAMPLE]) == 0
    out = capsys.readouterr().out
    assert "4h 5h 6h   pure run" in out
    assert "7c as 8s" in out
    assert "Charge   48" in out
    assert "Show     not yet" in out
    assert "Away" in out


def test_json_is_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arrange", "--rules", "nepali", "--wild", "7", *EXAMPLE, "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    obj = json.loads(out[0])
    assert obj["charge"] == 48 and obj["can_show"] is False
    assert ["4h", "5h", "6h"] in obj["groups"]
    assert sorted(obj["loose"]) == sorted(["Kc", "Qd", "As", "8d", "3c", "2h", "5s"])
    assert obj["needs"] == ["7 loose cards"]


def test_fourteen_cards_name_the_finishing_cards(capsys: pytest.CaptureFixture[str]) -> None:
    hand = ["Ah", "2h", "3h", "7s", "8s", "10s", "Kd", "Kc", "Kh", "4c", "6c", "5d", "Js", "5c"]
    assert main(["arrange", "--wild", "5", *hand, "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert sorted(obj["finish"]) == ["7s", "Js"]
    assert obj["can_show"] is True and obj["throw"] in obj["finish"]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--wild", "7", "4h", "5h", "Xz", *EXAMPLE[3:]], "unknown card 'Xz'"),
        (["--wild", "7", *EXAMPLE[:12]], "a hand of 12 cards"),
        (["--wild", "7", *EXAMPLE, "Ks", "Kd"], "a hand of 15 cards"),
        (["--wild", "7", "8h", "8h", "8h", *EXAMPLE[3:]], "3 × 8h in one hand"),
        (["--wild", "7", "--set", "colour=red", *EXAMPLE], "unknown setting 'colour'"),
        (
            ["--wild", "7", "--set", "players=9", *EXAMPLE],
            "players=9 is out of range for nepali: 2 to 6 seats",
        ),
        (["--wild", "Z", *EXAMPLE], "wild 'Z' is not a rank"),
        (["--rules", "bogus", *EXAMPLE], "unknown preset 'bogus'"),
        (["--rules", "rummy40", *EXAMPLE], "table game"),
        ([], "no cards given"),
    ],
)
def test_bad_input_exits_non_zero_with_one_clear_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arrange", *argv]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert words in lines[0]
    assert captured.out == ""


def test_rules_file_and_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "table.toml"
    table.write_text('preset = "indian"\nfull_count = 60\n')
    hand = ["4h", "5d", "6h", "9s", "10h", "7c", "Kc", "Qd", "As", "8d", "3c", "2h", "5s"]  # no pure run: 82
    assert main(["arrange", "--rules-file", str(table), "--wild", "7", *hand, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["charge"] == 60
    assert (
        main(
            [
                "arrange",
                "--rules-file",
                str(table),
                "--set",
                "full_count=none",
                "--wild",
                "7",
                *hand,
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["charge"] == 82


def _run_batch(text: str, preset: str = "nepali", **changes: object) -> list[dict[str, object]]:
    rules = get_preset(preset, **changes)
    out = io.BytesIO()
    batch(Arranger(rules), rules, io.BytesIO(text.encode()), out)
    return [json.loads(x) for x in out.getvalue().decode().splitlines()]


def test_jsonl_answers_each_line_in_order_and_bad_lines_get_an_error() -> None:
    lines = [
        {"hand": " ".join(EXAMPLE), "wild": "7"},
        {"hand": "4h 5h 6h", "wild": "7"},
        "not json at all",
        {"hand": "Ah 2h 3h 7s 8s 10s Kd Kc Kh 4c 6c 5d Js 5c", "wild": "5"},
        {"wild": "5"},
        {"hand": " ".join(EXAMPLE)},
        {"hand": " ".join(EXAMPLE), "wild": None},
        {"hand": " ".join(EXAMPLE), "wild": "Q2"},
    ]
    text = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
    got = _run_batch(text)
    assert len(got) == len(lines)
    assert got[0]["charge"] == 48 and got[0]["can_show"] is False
    assert "error" in got[1] and "line 2" in str(got[1]["error"]) and "13 cards" in str(got[1]["error"])
    assert "error" in got[2] and "not JSON" in str(got[2]["error"])
    assert sorted(got[3]["finish"]) == ["7s", "Js"]  # type: ignore[call-overload]
    assert "error" in got[4] and '"hand"' in str(got[4]["error"])
    assert got[5]["charge"] == got[6]["charge"]  # absent wild and null wild are the same
    assert "error" in got[7]
    for rec in got:
        if "error" not in rec:
            assert {"charge", "can_show", "groups", "loose"} <= set(rec)


def test_jsonl_last_line_without_newline_and_blank_lines() -> None:
    text = "\n" + json.dumps({"hand": " ".join(EXAMPLE), "wild": "7"})
    got = _run_batch(text)
    assert len(got) == 1 and got[0]["charge"] == 48


def _rummykit() -> list[str]:
    exe = Path(sys.executable).parent / "rummykit"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "rummykit"]


def test_jsonl_streams_one_answer_per_line_before_more_input() -> None:
    """A bot can hold the process open: each line is answered before the next is sent."""
    proc = subprocess.Popen(
        [*_rummykit(), "arrange", "--rules", "indian", "--jsonl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for wild, charge in (("7", 48), ("9", None)):
            proc.stdin.write((json.dumps({"hand": " ".join(EXAMPLE), "wild": wild}) + "\n").encode())
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 20)
            assert ready, "no answer while the input stays open"
            answer = json.loads(proc.stdout.readline())
            if charge is not None:
                assert answer["charge"] == charge
            assert "can_show" in answer
    finally:
        proc.stdin.close()
        proc.wait(timeout=20)
    assert proc.returncode == 0


def test_jsonl_refuses_cards_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arrange", "--jsonl", *EXAMPLE]) == 2
    assert "standard input" in capsys.readouterr().err
