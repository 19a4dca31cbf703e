"""The table-family deal against RULES.md and seeds 001 (Remi 51) and 003 (Rummy 40).

Scenarios are dealt from stacked shoes so that they are exact; each test is named after
the sentence it checks.  The random-play invariants at the end run many seeded deals of
both presets with random and greedy players.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from rummykit.bots.table_baseline import TableGreedy, TableRandom
from rummykit.engine.cards import JOKER, KINDS, format_cards, parse_card, parse_cards, shoe
from rummykit.engine.deal import IllegalAction, new_deal, stacked_shoe
from rummykit.engine.events import (
    Action,
    ActionKind,
    Dealt,
    Ending,
    LaidOff,
    Phase,
    PutBack,
    StockRebuilt,
    Swapped,
    TableMeld,
)
from rummykit.engine.groups import check_group
from rummykit.engine.rules import Rules, get_preset
from rummykit.engine.table_deal import TableDeal
from rummykit.engine.views import SeatView, SpectatorView

R40 = get_preset("rummy40")
R40_2 = get_preset("rummy40", players=2)
REMI_2 = get_preset("remi51", players=2)


def c(text: str) -> int:
    return parse_card(text)


def cards(text: str) -> list[int]:
    return parse_cards(text)


# Kinds that make no meld with each other in small numbers: spread over ranks and suits.
_JUNK = [(k * 5) % 52 for k in range(52)]


def deal_of(
    rules: Rules, hands: dict[int, str], pile: str = "Ac", stock: str = "", *, dealer: int = 0, seed: int = 0
) -> TableDeal:
    """A deal from a stacked shoe: the hands given by seat, the others filled with spread-out cards;
    ``pile`` is turned up where the rules turn a card up at the deal (not at Remi 51)."""
    given = {s: cards(t) for s, t in hands.items()}
    left = Counter({k: rules.packs for k in range(52)})
    left[JOKER] = rules.printed_jokers
    left.subtract(k for h in given.values() for k in h)
    up = c(pile) if rules.pile_at_deal else None
    if up is not None:
        left[up] -= 1
    left.subtract(cards(stock))
    assert all(v >= 0 for v in left.values()), "the test asks for more copies than the shoe holds"
    first = (dealer + 1) % rules.players
    full = []
    for s in range(rules.players):
        if s in given:
            full.append(given[s])
            continue
        size = rules.first_hand_size if s == first else rules.hand_size
        h: list[int] = []
        for k in _JUNK * 2:
            if len(h) == size:
                break
            if left[k] > 0 and k not in h:
                left[k] -= 1
                h.append(k)
        full.append(h)
    order = stacked_shoe(rules, full, up, None, cards(stock), dealer=dealer)
    return TableDeal.from_shoe(rules, order, dealer=dealer, seed=seed)


def refused(deal: TableDeal, seat: int, action: Action) -> str:
    """The reason ``action`` is refused; checks that the refusal changed nothing."""
    before = deal.fingerprint()
    verdict = deal.can(seat, action)
    assert not verdict
    with pytest.raises(IllegalAction) as info:
        deal.apply(seat, action)
    assert deal.fingerprint() == before
    assert info.value.reason == verdict.reason
    return verdict.reason


def rig_hand(deal: TableDeal, seat: int, text: str) -> None:
    """Give ``seat`` exactly these cards, trading with the stock (every card stays in one place)."""
    deal._stock[:0] = deal._hands[seat]  # under the stock, so the next draws stay as stacked
    deal._hands[seat] = []
    for k in cards(text):
        phys = next(p for p in deal._stock if p % KINDS == k)
        deal._stock.remove(phys)
        deal._hands[seat].append(phys)


def pass_turn(deal: TableDeal) -> None:
    """The seat to play draws from the stock and throws that card straight back."""
    seat = deal.to_play
    assert seat is not None
    drawn = deal.draw_stock(seat).card
    assert drawn is not None
    deal.throw(seat, drawn)


# ---------------------------------------------------------------- the deal


@pytest.mark.parametrize(("players", "stock"), [(2, 81), (3, 68), (4, 55), (5, 42), (6, 29)])
def test_stock_after_the_deal_is_81_68_55_42_29_for_2_to_6_players(players: int, stock: int) -> None:
    deal = TableDeal(get_preset("rummy40", players=players), "stock")
    assert deal.stock_count == stock
    assert all(len(deal.hand(s)) == 13 for s in range(players))
    assert len(deal.pile) == 1  # one more card face up starts the discard pile
    assert deal.to_play == 1 and deal.phase is Phase.DRAW


def test_rummy_uses_108_cards_two_decks_plus_4_jokers() -> None:
    deal = TableDeal(R40, 5)
    held = [k for s in range(4) for k in deal.hand(s)] + list(deal.pile)
    assert R40.shoe_size == 108 and len(held) + deal.stock_count == 108
    assert sorted(
        c % KINDS for c in deal._stock + deal._pile + [x for h in deal._hands for x in h]
    ) == sorted(k % KINDS for k in shoe(2, 4))


def test_remi_deals_14_cards_and_15_to_the_first_player_who_does_not_draw_in_the_first_cycle() -> None:
    deal = TableDeal(get_preset("remi51"), 3, dealer=2)
    assert [len(deal.hand(s)) for s in range(4)] == [14, 14, 14, 15]  # seat 3 plays first
    first = 3
    assert deal.to_play == first and deal.phase is Phase.PLAY
    assert deal.legal_actions(first) and all(a.kind is ActionKind.THROW for a in deal.legal_actions(first))
    reason = refused(deal, first, Action.draw_stock())
    assert reason == "the first player skips the draw on the first turn: play and throw"
    deal.throw(first, deal.hand(first)[0])
    assert deal.to_play == 0 and len(deal.hand(first)) == 14
    assert deal.view(0).phase is Phase.DRAW


@pytest.mark.parametrize(("players", "stock"), [(2, 79), (3, 65), (4, 51)])
def test_remi_turns_no_card_up_the_rest_is_put_aside_as_stock_and_the_first_throw_starts_the_pile(
    players: int, stock: int
) -> None:
    """Seed 001: "The rest of the cards are put aside on the table": no pile card at the deal;
    the stock is 108 - 15 - 14 * (players - 1), and the first player's throw starts the pile."""
    deal = TableDeal(get_preset("remi51", players=players), "remi stock", dealer=players - 1)
    assert deal.stock_count == stock == 108 - 15 - 14 * (players - 1)
    assert deal.pile == () and deal.pile_top is None
    dealt = deal.events[0]
    assert isinstance(dealt, Dealt) and dealt.pile_top is None and dealt.stock_count == stock
    assert dealt.text() == f"{players - 1} deal"
    for viewer in [*range(players), None]:
        view = deal.view(viewer)
        assert view.pile == () and view.pile_top is None and view.stock_count == stock
    assert all(a.kind is ActionKind.THROW for a in deal.legal_actions(0))  # fifteen cards: no draw
    card = deal.hand(0)[-1]
    deal.throw(0, card)
    assert deal.pile == (card,) and deal.pile_top == card and deal.stock_count == stock
    assert deal.legal_actions(1) == [Action.draw_stock()]  # not opened: the stock only


