"""The score sheet's entries and settle-up (issue 12): an early show marked E and halved as the
table halves it, a wrong show at a Nepali real table, open-ended points with who pays whom, every
problem of an entry named at once, and no repeated Now row after a rejoin."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_sheet import pdf_text, rows_of

from rummykit.engine.match import Match, Payment, Status, settle
from rummykit.sheet import sheet_html, sheet_pdf, sheet_text, sheet_view
from rummykit.sheet.entry import (
    EntryError,
    add_deal,
    edit_deal,
    entry_tokens,
    new_match,
    read_document,
    rejoin,
    sheet_document,
    sheet_rules,
    status_text,
)

NAMES = ["Asha", "Bikash", "Chandra"]


def refused(match: Match, tokens: list[str]) -> tuple[str, ...]:
    before = match.to_dict()
    with pytest.raises(EntryError) as caught:
        add_deal(match, tokens)
    assert match.to_dict() == before  # nothing changed
    return caught.value.problems


# ---- early show ---------------------------------------------------------------------------------


def test_an_early_show_marked_e_halves_the_others_entries_counts_and_letters_alike() -> None:
    match = new_match(sheet_rules("indian"), NAMES)
    row = add_deal(match, ["45", "E", "D"])  # the cards say 45; the drop costs 20
    assert row.entry.early and row.charges == (22, 0, 10)
    assert row.entry.statuses == (Status.PLAYED, Status.WINNER, Status.DROPPED)
    row = add_deal(match, ["WE", "80F", "M"])  # W with E is the same mark; a letter's own number
    assert row.charges == (0, 40, 20)


def test_an_early_show_is_checked_as_typed_before_it_is_halved() -> None:
    match = new_match(sheet_rules("indian"), NAMES)
    assert refused(match, ["90", "E", "25D"]) == (
        "Asha's count 90 is above the full count 80",
        "Chandra: 25D is not 20, what a drop costs here (the early show halves it to 10)",
    )


def test_a_deal_cannot_be_an_early_show_where_the_rules_do_not_halve() -> None:
    match = new_match(sheet_rules("kerala"), NAMES)
    assert refused(match, ["45", "E", "D"]) == (
        "the deal is marked an early show, but these rules do not halve after one",
    )


def test_the_early_show_mark_shows_on_the_sheet_in_text_html_and_pdf_with_its_legend(tmp_path: Path) -> None:
    match = new_match(sheet_rules("indian"), NAMES)
    add_deal(match, ["45", "E", "D"])
    legend = "E early show (won before every player had a turn: the others' charges halved)"
    text = sheet_text(match)
    assert "0E" in text and legend in text
    page = sheet_html(match)
    charge = next(cells for kind, _, cells in rows_of(page) if kind == "rk-charge")
    assert charge == ["22", "0 E", "10 D"]
    assert 'title="early show"' in page and legend in page.replace("&#x27;", "'")
    assert sheet_view(match).deals[0].lines[0].cells[1].mark == "E"
    pdf = " ".join(pdf_text(sheet_pdf(match), tmp_path).split())
    assert re.search(r"\b0 ?E\b", pdf) and "E early show (won before every player had a turn" in pdf


def test_editing_an_early_show_offers_entries_that_halve_to_the_same() -> None:
    match = new_match(sheet_rules("indian"), NAMES)
    row = add_deal(match, ["45", "E", "D"])
    tokens = entry_tokens(match, row.entry)
    assert tokens == ["44", "E", "D"]  # 22 doubled back; the drop's letter alone
    again = edit_deal(match, tokens)
    assert again.entry == row.entry


def test_a_deal_the_table_played_and_the_sheet_entered_agree_after_an_early_show() -> None:
    # The engine's entry for an early show (test_session) is what the sheet accepts; the sheet's own
    # entry of the same deal gives the same charges.
    match = new_match(sheet_rules("indian"), ["a", "b", "c", "d"])
    row = add_deal(match, ["20", "14", "D", "E"])
    assert row.charges == (10, 7, 10, 0)


# ---- Nepali wrong show ----------------------------------------------------------------------------


def test_a_nepali_real_table_enters_a_wrong_show_at_the_full_count() -> None:
    # seed 000: "At a real table, declaring wrong costs you the full count"
    rules = sheet_rules("nepali")
    assert rules.wrong_show == rules.full_count == 80
    match = new_match(rules, NAMES)
    row = add_deal(match, ["W", "X", "30"])
    assert row.charges == (0, 80, 30) and row.row == (110, -80, -30)
    assert "wrong show 80" in sheet_view(match).settings_line
    # as every other format: X is the wrong show's number, set with the sheet
    assert new_match(sheet_rules("nepali", {"wrong_show": "60"}), NAMES).rules.wrong_show == 60
    assert new_match(sheet_rules("nepali", {"full_count": "60"}), NAMES).rules.wrong_show == 60
    refusing = new_match(sheet_rules("nepali", {"wrong_show": "refuse"}), NAMES)
    assert refused(refusing, ["W", "X", "30"]) == (
        "Bikash is marked wrong show, but these rules refuse a wrong show",
    )


def test_a_nepali_sheet_stored_before_takes_a_wrong_show_too() -> None:
    stored = sheet_document(new_match(sheet_rules("nepali"), NAMES), "Old")
    stored["version"] = 1
    stored["rules"]["settings"]["wrong_show"] = None  # what a version 1 sheet held
    match, _ = read_document(stored)
    assert add_deal(match, ["W", "X", "30"]).charges == (0, 80, 30)


# ---- points: open-ended, who pays whom --------------------------------------------------------------


def test_a_points_sheet_is_open_ended_by_default() -> None:
    match = new_match(sheet_rules("indian"), NAMES)
    assert match.rules.rounds is None
    assert (
        match.format.describe() == "Points at 1 a point, as many deals as the table likes: lowest total wins"
    )
    for _ in range(5):
        add_deal(match, ["W", "20", "30"])
    assert not match.is_over and match.status_line() == "Next: deal 6, dealer Chandra"
    fixed = new_match(sheet_rules("indian", {"rounds": "2"}), NAMES)
    add_deal(fixed, ["W", "20", "30"])
    add_deal(fixed, ["W", "20", "30"])
    assert fixed.is_over


def test_a_points_sheet_stored_with_the_presets_one_deal_goes_on() -> None:
    stored = sheet_document(new_match(sheet_rules("indian"), NAMES), "Old")
    stored["version"] = 1
    stored["rules"]["settings"]["rounds"] = 1  # version 1 took the preset's one deal
    match, _ = read_document(stored)
    add_deal(match, ["W", "20", "30"])
    assert not match.is_over


def test_a_points_sheet_says_who_pays_whom_in_text_html_and_pdf(tmp_path: Path) -> None:
    match = new_match(sheet_rules("indian", {"point_value": "2"}), NAMES)
    add_deal(match, ["W", "20", "30"])  # Asha collects 50 points
    add_deal(match, ["10", "W", "5"])  # Bikash collects 15
    # net money: Asha +100 - 20 = 80, Bikash -40 + 30 = -10, Chandra -60 - 10 = -70
    assert match.balances() == (80, -10, -70)
    assert match.settle_up() == (Payment(1, 0, 10), Payment(2, 0, 70))
    line = "Settle up at ₹2 a point: Bikash pays Asha ₹10; Chandra pays Asha ₹70."
    assert sheet_text(match).endswith(line)
    assert line in status_text(match)
    page = sheet_html(match)
    assert "<h2>Settle up at ₹2 a point</h2>" in page
    assert "<li>Bikash pays Asha ₹10</li>" in page and "<li>Chandra pays Asha ₹70</li>" in page
    pdf = pdf_text(sheet_pdf(match), tmp_path)
    assert "Bikash pays Asha ₹10" in pdf and "Chandra pays Asha ₹70" in pdf
    assert sheet_view(match).settle_up == ("Bikash pays Asha ₹10", "Chandra pays Asha ₹70")


def test_a_nepali_settlement_says_who_pays_whom_too() -> None:
    match = new_match(sheet_rules("nepali"), NAMES)
    add_deal(match, ["W", "40", "X"])
    assert sheet_view(match).settle_up == ("Bikash pays Asha Rs 40", "Chandra pays Asha Rs 80")


def test_formats_without_money_have_no_settle_up() -> None:
    match = new_match(sheet_rules("pool101"), NAMES)
    add_deal(match, ["W", "20", "30"])
    assert match.settle_up() == () and sheet_view(match).settle_up == ()
    assert "Settle up" not in sheet_text(match) and "Settle up" not in sheet_html(match)


def _fewest(balances: list[int]) -> int:
    """The fewest payments, by brute force: the owed and owing less the most zero-sum groups."""
    seats = [b for b in balances if b]
    best = 0

    def split(rest: list[int], groups: int) -> None:
        nonlocal best
        if not rest:
            best = max(best, groups)
            return
        first, others = rest[0], rest[1:]
        for k in range(len(others) + 1):
            for chosen in itertools.combinations(range(len(others)), k):
                if first + sum(others[i] for i in chosen) == 0:
                    left = [x for i, x in enumerate(others) if i not in chosen]
                    split(left, groups + 1)

    split(seats, 0)
    return len(seats) - best


@given(st.lists(st.integers(-60, 60), min_size=1, max_size=7))
def test_property_a_settle_up_pays_every_balance_in_the_fewest_payments(values: list[int]) -> None:
    balances = [*values, -sum(values)]
    payments = settle(balances)
    left = list(balances)
    for p in payments:
        assert p.amount > 0 and p.payer != p.payee
        left[p.payer] += p.amount
        left[p.payee] -= p.amount
    assert left == [0] * len(balances)
    assert len(payments) == _fewest(balances)


# ---- several problems, one message ------------------------------------------------------------------


def test_an_entry_with_several_problems_names_every_one_and_changes_nothing() -> None:
    match = new_match(sheet_rules("pool101"), ["Asha", "Bikash", "Chandra", "Dipa"])
    assert refused(match, ["abc", "85", "25D", "FX"]) == (
        "Asha: 'abc' is not a number or one of W E D M F X -",
        "Dipa: 'FX' has more than one letter; give each player one",
        "no winner: mark the player who won the deal with W (E for an early show)",
        "Bikash's count 85 is above the full count 80",
        "Chandra dropped first and is charged 20, not 25",
    )
    assert refused(match, ["W", "W", "85", "-"]) == (
        "exactly one winner per deal: Asha and Bikash are both marked winner",
        "Chandra's count 85 is above the full count 80",
        "Dipa is still in the pool, so cannot be marked out",
    )


def test_an_edit_with_several_problems_names_every_one() -> None:
    match = new_match(sheet_rules("pool101"), NAMES)
    add_deal(match, ["W", "20", "30"])
    with pytest.raises(EntryError) as caught:
        edit_deal(match, ["Q", "85", "W"])
    assert caught.value.problems == (
        "Asha: 'Q' is not a number or one of W E D M F X -",
        "Bikash's count 85 is above the full count 80",
    )
    assert match.rows[0].charges == (0, 20, 30)


# ---- Now after a rejoin -----------------------------------------------------------------------------


def test_no_repeated_now_row_after_a_rejoin_once_a_deal_follows() -> None:
    match = new_match(sheet_rules("pool101"), NAMES)
    add_deal(match, ["W", "80", "20"])
    add_deal(match, ["W", "30", "20"])  # Bikash out on 110
    rejoin(match, "Bikash")  # at 41
    text = sheet_text(match)
    assert text.count("  Now ") == 1  # the rejoin moved the totals after the last deal's row
    add_deal(match, ["W", "10", "20"])
    text = sheet_text(match)
    assert "  Now " not in text  # deal 3's Total row already says where everyone stands
    rejoin_lines = [line for line in text.splitlines() if line.startswith("Rejoin:")]
    assert rejoin_lines == ["Rejoin: Bikash comes back at 41 (rejoin 1)"]
