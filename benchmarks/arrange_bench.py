"""Time the batch arranger: ``rummykit arrange --jsonl`` end to end.

Start-up, JSON in and out and the search are all inside the figure, as a tool
feeding the command would see them.  Hands are seeded, so every run times the
same work:

* random 13-card deals from a two-pack shoe with a random wild rank;
* random 14-card hands (every throw is tried for finishing cards);
* near-complete 14-card hands built from real melds plus one stray card, the
  hands a bot holds late in a deal.

Run: ``.venv/bin/python benchmarks/arrange_bench.py`` (or ``make bench``).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import machine_line, write_section
from rummykit.engine.cards import RANK_TEXT, format_cards, shoe


def random_hands(n: int, size: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    cards = shoe(2, 2)
    out = []
    for _ in range(n):
        rng.shuffle(cards)
        out.append(json.dumps({"hand": format_cards(cards[:size]), "wild": RANK_TEXT[rng.randint(1, 13)]}))
    return out


def near_hands(n: int, seed: int) -> list[str]:
    """Fourteen cards: melds making thirteen, one of them swapped, plus a stray."""
    rng = random.Random(seed)
    out = []
    base = [c % 53 for c in shoe(2, 2)]
    while len(out) < n:
        pool = list(base)
        hand: list[int] = []
        while len(hand) < 13:
            if rng.random() < 0.6:
                suit, start = rng.randrange(4), rng.randint(1, 11)
                meld = [suit * 13 + (r - 1) % 13 for r in range(start, start + rng.randint(3, 4))]
            else:
                rank = rng.randrange(13)
                meld = [s * 13 + rank for s in rng.sample(range(4), 3)]
            for k in meld:
                if len(hand) < 13 and k in pool:
                    pool.remove(k)
                    hand.append(k)
        hand[rng.randrange(13)] = pool.pop(rng.randrange(len(pool)))
        hand.append(pool.pop(rng.randrange(len(pool))))
        out.append(json.dumps({"hand": format_cards(hand), "wild": RANK_TEXT[rng.randint(1, 13)]}))
    return out


def rummykit() -> list[str]:
    exe = Path(sys.executable).parent / "rummykit"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "rummykit"]


def time_batch(lines: list[str], preset: str, repeat: int) -> tuple[float, int]:
    """Best wall time of ``repeat`` runs, and how many lines came back."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name
    best = float("inf")
    answered = 0
    for _ in range(repeat):
        with open(path, "rb") as stdin:
            t0 = time.perf_counter()
            done = subprocess.run(
                [*rummykit(), "arrange", "--rules", preset, "--jsonl"],
                stdin=stdin,
                capture_output=True,
                check=True,
            )
            best = min(best, time.perf_counter() - t0)
        answered = done.stdout.count(b"\n")
        if b'"error"' in done.stdout:
            raise SystemExit("the arranger answered an error line; the benchmark input is wrong")
    Path(path).unlink()
    return best, answered


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000, help="hands per batch (default 20000)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per batch; the best is kept")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md alone")
    args = ap.parse_args()

    batches = [
        (
            "random 13-card deals",
            random_hands(args.hands, 13, args.seed),
            ("nepali", "indian", "kerala", "north-indian"),
        ),
        ("random 14-card hands", random_hands(args.hands, 14, args.seed + 1), ("nepali", "indian")),
        ("near-complete 14-card hands", near_hands(args.hands, args.seed + 2), ("nepali", "indian")),
    ]
    rows = []
    for name, lines, presets in batches:
        for preset in presets:
            seconds, answered = time_batch(lines, preset, args.repeat)
            rate = answered / seconds
            rows.append(f"| {name} | {preset} | {answered} | {seconds:.2f} s | {rate:,.0f} |")
            print(rows[-1], flush=True)
    command = (
        f"python benchmarks/arrange_bench.py --hands {args.hands} --repeat {args.repeat} --seed {args.seed}"
    )
    body = "\n".join(
        [
            "Batch arranger, `rummykit arrange --jsonl`, one process, start-up and JSON included",
            f"(best of {args.repeat} runs). Target: 20,000 random 13-card hands a second.",
            "",
            f"Machine: {machine_line()}",
            f"Command: `{command}`",
            "",
            "| batch | rules | hands | wall time | hands / second |",
            "|---|---|---|---|---|",
            *rows,
        ]
    )
    if not args.no_write:
        write_section("arrange", "The arranger", body)


if __name__ == "__main__":
    main()
