"""Groups and shows against the seeds' sentences (000, 002, 004, and 001/003 for joker limits)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.engine.cards import JOKER, kind, parse_cards, rank_of, suit_of
from rummykit.engine.groups import (
    GroupCheck,
    GroupRules,
    arrangement_charge,
    card_value,
    check_group,
    check_show,
    is_wild,
    lives,
    opening_value,
)
from rummykit.engine.rules import Rules, get_preset

NEPALI = get_preset("nepali")
INDIAN = get_preset("indian")
KERALA = get_preset("kerala")
NORTH = get_preset("north-indian")
RUMMY40 = get_preset("rummy40")
REMI51 = get_preset("remi51")


def group(text: str, rules: GroupRules = INDIAN, wild: int | None = None) -> GroupCheck:
    return check_group(parse_cards(text), rules, wild)


def groups(text: str) -> list[list[int]]:
    return [parse_cards(g) for g in text.split("|")]


def why(text: str, rules: GroupRules = INDIAN, wild: int | None = None) -> str:
    """The rule part of the reason, after the cards it names."""
    c = group(text, rules, wild)
    assert not c.ok
    cards, _, rule = c.reason.partition(": ")
    assert cards == text
    return rule


# ---------------------------------------------------------------- seed 000 (nepali)


def test_000_four_five_and_six_of_hearts_is_a_run_with_no_joker() -> None:
    c = group("4h 5h 6h", NEPALI, wild=7)
    assert (c.ok, c.kind, c.pure, c.is_run, c.naturals, c.jokers) == (True, "run", True, True, 3, 0)
    assert c.reason == ""


def test_000_five_to_eight_of_spades_is_a_run_of_four() -> None:
    c = group("5s 6s 7s 8s", NEPALI)
    assert c.ok and c.pure and c.length == 4


def test_000_the_six_is_a_heart_and_the_other_two_are_spades_not_a_run() -> None:
    assert why("6h 7s 8s", NEPALI) == "a run is one suit"


def test_000_both_nines_of_spades_a_set_takes_one_card_per_suit() -> None:
    assert why("9s 9s 9h", NEPALI) == "a set takes one card per suit"


def test_000_both_nines_of_spades_can_sit_in_two_separate_runs_of_spades() -> None:
    assert group("8s 9s 10s", NEPALI).ok and group("9s 10s Js", NEPALI).ok


def test_000_three_nines_in_three_different_suits_is_a_set() -> None:
    c = group("9s 9h 9c", NEPALI)
    assert (c.ok, c.kind, c.pure, c.is_run) == (True, "set", False, False)


def test_000_four_is_as_big_as_a_set_can_be() -> None:
    assert group("9s 9h 9d 9c", NEPALI).ok
    assert why("9s 9h 9d 9c JK", NEPALI) == "a set has at most 4 cards"


def test_000_with_the_five_of_diamonds_cut_three_four_five_of_diamonds_is_a_clean_run() -> None:
    c = group("3d 4d 5d", NEPALI, wild=5)
    assert (c.ok, c.kind, c.pure, c.naturals, c.jokers) == (True, "run", True, 3, 0)


def test_000_printed_jokers_cannot_be_their_own_plain_self() -> None:
    c = group("3d 4d JK", NEPALI, wild=5)
    assert c.ok and not c.pure and c.jokers == 1


def test_000_five_of_hearts_a_joker_seven_of_hearts_the_joker_stands_for_the_six() -> None:
    c = group("5h JK 7h", NEPALI, wild=2)
    assert (c.ok, c.kind, c.pure, c.naturals, c.jokers) == (True, "run", False, 2, 1)
    assert c.stands_for == tuple(parse_cards("5h 6h 7h"))


def test_000_three_or_more_wild_cards_together_count_as_a_set_of_nothing() -> None:
    c = group("JK JK JK", NEPALI, wild=7)
    assert (c.ok, c.kind, c.is_run, c.pure, c.naturals, c.jokers) == (True, "jokers", False, False, 0, 3)
    assert c.stands_for is None
    # A wild seven may play as itself, and any run beats a set of nothing.
    assert group("JK 7d JK", NEPALI, wild=7).kind == "run"
    assert group("JK JK JK JK", NEPALI, wild=2).kind == "jokers"  # no limit of four, unlike a set


def test_000_a_set_of_nothing_is_invalid_in_indian() -> None:
    assert "needs a natural card" in why("JK JK JK", INDIAN, wild=7)


def test_000_a_set_of_nothing_never_counts_as_a_run() -> None:
    show = check_show(groups("Ah 2h 3h | 4s 5s 6s | JK JK JK"), NEPALI, wild=None)
    assert show.ok and show.runs == 2
    short = check_show(groups("Ah 2h 3h | JK JK JK | 9s 9h 9d"), NEPALI, wild=None)
    assert (short.ok, short.reason, short.runs) == (False, "needs 2 runs, has 1", 1)


def test_000_the_ace_in_a_run_below_the_two_and_above_the_king() -> None:
    assert group("Ah 2h 3h", NEPALI).ok
    assert group("Qh Kh Ah", NEPALI).ok
    low_only = NEPALI.replace(ace_high=False)
    assert group("Ah 2h 3h", low_only).ok
    assert why("Qh Kh Ah", low_only) == "the ace is only low here: a run cannot go from king to ace"


def test_000_a_hand_with_no_clean_run_cannot_show() -> None:
    show = check_show(groups("4h JK 6h | 7s 8s JK | 9s 9h 9d | Kd Kc Ks Kh"), NEPALI, wild=None)
    assert (show.ok, show.reason, show.has_pure, show.runs) == (False, "no pure run", False, 2)


def test_000_an_ace_is_ten_and_wild_cards_are_charged_nothing() -> None:
    values = [card_value(k, NEPALI, 7) for k in parse_cards("As 2s 9s 10s Js Qs Ks 7d JK")]
    assert values == [10, 2, 9, 10, 10, 10, 10, 0, 0]


def test_000_pure_credit_loose_cards_with_a_clean_run_every_card_without() -> None:
    # Nepali credits the groups as soon as there is a clean run, even without a second run.
    arranged = groups("4h 5h 6h | 9s 9h 9d")
    loose = parse_cards("Kc Qd 3c 2h 5s 8d As")
    assert arrangement_charge(arranged, loose, NEPALI, None) == 48
    no_clean = groups("4h JK 6h | 9s 9h 9d")
    assert arrangement_charge(no_clean, loose, NEPALI, None) == 80  # 27 + 10 + 48 = 85, capped
    # RULES.md: a hand of low cards with no clean run is charged what it holds when under 80.
    low = parse_cards("2s 3s 5d 6d 8c 9c 10c 4s 5s 6c")
    assert arrangement_charge(groups("2h JK 4h"), low, NEPALI, None) == 64


# ---------------------------------------------------------------- seed 002 (indian)


def test_002_seven_eight_nine_of_clubs_is_pure_and_seven_joker_nine_is_impure() -> None:
    assert group("7c 8c 9c", INDIAN, wild=5).pure
    c = group("7c JK 9c", INDIAN, wild=5)
    assert c.ok and c.is_run and not c.pure and c.stands_for == tuple(parse_cards("7c 8c 9c"))


def test_002_eight_hearts_eight_hearts_eight_clubs_is_not_a_valid_set() -> None:
    assert why("8h 8h 8c", INDIAN) == "a set takes one card per suit"


def test_002_a_run_does_not_wrap_from_k_to_a_to_2() -> None:
    assert why("Kc Ac 2c", INDIAN) == "a run cannot turn the corner from king to ace to two"
    assert why("Kc JK 2c", INDIAN) == "a run cannot turn the corner from king to ace to two"


def test_002_the_worked_hand_with_j_spades_as_finishing_card_is_a_valid_show() -> None:
    # Wild joker 5c, so every 5 is wild; 4c 5c 6c keeps 5c as itself and stays pure.
    show = check_show(groups("Ah 2h 3h | 4c 5c 6c | 7s 8s 5d 10s | Kd Kc Kh"), INDIAN, wild=5, hand_size=13)
    assert (show.ok, show.reason, show.has_pure, show.runs, show.has_long) == (True, "", True, 3, True)
    pure = [g.pure for g in show.groups]
    assert pure == [True, True, False, False]
    assert show.groups[2].stands_for == tuple(parse_cards("7s 8s 9s 10s"))


def test_002_four_perfect_sets_and_no_sequence_is_invalid() -> None:
    show = check_show(groups("2s 2h 2d | 3s 3h 3d | 4s 4h 4d 4c | 5s 5h 5d"), INDIAN, wild=None)
    assert show.reason == "no pure run"


def test_002_two_impure_sequences_and_no_pure_one_is_invalid() -> None:
    show = check_show(groups("2s JK 4s | 6h 7h JK | 9s 9h 9d | Kd Kc Ks Kh"), INDIAN, wild=None)
    assert show.reason == "no pure run"


def test_002_one_pure_sequence_alone_is_not_two_sequences() -> None:
    show = check_show(groups("2s 3s 4s | 6h 6d 6c | 9s 9h 9d | Kd Kc Ks Kh"), INDIAN, wild=None)
    assert (show.ok, show.reason) == (False, "needs 2 runs, has 1")


def test_002_a_show_lays_out_all_thirteen_cards() -> None:
    show = check_show(groups("Ah 2h 3h | 4c 5c 6c | Kd Kc Kh"), INDIAN, wild=5, hand_size=13)
    assert show.reason == "a show lays out all 13 cards, these groups hold 9"


def test_002_an_invalid_group_is_the_reason_for_a_wrong_show() -> None:
    show = check_show(groups("Ah 2h 3h | 4c 5c 6c | 7s 8s 5d 10s | 8h 8h 8c"), INDIAN, wild=5)
    assert show.reason == "8h 8h 8c: a set takes one card per suit"


# ---------------------------------------------------------------- seed 004 (kerala, online, north indian)


def test_004_if_sevens_are_wild_six_seven_eight_of_clubs_is_still_pure() -> None:
    c = group("6c 7c 8c", KERALA, wild=7)
    assert (c.ok, c.pure, c.naturals, c.jokers) == (True, True, 3, 0)


def test_004_nine_ten_of_spades_and_a_joker_standing_in_for_the_jack_is_impure() -> None:
    c = group("9s 10s 7c", KERALA, wild=7)
    assert (c.ok, c.pure, c.jokers) == (True, False, 1)
    assert c.stands_for == tuple(parse_cards("9s 10s Js"))


def test_004_jokers_can_fill_a_set_too_but_two_of_one_suit_never() -> None:
    assert group("8s 8h JK", KERALA).ok
    assert why("8s 8s 8h", KERALA) == "a set takes one card per suit"


PURE = "4h 5h 6h"
SECOND = "9s 10s 7c"
LOOSE = "Kc Qd As 8d 3c 2h 5s"


@pytest.mark.parametrize("rules", [INDIAN, NEPALI, KERALA], ids=["indian", "nepali", "kerala"])
def test_004_with_both_lives_you_count_the_seven_loose_cards_48(rules: Rules) -> None:
    assert arrangement_charge(groups(f"{PURE} | {SECOND}"), parse_cards(LOOSE), rules, 7) == 48


def test_004_without_a_second_life_online_counts_every_card_except_the_pure_sequence_67() -> None:
    loose = parse_cards(f"{SECOND} {LOOSE}")
    assert arrangement_charge(groups(PURE), loose, INDIAN, 7) == 67


def test_004_without_a_second_life_a_kerala_table_counts_a_flat_100() -> None:
    loose = parse_cards(f"{SECOND} {LOOSE}")
    assert arrangement_charge(groups(PURE), loose, KERALA, 7) == 100


def test_004_with_no_pure_sequence_every_card_counts_82_held_to_80() -> None:
    assert arrangement_charge([], parse_cards(f"{PURE} {SECOND} {LOOSE}"), INDIAN, 7) == 80
    no_cap = INDIAN.replace(full_count=None)
    assert arrangement_charge([], parse_cards(f"{PURE} {SECOND} {LOOSE}"), no_cap, 7) == 82
    assert arrangement_charge(groups(SECOND), parse_cards(f"{PURE} {LOOSE}"), no_cap, 7) == 82


def test_004_lives_except_pure_subtracts_every_pure_run() -> None:
    # Two pure runs and not enough runs (three needed): both pure runs are credited.
    three = INDIAN.replace(runs_needed=3)
    arranged = groups("4h 5h 6h | 9s 10s Js")
    assert arrangement_charge(arranged, parse_cards(LOOSE), three, 7) == 48


def test_004_always_credits_every_valid_group() -> None:
    assert arrangement_charge(groups(SECOND), parse_cards(LOOSE), RUMMY40, 7) == 49  # ace 11


def test_004_north_indian_at_most_one_joker_in_a_group() -> None:
    assert group("5s JK 7s", NORTH).ok
    assert why("5s JK JK 8s", NORTH) == "too many jokers in one group (at most 1)"
    assert why("5s 5h JK JK", NORTH) == "too many jokers in one group (at most 1)"


def test_004_north_indian_one_of_the_sequences_must_have_four_or_more_cards() -> None:
    short = groups("Ah 2h 3h | 4c 5c 6c | 7s 8s 5d | Kd Kc Kh Ks")
    long_ = groups("Ah 2h 3h | 4c 5c 6c | 7s 8s 5d 10s | Kd Kc Kh")
    assert check_show(short, NORTH, wild=5).reason == "needs a run of four or more cards"
    assert check_show(short, INDIAN, wild=5).ok
    assert check_show(long_, NORTH, wild=5).ok


def test_004_north_indian_a_flat_80_without_both_lives() -> None:
    short = groups("Ah 2h 3h | 4c 5c 6c | 7s 8s 5d")
    loose = parse_cards("Kd Kc 2s 3d")
    assert arrangement_charge(short, loose, NORTH, 5) == 80
    assert arrangement_charge(short, loose, INDIAN, 5) == 25


def test_004_thennaali_three_of_the_very_same_card_count_as_a_pure_sequence() -> None:
    three_packs = KERALA.replace(players=7)
    assert three_packs.packs == 3
    c = group("9d 9d 9d", three_packs)
    assert (c.ok, c.kind, c.pure, c.is_run, c.naturals) == (True, "thennaali", True, True, 3)
    assert group("5d 5d 5d", three_packs, wild=5).kind == "thennaali"  # as themselves, pure
    assert why("9d 9d 9d", INDIAN) == "a set takes one card per suit"
    assert check_show(groups("9d 9d 9d | 4c 5c 6c | JK 8s 9s | Kd Kc Kh Ks"), three_packs, None).ok


# ---------------------------------------------------------------- seeds 001 / 003: joker limits as settings


def test_003_in_a_run_no_two_jokers_may_sit_side_by_side() -> None:
    assert why("5h JK JK 8h", RUMMY40) == "two jokers side by side"
    assert group("5h JK 7h JK 9h", RUMMY40).ok
    assert group("5h JK JK 8h", INDIAN).ok  # show family: adjacent jokers are fine


def test_003_jokers_at_both_ends_are_not_side_by_side() -> None:
    c = group("5h 6h JK JK", RUMMY40)  # JK 5 6 JK = 4-5-6-7
    assert c.ok and sorted(c.stands_for or ()) == sorted(parse_cards("4h 5h 6h 7h"))


def test_003_every_meld_needs_two_natural_cards_7s_7h_joker_joker_is_legal() -> None:
    assert group("7s 7h JK JK", RUMMY40).ok
    assert why("7s JK JK", RUMMY40) == "needs at least 2 natural cards"


def test_001_a_set_holds_one_joker_at_most() -> None:
    assert group("10d 10c JK", REMI51).ok
    assert group("10d 10c JK 10s", REMI51).ok
    assert why("10d JK 10c JK", REMI51) == "too many jokers in a set (at most 1)"


def test_001_ace_after_king_but_not_continued_by_two() -> None:
    assert group("Qh Kh Ah", REMI51).ok
    assert why("Kh Ah 2h", REMI51) == "a run cannot turn the corner from king to ace to two"


# ---------------------------------------------------------------- settings and edge cases


def test_a_run_never_goes_below_ace_low_or_above_ace_high() -> None:
    assert group("Ah 2h JK", INDIAN).stands_for == tuple(parse_cards("Ah 2h 3h"))
    assert group("Kh Ah JK", INDIAN).stands_for == tuple(parse_cards("Kh Ah Qh"))
    assert group("JK JK Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh", INDIAN).stands_for[:2] == (  # type: ignore[index]
        kind(1, 12),
        kind(1, 13),
    )
    assert why("JK JK 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh", INDIAN) == "a run has at most 13 cards"
    assert why("JK Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh", INDIAN) == "a run has at most 13 cards"
    assert why("Ah 2h Qh", INDIAN.replace(ace_high=False)) == "a run is consecutive ranks"


def test_wrap_makes_king_ace_two_a_run() -> None:
    wrap = INDIAN.replace(wrap=True)
    assert group("Kc Ac 2c", wrap).pure
    assert group("Qc Kc Ac 2c 3c", wrap).ok
    assert group("Kc JK 2c", wrap).stands_for == tuple(parse_cards("Kc Ac 2c"))
    every = "5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2c 3c 4c"
    assert group(every, wrap).pure


def test_a_group_has_at_least_three_cards() -> None:
    assert why("4h 5h", INDIAN) == "a group has at least 3 cards"
    assert group("", INDIAN).reason == "no cards: a group has at least 3 cards"


def test_gaps_the_jokers_cannot_fill() -> None:
    assert why("4h 9h JK", INDIAN) == "a run is consecutive ranks, and the jokers cannot fill the gaps"
    assert why("4h 5h 5h", INDIAN) == "a run holds one card of each rank"
    assert why("6h 7s Kd", INDIAN) == "a group is one suit in a row (a run) or one rank (a set)"


def test_a_wild_rank_card_may_play_as_itself_or_stand_in() -> None:
    # wild 7: 7h natural keeps 6h 7h 8h pure; 7s stands in for 9h.
    assert group("6h 7h 8h", INDIAN, wild=7).pure
    c = group("6h 7s 8h", INDIAN, wild=7)
    assert (c.pure, c.jokers, c.stands_for) == (False, 1, tuple(parse_cards("6h 7h 8h")))
    # Wild sevens of three suits: prefer a run (7s as itself) over the natural set of sevens.
    c = group("7d 7h 7s", INDIAN, wild=7)
    assert (c.kind, c.is_run, c.pure, c.naturals) == ("run", True, False, 1)
    # With one stand-in a group at most, that run is out and the sevens are a natural set.
    c = group("7d 7h 7s", NORTH, wild=7)
    assert (c.kind, c.naturals, c.jokers, c.stands_for) == ("set", 3, 0, tuple(parse_cards("7d 7h 7s")))
    assert why("7d 7h JK JK", NORTH, wild=7) == "too many jokers in one group (at most 1)"
    c = group("7d 7h 7h JK", INDIAN.replace(max_jokers_per_group=2), wild=7)
    assert (c.kind, c.naturals, c.jokers) == ("set", 2, 2)
    assert is_wild(kind(0, 7), 7) and is_wild(JOKER, None) and not is_wild(kind(0, 7), None)


def test_lives_counts_runs_pure_runs_and_long_runs() -> None:
    lv = lives(groups("Ah 2h 3h | 4c JK 6c 7c | 9s 9h 9d"), INDIAN, None)
    assert (lv.has_pure, lv.runs, lv.has_long) == (True, 2, True)
    assert lv.complete(INDIAN) and not lv.complete(INDIAN.replace(runs_needed=3))


def test_arrangement_charge_refuses_an_invalid_group() -> None:
    with pytest.raises(ValueError, match="a set takes one card per suit"):
        arrangement_charge(groups("8h 8h 8c"), [], INDIAN, None)


# ---------------------------------------------------------------- properties

RULES = [
    NEPALI,
    INDIAN,
    KERALA,
    NORTH,
    RUMMY40,
    REMI51,
    INDIAN.replace(wrap=True),
    NEPALI.replace(ace_high=False),
]


@st.composite
def candidate_groups(draw: st.DrawFn) -> tuple[list[int], int | None]:
    """Mostly natural runs and sets with some cards swapped for wild cards, sometimes anything."""
    wild = draw(st.none() | st.integers(1, 13))
    shape = draw(st.sampled_from(["run", "set", "any"]))
    if shape == "run":
        suit = draw(st.integers(0, 3))
        length = draw(st.integers(3, 13))
        start = draw(st.integers(1, 14 - length + 1))
        cards = [kind(suit, r if r <= 13 else 1) for r in range(start, start + length)]
    elif shape == "set":
        rank = draw(st.integers(1, 13))
        suits = draw(st.lists(st.integers(0, 3), min_size=3, max_size=4, unique=True))
        cards = [kind(s, rank) for s in suits]
    else:
        cards = draw(st.lists(st.integers(0, 52), min_size=3, max_size=6))
    wild_cards = [JOKER] + ([kind(s, wild) for s in range(4)] if wild else [])
    swaps = draw(st.lists(st.tuples(st.integers(0, len(cards) - 1), st.sampled_from(wild_cards)), max_size=4))
    for i, w in swaps:
        cards[i] = w
    return cards, wild


@settings(max_examples=400, deadline=None)
@given(candidate_groups(), st.sampled_from(RULES))
def test_a_valid_groups_stands_for_cards_form_a_natural_run_or_set(
    case: tuple[list[int], int | None], rules: Rules
) -> None:
    cards, wild = case
    c = check_group(cards, rules, wild)
    if not c.ok or c.stands_for is None:
        return
    sf = list(c.stands_for)
    assert len(sf) == len(cards)
    # Natural (non-wild) cards always play as themselves.
    for k, s in zip(cards, sf, strict=True):
        if not is_wild(k, wild):
            assert s == k
    assert JOKER not in sf
    back = check_group(sf, rules.replace(min_naturals=0), None)
    assert back.ok and back.jokers == 0, back.reason
    assert back.is_run == c.is_run
    if c.is_run and c.kind == "run":
        assert len({suit_of(k) for k in sf}) == 1 and len({rank_of(k) for k in sf}) == len(sf)
    if c.kind == "set":
        assert len({rank_of(k) for k in sf}) == 1 and len({suit_of(k) for k in sf}) == len(sf)
    assert c.naturals + c.jokers == c.length == len(cards)


@settings(max_examples=400, deadline=None)
@given(candidate_groups(), st.sampled_from(RULES), st.randoms(use_true_random=False))
def test_check_group_does_not_depend_on_the_order_of_the_cards(
    case: tuple[list[int], int | None], rules: Rules, rnd: random.Random
) -> None:
    cards, wild = case
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    a, b = check_group(cards, rules, wild), check_group(shuffled, rules, wild)
    assert (a.ok, a.kind, a.pure, a.is_run, a.naturals, a.jokers, a.length) == (
        b.ok,
        b.kind,
        b.pure,
        b.is_run,
        b.naturals,
        b.jokers,
        b.length,
    )
    assert a.reason.partition(": ")[2] == b.reason.partition(": ")[2]
    assert sorted(a.stands_for or ()) == sorted(b.stands_for or ())


# ---- opening values (seed 003, seed 001) ---------------------------------------------


def test_seed003_kings_and_a_heart_run_make_48() -> None:
    """'K♠ K♥ K♦ (30) plus 5♥ 6♥ 7♥ (18) makes 48: enough to open at 30 or 40, short of 51.'"""
    rules = get_preset("rummy40")
    kings = opening_value(parse_cards("K♠ K♥ K♦"), rules, None)
    hearts = opening_value(parse_cards("5♥ 6♥ 7♥"), rules, None)
    assert (kings, hearts, kings + hearts) == (30, 18, 48)
    assert 30 <= 48 and 40 <= 48 < 51


def test_seed003_three_aces_are_worth_33() -> None:
    """'Three aces in a set are worth 33.'"""
    assert opening_value(parse_cards("As Ah Ad"), get_preset("rummy40"), None) == 33


def test_seed003_ace_is_1_low_and_11_high_and_a_joker_is_the_card_it_stands_for() -> None:
    """'Ace: 11 in a set or at the high end of a run; 1 in A-2-3.  Joker: the card it stands for.'"""
    rules = get_preset("rummy40")
    assert opening_value(parse_cards("Ah 2h 3h"), rules, None) == 6
    assert opening_value(parse_cards("Qh Kh Ah"), rules, None) == 31
    assert opening_value(parse_cards("Qh JK Ah"), rules, None) == 31
    assert opening_value(parse_cards("7s 7h JK"), rules, None) == 21


def test_seed001_remi_counts_ace_king_queen_jack_ten_as_10() -> None:
    """'Ace (A), King (K), Queen (Q), Gendarme (J) and Ten 10 are worth 10 points each.'"""
    rules = get_preset("remi51")
    assert opening_value(parse_cards("As Ah Ad"), rules, None) == 30
    assert opening_value(parse_cards("Ah 2h 3h"), rules, None) == 15
    assert opening_value(parse_cards("5c 6c JK 8c"), rules, None) == 26
