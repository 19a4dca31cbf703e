"""Matches played deal by deal (engine/session.py) and the baseline players that play them (bots/).

Whole matches with greedy and random players for every show-family format, the deal result to
score-sheet entry mapping on exact stacked deals (early show, drops, wrong shows, turn limits,
the cap), and the seed sentences of 000 and 004 that are about whole matches.  The players'
own tests are here too, since every one of them plays through a session or a deal.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummykit.bots import (
    BOT_NAMES,
    BasePlayer,
    BotError,
    GreedyPlayer,
    Player,
    RandomPlayer,
    make_player,
    play_deal,
    play_match,
)
from rummykit.engine.arrange import Arranger
from rummykit.engine.cards import JOKER, parse_card, parse_cards
from rummykit.engine.deal import TURN_CAP, ShowDeal, stacked_shoe
from rummykit.engine.events import (
    Action,
    ActionKind,
    Dealt,
    DrewStock,
    Ending,
    Event,
    Phase,
)
from rummykit.engine.match import DealRow, Match, Standing, Status
from rummykit.engine.rules import Rules, get_preset
from rummykit.engine.session import MatchSession, SessionError, deal_seed, entry_for
from rummykit.engine.views import SeatView

NEPALI = get_preset("nepali")
INDIAN = get_preset("indian")
KERALA = get_preset("kerala")
POOL101 = get_preset("pool101")
POOL201 = get_preset("pool201")
DEALS = get_preset("deals")

MIXED = ("greedy", "random", "random", "greedy")


def c(text: str) -> int:
    return parse_card(text)


def players_for(bots: tuple[str, ...] | list[str], seed: object) -> list[Player]:
    return [make_player(bot, f"{seed}/seat {s}") for s, bot in enumerate(bots)]


def whole_match(
    rules: Rules, seed: int | str, bots: tuple[str, ...] = MIXED
) -> tuple[MatchSession, list[DealRow]]:
    """A match to its end, bots rejoining whenever allowed (the simulator's policy)."""
    session = MatchSession(rules, seed)
    rows = play_match(session, players_for(bots[: rules.players], seed))
    return session, rows


# ---------------------------------------------------------------- stacked deals

# Hands with known charges when nines are wild (cut 9c), as in test_deal.py.
H20 = "5d 6d 7d As 2s 3s Jh Jd Jc Ac 2c 3h 5s"
H14 = "Ah 2h 3h 4s 5s 6s Kd Kc Ks 2c 3d 4c 5h"
H37 = "6h 7h 8h 2d 3d 4d Qs Qh Qd Kh Js 10c 7c"  # loose K J 10 7
H_NO_RUN = "Ks Kd Kc 10s 10h 10c 8s 8h 8c 6s 6h 6c 4d"  # sets only: every card, capped
SEED002 = "Ah 2h 3h 4c 6c 7s 8s 5d 10s Kd Kc Kh Js"  # fives wild: draws 5c, shows with the Js

_JUNK = [(k * 5) % 52 for k in range(52)] + [JOKER]


def stacked(
    rules: Rules,
    hands: dict[int, str],
    pile: str = "Ac",
    cut: str = "9c",
    stock: str = "",
    *,
    turn_cap: int = TURN_CAP,
) -> ShowDeal:
    """A deal with the given hands (by seat, dealer 0), the rest filled with spread-out cards."""
    given = {s: parse_cards(t) for s, t in hands.items()}
    left = Counter({k: rules.packs for k in range(52)})
    left[JOKER] = rules.printed_jokers
    left.subtract(Counter(k for h in given.values() for k in h))
    left.subtract(Counter([c(pile), c(cut), *parse_cards(stock)]))
    full = []
    for s in range(rules.players):
        if s in given:
            full.append(given[s])
            continue
        hand: list[int] = []
        for k in _JUNK * rules.packs:
            if len(hand) < rules.hand_size and left[k] > 0 and k not in hand:
                left[k] -= 1
                hand.append(k)
        full.append(hand)
    order = stacked_shoe(rules, full, c(pile), c(cut), parse_cards(stock))
    return ShowDeal.from_shoe(rules, order, turn_cap=turn_cap)


def draw_and_throw_back(deal: ShowDeal) -> None:
    seat = deal.to_play
    assert seat is not None
    deal.draw_stock(seat)
    deal.throw(seat, deal.drawn or 0)


def accepted(rules: Rules, deal: ShowDeal) -> tuple[int, ...]:
    """The entry of a finished four-seat deal, checked by the match; returns its Paid/Points row."""
    match = Match.new(rules)
    entry = entry_for(deal, range(rules.players), rules.players)
    assert match.check(entry) == ()
    return match.add_deal(entry).row


# ---------------------------------------------------------------- deal result -> sheet entry


def test_a_show_makes_the_winner_and_played_hands_and_a_capped_hand_full_count() -> None:
    deal = stacked(KERALA, {1: SEED002, 2: H37, 3: H_NO_RUN}, pile="Qc", cut="5h", stock="5c")
    deal.draw_stock(1)
    deal.show(1, c("Js"))
    entry = entry_for(deal, range(4), 4)
    assert entry.winner == 1
    assert entry.statuses[1] is Status.WINNER and entry.charges[1] == 0
    assert entry.statuses[3] is Status.FULL_COUNT and entry.charges[3] == 100
    assert entry.statuses[2] is Status.PLAYED and entry.charges[2] == 37  # both lives: K J 10 7 loose
    accepted(KERALA, deal)


def test_early_show_halves_and_the_halved_full_count_is_still_accepted() -> None:
    deal = stacked(INDIAN, {1: SEED002, 2: H37, 3: H_NO_RUN, 0: H20}, pile="Qc", cut="5h", stock="5c")
    deal.draw_stock(1)
    deal.show(1, c("Js"))
    assert deal.result is not None and deal.result.halved
    entry = entry_for(deal, range(4), 4)
    assert entry.early
    assert entry.statuses[3] is Status.FULL_COUNT and entry.charges[3] == 40  # 80 halved
    assert entry.statuses[0] is Status.PLAYED and entry.charges[0] == deal.result.seats[0].charge
    accepted(INDIAN, deal)


def test_a_first_drop_and_a_middle_drop_are_told_apart_by_the_drop_event() -> None:
    deal = stacked(NEPALI, {0: H20, 1: H14, 2: H37, 3: H_NO_RUN})
    deal.drop(1)  # before taking a card: 20
    for seat in (2, 3, 0):
        deal.draw_stock(seat)
        deal.throw(seat, deal.drawn or 0)
    deal.drop(2)  # after: 40
    deal.drop(3)
    assert deal.result is not None and deal.result.ending is Ending.LAST_IN
    entry = entry_for(deal, range(4), 4)
    assert entry.statuses == (Status.WINNER, Status.DROPPED, Status.MIDDLE_DROP, Status.MIDDLE_DROP)
    assert entry.charges == (0, 20, 40, 40)
    assert accepted(NEPALI, deal) == (100, -20, -40, -40)


def test_an_early_show_halves_a_drop_and_the_sheet_takes_the_halved_cost() -> None:
    ready = "2s 3s 4s 6d 7d 8d Qh Qd Qc 10c Jc Kc Kh"
    deal = stacked(INDIAN, {1: H14, 2: H37, 3: ready, 0: H20}, pile="Ac", cut="9c", stock="4h Qc")
    deal.draw_stock(1)
    deal.throw(1, c("4h"))
    deal.drop(2)
    deal.draw_stock(3)
    deal.show(3, c("Kh"))
    entry = entry_for(deal, range(4), 4)
    assert entry.early and entry.statuses[2] is Status.DROPPED and entry.charges == (10, 7, 10, 0)
    assert accepted(INDIAN, deal) == (10, 7, 10, 0)  # the sheet agrees with the table


def test_a_wrong_show_is_marked_wrong_show_at_its_penalty() -> None:
    deal = stacked(KERALA, {1: H_NO_RUN, 2: SEED002}, pile="Qc", cut="5h", stock="2s 5c")
    deal.draw_stock(1)
    deal.show(1, c("2s"))  # no show: 100, and the seat sits out
    deal.draw_stock(2)
    deal.show(2, c("Js"))
    entry = entry_for(deal, range(4), 4)
    assert entry.statuses[1] is Status.WRONG_SHOW and entry.charges[1] == 100
    accepted(KERALA, deal)


def test_a_complete_hand_that_did_not_get_to_show_is_played_at_2() -> None:
    complete = "2s 3s 4s 6d 7d 8d Qh Qd Qs 10c Jc Qc Kc"
    deal = stacked(KERALA, {1: SEED002, 2: complete}, cut="5h", stock="5c")
    deal.draw_stock(1)
    deal.show(1, c("Js"))
    entry = entry_for(deal, range(4), 4)
    assert entry.statuses[2] is Status.PLAYED and entry.charges[2] == 2
    accepted(KERALA, deal)


def test_seed000_turn_limit_winner_pays_nothing_though_its_hand_counts() -> None:
    deal = stacked(NEPALI, {0: H20, 1: H14, 2: H37, 3: H_NO_RUN})
    while not deal.over:
        draw_and_throw_back(deal)
    result = deal.result
    assert result is not None and result.ending is Ending.TURN_LIMIT
    assert result.seats[1].hand_charge == 14  # the winner had a count of its own
    entry = entry_for(deal, range(4), 4)
    assert entry.statuses == (Status.PLAYED, Status.WINNER, Status.PLAYED, Status.FULL_COUNT)
    assert entry.charges == (20, 0, 37, 80)
    # "nobody is penalised beyond their own cards": the winner collects exactly the others' charges
    assert accepted(NEPALI, deal) == (-20, 137, -37, -80)


def test_the_engine_cap_ends_like_the_turn_limit_and_is_accepted() -> None:
    deal = stacked(INDIAN, {0: H20, 1: H14, 2: H37, 3: H_NO_RUN}, turn_cap=12)
    while not deal.over:
        draw_and_throw_back(deal)
    assert deal.result is not None and deal.result.ending is Ending.CAP
    assert accepted(INDIAN, deal) == (20, 0, 37, 80)


def test_entry_for_an_unfinished_deal_is_refused() -> None:
    with pytest.raises(SessionError, match="not over"):
        entry_for(ShowDeal(NEPALI, 1), range(4), 4)


# ---------------------------------------------------------------- sessions


def test_each_deal_is_seeded_from_the_session_seed_and_its_number() -> None:
    session = MatchSession(NEPALI, "table-7")
    players = players_for(["greedy"] * 4, 0)
    for n in range(3):
        deal = session.start_deal()
        assert deal.seed == deal_seed("table-7", n) == f"table-7/{n}"
        play_deal(deal, players)
        session.finish_deal()
    assert session.is_over


def test_same_seed_and_same_players_make_the_same_match() -> None:
    one, _ = whole_match(KERALA, 5)
    two, _ = whole_match(KERALA, 5)
    other, _ = whole_match(KERALA, 6)
    assert one.match.to_dict() == two.match.to_dict() != other.match.to_dict()


def test_session_steps_must_come_in_order() -> None:
    session = MatchSession(NEPALI, 1)
    with pytest.raises(SessionError, match="start one first"):
        session.finish_deal()
    deal = session.start_deal()
    assert session.in_deal
    with pytest.raises(SessionError, match="finish the deal being played first"):
        session.start_deal()
    with pytest.raises(SessionError, match="not over"):
        session.finish_deal()
    assert not session.can_rejoin(0)
    with pytest.raises(SessionError, match="no rejoin while a deal is being played"):
        session.rejoin(0)
    play_deal(deal, players_for(["greedy"] * 4, 1))
    session.finish_deal()
    assert not session.in_deal and session.deal is deal  # the last deal stays readable
    with pytest.raises(SessionError, match="start one first"):
        session.finish_deal()
    assert session.can_rejoin(0).reason == "no rejoin: a settlement match has no pool to rejoin"


@pytest.mark.parametrize(("preset", "players"), [("rummy40", 3), ("remi51", 2)])
def test_table_family_matches_play_deal_by_deal(preset: str, players: int) -> None:
    """Rummy 40 (one deal decides, or first to 200) and Remi 51 (penalty, lowest total) run
    through the same session as the show family: no copy of the deal machinery."""
    from rummykit.bots import make_player, play_match
    from rummykit.engine.table_deal import TableDeal

    rules = get_preset(preset, players=players, rounds=2) if preset == "remi51" else get_preset(preset)
    rules = rules.replace(players=players)
    session = MatchSession(rules, "table")
    players_ = [make_player("greedy", f"t/{s}", rules) for s in range(players)]
    seen: list[object] = []
    rows = play_match(session, players_, on_deal=lambda deal, row: seen.append(deal))
    assert session.is_over and rows
    assert all(isinstance(d, TableDeal) for d in seen)
    if preset == "rummy40":
        assert len(rows) == 1  # target none: one deal decides the match
        assert session.winners == (rows[0].winner,)
    else:
        assert len(rows) == 2
        winner_scores = {row.charges[row.winner] for row in rows}
        assert winner_scores <= {-20, -40}


def test_names_give_the_seats() -> None:
    session = MatchSession(NEPALI, 1, names=["Asha", "Bikash", "Chandra"])
    assert session.players == 3 and session.names == ("Asha", "Bikash", "Chandra")
    deal = session.start_deal()
    assert deal.players == 3 and deal.rules.players == 3


def test_the_dealer_moves_one_seat_left_each_deal_and_the_seat_left_of_it_plays_first() -> None:
    session = MatchSession(NEPALI.replace(rounds=6), 3, first_dealer=2)
    players = players_for(["greedy"] * 4, 3)
    dealers = []
    while not session.is_over:
        deal = session.start_deal()
        dealers.append(session.match_seat(deal.dealer))
        first = next(e for e in deal.events if isinstance(e, Dealt)).first
        assert first == (deal.dealer + 1) % 4
        play_deal(deal, players)
        session.finish_deal()
    assert dealers == [2, 3, 0, 1, 2, 3]
    assert [row.dealer for row in session.rows] == dealers


# -- seed 000: settlement


def test_seed000_a_match_is_three_deals_and_the_whole_table_always_sums_to_nothing() -> None:
    for seed in range(4):
        session, rows = whole_match(NEPALI, seed)
        assert len(rows) == 3 and session.is_over
        for row in rows:
            assert sum(row.row) == 0  # "the Paid row always adds up to nothing"
            winner = row.winner
            assert row.row[winner] == sum(c for s, c in enumerate(row.charges) if s != winner)
        assert sum(session.totals) == 0
        best = max(session.totals)
        assert session.winners == tuple(s for s, t in enumerate(session.totals) if t == best)


def test_seed000_a_seat_that_dropped_is_charged_its_drop_20_or_40() -> None:
    seen = Counter[Status]()
    for seed in range(6):
        _, rows = whole_match(NEPALI, seed, ("random",) * 4)
        for row in rows:
            for status, charge in zip(row.entry.statuses, row.charges, strict=True):
                seen[status] += 1
                if status is Status.DROPPED:
                    assert charge == 20
                elif status is Status.MIDDLE_DROP:
                    assert charge == 40
    assert seen[Status.DROPPED] and seen[Status.MIDDLE_DROP]


# -- points


def test_points_each_deal_stands_alone_and_the_lowest_total_wins() -> None:
    session, rows = whole_match(INDIAN.replace(rounds=4), 2)
    assert len(rows) == 4
    assert session.totals == tuple(sum(row.charges[s] for row in rows) for s in range(4))
    low = min(session.totals)
    assert session.winners == tuple(s for s, t in enumerate(session.totals) if t == low)


# -- pools


def _check_pool(session: MatchSession, rows: list[DealRow]) -> None:
    """Invariants of a pool played by a session: outs, rejoins, the last seat in."""
    rules = session.rules
    assert rules.pool_out is not None
    assert session.is_over and len(session.match.seats_in) == 1
    assert session.winners == session.match.seats_in
    for row in rows:
        for seat, status in enumerate(row.entry.statuses):
            if status is Status.OUT:
                assert row.charges[seat] == 0
        for seat, standing in enumerate(row.standings):
            assert (standing is Standing.OUT) == (row.totals[seat] >= rules.pool_out)
    for seat in range(session.players):
        used = session.match.rejoins_used(seat)
        assert rules.max_rejoins is None or used <= rules.max_rejoins


def test_seed004_pool_250_reaching_251_puts_you_out_and_the_last_player_left_wins() -> None:
    session, rows = whole_match(KERALA, 0)
    _check_pool(session, rows)
    out_at = {}
    for row in rows:
        for seat, total in enumerate(row.totals):
            if total >= 251 and seat not in out_at:
                out_at[seat] = row.index
    assert out_at  # somebody went out


def test_seed004_kerala_two_rejoins_at_the_highest_total_still_in_plus_one_then_no_more() -> None:
    session = MatchSession(KERALA, 0)
    players = players_for(MIXED, 0)
    came_back: list[int] = []
    while not session.is_over:
        deal = session.start_deal()
        # a seat out of the pool does not play; a seat that rejoined plays from the next deal
        for seat in range(4):
            assert (session.deal_seat(seat) is not None) == (session.standing(seat) is not Standing.OUT)
        for seat in came_back:
            assert session.deal_seat(seat) is not None
        came_back = []
        play_deal(deal, [players[s] for s in session.deal_seats])
        row = session.finish_deal()
        survivors = [s for s in range(4) if row.standings[s] is not Standing.OUT]
        for offer in session.rejoin_offers():
            assert offer.total == max(row.totals[s] for s in survivors) + 1
            record = session.rejoin(offer.seat)
            assert session.totals[offer.seat] == offer.total == record.total
            came_back.append(offer.seat)
    used = [session.match.rejoins_used(s) for s in range(4)]
    assert max(used) == 2  # this seed uses up both rejoins of some seat
    seat = used.index(2)
    assert not session.can_rejoin(seat)


@pytest.mark.parametrize(("rules", "limit"), [(POOL101, 79), (POOL201, 174)])
def test_seed004_pool_101_and_201_rejoin_only_while_the_top_score_still_in_is_79_or_174(
    rules: Rules, limit: int
) -> None:
    rejoined = 0
    for seed in range(4):
        session = MatchSession(rules, seed)
        players = players_for(MIXED, seed)
        while not session.is_over:
            deal = session.start_deal()
            play_deal(deal, [players[s] for s in session.deal_seats])
            row = session.finish_deal()
            top = max(row.totals[s] for s in range(4) if row.standings[s] is not Standing.OUT)
            for seat in range(4):
                if session.can_rejoin(seat):
                    assert top <= limit
                    session.rejoin(seat)
                    rejoined += 1
                elif row.standings[seat] is Standing.OUT and not session.is_over:
                    assert top > limit
        _check_pool(session, list(session.rows))
    assert rejoined


def test_kerala_deals_from_three_packs_only_while_seven_or_eight_play() -> None:
    rules = KERALA.replace(players=8)
    assert rules.packs == 3
    session = MatchSession(rules, 0)
    players = players_for(("random",) * 8, 0)
    seen = set()
    while not session.is_over:
        deal = session.start_deal()
        seen.add((deal.players, deal.rules.packs))
        assert deal.rules.packs == (3 if deal.players >= 7 else 2)
        play_deal(deal, [players[s] for s in session.deal_seats])
        session.finish_deal()
        for seat in range(8):
            if session.can_rejoin(seat):
                session.rejoin(seat)
    assert (8, 3) in seen and any(n < 7 for n, _ in seen)


# -- deals


def test_seed004_deals_everyone_starts_with_80_a_deal_and_the_chips_always_add_up() -> None:
    session, rows = whole_match(DEALS, 1)
    assert session.match.format.start_total() == 160
    for row in rows:
        assert sum(row.totals) == 4 * 160
        assert row.row[row.winner] == -sum(v for s, v in enumerate(row.row) if s != row.winner)


def test_seed004_deals_a_tie_plays_one_more_deal() -> None:
    # Seed 11 (two greedy seats) ties at 160 chips each after the two deals.
    session, rows = whole_match(DEALS.replace(players=2), 11, ("greedy", "greedy"))
    assert rows[1].totals == (160, 160)  # tied after the agreed deals ...
    assert len(rows) == 3 and session.is_over  # ... so one more deal was played
    assert len(session.winners) == 1


def test_seed004_deals_no_giving_up_even_where_the_drop_costs_are_set() -> None:
    rules = DEALS.replace(drop_first=20, drop_middle=40)
    session = MatchSession(rules, 4)
    deal = session.start_deal()
    assert deal.rules.drop_first is None
    seat = deal.to_play
    assert seat is not None
    assert all(a.kind is not ActionKind.DROP for a in deal.legal_actions(seat))
    play_deal(deal, players_for(("random",) * 4, 4))
    session.finish_deal()


# -- every format, every kind of player: the sheet accepts whatever the engine produced


class Mischief(BasePlayer):
    """Never drops and rarely shows; now and then tries a show that is no show (a wrong show
    where that costs a penalty): the endings bots seldom reach."""

    name = "mischief"

    def choose(self, view: SeatView) -> Action:
        legal = [a for a in view.legal if a.kind is not ActionKind.DROP]
        shows = [a for a in legal if a.kind is ActionKind.SHOW]
        if shows and self.rng.random() < 0.3:
            return shows[0]
        throws = [a for a in legal if a.kind is ActionKind.THROW]
        if throws and view.rules.wrong_show is not None and self.rng.random() < 0.03:
            card = self.rng.choice(throws).card
            assert card is not None
            return Action.show(card)
        return self.rng.choice([a for a in legal if a.kind is not ActionKind.SHOW])


TABLES = [
    NEPALI,
    NEPALI.replace(players=2, turn_limit=30),
    INDIAN.replace(rounds=3),
    KERALA,
    KERALA.replace(players=6),
    POOL101,
    POOL201.replace(players=3),
    DEALS,
    get_preset("maharashtra", rounds=2),
    get_preset("north-indian", rounds=2),
]


def test_every_match_the_engine_plays_is_accepted_by_the_sheet() -> None:
    """Greedy, random and mischievous players at every format; a short cap brings the cap ending.

    add_deal raises on an entry the sheet refuses, so every deal here went on the sheet as
    produced; the counters check that every status and ending was met on the way."""
    endings = Counter[Ending]()
    statuses = Counter[Status]()
    halved = 0
    for rules in TABLES:
        for seed in range(3):
            rng = random.Random(seed)
            session = MatchSession(rules, seed, turn_cap=60)
            players: list[Player] = []
            for s in range(rules.players):
                kind = rng.choice(["greedy", "random", "mischief"])
                seat_seed = f"{seed}/{s}"
                players.append(Mischief(seat_seed) if kind == "mischief" else make_player(kind, seat_seed))

            def record(deal: ShowDeal, row: DealRow) -> None:
                nonlocal halved
                assert deal.result is not None
                endings[deal.result.ending] += 1
                halved += deal.result.halved
                statuses.update(row.entry.statuses)
                assert row.entry.statuses[row.winner] is Status.WINNER and row.charges[row.winner] == 0

            rows = play_match(session, players, max_deals=500, on_deal=record)
            assert session.is_over and rows == list(session.rows)
            assert Match.from_dict(session.match.to_dict()).totals == session.totals
    assert set(statuses) == set(Status)
    assert {Ending.SHOW, Ending.LAST_IN, Ending.TURN_LIMIT, Ending.CAP} <= set(endings)
    assert halved


# ---------------------------------------------------------------- the players


def test_make_player_knows_random_and_greedy_and_names_them_when_it_does_not() -> None:
    assert BOT_NAMES[:2] == ("random", "greedy")
    assert isinstance(make_player("random", 1), RandomPlayer)
    assert isinstance(make_player(" Greedy ", "x"), GreedyPlayer)
    with pytest.raises(BotError) as info:
        make_player("clever", 1)
    assert str(info.value) == f"unknown bot 'clever' (known: {', '.join(BOT_NAMES)})"
    assert isinstance(info.value, ValueError)
    for name in BOT_NAMES:
        player = make_player(name, 0)
        assert isinstance(player, Player) and player.name == name
        player.observe(
            Dealt(seq=0, seat=0, hands=(), pile_top=0, cut=None, wild=None, first=1, stock_count=0)
        )
    with pytest.raises(BotError, match="seed"):
        RandomPlayer(None)  # type: ignore[arg-type]


def _views(rules: Rules, bots: list[str], seeds: range) -> list[tuple[ShowDeal, SeatView, Action, str]]:
    """Every decision of every deal: the deal as it was, the view, the choice, the bot."""
    out = []
    for seed in seeds:
        deal = ShowDeal(rules, seed)
        players = players_for(bots, seed)
        while not deal.over:
            seat = deal.to_play
            assert seat is not None
            view = deal.view(seat)
            action = players[seat].choose(view)
            out.append((deal, view, action, bots[seat]))
            deal.apply(seat, action)
    return out


def test_random_picks_any_legal_action_and_the_same_seed_picks_the_same() -> None:
    kinds = Counter[ActionKind]()
    for _deal, view, action, _bot in _views(NEPALI, ["random"] * 4, range(20)):
        assert action in view.legal
        kinds[action.kind] += 1
    assert kinds[ActionKind.DROP] and kinds[ActionKind.DRAW_PILE] and kinds[ActionKind.THROW]
    a, b = RandomPlayer(9), RandomPlayer(9)
    view = ShowDeal(NEPALI, 1).view(1)
    assert [a.choose(view) for _ in range(20)] == [b.choose(view) for _ in range(20)]


def test_random_shows_when_it_picks_a_show() -> None:
    shows = 0
    for _deal, view, action, _bot in _views(NEPALI.replace(players=2), ["random", "greedy"], range(30)):
        if action.kind is ActionKind.SHOW:
            assert action in view.legal
            shows += 1
    assert shows


def test_greedy_never_drops_shows_at_once_and_throws_the_lowest_charge() -> None:
    arranger = Arranger(NEPALI)
    for _deal, view, action, _bot in _views(NEPALI, ["greedy"] * 4, range(15)):
        assert action in view.legal and action.kind is not ActionKind.DROP
        if view.phase is Phase.THROW:
            if any(a.kind is ActionKind.SHOW for a in view.legal):
                assert action.kind is ActionKind.SHOW
            else:
                _finish, throw, _charge = arranger.best_throw(view.hand, view.wild)
                assert action == Action.throw(throw)


def test_greedy_takes_the_pile_top_only_when_it_lowers_the_charge() -> None:
    arranger = Arranger(NEPALI)
    for _deal, view, action, _bot in _views(NEPALI, ["greedy"] * 4, range(15)):
        if view.phase is not Phase.DRAW:
            continue
        assert view.pile_top is not None
        finish, throw, after = arranger.best_throw([*view.hand, view.pile_top], view.wild)
        helps = any(k != view.pile_top for k in finish) or (
            not finish and throw != view.pile_top and after < arranger.charge(view.hand, view.wild)
        )
        assert action == (Action.draw_pile() if helps else Action.draw_stock())


def test_greedy_takes_a_card_that_makes_a_set_and_leaves_one_that_does_not_help() -> None:
    # H37 with nines wild: loose K J 10 7, charged 37
    deal = stacked(NEPALI, {1: H37}, pile="Qc")
    assert GreedyPlayer(0).choose(deal.view(1)) == Action.draw_pile()  # four queens, the king goes: 27
    deal = stacked(NEPALI, {1: H37}, pile="Kc")
    assert GreedyPlayer(0).choose(deal.view(1)) == Action.draw_stock()  # a ten-count for a ten-count


def test_greedy_shows_as_soon_as_it_can() -> None:
    deal = stacked(KERALA, {1: SEED002}, pile="Qc", cut="5h", stock="5c")
    deal.draw_stock(1)
    view = deal.view(1)
    shows = [a for a in view.legal if a.kind is ActionKind.SHOW]
    assert Action.show(c("Js")) in shows
    assert GreedyPlayer(0).choose(view) == shows[0]


def test_greedy_never_throws_back_a_card_taken_from_the_pile_even_when_it_is_the_worst() -> None:
    # H14 with nines wild: loose 2c 3d 4c 5h.  Made to take the Qc (greedy would not), the best
    # throw would be the Qc itself; the next best legal throw goes instead.
    deal = stacked(NEPALI, {1: H14}, pile="Qc")
    deal.draw_pile(1)
    view = deal.view(1)
    action = GreedyPlayer(0).choose(view)
    assert action.kind is ActionKind.THROW and action.card != c("Qc") and action in view.legal
    arranger = Arranger(NEPALI)

    def after(card: int) -> int:
        rest = list(view.hand)
        rest.remove(card)
        return arranger.charge(rest, view.wild)

    assert action.card is not None
    best = min(after(a.card) for a in view.legal if a.card is not None and a.kind is ActionKind.THROW)
    assert after(action.card) == best == 19  # 2c 3d 4c and the queen


def test_greedy_cannot_take_a_joker_where_the_table_forbids_it() -> None:
    deal = stacked(INDIAN, {1: H37}, pile="JK")
    assert Action.draw_pile() not in deal.view(1).legal
    assert GreedyPlayer(0).choose(deal.view(1)) == Action.draw_stock()


def test_greedy_decides_from_its_view_alone() -> None:
    """The other hands and the stock order change nothing (the view is all it reads)."""
    one = stacked(NEPALI, {1: H37, 2: H20}, pile="Qc")
    two = stacked(NEPALI, {1: H37, 2: H14}, pile="Qc", stock="Ks Kd")
    a, b = GreedyPlayer(0), GreedyPlayer(0)
    for _ in range(2):
        assert a.choose(one.view(1)) == b.choose(two.view(1))
        action = a.choose(one.view(1))
        one.apply(1, action)
        two.apply(1, action)


def test_players_that_observe_see_each_event_as_their_seat_may() -> None:
    class Watcher(RandomPlayer):
        def __init__(self, seed: int | str) -> None:
            super().__init__(seed)
            self.events: list[Event] = []

        def observe(self, event: Event) -> None:
            self.events.append(event)

    deal = ShowDeal(NEPALI, 3)
    watchers = [Watcher(s) for s in range(4)]
    result = play_deal(deal, watchers)
    for seat, w in enumerate(watchers):
        assert [e.seq for e in w.events] == list(range(len(deal.events)))
        assert w.events == [e.seen_by(seat) for e in deal.events]
        dealt = w.events[0]
        assert isinstance(dealt, Dealt)
        assert [h is not None for h in dealt.hands] == [s == seat for s in range(4)]
        for e in w.events:
            if isinstance(e, DrewStock) and e.seat != seat:
                assert e.card is None
    assert result is deal.result


def test_play_deal_and_play_match_want_one_player_a_seat() -> None:
    with pytest.raises(BotError, match="4 players needed"):
        play_deal(ShowDeal(NEPALI, 1), players_for(["greedy"] * 3, 1))
    with pytest.raises(BotError, match="4 players needed"):
        play_match(MatchSession(NEPALI, 1), players_for(["greedy"] * 2, 1))


def test_a_match_that_will_not_end_is_stopped() -> None:
    with pytest.raises(BotError, match="not over after 2 deals"):
        play_match(MatchSession(NEPALI.replace(rounds=5), 1), players_for(["greedy"] * 4, 1), max_deals=2)
