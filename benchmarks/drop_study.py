"""How much is a better drop worth?  Drop rules judged on the same played-out hands (issue 14).

One seat (the *subject*) plays medium's throws and draws and never drops; the other seats are
medium as it plays (its first-turn drop included).  At each of the subject's decisions before a
draw the position is written down (a few exact measures of the hand and of what the view shows)
and, when the deal ends, the net the subject made.  Every seat of every deal is the subject
once.  Because the subject never dropped, the deal up to any of its decisions is what it would
have been under any drop rule, so each rule is judged on the same hands: its value is the drop's
cost at the first decision it drops at, else the net played out.

The rules judged: never dropping; medium's tuned first-turn rule; hard's learned play-on table
(``bots/data/values.json``, at every decision); the linear model of
:mod:`rummykit.bots.drops` (a ridge regression of the net on the view's measures, one for the
first decision and one for the later ones), judged by five-fold cross-validation over the deals
(each hand judged by models fitted without its deal), at the first decision only and at every
one; and a *foresight* rule that drops whenever the deal's end will be worse than the drop (it
sees the future: the most any drop rule could add).  Figures are points a seat a deal, each
with its difference from medium's rule and that difference's 95% interval over the hands.

    python benchmarks/drop_study.py --rules nepali --seats 4 --deals 3000 --seed ds4 --positions /tmp/p4.jsonl
    python benchmarks/drop_study.py --from /tmp/p4.jsonl            # judge again without playing
    python benchmarks/drop_study.py --from /tmp/p4.jsonl --write    # fit on all and ship the models

``--write`` fits the models on every position and writes them into ``bots/data/drops.json``
(the models of other tables there are kept): what hard drops by.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rummykit.bots import play_deal
from rummykit.bots.contract import Deadline
from rummykit.bots.drops import DROPS_PATH, MEASURES, LinearModel, drop_measures, model_key, stage
from rummykit.bots.medium import DROP_RULES, MediumPlayer
from rummykit.bots.reading import HandReader
from rummykit.bots.values import bucketed, play_on_values
from rummykit.cli.tournament_cmd import seat_net
from rummykit.engine.deal import ShowDeal
from rummykit.engine.rules import RulesError, get_preset
from rummykit.engine.views import SeatView

Row = dict[str, Any]
RIDGE = 1.0  # the ridge's weight on the standardised measures


class Subject(MediumPlayer):
    """Medium that never drops and writes down every position before its draw."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.drop_rules = {}
        self.seen: list[Row] = []

    def _drop(self, view: SeatView, reader: HandReader, deadline: Deadline) -> bool:
        if view.drop_cost is not None:
            self.seen.append(
                {"x": list(drop_measures(view, reader)), "stage": stage(view), "cost": view.drop_cost}
            )
        return False


def _chunk(task: tuple[str, int, str, int, int]) -> list[Row]:
    preset, seats, seed, start, stop = task
    rules = get_preset(preset, players=seats)
    out: list[Row] = []
    for i in range(start, stop):
        for subject in range(seats):
            deal = ShowDeal(rules, f"{seed}/{preset}/{seats}/{i}", dealer=i % seats)
            players: list[MediumPlayer] = [
                Subject(f"{seed}/{i}/{s}") if s == subject else MediumPlayer(f"{seed}/{i}/{s}")
                for s in range(seats)
            ]
            net = seat_net(rules, play_deal(deal, players), subject)
            seen = players[subject]
            assert isinstance(seen, Subject)
            for j, row in enumerate(seen.seen):
                out.append(
                    {
                        **row,
                        "net": net,
                        "preset": preset,
                        "players": seats,
                        "deal": i,
                        "subject": subject,
                        "idx": j,
                    }
                )
    return out


def play(preset: str, seats: int, deals: int, seed: str, workers: int) -> list[Row]:
    tasks = [(preset, seats, seed, a, min(a + 25, deals)) for a in range(0, deals, 25)]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_chunk, tasks)
    else:
        parts = [_chunk(t) for t in tasks]
    return [r for part in parts for r in part]


