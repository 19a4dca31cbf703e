"""``rummykit simulate``: the command-line contract of the issue."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit.cli.main import main
from rummykit.engine.history import replay


def simulate_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["simulate", *argv, "--json"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    assert len(lines) == 1  # exactly one object
    assert captured.err == ""  # no progress bar when stderr is not a terminal
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    return data


def figures(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The per-seat figures, without anything that depends on the clock."""
    seats: list[dict[str, Any]] = data["seats"]
    return seats


def test_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    data = simulate_json(
        capsys,
        "--rules",
        "nepali",
        "--players",
        "4",
        "--deals",
        "40",
        "--bots",
        "greedy,random,greedy,random",
    )
    assert data["deals"] == 40
    assert isinstance(data["deals_per_second"], float) and data["deals_per_second"] > 0
    seats = data["seats"]
    assert [s["bot"] for s in seats] == ["greedy", "random", "greedy", "random"]
    for s in seats:
        assert {
            "seat",
            "bot",
            "points_per_deal",
            "ci95",
            "deals_won",
            "drops",
            "shows",
            "points",
            "mean_charge",
        } <= set(s)
        lo, hi = s["ci95"]
        assert lo <= s["points_per_deal"] <= hi
        assert s["points"] == pytest.approx(s["points_per_deal"] * 40, abs=0.01)
        assert s["mean_charge"] >= 0
    assert [s["seat"] for s in seats] == [1, 2, 3, 4]  # numbered as the text numbers them
    assert sum(s["points"] for s in seats) == 0  # settlement net: the seats sum to zero
    assert sum(s["deals_won"] for s in seats) == 40
    assert sum(s["shows"] for s in seats) <= 40
    assert seats[0]["drops"] == seats[2]["drops"] == 0  # greedy never drops
    assert seats[1]["drops"] > 0  # random does, now and then


def test_one_bot_name_plays_every_seat_and_players_default_to_the_preset(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = simulate_json(capsys, "--rules", "kerala", "--deals", "5", "--bots", "random", "--workers", "1")
    assert [s["bot"] for s in data["seats"]] == ["random"] * 4
    data = simulate_json(capsys, "--rules", "nepali", "--players", "6", "--deals", "5", "--workers", "1")
    assert [s["bot"] for s in data["seats"]] == ["greedy"] * 6  # greedy by default


def test_same_totals_whatever_the_number_of_workers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--rules", "indian", "--deals", "60", "--bots", "greedy,random,random,greedy", "--seed", "17"]
    one = simulate_json(capsys, *argv, "--workers", "1")
    two = simulate_json(capsys, *argv, "--workers", "2")
    three = simulate_json(capsys, *argv, "--workers", "3")
    assert figures(one) == figures(two) == figures(three)
    other = simulate_json(capsys, *argv[:-1], "18", "--workers", "1")
    assert figures(other) != figures(one)


def test_matches_play_whole_matches_in_the_rules_format(capsys: pytest.CaptureFixture[str]) -> None:
    data = simulate_json(
        capsys, "--rules", "nepali", "--matches", "3", "--bots", "greedy,random,random,greedy"
    )
    assert data["matches"] == 3 and data["format"] == "settlement"
    assert data["deals"] == 9  # three deals a match
    seats = data["seats"]
    assert sum(s["match_total"] for s in seats) == 0  # settlement totals sum to zero
    assert sum(s["match_wins"] for s in seats) >= 3  # a shared win counts for each
    assert sum(s["deals_won"] for s in seats) == 9


def test_matches_of_a_pool_rejoin_and_end_the_same_on_any_workers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--rules", "kerala", "--matches", "4", "--bots", "greedy,random,random,greedy", "--seed", "3"]
    one = simulate_json(capsys, *argv, "--workers", "1")
    two = simulate_json(capsys, *argv, "--workers", "2")
    assert figures(one) == figures(two) and one["deals"] == two["deals"]
    assert one["format"] == "pool"
    assert sum(s["match_wins"] for s in one["seats"]) == 4  # the last seat in wins each pool
    played = [s["deals_played"] for s in one["seats"]]
    assert min(played) < one["deals"]  # some seat sat out deals after going out


def test_readable_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["simulate", "--deals", "8", "--bots", "greedy,random", "--players", "2", "--workers", "1"]) == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("8 deals of nepali, 2 seats, seed 0:")
    assert "points/deal" in out and "95% CI" in out and "mean charge" in out
    assert "greedy" in out and "random" in out
    assert "higher is better, the seats sum to zero" in out


def test_histories_writes_one_file_a_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "hist"
    simulate_json(capsys, "--deals", "3", "--histories", str(out), "--workers", "2")
    files = sorted(p.name for p in out.iterdir())
    assert files == ["deal-000001.txt", "deal-000002.txt", "deal-000003.txt"]
    text = (out / "deal-000002.txt").read_text()
    assert 'seed "0/1"' in text and "dealer 1" in text and "match deal=2" in text
    assert "name 0 greedy" in text
    deal = replay(text)  # the history replays to the deal the run played
    assert deal.over and deal.seed == "0/1"


def test_histories_of_matches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    simulate_json(capsys, "--matches", "2", "--histories", str(tmp_path), "--workers", "1")
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files[0] == "match-000001-deal-001.txt" and len(files) == 6
    text = (tmp_path / "match-000002-deal-003.txt").read_text()
    assert "match match=2" in text and "match deal=3" in text
    assert replay(text).seed == "0/m1/2"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "greedy,clever"], "unknown bot 'clever' (known: random, greedy"),
        (["--players", "9"], "players=9 is out of range for nepali: 2 to 6 seats"),
        (["--players", "1"], "--players must be at least 2, not 1"),
        (["--players", "four"], "--players takes a whole number, not 'four'"),
        (["--deals", "0"], "--deals must be at least 1, not 0"),
        (["--matches", "0"], "--matches must be at least 1, not 0"),
        (["--workers", "0"], "--workers must be at least 1, not 0"),
        (
            ["--bots", "greedy,random,greedy,easy,hard"],
            "--bots names 5 bots for 4 seats: give at most one a seat (they repeat round the table)",
        ),
        (
            ["--deals", "5", "--matches", "2"],
            "give --deals (single deals) or --matches (whole matches), not both",
        ),
        (["--set", "colour=red"], "unknown setting 'colour'"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rummykit simulate: ")
    assert message in lines[0]


def test_unwritable_histories_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert main(["simulate", "--deals", "2", "--histories", str(blocker / "sub")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"cannot write hand histories to {blocker / 'sub'}" in err[0]


def test_the_real_command(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "rummykit"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "rummykit"]
    done = subprocess.run(
        [*cmd, "simulate", "--deals", "20", "--seed", "x", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["deals"] == 20
    bad = subprocess.run([*cmd, "simulate", "--bots", "nobody"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().startswith("rummykit simulate: unknown bot 'nobody' (known: random, greedy")
    helped = subprocess.run([*cmd, "simulate", "--help"], capture_output=True, text=True, check=True)
    assert "higher is better" in helped.stdout and "sum to zero" in helped.stdout


@pytest.mark.parametrize("preset", ["rummy40", "remi51"])
def test_table_family_simulates_with_its_own_greedy_and_random(
    preset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", "--rules", preset, "--players", "2", "--deals", "6", "--bots", "greedy,random"]
    assert main([*argv, "--seed", "3", "--workers", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 6
    assert [s["bot"] for s in out["seats"]] == ["greedy", "random"]
    assert sum(s["deals_won"] for s in out["seats"]) == 6
