"""The small strength check CI runs: a seeded four-seat duplicate match of the four levels.

Easy, medium, hard and expert each sit in every seat in turn on the same decks; the search bots
play a fixed number of worlds (``hard:worlds=8``), so every figure is deterministic whatever the
machine's load.  Easy, which never drops and throws carelessly, ends far below the three others:
that order is checked with a wide margin.  Medium, hard and expert are within a point or two a
deal of each other over hundreds of decks (``benchmarks/bots_bench.py``, BENCHMARKS.md: issue
14's target of hard clearly above medium and expert above hard is not reached), far less than a
match CI can afford resolves, so here the upper levels need only not fall clearly behind.
"""

from __future__ import annotations

from rummykit.cli.tournament_cmd import Plan, summary, tournament
from rummykit.engine.rules import get_preset

LEVELS = ("easy", "medium", "hard:worlds=8", "expert:worlds=8")


def test_easy_is_far_below_the_other_levels_and_none_falls_clearly_behind() -> None:
    rules = get_preset("nepali", players=4)
    plan = Plan(rules, LEVELS, "ci-ladder", True)
    data = summary(plan, tournament(plan, 10, 1), 0.0, 1)
    points = {name: b["points_per_deal"] for name, b in data["bots"].items()}
    easy, medium, hard, expert = (points[n] for n in LEVELS)
    assert data["deals"] == 40  # every deck in each of the four rotations
    assert easy + 15 < min(medium, hard, expert)
    assert hard > medium - 15 and expert > hard - 12
    drops = {name: b["drops"] for name, b in data["bots"].items()}
    assert drops["easy"] == 0 and all(drops[n] > 0 for n in LEVELS[1:])
