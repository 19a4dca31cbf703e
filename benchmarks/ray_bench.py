"""Time ``--ray`` against local processes: the same run, the same figures, three ways.

One simulate run (Nepali, four greedy seats) and one duplicate tournament (greedy against easy,
two seats), each played

* by local processes (``--workers 2``, the default on two cores);
* with ``--ray auto`` and no cluster running: the command starts a local Ray and shuts it down;
* with ``--ray ADDRESS``, joining a local Ray this script keeps running (two CPUs): Ray's cost a
  task without its start-up.

On one machine this measures Ray's overhead, not its scale: the cores are the same two.  Each
figure is the best of ``--repeat`` runs of the real command; wall is the whole command (Ray's
start and shutdown included), in-run the command's own ``seconds`` (the deals alone, after
connecting).  Every run's figures are checked to be the local runner's.

Run: ``.venv/bin/python benchmarks/ray_bench.py`` (or ``make bench``).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from machine import machine_line, write_section

RUN_METADATA = ("seconds", "deals_per_second", "backend", "workers")
TIMES = ("mean_ms", "median_ms", "p99_ms", "max_ms", "late")


def rummykit() -> list[str]:
    exe = Path(sys.executable).parent / "rummykit"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "rummykit"]


def figures(data: dict[str, Any]) -> str:
    data = dict(data)
    for key in RUN_METADATA:
        data.pop(key)
    data["bots"] = {n: {k: v for k, v in b.items() if k not in TIMES} for n, b in data["bots"].items()}
    return json.dumps(data, sort_keys=True)


class Best:
    """The fastest of a command's runs: its wall seconds, its report, and the machine's 1-minute
    load average as it began (other work on a shared machine slows every figure)."""

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.wall = float("inf")
        self.data: dict[str, Any] = {}
        self.load = 0.0

    def run(self, env: dict[str, str]) -> None:
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        done = subprocess.run([*rummykit(), *self.argv, "--json"], capture_output=True, text=True, env=env)
        wall = time.perf_counter() - t0
        if done.returncode:
            raise SystemExit(f"{' '.join(self.argv)}: exit {done.returncode}\n{done.stderr}")
        if wall < self.wall:
            self.wall, self.data, self.load = wall, json.loads(done.stdout), load


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=3000, help="simulate's deals (default 3000)")
    ap.add_argument("--decks", type=int, default=400, help="the tournament's decks (default 400)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best is kept")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md alone")
    args = ap.parse_args()

    import ray

    simulate = f"simulate --rules nepali --players 4 --bots greedy --deals {args.deals} --seed {args.seed}"
    tournament = f"tournament --rules nepali --seats 2 --bots greedy,easy --duplicate --deals {args.decks}"
    runs = [("simulate", simulate.split()), ("tournament", [*tournament.split(), "--seed", str(args.seed)])]
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    rows = []
    for label, argv in runs:
        # --ray auto first, while no Ray runs here (it would join one); then the local runner and
        # the joined Ray in turn, so that the machine's load weighs on both alike
        started = Best([*argv, "--ray", "auto"])
        for _ in range(args.repeat):
            started.run(env)
        ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
        try:
            local = Best([*argv, "--workers", "2"])
            joined = Best([*argv, "--ray", ray.get_runtime_context().gcs_address])
            for _ in range(args.repeat):
                local.run(env)
                joined.run({**env, **os.environ})  # with the token mode Ray set here
        finally:
            ray.shutdown()
        same = figures(local.data) == figures(started.data) == figures(joined.data)
        if not same:
            raise SystemExit(f"{label}: the figures on Ray differ from the local runner's")
        for how, best in (
            ("local processes (--workers 2)", local),
            ("--ray auto (starts a local Ray)", started),
            ("--ray ADDRESS (a running local Ray)", joined),
        ):
            wall, data, load = best.wall, best.data, best.load
            rows.append(
                f"| {label} | {data['deals']} | {how} | {wall:.2f} s | {data['seconds']:.2f} s | "
                f"{data['deals'] / data['seconds']:,.0f} | yes | {load:.1f} |"
            )
            print(rows[-1], flush=True)
    command = (
        f"python benchmarks/ray_bench.py --deals {args.deals} --decks {args.decks} "
        f"--repeat {args.repeat} --seed {args.seed}"
    )
    body = "\n".join(
        [
            "The same run three ways: local processes, `--ray auto` with no cluster running (the",
            "command starts a local Ray and shuts it down), and `--ray ADDRESS` joining a local Ray",
            "already running (two CPUs).  Simulate: `rummykit simulate --rules nepali --players 4",
            f"--bots greedy --deals {args.deals}`; tournament: `rummykit tournament --rules nepali",
            f"--seats 2 --bots greedy,easy --deals {args.decks} --duplicate`.  This is one machine, so",
            "what is measured is Ray's overhead, not its scale: the cores are the same two.  Best of",
            f"{args.repeat} runs; wall: the whole command, Ray's start and shutdown included; in-run:",
            "the command's own `seconds`, from connecting on; same figures: the report, run metadata",
            "and decision times apart, is the local runner's; load: the machine's 1-minute load",
            "average as the runs began (a shared machine: other work slows every figure).",
            "",
            f"Machine: {machine_line()}",
            f"Command: `{command}`",
            "",
            "| run | deals | how | wall time | in-run | deals / second (in-run) | same figures | load |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
        ]
    )
    if not args.no_write:
        write_section("ray", "Ray against local processes", body)


if __name__ == "__main__":
    main()