def test_without_a_pile_card_a_seed_deals_the_same_hands_and_the_same_stock() -> None:
    """The rule change leaves the shuffle alone: the card the shoe held for the pile lies under
    the stock, so the hands and the order of the draws are those of a deal with a pile card."""
    remi = get_preset("remi51", players=3)
    plain, with_pile = TableDeal(remi, 51, dealer=1), TableDeal(remi.replace(pile_at_deal=True), 51, dealer=1)
    assert [plain.hand(s) for s in range(3)] == [with_pile.hand(s) for s in range(3)]
    assert plain._stock == [with_pile._pile[0], *with_pile._stock]
    # every other table still turns its pile card up (the golden histories pin their deals)
    for name, stock in (("rummy40", 108 - 4 * 13 - 1), ("nepali", 106 - 4 * 13 - 2)):
        deal = new_deal(get_preset(name), 51)
        assert deal.stock_count == stock and len(deal.pile) == 1


def test_new_deal_makes_the_table_familys_deal() -> None:
    assert isinstance(new_deal(R40, 1), TableDeal)
    assert isinstance(new_deal(get_preset("remi51"), 1), TableDeal)
    with pytest.raises(ValueError, match="table family"):
        TableDeal(get_preset("nepali"), 1)


# ---------------------------------------------------------------- drawing


def test_a_card_drawn_from_the_stock_may_be_thrown_straight_back() -> None:
    deal = deal_of(R40_2, {}, stock="9d")
    deal.draw_stock(1)
    deal.throw(1, c("9d"))
    assert deal.pile_top == c("9d") and deal.to_play == 0


def test_you_cannot_discard_the_face_up_card_until_it_has_been_placed_and_it_must_be_in_the_opening() -> None:
    hand = "Ks Kh 5h 6h 7h 2c 4d 9s Jc 3s 8d 10c Qd"
    deal = deal_of(R40_2, {1: hand}, pile="Kd", stock="2d")
    deal.draw_pile(1)
    assert deal.pile_due == c("Kd") and deal.view(0).pile_due == c("Kd")
    assert refused(deal, 1, Action.throw(c("2c"))) == "use the card you took from the pile before throwing"
    melds = [cards("Ks Kh Kd"), cards("5h 6h 7h")]
    assert refused(deal, 1, Action.open([cards("5h 6h 7h"), cards("Jc Qd JK")])).startswith(
        "the melds hold JK"
    )
    short = Action.open([cards("5h 6h 7h")])
    assert refused(deal, 1, short) == "the card you took from the pile, Kd, must be part of your opening"
    assert Action.open(melds) in deal.legal_actions(1)  # the best opening holds it
    event = deal.open(1, melds)
    assert event.text() == "1 open Ks Kh Kd | 5h 6h 7h (48)"
    assert deal.pile_due is None and deal.opened == (False, True)
    deal.throw(1, c("2c"))


