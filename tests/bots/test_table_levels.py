"""The difficulty levels at the table family (Rummy 40, Remi 51): the contract, determinism, the
deadline, each level's characteristic play as a scenario, and the hint."""

from __future__ import annotations

import dataclasses

import pytest

from rummykit.bots import TABLE_BOTS, make_player
from rummykit.bots.contract import Deadline, is_timed, play_deal_timed
from rummykit.bots.hint import hint
from rummykit.bots.table_levels import (
    TableEasy,
    TableHard,
    TableLevelPlayer,
    TableMedium,
    meld_words,
    partials,
    table_unseen,
)
from rummykit.engine.cards import JOKER, parse_card, parse_cards
from rummykit.engine.deal import stacked_shoe
from rummykit.engine.events import Action, ActionKind, Dealt, DrewStock, Event, Phase, TableMeld, Threw
from rummykit.engine.rules import Rules, get_preset
from rummykit.engine.table_arranger import best_opening
from rummykit.engine.table_deal import TableDeal
from rummykit.engine.views import SeatView

RUMMY40 = get_preset("rummy40", players=2)
REMI51 = get_preset("remi51", players=2)
LEVELS = ("easy", "medium", "hard", "expert")
PRESETS = (RUMMY40, REMI51)


def untimed(name: str, seed: str, rules: Rules) -> TableLevelPlayer:
    """A level with no deadline, so that the hard bot's look-ahead always runs to its end."""
    bot = make_player(name, seed, rules)
    assert isinstance(bot, TableLevelPlayer)
    bot.budget_ms = None
    return bot


# ---- the contract --------------------------------------------------------------------------


@pytest.mark.parametrize("name", LEVELS)
def test_levels_are_registered_for_the_table_family_and_timed(name: str) -> None:
    assert name in TABLE_BOTS
    for rules in PRESETS:
        bot = make_player(name, 1, rules)
        assert isinstance(bot, TableLevelPlayer) and is_timed(bot)
        assert bot.name == f"table-{name}"


class Spy:
    """Wraps a bot and records everything it is handed."""

    def __init__(self, name: str, seed: str, seat: int, rules: Rules) -> None:
        self.inner = make_player(name, seed, rules)
        self.name = self.inner.name
        self.budget_ms = getattr(self.inner, "budget_ms", None)
        self.seat = seat
        self.views: list[object] = []
        self.events: list[Event] = []

    def choose(self, view: SeatView, deadline: Deadline | None = None) -> Action:
        self.views.append(view)
        return self.inner.choose(view, deadline=deadline)  # type: ignore[call-arg]

    def observe(self, event: Event) -> None:
        self.events.append(event)
        self.inner.observe(event)


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.preset)
def test_a_table_bot_is_handed_only_its_own_view_and_its_events(rules: Rules) -> None:
    three = rules.replace(players=3)
    deal = TableDeal(three, "contract/table", dealer=1)
    spies = [Spy(LEVELS[s], f"spy/{s}", s, three) for s in range(3)]
    play_deal_timed(deal, spies)  # type: ignore[arg-type]
    for spy in spies:
        assert spy.views and all(type(v) is SeatView for v in spy.views)
        assert all(v.seat == spy.seat for v in spy.views)  # type: ignore[attr-defined]
        dealt = [e for e in spy.events if isinstance(e, Dealt)]
        assert len(dealt) == 1
        assert all(h is None for s, h in enumerate(dealt[0].hands) if s != spy.seat)
        for e in spy.events:
            if isinstance(e, DrewStock) and e.seat != spy.seat:
                assert e.card is None  # another seat's stock draw stays hidden


