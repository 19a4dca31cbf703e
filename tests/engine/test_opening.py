"""The table family's arranger: meld geometry, the best opening, the cheapest leftover.

The seed examples (001 Remi 51, 003 Rummy 40) are tests named after them; the searches are
checked against a brute force over every packing of valid groups, and against the exact
arranger (``credit=always`` charges the deadwood) on random hands.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import replace
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.engine.arrange import Arranger
from rummykit.engine.cards import JOKER, format_cards, parse_cards, shoe
from rummykit.engine.events import TableMeld
from rummykit.engine.groups import card_value, check_group, opening_value
from rummykit.engine.melds import meld_settings, melds_with
from rummykit.engine.opening import (
    best_leftover,
    best_opening,
    extend_meld,
    meld_points,
    opening_meter,
    place_meld,
    swap_slot,
)
from rummykit.engine.rules import Rules, get_preset

R40 = get_preset("rummy40")
REMI = get_preset("remi51")


def cards(text: str) -> list[int]:
    return parse_cards(text)


def table_meld(meld_id: int, text: str, rules: Rules = R40, owner: int = 0) -> TableMeld:
    placed, why = place_meld(cards(text), rules)
    assert placed is not None, why
    return TableMeld(meld_id, owner, placed.kind, placed.cards, placed.stands_for)


# ---------------------------------------------------------------- seed 003 (Rummy 40)


def test_ks_kh_kd_30_plus_5h_6h_7h_18_makes_48_enough_to_open_at_30_or_40_short_of_51() -> None:
    hand = cards("Ks Kh Kd 5h 6h 7h 2c 9d Jc 4s")
    for threshold, opens in ((30, True), (40, True), (51, False)):
        rules = R40.replace(opening=threshold)
        best = best_opening(hand, rules)
        assert (best is not None) == opens
        assert opening_meter(hand, rules) == (48, threshold)
    best = best_opening(hand, R40)
    assert best is not None and best.points == 48 and best.cards == 6 and not best.waived
    assert sorted(format_cards(m) for m in best.melds) == ["5h 6h 7h", "Ks Kh Kd"]


def test_three_aces_in_a_set_are_worth_33() -> None:
    hand = cards("As Ah Ad 2c 9d Jc 4s 7h")
    assert opening_meter(hand, R40) == (33, 40)
    assert best_opening(hand, R40) is None
    assert best_opening(hand, R40.replace(opening=30)) is not None


def test_an_ace_counts_11_in_a_set_or_high_run_and_1_in_a_2_3() -> None:
    assert opening_meter(cards("Ah 2h 3h"), R40)[0] == 6
    assert opening_meter(cards("Qh Kh Ah"), R40)[0] == 31
    assert opening_meter(cards("Qh JK Ah"), R40)[0] == 31  # a joker counts as the card it stands for


def test_7s_7h_joker_joker_is_legal() -> None:
    placed, why = place_meld(cards("7s 7h JK JK"), R40)
    assert placed is not None and why == "" and placed.kind == "set"
    assert placed.stands_for == tuple(cards("7s 7h 7d 7c"))


def test_5h_joker_joker_8h_is_not_but_5h_joker_7h_joker_9h_is() -> None:
    assert place_meld(cards("5h JK JK 8h"), R40) == (None, "5h JK JK 8h: two jokers side by side")
    placed, _ = place_meld(cards("5h JK 7h JK 9h"), R40)
    assert placed is not None and placed.stands_for == tuple(cards("5h 6h 7h 8h 9h"))


def test_every_meld_needs_two_natural_cards_a_3_card_set_holds_one_joker_at_most() -> None:
    assert place_meld(cards("7s JK JK"), R40)[0] is None
    assert place_meld(cards("7s 7h JK"), R40)[0] is not None
    assert place_meld(cards("7s JK 9s"), R40)[0] is not None


def test_a_set_never_holds_the_same_suit_twice_and_never_grows_past_four() -> None:
    assert place_meld(cards("7s 7s 7d"), R40)[0] is None
    full = table_meld(1, "7s 7h 7d 7c")
    placed, why = extend_meld(full, [JOKER], R40)
    assert placed is None and why == "JK does not fit meld 1: a set of sevens, which holds at most four cards"


def test_a_lay_off_that_would_break_a_meld_says_which_rule() -> None:
    kings = table_meld(1, "Ks Kh JK")
    assert extend_meld(kings, cards("Qs"), R40)[1].endswith("a set of kings, which takes only kings")
    assert extend_meld(kings, cards("Kc Kc"), R40)[1].endswith("which takes one card of each suit")
    assert extend_meld(table_meld(1, "Ks Kh JK", REMI), [JOKER], REMI)[1].endswith(
        ": a set holds at most one joker"
    )
    run = table_meld(2, "5h JK 7h")
    assert extend_meld(run, cards("6h"), R40)[1].endswith(": a joker holds 6h's place (swap it out instead)")
    assert extend_meld(run, cards("7h"), R40)[1].endswith("from 5h to 7h, which already has 7h")


def test_a_set_takes_a_card_of_a_suit_it_does_not_hold_yet_a_run_grows_at_either_end() -> None:
    s = table_meld(2, "7s 7h JK")
    placed, _ = extend_meld(s, cards("7d"), R40)
    assert placed is not None and placed.cards == tuple(cards("7s 7h JK 7d"))
    assert placed.stands_for == tuple(cards("7s 7h 7c 7d"))
    assert (
        extend_meld(s, cards("7h"), R40)[1]
        == "7h does not fit meld 2: a set of sevens, which already holds 7h"
    )
    run = table_meld(3, "5h 6h 7h")
    low, _ = extend_meld(run, cards("4h"), R40)
    high, _ = extend_meld(run, cards("8h 9h"), R40)
    both, _ = extend_meld(run, cards("3h JK 8h"), R40)
    assert low is not None and low.cards == tuple(cards("4h 5h 6h 7h"))
    assert high is not None and high.cards == tuple(cards("5h 6h 7h 8h 9h"))
    assert both is not None and both.stands_for == tuple(cards("3h 4h 5h 6h 7h 8h"))
    assert (
        extend_meld(run, cards("Qs"), R40)[1]
        == "Qs does not fit meld 3: a run of hearts, which takes only hearts"
    )
    why = extend_meld(run, cards("10h"), R40)[1]
    assert why == "10h does not fit meld 3: a run of hearts from 5h to 7h: it would leave a gap at 8h 9h"


def test_ace_low_on_the_a_2_3_side_or_high_after_the_king_never_wrapping() -> None:
    placed, _ = extend_meld(table_meld(1, "Jh Qh Kh"), cards("Ah"), R40)
    assert placed is not None and placed.stands_for == tuple(cards("Jh Qh Kh Ah"))
    placed, _ = extend_meld(table_meld(1, "2h 3h 4h"), cards("Ah"), R40)
    assert placed is not None and placed.cards == tuple(cards("Ah 2h 3h 4h"))
    placed, why = extend_meld(table_meld(1, "Qh Kh Ah"), cards("2h"), R40)
    assert placed is None and why.endswith(
        "from Qh to Ah: it would leave a gap at 3h 4h 5h 6h 7h 8h 9h 10h Jh"
    )
    assert place_meld(cards("Kh Ah 2h"), R40)[0] is None


def test_a_joker_laid_off_alone_goes_to_the_high_end_where_it_can() -> None:
    placed, _ = extend_meld(table_meld(1, "5h 6h 7h"), [JOKER], R40)
    assert placed is not None and placed.stands_for[-1] == cards("8h")[0]
    placed, _ = extend_meld(table_meld(1, "5h 6h JK"), [JOKER], R40)  # not beside the other joker
    assert placed is not None and placed.cards == (JOKER, *cards("5h 6h"), JOKER)
    placed, _ = extend_meld(table_meld(1, "Qh Kh Ah"), [JOKER], R40)
    assert placed is not None and placed.stands_for[0] == cards("Jh")[0]


def test_a_run_given_in_order_keeps_its_jokers_slots() -> None:
    low, _ = place_meld(cards("JK 6h 7h"), R40)
    high, _ = place_meld(cards("6h 7h JK"), R40)
    loose, _ = place_meld(cards("7h JK 6h"), R40)  # not in order: read upwards
    assert low is not None and low.stands_for == tuple(cards("5h 6h 7h"))
    assert high is not None and high.stands_for == tuple(cards("6h 7h 8h"))
    assert loose is not None and loose.cards == tuple(cards("6h 7h JK"))
    assert meld_points(low, R40) == 18 and meld_points(high, R40) == 21


def test_swapping_a_joker_the_natural_card_must_fill_its_slot_exactly() -> None:
    run = table_meld(1, "5h JK 7h")
    assert swap_slot(run, cards("6h")[0]) == (1, "")
    assert swap_slot(run, cards("6s")[0]) == (None, "the slot needs 6h")
    s = table_meld(2, "7s 7h JK")
    assert swap_slot(s, cards("7d")[0]) == (2, "")
    assert swap_slot(s, cards("7h")[0]) == (None, "the slot needs 7d or 7c")
    assert swap_slot(table_meld(3, "7s 7h 7d"), cards("7c")[0]) == (None, "meld 3 holds no joker")


# ---------------------------------------------------------------- seed 001 (Remi 51)


def test_tercets_of_seed_001() -> None:
    ok = ["Ah 2h 3h 4h", "6c 7c 8c", "9s 10s Js", "Qh Kh Ah", "10d 10c 10h", "5c 6c JK 8c", "10d 10c JK"]
    for text in ok:
        assert place_meld(cards(text), REMI)[0] is not None, text
    assert place_meld(cards("Qh Kh Ah 2h"), REMI)[0] is None  # not a tercet: no wrap after the ace
    assert place_meld(cards("10d 10c JK 10s"), REMI)[0] is not None


def test_two_jokers_only_in_runs_and_never_next_to_each_other() -> None:
    assert place_meld(cards("8h JK 10h JK Qh"), REMI)[0] is not None
    assert place_meld(cards("7h JK JK 10h"), REMI)[0] is None
    placed, why = place_meld(cards("10d JK 10c JK"), REMI)
    assert placed is None and why == "10d JK 10c JK: too many jokers in a set (at most 1)"


def test_remi_opening_needs_51_and_a_through_10_count_10() -> None:
    hand = cards("Ks Kh Kd As Ah Ad 2c 9d 5c")
    assert opening_meter(hand, REMI) == (60, 51)
    best = best_opening(hand, REMI)
    assert best is not None and best.points == 60
    assert opening_meter(cards("Ah 2h 3h 9s 9d 9c 5c"), REMI)[0] == 15 + 27  # the low ace counts 10 here
    assert opening_meter(cards("JK 2h 3h 5c"), REMI)[0] == 15  # a joker as the low ace too


def test_remi_opening_never_lays_down_the_last_card() -> None:
    assert best_opening(cards("Ks Kh Kd Qs Qh Qd"), REMI) is None  # 60 points, but no card left
    assert best_opening(cards("Ks Kh Kd Qs Qh Qd 2c"), REMI) is not None
    full = best_opening(cards("Ks Kh Kd Qs Qh Qd Js Jh Jd 10s 10h 10d"), REMI)
    assert full is not None and full.left >= 1


# ---------------------------------------------------------------- the waiver and the pile card


def test_the_threshold_is_waived_when_the_opening_leaves_0_or_1_cards() -> None:
    hand = cards("As 2s 3s Ah 2h 3h 9c")
    best = best_opening(hand, R40)
    assert best is not None and best.waived and best.points == 12 and best.left == 1
    assert best_opening(cards("As 2s 3s Ah 2h 3h 9c Kd"), R40) is None  # two left: no waiver
    assert best_opening(hand, REMI) is None  # Remi names no waiver


def test_the_card_taken_from_the_pile_must_be_inside_the_opening() -> None:
    hand = cards("Ks Kh Kd Qs Qh Qd 4c 5c 6c 9d")
    best = best_opening(hand, R40, must_include=cards("9d")[0])
    assert best is None
    best = best_opening(hand, R40, must_include=cards("5c")[0])
    assert best is not None and any(cards("5c")[0] in m for m in best.melds)
    with_joker = cards("Ks Kh Kd Qs Qh 4c 5c JK 9d")
    best = best_opening(with_joker, R40, must_include=JOKER)
    assert best is not None and any(JOKER in m for m in best.melds)


# ---------------------------------------------------------------- exactness against brute force


def brute_value(kinds: Sequence[int], rules: Rules) -> int | None:
    """The best opening value of a group over every card its jokers could stand for, by brute
    force (``None`` when it is no group)."""
    if not check_group(kinds, rules, None).ok:
        return None
    naturals = [k for k in kinds if k != JOKER]
    jokers = len(kinds) - len(naturals)
    best = None
    suit, rank = naturals[0] // 13, naturals[0] % 13
    options = [suit * 13 + r for r in range(13)] + [s * 13 + rank for s in range(4)]
    for fill in itertools.product(sorted(set(options)), repeat=jokers):
        stands = [*naturals, *fill]
        check = check_group(stands, rules, None)
        if not check.ok or check.jokers:
            continue
        if check.is_run:
            ranks = sorted(k % 13 + 1 for k in stands)
            if 13 in ranks and ranks[0] == 1:
                ranks = [*ranks[1:], 14]
            jokered = {k % 13 + 1 for k in fill}
            if 13 in jokered or 14 in ranks:
                jokered = {14 if r == 1 and 13 in {x % 13 + 1 for x in stands} else r for r in jokered}
            if not rules.adjacent_jokers and any(r in jokered and r + 1 in jokered for r in ranks):
                continue
        value = opening_value(stands, rules, None)
        best = value if best is None else max(best, value)
    return best


def brute_layouts(hand: Sequence[int], rules: Rules) -> dict[tuple[int, int], int]:
    """Every packing of valid groups: (cards laid, points) -> count of layouts, by brute force."""
    n = len(hand)
    groups: list[tuple[int, int]] = []  # (mask, points)
    for mask in range(1, 1 << n):
        size = bin(mask).count("1")
        if size < 3:
            continue
        kinds = [hand[i] for i in range(n) if mask >> i & 1]
        value = brute_value(kinds, rules)
        if value is not None:
            groups.append((mask, value))
    out: dict[tuple[int, int], int] = {}

    @cache
    def pack(free: int) -> frozenset[tuple[int, int]]:
        """(cards, points) of every packing within the cards of ``free``."""
        res = {(0, 0)}
        low = free & -free
        if not free:
            return frozenset(res)
        res |= pack(free & ~low)  # the lowest card left over
        for mask, pts in groups:
            if mask & low and mask & free == mask:
                for laid, p in pack(free & ~mask):
                    res.add((laid + bin(mask).count("1"), p + pts))
        return frozenset(res)

    for laid, pts in pack((1 << n) - 1):
        out[(laid, pts)] = 1
    return out


def brute_best(hand: Sequence[int], rules: Rules) -> tuple[int, int] | None:
    n = len(hand)
    threshold = rules.opening or 0
    best = None
    for laid, pts in brute_layouts(hand, rules):
        left = n - laid
        if laid == 0 or (rules.last_card_discard and left == 0):
            continue
        if pts < threshold and (rules.last_card_discard or left > 1):
            continue
        if best is None or (pts, laid) > best:
            best = (pts, laid)
    return best


# a small deck, so that random hands are full of melds: A-7 and J-K of two suits, twice, and jokers
SMALL = [k for s in (0, 1) for r in (1, 2, 3, 4, 5, 6, 7, 11, 12, 13) for k in (s * 13 + r - 1,) * 2]
SMALL += [JOKER] * 4


@pytest.mark.parametrize("rules", [R40.replace(opening=30), REMI.replace(opening=30), R40, REMI], ids=str)
def test_best_opening_matches_brute_force(rules: Rules) -> None:
    rng = random.Random(f"brute/{rules.preset}/{rules.opening}")
    for _ in range(60):
        hand = rng.sample(SMALL, rng.choice([7, 8, 9, 10]))
        best = best_opening(hand, rules)
        want = brute_best(hand, rules)
        got = None if best is None else (best.points, best.cards)
        assert got == want, format_cards(hand)
        if best is not None:
            laid = [k for m in best.melds for k in m]
            assert sorted(laid) == sorted(hand) or len(laid) < len(hand)
            rest = list(hand)
            for k in laid:
                rest.remove(k)  # the melds are made of the hand's cards
            placed = [place_meld(m, rules)[0] for m in best.melds]
            assert all(p is not None for p in placed)
            # the points are the melds' as laid down (jokers in their slots)
            assert (
                sum(opening_value(p.stands_for, rules, None) for p in placed if p is not None) == best.points
            )
            assert sum(meld_points(p, rules) for p in placed if p is not None) == best.points


def test_best_leftover_without_melds_on_the_table_is_the_arrangers_deadwood() -> None:
    for rules in (R40, REMI):
        arranger = Arranger(rules)
        rng = random.Random(f"deadwood/{rules.preset}")
        deck = [c % 53 for c in shoe(2, 4)]
        for i in range(300):
            hand = rng.sample(SMALL if i % 2 else deck, rng.choice([13, 14, 15]))
            left = best_leftover(hand, [], rules)
            assert left.cost == arranger.charge(hand, None), format_cards(hand)
            assert left.cost == sum(card_value(k, rules, None) for k in left.loose)
            laid = sorted(
                [*(k for m in left.melds for k in m), *(k for _, c in left.layoffs for k in c), *left.loose]
            )
            assert laid == sorted(hand)


def test_best_leftover_lays_off_onto_any_meld_on_the_table() -> None:
    table = [
        table_meld(1, "9s 10s Js", owner=1),
        table_meld(2, "7s 7h 7d", owner=2),
        table_meld(3, "4c JK 6c"),
    ]
    left = best_leftover(cards("Qs Ks 7c 3c 7c 2d"), table, R40)
    assert left.cost == 2  # only the 2d: one 7c onto the set, 3c and the other 7c onto 4c JK 6c
    assert (1, tuple(cards("Qs Ks"))) in left.layoffs
    assert (2, tuple(cards("7c"))) in left.layoffs and (3, tuple(cards("3c 7c"))) in left.layoffs
    assert left.loose == tuple(cards("2d"))
    # a joker goes onto any meld with room for it
    left = best_leftover(cards("JK 2d"), table, R40)
    assert left.cost == 2 and left.layoffs and left.layoffs[0][1] == (JOKER,)


def test_best_leftover_plan_is_accepted_by_the_meld_rules() -> None:
    rng = random.Random("plan")
    deck = [c % 53 for c in shoe(2, 4)]
    for _ in range(80):
        pool = list(deck)
        rng.shuffle(pool)
        table: list[TableMeld] = []
        while len(table) < 5 and len(pool) > 40:
            hand = [pool.pop() for _ in range(10)]
            for m in best_leftover(hand, [], R40).melds:
                table.append(table_meld(len(table) + 1, format_cards(m)))
        hand = pool[:14]
        left = best_leftover(hand, table, R40)
        grown = {m.id: m for m in table}
        for m in left.melds:
            assert place_meld(m, R40)[0] is not None
        for meld_id, laid in left.layoffs:
            placed, why = extend_meld(grown[meld_id], laid, R40)
            assert placed is not None, why
            grown[meld_id] = TableMeld(meld_id, 0, placed.kind, placed.cards, placed.stands_for)
        assert left.cost <= best_leftover(hand, [], R40).cost


# ---------------------------------------------------------------- kept answers and lay-offs, checked


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["rummy40", "remi51"]),
    st.integers(0, 51),
    st.lists(st.integers(0, 2), min_size=52, max_size=52),
    st.lists(st.integers(0, 2), min_size=52, max_size=52),
    st.integers(0, 4),
)
def test_melds_with_keeps_answers_that_read_only_the_cards_suit_and_rank(
    preset: str, c: int, first: list[int], second: list[int], jokers: int
) -> None:
    cfg = meld_settings(get_preset(preset))
    # the second hand agrees with the first on c's suit and rank, and differs anywhere else
    for k in range(52):
        if k // 13 == c // 13 or k % 13 == c % 13:
            second[k] = first[k]
    melds_with(c, first, jokers, cfg)  # keeps the first hand's answer
    fresh = replace(cfg)  # the same settings, nothing kept
    assert not fresh.found
    assert melds_with(c, second, jokers, cfg) == melds_with(c, second, jokers, fresh)


def brute_leftover(hand: Sequence[int], table: Sequence[TableMeld], rules: Rules) -> int:
    """The cheapest leftover by brute force: every subset of the hand laid off onto each meld
    (through ``extend_meld``), then every packing of the rest into new melds (``place_meld``)."""
    n = len(hand)
    groups = [
        mask
        for mask in range(1, 1 << n)
        if bin(mask).count("1") >= 3 and place_meld([hand[i] for i in range(n) if mask >> i & 1], rules)[0]
    ]

    @cache
    def pack(free: int) -> int:
        if not free:
            return 0
        low = free & -free
        i = low.bit_length() - 1
        best = card_value(hand[i], rules, None) + pack(free & ~low)
        for mask in groups:
            if mask & low and mask & free == mask:
                best = min(best, pack(free & ~mask))
        return best

    @cache
    def lay(free: int, m: int) -> int:
        if m == len(table):
            return pack(free)
        best = lay(free, m + 1)
        sub = free
        while sub:
            laid = [hand[i] for i in range(n) if sub >> i & 1]
            if extend_meld(table[m], laid, rules)[0] is not None:
                best = min(best, lay(free & ~sub, m + 1))
            sub = (sub - 1) & free
        return best

    return lay((1 << n) - 1, 0)


@pytest.mark.parametrize("rules", [R40, REMI], ids=str)
def test_best_leftover_with_melds_on_the_table_matches_brute_force(rules: Rules) -> None:
    rng = random.Random(f"brute-leftover/{rules.preset}")
    for _ in range(40):
        pool = list(SMALL)
        rng.shuffle(pool)
        table: list[TableMeld] = []
        while len(table) < 3 and len(pool) > 20:
            for m in best_leftover([pool.pop() for _ in range(9)], [], rules).melds:
                if len(table) < 3:
                    table.append(table_meld(len(table) + 1, format_cards(m), rules))
        hand = pool[:7]
        assert best_leftover(hand, table, rules).cost == brute_leftover(hand, table, rules), (
            f"{format_cards(hand)} onto {[format_cards(m.cards) for m in table]}"
        )