def test_put_back_returns_the_face_up_card_so_you_can_draw_from_the_stock_instead() -> None:
    deal = deal_of(R40_2, {}, pile="Kd", stock="2d")
    deal.draw_pile(1)
    assert Action.put_back() in deal.legal_actions(1)
    event = deal.put_back(1)
    assert isinstance(event, PutBack) and event.text() == "1 put back"
    assert deal.pile_top == c("Kd") and deal.phase is Phase.DRAW and deal.took[1] == ()
    assert refused(deal, 1, Action.draw_pile()) == "you put that card back: draw from the stock"
    assert deal.legal_actions(1) == [Action.draw_stock()]
    deal.draw_stock(1)
    assert refused(deal, 1, Action.put_back()) == "there is no card taken from the pile to put back"


def test_put_back_only_before_anything_else_is_done() -> None:
    deal = deal_of(R40_2, {1: "Ks Kh 5h 6h 7h 9h 10h Jh 4d 9s Jc 3s 8d"}, pile="Kd")
    deal.draw_pile(1)
    deal.open(1, [cards("Ks Kh Kd"), cards("5h 6h 7h")])
    assert (
        refused(deal, 1, Action.put_back())
        == "too late to put the card back: you have already played this turn"
    )


def test_remi_until_opened_a_player_draws_only_from_the_stock() -> None:
    deal = deal_of(REMI_2, {})
    deal.throw(1, deal.hand(1)[0])
    assert refused(deal, 0, Action.draw_pile()) == "the pile is yours to take only after opening"
    assert deal.legal_actions(0) == [Action.draw_stock()]


# ---------------------------------------------------------------- opening


def test_ks_kh_kd_plus_5h_6h_7h_makes_48_enough_to_open_at_30_or_40_short_of_51() -> None:
    hand = "Ks Kh Kd 5h 6h 7h 2c 4d 9s Jc 3s 8d 10c"
    melds = [cards("Ks Kh Kd"), cards("5h 6h 7h")]
    for opening, ok in ((30, True), (40, True), (51, False)):
        deal = deal_of(R40_2.replace(opening=opening), {1: hand}, stock="Qd")
        deal.draw_stock(1)
        if ok:
            assert deal.open(1, melds).points == 48
        else:
            assert (
                refused(deal, 1, Action.open(melds)) == "an opening needs 51 points: these make 48, 3 short"
            )


def test_three_aces_in_a_set_are_worth_33_7_short_of_40() -> None:
    deal = deal_of(R40_2, {1: "As Ah Ad 2c 4d 9s Jc 3s 8d 10c 5h 7s Qd"}, stock="6c")
    deal.draw_stock(1)
    reason = refused(deal, 1, Action.open([cards("As Ah Ad")]))
    assert reason == "an opening needs 40 points: these make 33, 7 short"


def test_the_total_does_not_carry_over_and_nothing_else_goes_down_before_opening() -> None:
    deal = deal_of(R40_2, {1: "Ks Kh Kd 2c 4d 9s Jc 3s 8d 10c 5h 7s Qd"}, stock="6c")
    deal.draw_stock(1)
    assert refused(deal, 1, Action.lay_down(cards("Ks Kh Kd"))) == "not before you have opened"
    assert refused(deal, 1, Action.lay_off(1, cards("Ks"))) == "not before you have opened"
    assert refused(deal, 1, Action.swap(1, c("Ks"))) == "not before you have opened"


def test_if_the_opening_leaves_0_or_1_cards_the_threshold_is_waived_and_going_out_doubles() -> None:
    hand = "As 2s 3s 4s Ah 2h 3h Ad 2d 3d Ac 2c 3c"  # 10 + 6 + 6 + 6 = 28 points
    melds = [cards("As 2s 3s 4s"), cards("Ah 2h 3h"), cards("Ad 2d 3d"), cards("Ac 2c 3c")]
    deal = deal_of(R40_2, {1: hand}, stock="9c")
    deal.draw_stock(1)
    assert refused(deal, 1, Action.open(melds[1:])) == "an opening needs 40 points: these make 18, 22 short"
    event = deal.open(1, melds)
    assert event.points == 28 and event.waived
    deal.throw(1, c("9c"))
    result = deal.result
    assert result is not None and result.ending is Ending.OUT and result.winner == 1
    assert result.doubled and result.finish_card == c("9c")
    rival = result.seats[0]
    assert rival.hand_charge == deal.hand_count(0) and rival.charge == 2 * rival.hand_charge
    assert result.seats[1].charge == 0 and result.collected == 2 * rival.hand_charge


def test_hand_rummy_opening_and_going_out_in_the_same_turn_scores_double() -> None:
    hand = "Ks Kh Kd 5h 6h 7h 9d 10d Jd 2s 3s 4s 5s"
    deal = deal_of(R40_2, {1: hand}, stock="8c")
    deal.draw_stock(1)
    deal.open(1, [cards("Ks Kh Kd"), cards("5h 6h 7h"), cards("9d 10d Jd"), cards("2s 3s 4s 5s")])
    assert not deal.over
    deal.throw(1, c("8c"))
    assert deal.result is not None and deal.result.doubled
    assert deal.result.seats[0].charge == 2 * deal.hand_count(0)


