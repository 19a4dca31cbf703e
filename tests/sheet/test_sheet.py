"""The printable score sheet: HTML and PDF drawn from a Match, checked against the match's numbers."""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
from collections.abc import Mapping, Sequence
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.engine.match import Match, Status
from rummykit.engine.rules import get_preset
from rummykit.sheet import sheet_html, sheet_pdf, sheet_text, sheet_view

VOID = {"meta", "br", "link", "img", "input", "hr", "col", "wbr"}


def play(
    match: Match,
    charges: Sequence[int | None],
    winner: int,
    statuses: Mapping[int, Status | str] | None = None,
) -> None:
    """Enter a deal as the sheet does: out seats marked, fixed costs filled from the rules."""
    match.add_deal(match.entry(charges, winner, statuses))


def pool101_game() -> Match:
    """Seed 004's Pool 101: Asha goes out while the top score still in is 79 and rejoins at 80."""
    match = Match.new(get_preset("pool101"), 4, ["Asha", "Bikash", "Chandra", "Dipa"])
    play(match, [None, 0, 40, None], 1, {0: "full_count", 3: "dropped"})  # 80 0 40 20
    play(match, [30, 79, 0, 10], 2)  # Asha 110: out; Bikash 79 is the top still in
    match.rejoin(0)  # at 80
    play(match, [None, 0, 20, None], 1, {0: "middle_drop", 3: "wrong_show"})  # 120 79 60 110
    return match


def kerala_compel() -> Match:
    """Pool 250 with a player on 250 (compel, still in) and one out on 251."""
    match = Match.new(get_preset("kerala"), 3, ["Anu", "Biju", "Chinnu"])
    play(match, [None, 0, None], 1, {0: "full_count", 2: "full_count"})
    play(match, [None, 0, None], 1, {0: "full_count", 2: "full_count"})
    play(match, [None, 0, 51], 1, {0: "middle_drop"})  # Anu 250, Chinnu 251
    return match


# -- reading the HTML back ------------------------------------------------------------------------


