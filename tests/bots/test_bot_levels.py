"""Each level's characteristic play, as scenarios on stacked deals."""

from __future__ import annotations

import pytest

from rummykit.bots import make_player
from rummykit.bots.contract import MatchContext, play_deal_timed
from rummykit.bots.hard import HardPlayer
from rummykit.bots.hint import hint
from rummykit.bots.medium import MediumPlayer
from rummykit.bots.tracking import is_wild
from rummykit.engine.arrange import Arranger
from rummykit.engine.cards import parse_card, parse_cards
from rummykit.engine.deal import ShowDeal, stacked_shoe
from rummykit.engine.events import Action, ActionKind, Dropped, Threw
from rummykit.engine.rules import get_preset
from rummykit.engine.session import MatchSession
from rummykit.engine.views import SeatView

NEPALI2 = get_preset("nepali", players=2)
NEPALI4 = get_preset("nepali", players=4)
LEVELS = ("easy", "medium", "hard")

# seat 1 plays first (dealer 0); its dealt hand holds all thirteen ranks and no two cards of
# one suit that touch: no pure run anywhere near
HOPELESS = "Ks Qh 9d 7c 5s 3h Jd 2c 8s 6h 4d 10c Ac"
TIDY = "As 2s 3s 4h 5h 6h 9c 9d 9s Jh Js Jc 8d"


def deal_of(hands: tuple[str, str], pile: str, cut: str, stock: str = "") -> ShowDeal:
    order = stacked_shoe(
        NEPALI2, [parse_cards(h) for h in hands], parse_card(pile), parse_card(cut), parse_cards(stock)
    )
    return ShowDeal.from_shoe(NEPALI2, order, dealer=0, seed="levels")


def first_view() -> SeatView:
    deal = deal_of((TIDY, HOPELESS), pile="10s", cut="Kd")
    assert deal.to_play == 1
    return deal.view(1)


def test_medium_drops_a_hopeless_first_hand_and_easy_never_does() -> None:
    view = first_view()
    a = Arranger(NEPALI2).arrange(view.hand, view.wild, away=True)
    assert not a.has_pure and a.away is not None and a.away >= 5
    assert make_player("medium", 1).choose(view) == Action.drop()
    assert make_player("easy", 1).choose(view) != Action.drop()


def test_medium_keeps_a_hand_with_a_pure_run() -> None:
    deal = deal_of((HOPELESS, TIDY), pile="10s", cut="Kd")
    assert make_player("medium", 1).choose(deal.view(1)) != Action.drop()


def test_easy_never_drops_in_play() -> None:
    for i in range(6):
        deal = ShowDeal(NEPALI4, f"easy/{i}", dealer=i % 4)
        play_deal_timed(deal, [make_player("easy", f"{i}/{s}") for s in range(4)])
        assert not any(isinstance(e, Dropped) for e in deal.events)


def test_hard_does_not_feed_the_next_seat_when_an_equal_throw_exists() -> None:
    """Seat 1 took the 7d off the pile; seat 0 holds 8d and 8c, equally loose: it throws 8c.
    (The penalty plays from three seats up by default: heads up it measured a loss; the
    mechanism is the same, so this two-seat deal turns it on.)"""
    deal = deal_of((TIDY, "2h 3c 5c 7s 10s Qh Qd 10d 6c 4c 2d 3d 10h"), pile="7d", cut="Kd", stock="8c")
    deal.apply(1, Action.draw_pile())
    deal.apply(1, Action.throw(parse_card("10h")))
    bot = HardPlayer("safe", budget_ms=None)
    bot.danger_seats = 2
    for e in deal.events:
        bot.observe(e.seen_by(0))
    deal.apply(0, bot.choose(deal.view(0)))
    view = deal.view(0)
    assert view.drawn == parse_card("8c") and parse_card("8d") in view.hand
    action = bot.choose(view)
    assert action == Action.throw(parse_card("8c"))
    assert "8♣" in bot.last_reason
    # medium, which does not track, sees the two eights as equal
    assert MediumPlayer("x").choose(view).card in (parse_card("8c"), parse_card("8d"))


@pytest.mark.parametrize("name", LEVELS)
def test_no_level_throws_a_joker_while_a_natural_card_can_go(name: str) -> None:
    for i in range(4):
        deal = ShowDeal(NEPALI4, f"jokers/{i}", dealer=i % 4)
        bots = [make_player(name, f"{i}/{s}") for s in range(4)]
        for b in bots:
            if isinstance(b, HardPlayer):
                b.max_worlds = 8  # the jokers never reach the search: a small one will do
        while deal.to_play is not None:
            seat = deal.to_play
            view = deal.view(seat)
            action = bots[seat].choose(view)
            if (
                action.kind is ActionKind.THROW
                and action.card is not None
                and is_wild(action.card, view.wild)
            ):
                naturals = [
                    a.card
                    for a in view.legal
                    if a.kind is ActionKind.THROW and a.card is not None and not is_wild(a.card, view.wild)
                ]
                assert not naturals, f"{name} threw a joker with {naturals} to throw"
            deal.apply(seat, action)
        assert any(isinstance(e, Threw) for e in deal.events) or deal.result is not None


