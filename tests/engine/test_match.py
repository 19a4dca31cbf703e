"""Match formats and the score sheet against RULES.md "Match formats" and seeds 000, 001, 003, 004."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.engine.match import (
    DealEntry,
    DealRow,
    DealsFormat,
    Match,
    MatchError,
    PenaltyFormat,
    PointsFormat,
    PoolFormat,
    RejoinRecord,
    SettlementFormat,
    Standing,
    Status,
    TargetFormat,
    compel_from,
    default_charge,
    format_for,
    pool_title,
    rejoin_limit,
    signed,
    validate,
)
from rummykit.engine.rules import Rules, get_preset

NEPALI = get_preset("nepali")
INDIAN = get_preset("indian")
KERALA = get_preset("kerala")
POOL101 = get_preset("pool101")
POOL201 = get_preset("pool201")
DEALS = get_preset("deals")
RUMMY40 = get_preset("rummy40")
REMI51 = get_preset("remi51")
LOSING = [Status.PLAYED, Status.DROPPED, Status.MIDDLE_DROP, Status.FULL_COUNT]


def play(
    match: Match,
    charges: Sequence[int | None],
    winner: int,
    statuses: Mapping[int, Status | str] | None = None,
) -> None:
    """Enter a deal the way the score sheet does (out seats marked, fixed costs pre-filled)."""
    match.add_deal(match.entry(charges, winner, statuses))


def refused(match: Match, entry: DealEntry) -> str:
    """The message add_deal refuses ``entry`` with, checking it changed nothing."""
    before = match.to_dict()
    with pytest.raises(MatchError) as caught:
        match.add_deal(entry)
    assert match.to_dict() == before
    return str(caught.value)


# -- seed 000: settlement -------------------------------------------------------------------------


def test_seed000_the_charges_are_0_14_41_and_80_the_winner_collects_135() -> None:
    match = Match.new(NEPALI)
    row = match.add_deal(DealEntry.from_charges([0, 14, 41, 80], winner=0))
    assert row.label == "Paid"
    assert row.row == (135, -14, -41, -80)
    assert sum(row.row) == 0  # "the Paid row always adds up to nothing"
    assert match.totals == (135, -14, -41, -80)
    text = match.table_text()
    assert "+135" in text and "-14" in text and "-80" in text


def test_seed000_a_hand_with_no_clean_run_worth_52_is_charged_80_because_capped() -> None:
    # The sheet takes the capped 80, as played or as full count, and refuses anything above it.
    match = Match.new(NEPALI)
    assert not validate(DealEntry.from_charges([0, 14, 41, 80], 0), match)
    assert not validate(DealEntry.from_charges([0, 14, 41, 80], 0, {3: Status.FULL_COUNT}), match)
    assert validate(DealEntry.from_charges([0, 14, 41, 81], 0), match) == (
        "seat 4's count 81 is above the full count 80",
    )


def test_seed000_the_whole_table_always_sums_to_nothing_and_the_highest_total_wins() -> None:
    match = Match.new(NEPALI, names=["Asha", "Bina", "Chet", "Dev"])
    play(match, [0, 14, 41, 80], 0)
    assert not match.is_over
    play(match, [20, 0, None, 33], 1, {0: "dropped", 2: "middle_drop"})
    play(match, [10, 5, 0, 80], 2, {3: "full_count"})
    for row in match.rows:
        assert sum(row.row) == 0
        assert sum(row.totals) == 0
    assert match.totals == (115 - 10, 79 - 5, -81 + 95, -193)
    assert match.is_over  # "A match is three deals as standard"
    assert match.winner == 0 and match.winners == (0,)
    assert "Winner: Asha (+105)" in match.table_text()
    assert refused(match, DealEntry.from_charges([0, 1, 2, 3], 0)) == "the match is over: no more deals"


def test_settlement_tie_for_highest_total_is_a_shared_win() -> None:
    match = Match.new(NEPALI.replace(rounds=2, players=3))
    play(match, [0, 10, 20], 0)
    play(match, [10, 0, 20], 1)
    assert match.totals == (20, 20, -40)
    assert match.is_over
    assert match.winners == (0, 1)
    assert match.winner is None
    assert "Shared win: seat 1 and seat 2 at +20" in match.table_text()


def test_signed_totals_print_with_a_plus() -> None:
    assert [signed(v) for v in (135, -14, 0)] == ["+135", "-14", "0"]


# -- seed 004: pools ------------------------------------------------------------------------------


def test_seed004_a_player_on_250_still_plays_and_reaching_251_puts_you_out() -> None:
    match = Match.new(KERALA, players=3)
    play(match, [100, 0, 0], 1)
    play(match, [100, 0, 0], 1)
    play(match, [None, 0, 0], 1, {0: "middle_drop"})  # 50
    assert match.totals[0] == 250
    assert match.standing(0) is Standing.COMPEL  # still in, and marked
    play(match, [1, 0, 3], 1)  # a seat on 250 plays the deal
    assert match.totals[0] == 251
    assert match.standing(0) is Standing.OUT
    assert match.seats_in == (1, 2)
    assert "is out of the pool and cannot play" in refused(match, DealEntry.from_charges([5, 0, 3], 1))


def _kerala_endgame(b_second_charge: int) -> Match:
    """Three seats: A ends on 230, B on 200 + b_second_charge, C goes out (260) in the last deal."""
    match = Match.new(KERALA, players=3, names=["A", "B", "C"])
    play(match, [100, 0, 100], 1)
    play(match, [100, b_second_charge, 0], 2)
    play(match, [30, 0, 60], 1)
    play(match, [0, 100, 0], 0)
    play(match, [0, 100, 100], 0)
    return match


def test_seed004_compel_starts_at_226_because_giving_up_would_cost_25_and_reach_251() -> None:
    assert compel_from(KERALA) == 226
    assert _kerala_endgame(26).standing(1) is Standing.COMPEL  # B on 226
    assert _kerala_endgame(25).standing(1) is Standing.IN  # B on 225
    assert "compel from 226" in Match.new(KERALA).describe()


def test_seed004_a_seat_in_compel_may_still_drop() -> None:
    match = _kerala_endgame(26)
    assert match.totals == (230, 226, 260)
    play(match, [0, None, 0], 0, {1: "dropped"})
    assert match.standing(1) is Standing.OUT  # 251


def test_seed004_rejoin_while_someone_still_in_is_not_in_compel() -> None:
    match = _kerala_endgame(25)  # A 230 (compel), B 225 (not), C out
    verdict = match.can_rejoin(2)
    assert verdict.ok and verdict.reason == "C may rejoin at 231"
    record = match.rejoin(2)
    assert (record.seat, record.total, record.number) == (2, 231, 1)
    assert match.standing(2) is Standing.COMPEL


def test_seed004_no_rejoin_until_everyone_still_in_is_too_close_to_the_limit() -> None:
    match = _kerala_endgame(26)  # A 230, B 226: both in compel
    verdict = match.can_rejoin(2)
    assert not verdict
    assert verdict.reason == "no rejoin: every seat still in is in compel (226 or more)"
    assert match.rejoin_offers() == ()
    with pytest.raises(MatchError, match="in compel"):
        match.rejoin(2)


def test_seed004_kerala_association_two_rejoins_then_no_more() -> None:
    match = Match.new(KERALA, players=3)
    for rejoin in (1, 2, 3):
        for _ in range(3):
            play(match, [100, 0, 0], 1)
        assert match.standing(0) is Standing.OUT
        if rejoin <= 2:
            assert match.can_rejoin(0).reason == "seat 1 may rejoin at 1"
            assert match.rejoin_offers()[0].rejoins_left == 3 - rejoin
            match.rejoin(0)
            assert match.totals[0] == 1 and match.rejoins_used(0) == rejoin
    verdict = match.can_rejoin(0)
    assert not verdict and verdict.reason == "no rejoins left (2 used)"


def _pool_with_top(rules: Rules, charges: Sequence[Sequence[int]], winners: Sequence[int]) -> Match:
    match = Match.new(rules, players=3)
    for deal, winner in zip(charges, winners, strict=True):
        play(match, deal, winner)
    return match


@pytest.mark.parametrize(
    ("rules", "deals", "winners", "top", "ok", "reason"),
    [
        # Pool 101: "rejoin while the top score still in is 79 or less"
        (POOL101, [[0, 40, 80], [79, 0, 30]], [0, 1], 79, True, "seat 3 may rejoin at 80"),
        (
            POOL101,
            [[0, 40, 80], [80, 0, 30]],
            [0, 1],
            80,
            False,
            "no rejoin: the highest total still in is 80, above 79",
        ),
        # Pool 201: "... or 174 or less"
        (POOL201, [[80, 0, 80], [80, 0, 80], [14, 0, 80]], [1, 1, 1], 174, True, "seat 3 may rejoin at 175"),
        (
            POOL201,
            [[80, 0, 80], [80, 0, 80], [15, 0, 80]],
            [1, 1, 1],
            175,
            False,
            "no rejoin: the highest total still in is 175, above 174",
        ),
    ],
)
def test_seed004_pool_101_and_201_rejoin_while_the_top_score_still_in_is_79_or_174_or_less(
    rules: Rules, deals: list[list[int]], winners: list[int], top: int, ok: bool, reason: str
) -> None:
    match = _pool_with_top(rules, deals, winners)
    assert match.standing(2) is Standing.OUT
    assert max(match.totals[:2]) == top
    verdict = match.can_rejoin(2)
    assert (verdict.ok, verdict.reason) == (ok, reason)
    if ok:
        assert match.rejoin(2).total == top + 1
        assert match.seats_in == (0, 1, 2)


def test_rejoin_limits_are_a_function_of_pool_out() -> None:
    assert (rejoin_limit(101), rejoin_limit(201), rejoin_limit(251), rejoin_limit(151)) == (
        79,
        174,
        None,
        None,
    )
    assert (pool_title(101), pool_title(201), pool_title(251)) == ("Pool 101", "Pool 201", "Pool 250")
    assert compel_from(POOL101) == 81 and compel_from(POOL201) == 176 and compel_from(NEPALI) is None


def test_rejoin_is_an_action_between_deals_measured_against_the_seats_that_stayed_in() -> None:
    match = Match.new(POOL101, players=4)
    assert match.can_rejoin(0).reason == "no rejoin: seat 1 is still in"
    play(match, [0, 10, 80, 80], 0)
    play(match, [30, 0, 80, 80], 1)  # seats 3 and 4 out; top still in 30
    assert [(o.seat, o.total, o.rejoins_left) for o in match.rejoin_offers()] == [
        (2, 31, None),
        (3, 31, None),
    ]
    match.rejoin(2)
    # The second rejoiner comes back at the same total, not one above the first rejoiner.
    assert match.rejoin(3).total == 31
    assert match.totals == (30, 10, 31, 31)


def test_a_pool_ends_with_the_last_seat_in_and_then_nobody_rejoins() -> None:
    match = Match.new(POOL101, players=2)
    play(match, [0, 80], 0)
    play(match, [0, 30], 0)
    assert match.is_over and match.winner == 0 and match.seats_in == (0,)
    assert match.can_rejoin(1).reason == "no rejoin: the match is over"


def test_the_dealer_moves_left_and_skips_seats_out_of_the_pool() -> None:
    match = Match.new(POOL101, players=4, first_dealer=2)
    assert [match.dealer_for_deal(n) for n in range(5)] == [2, 3, 0, 1, 2]
    play(match, [0, 10, 10, 80], 0)
    play(match, [0, 10, 10, 30], 0)  # dealt by seat 4, who goes out on 110
    play(match, [0, 10, 10, None], 0)
    assert [row.dealer for row in match.rows] == [2, 3, 0]
    assert [match.dealer_for_deal(n) for n in range(3, 6)] == [1, 2, 0]  # seat 4 skipped


def test_non_pool_formats_have_no_outs_and_no_rejoins() -> None:
    match = Match.new(NEPALI)
    assert match.can_rejoin(0).reason == "no rejoin: a settlement match has no pool to rejoin"
    assert match.standing(0) is Standing.IN
    assert "only a pool puts seats out" in refused(match, DealEntry.from_charges([0, 1, 2, 0], 0, {3: "out"}))


# -- seed 004: deals ------------------------------------------------------------------------------


def test_seed004_deals_everyone_starts_with_80_points_for_each_deal() -> None:
    assert Match.new(DEALS).totals == (160, 160, 160, 160)
    assert Match.new(DEALS.replace(rounds=3), players=2).totals == (240, 240)


def test_seed004_deals_each_winner_collects_what_the_others_count_and_a_tie_plays_one_more_deal() -> None:
    match = Match.new(DEALS, players=2)
    row = match.add_deal(DealEntry.from_charges([0, 20], 0))
    assert (row.label, row.row, row.totals) == ("Chips", (20, -20), (180, 140))
    play(match, [40, 0], 1)
    assert match.totals == (140, 180)
    assert match.is_over and match.winner == 1

    tied = Match.new(DEALS, players=2)
    play(tied, [0, 20], 0)
    play(tied, [20, 0], 1)
    assert tied.totals == (160, 160)
    assert not tied.is_over and tied.winners == ()
    assert "a tie for most chips: one more deal" in tied.table_text()
    play(tied, [0, 5], 0)
    assert tied.is_over and tied.winner == 0


def test_seed004_deals_no_giving_up() -> None:
    match = Match.new(DEALS)
    message = refused(match, DealEntry.from_charges([0, 20, 3, 4], 0, {1: "dropped"}))
    assert message == "seat 2 is marked dropped, but there is no dropping in a deals match"
    assert default_charge(Status.DROPPED, DEALS) is None


def test_deals_chips_never_go_below_nothing_and_always_add_up() -> None:
    # A table with a higher full count than the 80 the chips are counted in.
    match = Match.new(DEALS.replace(full_count=100), players=2)
    play(match, [0, 100], 0)
    row = match.add_deal(DealEntry.from_charges([0, 100], 0))  # seat 2 has only 60 chips left
    assert row.row == (60, -60)
    assert match.totals == (320, 0)
    assert sum(match.totals) == 2 * 160


# -- seed 004 / RULES.md: points ------------------------------------------------------------------


def test_points_money_is_points_times_point_value_and_lowest_total_wins() -> None:
    rules = INDIAN.replace(point_value=5, rounds=2)
    match = Match.new(rules, players=3)
    row = match.add_deal(DealEntry.from_charges([0, 30, 80], 0))
    assert (row.label, row.row) == ("Points", (0, 30, 80))
    play(match, [12, 0, None], 1, {2: "dropped"})
    assert match.totals == (12, 30, 100)
    assert [match.money(seat) for seat in range(3)] == [60, 150, 500]
    assert [match.net_money(seat) for seat in range(3)] == [550 - 60, 160 - 150, -500]
    assert sum(match.net_money(seat) for seat in range(3)) == 0
    assert match.is_over and match.winner == 0
    assert isinstance(format_for(rules), PointsFormat)


def test_an_early_show_halves_every_other_charge_and_only_a_deal_marked_early_is_halved() -> None:
    match = Match.new(INDIAN)
    early = DealEntry.from_charges([0, 10, 40, 3], 0, {1: "dropped", 2: "full_count"}, early=True)
    assert not validate(early, match)
    # halved costs on a deal not marked early are refused, with the reason
    plain = DealEntry.from_charges([0, 10, 40, 3], 0, {1: "dropped", 2: "full_count"})
    assert refused(match, plain) == (
        "seat 2 dropped first and is charged 20, not 10 (half of it is charged after an early show, and "
        "this deal is not marked one); seat 3 is marked full count and is charged 80, not 40 (half of it "
        "is charged after an early show, and this deal is not marked one)"
    )
    assert "charged 10 after the early show (half of 20), not 20" in refused(
        match, DealEntry.from_charges([0, 20, 40, 3], 0, {1: "dropped", 2: "full_count"}, early=True)
    )
    assert "count 41 is above 40, half the full count 80, after the early show" in refused(
        match, DealEntry.from_charges([0, 41, 3, 3], 0, early=True)
    )
    assert match.entry(
        [None, None, None, 30], 0, {0: "winner", 1: "dropped", 2: "wrong_show"}, early=True
    ) == (
        DealEntry((0, 10, 40, 30), (Status.WINNER, Status.DROPPED, Status.WRONG_SHOW, Status.PLAYED), 0, True)
    )


def test_a_deal_marked_early_is_refused_where_the_rules_do_not_halve() -> None:
    assert "these rules do not halve after one" in refused(
        Match.new(NEPALI), DealEntry.from_charges([0, 10, 3, 3], 0, early=True)
    )


def test_the_early_show_is_marked_e_on_the_sheet_with_its_legend() -> None:
    match = Match.new(INDIAN.replace(rounds=2), players=3)
    match.add_deal(match.entry([None, None, 12], 0, {1: "dropped"}, early=True))
    text = match.table_text()
    assert "0E" in text and "10D" in text
    assert "E early show (won before every player had a turn: the others' charges halved)" in text


def test_a_version_1_sheet_with_a_halved_drop_reads_as_an_early_show() -> None:
    # version 1 accepted half a fixed cost (an early show) without marking the deal
    data = Match.new(INDIAN.replace(rounds=3), players=4).to_dict()
    deal = {"charges": [0, 10, 20, 70], "statuses": ["winner", "dropped", "dropped", "played"], "winner": 0}
    plain = {
        "charges": [0, 20, 33, 80],
        "statuses": ["winner", "dropped", "played", "full_count"],
        "winner": 0,
    }
    match = Match.from_dict({**data, "version": 1, "events": [{"deal": deal}, {"deal": plain}]})
    first, second = match.rows
    assert first.entry.early and first.charges == (0, 10, 10, 35)  # the rest halved, as the rule says
    assert not second.entry.early and second.charges == (0, 20, 33, 80)
    assert match.to_dict()["version"] == 2 and Match.from_dict(match.to_dict()).rows == match.rows


def test_money_is_kept_for_points_and_settlement_only() -> None:
    match = Match.new(NEPALI)
    play(match, [0, 14, 41, 80], 0)
    assert match.money(0) == 135
    with pytest.raises(MatchError, match="money"):
        Match.new(KERALA).money(0)


# -- seed 003: Rummy 40 target --------------------------------------------------------------------


def test_seed003_if_three_rivals_are_left_holding_4_22_and_24_points_the_winner_scores_50() -> None:
    match = Match.new(RUMMY40)
    row = match.add_deal(DealEntry.from_charges([0, 4, 22, 24], 0))
    assert (row.label, row.row, match.totals) == ("Score", (50, 0, 0, 0), (50, 0, 0, 0))
    # "A room plays one deal by default, and whoever wins that deal wins the match."
    assert match.is_over and match.winner == 0


def test_seed003_the_deal_score_may_be_entered_for_the_winner_but_not_both() -> None:
    match = Match.new(RUMMY40)
    assert match.add_deal(DealEntry.from_charges([50, 0, 0, 0], 0)).row == (50, 0, 0, 0)
    both = Match.new(RUMMY40)
    assert "enter the rivals' counts or the winner's score, not both" in refused(
        both, DealEntry.from_charges([50, 4, 22, 24], 0)
    )


def test_seed003_a_match_to_200_ends_the_moment_a_deal_winners_total_reaches_200() -> None:
    match = Match.new(RUMMY40.replace(target=200), players=2)
    play(match, [0, 150], 0)
    play(match, [0, 190], 0)  # the loser's count never scores for the loser
    assert match.totals == (340, 0) and match.is_over and match.winner == 0

    race = Match.new(RUMMY40.replace(target=200), players=3)
    play(race, [0, 150, 40], 0)  # seat 1 scores 190
    play(race, [60, 0, 139], 1)  # seat 2 scores 199
    assert not race.is_over
    play(race, [9, 1, 0], 2)  # seat 3 scores 10
    play(race, [0, 5, 5], 0)  # seat 1 reaches 200
    assert race.totals == (200, 199, 10)
    assert race.is_over and race.winner == 0
    assert refused(race, DealEntry.from_charges([0, 1, 1], 0)) == "the match is over: no more deals"


def test_rummy40_has_no_dropping_and_no_full_count() -> None:
    match = Match.new(RUMMY40)
    message = refused(match, DealEntry.from_charges([0, 10, 10, 10], 0, {1: "dropped", 2: "full_count"}))
    assert "seat 2 is marked dropped, but these rules do not allow dropping" in message
    assert "seat 3 is marked full count, but these rules have no full count" in message


# -- seed 001: Remi 51 penalty --------------------------------------------------------------------


def test_seed001_the_winner_gets_minus_20_or_minus_40_and_the_lowest_total_wins() -> None:
    match = Match.new(REMI51.replace(rounds=2), players=3)
    row = match.add_deal(DealEntry.from_charges([-20, 31, 12], 0))
    assert row.row == (-20, 31, 12)
    # Closing on a joker: -40 and the others count double (the entry gives the numbers).
    play(match, [44, -40, 24], 1)
    assert match.totals == (24, -9, 36)
    assert match.is_over and match.winner == 1
    assert isinstance(match.format, PenaltyFormat)
    assert default_charge(Status.WINNER, REMI51) == -20


def test_remi51_winner_score_must_be_minus_20_or_minus_40_and_others_not_negative() -> None:
    match = Match.new(REMI51, players=3)
    message = refused(match, DealEntry.from_charges([-30, -2, 5], 0))
    assert "seat 1: the winner scores -20 or -40, not -30" in message
    assert "seat 2: a negative number (-2) is refused" in message


# -- validation -----------------------------------------------------------------------------------


def test_validation_messages() -> None:
    match = Match.new(NEPALI)
    cases = [
        (DealEntry.from_charges([0, 1, 2], 0), "expected 4 seats, got 3 charges and 3 statuses"),
        (DealEntry.from_charges([0, 1, 2, 3], 7), "the winner must be a seat from 0 to 3, not 7"),
        (
            DealEntry.from_charges([0, 0, 2, 3], 0, {1: "winner"}),
            "exactly one winner per deal: seat 1 and seat 2 are both marked winner",
        ),
        (DealEntry.from_charges([5, 1, 2, 3], 0), "seat 1: the winner is charged 0, not 5"),
        (
            DealEntry.from_charges([20, 0, 2, 3], 0, {0: "dropped"}),
            "seat 1 dropped, so cannot be the winner",
        ),
        (DealEntry.from_charges([0, -1, 2, 3], 0), "seat 2: a negative number (-1) is refused"),
        (
            DealEntry.from_charges([0, 25, 2, 3], 0, {1: "dropped"}),
            "seat 2 dropped first and is charged 20, not 25",
        ),
        (
            DealEntry.from_charges([0, 20, 2, 3], 0, {1: "middle_drop"}),
            "seat 2 dropped in the middle and is charged 40, not 20",
        ),
        (
            DealEntry.from_charges([0, 80, 2, 3], 0, {1: "wrong_show"}),
            "seat 2 is marked wrong show, but these rules refuse a wrong show",
        ),
        (
            DealEntry.from_charges([0, 70, 2, 3], 0, {1: "full_count"}),
            "seat 2 is marked full count and is charged 80, not 70",
        ),
    ]
    for entry, message in cases:
        assert validate(entry, match) == (message,)
        assert refused(match, entry) == message
    assert match.rows == ()


def test_every_problem_is_reported_at_once() -> None:
    match = Match.new(NEPALI)
    problems = validate(DealEntry.from_charges([3, -1, 99, 0], 0), match)
    assert problems == (
        "seat 1: the winner is charged 0, not 3",
        "seat 2: a negative number (-1) is refused",
        "seat 3's count 99 is above the full count 80",
    )
    with pytest.raises(MatchError) as caught:
        match.add_deal(DealEntry.from_charges([3, -1, 99, 0], 0))
    assert caught.value.reasons == problems


def test_pool_out_seats_must_be_marked_out() -> None:
    match = Match.new(POOL101, players=3)
    play(match, [0, 10, 80], 0)
    play(match, [0, 10, 30], 0)
    assert match.standing(2) is Standing.OUT
    assert "seat 3 is out of the pool and cannot win" in refused(
        match, DealEntry.from_charges([5, 5, 0], 2, {2: "winner"})
    )
    assert "seat 1 is still in the pool, so cannot be marked out" in refused(
        match, DealEntry.from_charges([0, 5, 0], 1, {0: "out", 2: "out"})
    )
    assert "seat 3 is out and is charged nothing, not 4" in refused(
        match, DealEntry.from_charges([0, 5, 4], 0, {2: "out"})
    )
    entry = match.entry([0, None, None], 0, {1: "dropped"})  # the sheet fills the out seat
    assert entry.statuses == (Status.WINNER, Status.DROPPED, Status.OUT)
    assert entry.charges == (0, 20, 0)


def test_the_sheet_prefills_each_status_from_the_rules() -> None:
    assert [default_charge(s, KERALA) for s in Status] == [0, None, 25, 50, 100, 100, 0]
    assert default_charge("middle drop", NEPALI) == 40
    assert default_charge("full_count", get_preset("maharashtra")) is None
    assert default_charge("not playing", KERALA) == 0
    with pytest.raises(MatchError, match="enter a number"):
        Match.new(NEPALI).entry([None, None, 3, 4], 0)
    with pytest.raises(MatchError, match="unknown status"):
        Status.parse("sulking")


def test_a_match_refuses_impossible_seats_and_names() -> None:
    with pytest.raises(MatchError, match="2 to 8 players"):
        Match.new(NEPALI, players=9)
    with pytest.raises(MatchError, match="expected 3 names"):
        Match.new(NEPALI, players=3, names=["a", "b"])
    with pytest.raises(MatchError, match="share a name"):
        Match.new(NEPALI, players=2, names=["a", "a"])
    assert Match.new(KERALA, players=8).totals == (0,) * 8


# -- undo, edit, storage --------------------------------------------------------------------------


def test_undo_and_edit_the_last_deal() -> None:
    match = Match.new(NEPALI)
    play(match, [0, 14, 41, 80], 0)
    play(match, [10, 0, 10, 10], 1)
    undone = match.undo_last()
    assert isinstance(undone, DealRow) and undone.row == (-10, 30, -10, -10)
    assert match.totals == (135, -14, -41, -80)
    play(match, [10, 0, 10, 10], 1)
    row = match.replace_last(DealEntry.from_charges([5, 5, 0, 5], 2))
    assert row.index == 1 and row.row == (-5, -5, 15, -5)
    assert match.totals == (130, -19, -26, -85)
    with pytest.raises(MatchError, match="seat 1: the winner is charged 0"):
        match.replace_last(DealEntry.from_charges([9, 0, 0, 0], 0))
    assert match.totals == (130, -19, -26, -85)
    match.undo_last()
    match.undo_last()
    with pytest.raises(MatchError, match="nothing to undo"):
        match.undo_last()
    with pytest.raises(MatchError, match="nothing to edit"):
        match.replace_last(DealEntry.from_charges([0, 0, 0, 0], 0))


def test_undo_takes_back_a_rejoin_and_an_edit_that_breaks_a_later_rejoin_is_refused() -> None:
    match = Match.new(POOL101, players=3)
    play(match, [0, 40, 80], 0)
    play(match, [20, 0, 30], 1)
    match.rejoin(2)
    assert match.totals == (20, 40, 41)
    undone = match.undo_last()
    assert isinstance(undone, RejoinRecord) and (undone.seat, undone.total) == (2, 41)
    assert match.standing(2) is Standing.OUT and match.rejoins == ()
    match.rejoin(2)
    # Editing the last deal so that the top total still in becomes 80 makes the rejoin impossible.
    with pytest.raises(
        MatchError, match="the rejoin after deal 2: no rejoin: the highest total still in is 80"
    ):
        match.replace_last(DealEntry.from_charges([80, 0, 30], 1))
    assert match.totals == (20, 40, 41)
    match.replace_last(DealEntry.from_charges([25, 0, 30], 1))
    assert match.totals == (25, 40, 41)  # the rejoin was replayed: still the top total + 1


def test_to_dict_and_from_dict_round_trip_through_json() -> None:
    match = Match.new(KERALA, players=3, names=["Anu", "Biju", "Chinnu"], first_dealer=1)
    for _ in range(3):
        play(match, [100, 0, 0], 1)
    match.rejoin(0)
    play(match, [None, 0, 7], 1, {0: "dropped"})
    data = json.loads(json.dumps(match.to_dict()))
    assert data["version"] == 2
    copy = Match.from_dict(data)
    assert copy.to_dict() == match.to_dict()
    assert copy.rows == match.rows and copy.rejoins == match.rejoins
    assert copy.totals == match.totals and copy.rules == match.rules
    assert copy.table_text() == match.table_text()
    assert copy.dealer_for_deal(4) == match.dealer_for_deal(4)


def test_from_dict_refuses_bad_data_with_a_reason() -> None:
    data = Match.new(NEPALI).to_dict()
    with pytest.raises(MatchError, match="unsupported match version"):
        Match.from_dict({**data, "version": 99})
    with pytest.raises(MatchError, match="stored rules"):
        Match.from_dict({**data, "rules": {"preset": "nepali", "settings": {"rounds": 0}}})
    bad_deal = {"deal": DealEntry.from_charges([5, 0, 0, 0], 0).to_dict()}
    with pytest.raises(MatchError, match="deal 1: seat 1: the winner is charged 0, not 5"):
        Match.from_dict({**data, "events": [bad_deal]})
    with pytest.raises(MatchError, match="charges must be whole numbers"):
        Match.from_dict(
            {**data, "events": [{"deal": {"charges": ["x"], "statuses": ["winner"], "winner": 0}}]}
        )


def test_every_format_is_chosen_by_rules_format_and_describes_itself() -> None:
    kinds = {
        "nepali": SettlementFormat,
        "indian": PointsFormat,
        "kerala": PoolFormat,
        "pool101": PoolFormat,
        "deals": DealsFormat,
        "rummy40": TargetFormat,
        "remi51": PenaltyFormat,
    }
    for preset, kind in kinds.items():
        match = Match.new(get_preset(preset))
        assert type(match.format) is kind
        assert match.describe().startswith(match.format.describe())
        assert "Next: deal 1, dealer seat 1" in match.table_text()
    assert Match.new(POOL101).format.describe() == (
        "Pool 101: out at 101; rejoin at the highest total still in + 1 while that total is 79 or less; "
        "unlimited rejoins; compel from 81"
    )


def test_table_text_shows_statuses_standings_and_rejoins() -> None:
    match = Match.new(KERALA, players=3)
    for _ in range(3):
        play(match, [100, 0, 0], 1)
    match.rejoin(0)
    play(match, [None, 0, None], 1, {0: "dropped", 2: "wrong_show"})
    text = match.table_text()
    assert "Rejoin: seat 1 comes back at 1 (rejoin 1 of 2)" in text
    assert "25D" in text and "100X" in text and "0W" in text
    assert "Standing" in text and "out" in text


# -- properties -----------------------------------------------------------------------------------


@st.composite
def _nepali_entry(draw: st.DrawFn, players: int) -> DealEntry:
    winner = draw(st.integers(0, players - 1))
    charges: list[int] = []
    statuses: dict[int, Status] = {}
    for seat in range(players):
        if seat == winner:
            charges.append(0)
            continue
        status = draw(st.sampled_from([Status.PLAYED, Status.DROPPED, Status.MIDDLE_DROP, Status.FULL_COUNT]))
        statuses[seat] = status
        fixed = default_charge(status, NEPALI)
        charges.append(draw(st.integers(0, 80)) if fixed is None else fixed)
    return DealEntry.from_charges(charges, winner, statuses)


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(2, 6), st.integers(1, 5))
def test_property_settlement_paid_rows_and_totals_always_sum_to_zero(
    data: st.DataObject, players: int, rounds: int
) -> None:
    match = Match.new(NEPALI.replace(rounds=rounds, players=players))
    while not match.is_over:
        row = match.add_deal(data.draw(_nepali_entry(players)))
        assert sum(row.row) == 0
        assert sum(row.totals) == 0
        assert row.row[row.winner] == sum(row.charges)
    assert len(match.rows) == rounds
    best = max(match.totals)
    assert match.winners == tuple(s for s, t in enumerate(match.totals) if t == best)
    assert Match.from_dict(json.loads(json.dumps(match.to_dict()))).totals == match.totals


def _pool_entry(data: st.DataObject, match: Match) -> DealEntry:
    seats_in = match.seats_in
    winner = data.draw(st.sampled_from(seats_in))
    full = match.rules.full_count
    assert full is not None
    statuses: dict[int, Status] = {}
    charges: list[int | None] = []
    for seat in range(match.players):
        if seat == winner or seat not in seats_in:
            charges.append(None)
            continue
        status = data.draw(st.sampled_from(LOSING))
        statuses[seat] = status
        charges.append(data.draw(st.integers(0, full)) if status is Status.PLAYED else None)
    return match.entry(charges, winner, statuses)


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(["pool101", "pool201", "kerala"]), st.integers(2, 6))
def test_property_pool_totals_only_fall_by_a_rejoin_and_the_match_ends_with_one_seat_in(
    data: st.DataObject, preset: str, players: int
) -> None:
    rules = get_preset(preset)
    match = Match.new(rules, players=players)
    pool_out = rules.pool_out
    assert pool_out is not None
    steps = data.draw(st.integers(0, 40))
    for step in range(steps + 200):
        if match.is_over:
            break
        before = match.totals
        offers = match.rejoin_offers()
        if offers and step < steps and data.draw(st.booleans()):
            offer = data.draw(st.sampled_from(offers))
            survivors = [s for s, standing in enumerate(match.rows[-1].standings) if standing != Standing.OUT]
            record = match.rejoin(offer.seat)
            assert before[offer.seat] >= pool_out
            assert record.total == max(before[s] for s in survivors) + 1 < pool_out
            assert [t for s, t in enumerate(match.totals) if s != offer.seat] == [
                t for s, t in enumerate(before) if s != offer.seat
            ]
            continue
        if step < steps:
            entry = _pool_entry(data, match)
        else:
            # Past the drawn steps: everyone but the first seat in pays the full count, so it ends.
            first = match.seats_in[0]
            entry = match.entry(
                [None] * players, first, {s: Status.FULL_COUNT for s in match.seats_in if s != first}
            )
        match.add_deal(entry)
        assert all(after >= earlier for after, earlier in zip(match.totals, before, strict=True))
        assert all(
            (total >= pool_out) == (match.standing(s) is Standing.OUT) for s, total in enumerate(match.totals)
        )
    assert match.is_over
    assert len(match.seats_in) == 1
    assert match.winners == match.seats_in
    most = rules.max_rejoins
    assert most is None or all(match.rejoins_used(s) <= most for s in range(players))


def test_new_counts_the_names_it_is_given() -> None:
    """A sheet for two named players needs no players= (seed 004: 'up to eight players')."""
    match = Match.new(get_preset("pool101"), names=["Asha", "Bikash"])
    assert match.players == 2 and match.names == ("Asha", "Bikash")
    assert match.status_line().startswith("Next: deal 1")