def test_what_the_hard_bot_counts_as_unseen_comes_from_the_view_alone() -> None:
    deal = TableDeal(RUMMY40, "contract/unseen", dealer=0)
    seat = deal.to_play
    assert seat is not None
    view = deal.view(seat)
    unseen = table_unseen(view)
    assert sum(unseen) == 108 - len(view.hand) - len(view.pile)
    # another view with the same public table and hand, whatever the other hand and the stock
    # hold, gives the same count: nothing hidden reaches it
    other = TableDeal(RUMMY40, "contract/unseen-other", dealer=0)
    other_seat = other.to_play
    assert other_seat is not None
    fake = dataclasses.replace(other.view(other_seat), hand=view.hand, pile=view.pile, melds=view.melds)
    assert table_unseen(fake) == unseen


@pytest.mark.parametrize("name", LEVELS)
@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.preset)
def test_same_seed_same_deal(name: str, rules: Rules) -> None:
    logs = []
    for _ in range(2):
        deal = TableDeal(rules, "contract/replay", dealer=0)
        bots = [untimed(name, "same", rules), make_player("greedy", "same", rules)]
        play_deal_timed(deal, bots)
        logs.append([e.text() for e in deal.events])
    assert logs[0] == logs[1]


def test_hard_stops_scoring_throws_at_its_deadline() -> None:
    """With its deadline passed, hard scores only the first throw of its prior (a loose card,
    the dearest) and throws that; with none it scores every throw.  Counted, not timed."""
    rules = RUMMY40.replace(players=3)
    throws = 0
    for i in range(2):
        deal = TableDeal(rules, f"contract/deadline/{i}", dealer=i)
        bot = TableHard("tiny")
        others = [make_player("greedy", s, rules) for s in range(2)]
        while deal.to_play is not None:
            seat = deal.to_play
            view = deal.view(seat)
            if seat != 0:
                deal.apply(seat, others[seat - 1].choose(view))
                continue
            action = bot.choose(view, Deadline(0.0))
            assert action in view.legal
            if action.kind is ActionKind.THROW:
                legal = view.legal
                cards = sorted({a.card for a in legal if a.kind is ActionKind.THROW and a.card is not None})
                cards = [k for k in cards if k != JOKER] or cards  # jokers only when nothing else may go
                cut = bot.rank_throws(view, cards, Deadline(0.0))
                full = bot.rank_throws(view, cards, Deadline(None))
                assert len(cut) == 1 and len(full) == len(cards)
                assert action.card == cut[0].card
                throws += 1
            deal.apply(seat, action)
    assert throws > 0


def test_a_show_family_view_is_refused() -> None:
    from rummykit.engine.deal import ShowDeal

    deal = ShowDeal(get_preset("nepali", players=2), "wrong family", dealer=0)
    seat = deal.to_play
    assert seat is not None
    with pytest.raises(ValueError, match="table family"):
        TableMedium(1).choose(deal.view(seat))


# ---- scenarios -------------------------------------------------------------------------------


def stacked(rules: Rules, hands: tuple[str, str], pile: str, stock: str = "") -> TableDeal:
    """A deal with these hands (seat 1 plays first: the dealer is seat 0)."""
    order = stacked_shoe(rules, [parse_cards(h) for h in hands], parse_card(pile), None, parse_cards(stock))
    return TableDeal(rules, "scenario", dealer=0, order=order)


OTHER = "2s 3s 4d 5d 6c 7c 8h 9h 10d Jc Qs Kh Ah"
OPENS = "Kc Kd Kh 7h 8h 9h 2s 4d 6c 9s Jd 3c 5s"  # 30 + 24 = 54: opens at 40
SHORT = "Kc Kd 7h 8h 9h 2s 4d 6c 9s Jd 3c 5s Qh"  # only 24 in melds, and a pair of kings


def test_medium_opens_as_soon_as_the_meter_reaches_the_threshold() -> None:
    deal = stacked(RUMMY40, (OTHER, OPENS), pile="Qs", stock="2d")
    bot = untimed("medium", "open", RUMMY40)
    assert bot.choose(deal.view(1)) == Action.draw_stock()  # Qs opens nothing
    deal.apply(1, Action.draw_stock())
    action = bot.choose(deal.view(1))
    assert action.kind is ActionKind.OPEN
    assert action.groups is not None
    assert sorted(k for m in action.groups for k in m) == sorted(parse_cards("Kc Kd Kh 7h 8h 9h"))
    assert bot.last_reason == "Open with 7♥ 8♥ 9♥ and three kings: 54 points"