def test_no_opening_in_the_first_round_of_remi() -> None:
    hand = "Ks Kh Kd Qs Qh Qd Js Jh Jd 10s 10h 10d 9s 9h 2c"
    deal = deal_of(REMI_2, {1: hand})
    melds = [cards("Ks Kh Kd"), cards("Qs Qh Qd")]
    assert refused(deal, 1, Action.open(melds)) == "no opening in the first round"
    assert not any(a.kind is ActionKind.OPEN for a in deal.legal_actions(1))
    deal.throw(1, c("2c"))
    pass_turn(deal)
    deal.draw_stock(1)
    assert deal.open(1, melds).points == 60


def test_remi_opening_is_51_or_higher() -> None:
    hand = "Ks Kh Kd 5s 6s 7s 2c 3d 9h 4c 8d Jh 10c Ac 6d"
    deal = deal_of(REMI_2, {1: hand})
    deal.throw(1, c("6d"))
    pass_turn(deal)
    deal.draw_stock(1)
    reason = refused(deal, 1, Action.open([cards("Ks Kh Kd"), cards("5s 6s 7s")]))
    assert reason == "an opening needs 51 points: these make 48, 3 short"


# ---------------------------------------------------------------- melds on the table


def opened_pair() -> TableDeal:
    """Seat 1 opens with Ks Kh Kd | 5h JK 7h | 9d 10d Jd and throws; seat 0 has drawn."""
    deal = deal_of(
        R40_2,
        {1: "Ks Kh Kd 5h JK 7h 9d 10d Jd 2s 3s 8c Qs", 0: "Qc Qh Qd 6c 7c 8c 6h 8d 4d Ac Kc 2h Jh"},
        stock="4s 10c",
    )
    deal.draw_stock(1)
    deal.open(1, [cards("Ks Kh Kd"), cards("5h JK 7h"), cards("9d 10d Jd")])
    deal.throw(1, c("8c"))
    deal.draw_stock(0)
    return deal


def meld(deal: TableDeal, meld_id: int) -> TableMeld:
    m = deal.meld(meld_id)
    assert m is not None
    return m


def test_melds_on_the_table_are_public_with_ids_owners_and_what_each_joker_stands_for() -> None:
    deal = opened_pair()
    m1, m2, m3 = deal.melds
    assert (m1.id, m1.owner, m1.kind, m1.cards) == (1, 1, "set", tuple(cards("Ks Kh Kd")))
    assert (
        m2.kind == "run"
        and m2.cards == tuple(cards("5h JK 7h"))
        and m2.stands_for == tuple(cards("5h 6h 7h"))
    )
    assert m3.stands_for == tuple(cards("9d 10d Jd"))
    for viewer in (0, 1, None):
        view = deal.view(viewer)
        assert view.melds == deal.melds and view.opened == (False, True)


def test_once_opened_you_can_add_cards_to_any_meld_yours_or_a_rivals_even_in_the_opening_turn() -> None:
    deal = opened_pair()
    assert refused(deal, 0, Action.lay_off(3, cards("8d"))) == "not before you have opened"
    deal.open(0, [cards("Qc Qh Qd"), cards("6c 7c 8c")])
    event = deal.lay_off(0, 3, cards("8d"))  # a rival's run grows at its low end
    assert isinstance(event, LaidOff) and event.text() == "0 lay off 3 8d"
    assert meld(deal, 3) == TableMeld(3, 1, "run", tuple(cards("8d 9d 10d Jd")), tuple(cards("8d 9d 10d Jd")))
    deal.lay_off(0, 1, cards("Kc"))  # a set takes a suit it does not hold yet
    assert len(meld(deal, 1).cards) == 4
    assert (
        refused(deal, 0, Action.lay_off(2, cards("Ac")))
        == "Ac does not fit meld 2: a run of hearts, which takes only hearts"
    )
    reason = refused(deal, 0, Action.lay_off(2, cards("Jh")))
    assert (
        reason == "Jh does not fit meld 2: a run of hearts from 5h to 7h: it would leave a gap at 8h 9h 10h"
    )
    assert refused(deal, 0, Action.lay_off(9, cards("Jh"))) == "there is no meld 9 on the table"
    assert refused(deal, 0, Action.lay_off(2, cards("Qs"))) == "Qs is not in your hand"


def test_a_natural_card_filling_a_jokers_slot_exactly_takes_its_place_and_the_joker_must_go_back_down() -> (
    None
):
    deal = opened_pair()
    deal.open(0, [cards("Qc Qh Qd"), cards("6c 7c 8c")])
    assert refused(deal, 0, Action.swap(2, c("4d"))) == "the slot needs 6h"
    assert refused(deal, 0, Action.swap(1, c("Kc"))) == "meld 1 holds no joker"
    assert Action.swap(2, c("6h")) in deal.legal_actions(0)
    event = deal.swap(0, 2, c("6h"))
    assert isinstance(event, Swapped) and event.text() == "0 swap 2 6h"
    assert meld(deal, 2).cards == tuple(cards("5h 6h 7h"))
    assert JOKER in deal.hand(0) and deal.owed_jokers == 1 and deal.view(1).owed_jokers == 1
    assert refused(deal, 0, Action.throw(c("Jh"))) == "you must lay the freed joker down this turn"
    assert not any(a.kind is ActionKind.THROW for a in deal.legal_actions(0))
    deal.lay_off(0, 1, cards("Kc"))
    reason = refused(deal, 0, Action.lay_off(1, [JOKER]))
    assert reason == "JK does not fit meld 1: a set of kings, which holds at most four cards"
    deal.lay_off(0, 5, [JOKER])  # onto 6c 7c 8c: at the high end
    assert meld(deal, 5).stands_for == tuple(cards("6c 7c 8c 9c"))
    assert deal.owed_jokers == 0
    deal.throw(0, c("Jh"))
    assert deal.to_play == 1


