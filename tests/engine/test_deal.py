"""The show-family deal against RULES.md and the seeds (000 Nepali, 002/004 Indian and Kerala).

Every scenario is dealt from a stacked shoe so that it is exact; the tests are
named after the sentence they check.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rummykit.engine.arrange import Arranger
from rummykit.engine.cards import JOKER, KINDS, format_cards, parse_card, parse_cards, shoe
from rummykit.engine.deal import (
    TURN_CAP,
    IllegalAction,
    ShowDeal,
    Verdict,
    new_deal,
    stacked_shoe,
)
from rummykit.engine.driver import moves_of, play_out, replay
from rummykit.engine.events import (
    Action,
    ActionKind,
    DealEnded,
    Dealt,
    DrewStock,
    Dropped,
    Ending,
    Phase,
    SeatStatus,
    Showed,
    StockRebuilt,
    Threw,
    TookPile,
    WrongShow,
)
from rummykit.engine.history import result_lines
from rummykit.engine.rules import Rules, get_preset
from rummykit.engine.views import SeatView, SpectatorView

NEPALI = get_preset("nepali")
INDIAN = get_preset("indian")
KERALA = get_preset("kerala")


def c(text: str) -> int:
    return parse_card(text)


def cards(text: str) -> list[int]:
    return parse_cards(text)


# Kinds in an order that spreads ranks and suits, to fill the hands a test does not care about.
_JUNK_ORDER = [(k * 5) % 52 for k in range(52)] + [JOKER]


def deal_of(
    rules: Rules,
    hands: dict[int, str],
    pile: str = "Ac",
    cut: str | None = "9c",
    stock: str = "",
    *,
    dealer: int = 0,
    seed: int | str = 0,
    turn_cap: int = TURN_CAP,
) -> ShowDeal:
    """A deal from a stacked shoe: the hands given by seat, the rest filled with spread-out cards."""
    if not rules.cut_joker:
        cut = None
    given = {s: cards(t) for s, t in hands.items()}
    used = Counter(k for h in given.values() for k in h)
    used[c(pile)] += 1
    if cut is not None:
        used[c(cut)] += 1
    used.update(cards(stock))
    left = Counter({k: rules.packs for k in range(52)})
    left[JOKER] = rules.printed_jokers
    left.subtract(used)
    too_many = [k for k, v in left.items() if v < 0]
    assert not too_many, f"the test asks for more copies than the shoe holds: {too_many}"
    junk = [k for _ in range(rules.packs) for k in _JUNK_ORDER]
    full = []
    for s in range(rules.players):
        if s in given:
            full.append(given[s])
            continue
        h: list[int] = []
        for k in junk:
            if len(h) == rules.hand_size:
                break
            if left[k] > 0 and k not in h:
                left[k] -= 1
                h.append(k)
        full.append(h)
    order = stacked_shoe(rules, full, c(pile), None if cut is None else c(cut), cards(stock), dealer=dealer)
    return ShowDeal.from_shoe(rules, order, dealer=dealer, seed=seed, turn_cap=turn_cap)


def refused(deal: ShowDeal, seat: int, action: Action) -> str:
    """The reason ``action`` is refused; checks that the refusal changed nothing."""
    before = deal.fingerprint()
    verdict = deal.can(seat, action)
    assert not verdict and not verdict.ok
    with pytest.raises(IllegalAction) as info:
        deal.apply(seat, action)
    assert deal.fingerprint() == before
    assert info.value.reason == verdict.reason == str(info.value)
    return verdict.reason


def texts(deal: ShowDeal) -> list[str]:
    return [e.text() for e in deal.events]


# Hands with known charges when nines are wild (cut 9c): checked against the arranger below.
H20 = "5d 6d 7d As 2s 3s Jh Jd Jc Ac 2c 3h 5s"  # two pure runs, a set; loose 10+2+3+5
H14 = "Ah 2h 3h 4s 5s 6s Kd Kc Ks 2c 3d 4c 5h"  # two pure runs, a set; loose 2+3+4+5
H37 = "6h 7h 8h 2d 3d 4d Qs Qh Qd Kh Js 10c 7c"  # loose K J 10 7
H_NO_RUN = "Ks Kd Kc 10s 10h 10c 8s 8h 8c 6s 6h 6c 4d"  # sets only: every card, capped
H14_TIE = "5c 6c 7c 10d Jd Qd Js Jh Jc 3c 4h 5d 2d"  # loose 3+4+5+2
# Seed 002's worked hand with fives wild: draws 5c, shows with the Js.
SEED002 = "Ah 2h 3h 4c 6c 7s 8s 5d 10s Kd Kc Kh Js"


def test_fixture_hands_have_the_charges_their_names_say() -> None:
    for rules, full in ((NEPALI, 80), (KERALA, 100)):
        a = Arranger(rules)
        assert [a.charge(cards(h), 9) for h in (H20, H14, H37, H_NO_RUN, H14_TIE)] == [20, 14, 37, full, 14]


# ---------------------------------------------------------------- the deal


def test_deal_13_to_each_seat_one_at_a_time_starting_left_of_the_dealer() -> None:
    order = shoe(2, 2)  # unshuffled: the deal order is visible in the card ids
    deal = ShowDeal.from_shoe(NEPALI, order, dealer=2)
    first = 3
    for i in range(13 * 4):
        seat = (first + i) % 4
        assert order[i] in deal._hands[seat]
    assert all(len(deal.hand(s)) == 13 for s in range(4))
    assert deal.pile == (order[52] % KINDS,)
    assert deal.cut == order[53] % KINDS
    assert deal.stock_count == 106 - 52 - 2
    assert deal._stock[-1] == order[54]  # the next card is the stock's top
    assert deal.to_play == first and deal.phase is Phase.DRAW


def test_seat_left_of_the_dealer_plays_first() -> None:
    for dealer in range(4):
        deal = ShowDeal(NEPALI, "x", dealer=dealer)
        assert deal.to_play == (dealer + 1) % 4
        dealt = deal.events[0]
        assert isinstance(dealt, Dealt) and dealt.first == (dealer + 1) % 4 and dealt.seat == dealer


def test_the_cut_card_names_the_wild_rank() -> None:
    deal = deal_of(NEPALI, {}, pile="Kc", cut="7d")
    assert deal.cut == c("7d") and deal.wild == 7
    assert deal.is_wild(c("7s")) and deal.is_wild(JOKER) and not deal.is_wild(c("8s"))


def test_printed_joker_cut_makes_aces_wild() -> None:
    for rules in (NEPALI, KERALA):
        deal = deal_of(rules, {}, cut="JK")
        assert deal.cut == JOKER and deal.wild == 1


def test_maharashtra_printed_joker_cut_leaves_only_the_printed_jokers_wild() -> None:
    deal = deal_of(get_preset("maharashtra"), {}, cut="JK")
    assert deal.cut == JOKER and deal.wild is None
    assert deal.is_wild(JOKER) and not deal.is_wild(c("As"))


def test_without_the_cut_joker_no_card_is_cut() -> None:
    rules = NEPALI.replace(cut_joker=False)
    deal = ShowDeal(rules, 1)
    assert deal.cut is None and deal.wild is None
    assert deal.stock_count == 106 - 52 - 1
    assert "cut" not in deal.events[0].text()


def test_kerala_seven_or_eight_seats_deal_from_three_packs() -> None:
    rules = get_preset("kerala", players=8)
    deal = ShowDeal(rules, "eight")
    assert rules.packs == 3
    assert deal.stock_count == 3 * 52 + 2 - 8 * 13 - 2
    assert all(len(deal.hand(s)) == 13 for s in range(8))


def test_the_same_seed_deals_the_same_cards_on_any_machine() -> None:
    # Pinned: random.Random(str) hashes the string with SHA-512, so this holds everywhere.
    deal = ShowDeal(NEPALI, "rummykit")
    again = ShowDeal(NEPALI, "rummykit")
    assert deal.events == again.events
    assert deal.events[0].text() == "0 deal pile 6c cut 6h"
    assert format_cards(deal.hand(1)) == "As As 2s 7s 8h Jh Ad 4d 6d 10d Qd Ac 7c"
    assert format_cards(ShowDeal(NEPALI, 20240601).hand(1)) == "5s 8s Js Js Ks Ah 2h 8h 2c 3c 8c Jc Kc"
    assert ShowDeal(NEPALI, 7).events[0] != ShowDeal(NEPALI, 8).events[0]


# ---------------------------------------------------------------- a turn


def test_a_turn_is_take_one_card_then_throw_one() -> None:
    deal = deal_of(NEPALI, {}, pile="Kc", stock="2s")
    assert deal.legal_actions(1) == [Action.drop(), Action.draw_stock(), Action.draw_pile()]
    event = deal.draw_stock(1)
    assert isinstance(event, DrewStock) and event.card == c("2s")
    assert len(deal.hand(1)) == 14 and deal.phase is Phase.THROW
    assert deal.drawn == c("2s")
    thrown = deal.throw(1, c("2s"))  # a card drawn from the stock may go straight back
    assert isinstance(thrown, Threw) and deal.pile_top == c("2s")
    assert deal.to_play == 2 and deal.phase is Phase.DRAW and deal.turns == 1
    assert len(deal.hand(1)) == 13


def test_card_just_taken_from_pile_cannot_go_straight_back() -> None:
    deal = deal_of(NEPALI, {1: H14}, pile="7h")
    taken = deal.draw_pile(1)
    assert isinstance(taken, TookPile) and taken.card == c("7h")
    assert refused(deal, 1, Action.throw(c("7h"))) == "cannot throw back the card just taken from the pile"
    assert not deal.can_throw(1, c("7h"))
    with pytest.raises(IllegalAction):
        deal.verify_throw(1, c("7h"))
    assert Action.throw(c("7h")) not in deal.legal_actions(1)
    deal.throw(1, c("5h"))
    assert deal.took[1] == (c("7h"),)


def test_second_copy_of_the_card_taken_from_pile_cannot_go_back_either() -> None:
    # Settled: the copies are indistinguishable, so the rule holds for the kind.
    deal = deal_of(NEPALI, {1: "7h 2s 4s 6s 8s 10s Qs 3d 5d 7d Jd Kd Ah"}, pile="7h")
    deal.draw_pile(1)
    assert refused(deal, 1, Action.throw(c("7h"))) == "cannot throw back the card just taken from the pile"


def test_joker_on_pile_cannot_be_taken_in_indian() -> None:
    for pile in ("5s", "JK"):  # a card of the cut rank, and a printed joker
        deal = deal_of(INDIAN, {}, pile=pile, cut="5d")
        assert refused(deal, 1, Action.draw_pile()) == "a joker on the pile cannot be taken at this table"
        assert Action.draw_pile() not in deal.legal_actions(1)
    nepali = deal_of(NEPALI, {}, pile="5s", cut="5d")
    assert nepali.can_draw_pile(1)
    maharashtra = deal_of(get_preset("maharashtra"), {}, pile="JK", cut="5d")
    assert maharashtra.can_draw_pile(1)


def test_reasons_are_in_players_words() -> None:
    deal = deal_of(NEPALI, {1: H14}, pile="Kc")
    assert refused(deal, 2, Action.draw_stock()) == "not your turn: seat 1 is to play"
    assert refused(deal, 1, Action.throw(c("Ah"))) == "draw first"
    assert refused(deal, 1, Action.show(c("Ah"))) == "draw first"
    assert refused(deal, 7, Action.draw_stock()) == "no seat 7 at this table (seats 0 to 3)"
    deal.draw_stock(1)
    assert refused(deal, 1, Action.draw_stock()) == "you have already drawn"
    assert refused(deal, 1, Action.draw_pile()) == "you have already drawn"
    assert refused(deal, 1, Action.throw(c("7h"))) == "7h is not in your hand"
    assert refused(deal, 1, Action.throw(99)).startswith("not a card: 99")
    assert refused(deal, 1, Action.drop()) == "too late to drop: you have already drawn"


def test_verdicts_are_truthy_when_ok() -> None:
    deal = deal_of(NEPALI, {})
    ok = deal.can_draw_stock(1)
    assert ok and ok == Verdict(True, "")
    no = deal.can_draw_stock(2)
    assert not no and no.reason.startswith("not your turn")
    assert isinstance(IllegalAction("x"), ValueError)


# ---------------------------------------------------------------- dropping


def test_drop_costs_20_before_first_card_and_40_after() -> None:
    deal = deal_of(NEPALI, {})
    assert deal.drop_cost(1) == 20
    event = deal.drop(1)
    assert isinstance(event, Dropped) and (event.cost, event.first) == (20, True)
    assert event.text() == "1 drop 20"
    assert deal.statuses[1] is SeatStatus.DROPPED and deal.hand(1) == ()
    deal.draw_stock(2)
    deal.throw(2, deal.hand(2)[0])
    for seat in (3, 0):
        deal.draw_stock(seat)
        deal.throw(seat, deal.drawn or 0)
    assert deal.to_play == 2  # the dropped seat is skipped
    assert deal.drop_cost(2) == 40
    assert deal.drop(2).cost == 40
    assert refused(deal, 1, Action.draw_stock()) == "you have dropped out of this deal"


def test_kerala_drop_costs_25_before_first_card_and_50_after() -> None:
    deal = deal_of(KERALA, {})
    assert deal.drop_cost(1) == 25
    deal.draw_stock(1)
    deal.throw(1, deal.drawn or 0)
    deal.drop(2)
    assert deal.drop_cost(3) == 25
    deal.draw_stock(3)
    deal.throw(3, deal.drawn or 0)
    deal.draw_stock(0)
    deal.throw(0, deal.drawn or 0)
    assert deal.drop_cost(1) == 50


def test_deals_preset_refuses_dropping() -> None:
    deal = deal_of(get_preset("deals"), {})
    assert refused(deal, 1, Action.drop()) == "dropping is not allowed at this table"
    assert Action.drop() not in deal.legal_actions(1)
    assert deal.drop_cost(1) is None


def test_all_but_one_dropped_wins_without_showing() -> None:
    deal = deal_of(NEPALI, {})
    deal.drop(1)
    deal.draw_stock(2)
    deal.throw(2, deal.drawn or 0)
    deal.drop(3)
    winner_hand = deal.hand(0)
    assert deal.to_play == 0
    deal.draw_stock(0)
    deal.throw(0, deal.drawn or 0)
    assert deal.to_play == 2
    deal.drop(2)
    result = deal.result
    assert deal.over and result is not None
    assert result.ending is Ending.LAST_IN and result.winner == 0
    assert result.charges == (0, 20, 40, 20)
    assert result.dropped == (False, True, True, True)
    assert result.seats[0].hand == () and result.seats[0].hand_charge is None  # never shown
    assert all(s.hand == () for s in result.seats)
    assert len(winner_hand) == 13
    assert isinstance(deal.events[-1], DealEnded)
    assert deal.events[-1].text() == "0 wins (last in): 0 20 40 20"


# ---------------------------------------------------------------- showing


def test_a_valid_show_ends_the_deal_and_the_others_pay_their_best_arrangement() -> None:
    hands = {1: SEED002, 2: H37, 3: H_NO_RUN, 0: H20}
    deal = deal_of(NEPALI, hands, pile="Qc", cut="5h", stock="5c")
    deal.draw_stock(1)
    assert Action.show(c("Js")) in deal.legal_actions(1)
    assert deal.finishing_cards(1) == [c("7s"), c("Js")]  # 8s 5d 10s Js is a run too
    event = deal.show(1, c("Js"))
    assert isinstance(event, Showed)
    assert event.text() == "1 show Js: Ah 2h 3h | 4c 5c 6c | 7s 8s 5d 10s | Kh Kd Kc"
    result = deal.result
    assert result is not None and result.ending is Ending.SHOW and result.winner == 1
    arranger = Arranger(NEPALI)
    # fives are wild here, so the fixture charges differ from the nines-wild ones
    expected = [arranger.charge(cards(hands[s]), 5) for s in (0, 2, 3)]
    assert (result.charges[0], result.charges[2], result.charges[3]) == tuple(expected)
    assert result.charges[3] == 80  # no pure run: every card, capped at the full count
    assert result.finish_card == c("Js") and not result.halved
    assert result.collected == sum(expected)
    assert deal.pile_top == c("Js") and deal.phase is Phase.OVER and deal.to_play is None
    assert deal.legal_actions(1) == [] and refused(deal, 2, Action.draw_stock()) == "the deal is over"


def test_a_show_needs_a_pure_run_the_nepali_show_is_refused_and_nothing_changes() -> None:
    deal = deal_of(NEPALI, {1: H_NO_RUN}, stock="4s")
    deal.draw_stock(1)
    assert refused(deal, 1, Action.show(c("4s"))) == (
        "that is not a show: no pure run; needs a second run; 1 card in no group"
    )
    assert [a for a in deal.legal_actions(1) if a.kind is ActionKind.SHOW] == []


def test_nepali_wrong_show_is_refused_and_nothing_changes() -> None:
    deal = deal_of(NEPALI, {1: "Ks Kh Kc 10s 10h 10c 8s 8h 8c 6s 6h 6c 2d"}, stock="4d")
    deal.draw_stock(1)
    declared = [cards("Ks Kh Kc"), cards("10s 10h 10c"), cards("8s 8h 8c"), cards("6s 6h 6c 4d")]
    reason = refused(deal, 1, Action.show(c("2d"), declared))
    assert reason.startswith("that is not a show: 6s 6h 6c 4d: ")  # the group at fault, then the rule
    assert not deal.check_declaration(1, c("2d"))
    assert deal.statuses[1] is SeatStatus.IN and deal.phase is Phase.THROW


def test_declared_groups_are_checked_as_declared() -> None:
    deal = deal_of(NEPALI, {1: SEED002}, pile="Qc", cut="5h", stock="5c")
    deal.draw_stock(1)
    # The same thirteen, but with the pure run broken up: no longer a show as declared.
    bad = [cards("Ah 2h 5c"), cards("3h 4c 6c"), cards("7s 8s 5d 10s"), cards("Kd Kc Kh")]
    assert refused(deal, 1, Action.show(c("Js"), bad)).startswith("that is not a show: 3h 4c 6c")
    good = [cards("Kd Kc Kh"), cards("7s 8s 5d 10s"), cards("Ah 2h 3h"), cards("4c 5c 6c")]
    assert deal.can_show(1, c("Js"), good)
    event = deal.show(1, c("Js"), good)
    assert isinstance(event, Showed) and event.declared == tuple(tuple(g) for g in good)
    assert event.groups == event.declared


def test_a_declaration_must_lay_out_exactly_the_thirteen() -> None:
    deal = deal_of(KERALA, {1: SEED002}, pile="Qc", cut="5h", stock="5c")
    deal.draw_stock(1)
    short = [cards("Ah 2h 3h"), cards("4c 5c 6c"), cards("7s 8s 5d 10s")]
    assert refused(deal, 1, Action.show(c("Js"), short)) == (
        "the groups leave out Kh Kd Kc: a show lays out all 13 cards"
    )
    extra = [*short, cards("Kd Kc Kh Js")]
    assert refused(deal, 1, Action.show(c("Kd"), extra)) == (
        "the groups hold Kd, not among the cards you show"  # Kd is the finishing card
    )
    # even at Kerala, where a wrong show costs 100: a slip with the cards is not a show at all
    assert deal.statuses[1] is SeatStatus.IN


def test_the_finishing_card_cannot_be_the_card_just_taken_from_the_pile() -> None:
    deal = deal_of(NEPALI, {1: "Ah 2h 3h 4c 5c 6c 7s 8s 9s Kd Kc Kh Ks"}, pile="Qd", cut="9c")
    deal.draw_pile(1)  # the thirteen already show; only throwing the Qd back would finish
    assert refused(deal, 1, Action.show(c("Qd"))).startswith("cannot throw back the card just taken")
    assert deal.finishing_cards(1) == []
    assert not [a for a in deal.legal_actions(1) if a.kind is ActionKind.SHOW]


def test_kerala_wrong_show_costs_100_and_sits_out() -> None:
    deal = deal_of(KERALA, {1: H_NO_RUN, 2: SEED002}, pile="Qc", cut="5h", stock="2s 5c")
    deal.draw_stock(1)
    assert deal.can_show(1, c("2s"))  # accepted: it is a show that will fail and cost the penalty
    assert not deal.check_declaration(1, c("2s"))
    assert Action.show(c("2s")) not in deal.legal_actions(1)
    assert Action.show(c("2s")) in deal.legal_actions(1, wrong_shows=True)
    event = deal.show(1, c("2s"))
    assert isinstance(event, WrongShow) and event.penalty == 100
    assert event.reason == "no pure run; needs a second run; 1 card in no group"
    assert event.text() == "1 wrong show 2s: no pure run; needs a second run; 1 card in no group"
    assert deal.statuses[1] is SeatStatus.OUT and deal.hand(1) == () and deal.card_counts[1] == 0
    assert deal.pile_top == c("2s")  # the finishing card goes to the pile
    assert len(deal._out) == 13  # the hand is out of play
    assert not deal.over and deal.to_play == 2  # the others play on
    assert refused(deal, 1, Action.draw_stock()) == "you are out of this deal after a wrong show"
    deal.draw_stock(2)
    deal.show(2, c("Js"))
    result = deal.result
    assert result is not None and result.winner == 2 and result.charges[1] == 100
    assert result.wrong_shows == (False, True, False, False)
    assert sorted(result.seats[1].hand) == sorted(cards(H_NO_RUN))  # shown in public when it failed


def test_indian_wrong_show_costs_80_and_one_seat_left_in_wins() -> None:
    rules = get_preset("indian", players=2)
    deal = deal_of(rules, {1: H_NO_RUN}, stock="2s")
    deal.draw_stock(1)
    deal.show(1, c("2s"))
    result = deal.result
    assert result is not None and result.ending is Ending.LAST_IN and result.winner == 0
    assert result.charges == (0, 80)


def test_early_show_halves_is_only_indian_online() -> None:
    assert INDIAN.early_show_halves and not NEPALI.early_show_halves and not KERALA.early_show_halves


def test_indian_early_show_halves() -> None:
    hands = {1: SEED002, 2: H37, 3: H_NO_RUN, 0: H20}
    deal = deal_of(INDIAN, hands, pile="Qc", cut="5h", stock="5c")
    deal.draw_stock(1)
    deal.show(1, c("Js"))  # the very first turn: nobody else has played
    result = deal.result
    assert result is not None and result.halved
    arranger = Arranger(INDIAN)
    for s in (0, 2, 3):
        full = arranger.charge(cards(hands[s]), 5)
        assert result.seats[s].hand_charge == full
        assert result.seats[s].charge == full // 2  # rounded down
    assert result.charges[3] == 40


def test_an_early_show_halves_what_the_others_are_charged_a_drop_too() -> None:
    # RULES.md: "halves what the others are charged", and "a dropped seat is charged its drop"
    ready = "2s 3s 4s 6d 7d 8d Qh Qd Qc 10c Jc Kc Kh"  # draws Qc: 10c Jc Qc Kc run
    hands = {1: H14, 2: H37, 3: ready, 0: H20}
    deal = deal_of(INDIAN, hands, pile="Ac", cut="9c", stock="4h Qc")
    deal.draw_stock(1)
    deal.throw(1, c("4h"))
    deal.drop(2)  # seat 2's turn: it has had one
    deal.draw_stock(3)
    deal.show(3, c("Kh"))
    result = deal.result
    assert result is not None and result.halved  # seat 0 had not yet had a turn
    assert result.charges == (10, 7, 10, 0)  # 20, 14 and the drop's 20 halved
    assert [s.unhalved for s in result.seats] == [20, 14, 20, None]
    assert result_lines(result)[3] == "seat 2 dropped, charge 10 (halved from 20)"


def test_an_early_show_halves_a_wrong_shows_penalty_and_the_wrong_show_was_a_turn() -> None:
    hands = {1: H_NO_RUN, 2: SEED002, 3: H37, 0: H20}
    deal = deal_of(INDIAN, hands, pile="Qc", cut="5h", stock="2s 5c")
    deal.draw_stock(1)
    deal.show(1, c("2s"))  # a wrong show: 80, and seat 1 sits out (its turn is over)
    deal.draw_stock(2)
    deal.show(2, c("Js"))  # seats 3 and 0 have not played: early
    result = deal.result
    assert result is not None and result.winner == 2 and result.halved
    assert result.charges[1] == 40 and result.seats[1].unhalved == 80
    arranger = Arranger(INDIAN)
    for s in (3, 0):
        assert result.charges[s] == arranger.charge(cards(hands[s]), 5) // 2


def test_a_seat_that_dropped_or_showed_wrong_has_had_its_turn() -> None:
    # seat 1 shows wrong, seat 2 drops, seat 3 throws: every other seat has played when 0 shows
    ready = "2s 3s 4s 6d 7d 8d Qh Qd Qc 10c Jc Kc Kh"
    hands = {1: H20, 2: H14, 3: H37, 0: ready}
    deal = deal_of(INDIAN, hands, pile="Ac", cut="9c", stock="7s 4h Qc")
    deal.draw_stock(1)
    deal.show(1, c("7s"))
    deal.drop(2)
    deal.draw_stock(3)
    deal.throw(3, c("4h"))
    deal.draw_stock(0)
    deal.show(0, c("Kh"))
    result = deal.result
    assert result is not None and result.winner == 0 and not result.halved
    assert result.charges == (0, 80, 20, 37)
    assert all(s.unhalved is None for s in result.seats)


def test_a_show_after_every_seat_had_a_turn_is_not_halved() -> None:
    hands = {1: H14, 2: H37, 3: H20, 0: "2s 3s 4s 6d 7d 8d Qh Qd Qc 10c Jc Kc Kh"}
    deal = deal_of(INDIAN, hands, pile="Ac", cut="9c", stock="4h 7s 8s Qc")
    for seat in (1, 2, 3):
        deal.draw_stock(seat)
        deal.throw(seat, deal.drawn or 0)
    deal.draw_stock(0)
    deal.show(0, c("Kh"))
    result = deal.result
    assert result is not None and not result.halved
    assert result.charges == (0, 14, 37, 20)


def test_kerala_complete_hand_that_did_not_get_to_show_counts_2() -> None:
    complete = "2s 3s 4s 6d 7d 8d Qh Qd Qs 10c Jc Qc Kc"
    hands = {1: SEED002, 2: complete}
    deal = deal_of(KERALA, hands, pile="Ac", cut="5h", stock="5c")
    deal.draw_stock(1)
    deal.show(1, c("Js"))
    assert deal.result is not None and deal.result.charges[2] == 2


def test_north_indian_show_needs_a_run_of_four() -> None:
    hand = "Ah 2h 3h 4c 5c 6c 7s 8s 9s Kd Kc Kh Ks"  # runs of three only
    indian = deal_of(INDIAN, {1: hand}, pile="Qc", cut="5h", stock="Qd")
    indian.draw_stock(1)
    assert indian.check_declaration(1, c("Qd"))
    deal = deal_of(get_preset("north-indian"), {1: hand}, pile="Qc", cut="5h", stock="Qd")
    deal.draw_stock(1)
    declared = [cards("Ah 2h 3h"), cards("4c 5c 6c"), cards("7s 8s 9s"), cards("Kd Kc Kh Ks")]
    verdict = deal.check_declaration(1, c("Qd"), declared)
    assert verdict.reason == "that is not a show: needs a run of four or more cards"
    assert not deal.check_declaration(1, c("Qd"))
    assert deal.can_show(1, c("Qd"))  # a penalty table: the show is taken, and fails
    event = deal.show(1, c("Qd"))
    assert isinstance(event, WrongShow) and event.penalty == 80


# ---------------------------------------------------------------- the stock and the limits


def draw_and_throw_back(deal: ShowDeal) -> None:
    """One turn that leaves the hand as it was: draw the stock's top and throw it."""
    seat = deal.to_play
    assert seat is not None
    deal.draw_stock(seat)
    deal.throw(seat, deal.drawn if deal.drawn is not None else -1)


