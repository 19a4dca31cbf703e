"""The person's own arrangement of the hand (tui.hand.Layout): kept between turns, moved by
keys, two copies of a card being two cards."""

from __future__ import annotations

from rummykit.engine.cards import format_cards, parse_cards
from rummykit.tui.hand import Layout


def laid(layout: Layout) -> list[str]:
    return [format_cards([h.kind for h in g]) for g in layout.groups]


def test_sync_keeps_the_order_drops_what_left_and_puts_new_cards_last() -> None:
    lay = Layout()
    lay.sync(parse_cards("5h 4h 6h Kc 8d"))
    lay.set_groups([parse_cards("4h 5h 6h"), parse_cards("8d Kc")])
    drawn = parse_cards("9s")[0]
    lay.sync(parse_cards("4h 5h 6h Kc 8d 9s"), drawn)
    assert laid(lay) == ["4h 5h 6h", "8d Kc", "9s"]
    assert lay.current is not None and lay.current.kind == drawn and lay.fresh == lay.current.uid
    lay.sync(parse_cards("4h 5h 6h 8d 9s"))  # Kc thrown
    assert laid(lay) == ["4h 5h 6h", "8d", "9s"]


def test_discard_takes_out_the_very_copy_played() -> None:
    lay = Layout()
    lay.sync(parse_cards("8h 8h 9h 10h"))
    lay.set_groups([parse_cards("8h 9h 10h"), parse_cards("8h")])
    lone = lay.groups[1][0]
    lay.discard([lone.uid])
    lay.sync(parse_cards("8h 9h 10h"))
    assert laid(lay) == ["8h 9h 10h"]  # the run kept its own 8h


def test_shift_moves_across_groups_and_past_the_end_starts_a_group() -> None:
    lay = Layout()
    lay.sync(parse_cards("Ah 2h 3h Ks"))
    lay.set_groups([parse_cards("Ah 2h 3h"), parse_cards("Ks")])
    lay.jump(False)
    lay.shift(1)
    assert laid(lay) == ["2h Ah 3h", "Ks"]
    lay.shift(1)
    lay.shift(1)  # past the group's edge: into the next group
    assert laid(lay) == ["2h 3h", "Ah Ks"]
    lay.jump(True)
    lay.shift(1)  # past the end of the hand: a group of its own
    assert laid(lay) == ["2h 3h", "Ah", "Ks"]
    lay.shift(1)  # already alone at the end: stays
    assert laid(lay) == ["2h 3h", "Ah", "Ks"]


def test_marks_follow_their_cards_and_split_makes_a_group() -> None:
    lay = Layout()
    lay.sync(parse_cards("7s 7h Qd 7d 2c"))
    lay.set_groups([parse_cards("7s 7h Qd 7d 2c")])
    for i in (0, 1, 3):
        lay.cursor = i
        lay.toggle_mark()
    marked = {h.uid for h in lay.marked_cards()}
    lay.sort(by_rank=True)
    assert {h.uid for h in lay.marked_cards()} == marked
    lay.split()
    assert laid(lay) == ["2c Qd", "7s 7h 7d"]
    assert not lay.marked


def test_sort_by_suit_and_by_rank() -> None:
    lay = Layout()
    lay.sync(parse_cards("Kc 2h JK As 2s"))
    lay.sort()
    assert laid(lay) == ["As 2s", "2h", "Kc", "JK"]
    lay.sort(by_rank=True)
    assert laid(lay) == ["As 2s 2h Kc JK"]