def test_hint_gives_a_legal_action_and_a_reason() -> None:
    deal = ShowDeal(NEPALI2, "hint/1", dealer=1)
    for _ in range(6):
        seat = deal.to_play
        if seat is None:
            break
        view = deal.view(seat)
        action, reason = hint(view, NEPALI2, budget_ms=100.0)
        assert action in view.legal or action.kind is ActionKind.SHOW
        assert reason and "\n" not in reason
        deal.apply(seat, action)
    with pytest.raises(ValueError):
        hint(deal.view(0), get_preset("indian"))


def hopeless_four_seat_view() -> SeatView:
    """Seat 1 plays first at four seats, dealt no two cards of a suit within two ranks."""
    hands = [
        TIDY,
        "2s 5s 8s Js 3h 6h 9h Qh Ad 4d 7d 10d Kc",
        "2h 3c 5c 7s 10s Qh Qd 10d 6c 4c 2d 3d 10h",
        "6s 7h 8c 9h 10c Jd Qc Kh Kd 3c 4s 5d 6d",
    ]
    order = stacked_shoe(NEPALI4, [parse_cards(h) for h in hands], parse_card("Qs"), parse_card("7c"))
    return ShowDeal.from_shoe(NEPALI4, order, dealer=0, seed="hopeless").view(1)


def test_hard_drops_a_hopeless_hand_but_not_in_compel() -> None:
    view = hopeless_four_seat_view()
    bot = HardPlayer("drop", budget_ms=None)
    assert bot.choose(view) == Action.drop()
    assert bot.last_values["play"] < bot.last_values["drop"] == -20
    compelled = HardPlayer("drop", budget_ms=None)
    compelled.context = MatchContext(totals=(0, 85, 0, 0), pool_out=101)  # 85 + 20 reaches 101
    assert compelled.context.compelled(1, view.rules.drop_first)
    assert compelled.choose(view) != Action.drop()
    assert "out of the pool" in compelled.last_reason


def test_match_context_of_a_pool_session() -> None:
    session = MatchSession(get_preset("pool101", players=2), "ctx")
    session.start_deal()
    ctx = MatchContext.of(session)
    assert ctx.pool_out == 101 and ctx.totals == (0, 0)
    assert not ctx.compelled(0, 20)
    settlement = MatchSession(NEPALI2, "ctx")
    settlement.start_deal()
    assert MatchContext.of(settlement).pool_out is None


def test_hard_looks_at_its_next_draw() -> None:
    """The look-ahead credits a hand by what the next card is expected to take off its charge: a
    tidy hand one card from a show (a loose 8) gains, in proportion to the weight; with no
    weight, nothing."""
    from rummykit.bots.hard import HardPlayer
    from rummykit.bots.tracking import read_view

    deal = deal_of((HOPELESS, TIDY), pile="10s", cut="Kd")
    view = deal.view(1)
    bot = HardPlayer("look")
    reader = bot.reader(view.rules)
    know = read_view(view)
    bot.look_show = 0.0
    tidy = bot._look(view, reader, know, parse_cards(TIDY))
    assert tidy > 0.0
    bot.look_weight = 2.0
    assert bot._look(view, reader, know, parse_cards(TIDY)) == pytest.approx(2 * tidy)
    bot.look_weight = 0.0
    assert bot._look(view, reader, know, parse_cards(TIDY)) == 0.0


def test_hard_credits_the_chance_that_its_next_draw_makes_a_show() -> None:
    """The look's second part: ``look_show`` points per unit of chance that the next card lets
    the hand show, that chance counted over the unseen cards (each as often as its copies)."""
    from rummykit.bots.hard import HardPlayer, live_outs
    from rummykit.bots.tracking import read_view

    deal = deal_of((HOPELESS, TIDY), pile="10s", cut="Kd")
    view = deal.view(1)
    bot = HardPlayer("look")
    assert bot.look_show == 15.0
    reader = bot.reader(view.rules)
    know = read_view(view)
    bot.look_weight = 0.0
    outs = live_outs(reader, parse_cards(TIDY), view.wild, know)
    assert outs > 0
    chance = outs / sum(know.unseen)
    assert bot._look(view, reader, know, parse_cards(TIDY)) == pytest.approx(15.0 * chance)
    assert bot._look(view, reader, know, parse_cards(HOPELESS)) == 0.0  # no card shows it


def test_hard_does_not_shed_high_cards_for_their_own_sake() -> None:
    """Medium's score gives a thrown card a bonus for its own value (shed high cards while it is
    free); hard counts the card's value only through the charge, heads up and at four seats."""
    two = first_view()
    four = ShowDeal(NEPALI4, "crowd", dealer=0).view(1)
    assert two.players == 2 and four.players == 4
    bot, medium = HardPlayer("crowd"), MediumPlayer("crowd")
    for view in (two, four):
        weight = medium._charge_weight(view)
        assert medium.score(view, 2, 40, 10) == pytest.approx(10 * 2 + weight * 40 - 0.3 * 10)
        assert bot.score(view, 2, 40, 10) == pytest.approx(10 * 2 + bot._charge_weight(view) * 40)
        assert bot.score(view, 2, 40, 10) == bot.score(view, 2, 40, 0)
    bot.value_weight = medium.value_weight
    assert bot.score(two, 2, 40, 10) == medium.score(two, 2, 40, 10)
