"""The small strength check CI runs: easy < medium < hard, by a wide margin, on a seeded match.

The full measurement (thousands of duplicate deals against the baselines) is
``benchmarks/bots_bench.py``; this plays a few duplicate decks at one three-seat table where
each level sits in every seat in turn, and checks only the order.  A budget far above what the
search needs keeps the run deterministic.
"""

from __future__ import annotations

from rummykit.cli.tournament_cmd import Plan, summary, tournament
from rummykit.engine.rules import get_preset


def test_easy_medium_hard_in_order() -> None:
    rules = get_preset("nepali", players=3)
    plan = Plan(rules, ("easy", "medium", "hard"), "ci-strength", True, budget_ms=10_000.0)
    data = summary(plan, tournament(plan, 14, 1), 0.0, 1)
    points = {name: b["points_per_deal"] for name, b in data["bots"].items()}
    assert data["plays"] == 42
    assert points["easy"] + 5 < points["medium"]
    assert points["medium"] + 2 < points["hard"]
    assert data["bots"]["easy"]["drops"] == 0
