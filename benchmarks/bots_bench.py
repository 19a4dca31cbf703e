"""The difficulty levels' strength and speed: duplicate tournaments against the baselines.

Every line of the table is one ``rummykit tournament --duplicate`` run (the same code, called in
process): Nepali, two and four seats, the bots alternating round the table.  Writes the
``bots`` section of BENCHMARKS.md with the machine and the command.

    python benchmarks/bots_bench.py --deals 2000 --seed 2026          # the full measurement
    python benchmarks/bots_bench.py --deals 100 --no-write            # a quick look
    python benchmarks/bots_bench.py --tune-drop --deals 4000           # medium's drop table

``--tune-drop`` plays medium against medium with no drops and prints, for each shape of dealt
hand (pure run or not, exchanges from a show), the mean net it made; a shape that loses more
than the first drop (20) is one to drop (see ``rummykit.bots.medium.DROP_RULES``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from machine import machine_line, write_section
from rummykit.bots import play_deal
from rummykit.bots.medium import MediumPlayer, hand_features
from rummykit.bots.reading import HandReader
from rummykit.cli.tournament_cmd import Plan, summary, tournament
from rummykit.engine.arrange import Arranger
from rummykit.engine.deal import ShowDeal
from rummykit.engine.rules import get_preset

MATCHUPS = [
    ("easy", "random"),
    ("easy", "greedy"),
    ("medium", "greedy"),
    ("medium", "easy"),
    ("hard", "greedy"),
    ("hard", "medium"),
]


def _line(seats: int, a: str, b: str, data: dict[str, Any]) -> str:
    x, y = data["bots"][a], data["bots"][b]
    lo, hi = x["ci95"]
    return (
        f"| {seats} | {a} vs {b} | {data['deals']} | {x['points_per_deal']:+.2f} | [{lo:+.2f}, {hi:+.2f}] "
        f"| {100 * x['deal_win_rate']:.1f}% | {x['drops']} | {x['median_ms']:.1f} | {x['p99_ms']:.1f} "
        f"| {x['max_ms']:.0f} | {y['median_ms']:.1f} | {y['p99_ms']:.1f} |"
    )


def strength(args: argparse.Namespace) -> int:
    seats_list = [int(s) for s in args.seats.split(",")]
    # A:B plays at every seat count, N/A:B only at N seats
    wanted: list[tuple[int | None, str, str]] = []
    for m in args.matchups.split(",") if args.matchups else [f"{a}:{b}" for a, b in MATCHUPS]:
        only, _, pair = m.rpartition("/")
        a, b = pair.split(":")
        wanted.append((int(only) if only else None, a, b))
    results: dict[str, Any] = {}
    out = Path(args.out) if args.out else None
    if out is not None and out.exists():
        results = json.loads(out.read_text())  # resume: keep the lines already measured
    lines = []
    for seats in seats_list:
        rules = get_preset("nepali", players=seats)
        for only, a, b in wanted:
            if only is not None and only != seats:
                continue
            key = f"{seats}:{a}:{b}"
            decks = args.four_seat_deals if seats >= 4 and args.four_seat_deals else args.deals
            if key not in results:
                bots = tuple((a, b)[s % 2] for s in range(seats))
                plan = Plan(rules, bots, args.seed, True)
                t0 = time.perf_counter()
                tally = tournament(plan, decks, args.workers)
                results[key] = summary(plan, tally, time.perf_counter() - t0, args.workers)
                if out is not None:
                    out.write_text(json.dumps(results, indent=1))
            line = _line(seats, a, b, results[key])
            print(line, f"({results[key]['seconds']:.0f} s)", flush=True)
            lines.append(line)
    if args.no_write:
        return 0
    command = ["--deals", str(args.deals), "--seats", args.seats, "--seed", args.seed]
    if args.four_seat_deals:
        command += ["--four-seat-deals", str(args.four_seat_deals)]
    if args.matchups:
        command += ["--matchups", args.matchups]
    body = "\n".join(
        [
            "Duplicate tournaments (`rummykit tournament --duplicate`), Nepali: every deck played once",
            "per rotation of the bots round the table, the two bots alternating seats.  Points per deal:",
            "the first bot's settlement net a deal (higher is better), its 95% interval over the decks,",
            "the deals a seat of it won, its drops; then each bot's time per decision (ms) with its own",
            "budget (easy, medium 50 ms; hard 250 ms, anytime).",
            "",
            "Targets (issue 4): easy wins 95% of its deals against random and is below greedy; medium",
            "is level with greedy or better; hard is at least +5 a deal over greedy (stretch +8), wins",
            "55% of the deals, and its interval clears medium's; easy and medium p99 at most 50 ms, hard",
            "median at most 250 ms and p99 at most 1 s.  At four seats each bot holds two seats, so",
            "'deals won' is the share won by either of its seats (50% is par).",
            "",
            f"Machine: {machine_line()}",
            f"Command: `python benchmarks/bots_bench.py {' '.join(command)}`",
            "",
            "| seats | bots | decks | points / deal | 95% CI | deals won | drops | median ms | p99 ms "
            "| max ms | other median ms | other p99 ms |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
            *lines,
        ]
    )
    write_section("bots", "The bots: easy, medium, hard", body)
    return 0


# ---- the drop table --------------------------------------------------------------------------


def _drop_chunk(task: tuple[int, int, int]) -> list[tuple[tuple[int, bool, int], int]]:
    seats, start, stop = task
    rules = get_preset("nepali", players=seats)
    arranger = Arranger(rules)
    reader = HandReader(rules, arranger)
    out = []
    for i in range(start, stop):
        deal = ShowDeal(rules, f"d/{i}", dealer=i % seats, arranger=arranger)
        features = [hand_features(reader, deal.hand(s), deal.wild) for s in range(seats)]
        players = []
        for s in range(seats):
            p = MediumPlayer(f"d/{i}/{s}")
            p.drop_rules = {}  # play every hand out
            players.append(p)
        result = play_deal(deal, players)
        for s in range(seats):
            net = result.collected if result.seats[s].won else -result.seats[s].charge
            out.append((features[s], net))
    return out


def tune_drop(args: argparse.Namespace) -> int:
    for seats in [int(s) for s in args.seats.split(",")]:
        tasks = [(seats, a, min(a + 50, args.deals)) for a in range(0, args.deals, 50)]
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            rows = [r for part in pool.map(_drop_chunk, tasks) for r in part]
        table: dict[tuple[bool, int], list[int]] = defaultdict(list)
        for (away, pure, _pairs), net in rows:
            table[(pure, min(away, 6))].append(net)
        print(f"{seats} seats, {args.deals} deals: pure run, away -> hands, mean net")
        for key in sorted(table):
            nets = table[key]
            print(f"  {key[0]!s:5} {key[1]}  {len(nets):5d}  {sum(nets) / len(nets):+6.1f}")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=2000, help="decks per line (each played per rotation)")
    p.add_argument("--seats", default="2,4")
    p.add_argument("--four-seat-deals", type=int, help="decks per line at four seats (default: --deals)")
    p.add_argument("--seed", default="2026")
    p.add_argument("--matchups", help="A:B,N/C:D (N/: at N seats only; default: every line of the table)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", help="keep each line's JSON here as it is measured (and resume from it)")
    p.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md alone")
    p.add_argument("--tune-drop", action="store_true", help="print medium's drop table instead")
    args = p.parse_args()
    return tune_drop(args) if args.tune_drop else strength(args)


if __name__ == "__main__":
    raise SystemExit(main())
