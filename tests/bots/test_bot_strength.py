"""The small strength check CI runs: a seeded three-seat duplicate match of easy, medium and hard.

Each level sits in every seat in turn on the same decks.  Easy, which never drops and throws
carelessly, ends far below both others: that order is checked with a wide margin.  Medium and
hard are a few points a deal apart (+3.5 and +5.8 a deal against greedy at two seats, measured
over 2,000 duplicate decks by ``benchmarks/bots_bench.py``, see BENCHMARKS.md): a match CI can
afford cannot resolve that gap, so here hard need only not fall clearly behind medium.  A
budget far above what the search needs keeps the run deterministic.
"""

from __future__ import annotations

from rummykit.cli.tournament_cmd import Plan, summary, tournament
from rummykit.engine.rules import get_preset


def test_easy_is_far_below_medium_and_hard() -> None:
    rules = get_preset("nepali", players=3)
    plan = Plan(rules, ("easy", "medium", "hard"), "ci-strength", True, budget_ms=10_000.0)
    data = summary(plan, tournament(plan, 14, 1), 0.0, 1)
    points = {name: b["points_per_deal"] for name, b in data["bots"].items()}
    assert data["deals"] == 42
    assert points["easy"] + 15 < points["medium"]
    assert points["easy"] + 15 < points["hard"]
    assert points["hard"] > points["medium"] - 12
    assert data["bots"]["easy"]["drops"] == 0
    assert data["bots"]["medium"]["drops"] > 0 and data["bots"]["hard"]["drops"] > 0
