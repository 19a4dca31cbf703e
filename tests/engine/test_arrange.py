"""The arranger against the shared vectors and the seeds' worked examples.

Tests are named after the source sentence they check."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from rummykit.engine.arrange import Arranger
from rummykit.engine.cards import RANK_TEXT, format_card, format_cards, parse_cards
from rummykit.engine.rules import get_preset

DATA = Path(__file__).parent.parent / "data"
RANK = {t: i for i, t in enumerate(RANK_TEXT) if t}


def _arranger(preset: str, **changes: object) -> Arranger:
    return Arranger(get_preset(preset, **changes))


def _load_vectors() -> dict[str, list[dict[str, object]]]:
    by_rules: dict[str, list[dict[str, object]]] = defaultdict(list)
    with open(DATA / "arrange_vectors.jsonl") as f:
        for line in f:
            rec = json.loads(line)
            by_rules[rec["rules"]].append(rec)
    return by_rules


VECTORS = _load_vectors()


@pytest.mark.parametrize("preset", sorted(VECTORS))
def test_shared_vectors(preset: str) -> None:
    """../shared/vectors/arrange.jsonl (copied into tests/data): every line agrees."""
    arranger = _arranger(preset)
    bad = []
    for rec in VECTORS[preset]:
        hand = parse_cards(str(rec["hand"]))
        wild = RANK[str(rec["wild"])] if rec["wild"] else None
        if "finish" in rec:
            got: object = sorted({format_card(k) for k in arranger.finishing(hand, wild)})
            want: object = rec["finish"]
        else:
            a = arranger.arrange(hand, wild)
            got = (a.charge, a.can_show)
            want = (rec["charge"], rec["can_show"])
        if got != want:
            bad.append(f"{rec['hand']} wild {rec['wild']}: want {want}, got {got}")
    assert not bad, "\n".join(bad[:10])


def test_vectors_cover_four_presets_and_both_hand_sizes() -> None:
    assert set(VECTORS) == {"nepali", "indian", "kerala", "north-indian"}
    sizes = {len(str(r["hand"]).split()) for recs in VECTORS.values() for r in recs}
    assert sizes == {13, 14}


# ---- seed 002: the hand played turn by turn -------------------------------------------


def test_seed002_example_hand_declares_with_js_in_the_finish_slot() -> None:
    """'Put J♠ in the Finish slot and arrange the other 13: A♥ 2♥ 3♥ | 4♣ 5♣ 6♣ |
    7♠ 8♠ 5♦ 10♠ | K♦ K♣ K♥ ... Declare.'  Wild joker 5♣."""
    arranger = _arranger("indian")
    hand = parse_cards("A♥ 2♥ 3♥ 4♣ 5♣ 6♣ 7♠ 8♠ 5♦ 10♠ K♦ K♣ K♥ J♠")
    a = arranger.arrange(hand, wild=5)
    assert a.can_show
    assert "Js" in {format_card(k) for k in a.finish}
    thirteen = parse_cards("A♥ 2♥ 3♥ 4♣ 5♣ 6♣ 7♠ 8♠ 5♦ 10♠ K♦ K♣ K♥")
    shown = arranger.arrange(thirteen, wild=5)
    assert shown.can_show and shown.charge == 0
    assert shown.has_pure and shown.runs >= 2


def test_seed002_dealt_hand_already_has_both_lives() -> None:
    """'A♥ 2♥ 3♥ is already a pure sequence ... 7♠ 8♠ 5♦ 10♠ makes an impure
    sequence straight away. That's your two sequences done.'  What is left,
    K♦ K♣, 4♣ 6♣, Q♥ and J♠, is charged: with 5♣ wild, 10+10+4+6+10+10 = 50,
    unless the arranger finds better (it may not do worse)."""
    arranger = _arranger("indian")
    hand = parse_cards("A♥ 2♥ 3♥ 7♠ 8♠ 10♠ K♦ K♣ 4♣ 6♣ Q♥ 5♦ J♠")
    a = arranger.arrange(hand, wild=5)
    assert a.credited and a.has_pure and a.runs >= 2
    assert a.charge <= 50
    assert not a.can_show


# ---- seed 004: the counts -----------------------------------------------------------


def test_seed004_both_lives_count_48() -> None:
    """'sevens are wild ... pure sequence 4♥ 5♥ 6♥, a second life 9♠ 10♠ 7♣ ...
    seven loose cards: K♣ Q♦ A♠ 8♦ 3♣ 2♥ 5♠. You count ... 48.'"""
    hand = parse_cards("4h 5h 6h 9s 10s 7c Kc Qd As 8d 3c 2h 5s")
    for preset in ("indian", "kerala", "nepali", "north-indian"):
        if preset == "north-indian":
            continue  # a second life there needs a run of four
        assert _arranger(preset).charge(hand, 7) == 48, preset