# ---- estimators (pure Python: the package ships without numpy) ---------------------------


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gauss-Jordan elimination with partial pivoting (a small system, made regular by the ridge)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda i: abs(m[i][c]))
        m[c], m[p] = m[p], m[c]
        for i in range(n):
            if i != c and m[c][c]:
                f = m[i][c] / m[c][c]
                m[i] = [x - f * y for x, y in zip(m[i], m[c], strict=True)]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def fit_ridge(train: Sequence[Row], lam: float = RIDGE) -> LinearModel:
    """Ridge regression of the net on the standardised measures."""
    xs = [r["x"] for r in train]
    d = len(MEASURES)
    n = max(1, len(xs))
    mean = [sum(v[j] for v in xs) / n for j in range(d)]
    scale = [math.sqrt(sum((v[j] - mean[j]) ** 2 for v in xs) / n) or 1.0 for j in range(d)]
    zs = [[(v[j] - mean[j]) / scale[j] for j in range(d)] for v in xs]
    ys = [float(r["net"]) for r in train]
    ym = sum(ys) / n
    a = [[sum(z[i] * z[j] for z in zs) + (lam if i == j else 0.0) for j in range(d)] for i in range(d)]
    b = [sum(z[i] * (y - ym) for z, y in zip(zs, ys, strict=True)) for i in range(d)]
    return LinearModel(ym, tuple(mean), tuple(scale), tuple(_solve(a, b)))


def fit_stages(train: Sequence[Row]) -> dict[str, LinearModel]:
    """One model per stage (the first decision, the later ones)."""
    return {st: fit_ridge([r for r in train if r["stage"] == st]) for st in ("first", "later")}


def cross_validated(rows: Sequence[Row]) -> list[float]:
    """Each position's value by models fitted on the other four fifths of the deals."""
    pred = [0.0] * len(rows)
    for fold in range(5):
        models = fit_stages([r for r in rows if r["deal"] % 5 != fold])
        for i, r in enumerate(rows):
            if r["deal"] % 5 == fold:
                pred[i] = models[r["stage"]].predict(r["x"])
    return pred


# ---- judging ------------------------------------------------------------------------------


def judge(
    rows: Sequence[Row], drops: Sequence[bool]
) -> tuple[dict[tuple[int, int], float], set[tuple[int, int]]]:
    """Each hand's value under a rule (the cost at its first drop, else the net played out), and
    the hands it dropped."""
    out: dict[tuple[int, int], float] = {}
    done: set[tuple[int, int]] = set()
    ordered = sorted(
        zip(rows, drops, strict=True), key=lambda rd: (rd[0]["deal"], rd[0]["subject"], rd[0]["idx"])
    )
    for r, d in ordered:
        key = (r["deal"], r["subject"])
        if key in done:
            continue
        out[key] = -float(r["cost"]) if d else float(r["net"])
        if d:
            done.add(key)
    return out, done


def report(rows: Sequence[Row], margin: float) -> list[tuple[str, float, float, float, float]]:
    seats = rows[0]["players"]
    rules = get_preset(rows[0]["preset"], players=seats)
    rule = DROP_RULES.get(min(seats, 4))
    values = play_on_values()
    model = cross_validated(rows)
    at = {name: i for i, name in enumerate(MEASURES)}

    def m(r: Row, name: str) -> int:
        return int(r["x"][at[name]])

    def table(r: Row) -> float:
        f = bucketed(rules, seats, m(r, "away"), bool(m(r, "pure")), m(r, "own"), m(r, "charge"))
        got = values.value(f)
        return 0.0 if got is None else got

    first = [r["stage"] == "first" for r in rows]
    by_rule = {
        "never": [False] * len(rows),
        "medium (its tuned first-turn rule)": [
            f and rule is not None and rule.drops(m(r, "away"), bool(m(r, "pure")))
            for r, f in zip(rows, first, strict=True)
        ],
        "hard's values table (every turn)": [table(r) < -r["cost"] for r in rows],
        "the linear model, first turn only": [
            f and p < -r["cost"] - margin for r, p, f in zip(rows, model, first, strict=True)
        ],
        "the linear model, every turn": [p < -r["cost"] - margin for r, p in zip(rows, model, strict=True)],
        "foresight (sees the deal's end)": [
            f and r["net"] < -r["cost"] for r, f in zip(rows, first, strict=True)
        ],
    }
    base, _ = judge(rows, by_rule["medium (its tuned first-turn rule)"])
    out = []
    for name, drops in by_rule.items():
        got, dropped = judge(rows, drops)
        keys = sorted(got)
        diffs = [got[k] - base[k] for k in keys]
        n = len(diffs)
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1))
        out.append((name, sum(got.values()) / n, mean, 1.96 * sd / math.sqrt(n), len(dropped) / n))
    return out


