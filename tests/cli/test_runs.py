"""What ``rummykit simulate`` and ``rummykit tournament`` share (issue 12, Commands): ``--bots``
round the table (with ``play``), one report shape, the progress meter, and Ctrl-C."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from rummykit.cli import runner
from rummykit.cli.main import _parser, main
from rummykit.cli.play_cmd import choose_settings

EXE = Path(sys.executable).parent / "rummykit"
COMMAND = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "rummykit"]


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert isinstance(data, dict)
    return data


# ---- --bots repeats round the table ---------------------------------------------------------------


def test_readme_simulate_with_two_bots_at_four_seats_repeats_them_round_the_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = run_json(capsys, "simulate", "--players", "4", "--bots", "greedy,random", "--deals", "4")
    assert [(s["seat"], s["bot"]) for s in data["seats"]] == [
        (1, "greedy"),
        (2, "random"),
        (3, "greedy"),
        (4, "random"),
    ]


def test_bots_repeat_the_same_way_in_simulate_tournament_and_play(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--bots", "easy,random,greedy", "--deals", "2", "--workers", "1"]
    simulated = run_json(capsys, "simulate", "--players", "5", *argv)
    played = run_json(capsys, "tournament", "--seats", "5", *argv)
    seating = ["easy", "random", "greedy", "easy", "random"]
    assert [s["bot"] for s in simulated["seats"]] == seating
    assert [s["bot"] for s in played["seats"]] == seating
    # play seats the person first and the bots round the other seats
    args = _parser().parse_args(
        ["play", "--rules", "nepali", "--players", "6", "--bots", "easy,random,greedy"]
    )
    settings = choose_settings(args, Console(file=io.StringIO()), lambda prompt: "")
    assert settings.bots == tuple(seating)


def test_bots_longer_than_the_table_are_refused_in_the_same_words() -> None:
    for argv in (
        ["simulate", "--players", "2", "--bots", "easy,random,greedy"],
        ["tournament", "--seats", "2", "--bots", "easy,random,greedy"],
    ):
        done = subprocess.run([*COMMAND, *argv], capture_output=True, text=True, check=False)
        assert done.returncode == 2
        assert done.stderr.strip().endswith(
            "--bots names 3 bots for 2 seats: give at most one a seat (they repeat round the table)"
        )


# ---- one report -------------------------------------------------------------------------------------


def test_simulate_and_tournament_print_one_report_shape(capsys: pytest.CaptureFixture[str]) -> None:
    simulated = run_json(
        capsys, "simulate", "--players", "3", "--bots", "greedy,random", "--deals", "6", "--workers", "1"
    )
    played = run_json(
        capsys, "tournament", "--seats", "3", "--bots", "greedy,random", "--deals", "3", "--workers", "1"
    )
    assert set(simulated) == set(played)
    assert simulated["report"] == played["report"] == 1
    assert (simulated["command"], played["command"]) == ("simulate", "tournament")
    assert simulated["partial"] is played["partial"] is False
    for data in (simulated, played):
        assert [s["seat"] for s in data["seats"]] == [1, 2, 3]
        assert set(data["bots"]) == {"greedy", "random"}
        assert data["bots"]["greedy"]["seats"] == [1, 3]
        assert data["asked"]["done"] == data["asked"]["count"]
        for s in data["seats"]:
            lo, hi = s["ci95"]
            assert lo <= s["points_per_deal"] <= hi
        greedy = [s for s in data["seats"] if s["bot"] == "greedy"]
        assert data["bots"]["greedy"]["deals_won"] == sum(s["deals_won"] for s in greedy)
        assert data["bots"]["greedy"]["points"] == pytest.approx(sum(s["points"] for s in greedy))
    seat_keys = {frozenset(s) for data in (simulated, played) for s in data["seats"]}
    assert len(seat_keys) == 1
    bot_keys = {frozenset(b) for data in (simulated, played) for b in data["bots"].values()}
    assert len(bot_keys) == 1
    assert simulated["timed"] is False and simulated["bots"]["greedy"]["p99_ms"] is None
    assert played["timed"] is True and played["bots"]["greedy"]["decisions"] > 0
    assert simulated["decks"] == simulated["deals"] == 6
    assert played["decks"] == played["deals"] == 3


def test_the_seats_are_numbered_the_same_in_the_text_and_the_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--players", "2", "--bots", "greedy,random", "--deals", "4", "--workers", "1"]
    data = run_json(capsys, *argv)
    assert main(argv) == 0
    text = capsys.readouterr().out
    rows = [
        line.split() for line in text.splitlines() if line.split()[:2] in (["1", "greedy"], ["2", "random"])
    ]
    assert [row[:2] for row in rows] == [[str(s["seat"]), s["bot"]] for s in data["seats"]]


def test_rummy40_matches_say_the_winner_scores_and_higher_is_better(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "--rules", "rummy40", "--players", "3", "--matches", "2", "--workers", "1"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "(higher is better)" in text and "lower is better" not in text
    argv = ["simulate", "--rules", "remi51", "--players", "2", "--matches", "1", "--workers", "1"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "penalty format, summed over the matches (lower is better)" in text


# ---- progress ------------------------------------------------------------------------------------


class RecordingMeter(runner.Meter):
    def __init__(self, total: int) -> None:
        super().__init__("test", "deals", total, "none")
        self.events: list[str | int] = []

    def start(self) -> None:
        self.events.append("start")

    def update(self, done: int) -> None:
        self.events.append(done)

    def stop(self) -> None:
        self.events.append("stop")


def _slow_task(n: int) -> int:
    for _ in range(n):
        runner.tick()
        time.sleep(0.4)
    return n


def _nothing() -> None:
    return None


@pytest.mark.parametrize("workers", [1, 2])
def test_the_meter_moves_before_the_first_chunk_is_done(workers: int) -> None:
    meter = RecordingMeter(6)
    finished = runner.run_chunks([3, 3], _slow_task, workers=workers, init=_nothing, initargs=(), meter=meter)
    assert finished.results == (3, 3) and not finished.interrupted
    assert meter.events[0] == "start" and meter.events[-1] == "stop"
    counts = [e for e in meter.events if isinstance(e, int)]
    # the deals are counted as they are played, not only when a chunk of three comes back
    assert any(c % 3 for c in counts)


def test_plain_progress_lines_go_to_stderr_and_the_json_stays_whole() -> None:
    done = subprocess.run(
        [*COMMAND, "simulate", "--deals", "30", "--workers", "2", "--progress", "plain", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["deals"] == 30
    lines = done.stderr.splitlines()
    assert lines and lines[0] == "simulate: 0 of 30 deals, 0 s"  # from the start, before any deal
    assert all(line.startswith("simulate: ") for line in lines)


def test_no_progress_on_stderr_when_it_is_not_a_terminal() -> None:
    done = subprocess.run(
        [*COMMAND, "tournament", "--seats", "2", "--bots", "greedy", "--deals", "3", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0 and done.stderr == ""


# ---- Ctrl-C ------------------------------------------------------------------------------------------


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found |= {int(x) for x in text}
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def _interrupt(argv: list[str], at_least: int) -> tuple[int, str, str, set[int]]:
    """Start the command, wait until its plain progress says ``at_least`` deals are done, send
    SIGINT, and answer its exit status, stdout, stderr and the worker processes it had."""
    proc = subprocess.Popen(
        [*COMMAND, *argv, "--progress", "plain"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stderr is not None
    seen: list[str] = []
    workers: set[int] = set()
    try:
        for line in proc.stderr:
            seen.append(line)
            workers |= _children(proc.pid)
            done = int(line.split(": ", 1)[1].split(" of ", 1)[0])
            if done >= at_least:
                break
        else:
            pytest.fail(f"the run ended before reporting {at_least} deals: {''.join(seen)}")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)  # generous: against hanging, not a timing
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, out, "".join(seen) + err, workers


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_simulate_at_once_and_prints_the_finished_part(workers: str) -> None:
    argv = ["simulate", "--deals", "100000", "--workers", workers, "--json"]
    status, out, err, children = _interrupt(argv, 120)
    assert status == runner.INTERRUPTED
    data = json.loads(out)
    assert data["partial"] is True
    assert data["asked"] == {"count": 100000, "unit": "deals", "done": data["deals"]}
    assert 0 < data["deals"] < 100000
    assert sum(s["deals_won"] for s in data["seats"]) == data["deals"]
    assert "Traceback" not in err
    if workers == "2":
        assert len(children) == 2
    assert not any(_alive(pid) for pid in children)  # no worker left behind


def test_ctrl_c_stops_a_tournament_and_the_text_report_says_partial() -> None:
    argv = ["tournament", "--seats", "2", "--bots", "greedy,random", "--deals", "100000", "--workers", "2"]
    status, out, err, children = _interrupt(argv, 60)
    assert status == runner.INTERRUPTED
    assert "Partial: stopped by Ctrl-C after " in out and " of 100000 decks" in out
    assert "points/deal" in out and "Traceback" not in err
    assert children and not any(_alive(pid) for pid in children)