class Rows(HTMLParser):
    """Every table row as (class, header texts, cell texts), checking that tags nest."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[tuple[str, list[str], list[str]]] = []
        self.open: list[str] = []
        self.text: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.open.append(tag)
        if tag == "tr":
            self.rows.append((dict(attrs).get("class") or "", [], []))
        elif tag in ("td", "th"):
            self.text = []

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open[-1:]}"
        self.open.pop()
        if tag in ("td", "th") and self.text is not None and self.rows:
            text = " ".join("".join(self.text).split())
            _, headers, cells = self.rows[-1]
            (headers if tag == "th" else cells).append(text)
            self.text = None

    def handle_data(self, data: str) -> None:
        if self.text is not None:
            self.text.append(data)


def rows_of(page: str) -> list[tuple[str, list[str], list[str]]]:
    parser = Rows()
    parser.feed(page)
    parser.close()
    assert parser.open == [], f"unclosed: {parser.open}"
    return parser.rows


def total_rows(page: str) -> list[list[str]]:
    """The first word (the number) of every cell of every Total row, deals first, then the summary."""
    return [[cell.split()[0] for cell in cells] for kind, _, cells in rows_of(page) if kind == "rk-total"]


# -- HTML -----------------------------------------------------------------------------------------


def test_html_is_one_self_contained_document_with_a_print_stylesheet() -> None:
    page = sheet_html(pool101_game())
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">')
    assert page.rstrip().endswith("</html>")
    assert "@media print" in page and "@page" in page
    for outside in ("<script", "<link", "http://", "https://", "url("):
        assert outside not in page  # nothing to fetch: it prints the same offline
    assert "<title>Pool 101 score sheet</title>" in page


def test_html_is_a_table_with_scoped_headers() -> None:
    match = pool101_game()
    page = sheet_html(match)
    for name in match.names:
        assert f'<th scope="col">{name}</th>' in page
    assert page.count('scope="rowgroup"') == len(match.rows) + 1  # each deal, and the summary
    assert '<th scope="row">Total</th>' in page
    rows = rows_of(page)
    header = rows[0]
    assert header[1][2:] == list(match.names)


def test_html_contains_every_total_the_outs_the_rejoin_and_the_winner() -> None:
    match = pool101_game()
    play(match, [None, 0, 41, None], 1, {0: "out", 3: "out"})  # Chandra 101: Bikash is the last in
    assert match.is_over and match.winner == 1
    page = sheet_html(match)
    expected = [[str(total) for total in row.totals] for row in match.rows]
    assert total_rows(page) == [*expected, [str(total) for total in match.totals]]
    rows = rows_of(page)
    rejoin = [cells for kind, _, cells in rows if kind == "rk-rejoin"]
    assert rejoin == [["Asha rejoins at 80 (rejoin 1)"]]
    standing = [cells for kind, _, cells in rows if kind == "rk-standing"]
    assert standing == [["out", "winner", "out", "out"]]
    # Outs are marked in words on each total, and the seat sat the later deals out.
    last_total = [cells for kind, _, cells in rows if kind == "rk-total"][-2]
    assert last_total == ["120 out", "79", "101 out", "110 out"]
    last_points = [cells for kind, _, cells in rows if kind == "rk-charge"][-1]
    assert last_points == ["– not playing", "0 W", "41", "– not playing"]
    assert "Winner: Bikash (79)" in page


def test_html_marks_every_status_with_a_letter_and_says_the_word() -> None:
    page = sheet_html(pool101_game())
    rows = rows_of(page)
    first = next(cells for kind, _, cells in rows if kind == "rk-charge")
    assert first == ["80 F", "0 W", "40", "20 D"]
    for word in ("winner", "drop", "middle drop", "full count", "wrong show"):
        assert f'title="{word}"' in page
    assert (
        "W winner, E early show (won before every player had a turn: the others' charges halved), "
        "D drop, M middle drop, F full count, X wrong show"
    ) in page.replace("&#x27;", "'")


def test_html_marks_compel_and_outs_in_pool_250() -> None:
    match = kerala_compel()
    page = sheet_html(match)
    rows = rows_of(page)
    totals = [cells for kind, _, cells in rows if kind == "rk-total"]
    assert totals[-1] == ["250 C", "0", "251 out"]
    assert '<abbr class="rk-tag" title="compel">C</abbr>' in page
    assert "C compel: 226 or more" in page
    assert "May rejoin: Chinnu at 251" not in page  # 250 + 1 would itself be out
    standing = [cells for kind, _, cells in rows if kind == "rk-standing"]
    assert standing == [["compel", "in", "out"]]
    assert [cells for kind, _, cells in rows if kind == "rk-rejoins"] == [["0 of 2", "0 of 2", "0 of 2"]]


def test_html_shows_settlement_signs_and_money() -> None:
    match = Match.new(get_preset("nepali", point_value=10), 4, ["Asha", "Bina", "Chet", "Dev"])
    play(match, [0, 14, 41, 80], 0)
    page = sheet_html(match)
    rows = rows_of(page)
    paid = [cells for kind, _, cells in rows if kind == "rk-row"]
    assert paid == [["+135", "-14", "-41", "-80"]]
    assert total_rows(page)[-1] == ["+135", "-14", "-41", "-80"]
    money = [cells for kind, _, cells in rows if kind == "rk-money"]
    assert money == [["+1350", "-140", "-410", "-800"]]
    assert "point value 10" in page


def test_html_shows_points_money_and_the_net_settlement() -> None:
    match = Match.new(get_preset("indian", point_value=5, rounds=2), 3, ["Asha", "Bikash", "Chandra"])
    play(match, [0, 30, 80], 0)
    play(match, [12, 0, None], 1, {2: "dropped"})
    rows = rows_of(sheet_html(match))
    assert [cells for kind, _, cells in rows if kind == "rk-money"] == [["60", "150", "500"]]
    assert [cells for kind, _, cells in rows if kind == "rk-net"] == [["+490", "+10", "-500"]]
    assert [cells for kind, _, cells in rows if kind == "rk-result"] == [["winner", "", ""]]


def test_html_deals_shows_chips_moving_and_a_tie_playing_on() -> None:
    match = Match.new(get_preset("deals"), 2, ["Asha", "Bikash"])
    play(match, [0, 20], 0)
    play(match, [20, 0], 1)
    page = sheet_html(match)
    rows = rows_of(page)
    assert [cells for kind, _, cells in rows if kind == "rk-row"] == [["+20", "-20"], ["-20", "+20"]]
    assert total_rows(page)[-1] == ["160", "160"]
    assert "a tie for most chips: one more deal" in page
    assert "No dropping" in page


def test_html_escapes_names_and_title() -> None:
    match = Match.new(get_preset("nepali"), 2, ["<b>Bob</b>", "Ann & Co"])
    page = sheet_html(match, title='Night "one" <2>')
    assert "<b>Bob</b>" not in page and "&lt;b&gt;Bob&lt;/b&gt;" in page
    assert "Ann &amp; Co" in page
    assert "<title>Night &quot;one&quot; &lt;2&gt;</title>" in page
    rows_of(page)  # still well nested


def test_an_empty_sheet_shows_the_starting_totals() -> None:
    match = Match.new(get_preset("deals"), 3, ["A", "B", "C"])
    page = sheet_html(match)
    assert total_rows(page) == [["160", "160", "160"]]
    assert "Next: deal 1, dealer A" in page


def test_sheet_text_is_the_matchs_own_table() -> None:
    match = pool101_game()
    assert sheet_text(match) == match.table_text()
    view = sheet_view(match)
    assert [block.number for block in view.deals] == [1, 2, 3]
    assert view.deals[1].rejoins == ("Asha rejoins at 80 (rejoin 1)",)
    assert view.settings_line.startswith("Drop 20, middle drop 40, full count 80, wrong show 80")


@st.composite
def pool_games(draw: st.DrawFn) -> Match:
    preset = draw(st.sampled_from(["pool101", "pool201", "kerala"]))
    players = draw(st.integers(2, 8))
    rules = get_preset(preset)
    match = Match.new(rules, players, [f"P{seat + 1}" for seat in range(players)])
    full = rules.full_count or 80
    for _ in range(draw(st.integers(0, 12))):
        if match.is_over:
            break
        for offer in match.rejoin_offers():
            if draw(st.booleans()):
                match.rejoin(offer.seat)
        winner = draw(st.sampled_from(match.seats_in))
        charges: list[int | None] = []
        statuses: dict[int, Status] = {}
        for seat in range(players):
            if seat == winner or seat not in match.seats_in:
                charges.append(None)
                continue
            status = draw(st.sampled_from([Status.PLAYED, Status.DROPPED, Status.FULL_COUNT]))
            statuses[seat] = status
            charges.append(draw(st.integers(0, full)) if status is Status.PLAYED else None)
        play(match, charges, winner, statuses)
    return match


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pool_games())
def test_property_the_html_total_rows_are_the_matchs_totals(match: Match) -> None:
    page = sheet_html(match)
    expected = [[str(total) for total in row.totals] for row in match.rows]
    assert total_rows(page) == [*expected, [str(total) for total in match.totals]]
    rejoins = [cells[0] for kind, _, cells in rows_of(page) if kind == "rk-rejoin"]
    assert rejoins == [
        f"{match.names[r.seat]} rejoins at {r.total} (rejoin {r.number} of 2)"
        if match.rules.max_rejoins == 2
        else f"{match.names[r.seat]} rejoins at {r.total} (rejoin {r.number})"
        for r in match.rejoins
    ]


# -- PDF ------------------------------------------------------------------------------------------


def poppler(tool: str) -> str:
    """The path of a poppler-utils tool; CI must have it, elsewhere the test says what is missing."""
    path = shutil.which(tool)
    if path is None:
        message = f"{tool} is missing: apt-get install poppler-utils (make system-deps)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


A4 = (210 / 25.4, 297 / 25.4)  # inches
LETTER = (8.5, 11.0)


def is_page(path: Path, paper: tuple[float, float]) -> bool:
    """Whether the PNG is one page of ``paper`` at 60 dpi (pdftoppm may round either way)."""
    width, height = png_size(path)
    return abs(width - paper[0] * 60) <= 1 and abs(height - paper[1] * 60) <= 1


def render(pdf: bytes, tmp_path: Path, name: str = "sheet") -> list[Path]:
    """The PDF's pages as PNGs at 60 dpi, through pdftoppm."""
    source = tmp_path / f"{name}.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        [poppler("pdftoppm"), "-png", "-r", "60", str(source), str(tmp_path / name)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return sorted(tmp_path.glob(f"{name}*.png"))