def test_medium_below_the_threshold_does_not_open_and_takes_the_pile_only_to_use_it() -> None:
    deal = stacked(RUMMY40, (OTHER, SHORT), pile="Qs", stock="2d")
    bot = untimed("medium", "short", RUMMY40)
    assert bot.choose(deal.view(1)) == Action.draw_stock()  # Qs makes nothing: still short
    deal.apply(1, Action.draw_stock())
    view = deal.view(1)
    assert all(a.kind is ActionKind.THROW for a in view.legal)
    assert bot.choose(view).kind is ActionKind.THROW
    # the king on the pile makes three kings, 54 points with the run: that one it takes
    deal = stacked(RUMMY40, (OTHER, SHORT), pile="Ks", stock="2d")
    assert bot.choose(deal.view(1)) == Action.draw_pile()
    assert "you can open: 54 points" in bot.last_reason


def test_remi_never_asks_for_the_pile_before_opening() -> None:
    for i in range(3):
        deal = TableDeal(REMI51, f"remi/{i}", dealer=i % 2)
        bots = [untimed(name, f"{i}/{name}", REMI51) for name in ("medium", "hard")]
        while deal.to_play is not None:
            seat = deal.to_play
            view = deal.view(seat)
            action = bots[seat].choose(view)
            if action.kind is ActionKind.DRAW_PILE:
                assert view.opened[seat]
            deal.apply(seat, action)


def throw_view(hand: str, melds: tuple[TableMeld, ...], opened: tuple[bool, bool]) -> SeatView:
    """Seat 0 to throw at a Rummy 40 table with these melds (seat 1 holding five cards)."""
    deal = TableDeal(RUMMY40, "crafted", dealer=1)
    assert deal.to_play == 0
    deal.apply(0, Action.draw_stock())
    kinds = tuple(sorted(parse_cards(hand)))
    legal = [Action.throw(k) for k in sorted(set(kinds))]
    if opened[0]:
        for m in melds:
            for k in sorted(set(kinds)):
                if (
                    m.kind == "run"
                    and k // 13 == m.stands_for[0] // 13
                    and k % 13 == m.stands_for[-1] % 13 + 1
                ):
                    legal.insert(0, Action.lay_off(m.id, (k,)))
    return dataclasses.replace(
        deal.view(0),
        hand=kinds,
        melds=melds,
        opened=opened,
        card_counts=(len(kinds), 5),
        legal=tuple(legal),
    )


SPADES_RUN = TableMeld(
    id=1, owner=1, kind="run", cards=tuple(parse_cards("7s 8s 9s")), stands_for=tuple(parse_cards("7s 8s 9s"))
)


def test_hard_does_not_throw_what_the_next_seat_can_lay_off_when_an_equal_throw_exists() -> None:
    """Seat 1 has opened with 7♠ 8♠ 9♠; seat 0 has not, and holds 10♠ and J♦, equally loose:
    the 10♠ would be a free lay-off for seat 1 from the pile."""
    view = throw_view("10s Jd 2c 2d 2h", (SPADES_RUN,), (False, True))
    hard = untimed("hard", "safe", RUMMY40)
    assert hard.choose(view) == Action.throw(parse_card("Jd"))
    assert hard.last_reason.startswith("Throw J♦:") and "10♠ would help the next seat" in hard.last_reason
    # medium, which does not weigh the danger, sees the two as equal and takes the first
    assert untimed("medium", "x", RUMMY40).choose(view) == Action.throw(parse_card("10s"))


