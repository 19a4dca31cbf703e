"""The small strength check CI runs at the table family: seeded two-seat duplicate matches at
Rummy 40.

Easy, which throws a random loose card much of the time, ends far below medium: that order is
checked with a wide margin.  Medium, hard and expert are a few points a deal apart (measured
over hundreds of duplicate decks by ``benchmarks/bots_bench.py --rules rummy40,remi51``, see
BENCHMARKS.md): a match CI can afford cannot resolve those gaps, so here each level need only
not fall clearly behind the one below it.
The budgets are far above what the bots need, so the run is deterministic.
"""

from __future__ import annotations

from rummykit.cli.tournament_cmd import Plan, summary, tournament
from rummykit.engine.rules import get_preset

RUMMY40 = get_preset("rummy40", players=2)


def points(bots: tuple[str, str], decks: int) -> dict[str, float]:
    plan = Plan(RUMMY40, bots, "ci-table-strength", True, budget_ms=10_000.0)
    data = summary(plan, tournament(plan, decks, 1), 0.0, 1)
    assert data["deals"] == 2 * decks
    return {name: b["points_per_deal"] for name, b in data["bots"].items()}


def test_easy_is_far_below_medium_at_rummy40() -> None:
    got = points(("easy", "medium"), 40)
    assert got["easy"] + 6 < got["medium"]


def test_hard_is_not_clearly_below_medium_at_rummy40() -> None:
    got = points(("hard", "medium"), 40)
    assert got["hard"] > got["medium"] - 8


def test_expert_is_not_clearly_below_hard_at_rummy40() -> None:
    got = points(("expert", "hard"), 40)
    assert got["expert"] > got["hard"] - 8
