"""Run every benchmark in turn (``make bench``); each writes its own section of BENCHMARKS.md."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
BENCHMARKS = [
    "arrange_bench.py",
    "simulate_bench.py",
    "ray_bench.py",
    "bots_bench.py",
    "server_bench.py",
    "move_bench.py",
    "sheet_bench.py",
    "opening_bench.py",
]


def main() -> int:
    for script in BENCHMARKS:
        print(f"== {script}", flush=True)
        done = subprocess.run([sys.executable, str(HERE / script), *sys.argv[1:]], cwd=HERE.parent)
        if done.returncode:
            return done.returncode
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