@pytest.mark.parametrize("name", LEVELS)
def test_no_level_throws_a_joker_while_a_natural_card_can_go(name: str) -> None:
    view = throw_view("JK 5s Kd 9c 2h", (), (False, False))
    for seed in range(12):
        action = untimed(name, f"joker/{seed}", RUMMY40).choose(view)
        assert action.kind is ActionKind.THROW and action.card != JOKER
    for rules in PRESETS:
        for i in range(3):
            deal = TableDeal(rules, f"jokers/{i}", dealer=i % 2)
            bots = [untimed(name, f"{i}/{s}", rules) for s in range(2)]
            while deal.to_play is not None:
                seat = deal.to_play
                view = deal.view(seat)
                action = bots[seat].choose(view)
                if action.kind is ActionKind.THROW and action.card == JOKER:
                    naturals = [a for a in view.legal if a.kind is ActionKind.THROW and a.card != JOKER]
                    assert not naturals, f"{name} threw a joker with a natural card to throw"
                deal.apply(seat, action)
            assert any(isinstance(e, Threw) for e in deal.events)


def test_easy_throws_loosely_and_never_swaps() -> None:
    view = throw_view("Kd Qc 9c 5h 2h 2c 2d", (), (False, False))
    easy = {untimed("easy", f"loose/{s}", RUMMY40).choose(view).card for s in range(30)}
    medium = {untimed("medium", f"loose/{s}", RUMMY40).choose(view).card for s in range(5)}
    assert len(easy) >= 3  # a random loose card much of the time
    assert easy <= set(parse_cards("Kd Qc 9c 5h"))  # never a card of its set
    assert len(medium) == 1  # medium is seeded but has one best throw here
    assert not TableEasy.swaps and TableMedium.swaps


def test_pairs_and_their_outs() -> None:
    live = [2] * 53
    found = partials(parse_cards("5h 6h Kc Kd 9s"), live, True)
    assert {p.cards for p in found} == {
        tuple(sorted(parse_cards("5h 6h"))),
        tuple(sorted(parse_cards("Kc Kd"))),
    }
    assert all(p.outs == 4 for p in found)  # 4h or 7h; Ks or Kh: two copies each
    assert meld_words(parse_cards("Kc Kd Kh")) == "three kings"
    assert meld_words(parse_cards("7s 7h JK")) == "three sevens (with a joker)"
    assert meld_words(parse_cards("7h 8h 9h")) == "7♥ 8♥ 9♥"


# ---- the hint ----------------------------------------------------------------------------------


def test_hint_at_the_table_family_names_the_move_in_the_games_words() -> None:
    deal = stacked(RUMMY40, (OTHER, OPENS), pile="Qs", stock="2d")
    action, reason = hint(deal.view(1), RUMMY40, budget_ms=200.0)
    assert action == Action.draw_stock()
    assert reason == "Draw from the stock: Q♠ on the pile would not go down this turn"
    deal.apply(1, action)
    action, reason = hint(deal.view(1))
    assert action.kind is ActionKind.OPEN and reason == "Open with 7♥ 8♥ 9♥ and three kings: 54 points"

    view = throw_view("10s Kd 4c", (SPADES_RUN,), (True, True))
    assert Action.lay_off(1, parse_cards("10s")) in view.legal
    action, reason = hint(view, names=("You", "Asha"))
    assert action == Action.lay_off(1, parse_cards("10s"))
    assert reason == "Lay off 10♠ on Asha's run 7♠ 8♠ 9♠: 10 points out of your hand"

    view = throw_view("Kd 4c", (SPADES_RUN,), (True, True))
    action, reason = hint(view)
    assert action == Action.throw(parse_card("Kd"))
    assert reason == "Throw K♦: the dearest card that helps nothing"


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.preset)
def test_hint_gives_a_legal_action_and_one_line_through_a_whole_deal(rules: Rules) -> None:
    deal = TableDeal(rules, "hint/table", dealer=1)
    while deal.to_play is not None:
        seat = deal.to_play
        view = deal.view(seat)
        action, reason = hint(view, rules, budget_ms=100.0)
        assert action in view.legal
        assert reason and "\n" not in reason and reason[0].isupper()
        deal.apply(seat, action)
    assert deal.result is not None
    with pytest.raises(ValueError):
        hint(deal.view(0), get_preset("nepali"))


