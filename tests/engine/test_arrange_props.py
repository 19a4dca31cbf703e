"""Property tests: the C arranger against the deliberately simple brute force.

Hands come from a real shoe (never more copies than it holds), both at random
and built from real melds with a little noise, so that shows and near-shows
are common.  Every preset of the show family is covered, and so are the
settings that change what a group is (ace high, wrap, adjacent jokers, joker
limits, natural minimums, runs needed, the long run)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brute_arranger import brute_arrange, brute_finish
from rummykit.engine.arrange import Arranger
from rummykit.engine.cards import JOKER, format_card, shoe
from rummykit.engine.rules import Rules, get_preset

SHOW_PRESETS = ("nepali", "indian", "kerala", "pool101", "pool201", "deals", "maharashtra", "north-indian")

VARIANTS: tuple[tuple[str, dict[str, object]], ...] = (
    ("nepali", {"ace_high": False}),
    ("nepali", {"runs_needed": 1}),
    ("indian", {"wrap": True}),
    ("indian", {"adjacent_jokers": False}),
    ("indian", {"max_jokers_in_set": 1}),
    ("indian", {"min_naturals": 2}),
    ("indian", {"max_jokers_per_group": 2, "runs_needed": 3}),
    ("kerala", {"players": 8}),  # three packs: thennaali is possible
    ("nepali", {"long_run_required": True}),
    ("maharashtra", {"joker_only_groups": True, "min_naturals": 0}),
    ("nepali", {"credit": "always"}),
    ("indian", {"credit": "pure", "full_count": None}),
)

ALL_RULES: tuple[Rules, ...] = tuple(get_preset(p) for p in SHOW_PRESETS) + tuple(
    get_preset(p, **kw) for p, kw in VARIANTS
)
ARRANGERS = {id(r): Arranger(r) for r in ALL_RULES}


def _label(rules: Rules) -> str:
    return rules.preset


@st.composite
def hands(draw: st.DrawFn, rules: Rules, size: int) -> tuple[list[int], int | None]:
    """A hand of ``size`` kinds from the rules' shoe: random, or melds plus noise."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    wild = draw(st.one_of(st.none(), st.integers(1, 13))) if rules.cut_joker else None
    cards = [c % 53 for c in shoe(rules.packs, rules.printed_jokers)]
    if draw(st.booleans()):
        rng.shuffle(cards)
        return cards[:size], wild
    # built from melds: runs and sets of real cards, then a little noise
    pool = list(cards)
    hand: list[int] = []
    while len(hand) < size:
        if rng.random() < 0.55:
            suit, start = rng.randrange(4), rng.randint(1, 11)
            length = min(rng.randint(3, 5), 14 - start)
            meld = [suit * 13 + (r - 1) % 13 for r in range(start, start + length)]
        elif rng.random() < 0.85:
            rank = rng.randrange(13)
            suits = rng.sample(range(4), rng.randint(3, 4))
            meld = [s * 13 + rank for s in suits]
        else:
            meld = [rng.choice(pool)]
        for k in meld:
            if len(hand) < size and k in pool:
                pool.remove(k)
                hand.append(k)
    # noise: swap a card or two for random ones, or for a joker
    for _ in range(rng.randint(0, 2)):
        i = rng.randrange(size)
        choice = JOKER if JOKER in pool and rng.random() < 0.3 else rng.choice(pool)
        pool.remove(choice)
        pool.append(hand[i])
        hand[i] = choice
    return hand, wild


def _check(rules: Rules, hand: list[int], wild: int | None) -> None:
    arranger = ARRANGERS[id(rules)]
    a = arranger.arrange(hand, wild) if len(hand) == rules.hand_size else None
    fast_charge = arranger.charge(hand, wild)
    fast_show = arranger.can_show(hand, wild)
    brute = brute_arrange(hand, rules, wild)
    shown = " ".join(format_card(k) for k in hand)
    assert (fast_charge, fast_show) == (brute.charge, brute.can_show), f"{rules.preset} wild={wild}: {shown}"
    if a is not None:
        assert (a.charge, a.can_show) == (brute.charge, brute.can_show)
        laid = sorted([c for g in a.groups for c in g.cards] + list(a.loose))
        assert laid == sorted(hand)


@pytest.mark.parametrize("rules", ALL_RULES, ids=_label)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_small_hands_agree_with_brute_force(rules: Rules, data: st.DataObject) -> None:
    """Hands of 3 to 9 cards: every split the brute force can find, the arranger finds."""
    size = data.draw(st.integers(3, 9))
    hand, wild = data.draw(hands(rules, size))
    _check(rules, hand, wild)


@pytest.mark.parametrize("rules", ALL_RULES, ids=_label)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_full_hands_agree_with_brute_force(rules: Rules, data: st.DataObject) -> None:
    """Thirteen-card hands: charge and show agree with the brute force."""
    hand, wild = data.draw(hands(rules, rules.hand_size))
    _check(rules, hand, wild)


@pytest.mark.parametrize("preset", ("nepali", "indian", "north-indian"))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_finishing_cards_agree_with_brute_force(preset: str, data: st.DataObject) -> None:
    rules = get_preset(preset)
    hand, wild = data.draw(hands(rules, 14))
    fast = sorted({format_card(k) for k in Arranger(rules).finishing(hand, wild)})
    assert fast == brute_finish(hand, rules, wild)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_charge_never_exceeds_the_full_count_or_the_hand_total(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from(ALL_RULES))
    hand, wild = data.draw(hands(rules, rules.hand_size))
    arranger = ARRANGERS[id(rules)]
    charge = arranger.charge(hand, wild)
    flat = rules.full_count if rules.credit == "lives_flat" and rules.full_count is not None else 0
    assert 0 <= charge <= max(arranger.total(hand, wild), flat, (rules.complete_hand_charge or 0) + 1)
    if rules.full_count is not None:
        assert charge <= rules.full_count


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_away_is_zero_exactly_when_the_hand_shows(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from(ALL_RULES[:8]))
    hand, wild = data.draw(hands(rules, rules.hand_size))
    arranger = ARRANGERS[id(rules)]
    away = arranger.away(hand, wild)
    assert (away == 0) == arranger.can_show(hand, wild)
    assert 0 <= away <= 13


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_best_throw_is_the_lowest_charge_over_every_throw(data: st.DataObject) -> None:
    """The bounded search over the fourteen throws agrees with trying each throw in full."""
    rules = data.draw(st.sampled_from(ALL_RULES))
    hand, wild = data.draw(hands(rules, rules.hand_size + 1))
    arranger = ARRANGERS[id(rules)]
    finish, throw, charge = arranger.best_throw(hand, wild)
    each = {}
    for k in set(hand):
        rest = list(hand)
        rest.remove(k)
        each[k] = (arranger.can_show(rest, wild), arranger.charge(rest, wild))
    assert sorted(finish) == sorted(k for k, (shows, _) in each.items() if shows)
    if finish:
        assert throw in finish
    else:
        assert charge == min(c for _, c in each.values())
        assert each[throw][1] == charge
