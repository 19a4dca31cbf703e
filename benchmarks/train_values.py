"""Learn what playing a hand on is worth, by self-play: the table hard and expert drop by.

Medium plays medium with no drops at all (every hand played to the end), Nepali, Indian and Kerala,
two and four seats.  At every turn of every seat, before it draws, the position is written down
by a few exact measures of the hand (:func:`rummykit.bots.values.features`: exchanges from a
show, a pure run or not, the seat's own turns so far, the charge) and, when the deal ends, the
net that seat made from there.  The mean net of each cell (with the cells of few positions
shrunk towards their coarser parent) is the *play-on value*: a seat drops when that is worse
than the drop.  The table is written to ``src/rummykit/bots/data/values.json`` and shipped in
the package; the run is seeded, so the same command writes the same table.

    python benchmarks/train_values.py --deals 700 --seed values-1 --workers 1   # the shipped table
    python benchmarks/train_values.py --deals 200 --no-write             # a quick look
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
from collections import defaultdict
from pathlib import Path
from typing import Any

from rummykit.bots import play_deal
from rummykit.bots.contract import Deadline
from rummykit.bots.medium import MediumPlayer
from rummykit.bots.reading import HandReader
from rummykit.bots.values import LOSSES, VALUES_PATH, cell_keys, features
from rummykit.engine.deal import ShowDeal
from rummykit.engine.rules import get_preset
from rummykit.engine.views import SeatView

PRESETS = ("nepali", "indian", "kerala")
SEATS = (2, 4)


class Recorder(MediumPlayer):
    """Medium that never drops and writes down each of its positions before the draw."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.drop_rules = {}
        self.seen: list[tuple[str, ...]] = []

    def _drop(self, view: SeatView, reader: HandReader, deadline: Deadline) -> bool:
        self.seen.append(cell_keys(features(view, reader)))
        return False


def _chunk(task: tuple[str, int, str, int, int]) -> list[tuple[tuple[str, ...], float]]:
    preset, seats, seed, start, stop = task
    rules = get_preset(preset, players=seats)
    out = []
    for i in range(start, stop):
        deal = ShowDeal(rules, f"{seed}/{preset}/{seats}/{i}", dealer=i % seats)
        players = [Recorder(f"{seed}/{i}/{s}") for s in range(seats)]
        result = play_deal(deal, players)
        for s, p in enumerate(players):
            net = float(result.collected if result.seats[s].won else -result.seats[s].charge)
            out += [(keys, net) for keys in p.seen]
    return out


def train(deals: int, seed: str, workers: int) -> dict[str, Any]:
    # per cell: the sum of the nets, the positions, and the positions that lost at least each of
    # LOSSES (the chance of a charge that would put a seat out of a pool)
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0] * (2 + len(LOSSES)))
    for preset in PRESETS:
        for seats in SEATS:
            tasks = [(preset, seats, seed, a, min(a + 50, deals)) for a in range(0, deals, 50)]
            if workers > 1:
                with multiprocessing.get_context("fork").Pool(workers) as pool:
                    parts = pool.map(_chunk, tasks)
            else:
                parts = [_chunk(t) for t in tasks]
            for part in parts:
                for keys, net in part:
                    for key in keys:
                        cell = sums[key]
                        cell[0] += net
                        cell[1] += 1
                        for j, loss in enumerate(LOSSES):
                            cell[2 + j] += -net >= loss
            print(f"{preset}, {seats} seats: {deals} deals played", flush=True)
    cells = {
        key: [round(c[0] / c[1], 2), int(c[1]), *(round(x / c[1], 3) for x in c[2:])]
        for key, c in sorted(sums.items())
    }
    return {
        "version": 1,
        "seed": seed,
        "deals": deals,
        "presets": list(PRESETS),
        "losses": list(LOSSES),
        "cells": cells,
    }


def dump_table(table: dict[str, Any]) -> str:
    """The table as JSON, one cell a line (small diffs when it is trained again)."""
    head = {k: v for k, v in table.items() if k != "cells"}
    lines = [json.dumps(head, sort_keys=True)[:-1] + ', "cells": {']
    cells = sorted(table["cells"].items())
    for i, (key, cell) in enumerate(cells):
        lines.append(f"{json.dumps(key)}: {json.dumps(cell)}{',' if i < len(cells) - 1 else ''}")
    lines.append("}}")
    return "\n".join(lines) + "\n"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=3000, help="deals per preset and seat count")
    p.add_argument("--seed", default="values-1")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--no-write", action="store_true")
    p.add_argument(
        "--out", default=str(VALUES_PATH), help="where to write the table (default: the package's)"
    )
    args = p.parse_args()
    table = train(args.deals, args.seed, args.workers)
    for key, (mean, n, *_share) in table["cells"].items():
        if "/t" not in key:
            print(f"{key:32} {mean:+7.1f} {n:7d}")
    if not args.no_write:
        Path(args.out).write_text(dump_table(table))
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