def test_phase_of_a_crafted_view() -> None:
    assert throw_view("Kd 4c", (), (False, False)).phase is Phase.PLAY


def test_hard_keeps_a_spare_joker_to_close_on_at_remi_and_medium_lays_it_off() -> None:
    deal = TableDeal(REMI51, "crafted", dealer=1)
    assert deal.to_play == 0
    hand = tuple(sorted(parse_cards("JK 2c Kd")))
    view = dataclasses.replace(
        deal.view(0),
        hand=hand,
        melds=(SPADES_RUN,),
        opened=(True, True),
        card_counts=(3, 5),
        legal=(Action.lay_off(1, (JOKER,)), *(Action.throw(k) for k in sorted(set(hand)))),
    )
    assert untimed("medium", "x", REMI51).choose(view) == Action.lay_off(1, (JOKER,))
    hard = untimed("hard", "x", REMI51)
    action = hard.choose(view)
    assert action.kind is ActionKind.THROW and action.card != JOKER
    # at Rummy 40 there is no joker close: hard lays it off too
    rummy = dataclasses.replace(view, rules=RUMMY40)
    assert untimed("hard", "x", RUMMY40).choose(rummy) == Action.lay_off(1, (JOKER,))


def test_the_pass_tracker_follows_a_card_put_back() -> None:
    from rummykit.bots.table_levels import TablePassTracker
    from rummykit.engine.events import PutBack, TookPile

    tracker = TablePassTracker()
    deal = TableDeal(RUMMY40, "passes", dealer=1)
    tracker.observe(deal.events[0])
    top = deal.pile_top
    assert top is not None
    tracker.observe(TookPile(seq=1, seat=0, card=top))
    tracker.observe(PutBack(seq=2, seat=0, card=top))
    tracker.observe(DrewStock(seq=3, seat=0, card=None))
    assert tracker.passed == {0: [top]}


# ---- options a bot's name may carry -----------------------------------------------------------


def test_table_levels_take_their_weights_as_options_and_name_a_wrong_one() -> None:
    """``hard:cost_late=0.8`` sets that weight at the table family too (how they were tuned), and
    an option a level does not have, or a value of the wrong kind, is refused with its reason."""
    from rummykit.bots import BotError

    bot = make_player("hard:cost_late=0.8:partial_cap=3:joker_close=false", 1, RUMMY40)
    assert isinstance(bot, TableHard)
    assert (bot.cost_late, bot.partial_cap, bot.joker_close) == (0.8, 3, False)
    assert TableHard.cost_late == 1.0  # the class keeps its own
    assert make_player("medium:swaps=no", 1, RUMMY40).swaps is False  # type: ignore[attr-defined]
    with pytest.raises(BotError, match="medium has no option 'layoff_danger'"):
        make_player("medium:layoff_danger=2", 1, RUMMY40)
    with pytest.raises(BotError, match="partial_cap takes int"):
        make_player("hard:partial_cap=lots", 1, RUMMY40)
    with pytest.raises(BotError, match="easy takes no options"):
        make_player("easy:cost_late=1", 1, RUMMY40)


def test_expert_keeps_unfinished_melds_that_hard_gives_up() -> None:
    """At Rummy 40 the expert weighs unfinished melds more than hard does, and its look credits
    the hands the next card can finish.  Over the throws of a few seeded deals (hard choosing,
    both asked), where the two throw different cards the expert's leaves the hand with at least
    as much unfinished-meld potential, and they do differ somewhere."""
    rules = RUMMY40
    differ = 0
    for i in range(12):
        deal = TableDeal(rules, f"expert/partials/{i}", dealer=i % 2)
        hard, expert = untimed("hard", "h", rules), untimed("expert", "e", rules)
        assert isinstance(hard, TableHard) and isinstance(expert, TableHard)
        rival = make_player("medium", "m", rules)
        while deal.to_play is not None:
            seat = deal.to_play
            view = deal.view(seat)
            if seat == 1:
                deal.apply(seat, rival.choose(view))
                continue
            action = hard.choose(view)
            if action.kind is ActionKind.THROW:
                other = expert.choose(view)
                if other != action:
                    differ += 1
                    cards = sorted({a.card for a in view.legal if a.card is not None})
                    scored = {t.card: t for t in expert.rank_throws(view, cards, Deadline(None))}
                    assert other.card is not None and action.card is not None
                    assert scored[other.card].potential >= scored[action.card].potential
            deal.apply(seat, action)
    assert differ > 0