REMI_SWAP_HAND = "Ks Kh Kd Qs Qh Qd 5h JK 7h 6h 2c 9s 4d 8c Jd"


def remi_swapped(**changes: object) -> TableDeal:
    """Remi 51, seat 1 opens in its second turn with Ks Kh Kd | Qs Qh Qd | 5h JK 7h (78 points)
    and puts its 6h in the joker's place."""
    deal = deal_of(REMI_2.replace(**changes), {1: REMI_SWAP_HAND}, stock="9c 3s 8d 10d")
    deal.throw(1, c("2c"))
    pass_turn(deal)  # seat 0 draws 9c
    deal.draw_stock(1)  # 3s
    deal.open(1, [cards("Ks Kh Kd"), cards("Qs Qh Qd"), cards("5h JK 7h")])
    deal.swap(1, 3, c("6h"))
    assert JOKER in deal.hand(1) and meld(deal, 3).cards == tuple(cards("5h 6h 7h"))
    return deal


def test_remi_a_joker_freed_by_a_swap_may_be_kept_to_make_a_new_tercet_later() -> None:
    """Seed 001: "you exchange your card with the Joker from the third, so you can use that Joker
    to create (and maybe discard) a new Tercet": the joker is the player's, the turn may end
    holding it, and it goes down (or is thrown) whenever the player likes."""
    deal = remi_swapped()
    assert deal.owed_jokers == 0 and deal.view(0).owed_jokers == 0
    legal = deal.legal_actions(1)
    assert Action.throw(c("9s")) in legal and Action.throw(JOKER) in legal  # it may be thrown, too
    deal.throw(1, c("9s"))  # the turn ends holding the joker
    assert deal.to_play == 0 and JOKER in deal.hand(1)
    pass_turn(deal)  # seat 0 draws 8d
    deal.draw_stock(1)  # 10d
    assert JOKER in deal.hand(1)
    deal.lay_down(1, cards("10d Jd JK"))  # a new Tercet, a turn later
    assert meld(deal, 4).stands_for == tuple(cards("10d Jd Qd"))
    deal.throw(1, c("3s"))
    assert deal.to_play == 0


def test_remi_the_freed_joker_stays_owed_where_a_house_rule_says_it_must_go_down() -> None:
    deal = remi_swapped(freed_joker_must_go_down=True)
    assert deal.owed_jokers == 1
    assert refused(deal, 1, Action.throw(c("9s"))) == "you must lay the freed joker down this turn"
    assert not any(a.kind is ActionKind.THROW for a in deal.legal_actions(1))


def test_7s_7h_joker_joker_is_legal_and_5h_joker_joker_8h_is_not() -> None:
    hand = "Ks Kh Kd Qs Qh Qd 7s 7h JK JK 5h 8h 2c"
    deal = deal_of(R40_2, {1: hand}, stock="4d")
    deal.draw_stock(1)
    deal.open(1, [cards("Ks Kh Kd"), cards("Qs Qh Qd")])
    assert refused(deal, 1, Action.lay_down(cards("5h JK JK 8h"))) == "5h JK JK 8h: two jokers side by side"
    event = deal.lay_down(1, cards("7s 7h JK JK"))
    assert event.text() == "1 lay down 7s 7h JK JK"
    assert meld(deal, 3).stands_for == tuple(cards("7s 7h 7d 7c"))


# ---------------------------------------------------------------- going out and the count


def test_if_three_rivals_are_left_holding_4_22_and_24_points_the_winner_scores_50() -> None:
    hand = "Ks Kh Kd 5h 6h 7h 9d 10d Jd 2s 3s 4s Qd"
    deal = deal_of(R40, {1: hand}, stock="8c 2c 3d 4h 5s")
    deal.draw_stock(1)
    deal.open(1, [cards("Ks Kh Kd"), cards("5h 6h 7h"), cards("9d 10d Jd")])
    deal.throw(1, c("8c"))
    for _ in range(3):
        pass_turn(deal)
    for seat, held in ((2, "4c"), (3, "Kc 2d 10h"), (0, "Ac 3d Qh")):
        rig_hand(deal, seat, held)
    deal.draw_stock(1)
    deal.lay_off(1, 3, cards("Qd"))
    assert not deal.over
    deal.lay_down(1, cards("2s 3s 4s 5s"))  # the hand is empty: the deal ends at once
    result = deal.result
    assert result is not None and result.ending is Ending.OUT and result.winner == 1
    assert result.charges == (24, 0, 4, 22) and result.collected == 50
    assert not result.doubled and result.finish_card is None
    assert deal.events[-1].text() == "1 wins (out): 24 0 4 22"


