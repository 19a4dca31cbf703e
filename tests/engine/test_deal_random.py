"""Random play: invariants of the show-family deal over thousands of seeded deals.

At every step of every deal: every physical card is in exactly one place, hands
hold 13 cards at rest, a random illegal action is refused and changes nothing,
``can`` agrees with ``legal_actions``.  On a share of the deals every view of
every seat (and the spectator's) is checked at every step: it matches the true
hand and the public log, and it does not change when everything that viewer may
not see (other hands, the stock order) is shuffled.  Every deal ends within its
cap, and replaying its moves gives the same log.

The default run takes well under a minute on two cores; ``-m slow`` adds a much
longer run.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from rummykit.engine.arrange import Arranger
from rummykit.engine.cards import KINDS, shoe
from rummykit.engine.deal import IllegalAction, ShowDeal
from rummykit.engine.driver import Chooser, moves_of, replay
from rummykit.engine.events import (
    Action,
    ActionKind,
    Ending,
    Phase,
    SeatStatus,
    Showed,
    Threw,
    TookPile,
    WrongShow,
)
from rummykit.engine.rules import Rules, get_preset
from rummykit.engine.views import SeatView, SpectatorView

TABLES: list[tuple[str, dict[str, object]]] = [
    ("nepali", {}),
    ("nepali", {"players": 2}),
    ("nepali", {"players": 6}),
    ("indian", {}),
    ("indian", {"players": 3}),
    ("kerala", {}),
    ("kerala", {"players": 8}),
    ("north-indian", {}),
    ("deals", {}),
    ("maharashtra", {}),
    ("pool101", {}),
    ("nepali", {"pile_at_deal": False}),  # no card turned up at the deal (Remi 51's way)
]
TABLE_IDS = [name + "".join(f"-{v}" for v in over.values()) for name, over in TABLES]

SPECTATOR_FIELDS = {f.name for f in dataclasses.fields(SpectatorView)}
SEAT_FIELDS = SPECTATOR_FIELDS | {"seat", "hand", "drawn", "drop_cost", "legal"}


def table(name: str, overrides: dict[str, object]) -> Rules:
    return get_preset(name, **overrides)


# ---------------------------------------------------------------- choosers


def random_chooser(rng: random.Random, *, drop_p: float, wrong_p: float) -> Chooser:
    """Shows whenever it can, drops now and then, tries a wrong show now and then, else anything."""

    def choose(view: SeatView) -> Action:
        legal = view.legal
        shows = [a for a in legal if a.kind is ActionKind.SHOW]
        if shows:
            return rng.choice(shows)
        if legal[0].kind is ActionKind.DROP and rng.random() < drop_p:
            return legal[0]
        rest = [a for a in legal if a.kind is not ActionKind.DROP]
        action = rng.choice(rest)
        if action.kind is ActionKind.THROW and view.rules.wrong_show is not None and rng.random() < wrong_p:
            assert action.card is not None
            return Action.show(action.card)  # not a show: costs the penalty
        return action

    return choose


def greedy_chooser(arranger: Arranger) -> Chooser:
    """Shows when it can; takes the pile's top card when it lowers the charge; throws the best card."""

    def choose(view: SeatView) -> Action:
        legal = view.legal
        for a in legal:
            if a.kind is ActionKind.SHOW:
                return a
        if view.phase is Phase.DRAW:
            top = view.pile_top
            if Action.draw_pile() in legal and top is not None:
                a14 = arranger.arrange([*view.hand, top], view.wild)
                if a14.throw != top and a14.charge < arranger.charge(view.hand, view.wild):
                    return Action.draw_pile()
            return Action.draw_stock()
        best = arranger.arrange(view.hand, view.wild).throw
        if best is not None and Action.throw(best) in legal:
            return Action.throw(best)
        throws = [a for a in legal if a.kind is ActionKind.THROW]
        return max(throws, key=lambda a: arranger.value(a.card or 0, view.wild))

    return choose


# ---------------------------------------------------------------- invariants


