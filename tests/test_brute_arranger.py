"""The reference arranger on hands worked out by hand, against a literal enumeration, and the vectors."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from brute_arranger import BruteResult, brute_arrange, brute_finish
from rummykit.engine.cards import JOKER, RANK_TEXT, format_card, parse_cards
from rummykit.engine.groups import arrangement_charge, check_group, check_show
from rummykit.engine.rules import get_preset

NEPALI = get_preset("nepali")
INDIAN = get_preset("indian")
KERALA = get_preset("kerala")
NORTH = get_preset("north-indian")
SHOW_PRESETS = {"nepali": NEPALI, "indian": INDIAN, "kerala": KERALA, "north-indian": NORTH}

# Seed 002's worked hand: wild 5c, so every 5 is wild; J♠ is the finishing card.
WORKED_13 = "Ah 2h 3h 4c 5c 6c 7s 8s 5d 10s Kd Kc Kh"


def test_seed_002_worked_hand_shows_and_is_charged_nothing() -> None:
    assert brute_arrange(parse_cards(WORKED_13), INDIAN, 5) == BruteResult(0, True)
    assert brute_arrange(parse_cards(WORKED_13), NEPALI, 5) == BruteResult(0, True)


def test_seed_002_worked_hand_finishes_on_j_spades_or_seven_spades() -> None:
    # Throw J♠ as in the seed; or throw 7♠ and 8♠ 5♦ 10♠ J♠ is the impure run (8-9-10-J).
    # Any other throw breaks a group that nothing else can mend (the only spare wild is in use).
    assert brute_finish(parse_cards(WORKED_13 + " Js"), INDIAN, 5) == ["7s", "Js"]


def test_kerala_a_complete_hand_counts_2_and_3_when_twos_are_wild() -> None:
    assert brute_arrange(parse_cards(WORKED_13), KERALA, 5) == BruteResult(2, True)
    # Wild 2: 3h 4h 5h pure, 6c 7c 2s (8c), 9s 9h 9d, 10d Jd Qd Kd.
    hand = parse_cards("3h 4h 5h 6c 7c 2s 9s 9h 9d 10d Jd Qd Kd")
    assert brute_arrange(hand, KERALA, 2) == BruteResult(3, True)
    assert brute_arrange(hand, INDIAN, 2) == BruteResult(0, True)


def test_both_lives_leave_the_loose_cards_and_north_indian_wants_a_long_run() -> None:
    # Two pure runs and a set; Kd Ks 4d 8s loose = 32.  North Indian has no run of four: flat 80.
    hand = parse_cards("Ah 2h 3h 5c 6c 7c 9s 9h 9d Kd Ks 4d 8s")
    for rules in (NEPALI, INDIAN, KERALA):
        assert brute_arrange(hand, rules, None) == BruteResult(32, False)
    assert brute_arrange(hand, NORTH, None) == BruteResult(80, False)


def test_seed_004_counts_48_and_80_flat_in_north_indian() -> None:
    # Wild 7: 4h 5h 6h pure, 9s 10s 7c the second life, seven loose cards worth 48.
    hand = parse_cards("4h 5h 6h 9s 10s 7c Kc Qd As 8d 3c 2h 5s")
    for rules in (NEPALI, INDIAN, KERALA):
        assert brute_arrange(hand, rules, 7) == BruteResult(48, False)
    assert brute_arrange(hand, NORTH, 7) == BruteResult(80, False)


def test_no_pure_run_charges_every_card_capped() -> None:
    # Sets only: 9s 9h 9d and Ks Kh Kd, no run possible.  Every card: 27 + 30 + 2 + 3 + 4 = 66.
    hand = parse_cards("9s 9h 9d Ks Kh Kd 2c 3d 4s")
    assert brute_arrange(hand, INDIAN, None) == BruteResult(66, False)
    assert brute_arrange(hand, NEPALI, None) == BruteResult(66, False)
    assert brute_arrange(hand, KERALA, None) == BruteResult(100, False)  # flat full count


def test_small_hands_follow_the_credit_modes() -> None:
    hand = parse_cards("4h 5h 6h Ks")
    assert brute_arrange(hand, NEPALI, None).charge == 10  # pure run: loose only
    assert brute_arrange(hand, INDIAN, None).charge == 10  # pure run only: all but it
    assert brute_arrange(hand, KERALA, None).charge == 100  # no second life: flat
    assert brute_arrange([], INDIAN, None) == BruteResult(0, False)


def test_a_wild_card_left_loose_costs_nothing_but_joins_a_run_to_show() -> None:
    # Nepali: 2s..4s pure, 6h JK 8h, 9c 9d 9s, Qd Qc Qh JK: a show.
    hand = parse_cards("2s 3s 4s 6h JK 8h 9c 9d 9s Qd Qc Qh JK")
    assert brute_arrange(hand, NEPALI, None) == BruteResult(0, True)
    assert brute_finish(hand + parse_cards("Ah"), NEPALI, None) == ["Ah"]


# ---------------------------------------------------------------- against a literal enumeration


def literal_arrangements(
    cards: list[int], rules: Any, wild: int | None
) -> Iterator[tuple[list[list[int]], list[int]]]:
    """Every split of ``cards`` into valid groups and loose cards, with no memo and no pruning."""
    if not cards:
        yield [], []
        return
    first, later = cards[0], cards[1:]
    for groups, loose in literal_arrangements(later, rules, wild):
        yield groups, [first, *loose]
    for size in range(2, len(later) + 1):
        for picked in combinations(range(len(later)), size):
            group = [first, *(later[i] for i in picked)]
            if check_group(group, rules, wild).ok:
                rest = [k for i, k in enumerate(later) if i not in picked]
                for groups, loose in literal_arrangements(rest, rules, wild):
                    yield [group, *groups], loose


def literal_arrange(cards: list[int], rules: Any, wild: int | None) -> BruteResult:
    everything = list(literal_arrangements(cards, rules, wild))
    charge = min(arrangement_charge(g, loose, rules, wild) for g, loose in everything)
    can_show = any(not loose and check_show(g, rules, wild).ok for g, loose in everything)
    if rules.complete_hand_charge is not None and can_show:
        charge = rules.complete_hand_charge + (1 if wild == 2 else 0)
    return BruteResult(charge, can_show)


def meldy_hand(rng: random.Random, wild: int | None) -> list[int]:
    """Two or three small natural melds, some cards swapped for wild cards, and a stray card or two."""
    cards: list[int] = []
    for _ in range(rng.randint(2, 3)):
        if rng.random() < 0.6:
            suit, start, length = rng.randrange(4), rng.randint(1, 11), rng.randint(3, 4)
            cards += [suit * 13 + (start + i) % 13 for i in range(length)]  # may wrap past the ace
        else:
            rank = rng.randrange(13)
            cards += [s * 13 + rank for s in rng.sample(range(4), 3)]
    wilds = [JOKER] + ([s * 13 + wild - 1 for s in range(4)] if wild else [])
    cards = [rng.choice(wilds) if rng.random() < 0.2 else k for k in cards]
    cards = cards[: rng.randint(6, 9)]
    return cards + [rng.randrange(53) for _ in range(rng.randint(0, 1))]


@pytest.mark.parametrize("name", sorted(SHOW_PRESETS))
def test_memo_and_pruning_agree_with_a_literal_enumeration_on_small_hands(name: str) -> None:
    rules = SHOW_PRESETS[name].replace(runs_needed=1)  # so that small hands can show too
    rng = random.Random(name)
    for _ in range(40):
        wild = rng.choice([None, *range(1, 14)])
        cards = meldy_hand(rng, wild)
        assert brute_arrange(cards, rules, wild) == literal_arrange(cards, rules, wild), (
            [format_card(k) for k in cards],
            wild,
        )


# ---------------------------------------------------------------- the shared vectors

# a copy of ../shared/vectors/arrange.jsonl, kept with the tests so that they never skip
VECTORS = Path(__file__).resolve().parent / "data" / "arrange_vectors.jsonl"


def _vector_sample() -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in VECTORS.read_text().splitlines() if line.strip()]
    return lines[::15]


@pytest.mark.parametrize("rec", _vector_sample(), ids=lambda r: f"{r['rules']}-{r['hand']}")
def test_agrees_with_the_shared_vectors(rec: dict[str, Any]) -> None:
    rules = SHOW_PRESETS[rec["rules"]]
    wild = RANK_TEXT.index(rec["wild"]) if rec["wild"] else None
    hand = parse_cards(rec["hand"])
    if "finish" in rec:
        assert brute_finish(hand, rules, wild) == rec["finish"]
    else:
        assert brute_arrange(hand, rules, wild) == BruteResult(rec["charge"], rec["can_show"])
