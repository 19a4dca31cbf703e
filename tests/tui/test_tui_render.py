"""The terminal table's rendering: cards, the grouped hand, the strip, the score sheet."""

from __future__ import annotations

import io

from rich.console import Console, RenderableType

from rummykit.engine.arrange import Arranger
from rummykit.engine.cards import parse_cards
from rummykit.engine.events import Phase, TableMeld
from rummykit.engine.match import DealEntry, Match, Status
from rummykit.engine.opening import best_leftover
from rummykit.engine.rules import get_preset
from rummykit.tui import render

NEPALI = get_preset("nepali")


def plain(*items: RenderableType, width: int = 100) -> str:
    console = Console(file=io.StringIO(), width=width, force_terminal=False)
    for item in items:
        console.print(item)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def coloured(item: RenderableType) -> str:
    console = Console(file=io.StringIO(), width=100, force_terminal=True, color_system="standard")
    console.print(item)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def test_cards_have_suit_symbols_red_hearts_and_diamonds_and_read_without_colour() -> None:
    h, s, d, c, jk = parse_cards("10h Ks Ad 2c JK")
    assert [render.card_plain(k) for k in (h, s, d, c, jk)] == ["10♥", "K♠", "A♦", "2♣", "JK"]
    assert "\x1b[1;31m10♥" in coloured(render.card_text(h))
    assert "\x1b[1;31mA♦" in coloured(render.card_text(d))
    assert "31m" not in coloured(render.card_text(s))
    assert plain(render.card_text(h)).strip() == "10♥"


def test_the_grouped_hand_puts_groups_first_and_says_what_a_joker_stands_for() -> None:
    hand = parse_cards("Ah 2h 3h 5s JK 7s 9s 9h 9d Kc 4d Qs 2c")
    a = Arranger(NEPALI).arrange(hand, 8)
    segments = render.grouped(hand, a, 8)
    assert segments is not None
    assert [seg.label for seg in segments] == ["pure run", "run", "set", "loose"]
    lines, order = render.hand_lines(segments, 8, 100)
    text = "\n".join(line.plain for line in lines)
    assert "=6♠" in text  # the joker in 5♠ JK 7♠
    assert sorted(order) == sorted(hand)
    assert order[:3] == parse_cards("Ah 2h 3h")
    numbers = lines[1].plain.split()
    assert numbers == [str(i) for i in range(1, 14)]


def test_a_fourteenth_card_is_marked_new_and_narrow_terminals_wrap_by_group() -> None:
    hand = parse_cards("Ah 2h 3h 5s JK 7s 9s 9h 9d Kc 4d Qs 2c 8h")
    a = Arranger(NEPALI).arrange(hand, 8)
    new = parse_cards("8h")[0]
    segments = render.grouped(hand, a, 8, drawn=new)
    assert segments is not None
    assert any(slot.fresh and slot.note in ("new", "wild") for seg in segments for slot in seg.slots)
    lines, order = render.hand_lines(segments, 8, 40)
    assert max(len(line.plain) for line in lines) <= 40
    assert len(lines) > 4  # two blocks
    assert sorted(order) == sorted(hand)


def test_sorted_view_is_by_suit_with_jokers_last() -> None:
    hand = parse_cards("JK Kc 2s 9h 3s")
    segments = render.by_suit(hand, None)
    assert [seg.label for seg in segments] == ["spades", "hearts", "clubs", "jokers"]
    assert [slot.kind for seg in segments for slot in seg.slots] == parse_cards("2s 3s 9h Kc JK")


def test_the_score_sheet_signs_settlement_totals_and_marks_statuses() -> None:
    match = Match.new(NEPALI, 3, ["You", "Bikash", "Chandra"])
    match.add_deal(DealEntry((14, 0, 20), (Status.PLAYED, Status.WINNER, Status.DROPPED), 1))
    text = plain(render.sheet_table(match), *render.sheet_notes(match))
    assert "Deal 1 · dealer You" in text
    lines = text.splitlines()
    charge = next(line for line in lines if line.strip().startswith("Charge"))
    assert charge.split()[1:] == ["14", "0W", "20D"]
    paid = next(line for line in lines if line.strip().startswith("Paid"))
    assert paid.split()[1:] == ["-14", "+34", "-20"]
    assert "Next: deal 2, dealer Bikash" in text
    assert "W winner, D drop" in text


def test_a_pool_sheet_shows_standings() -> None:
    rules = get_preset("pool101").replace(players=3)
    match = Match.new(rules, 3, ["You", "Bikash", "Chandra"])
    match.add_deal(DealEntry((80, 0, 20), (Status.FULL_COUNT, Status.WINNER, Status.DROPPED), 1))
    match.add_deal(DealEntry((80, 20, 0), (Status.FULL_COUNT, Status.DROPPED, Status.WINNER), 2))
    text = plain(render.sheet_table(match), *render.sheet_notes(match))
    standing = [line for line in text.splitlines() if line.strip().startswith("Standing")][-1]
    assert standing.split()[1:] == ["out", "in", "in"]
    assert "May rejoin: You at 21" in text


