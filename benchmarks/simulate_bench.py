"""Time the simulator: ``rummykit simulate`` with greedy players, end to end.

Nepali deals at 2, 4 and 6 seats, every seat greedy, each deal standing alone.  Each
figure is the best of ``--repeat`` runs of the real command:

* wall: deals / wall time of the whole command (start-up, the worker pool, the output);
* in-run: the command's own ``deals_per_second`` (the deals alone, start-up left out);

on every core (the default ``--workers``) and in one process (``--workers 1``).  The
target is 200 four-seat deals a second on the project's two-core machine.

Run: ``.venv/bin/python benchmarks/simulate_bench.py`` (or ``make bench``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from machine import machine_line, write_section

TARGET = 200  # four-seat Nepali deals a second, greedy players, both cores


def rummykit() -> list[str]:
    exe = Path(sys.executable).parent / "rummykit"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "rummykit"]


def time_run(players: int, deals: int, workers: int, seed: int, repeat: int) -> tuple[float, float, float]:
    """Best (wall seconds, wall deals/s, in-run deals/s) of ``repeat`` runs."""
    best: tuple[float, float, float] | None = None
    for _ in range(repeat):
        argv = [
            *rummykit(),
            "simulate",
            "--rules",
            "nepali",
            "--players",
            str(players),
            "--bots",
            "greedy",
            "--deals",
            str(deals),
            "--seed",
            str(seed),
            "--workers",
            str(workers),
            "--json",
        ]
        t0 = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, check=True, text=True)
        wall = time.perf_counter() - t0
        data = json.loads(done.stdout)
        if data["deals"] != deals:
            raise SystemExit(f"simulate played {data['deals']} deals, not {deals}")
        figures = (wall, deals / wall, float(data["deals_per_second"]))
        if best is None or figures[0] < best[0]:
            best = figures
    assert best is not None
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=3000, help="deals a run (default 3000)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best is kept")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md alone")
    args = ap.parse_args()

    cores = os.cpu_count() or 1
    rows = []
    four_seat_wall = 0.0
    for players in (2, 4, 6):
        for workers, label in ((cores, f"all cores ({cores})"), (1, "one process")):
            wall, wall_rate, run_rate = time_run(players, args.deals, workers, args.seed, args.repeat)
            if players == 4 and workers == cores:
                four_seat_wall = wall_rate
            rows.append(
                f"| {players} | {label} | {args.deals} | {wall:.2f} s | {wall_rate:,.0f} | {run_rate:,.0f} |"
            )
            print(rows[-1], flush=True)
    verdict = "met" if four_seat_wall >= TARGET else "missed"
    command = (
        f"python benchmarks/simulate_bench.py --deals {args.deals} --repeat {args.repeat} --seed {args.seed}"
    )
    body = "\n".join(
        [
            "`rummykit simulate --rules nepali --bots greedy --deals K`, every seat greedy, each deal",
            f"standing alone (best of {args.repeat} runs). Wall: deals / wall time of the whole command,",
            "start-up and worker pool included; in-run: the command's own `deals_per_second` (the deals",
            f"alone). Target: {TARGET} four-seat deals a second on every core: {verdict} "
            f"({four_seat_wall:,.0f} end to end).",
            "",
            f"Machine: {machine_line()}",
            f"Command: `{command}`",
            "",
            "| seats | workers | deals | wall time | deals / second (wall) | deals / second (in-run) |",
            "|---|---|---|---|---|---|",
            *rows,
        ]
    )
    if not args.no_write:
        write_section("simulate", "The simulator", body)


if __name__ == "__main__":
    main()