def check_cards(deal: ShowDeal) -> None:
    """Every physical card in exactly one place: hands, stock, pile, cut card, out of play."""
    places = [c for h in deal._hands for c in h]
    places += deal._stock + deal._pile + deal._out
    if deal._cut is not None:
        places.append(deal._cut)
    assert sorted(places) == FULL_SHOES[(deal.rules.packs, deal.rules.printed_jokers)]


FULL_SHOES = {(p, j): sorted(shoe(p, j)) for p in (1, 2, 3) for j in range(5)}


def check_hand_sizes(deal: ShowDeal) -> None:
    size = deal.rules.hand_size
    for s in range(deal.players):
        n = len(deal._hands[s])
        if deal._status[s] is not SeatStatus.IN:
            assert n == 0
        elif deal.phase is Phase.THROW and s == deal.to_play:
            assert n == size + 1
        else:
            assert n == size  # at rest; after a show the finishing card is down


def random_action(rng: random.Random, deal: ShowDeal) -> tuple[int, Action]:
    """Anything at all, mostly near-misses: wrong seat, wrong phase, a card not held."""
    n = deal.players
    seat = rng.randrange(n) if rng.random() < 0.9 else rng.choice([-1, n, n + 5])
    kind = rng.choice(list(ActionKind)[:5])  # the show family's kinds (the table family's follow)
    hand = deal._hands[seat] if 0 <= seat < n else []
    r = rng.random()
    if hand and r < 0.5:
        card = rng.choice(hand) % KINDS
    elif r < 0.9:
        card = rng.randrange(KINDS)
    else:
        card = rng.choice([-1, KINDS, 1000])
    if kind is ActionKind.SHOW:
        groups = None
        if hand and rng.random() < 0.3:
            kinds = [c % KINDS for c in hand]
            rng.shuffle(kinds)
            groups = (tuple(kinds[:3]), tuple(kinds[3:7]), tuple(kinds[7:]))
        return seat, Action(kind, card, groups)
    if kind is ActionKind.THROW:
        return seat, Action(kind, card)
    return seat, Action(kind)


def check_illegal_and_legal(deal: ShowDeal, rng: random.Random) -> None:
    """A random action: when refused it raises with the same reason and changes nothing."""
    seat, action = random_action(rng, deal)
    verdict = deal.can(seat, action)
    if verdict:
        if action.groups is None and 0 <= seat < deal.players:
            assert action in deal.legal_actions(seat, wrong_shows=True)
        return
    assert verdict.reason
    before = deal.fingerprint()
    with pytest.raises(IllegalAction) as info:
        deal.apply(seat, action)
    assert info.value.reason == verdict.reason
    assert deal.fingerprint() == before
    if rng.random() < 0.25:  # every legal action is accepted (a sample of steps: this is the slow part)
        seat = deal.to_play if deal.to_play is not None else 0
        for a in deal.legal_actions(seat):
            assert deal.can(seat, a), (a, deal.can(seat, a))


class PublicLog:
    """What the public log says, rebuilt from the events as a spectator sees them."""

    def __init__(self, players: int) -> None:
        self.took: list[list[int]] = [[] for _ in range(players)]
        self.thrown: list[list[int]] = [[] for _ in range(players)]
        self.seen = 0

    def update(self, deal: ShowDeal) -> None:
        for e in deal.events_since(self.seen):
            e = e.seen_by(None)
            assert e.public
            if isinstance(e, TookPile):
                self.took[e.seat].append(e.card)
            elif isinstance(e, Threw | WrongShow | Showed):  # a finishing card is thrown too
                self.thrown[e.seat].append(e.card)
        self.seen = len(deal._events)