def test_seed004_without_second_life_67_online_and_flat_100_in_kerala() -> None:
    """'Now say the 9♠ 10♠ 7♣ weren't together ... At a Kerala table you count a
    flat 100 ... In the common online way, every card except the pure sequence
    counts: 9 + 10 + 0 for the joker, plus the 48, makes 67.'  (10♥ for 10♠
    keeps the same count with no second run to be had.)"""
    hand = parse_cards("4h 5h 6h 9s 10h 7c Kc Qd As 8d 3c 2h 5s")
    assert _arranger("indian").charge(hand, 7) == 67
    assert _arranger("kerala").charge(hand, 7) == 100


def test_seed004_no_pure_sequence_82_held_to_80() -> None:
    """'With no pure sequence at all, every card counts there: 82, held to the
    full count of 80.'"""
    hand = parse_cards("4h 5d 6h 9s 10h 7c Kc Qd As 8d 3c 2h 5s")
    arranger = _arranger("indian")
    assert arranger.total(hand, 7) == 82
    assert arranger.charge(hand, 7) == 80
    # Maharashtra has no cap: the same hand pays all 82
    assert _arranger("maharashtra").charge(hand, 7) == 82


def test_seed004_complete_losing_hand_counts_2_or_3_when_twos_wild() -> None:
    """'a player whose 13 cards were already a complete show ... counts just 2
    (3 when twos are wild).'"""
    kerala = _arranger("kerala")
    hand = parse_cards("Ah 2h 3h 4c 5c 6c 7s 8s 9s Kd Kc Kh Ks")
    assert kerala.arrange(hand, wild=10).can_show
    assert kerala.charge(hand, wild=10) == 2
    assert kerala.charge(hand, wild=2) == 3
    assert _arranger("indian").charge(hand, wild=10) == 0


def test_seed004_sevens_wild_6c_7c_8c_still_pure() -> None:
    """'if sevens are wild, 6♣ 7♣ 8♣ is still pure.'"""
    hand = parse_cards("6c 7c 8c 2d 3d 4d Jh Qh Kh 9s 9h 9d 9c")
    a = _arranger("indian").arrange(hand, wild=7)
    assert a.can_show
    assert any(g.pure and format_cards(g.cards) == "6c 7c 8c" for g in a.groups) or a.has_pure


def test_seed004_thennaali_is_a_pure_sequence_at_kerala_tables() -> None:
    """'Thennaali: Three of the very same card, possible with three packs; a pure
    sequence at Kerala tables.'"""
    rules = get_preset("kerala", players=8)
    assert rules.packs == 3 and rules.thennaali
    hand = parse_cards("8h 8h 8h 2c 3c 4c Js Qs Ks 5d 5c 5s 6h")
    arranger = Arranger(rules)
    a = arranger.arrange(hand, wild=6)
    assert a.can_show
    assert any(g.kind == "thennaali" for g in a.groups) or a.runs >= 2
    # without thennaali the three 8h are no group at all
    plain = Arranger(get_preset("kerala", players=8, thennaali=False))
    assert not plain.arrange(hand, wild=6).can_show


# ---- seed 000 -------------------------------------------------------------------------


def test_seed000_cut_rank_card_used_as_itself_keeps_run_clean() -> None:
    """'With the five of diamonds cut, three, four and five of diamonds is a clean
    run of diamonds, even though that five is officially a joker.'"""
    hand = parse_cards("3d 4d 5d 7s 8s 9s Jh Qh Kh 2c 2s 2h 6c")
    a = _arranger("nepali").arrange(hand, wild=5)
    assert a.charge == 6  # the 6c is the only card left over
    assert a.has_pure


def test_seed000_no_clean_run_charged_every_card_capped_at_80() -> None:
    """'A hand with no clean run is charged every single card it holds' ... 'a
    hand of low cards with no clean run worth 62 is charged 62' (RULES.md)."""
    nepali = _arranger("nepali")
    low = parse_cards("2s 3h 4d 5c 6s 7h 8d 2c 3s 4h 5d 6c 9h")
    assert nepali.total(low, None) == 64
    assert nepali.arrange(low, None).has_pure is False
    assert nepali.charge(low, None) == 64
    high = parse_cards("Ks 9s 5s Kh 8h 4h Qd 8d 3d Qc 9c 5c 10c")
    assert nepali.total(high, None) == 101
    assert nepali.charge(high, None) == 80


def test_seed000_three_wild_cards_alone_are_a_set_of_nothing() -> None:
    """'Three or more wild cards together count as a set of nothing, which is legal.'"""
    hand = parse_cards("Ah 2h 3h 4c 5c 6c 9s 10s Js 7d 7h 7c JK")
    a = _arranger("nepali").arrange(hand, wild=7)
    assert a.can_show
    assert any(g.kind == "jokers" for g in a.groups) or all(len(g.cards) >= 3 for g in a.groups)
    # Indian tables have no such group: the three sevens must stand in somewhere
    assert _arranger("indian").arrange(hand, wild=7).can_show


