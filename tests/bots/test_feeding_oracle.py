"""The feeding oracle (``benchmarks/feeding_oracle.py``): it throws what its rival would not
feed on whenever a near throw allows, it says what it measured, and bad arguments get one line.

How much the oracle gains is the benchmark's to measure, not a test's to assert.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

from bench_scripts import load_benchmark
from rummykit.bots import make_player
from rummykit.bots.base import turns
from rummykit.engine.deal import ShowDeal
from rummykit.engine.events import ActionKind
from rummykit.engine.rules import get_preset

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "feeding_oracle.py"


def load() -> ModuleType:
    return load_benchmark("feeding_oracle")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=300)


def test_the_oracle_feeds_its_rival_only_when_every_near_throw_would() -> None:
    oracle_mod = load()
    rules = get_preset("nepali", players=2)
    asked = fed = 0
    for i in range(4):
        deal = ShowDeal(rules, f"ci/{i}", dealer=i % 2)
        oracle = oracle_mod.OraclePlayer(f"ci/{i}/o")
        rival = make_player("medium", f"ci/{i}/m")
        oracle.deal, oracle.rival, oracle.rival_seat = deal, rival, 1
        players = [oracle, rival]
        for seat in turns(deal, players):
            view = deal.view(seat)
            action = players[seat].choose(view)
            if seat == 0 and action.kind is ActionKind.THROW and oracle.asked:
                asked += len(oracle.asked)
                fed += sum(oracle.asked.values())
                if oracle.asked.get(action.card):
                    assert all(oracle.asked.values()), (view.hand, action.card, oracle.asked)
                # and what it was told is the rival's own answer on its real hand
                for card, feeds in oracle.asked.items():
                    assert feeds == oracle.rival_takes(card)
            deal.apply(seat, action)
    assert asked > 0 and 0 < fed < asked  # it was asked, and some cards would and some would not


def test_it_reports_each_bot_against_the_rival_with_an_interval() -> None:
    done = run("--decks", "2", "--workers", "1", "--rival", "medium", "--seed", "ci")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "nepali, two seats, 2 duplicate decks (seed ci), against medium"
    assert [line.split()[:3] for line in lines[1:]] == [["oracle", "vs", "medium"], ["hard", "vs", "medium"]]
    assert all(line.count("[") == 1 and line.endswith("]") for line in lines[1:])


def test_an_unknown_bot_or_rival_or_a_count_out_of_range_is_one_clear_error() -> None:
    bad = run("--decks", "1", "--bots", "oracle,psychic")
    assert bad.returncode == 2 and "--bots: 'psychic': unknown bot 'psychic'" in bad.stderr
    rival = run("--decks", "1", "--rival", "easy")
    assert rival.returncode == 2 and "--rival 'easy': greedy, medium or hard" in rival.stderr
    big = run("--decks", "1000000")
    assert big.returncode == 2 and "--decks is 1 to 20,000" in big.stderr