def check_views(deal: ShowDeal, log: PublicLog) -> None:
    """Every seat's view and the spectator's against the truth and the public log."""
    pile = tuple(c % KINDS for c in deal._pile)
    cut = None if deal._cut is None else deal._cut % KINDS
    for viewer in [*range(deal.players), None]:
        view = deal.view(viewer)
        if viewer is None:
            assert type(view) is SpectatorView
            assert {f.name for f in dataclasses.fields(view)} == SPECTATOR_FIELDS
        else:
            assert isinstance(view, SeatView)
            assert {f.name for f in dataclasses.fields(view)} == SEAT_FIELDS
            assert view.hand == tuple(sorted(c % KINDS for c in deal._hands[viewer]))
            if view.legal:
                assert viewer == deal.to_play
            if view.drawn is not None:
                assert viewer == deal.to_play and deal._drawn is not None
                assert view.drawn == deal._drawn % KINDS
        assert view.pile == pile and view.pile_top == (pile[-1] if pile else None)
        assert view.cut == cut and view.stock_count == len(deal._stock)
        assert view.card_counts == tuple(len(h) for h in deal._hands)
        assert view.took == tuple(tuple(t) for t in log.took)
        assert view.thrown == tuple(tuple(t) for t in log.thrown)
        result = view.result
        if result is not None:
            for r in result.seats:
                if r.dropped or (r.won and result.ending is Ending.LAST_IN):
                    assert r.hand == () and r.groups == () and r.loose == ()


def check_views_hide(deal: ShowDeal, rng: random.Random) -> None:
    """Shuffle everything a viewer may not see (other hands, the stock): its view must not change."""
    if deal.over:
        return
    saved_hands = [list(h) for h in deal._hands]
    saved_stock = list(deal._stock)
    saved_drawn = deal._drawn
    before = deal.fingerprint()
    for viewer in [*range(deal.players), None]:
        view = deal.view(viewer)
        others = [s for s in range(deal.players) if s != viewer]
        pool = list(deal._stock)
        for s in others:
            pool += deal._hands[s]
        rng.shuffle(pool)
        for s in others:
            k = len(deal._hands[s])
            deal._hands[s], pool = pool[:k], pool[k:]
        deal._stock = pool
        mover = deal.to_play
        if deal.phase is Phase.THROW and mover != viewer and mover is not None and deal._pile_take is None:
            deal._drawn = rng.choice(deal._hands[mover])  # a card drawn from the stock is private too
        assert deal.view(viewer) == view, f"the view of {viewer} depends on cards it may not see"
        deal._hands = [list(h) for h in saved_hands]
        deal._stock = list(saved_stock)
        deal._drawn = saved_drawn
    assert deal.fingerprint() == before


def play_checked(
    rules: Rules,
    seed: int | str,
    choose: Chooser,
    rng: random.Random,
    *,
    views: bool,
    turn_cap: int,
    arranger: Arranger,
) -> ShowDeal:
    """Play a deal out, checking the invariants at every step."""
    deal = ShowDeal(rules, seed, dealer=rng.randrange(rules.players), turn_cap=turn_cap, arranger=arranger)
    log = PublicLog(rules.players)
    steps = 0
    while True:
        check_cards(deal)
        check_hand_sizes(deal)
        check_illegal_and_legal(deal, rng)
        if views:
            log.update(deal)
            check_views(deal, log)
            check_views_hide(deal, rng)
        seat = deal.to_play
        if seat is None:
            break
        deal.apply(seat, choose(deal.view(seat)))
        steps += 1
        assert steps <= 3 * turn_cap + 3, "a deal ran past its cap"
    assert deal.over and deal.result is not None
    assert deal.turns <= deal.turn_limit <= turn_cap
    return deal


def check_result(deal: ShowDeal) -> None:
    result = deal.result
    assert result is not None
    rules = deal.rules
    assert result.seats[result.winner].won and result.charges[result.winner] == 0
    assert sum(s.won for s in result.seats) == 1
    for r in result.seats:
        if r.dropped:
            assert r.charge in (rules.drop_first, rules.drop_middle)
        elif r.wrong_show:
            assert r.charge == rules.wrong_show and len(r.hand) == rules.hand_size
        elif not r.won:
            assert r.hand_charge is not None and 0 <= r.charge <= r.hand_charge
            if rules.full_count is not None:
                assert r.charge <= rules.full_count
    if result.ending is Ending.SHOW:
        assert deal.arranger.can_show(result.seats[result.winner].hand, deal.wild)
    if result.ending in (Ending.TURN_LIMIT, Ending.CAP, Ending.BLOCKED):
        charges = [r.hand_charge for r in result.seats if r.status is SeatStatus.IN]
        assert result.seats[result.winner].hand_charge == min(c for c in charges if c is not None)