def test_table_family_melds_and_hand_layout() -> None:
    rules = get_preset("rummy40")
    meld = TableMeld(
        id=2,
        owner=1,
        kind="run",
        cards=tuple(parse_cards("5h JK 7h")),
        stands_for=tuple(parse_cards("5h 6h 7h")),
    )
    assert render.meld_text(meld.cards, meld.stands_for).plain == "5♥ JK=6♥ 7♥"
    hand = parse_cards("8h 9h 10h Kc Kd Ks 2c 4h")
    left = best_leftover(hand, (meld,), rules)
    segments = render.table_segments(hand, left, rules)
    assert segments is not None
    labels = [seg.label for seg in segments]
    assert "run" in labels and "set" in labels
    assert any(label.startswith("onto 2") for label in labels)  # 4♥ or 8♥ goes onto 5♥-7♥
    assert sorted(slot.kind for seg in segments for slot in seg.slots) == sorted(hand)


def test_help_lists_every_key() -> None:
    text = plain(render.help_text(NEPALI))
    for key in ("s, stock", "p, pile", "d, drop", "show", "g", "h, ?", "q"):
        assert key in text
    assert "for 20" in text and "40 once you have taken a card" in text
    table = plain(render.table_help_text(get_preset("remi51")))
    for key in ("b, back", "o 5h 6h 7h / Kc Kd Kc", "m 5h 6h 7h", "l 2 8h", "x 2 6h"):
        assert key.split(" / ")[0] in table
    assert "51 points" in table
    words = " ".join(table.split())  # the help wraps within its column
    assert "take the joker (yours to keep, meld or throw)" in words  # seed 001: Remi's freed joker
    rummy40 = " ".join(plain(render.table_help_text(get_preset("rummy40"))).split())
    assert "take the joker (lay it down again)" in rummy40
    assert render.table_title(NEPALI.replace(runs_needed=1)).endswith("(house rules)")
    assert render.table_title(NEPALI.replace(players=3)) == "Nepali rummy"


def test_the_table_familys_sheet_marks_a_blocked_deal_and_explains_the_mark() -> None:
    # Nobody melds, every card drawn is thrown: after the second rebuild the deal is blocked
    from rummykit.engine.session import MatchSession
    from rummykit.engine.table_deal import ending_note

    rules = get_preset("rummy40", players=2)
    session = MatchSession(rules, "blocked", ["You", "Bikash"])
    deal = session.start_deal()
    while deal.result is None:
        seat = deal.to_play
        assert seat is not None
        if deal.phase is Phase.DRAW:
            deal.draw_stock(seat)
        else:
            assert deal.drawn is not None
            deal.throw(seat, deal.drawn)
    row = session.finish_deal()
    note = ending_note(rules, deal.result)
    assert note == "blocked"
    marked = render.sheet_table(session.match, 0, {row.index: note})
    text = plain(marked, *render.sheet_notes(session.match, rules))

    def charge_line(sheet: str) -> list[str]:
        return next(line for line in sheet.splitlines() if line.strip().startswith("Charge")).split()[1:]

    won = f"{row.charges[row.entry.winner]}W"
    cells = charge_line(text)
    assert cells[cells.index(won) + 1] == "B" and cells.count("B") == 1
    assert "B blocked deal, the lightest hand won" in text
    unmarked = plain(render.sheet_table(session.match, 0), *render.sheet_notes(session.match))
    assert "B" not in charge_line(unmarked) and "blocked deal" not in unmarked


def test_the_terminal_shows_an_early_shows_halving_in_the_result_and_the_sheet() -> None:
    from rummykit.engine.events import DealResult, Ending, SeatResult, SeatStatus

    indian = get_preset("indian", players=3)
    seats = (
        SeatResult(0, SeatStatus.IN, False, 22, 45, (), (), (), 45),
        SeatResult(1, SeatStatus.IN, True, 0, 0, (), (), ()),
        SeatResult(2, SeatStatus.DROPPED, False, 10, None, (), (), (), 20),
    )
    result = DealResult(1, Ending.SHOW, seats, 0, 3, True, None)
    text = plain(render.deal_result(result, ["A", "B", "C"], indian, None))
    assert "22 (halved from 45: an early show)" in text and "10 (halved from 20: an early show)" in text
    match = Match.new(indian.replace(rounds=2), 3, ["A", "B", "C"])
    match.add_deal(DealEntry((22, 0, 10), (Status.PLAYED, Status.WINNER, Status.DROPPED), 1, True))
    sheet = plain(render.sheet_table(match), *render.sheet_notes(match))
    assert "0E" in sheet and "E early show" in sheet


def test_the_terminal_sheet_has_no_repeated_now_row_after_a_rejoin() -> None:
    match = Match.new(get_preset("pool101"), 3, ["A", "B", "C"])
    match.add_deal(match.entry([0, 80, 20], 0))
    match.add_deal(match.entry([0, 30, 20], 0))  # B out on 110
    match.rejoin(1)
    assert "Now" in plain(render.sheet_table(match))  # the rejoin changed the totals
    match.add_deal(match.entry([0, 10, 20], 0))
    assert "Now" not in plain(render.sheet_table(match))  # deal 3's Total row says it
