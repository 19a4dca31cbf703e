"""The feeding calibration (``benchmarks/feeding_calibration.py``) runs at a tiny size and says
what it measured; bad arguments get one line naming them.

Shape only: how well each model predicts is the benchmark's to measure, not a test's to assert.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "feeding_calibration.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=300)


def test_it_reports_the_base_rates_and_every_model_on_takes_and_shows() -> None:
    done = run("--decks", "1", "--hands", "4", "--models", "uniform,throws,tilt=0.1", "--seed", "ci")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("nepali, 2 seats, 1 decks (seed ci), ")
    assert lines[1].startswith("medium would take ")
    assert lines[2].startswith("constant: take Brier ")
    for model in ("uniform", "throws", "tilt=0.1"):
        assert any(line.startswith(f"{model:10s} take: Brier ") for line in lines)
    assert sum(" show: Brier " in line for line in lines) == 3


def test_an_unknown_model_or_a_count_out_of_range_is_one_clear_error() -> None:
    bad = run("--decks", "1", "--models", "uniform,psychic")
    assert bad.returncode == 2
    assert "unknown model 'psychic'" in bad.stderr
    big = run("--decks", "1000000")
    assert big.returncode == 2
    assert "--decks is 1 to 10,000" in big.stderr
