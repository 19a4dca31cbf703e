"""The server benchmark runs at a tiny size and writes figures of the documented shape.

It checks the shape only (every step there, its keys, moves played with no error), never a
timing: the figures are the benchmark's to measure, not a test's to assert.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "server_bench.py"
STEP_KEYS = {
    "tables",
    "sockets",
    "moves",
    "per_second",
    "ack_p50",
    "ack_p99",
    "all_p50",
    "all_p99",
    "cpu_ms",
    "cpu_share",
    "errors",
    "load",
}


def test_server_bench_runs_idle_and_a_ramp_step_for_each_worker_count(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    done = subprocess.run(
        [
            *(sys.executable, str(BENCH), "--no-write", "--json", str(out)),
            *("--idle-seconds", "1", "--workers", "1,2", "--mode", "shards", "--clients", "1"),
            *("--start", "2", "--max-tables", "3", "--seconds", "1", "--warmup", "0.5"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(out.read_text())
    assert figures["mode"] == "shards"
    idle = figures["idle"]
    assert idle.keys() >= STEP_KEYS
    assert idle["tables"] == 1 and idle["moves"] > 0 and idle["errors"] == 0
    steps = figures["steps"]
    assert [(s["workers"], s["tables"]) for s in steps] == [(1, 2), (2, 2)]
    for step in steps:
        assert step.keys() >= STEP_KEYS
        assert step["sockets"] == 8 and step["errors"] == 0, step
    assert "idle:" in done.stdout and "2 worker(s)" in done.stdout