def test_the_draw_look_credits_a_hand_the_next_card_can_finish() -> None:
    """``draw_gain``: over the live copies, what the next stock card takes off the score of the
    hand a throw leaves.  An open-ended pair gains; loose cards that nothing joins gain nothing
    (a joker alone makes no meld with them); with nothing live there is nothing to gain; and a
    draw that lets the hand go out is worth ``out_worth``."""
    view = throw_view("5h 6h Kc Qd 2s", (), (False, False))
    hard = untimed("hard:look_weight=1", "look", RUMMY40)
    assert isinstance(hard, TableHard)
    live = hard.live(view)
    risk = hard.risk(view)
    pair = hard.draw_gain(view, parse_cards("5h 6h Kc Qd"), live, risk, frozenset())
    apart = hard.draw_gain(view, parse_cards("5h 9d Kc Qd"), live, risk, frozenset())
    assert pair > 0 and apart == 0
    assert hard.draw_gain(view, parse_cards("5h 6h Kc Qd"), [0] * len(live), risk, frozenset()) == 0
    # 4♥ or 7♥ puts 5♥ 6♥ down with it, and the last card goes: the hand is out
    three = parse_cards("5h 6h Kc")
    base = hard.hand_score(view, three, live, risk).score
    outs = live[parse_card("4h")] + live[parse_card("7h")]
    assert hard.draw_gain(view, three, live, risk, frozenset()) >= outs * (base + hard.out_worth) / sum(live)


def test_the_draw_look_changes_only_the_order_of_the_best_throws() -> None:
    """With ``look_weight`` the best ``look_top`` throws are scored again; the rest keep their
    scores, and every throw is still ranked once."""
    deal = TableDeal(RUMMY40, "look/order", dealer=1)
    looker = untimed("hard:look_weight=2:look_top=3", "l", RUMMY40)
    plain = untimed("hard", "l", RUMMY40)
    assert isinstance(looker, TableHard) and isinstance(plain, TableHard)
    deal.apply(0, Action.draw_stock())
    view = deal.view(0)
    cards = sorted({a.card for a in view.legal if a.card is not None and a.card != JOKER})
    before = plain.rank_throws(view, cards, Deadline(None))
    after = looker.rank_throws(view, cards, Deadline(None))
    assert sorted(t.card for t in after) == sorted(t.card for t in before)
    rescored = {t.card for t in before[:3]}
    assert {t.card: t.score for t in after} != {t.card: t.score for t in before}  # the look saw something
    old = {t.card: t.score for t in before}
    for t in after:
        if t.card in rescored:
            assert t.score <= old[t.card]
        else:
            assert t.score == old[t.card]
    assert looker.choose(view) in view.legal

    # a deadline that passes mid-look drops the look: some throws seen and others not would
    # favour those seen
    class PassesMidLook(Deadline):
        """A deadline that passes at its ``calls``-th look: counted, not timed."""

        def __init__(self, calls: int) -> None:
            super().__init__(None)
            self.calls = calls

        def expired(self) -> bool:
            self.calls -= 1
            return self.calls < 0

    timed = make_player("hard:look_weight=2:look_top=3", "l", RUMMY40)
    assert isinstance(timed, TableHard) and not timed.untimed
    # the base ranking asks once a throw after the first; the look once a card it weighs
    for calls in (len(cards) - 1, len(cards) + 3):
        cut = timed.rank_throws(view, cards, PassesMidLook(calls))
        assert [(t.card, t.score) for t in cut] == [(t.card, t.score) for t in before]
    whole = timed.rank_throws(view, cards, PassesMidLook(10**6))
    assert [(t.card, t.score) for t in whole] == [(t.card, t.score) for t in after]