def test_stock_rebuilt_from_pile_top_card_stays() -> None:
    deal = deal_of(NEPALI, {}, seed="rebuild")
    cut = deal._cut
    while deal.stock_count > 1:
        draw_and_throw_back(deal)
    assert deal.rebuilds == 0
    seat = deal.to_play
    assert seat is not None
    deal.draw_stock(seat)
    before_pile = list(deal._pile)
    deal.throw(seat, deal.drawn or 0)
    top = deal._pile[-1]
    under = before_pile  # everything under the card just thrown
    event = deal.events[-1]
    assert isinstance(event, StockRebuilt) and event.text() == f"stock rebuilt: {len(under)} cards"
    assert deal.rebuilds == 1 and deal._pile == [top]
    assert sorted(deal._stock) == sorted(under) and deal.stock_count == len(under)
    assert cut not in deal._stock and deal._cut == cut  # the cut card never comes back
    assert deal._stock != under[::-1]  # shuffled, not just turned over
    assert deal.phase is Phase.DRAW and deal.can_draw_stock(deal.to_play or 0)


def test_stock_rebuild_shuffle_follows_the_seed() -> None:
    one = deal_of(NEPALI, {}, seed="a")
    two = deal_of(NEPALI, {}, seed="a")
    other = deal_of(NEPALI, {}, seed="b")
    for deal in (one, two, other):
        while deal.rebuilds == 0:
            draw_and_throw_back(deal)
    assert one._stock == two._stock != other._stock