def test_blocked_deal_after_the_second_rebuild_the_lightest_hand_wins_what_each_other_hand_outweighs_it() -> (
    None
):
    deal = TableDeal(R40_2, "blocked")
    while not deal.over:
        pass_turn(deal)
    result = deal.result
    assert result is not None and result.ending is Ending.BLOCKED
    assert deal.rebuilds == 2 and sum(isinstance(e, StockRebuilt) for e in deal.events) == 2
    counts = [deal.hand_count(s) for s in range(2)]
    light = min(counts)
    assert result.seats[result.winner].hand_charge == light
    assert result.charges == tuple(n - light for n in counts)


def test_remi_never_blocks_without_a_rebuild_limit() -> None:
    deal = TableDeal(REMI_2, "blocked", turn_cap=400)
    deal.throw(1, deal.hand(1)[0])  # the first player does not draw in the first cycle
    while not deal.over:
        pass_turn(deal)
    assert deal.result is not None and deal.result.ending is Ending.CAP and deal.rebuilds >= 2
    winner = deal.result.winner
    assert deal.result.charges[winner] == -20


REMI_HAND = "Ks Kh Kd Kc Qs Qh Qd Qc Js Jh Jd 10s 10h 10d 2c"
REMI_MELDS = [cards("Ks Kh Kd Kc"), cards("Qs Qh Qd Qc"), cards("Js Jh Jd"), cards("10s 10h 10d")]


def remi_second_turn(draw: str, then: str = "6c") -> TableDeal:
    deal = deal_of(REMI_2, {1: REMI_HAND}, stock=f"9c {draw} 8c {then}")
    deal.throw(1, c("2c"))
    pass_turn(deal)  # seat 0 draws 9c
    deal.draw_stock(1)
    return deal


def test_remi_the_last_card_must_be_thrown_never_melded() -> None:
    deal = remi_second_turn("5c")
    deal.open(1, REMI_MELDS[:3])  # 110 points, four cards left
    assert deal.hand(1) == tuple(sorted(cards("10s 10h 10d 5c")))
    deal.lay_down(1, cards("10s 10h 10d"))
    assert deal.hand(1) == (c("5c"),)
    assert refused(deal, 1, Action.lay_off(1, cards("5c"))).startswith("5c does not fit")
    deal.throw(1, c("5c"))
    assert deal.over


def test_remi_an_opening_or_meld_that_leaves_no_card_to_throw_is_refused() -> None:
    deal = remi_second_turn("10c")
    assert (
        refused(deal, 1, Action.open([*REMI_MELDS[:3], cards("10s 10h 10d 10c")]))
        == "the last card must be thrown"
    )
    deal.open(1, REMI_MELDS[:3])
    deal.lay_down(1, cards("10s 10h 10d"))
    assert refused(deal, 1, Action.lay_off(4, cards("10c"))) == "the last card must be thrown"


def test_remi_handling_lays_everything_down_at_once_and_scores_minus_40_the_others_double() -> None:
    deal = remi_second_turn("5c")
    deal.open(1, REMI_MELDS)
    deal.throw(1, c("5c"))
    result = deal.result
    assert result is not None and result.ending is Ending.OUT
    assert result.charges[1] == -40 and result.doubled
    assert result.charges[0] == 2 * deal.hand_count(0) == 2 * (result.seats[0].hand_charge or 0)


def test_remi_closing_with_the_joker_scores_minus_40_the_others_double() -> None:
    deal = remi_second_turn("5c", then="JK")
    deal.open(1, REMI_MELDS[:3])
    deal.throw(1, c("5c"))
    pass_turn(deal)  # seat 0 draws 8c
    deal.draw_stock(1)
    deal.lay_down(1, cards("10s 10h 10d"))
    deal.throw(1, JOKER)
    result = deal.result
    assert result is not None and result.charges[1] == -40 and result.doubled
    assert result.finish_card == JOKER and result.charges[0] == 2 * deal.hand_count(0)


def test_remi_closing_with_any_other_card_scores_minus_20_and_a_joker_in_hand_counts_20() -> None:
    deal = remi_second_turn("5c")
    deal.open(1, REMI_MELDS[:3])
    deal.throw(1, c("5c"))
    pass_turn(deal)
    rig_hand(deal, 0, "JK 4d Ac")
    deal.draw_stock(1)  # 6c
    deal.lay_down(1, cards("10s 10h 10d"))
    deal.throw(1, c("6c"))
    result = deal.result
    assert result is not None and result.charges == (34, -20) and not result.doubled


def test_remi_after_opening_the_pile_top_may_be_taken() -> None:
    deal = remi_second_turn("5c")
    deal.open(1, REMI_MELDS[:3])
    deal.throw(1, c("5c"))
    deal.draw_stock(0)
    deal.throw(0, c("8c"))
    assert deal.can_draw_pile(1)
    deal.draw_pile(1)
    assert refused(deal, 1, Action.throw(c("10s"))) == "use the card you took from the pile before throwing"
    deal.put_back(1)


# ---------------------------------------------------------------- illegal actions


