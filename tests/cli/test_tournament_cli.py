"""``rummykit tournament``: the command-line contract of issue 4."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rummykit.cli.main import main


def tournament_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["tournament", *argv, "--json"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    assert len(lines) == 1
    assert captured.err == ""  # no progress bar when stderr is not a terminal
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    return data


def strength(data: dict[str, Any]) -> dict[str, tuple[float, int, int]]:
    """Per bot, the figures that do not depend on the clock."""
    return {n: (b["points_per_deal"], b["deals_won"], b["drops"]) for n, b in data["bots"].items()}


def test_json_shape_and_duplicate(capsys: pytest.CaptureFixture[str]) -> None:
    data = tournament_json(
        capsys, "--rules", "nepali", "--seats", "2", "--bots", "easy,greedy", "--deals", "12", "--duplicate"
    )
    assert data["decks"] == 12 and data["deals"] == 24  # every deck twice, the seats swapped
    assert [(s["seat"], s["bot"]) for s in data["seats"]] == [(1, "easy"), (2, "greedy")]
    bots = data["bots"]
    assert set(bots) == {"easy", "greedy"}
    for b in bots.values():
        lo, hi = b["ci95"]
        assert lo <= b["points_per_deal"] <= hi
        assert 0 <= b["deal_win_rate"] <= 1
        assert b["p99_ms"] >= b["median_ms"] >= 0
        assert 0 <= b["late"] <= b["decisions"]  # past the clock: a count, never asserted zero
    # two seats, one bot each, every deck both ways: the nets are opposite and the wins add up
    assert bots["easy"]["points_per_deal"] == pytest.approx(-bots["greedy"]["points_per_deal"], abs=1e-6)
    assert bots["easy"]["deals_won"] + bots["greedy"]["deals_won"] == 24
    assert bots["easy"]["drops"] == 0  # easy never drops


def test_the_figures_do_not_depend_on_the_workers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--seats", "4", "--bots", "medium,easy", "--deals", "6", "--seed", "9", "--duplicate"]
    one = tournament_json(capsys, *argv, "--workers", "1")
    two = tournament_json(capsys, *argv, "--workers", "2")
    assert strength(one) == strength(two)
    assert one["deals"] == 12  # medium,easy,medium,easy has two distinct rotations


def test_human_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "easy,random", "--seats", "2", "--deals", "4"]) == 0
    out = capsys.readouterr().out
    assert "points/deal" in out and "p99 ms" in out and "easy" in out and "random" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "clever"], "unknown bot 'clever'"),
        (["--bots", "easy,medium,hard", "--seats", "2"], "3 bots for 2 seats"),
        (["--bots", ","], "--bots names no bot"),
        (["--deals", "0"], "--deals must be at least 1"),
        (["--rules", "rummy40", "--bots", "clever"], "unknown bot 'clever'"),
        (["--budget-ms", "soon"], "--budget-ms takes a number"),
    ],
)
def test_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(["tournament", *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("preset", ["rummy40", "remi51"])
def test_the_table_family_plays_its_own_levels(capsys: pytest.CaptureFixture[str], preset: str) -> None:
    # medium is an anytime search cut by its deadline: a budget no turn reaches makes the figures
    # independent of the machine's load, and so of the workers
    argv = ["--rules", preset, "--seats", "2", "--bots", "medium,easy", "--deals", "4", "--duplicate"]
    argv += ["--budget-ms", "600000"]
    data = tournament_json(capsys, *argv, "--workers", "1", "--seed", "t")
    assert data["rules"] == preset and data["deals"] == 8
    bots = data["bots"]
    assert set(bots) == {"medium", "easy"}
    # two seats: the nets are opposite (Remi 51: the difference the deal makes between the totals)
    assert bots["medium"]["points_per_deal"] == pytest.approx(-bots["easy"]["points_per_deal"], abs=1e-6)
    assert bots["medium"]["deals_won"] + bots["easy"]["deals_won"] == 8
    assert bots["medium"]["drops"] is bots["easy"]["drops"] is None  # no dropping at this family
    again = tournament_json(capsys, *argv, "--workers", "2", "--seed", "t")
    assert strength(again) == strength(data)


def test_remi_points_are_the_difference_between_the_two_totals() -> None:
    from rummykit.bots import make_player, play_deal
    from rummykit.cli.tournament_cmd import seat_net
    from rummykit.engine.rules import get_preset
    from rummykit.engine.table_deal import TableDeal

    rules = get_preset("remi51", players=2)
    deal = TableDeal(rules, "net", dealer=0)
    result = play_deal(deal, [make_player("greedy", s, rules) for s in range(2)])
    w = result.winner
    assert result.seats[w].charge in (-20, -40)
    assert seat_net(rules, result, w) == result.seats[1 - w].charge - result.seats[w].charge
    assert seat_net(rules, result, 1 - w) == -seat_net(rules, result, w)


def test_histories_write_both_rotations_of_sampled_decks_and_replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    folder = tmp_path / "hist"
    argv = ["--seats", "2", "--bots", "hard:worlds=4,medium", "--deals", "6", "--duplicate"]
    data = tournament_json(
        capsys, *argv, "--workers", "2", "--histories", str(folder), "--histories-sample", "2"
    )
    names = sorted(p.name for p in folder.iterdir())
    # decks 1 and 4 of 6, each in both seatings
    assert names == [f"deck-00000{d}-rotation-{r}.txt" for d in (1, 4) for r in (1, 2)]
    text = (folder / "deck-000004-rotation-2.txt").read_text()
    assert "name 0 medium" in text and "name 1 hard:worlds=4" in text and "match deck=4" in text
    assert main(["replay", str(folder / "deck-000004-rotation-2.txt")]) == 0
    assert "the result matches the history" in capsys.readouterr().out
    assert data["deals"] == 12


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--histories-sample", "3"], "--histories-sample needs --histories DIR"),
        (["--histories", "/proc/no-such-place"], "cannot write hand histories"),
        (["--bots", "hard:worlds=x"], "worlds takes int"),
    ],
)
def test_bad_histories_and_bot_options(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["tournament", *argv]) == 2
    assert message in capsys.readouterr().err