def test_250_turn_limit_lowest_charge_wins() -> None:
    hands = {0: H20, 1: H14, 2: H37, 3: H_NO_RUN}
    deal = deal_of(NEPALI, hands)
    while not deal.over:
        draw_and_throw_back(deal)
    result = deal.result
    assert result is not None and result.ending is Ending.TURN_LIMIT and result.turns == 250
    assert deal.rebuilds >= 1
    assert result.winner == 1 and result.charges == (20, 0, 37, 80)
    # every hand still in is shown as it stands; the winner's too
    assert result.seats[1].hand_charge == 14 and result.seats[1].hand == tuple(sorted(cards(H14)))
    assert all(len(s.hand) == 13 for s in result.seats)


@pytest.mark.parametrize(("limit", "winner"), [(4, 1), (5, 0), (6, 0), (8, 1)])
def test_turn_limit_tie_goes_to_the_seat_that_would_have_played_next(limit: int, winner: int) -> None:
    hands = {0: H14_TIE, 1: H14, 2: H37, 3: H_NO_RUN}
    deal = deal_of(NEPALI.replace(turn_limit=limit), hands)
    while not deal.over:
        draw_and_throw_back(deal)
    assert deal.result is not None and deal.result.winner == winner
    assert sorted(deal.result.charges) == [0, 14, 37, 80]


