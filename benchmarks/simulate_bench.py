"""Time the simulator: ``rummykit simulate`` with greedy players, end to end.

Nepali deals at 2, 4 and 6 seats, and Rummy 40 and Remi 51 deals at 4 seats (the table
family: melds on the table, lay-offs and swaps make a turn far dearer), every seat greedy,
each deal standing alone.  Each figure is the best of ``--repeat`` runs of the real command:

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


def time_run(
    rules: str, players: int, deals: int, workers: int, seed: int, repeat: int
) -> tuple[float, float, float]:
    """Best (wall seconds, wall deals/s, in-run deals/s) of ``repeat`` runs."""
    best: tuple[float, float, float] | None = None
    for _ in range(repeat):
        argv = [
            *rummykit(),
            "simulate",
            "--rules",
            rules,
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
    ap.add_argument("--table-deals", type=int, default=600, help="deals a run at rummy40 / remi51")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md alone")
    args = ap.parse_args()

    cores = os.cpu_count() or 1
    rows = []
    four_seat_wall = 0.0
    plan = [("nepali", p, args.deals) for p in (2, 4, 6)]
    plan += [(name, 4, args.table_deals) for name in ("rummy40", "remi51")]
    for rules, players, deals in plan:
        for workers, label in ((cores, f"all cores ({cores})"), (1, "one process")):
            wall, wall_rate, run_rate = time_run(rules, players, deals, workers, args.seed, args.repeat)
            if rules == "nepali" and players == 4 and workers == cores:
                four_seat_wall = wall_rate
            rates = f"{wall_rate:,.0f} | {run_rate:,.0f}"
            rows.append(f"| {rules} | {players} | {label} | {deals} | {wall:.2f} s | {rates} |")
            print(rows[-1], flush=True)
    verdict = "met" if four_seat_wall >= TARGET else "missed"
    command = (
        f"python benchmarks/simulate_bench.py --deals {args.deals} --table-deals {args.table_deals} "
        f"--repeat {args.repeat} --seed {args.seed}"
    )
    body = "\n".join(
        [
            "`rummykit simulate --rules R --bots greedy --deals K`, every seat greedy, each deal",
            f"standing alone (best of {args.repeat} runs). Wall: deals / wall time of the whole command,",
            "start-up and worker pool included; in-run: the command's own `deals_per_second` (the deals",
            f"alone). Target: {TARGET} four-seat deals a second on every core: {verdict} "
            f"({four_seat_wall:,.0f} end to end). The table family (Rummy 40, Remi 51) has no target;",
            "its turns ask the opening arranger for the legal melds, lay-offs and swaps.",
            "",
            f"Machine: {machine_line()}",
            f"Command: `{command}`",
            "",
            "| rules | seats | workers | deals | wall time | deals / second (wall) | (in-run) |",
            "|---|---|---|---|---|---|---|",
            *rows,
        ]
    )
    if not args.no_write:
        write_section("simulate", "The simulator", body)


if __name__ == "__main__":
    main()