def test_expert_looks_at_the_next_draw_and_reads_the_table_at_remi_only() -> None:
    """The expert's settings by table: the look at both; at Remi 51 hard's partial weights and a
    reading of the table before opening, at Rummy 40 its own weights and no reading."""
    expert = make_player("expert", 1, RUMMY40)
    hard = make_player("hard", 1, RUMMY40)
    assert isinstance(expert, TableHard) and isinstance(hard, TableHard)
    assert expert.look_weight > 0 and hard.look_weight == 0
    assert expert.reads_table_at(REMI51) and not expert.reads_table_at(RUMMY40)
    assert expert.partial_weights(REMI51) == hard.partial_weights(REMI51)
    assert expert.partial_weights(RUMMY40) != hard.partial_weights(RUMMY40)
    plain = make_player("expert:remi_reads_table=false:remi_as_hard=false", 1, REMI51)
    assert isinstance(plain, TableHard)
    assert not plain.reads_table_at(REMI51)
    assert plain.partial_weights(REMI51) == expert.partial_weights(RUMMY40)


def open_view(hand: str, rival_cards: int = 14, rival_opened: bool = False) -> SeatView:
    """Seat 0 at Remi 51 after its draw, not yet opened, able to open with ``hand``'s melds."""
    deal = TableDeal(REMI51, "crafted", dealer=1)
    kinds = tuple(sorted(parse_cards(hand)))
    best = best_opening(kinds, REMI51)
    assert best is not None
    return dataclasses.replace(
        deal.view(0),
        hand=kinds,
        melds=(),
        opened=(False, rival_opened),
        card_counts=(len(kinds), rival_cards),
        thrown=(tuple(parse_cards("2d")), tuple(parse_cards("3d"))),  # past the first round
        legal=(Action.open(best.melds), *(Action.throw(k) for k in sorted(set(kinds)))),
    )


MELDS_84 = "Kc Kd Kh 9h 10h Jh Qh 4s 5s 6s"  # 30 + 39 + 15: opens at 51


def test_handling_hold_keeps_an_opening_that_leaves_few_cards_while_no_rival_is_near() -> None:
    """Remi 51's handling (everything down in the turn the seat opens: the rivals count double):
    with ``hold_hand`` the bot keeps an opening in hand while the throw would leave at most that
    many loose cards and no rival is near going out; it opens when that would leave more, when
    a rival is near, and when it can go out at once."""
    view = open_view(f"{MELDS_84} 2c 7d 9c")  # three loose: two after the throw
    assert untimed("hard", "h", REMI51).choose(view).kind is ActionKind.OPEN  # hard never holds
    holds = untimed("expert", "h", REMI51)  # the expert holds with three or fewer loose
    action = holds.choose(view)
    assert action.kind is ActionKind.THROW and action.card in parse_cards("2c 7d 9c")
    assert untimed("expert:hold_hand=1", "h", REMI51).choose(view).kind is ActionKind.OPEN
    five = open_view(f"{MELDS_84} 2c 7d 9c 2s Qd")  # four loose after the throw
    assert holds.choose(five).kind is ActionKind.OPEN
    near = open_view(f"{MELDS_84} 2c 7d 9c", rival_cards=2, rival_opened=True)
    assert holds.choose(near).kind is ActionKind.OPEN
    # all but the card to throw go down now: handling this turn, so it opens
    assert holds.choose(open_view(f"{MELDS_84} 9c")).kind is ActionKind.OPEN


def test_the_hold_is_never_taken_when_the_turn_owes_the_pile_card() -> None:
    view = dataclasses.replace(open_view(f"{MELDS_84} 2c 7d 9c"), pile_due=parse_card("Kh"))
    assert untimed("expert", "h", REMI51).choose(view).kind is ActionKind.OPEN