def test_turn_limit_counts_drops_as_turns_and_skips_dropped_hands() -> None:
    deal = deal_of(NEPALI.replace(turn_limit=6), {0: H20, 1: H14, 2: H37, 3: H_NO_RUN})
    deal.drop(1)
    while not deal.over:
        draw_and_throw_back(deal)
    result = deal.result
    assert result is not None and result.turns == 6
    assert result.winner == 0 and result.charges == (0, 20, 37, 80)
    assert result.seats[1].hand == ()


def test_hard_cap_ends_a_deal_without_turn_limit_like_the_turn_limit() -> None:
    deal = deal_of(INDIAN, {0: H20, 1: H14, 2: H37, 3: H_NO_RUN}, turn_cap=12)
    assert deal.turn_limit == 12
    while not deal.over:
        draw_and_throw_back(deal)
    result = deal.result
    assert result is not None and result.ending is Ending.CAP and result.turns == 12
    assert result.winner == 1
    assert ShowDeal(INDIAN, 1).turn_limit == TURN_CAP == 2000
    assert ShowDeal(NEPALI, 1).turn_limit == 250
    assert ShowDeal(NEPALI.replace(turn_limit=5000), 1).turn_limit == TURN_CAP


def test_limited_stock_rebuilds_block_the_deal() -> None:
    deal = deal_of(NEPALI.replace(stock_rebuilds=0), {0: H20, 1: H14, 2: H37, 3: H_NO_RUN})
    while not deal.over:
        draw_and_throw_back(deal)
    result = deal.result
    assert result is not None and result.ending is Ending.BLOCKED and result.winner == 1
    assert result.turns == 106 - 52 - 2