def write_models(rows: Sequence[Row], path: Path) -> None:
    """Fit on every position and write the models for this table into ``path`` (other tables'
    models already there are kept)."""
    seats = rows[0]["players"]
    rules = get_preset(rows[0]["preset"], players=seats)
    data: dict[str, Any] = {"version": 1, "measures": list(MEASURES), "models": {}}
    if path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
    for st, model in fit_stages(rows).items():
        data["models"][model_key(rules, seats, st)] = model.to_json()
    models = sorted(data["models"].items())
    lines = [f'{{"version": 1, "measures": {json.dumps(list(MEASURES))}, "models": {{']
    lines += [
        f"{json.dumps(k)}: {json.dumps(v)}{',' if i < len(models) - 1 else ''}"
        for i, (k, v) in enumerate(models)
    ]
    path.write_text("\n".join([*lines, "}}"]) + "\n", encoding="utf-8")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rules", default="nepali")
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--seed", default="dgA")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--positions", help="write the positions here (JSON lines)")
    p.add_argument("--from", dest="source", help="judge the positions in this file instead of playing")
    p.add_argument(
        "--margin", type=float, default=0.0, help="the model drops when this much worse than the drop"
    )
    p.add_argument(
        "--write", action="store_true", help=f"fit on all the positions and write {DROPS_PATH.name}"
    )
    args = p.parse_args()
    if not 1 <= args.deals <= 1_000_000:
        p.error(f"--deals must be 1 to 1,000,000, not {args.deals}")
    if not 2 <= args.seats <= 6:
        p.error(f"--seats must be 2 to 6, not {args.seats}")
    if not 1 <= args.workers <= 64:
        p.error(f"--workers must be 1 to 64, not {args.workers}")
    if args.source:
        try:
            with open(args.source, encoding="utf-8") as f:
                rows = [json.loads(line) for line in f]
        except (OSError, ValueError) as e:
            p.error(f"--from {args.source}: {e}")
        if not rows:
            p.error(f"--from {args.source}: no positions")
    else:
        try:
            rules = get_preset(args.rules, players=args.seats)
        except RulesError as e:
            p.error(f"--rules {args.rules}: {e}")
        if rules.is_table or rules.drop_first is None:
            p.error(f"--rules {args.rules}: a show-family preset with drops is needed")
        rows = play(args.rules, args.seats, args.deals, args.seed, args.workers)
        if args.positions:
            with open(args.positions, "w", encoding="utf-8") as f:
                f.writelines(json.dumps(r) + "\n" for r in rows)
    hands = len({(r["deal"], r["subject"]) for r in rows})
    print(f"{rows[0]['preset']}, {rows[0]['players']} seats: {hands} hands, {len(rows)} positions")
    print("| drop rule | points / seat-deal | vs medium | 95% CI | hands dropped |")
    print("|---|---|---|---|---|")
    for name, value, diff, half, dropped in report(rows, args.margin):
        print(
            f"| {name} | {value:+.2f} | {diff:+.2f} | [{diff - half:+.2f}, {diff + half:+.2f}]"
            f" | {dropped:.1%} |"
        )
    if args.write:
        write_models(rows, DROPS_PATH)
        print(f"wrote {DROPS_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