def test_actions_from_the_wrong_seat_phase_or_with_garbage_are_refused_and_change_nothing() -> None:
    deal = opened_pair()
    assert refused(deal, 1, Action.lay_down(cards("2s 3s 4s"))) == "not your turn: seat 0 is to play"
    assert refused(deal, 0, Action(ActionKind.OPEN, groups=(("x",),))).startswith("not a card")  # type: ignore[arg-type]
    assert refused(deal, 0, Action(ActionKind.OPEN)) == "an opening is one or more melds laid down together"
    assert refused(deal, 0, Action.open([cards("Qc Qh")])) == "Qc Qh: a group has at least 3 cards"
    assert refused(deal, 0, Action(ActionKind.LAY_OFF, meld=None, cards=(1,))) == "not before you have opened"
    deal.open(0, [cards("Qc Qh Qd"), cards("6c 7c 8c")])
    assert (
        refused(deal, 0, Action(ActionKind.LAY_OFF, meld=None, cards=(1,)))
        == "there is no meld None on the table"
    )
    assert refused(deal, 0, Action(ActionKind.LAY_OFF, meld=2, cards=("x",))).startswith("not a card")  # type: ignore[arg-type]
    assert refused(deal, 0, Action(ActionKind.SWAP, meld=2, card=None)).startswith("not a card")
    assert refused(deal, 0, Action.drop()) == "drop is not an action at this table"
    assert refused(deal, 0, Action.open([cards("Qc Qh")])) == "you have already opened"
    assert refused(deal, 0, Action.lay_down(cards("2h Jh"))) == "2h Jh: a group has at least 3 cards"


# ---------------------------------------------------------------- random play


FULL = sorted(shoe(2, 4))
SPECTATOR_FIELDS = {f.name for f in dataclasses.fields(SpectatorView)}


def check_cards(deal: TableDeal) -> None:
    """Every physical card in exactly one place: hands, stock, pile, melds on the table."""
    places = [x for h in deal._hands for x in h] + deal._stock + deal._pile
    places += [x for m in deal._table_cards for x in m]
    assert sorted(places) == FULL
    for m, phys in zip(deal._table, deal._table_cards, strict=True):
        assert tuple(p % KINDS for p in phys) == m.cards


def check_melds(deal: TableDeal) -> None:
    """Every meld on the table is valid, and its jokers stand where it says."""
    for m in deal.melds:
        g = check_group(m.cards, deal.rules, None)
        assert g.ok, (format_cards(m.cards), g.reason)
        assert (m.kind == "run") == g.is_run
        assert all(k in (JOKER, s) for k, s in zip(m.cards, m.stands_for, strict=True))
        assert check_group(m.stands_for, deal.rules, None).ok
        if m.kind == "run":
            ranks = [s % 13 + 1 for s in m.stands_for]
            pos = [14 if (r == 1 and i > 0) else r for i, r in enumerate(ranks)]
            assert pos == list(range(pos[0], pos[0] + len(pos)))


def random_action(rng: random.Random, deal: TableDeal) -> tuple[int, Action]:
    """Anything at all, mostly near-misses."""
    n = deal.players
    seat = rng.randrange(n) if rng.random() < 0.9 else rng.choice([-1, n])
    hand = list(deal.hand(seat)) if 0 <= seat < n else []
    pick = rng.sample(hand, min(len(hand), rng.choice([1, 2, 3, 4]))) if hand else [rng.randrange(KINDS)]
    ids = [m.id for m in deal.melds] + [99]
    kind = rng.choice(list(ActionKind))
    if kind is ActionKind.OPEN:
        return seat, Action.open([pick, rng.sample(hand, min(len(hand), 3))])
    if kind is ActionKind.LAY_DOWN:
        return seat, Action.lay_down(pick)
    if kind is ActionKind.LAY_OFF:
        return seat, Action.lay_off(rng.choice(ids), pick[:1] if rng.random() < 0.7 else pick)
    if kind is ActionKind.SWAP:
        return seat, Action.swap(rng.choice(ids), pick[0])
    if kind in (ActionKind.THROW, ActionKind.SHOW):
        return seat, Action(kind, pick[0])
    return seat, Action(kind)


def check_random_action(deal: TableDeal, rng: random.Random) -> None:
    seat, action = random_action(rng, deal)
    verdict = deal.can(seat, action)
    if verdict:
        return
    before = deal.fingerprint()
    with pytest.raises(IllegalAction) as info:
        deal.apply(seat, action)
    assert info.value.reason == verdict.reason and verdict.reason
    assert deal.fingerprint() == before


