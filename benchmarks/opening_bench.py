"""The table family's arranger: the best opening and the cheapest leftover of random hands.

A bot at Rummy 40 or Remi 51 asks both questions about its hand (and the Opening meter asks the
first) on every turn, so their cost bounds how fast the table family's bots and simulator run.
Hands are random 14-card hands from the 108-card shoe; the leftover is asked with no melds on the
table and again with six melds (three runs, three sets) to lay off onto.

Run: ``.venv/bin/python benchmarks/opening_bench.py [--hands 2000]`` (or ``make bench``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from machine import machine_line, write_section
from rummykit.engine.cards import parse_cards, shoe
from rummykit.engine.events import TableMeld
from rummykit.engine.melds import place_meld
from rummykit.engine.rules import Rules, get_preset
from rummykit.engine.table_arranger import best_leftover, best_opening

TABLE_MELDS = ("5h 6h 7h", "9s 10s Js Qs", "2c 3c 4c", "Kd Kh Kc", "8s 8h 8d", "Ad Ac Ah")


def _melds(rules: Rules) -> list[TableMeld]:
    out = []
    for i, text in enumerate(TABLE_MELDS, start=1):
        placed, why = place_meld(parse_cards(text), rules)
        assert placed is not None, why
        out.append(TableMeld(i, i % 2, placed.kind, placed.cards, placed.stands_for))
    return out


def _time(ask: Callable[[list[int]], object], hands: list[list[int]]) -> tuple[float, float]:
    """Median and p99 milliseconds a hand."""
    each = []
    for hand in hands:
        start = time.perf_counter()
        ask(hand)
        each.append((time.perf_counter() - start) * 1000)
    each.sort()
    return statistics.median(each), each[min(len(each) - 1, int(0.99 * len(each)))]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=2000)
    p.add_argument("--seed", default="2026")
    p.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md alone")
    args = p.parse_args()
    rows = []
    for preset in ("rummy40", "remi51"):
        rules = get_preset(preset)
        rng = random.Random(f"{args.seed}/{preset}")
        deck = [c % 53 for c in shoe(2, 4)]
        hands = [rng.sample(deck, 14) for _ in range(args.hands)]
        melds = _melds(rules)
        asks: list[tuple[str, Callable[[list[int]], object]]] = [
            ("best opening", lambda h, r=rules: best_opening(h, r)),
            ("cheapest leftover, empty table", lambda h, r=rules: best_leftover(h, [], r)),
            ("cheapest leftover, six melds on the table", lambda h, r=rules, m=melds: best_leftover(h, m, r)),
        ]
        for name, ask in asks:
            median, p99 = _time(ask, hands)
            rate = 1000 / median
            rows.append(f"| {preset} | {name} | {args.hands} | {median:.2f} | {p99:.2f} | {rate:,.0f} |")
    body = "\n".join(
        [
            "`rummykit.engine.table_arranger` on random 14-card hands from the 108-card shoe, one process.",
            "",
            f"Machine: {machine_line()}",
            f"Command: `python benchmarks/opening_bench.py --hands {args.hands} --seed {args.seed}`",
            "",
            "| rules | question | hands | median ms | p99 ms | hands / second (median) |",
            "|---|---|---|---|---|---|",
            *rows,
        ]
    )
    print(body)
    if not args.no_write:
        write_section("opening", "The table family's arranger", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