def pdf_text(pdf: bytes, tmp_path: Path) -> str:
    source = tmp_path / "text.pdf"
    source.write_bytes(pdf)
    result = subprocess.run(
        [poppler("pdftotext"), "-layout", "-enc", "UTF-8", str(source), "-"],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return result.stdout.decode("utf-8")


def numbers_on(text: str, label: str) -> list[list[str]]:
    """The cells after ``label`` on every laid-out line where it is the row's label."""
    found = []
    for line in text.splitlines():
        words = line.split()
        if label in words:
            found.append(words[words.index(label) + 1 :])
    return found


def test_pdf_renders_an_a4_page_with_the_right_totals(tmp_path: Path) -> None:
    match = pool101_game()
    pdf = sheet_pdf(match)
    assert pdf.startswith(b"%PDF-")
    pages = render(pdf, tmp_path)
    assert len(pages) == 1
    assert is_page(pages[0], A4)
    text = pdf_text(pdf, tmp_path)
    assert "Pool 101 score sheet" in text
    for name in match.names:
        assert name in text
    totals = numbers_on(text, "Total")
    assert totals[0] == ["80", "0", "40", "20"]
    assert totals[-1] == ["120", "out", "79", "60", "110", "out"]  # the summary: Now / Total
    assert "Asha rejoins at 80 (rejoin 1)" in text
    assert "Next: deal 4, dealer Bikash" in text
    assert "May rejoin: Asha at 80, Dipa at 80" in text  # the top still in is Bikash's 79


def test_pdf_letter_paper_settlement_signs(tmp_path: Path) -> None:
    match = Match.new(get_preset("nepali"), 4, ["Asha", "Bina", "Chet", "Dev"])
    play(match, [0, 14, 41, 80], 0)
    play(match, [None, 0, None, 33], 1, {0: "dropped", 2: "middle_drop"})
    play(match, [10, 5, 0, None], 2, {3: "full_count"})
    pdf = sheet_pdf(match, paper="letter", title="Dashain")
    (page,) = render(pdf, tmp_path)
    assert is_page(page, LETTER)
    text = pdf_text(pdf, tmp_path)
    assert "Dashain" in text
    assert numbers_on(text, "Paid")[0] == ["+135", "-14", "-41", "-80"]
    assert numbers_on(text, "Total")[-1] == ["+105", "+74", "+14", "-193"]
    assert "Winner: Asha (+105)" in text


def test_pdf_a_long_game_runs_onto_more_pages_with_the_names_on_each(tmp_path: Path) -> None:
    rules = get_preset("indian", rounds=40)
    match = Match.new(rules, 6, [f"Player {n}" for n in range(1, 7)])
    for deal in range(40):
        winner = deal % 6
        play(match, [0 if seat == winner else (seat * 7 + deal) % 81 for seat in range(6)], winner)
    pdf = sheet_pdf(match)
    pages = render(pdf, tmp_path, "long")
    assert len(pages) >= 2
    assert all(is_page(page, A4) for page in pages)
    text = pdf_text(pdf, tmp_path)
    for page_text in text.split("\f"):
        if page_text.strip():
            assert "Player 6" in page_text  # the header row repeats
    assert numbers_on(text, "Money")[-1] == [str(match.money(seat)) for seat in range(6)]


def test_pdf_is_reproducible_and_rejects_unknown_paper() -> None:
    match = pool101_game()
    assert sheet_pdf(match) == sheet_pdf(match)
    with pytest.raises(ValueError, match="paper"):
        sheet_pdf(match, paper="a3")  # type: ignore[arg-type]


def test_pdf_names_beyond_the_standard_fonts(tmp_path: Path) -> None:
    match = Match.new(get_preset("nepali"), 2, ["Łukasz", "Zoë"])
    play(match, [0, 30], 0)
    pdf = sheet_pdf(match)
    assert render(pdf, tmp_path)
    text = pdf_text(pdf, tmp_path)
    assert "Zoë" in text and "+30" in text
    if Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").is_file():
        assert "Łukasz" in text
    assert re.search(r"Total\s+\+30\s+-30", text)