def check_views(deal: TableDeal, rng: random.Random) -> None:
    """Views match the truth, and do not change when what the viewer may not see is shuffled."""
    if deal.over:
        return
    saved = ([list(h) for h in deal._hands], list(deal._stock), deal._drawn)
    before = deal.fingerprint()
    for viewer in [*range(deal.players), None]:
        view = deal.view(viewer)
        assert view.melds == deal.melds and view.opened == deal.opened
        if viewer is None:
            assert type(view) is SpectatorView
        else:
            assert isinstance(view, SeatView) and view.hand == deal.hand(viewer)
        others = [s for s in range(deal.players) if s != viewer]
        pool = list(deal._stock)
        for s in others:
            pool += deal._hands[s]
        rng.shuffle(pool)
        for s in others:
            k = len(deal._hands[s])
            deal._hands[s], pool = pool[:k], pool[k:]
        deal._stock = pool
        deal._legal_cache = None
        mover = deal.to_play
        if deal.phase is Phase.PLAY and mover != viewer and mover is not None and deal._pile_take is None:
            deal._drawn = rng.choice(deal._hands[mover])
        again = deal.view(viewer)
        assert again == view, f"the view of {viewer} depends on cards it may not see"
        deal._hands = [list(h) for h in saved[0]]
        deal._stock = list(saved[1])
        deal._drawn = saved[2]
        deal._legal_cache = None
    assert deal.fingerprint() == before


def play_checked(
    rules: Rules, seed: str, players: list[TableRandom | TableGreedy], *, views: bool
) -> TableDeal:
    rng = random.Random(seed)
    deal = TableDeal(rules, seed, dealer=rng.randrange(rules.players), turn_cap=300)
    assert len(deal.pile) == (1 if rules.pile_at_deal else 0)  # Remi 51: the pile starts empty
    steps = 0
    while True:
        check_cards(deal)
        check_melds(deal)
        check_random_action(deal, rng)
        if views:
            check_views(deal, rng)
        seat = deal.to_play
        if seat is None:
            break
        legal = deal.legal_actions(seat)
        assert legal, "the seat to play always has a legal action"
        if rng.random() < 0.1:
            for a in legal:
                assert deal.can(seat, a), (a, deal.can(seat, a).reason)
        action = players[seat].choose(deal.view(seat))
        assert action in legal
        deal.apply(seat, action)
        steps += 1
        assert steps < 20 * 300, "a deal ran past its cap"
    assert deal.result is not None
    check_cards(deal)
    return deal


def check_result(deal: TableDeal) -> None:
    result = deal.result
    assert result is not None
    w = result.winner
    assert sum(s.won for s in result.seats) == 1 and result.seats[w].won
    counts = [deal.hand_count(s) for s in range(deal.players)]
    assert [s.hand_charge for s in result.seats] == counts
    penalty = deal.rules.format == "penalty"
    if result.ending is Ending.OUT:
        if penalty:
            assert len(deal.hand(w)) == 0 and result.finish_card is not None
            assert result.charges[w] == (-40 if result.doubled else -20)
        else:
            assert len(deal.hand(w)) == 0 and result.charges[w] == 0
        factor = 2 if result.doubled else 1
        assert all(result.charges[s] == factor * counts[s] for s in range(deal.players) if s != w)
    else:
        assert counts[w] == min(counts)


def check_replay(deal: TableDeal) -> None:
    again = TableDeal(deal.rules, deal.seed, dealer=deal.dealer, turn_cap=300)
    for e in deal.events:
        if e.action is not None and e.seat is not None:
            again.apply(e.seat, e.action)
    assert again.events == deal.events


@pytest.mark.parametrize("name", ["rummy40", "remi51"])
@pytest.mark.parametrize("players", [2, 4])
def test_random_play_keeps_every_invariant(name: str, players: int) -> None:
    rules = get_preset(name, players=players)
    endings: Counter[Ending] = Counter()
    kinds: Counter[ActionKind] = Counter()
    for i in range(60):
        seed = f"{name}/{players}/{i}"
        bots: list[TableRandom | TableGreedy] = [
            TableGreedy(f"{seed}/{s}") if (i + s) % 3 else TableRandom(f"{seed}/{s}") for s in range(players)
        ]
        deal = play_checked(rules, seed, bots, views=i % 4 == 0)
        check_result(deal)
        if i % 4 == 0:
            check_replay(deal)
        assert deal.result is not None
        endings[deal.result.ending] += 1
        kinds.update(e.action.kind for e in deal.events if e.action is not None)
    assert endings[Ending.OUT] > 0
    for kind in (
        ActionKind.OPEN,
        ActionKind.LAY_DOWN,
        ActionKind.LAY_OFF,
        ActionKind.SWAP,
        ActionKind.PUT_BACK,
    ):
        assert kinds[kind] > 0, kind


def test_greedy_players_go_out() -> None:
    for name in ("rummy40", "remi51"):
        rules = get_preset(name)
        for i in range(6):
            bots: list[TableRandom | TableGreedy] = [TableGreedy(i * 10 + s) for s in range(4)]
            deal = play_checked(rules, f"greedy/{name}/{i}", bots, views=False)
            assert deal.result is not None and deal.result.ending is Ending.OUT
            check_result(deal)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["rummy40", "remi51"])
def test_long_random_play_keeps_every_invariant(name: str) -> None:
    for players in (2, 3, 4):
        rules = get_preset(name, players=players)
        for i in range(150):
            seed = f"slow/{name}/{players}/{i}"
            bots: list[TableRandom | TableGreedy] = [
                TableGreedy(f"{seed}/{s}") if (i + s) % 2 else TableRandom(f"{seed}/{s}")
                for s in range(players)
            ]
            check_result(play_checked(rules, seed, bots, views=i % 5 == 0))
