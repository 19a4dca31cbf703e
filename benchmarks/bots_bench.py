"""The difficulty levels' strength and speed: duplicate tournaments against the baselines.

Every line of the table is one ``rummykit tournament --duplicate`` run (the same code, called in
process): Nepali, two and four seats, the bots alternating round the table.  Writes the
``bots`` section of BENCHMARKS.md with the machine and the command.

    python benchmarks/bots_bench.py --deals 2000 --seed 2026          # the full measurement
    python benchmarks/bots_bench.py --deals 100 --no-write            # a quick look
    python benchmarks/bots_bench.py --tune-drop --deals 4000           # medium's drop table
    python benchmarks/bots_bench.py --rules rummy40,remi51 --seats 2 --deals 500 --workers 1

``--rules`` other than ``nepali`` measures the table family (Rummy 40, Remi 51): its own
matchups by default (``TABLE_MATCHUPS``) and its own section of BENCHMARKS.md (``bots-table``),
so the Nepali section and its figures stay as they are.

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


TABLE_MATCHUPS = [
    ("easy", "random"),
    ("easy", "greedy"),
    ("medium", "greedy"),
    ("hard", "greedy"),
    ("hard", "medium"),
]


# What was tried for hard at the table family while tuning (hard against medium, duplicate decks,
# Rummy 40 at two seats unless said; ad-hoc runs of a few hundred decks, not this script's).
TABLE_NOTES = [
    "Read against the targets: easy beats random and sits below greedy, medium is above greedy, at",
    "both tables; hard is above medium at Remi 51 (its interval clears zero) but level with it at",
    "Rummy 40 (an interval across zero), so that target is met at Remi 51 only.",
    "",
    "Tuning notes for hard (ad-hoc duplicate runs against medium at Rummy 40, two seats, a few",
    "hundred decks each, not by the command above; points a deal with the 95% half-width):",
    "",
    "- a one-draw look-ahead (each throw scored by the mean worth of the hand after the next draw,",
    "  over the live cards): +0.47 ± 1.75, -0.14 ± 1.96, -0.08 ± 1.85 (200 decks each), and on its",
    "  own +0.32 ± 1.70; it cost 0.4 s a deal, so hard plays without it;",
    "- a feeding estimate over sampled hidden hands of the next seat (the share of hands that could",
    "  put the thrown card down): -2.15 ± 1.55, and -2.76 ± 1.79 with hands it would not hold set",
    "  aside (300 decks); a discard-reading safety bonus: -1.42 ± 1.57 (400 decks);",
    "- an oracle that sees the next seat's hand and never feeds it: +4.48 ± 1.75 (300 decks).  Feeding",
    "  matters, but nothing public predicts it well: over 40 deals of medium against medium the",
    "  thrown card was usable by the next seat about 10% of the time whatever the public features",
    "  (card value, live neighbours, the seat's throws, its hand size), 4% at two cards or fewer;",
    "- what hard keeps (live outs, the rivals' nearness to going out, throws that are certain lay-offs",
    "  for an opened next seat, Remi's joker close): +0.18 ± 1.05 at Rummy 40 (500 decks), +2.85 ± 1.90",
    "  (600 decks) and +2.94 ± 2.01 (500 decks) at Remi 51.",
]


def _line(seats: int, a: str, b: str, data: dict[str, Any], preset: str | None = None) -> str:
    x, y = data["bots"][a], data["bots"][b]
    lo, hi = x["ci95"]
    first = f"| {preset} " if preset is not None else ""
    return (
        f"{first}| {seats} | {a} vs {b} | {data['decks']} | {x['points_per_deal']:+.2f} "
        f"| [{lo:+.2f}, {hi:+.2f}] "
        f"| {100 * x['deal_win_rate']:.1f}% | {x['drops']} | {x['median_ms']:.1f} | {x['p99_ms']:.1f} "
        f"| {x['max_ms']:.0f} | {y['median_ms']:.1f} | {y['p99_ms']:.1f} |"
    )


def strength(args: argparse.Namespace) -> int:
    presets = [p.strip() for p in args.rules.split(",") if p.strip()]
    if presets != ["nepali"]:
        if "nepali" in presets:
            raise SystemExit("measure nepali on its own: it has its own section of BENCHMARKS.md")
        return table_strength(args, presets)
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


def table_strength(args: argparse.Namespace, presets: list[str]) -> int:
    """The table family's lines: every preset, seat count and matchup; the ``bots-table`` section."""
    seats_list = [int(s) for s in args.seats.split(",")]
    pairs = args.matchups.split(",") if args.matchups else [f"{a}:{b}" for a, b in TABLE_MATCHUPS]
    wanted = [tuple(m.split(":")) for m in pairs]
    results: dict[str, Any] = {}
    out = Path(args.out) if args.out else None
    if out is not None and out.exists():
        results = json.loads(out.read_text())  # resume: keep the lines already measured
    lines = []
    for preset in presets:
        for seats in seats_list:
            rules = get_preset(preset, players=seats)
            for a, b in wanted:
                key = f"{preset}:{seats}:{a}:{b}"
                if key not in results:
                    bots = tuple((a, b)[s % 2] for s in range(seats))
                    plan = Plan(rules, bots, args.seed, True)
                    t0 = time.perf_counter()
                    tally = tournament(plan, args.deals, args.workers)
                    results[key] = summary(plan, tally, time.perf_counter() - t0, args.workers)
                    if out is not None:
                        out.write_text(json.dumps(results, indent=1))
                line = _line(seats, a, b, results[key], preset)
                print(line, f"({results[key]['seconds']:.0f} s)", flush=True)
                lines.append(line)
    if args.no_write:
        return 0
    command = ["--rules", ",".join(presets), "--deals", str(args.deals), "--seats", args.seats]
    command += ["--seed", args.seed, "--workers", str(args.workers)]
    if args.matchups:
        command += ["--matchups", args.matchups]
    body = "\n".join(
        [
            "Duplicate tournaments (`rummykit tournament --duplicate`) at the table family: every deck",
            "played twice, the bots swapping seats.  Points per deal: the first bot's net a deal",
            "(Rummy 40: the winner collects the other's leftover, doubled for Hand Rummy; Remi 51: the",
            "other's count less its own, the winner's -20 or -40 included, so the difference the deal",
            "makes between the two totals); its 95% interval over the decks; the deals a seat of it won;",
            "then each bot's time per decision (ms; budgets: easy and medium 50 ms, hard 100 ms).",
            "",
            "Targets (issue 4, carried to this family): easy beats random and is below greedy; medium is",
            "level with greedy or better; hard is above medium.  The times were taken on a machine shared",
            "with other jobs (two cores, other work running beside): they are noisy, read them as upper",
            "bounds.",
            "",
            f"Machine: {machine_line()}",
            f"Command: `python benchmarks/bots_bench.py {' '.join(command)}`",
            "",
            "| rules | seats | bots | decks | points / deal | 95% CI | deals won | drops | median ms "
            "| p99 ms | max ms | other median ms | other p99 ms |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
            *lines,
            "",
            *TABLE_NOTES,
        ]
    )
    write_section("bots-table", "The bots at Rummy 40 and Remi 51: easy, medium, hard", body)
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
    p.add_argument("--rules", default="nepali", help="nepali, or table presets: rummy40,remi51")
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
