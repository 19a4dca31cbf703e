"""The pool lines of ``benchmarks/bots_bench.py``: whole matches with and without rejoins.

What the lines measure is the benchmark's to say (BENCHMARKS.md), not a test's."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from bench_scripts import load_benchmark
from rummykit.bots import rejoin_always


@pytest.mark.parametrize(("rejoins", "policy"), [("always", rejoin_always), ("none", None)])
def test_a_pool_line_plays_its_matches_with_the_rejoin_regime_it_names(
    monkeypatch: pytest.MonkeyPatch, rejoins: str, policy: object
) -> None:
    bench = load_benchmark("bots_bench")
    seen: list[object] = []
    real = bench.play_match

    def spy(session: Any, players: Any, *, rejoin: Any) -> Any:
        seen.append(rejoin)
        return real(session, players, rejoin=rejoin)

    monkeypatch.setattr(bench, "play_match", spy)
    scores = bench._pool_chunk(("pool101", 2, "easy", "greedy", "t", 0, 2, rejoins))
    assert len(scores) == 2 and all(s in (0.0, 0.25, 0.5, 0.75, 1.0) for s in scores)
    assert seen == [policy] * 4  # two match seeds, each played from both seatings


def test_an_unknown_rejoin_regime_is_refused_before_any_match_is_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bench = load_benchmark("bots_bench")
    monkeypatch.setattr(bench, "_pool_chunk", lambda task: pytest.fail("no match may be played"))
    argv = ["bots_bench.py", "--pools", "pool101", "--seats", "2", "--rejoins", "sometimes", "--no-write"]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit, match="--rejoins: always, none or both"):
        bench.main()