def check_replay(deal: ShowDeal) -> None:
    """The same seed and the same actions give the same log."""
    again = replay(deal.rules, deal.seed, moves_of(deal.events), dealer=deal.dealer, turn_cap=deal.turn_limit)
    assert again.events == deal.events


# ---------------------------------------------------------------- the runs


def run_table(
    rules: Rules, deals: int, *, view_every: int, greedy_every: int, cap: int, label: str
) -> dict[Ending, int]:
    arranger = Arranger(rules)
    endings: dict[Ending, int] = {}
    for i in range(deals):
        rng = random.Random(f"{label}/{i}")
        greedy = i % greedy_every == 0
        choose: Chooser
        if greedy:
            choose = greedy_chooser(arranger)
        else:
            choose = random_chooser(rng, drop_p=rng.choice([0.0, 0.02, 0.1]), wrong_p=0.02)
        turn_cap = cap if rules.turn_limit is None else max(cap, rules.turn_limit)
        seed = f"{label}/{i}"
        views = i % view_every == 0
        deal = play_checked(rules, seed, choose, rng, views=views, turn_cap=turn_cap, arranger=arranger)
        check_result(deal)
        check_replay(deal)
        assert deal.result is not None
        endings[deal.result.ending] = endings.get(deal.result.ending, 0) + 1
    return endings


@pytest.mark.parametrize(("name", "overrides"), TABLES, ids=TABLE_IDS)
def test_random_play_keeps_every_invariant(name: str, overrides: dict[str, object]) -> None:
    rules = table(name, overrides)
    endings = run_table(rules, 200, view_every=8, greedy_every=6, cap=300, label=f"fast/{name}/{overrides}")
    assert Ending.SHOW in endings  # the greedy seats show
    if rules.drop_first is not None:
        assert Ending.LAST_IN in endings


def test_random_play_reaches_the_hard_cap_without_turn_limit() -> None:
    rules = get_preset("deals")  # no dropping and no turn limit: a random table can circle for ever
    arranger = Arranger(rules)
    rng = random.Random("cap")
    choose = random_chooser(rng, drop_p=0.0, wrong_p=0.0)
    deal = play_checked(rules, "cap", choose, rng, views=False, turn_cap=2000, arranger=arranger)
    assert deal.result is not None
    assert deal.result.ending is Ending.CAP and deal.turns == 2000 and deal.rebuilds > 10
    check_result(deal)


def test_nepali_random_play_meets_the_250_turn_limit() -> None:
    rules = get_preset("nepali")
    arranger = Arranger(rules)
    seen = set()
    for i in range(6):
        rng = random.Random(f"limit/{i}")
        choose = random_chooser(rng, drop_p=0.0, wrong_p=0.0)
        deal = play_checked(rules, f"limit/{i}", choose, rng, views=i == 0, turn_cap=2000, arranger=arranger)
        assert deal.result is not None
        seen.add(deal.result.ending)
        check_result(deal)
    assert Ending.TURN_LIMIT in seen


def test_same_seed_and_actions_give_the_same_log_with_string_and_int_seeds() -> None:
    rules = get_preset("kerala", players=8)
    arranger = Arranger(rules)
    for seed in (0, 1, "a", "ബ", 2**70):
        logs = []
        for _ in range(2):
            rng = random.Random(str(seed))
            deal = ShowDeal(rules, seed, arranger=arranger)
            choose = random_chooser(rng, drop_p=0.05, wrong_p=0.05)
            while (seat := deal.to_play) is not None:
                deal.apply(seat, choose(deal.view(seat)))
            logs.append([e.text() for e in deal.events])
            logs.append(list(deal.events))
        assert logs[0] == logs[2] and logs[1] == logs[3]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "overrides"), TABLES, ids=TABLE_IDS)
def test_long_random_play_keeps_every_invariant(
    name: str, overrides: dict[str, object], request: pytest.FixtureRequest
) -> None:
    # About seven minutes in all: deselected by default (pyproject addopts), run with -m slow.
    rules = table(name, overrides)
    run_table(rules, 2000, view_every=4, greedy_every=4, cap=2000, label=f"slow/{name}/{overrides}")
