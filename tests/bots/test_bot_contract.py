"""The bot contract: views only, seeded determinism, the deadline, and honest sampled worlds."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from rummykit.bots import BOT_NAMES, BotError, make_player
from rummykit.bots.contract import Deadline, decide, is_timed, play_deal_timed
from rummykit.bots.expert import ExpertPlayer
from rummykit.bots.hard import HardPlayer
from rummykit.bots.tracking import read_view, sample_hidden
from rummykit.engine.deal import ShowDeal
from rummykit.engine.events import Action, Dealt, DrewStock, Event
from rummykit.engine.rules import get_preset
from rummykit.engine.views import SeatView

NEPALI2 = get_preset("nepali", players=2)
NEPALI4 = get_preset("nepali", players=4)
LEVELS = ("easy", "medium", "hard", "expert")


class Spy:
    """Wraps a bot and records everything it is handed."""

    def __init__(self, name: str, seed: str, seat: int) -> None:
        self.inner = make_player(name, seed)
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


@pytest.mark.parametrize("name", LEVELS)
def test_levels_are_registered_and_timed(name: str) -> None:
    assert name in BOT_NAMES
    bot = make_player(name, 1)
    assert bot.name == name and is_timed(bot)


def test_a_bot_is_handed_only_its_own_view_and_its_events() -> None:
    deal = ShowDeal(NEPALI4, "contract/1", dealer=1)
    spies = [Spy(LEVELS[s % 3], f"spy/{s}", s) for s in range(4)]
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


def test_sampled_worlds_know_no_more_than_chance() -> None:
    """The other seat's sampled hands match its real hand no better than they match the real
    stock: the worlds are dealt from the view alone."""
    deal = ShowDeal(NEPALI2, "contract/worlds", dealer=0)
    me = deal.to_play
    assert me is not None
    view = deal.view(me)
    know = read_view(view)
    other = 1 - me
    truth = Counter(deal.hand(other))
    stock = Counter(c % 53 for c in deal._stock[-13:])  # the next 13 stock cards: a control
    rng = random.Random(7)
    hits_hand = hits_stock = 0
    for _ in range(400):
        world = sample_hidden(view, know, rng)
        sampled = Counter(world.hands[other])
        assert sorted(world.hands[me]) == sorted(view.hand)
        hits_hand += sum((sampled & truth).values())
        hits_stock += sum((sampled & stock).values())
    # both are about 13 * 13 / 79 a world; allow generous noise either way
    assert abs(hits_hand - hits_stock) < 0.25 * max(hits_hand, hits_stock)


@pytest.mark.parametrize("name", LEVELS)
def test_same_seed_same_deal(name: str) -> None:
    logs = []
    for _ in range(2):
        deal = ShowDeal(NEPALI2, "contract/replay", dealer=0)
        bots = [make_player(name, "same"), make_player("greedy", "same")]
        for b in bots:
            if isinstance(b, HardPlayer):
                b.budget_ms = None  # no deadline: the search always runs to max_worlds
        play_deal_timed(deal, bots)
        logs.append([e.text() for e in deal.events])
    assert logs[0] == logs[1]


class CountedDeadline(Deadline):
    """A deadline that passes once it has been asked ``checks`` times: the search's clock counted
    instead of timed, so a test can tell how far a cut-short search went on any machine."""

    def __init__(self, checks: int) -> None:
        super().__init__(None)
        self.left = checks

    def remaining_ms(self) -> float:
        if self.left > 0:
            self.left -= 1
            return float("inf")
        return 0.0

    def expired(self) -> bool:
        return self.left <= 0


def play_searcher_at_seat_0(bot: HardPlayer, deadline: object, seed: str) -> tuple[list[Action], list[int]]:
    """One four-seat deal, ``bot`` (the expert with hard's search on: neither plays with it now)
    at seat 0 against greedy, each of its decisions given a fresh ``deadline()``; its actions and
    the worlds each decision searched."""
    deal = ShowDeal(NEPALI4, seed, dealer=3)
    others = [make_player("greedy", s) for s in range(3)]
    actions: list[Action] = []
    worlds: list[int] = []
    while deal.to_play is not None:
        seat = deal.to_play
        view = deal.view(seat)
        if seat == 0:
            action = bot.choose(view, deadline())  # type: ignore[operator]
            assert action in view.legal
            actions.append(action)
            worlds.append(bot.worlds_searched)
        else:
            action = others[seat - 1].choose(view)
        deal.apply(seat, action)
    return actions, worlds


def test_a_cut_short_search_stops_at_its_deadline() -> None:
    """Each decision's clock allows three looks: no decision searches more than three worlds,
    the searches are cut (counted in ``cutoffs``), and every answer is legal."""
    bot = ExpertPlayer("tiny")
    bot.search_seats = 3
    _actions, worlds = play_searcher_at_seat_0(bot, lambda: CountedDeadline(3), "contract/deadline")
    assert max(worlds) == 3  # the throw search ran, and stopped at its third look
    assert all(w <= 3 for w in worlds)
    assert bot.cutoffs > 0


def test_a_passed_deadline_leaves_the_ranking_and_a_legal_answer() -> None:
    bot = ExpertPlayer("tiny")
    bot.search_seats = 3
    _actions, worlds = play_searcher_at_seat_0(bot, lambda: Deadline(0.0), "contract/deadline")
    assert worlds and all(w == 0 for w in worlds)  # no world searched: medium's ranking throws


def test_a_fixed_number_of_worlds_ignores_the_deadline_and_replays() -> None:
    """``expert:worlds=8`` plays exactly eight worlds a search whatever the clock says, so the
    same seed gives the same deal with the deadline passed or far away."""
    runs = []
    for deadline in (lambda: Deadline(0.0), lambda: Deadline(None)):
        bot = make_player("expert:worlds=8:search_seats=3", "fixed")
        assert isinstance(bot, HardPlayer)
        runs.append(play_searcher_at_seat_0(bot, deadline, "contract/fixed"))
        assert bot.cutoffs == 0
    (actions_a, worlds_a), (actions_b, worlds_b) = runs
    assert actions_a == actions_b and worlds_a == worlds_b
    assert max(worlds_a) >= 8 and all(w % 8 == 0 for w in worlds_a)


class Sleeper:
    name = "sleeper"
    budget_ms = 1.0

    def choose(self, view: SeatView, deadline: Deadline | None = None) -> Action:
        time.sleep(0.05)
        return view.legal[-1]

    def observe(self, event: object) -> None:
        return None


def test_strict_play_refuses_a_late_answer_and_an_illegal_one() -> None:
    deal = ShowDeal(NEPALI2, "contract/late", dealer=0)
    seat = deal.to_play
    assert seat is not None
    view = deal.view(seat)
    assert decide(Sleeper(), view, grace_ms=10.0).late  # type: ignore[arg-type]
    with pytest.raises(BotError, match="budget"):
        decide(Sleeper(), view, strict=True, grace_ms=10.0)  # type: ignore[arg-type]

    class Cheat(Sleeper):
        def choose(self, view: SeatView, deadline: Deadline | None = None) -> Action:
            return Action.throw(0)  # not a draw

    with pytest.raises(BotError, match="not a legal action"):
        decide(Cheat(), view)  # type: ignore[arg-type]


def test_deadline() -> None:
    assert not Deadline(None).expired() and Deadline(None).remaining_ms() == float("inf")
    d = Deadline(0.0)
    assert d.expired() and d.remaining_ms() == 0.0
    with pytest.raises(ValueError):
        Deadline(-1.0)


def test_fixed_worlds_play_the_same_deal_whatever_the_deadline() -> None:
    """expert:worlds=N searches exactly N worlds: a budget that has always run out already (a
    very loaded machine) changes nothing, so a tournament's result does not move with the load.
    (Four seats: heads up the search never runs.)"""
    logs = []
    for budget in (None, 0.0):
        deal = ShowDeal(NEPALI4, "contract/fixed/2", dealer=1)
        searcher = make_player("expert:worlds=6:search_seats=3", "fixed")
        bots = [searcher, *(make_player("greedy", s) for s in range(3))]
        bots[0].budget_ms = budget  # type: ignore[attr-defined]
        play_deal_timed(deal, bots)
        assert bots[0].cutoffs == 0  # type: ignore[attr-defined]
        logs.append([e.text() for e in deal.events])
    assert logs[0] == logs[1]
    # the anytime search at the same budget is cut short (and so may play otherwise)
    anytime = make_player("expert:search_seats=3", "fixed")
    anytime.budget_ms = 0.0  # type: ignore[attr-defined]
    deal = ShowDeal(NEPALI4, "contract/fixed/2", dealer=1)
    play_deal_timed(deal, [anytime, *(make_player("greedy", s) for s in range(3))])
    assert anytime.cutoffs > 0  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("hard:worlds", "KEY=VALUE"),
        ("hard:depth=3", "hard has no option 'depth'"),
        ("hard:worlds=many", "worlds takes int"),
        ("hard:worlds=-1", "at least 0"),
        ("greedy:worlds=4", "greedy takes no options"),
    ],
)
def test_bad_bot_options_name_the_problem(spec: str, message: str) -> None:
    with pytest.raises(BotError, match=message):
        make_player(spec, 1)