# ---------------------------------------------------------------- events, views, replays


def test_event_text_forms() -> None:
    deal = deal_of(NEPALI, {1: SEED002}, pile="Qc", cut="5h", stock="4d 5c")
    deal.draw_stock(1)
    deal.throw(1, c("4d"))
    deal.draw_pile(2)
    deal.throw(2, next(k for k in deal.hand(2) if k != c("4d")))
    deal.drop(3)
    deal.draw_stock(0)
    deal.throw(0, c("5c"))
    deal.draw_pile(1)
    deal.show(1, c("Js"))
    first_throw_2 = deal.events[4]
    assert texts(deal) == [
        "0 deal pile Qc cut 5h",
        "1 draw stock",
        "1 throw 4d",
        "2 take 4d",
        first_throw_2.text(),
        "3 drop 20",
        "0 draw stock",
        "0 throw 5c",
        "1 take 5c",
        "1 show Js: Ah 2h 3h | 4c 5c 6c | 7s 8s 5d 10s | Kh Kd Kc",
        deal.events[-1].text(),
    ]
    assert first_throw_2.text().startswith("2 throw ")
    assert deal.events[-1].text().startswith("1 wins (show): ")
    assert [e.seq for e in deal.events] == list(range(len(deal.events)))


def test_events_show_each_seat_only_what_it_may_see() -> None:
    deal = deal_of(NEPALI, {}, stock="4d")
    dealt = deal.events[0]
    assert isinstance(dealt, Dealt) and not dealt.public
    for viewer in range(4):
        seen = dealt.seen_by(viewer)
        assert isinstance(seen, Dealt)
        assert seen.hands[viewer] == deal.hand(viewer)
        assert all(h is None for s, h in enumerate(seen.hands) if s != viewer)
    spectator = dealt.seen_by(None)
    assert isinstance(spectator, Dealt) and spectator.public
    drew = deal.draw_stock(1)
    assert drew.seen_by(1) is drew and drew.card == c("4d")
    hidden = drew.seen_by(2)
    assert isinstance(hidden, DrewStock) and hidden.card is None and hidden.public
    assert hidden.text() == drew.text() == "1 draw stock"
    thrown = deal.throw(1, c("4d"))
    assert thrown.public and thrown.seen_by(3) is thrown