def test_seed000_never_throw_a_joker_loose_wild_costs_nothing() -> None:
    """'A wild card left loose in your hand at the end is charged nothing at all.'"""
    nepali = _arranger("nepali")
    hand = parse_cards("Ah 2h 3h 4c 5c 6c 9s 10s Js 2d 8h 7c 5s")
    assert nepali.value(parse_cards("JK")[0], 7) == 0
    assert nepali.value(parse_cards("7c")[0], 7) == 0
    a = nepali.arrange(hand, 7)
    assert a.charge == 2 + 8 + 5  # the 7c sits loose beside them, for nothing
    assert parse_cards("7c")[0] in a.loose


# ---- finishing cards and away ----------------------------------------------------------


def test_finishing_cards_are_exactly_the_throws_that_leave_a_show() -> None:
    arranger = _arranger("nepali")
    hand = parse_cards("Ah 2h 3h 7s 8s 10s Kd Kc Kh 4c 6c 5d Js 5c")
    finish = arranger.finishing(hand, 5)
    for k in set(hand):
        rest = list(hand)
        rest.remove(k)
        assert arranger.can_show(rest, 5) == (k in finish)
    assert {format_card(k) for k in finish} == {"7s", "Js"}


def test_away_is_zero_for_a_show_and_counts_exchanges() -> None:
    arranger = _arranger("nepali")
    show = parse_cards("Ah 2h 3h 7s 8s 10s Kd Kc Kh 4c 6c 5d 5c")
    assert arranger.arrange(show, 5, away=True).away == 0
    one = parse_cards("2s 5h 8d Jc Ks 3h 6d 9c Qs 4h 7d 10c Ad")
    assert arranger.away(one, 2) == 1  # three pure runs, Qs Ks 2s, and the Ad to swap
    assert not arranger.can_show(one, 2)


def test_away_one_means_some_single_exchange_makes_a_show() -> None:
    """Cross-check the meaning of away=1 by trying every exchange."""
    arranger = _arranger("indian")
    hand = parse_cards("2s 5h 8d Jc Ks 3h 6d 9c Qs 4h 7d 10c Ad")
    assert arranger.away(hand, 2) == 1
    found = False
    for out in set(hand):
        rest = list(hand)
        rest.remove(out)
        for new in range(53):
            if arranger.can_show([*rest, new], 2):
                found = True
                break
    assert found


def test_needs_in_words() -> None:
    nepali = _arranger("nepali")
    a = nepali.arrange(parse_cards("4h 5h 6h 9s 10h 7c Kc Qd As 8d 3c 2h 5s"), 7)
    assert a.needs[0] == "a second run"
    assert a.needs[-1].endswith("loose cards")
    b = nepali.arrange(parse_cards("4h 5d 6h 9s 10h Jc Kc Qd As 8d 3c 2h 5s"), 7)
    assert "a pure run" in b.needs
    north = _arranger("north-indian").arrange(parse_cards("4h 5h 6h 9s 10s 7c Kc Qd As 8d 3c 2h 5s"), 7)
    assert "a run of four or more cards" in north.needs or north.runs < 2


def test_groups_read_pure_runs_first_and_jokers_say_what_they_stand_for() -> None:
    a = _arranger("nepali").arrange(parse_cards("4h 5h 6h 9s 10s 7c Kc Qd As 8d 3c 2h 5s"), 7)
    assert a.groups[0].pure and format_cards(a.groups[0].cards) == "4h 5h 6h"
    run = a.groups[1]
    assert format_card(run.cards[0]) == "7c" and format_card(run.stands_for[0] or 0) == "8s"


def test_every_group_of_an_arrangement_is_valid_and_cards_are_conserved() -> None:
    """The answer is a real arrangement of the very hand: nothing added or lost."""
    import random

    from rummykit.engine.cards import shoe

    rng = random.Random(7)
    cards = [c % 53 for c in shoe(2, 2)]
    for preset in ("nepali", "indian", "kerala", "north-indian", "maharashtra"):
        arranger = _arranger(preset)
        for _ in range(200):
            rng.shuffle(cards)
            hand = cards[:13]
            wild = rng.randint(1, 13)
            a = arranger.arrange(hand, wild)
            laid = [c for g in a.groups for c in g.cards] + list(a.loose)
            assert sorted(laid) == sorted(hand)
            for g in a.groups:
                assert len(g.cards) >= 3
                if g.kind == "run":
                    stands = [s for s in g.stands_for if s is not None]
                    assert len({s // 13 for s in stands}) == 1
