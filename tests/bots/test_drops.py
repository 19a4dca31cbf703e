"""Hard's drop model (bots/drops.py, data/drops.json) and the study that fits it
(``benchmarks/drop_study.py``).

How much the model gains is the study's and the tournament's to measure, not a test's.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bench_scripts import load_benchmark
from rummykit.bots.drops import (
    DROPS_PATH,
    MEASURES,
    DropModel,
    LinearModel,
    drop_measures,
    drop_models,
    model_key,
    stage,
)
from rummykit.bots.hard import HardPlayer
from rummykit.bots.reading import HandReader
from rummykit.engine.deal import ShowDeal
from rummykit.engine.events import Action, ActionKind, SeatStatus
from rummykit.engine.rules import get_preset

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "drop_study.py"
AT = {name: i for i, name in enumerate(MEASURES)}


def load() -> ModuleType:
    return load_benchmark("drop_study")


def test_the_measures_read_the_hand_and_the_table_from_the_view() -> None:
    rules = get_preset("nepali", players=4)
    deal = ShowDeal(rules, "measures", dealer=0)
    first = deal.to_play
    assert first is not None
    view = deal.view(first)
    reader = HandReader(rules)
    x = drop_measures(view, reader)
    assert len(x) == len(MEASURES)
    assert x[AT["away"]] == reader.away(view.hand, view.wild)
    assert x[AT["charge"]] == reader.charge(view.hand, view.wild)
    assert x[AT["rivals"]] == 3 and x[AT["acted"]] == 0 and x[AT["own"]] == 0
    assert stage(view) == "first"
    # the first seat drops: the next one has two rivals left, none of whom has acted
    deal.apply(first, Action.drop())
    nxt = deal.to_play
    assert nxt is not None and deal.view(nxt).statuses[first] is SeatStatus.DROPPED
    y = drop_measures(deal.view(nxt), reader)
    assert y[AT["rivals"]] == 2 and y[AT["acted"]] == 0 and y[AT["turn"]] == x[AT["turn"]] + 1


def test_a_model_checks_its_own_shape() -> None:
    n = len(MEASURES)
    with pytest.raises(ValueError, match="needs"):
        LinearModel(0.0, (0.0,) * n, (1.0,) * n, (0.0,) * (n - 1))
    with pytest.raises(ValueError, match="positive"):
        LinearModel(0.0, (0.0,) * n, (0.0,) * n, (0.0,) * n)
    with pytest.raises(ValueError, match="intercept"):
        LinearModel.from_json({"intercept": "x", "mean": [], "scale": [], "weight": []})
    model = LinearModel(5.0, (1.0,) * n, (2.0,) * n, tuple(float(i) for i in range(n)))
    assert LinearModel.from_json(json.loads(json.dumps(model.to_json()))) == model
    assert model.predict((3.0,) * n) == pytest.approx(5.0 + sum(range(n)))


def test_the_shipped_models_cover_the_tables_they_were_fitted_on() -> None:
    data = json.loads(DROPS_PATH.read_text(encoding="utf-8"))
    assert data["measures"] == list(MEASURES)
    models = drop_models().models
    assert set(models) == set(data["models"])
    for table in (
        "pure/2",
        "pure/3",
        "pure/4",
        "lives_except_pure/2",
        "lives_except_pure/3",
        "lives_except_pure/4",
    ):
        for st in ("first", "later"):
            model = models[f"{table}/{st}"]
            # farther from a show is worth less, a pure run more
            assert model.weight[AT["away"]] < 0 and model.weight[AT["pure"]] > 0, (table, st)


def test_hard_drops_by_the_model_where_it_knows_the_table_and_says_why() -> None:
    rules = get_preset("nepali", players=4)
    hard = HardPlayer("model")
    hard.untimed = True
    reader = HandReader(rules)
    models = drop_models()
    dropped = played = 0
    for i in range(40):
        deal = ShowDeal(rules, f"model-{i}", dealer=i % 4)
        seat = deal.to_play
        assert seat is not None
        view = deal.view(seat)
        value = models.value(view, reader)
        assert value is not None
        action = hard.choose(view)
        if value < -(view.drop_cost or 0):
            assert action == Action.drop() and "playing on is worth" in hard.last_reason
            dropped += 1
        else:
            assert action.kind is not ActionKind.DROP
            played += 1
    assert dropped and played  # both answers came up in forty dealt hands


def test_without_a_model_for_the_table_there_is_no_answer() -> None:
    rules = get_preset("nepali", players=4)
    assert DropModel({}).value(ShowDeal(rules, "none", dealer=0).view(1), HandReader(rules)) is None


@pytest.mark.parametrize("seats", [5, 6])
def test_a_model_is_used_only_at_the_seats_it_was_fitted_at(seats: int) -> None:
    """The four-seat model carried to six seats dropped far too often (it measured -15 a deal
    against medium): there hard keeps the values table."""
    rules = get_preset("nepali", players=seats)
    deal = ShowDeal(rules, "seats", dealer=0)
    seat = deal.to_play
    assert seat is not None
    assert drop_models().value(deal.view(seat), HandReader(rules)) is None
    assert model_key(rules, seats, "first") == f"pure/{seats}/first"


def test_the_ridge_fit_finds_a_linear_rule_and_cross_validation_never_sees_its_own_deal() -> None:
    study = load()
    rng = random.Random(7)
    truth = [rng.uniform(-3, 3) for _ in MEASURES]
    rows = []
    for deal in range(200):
        for st in ("first", "later"):
            x = [rng.uniform(0, 10) for _ in MEASURES]
            net = 4.0 + sum(w * v for w, v in zip(truth, x, strict=True))
            rows.append({"x": x, "net": net, "stage": st, "deal": deal})
    model = study.fit_ridge(rows, lam=1e-6)
    for probe in ([1.0] * len(MEASURES), [9.0, *[2.0] * (len(MEASURES) - 1)]):
        want = 4.0 + sum(w * v for w, v in zip(truth, probe, strict=True))
        assert model.predict(probe) == pytest.approx(want, abs=1e-3)
    # a deal's rows are judged by models that never saw them: poisoning one deal's nets changes
    # only the other folds' predictions
    clean = study.cross_validated(rows)
    poisoned = [dict(r, net=r["net"] + 1000.0) if r["deal"] == 3 else r for r in rows]
    dirty = study.cross_validated(poisoned)
    for r, a, b in zip(rows, clean, dirty, strict=True):
        if r["deal"] % 5 == 3:
            assert a == pytest.approx(b)


def test_the_study_judges_each_rule_on_the_same_hands() -> None:
    study = load()
    rows = [
        # a hand that loses 60 if played on: dropping at its first decision saves 40
        {"deal": 0, "subject": 0, "idx": 0, "cost": 20, "net": -60.0},
        {"deal": 0, "subject": 0, "idx": 1, "cost": 40, "net": -60.0},
        # a hand that wins 30
        {"deal": 1, "subject": 0, "idx": 0, "cost": 20, "net": 30.0},
    ]
    got, dropped = study.judge(rows, [False, True, False])  # drops the first hand at its second turn
    assert got == {(0, 0): -40.0, (1, 0): 30.0} and dropped == {(0, 0)}
    got, dropped = study.judge(rows, [True, True, True])
    assert got == {(0, 0): -20.0, (1, 0): -20.0} and dropped == {(0, 0), (1, 0)}


def test_the_study_runs_and_bad_arguments_get_one_clear_error(tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH),
            "--seats",
            "4",
            "--deals",
            "10",
            "--workers",
            "1",
            "--positions",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "| foresight (sees the deal's end) |" in done.stdout and "| medium" in done.stdout
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and all(len(r["x"]) == len(MEASURES) for r in rows)
    again = subprocess.run(
        [sys.executable, str(BENCH), "--from", str(out)], capture_output=True, text=True, timeout=300
    )
    assert again.returncode == 0 and again.stdout == done.stdout
    bad = subprocess.run(
        [sys.executable, str(BENCH), "--deals", "0"], capture_output=True, text=True, timeout=60
    )
    last = bad.stderr.strip().splitlines()[-1]
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert last == "drop_study.py: error: --deals must be 1 to 1,000,000, not 0"
    missing = subprocess.run(
        [sys.executable, str(BENCH), "--from", str(tmp_path / "nowhere.jsonl")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert "--from" in missing.stderr.strip().splitlines()[-1]