def test_views_show_the_public_table_and_the_own_hand_only() -> None:
    deal = deal_of(NEPALI, {1: H14}, pile="Qc", cut="9c", stock="4d")
    view = deal.view(1)
    assert isinstance(view, SeatView) and view.my_turn
    assert view.hand == tuple(sorted(cards(H14)))
    assert view.pile == (c("Qc"),) and view.pile_top == c("Qc")
    assert view.cut == c("9c") and view.wild == 9
    assert view.card_counts == (13, 13, 13, 13) and view.stock_count == 106 - 54
    assert view.legal == (Action.drop(), Action.draw_stock(), Action.draw_pile())
    assert view.drop_cost == 20 and view.turn == 1 and view.phase is Phase.DRAW
    other = deal.view(2)
    assert other.legal == () and other.hand == deal.hand(2) and not other.my_turn
    spectator = deal.view(None)
    assert type(spectator) is SpectatorView and not hasattr(spectator, "hand")
    deal.draw_stock(1)
    assert deal.view(1).drawn == c("4d") and deal.view(2).drawn is None
    assert deal.view(1).card_counts[1] == 14


def test_after_the_show_the_counted_hands_are_public_but_never_a_dropped_one() -> None:
    ready = "2s 3s 4s 6d 7d 8d Qh Qd Qc 10c Jc Kc Kh"
    hands = {1: H14, 2: H37, 3: ready, 0: H20}
    deal = deal_of(NEPALI, hands, pile="Ac", cut="9c", stock="4h Qc")
    deal.draw_stock(1)
    deal.throw(1, c("4h"))
    deal.drop(2)
    deal.draw_stock(3)
    deal.show(3, c("Kh"))
    result = deal.view(0).result
    assert result is not None and deal.view(None).result == result
    assert result.seats[0].hand == tuple(sorted(cards(H20)))
    assert result.seats[1].hand == tuple(sorted(cards(H14)))
    assert result.seats[2].hand == () and result.seats[2].dropped
    assert result.seats[3].won and len(result.seats[3].hand) == 13
    assert result.seats[0].loose and result.seats[0].groups


def test_play_out_and_replay_give_the_same_log() -> None:
    deal = ShowDeal(NEPALI, "replay", dealer=2)

    def first_legal(view: SeatView) -> Action:
        legal = [a for a in view.legal if a.kind is not ActionKind.DROP]
        return legal[-1]

    result = play_out(deal, first_legal)
    assert deal.over and deal.result == result
    again = replay(NEPALI, "replay", moves_of(deal.events), dealer=2)
    assert again.events == deal.events


def test_new_deal_picks_the_family() -> None:
    assert isinstance(new_deal(NEPALI, 3), ShowDeal)
    assert new_deal(get_preset("rummy40"), 3).family == "table"
    with pytest.raises(ValueError, match="show family"):
        ShowDeal(get_preset("rummy40"), 3)


def test_bad_construction_is_refused() -> None:
    with pytest.raises(ValueError, match="dealer"):
        ShowDeal(NEPALI, 1, dealer=4)
    with pytest.raises(TypeError):
        ShowDeal(NEPALI, None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="every card"):
        ShowDeal.from_shoe(NEPALI, shoe(2, 2)[:-1])
    with pytest.raises(ValueError, match="other rules"):
        ShowDeal(NEPALI, 1, arranger=Arranger(INDIAN))
