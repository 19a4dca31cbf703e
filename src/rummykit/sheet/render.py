"""The score sheet of a :class:`~rummykit.engine.match.Match` as HTML, PDF and plain text.

Every number comes from the match (its rows, totals, standings, rejoins and money); this module
only lays them out.  :func:`sheet_view` turns a match into a :class:`SheetView`, a neutral model of
the printed sheet (a header, one block of lines per deal, rejoin sentences, a summary), and the
HTML and PDF renderers draw that one model, so the two always say the same thing.

The renderers are pure: no files are written and nothing is read but, for the PDF, a system font
when a name needs letters outside the standard PDF fonts (see :func:`sheet_pdf`).

>>> from rummykit.engine.match import Match
>>> from rummykit.engine.rules import get_preset
>>> match = Match.new(get_preset("pool101"), 2, ["Asha", "Bikash"])
>>> _ = match.add_deal(match.entry([0, None], 0, {1: "full_count"}))
>>> view = sheet_view(match)
>>> view.title, [cell.plain() for cell in view.summary[0].cells]
('Pool 101 score sheet', ['0', '80'])
"""

from __future__ import annotations

import html
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from rummykit.engine.match import (
    EARLY_LEGEND,
    EARLY_MARK,
    Match,
    PointsFormat,
    PoolFormat,
    RejoinRecord,
    SettlementFormat,
    Standing,
    Status,
    compel_from,
    pool_title,
    signed,
)
from rummykit.engine.match import (
    MARKS as match_marks,
)

__all__ = [
    "Cell",
    "DealBlock",
    "Line",
    "SheetView",
    "default_title",
    "rejoin_sentence",
    "settle_up_line",
    "settle_up_sentences",
    "sheet_html",
    "sheet_pdf",
    "sheet_text",
    "sheet_view",
]

# The one-letter marks of the sheet (the same letters as Match.table_text), with the word each
# stands for: the HTML gives the word to screen readers, the legend prints it.
MARKS: Final[Mapping[Status, tuple[str, str]]] = {
    status: (match_marks[status], word)
    for status, word in (
        (Status.WINNER, "winner"),
        (Status.DROPPED, "drop"),
        (Status.MIDDLE_DROP, "middle drop"),
        (Status.FULL_COUNT, "full count"),
        (Status.WRONG_SHOW, "wrong show"),
    )
}
EARLY_WORD: Final = "early show"
# The money a settle-up is counted in, by format: Indian points in rupees, Nepali in rupees (Rs).
CURRENCY: Final[Mapping[str, str]] = {"points": "₹", "settlement": "Rs "}
NOT_PLAYING: Final = "–"  # an out seat's charge cell: it sat the deal out
COMPEL_TAG: Final = "C"
OUT_TAG: Final = "out"
WINNER_TAG: Final = "winner"
_FORMAT_NAMES: Final[Mapping[str, str]] = {
    "settlement": "Settlement",
    "points": "Points",
    "deals": "Deals",
    "target": "Rummy 40",
    "penalty": "Remi 51",
}

# A reportlab table style command: name, first cell, last cell, arguments.
_Command = tuple[str, tuple[int, int], tuple[int, int], *tuple[object, ...]]
LineKind = Literal["charge", "row", "total", "standing", "rejoins", "money", "net", "result"]


# -- the model ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cell:
    """One seat's cell: the number as printed, a deal mark (W D M F X) or a standing tag."""

    text: str
    mark: str = ""  # how the seat ended the deal: a key of the legend
    tag: str = ""  # "out", "C" (compel) or "winner"
    won: bool = False  # won this deal, or the match
    out: bool = False  # out of the pool (sat the deal out, or the total is out)
    compel: bool = False

    def plain(self) -> str:
        """The cell as one string: ``0 W``, ``230 C``, ``251 out``, ``+135``."""
        return " ".join(part for part in (self.text, self.mark, self.tag) if part)


@dataclass(frozen=True, slots=True)
class Line:
    """A labelled row of cells, one per seat."""

    label: str
    kind: LineKind
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class DealBlock:
    """One deal: its number (from 1), its dealer, its lines, and the rejoins made after it."""

    number: int
    dealer: str
    lines: tuple[Line, ...]
    rejoins: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SheetView:
    """Everything a printed sheet shows, already worded; HTML and PDF draw this."""

    title: str
    format_line: str  # what the format is, e.g. "Pool 101: out at 101; ..."
    settings_line: str  # the pre-filled values: drop, middle drop, full count, wrong show
    names: tuple[str, ...]
    deals: tuple[DealBlock, ...]
    summary: tuple[Line, ...]
    result: str  # "Winner: Asha (95)", or the next deal and its dealer
    offers: str  # "May rejoin: ..." or ""
    legend: str
    settle_up: tuple[str, ...] = ()  # who pays whom: "Bikash pays Asha ₹40" (points, settlement)


def default_title(match: Match) -> str:
    """``Pool 250 score sheet``, ``Settlement score sheet``, ..."""
    if isinstance(match.format, PoolFormat):
        name = pool_title(match.format.pool_out)
    else:
        name = _FORMAT_NAMES.get(match.format.key, match.format.key.capitalize())
    return f"{name} score sheet"


def _settings_line(match: Match) -> str:
    rules = match.rules
    parts: list[str] = []
    if rules.drop_first is None or match.format.key == "deals":
        parts.append("no dropping")
    else:
        parts.append(f"drop {rules.drop_first}")
        parts.append(f"middle drop {rules.drop_middle}")
    parts.append("no full count" if rules.full_count is None else f"full count {rules.full_count}")
    parts.append("wrong show refused" if rules.wrong_show is None else f"wrong show {rules.wrong_show}")
    if rules.early_show_halves:
        parts.append(f"an early show ({EARLY_MARK}) halves every other player's charge")
    if isinstance(match.format, PointsFormat | SettlementFormat) and (
        rules.point_value != 1 or isinstance(match.format, PointsFormat)
    ):
        parts.append(f"point value {rules.point_value}")
    text = ", ".join(parts)
    return text[:1].upper() + text[1:]


def _legend(match: Match) -> str:
    marks = ", ".join(f"{letter} {word}" for letter, word in MARKS.values())
    if match.rules.early_show_halves:
        marks = marks.replace("W winner, ", f"W winner, {EARLY_LEGEND}, ", 1)
    if not isinstance(match.format, PoolFormat):
        return marks
    parts = [marks, f"{NOT_PLAYING} not playing (out of the pool)"]
    compel = compel_from(match.rules)
    if compel is not None:
        parts.append(f"{COMPEL_TAG} compel: {compel} or more, a drop would put the player out")
    parts.append(f"{OUT_TAG}: {match.format.pool_out} or more")
    return "; ".join(parts)


def _charge_cell(charge: int, status: Status, early: bool = False) -> Cell:
    if status is Status.OUT:
        return Cell(NOT_PLAYING, out=True)
    mark = MARKS[status][0] if status in MARKS else ""
    if early and status is Status.WINNER:
        mark = EARLY_MARK
    return Cell(str(charge), mark=mark, won=status is Status.WINNER)


def _total_cell(text: str, standing: Standing, *, pool: bool) -> Cell:
    if not pool or standing is Standing.IN:
        return Cell(text)
    if standing is Standing.OUT:
        return Cell(text, tag=OUT_TAG, out=True)
    return Cell(text, tag=COMPEL_TAG, compel=True)


def rejoin_sentence(match: Match, record: RejoinRecord) -> str:
    """``Asha rejoins at 80 (rejoin 1 of 2)``: a rejoin as the sheet words it."""
    most = match.rules.max_rejoins
    which = f"rejoin {record.number}" if most is None else f"rejoin {record.number} of {most}"
    return f"{match.names[record.seat]} rejoins at {record.total} ({which})"


def _result_line(match: Match) -> str:
    return match.status_line()


def settle_up_sentences(match: Match) -> tuple[str, ...]:
    """Who pays whom to settle the sheet, in the fewest payments (:meth:`Match.settle_up`):
    ``Bikash pays Asha ₹40``; nothing in the formats that keep no money, or when all are even."""
    money = CURRENCY.get(match.format.key, "")
    return tuple(
        f"{match.names[p.payer]} pays {match.names[p.payee]} {money}{p.amount}" for p in match.settle_up()
    )


def settle_up_line(match: Match) -> str:
    """The settle-up in one line (``Settle up at ₹1 a point: ...``), or ``""``."""
    sentences = settle_up_sentences(match)
    if not sentences:
        return ""
    money = CURRENCY.get(match.format.key, "")
    return f"Settle up at {money}{match.rules.point_value} a point: {'; '.join(sentences)}."


def _offers_line(match: Match) -> str:
    offers = match.rejoin_offers()
    if not offers:
        return ""
    listed = []
    for offer in offers:
        left = "" if offer.rejoins_left is None else f" ({offer.rejoins_left} left)"
        listed.append(f"{match.names[offer.seat]} at {offer.total}{left}")
    return "May rejoin: " + ", ".join(listed)


def _summary(match: Match) -> tuple[Line, ...]:
    fmt = match.format
    seats = range(match.players)
    pool = isinstance(fmt, PoolFormat)
    winners = set(match.winners)
    standings = [match.standing(seat) for seat in seats]
    lines = [
        Line(
            "Total",
            "total",
            tuple(
                _total_cell(fmt.show_total(total), standing, pool=pool)
                for total, standing in zip(match.totals, standings, strict=True)
            ),
        )
    ]
    if pool:
        words = {Standing.IN: "in", Standing.COMPEL: "compel", Standing.OUT: "out"}
        lines.append(
            Line(
                "Standing",
                "standing",
                tuple(
                    Cell(WINNER_TAG, won=True)
                    if seat in winners
                    else Cell(
                        words[standing], out=standing is Standing.OUT, compel=standing is Standing.COMPEL
                    )
                    for seat, standing in zip(seats, standings, strict=True)
                ),
            )
        )
        most = match.rules.max_rejoins
        if most is not None or match.rejoins:
            of = "" if most is None else f" of {most}"
            lines.append(
                Line("Rejoins", "rejoins", tuple(Cell(f"{match.rejoins_used(seat)}{of}") for seat in seats))
            )
    elif winners:
        lines.append(
            Line(
                "Result",
                "result",
                tuple(Cell(WINNER_TAG if s in winners else "", won=s in winners) for s in seats),
            )
        )
    if isinstance(fmt, PointsFormat):
        lines.append(Line("Money", "money", tuple(Cell(str(match.money(seat))) for seat in seats)))
        lines.append(Line("Net", "net", tuple(Cell(signed(match.net_money(seat))) for seat in seats)))
    elif isinstance(fmt, SettlementFormat) and match.rules.point_value != 1:
        lines.append(Line("Money", "money", tuple(Cell(signed(match.money(seat))) for seat in seats)))
    return tuple(lines)


def sheet_view(match: Match, *, title: str | None = None) -> SheetView:
    """The sheet of ``match`` as a :class:`SheetView`; ``title`` defaults to :func:`default_title`."""
    fmt = match.format
    pool = isinstance(fmt, PoolFormat)
    rejoins_after: dict[int, list[str]] = {}
    for record in match.rejoins:
        rejoins_after.setdefault(record.after_deals, []).append(rejoin_sentence(match, record))
    blocks: list[DealBlock] = []
    for row in match.rows:
        lines: list[Line] = []
        # Where the format's row is the charges themselves (points, pool), print them once.
        charge_label = "Charge" if fmt.row_differs else row.label
        early = row.entry.early
        charges = tuple(
            _charge_cell(c, s, early) for c, s in zip(row.charges, row.entry.statuses, strict=True)
        )
        lines.append(Line(charge_label, "charge", charges))
        if fmt.row_differs:
            lines.append(Line(row.label, "row", tuple(Cell(fmt.show_row(value)) for value in row.row)))
        totals = tuple(
            _total_cell(fmt.show_total(total), standing, pool=pool)
            for total, standing in zip(row.totals, row.standings, strict=True)
        )
        lines.append(Line("Total", "total", totals))
        blocks.append(
            DealBlock(
                row.index + 1,
                match.names[row.dealer],
                tuple(lines),
                tuple(rejoins_after.get(row.index + 1, ())),
            )
        )
    describe = fmt.describe()
    return SheetView(
        title=title.strip() if title and title.strip() else default_title(match),
        format_line=describe if describe.endswith(".") else describe + ".",
        settings_line=_settings_line(match) + ".",
        names=match.names,
        deals=tuple(blocks),
        summary=_summary(match),
        result=_result_line(match),
        offers=_offers_line(match),
        legend=_legend(match),
        settle_up=settle_up_sentences(match),
    )


def sheet_text(match: Match) -> str:
    """The sheet as plain text for a terminal: :meth:`Match.table_text`, and who pays whom."""
    settle = settle_up_line(match)
    return match.table_text() + (f"\n{settle}" if settle else "")


# -- HTML -----------------------------------------------------------------------------------------

# One stylesheet, custom properties first so a page can restyle the sheet by overriding them.  The
# print rules make it black on white with ruled borders: nothing on it is told by colour alone
# (marks and tags are letters and words), so it reads the same from any printer.
_CSS: Final = """\
:root {
  --rk-ink: #1b1b1b;
  --rk-muted: #5f6368;
  --rk-rule: #9aa0a6;
  --rk-strong-rule: #1b1b1b;
  --rk-won: #0b6e4f;
  --rk-compel: #a15c00;
  --rk-out-bg: #f1f3f4;
  --rk-head-bg: #f8f9fa;
  --rk-font: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif;
}
body { margin: 1.5rem; color: var(--rk-ink); font-family: var(--rk-font); line-height: 1.4; }
.rk-sheet h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
.rk-sheet p { margin: .25rem 0; }
.rk-format, .rk-settings, .rk-legend { color: var(--rk-muted); font-size: .9rem; }
.rk-scroll { overflow-x: auto; margin: .75rem 0; }
.rk-table { border-collapse: collapse; font-variant-numeric: tabular-nums; min-width: 20rem; }
.rk-table caption { text-align: left; font-weight: 600; padding-bottom: .35rem; }
.rk-table th, .rk-table td { border: 1px solid var(--rk-rule); padding: .2rem .55rem; }
.rk-table thead th { background: var(--rk-head-bg); text-align: center; }
.rk-table tbody th { text-align: left; font-weight: 600; white-space: nowrap; }
.rk-table td { text-align: right; white-space: nowrap; }
.rk-table tbody > tr:first-child > * { border-top: 2px solid var(--rk-strong-rule); }
.rk-dealer { display: block; font-weight: 400; font-size: .8em; color: var(--rk-muted); }
.rk-total td { font-weight: 700; }
.rk-mark, .rk-tag { margin-left: .3em; font-weight: 700; font-size: .8em; text-decoration: none; }
.rk-won { color: var(--rk-won); }
.rk-compel .rk-tag { color: var(--rk-compel); }
.rk-out { color: var(--rk-muted); background: var(--rk-out-bg); }
.rk-rejoin td { text-align: left; font-style: italic; }
.rk-summary th, .rk-summary td { background: var(--rk-head-bg); }
.rk-result { font-weight: 700; font-size: 1.1rem; }
.rk-settle h2 { font-size: 1rem; margin: .75rem 0 .25rem; }
.rk-settle ul { margin: 0; padding-left: 1.25rem; }
.rk-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
@page { margin: 12mm; }
@media print {
  :root {
    --rk-ink: #000; --rk-muted: #000; --rk-rule: #000; --rk-strong-rule: #000;
    --rk-won: #000; --rk-compel: #000; --rk-out-bg: transparent; --rk-head-bg: transparent;
  }
  body { margin: 0; font: 10pt/1.3 "Helvetica Neue", Helvetica, Arial, sans-serif; background: #fff; }
  .rk-scroll { overflow: visible; }
  .rk-table { width: 100%; font-size: 10pt; }
  .rk-table th, .rk-table td { padding: 1.5pt 4pt; }
  .rk-table thead { display: table-header-group; }
  .rk-table tbody, .rk-table tr { break-inside: avoid; page-break-inside: avoid; }
  .rk-summary th, .rk-summary td { border-top-width: 2px; }
  .rk-summary tr:first-child > * { border-top: 3px double #000; }
  .rk-out { font-style: italic; }
  .rk-no-print { display: none; }
}
"""


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _cell_html(cell: Cell, words: Mapping[str, str]) -> str:
    classes = [
        name for name, on in (("rk-won", cell.won), ("rk-out", cell.out), ("rk-compel", cell.compel)) if on
    ]
    attr = f' class="{" ".join(classes)}"' if classes else ""
    inner = _esc(cell.text)
    if cell.text == NOT_PLAYING:
        inner = f'<span aria-hidden="true">{NOT_PLAYING}</span> <span class="rk-hidden">not playing</span>'
    if cell.mark:
        inner += f' <abbr class="rk-mark" title="{_esc(words[cell.mark])}">{_esc(cell.mark)}</abbr>'
    if cell.tag == COMPEL_TAG:
        inner += f' <abbr class="rk-tag" title="compel">{COMPEL_TAG}</abbr>'
    elif cell.tag:
        inner += f' <span class="rk-tag">{_esc(cell.tag)}</span>'
    return f"<td{attr}>{inner}</td>"


def _line_html(line: Line, words: Mapping[str, str], lead: str = "") -> str:
    cells = "".join(_cell_html(cell, words) for cell in line.cells)
    return f'<tr class="rk-{line.kind}">{lead}<th scope="row">{_esc(line.label)}</th>{cells}</tr>'


def sheet_html(match: Match, *, title: str | None = None) -> str:
    """The sheet as one self-contained HTML document (inline stylesheet, no scripts, no links).

    A ``<table>`` with a column per player (``<th scope="col">``), a row group per deal
    (``<th scope="rowgroup">``), a labelled row per line (``<th scope="row">``) and a summary
    group; ``@media print`` makes it a black-and-white ruled sheet for A4 or Letter.
    """
    view = sheet_view(match, title=title)
    words = {letter: word for letter, word in MARKS.values()} | {EARLY_MARK: EARLY_WORD}
    width = len(view.names)
    head = "".join(f'<th scope="col">{_esc(name)}</th>' for name in view.names)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="rummykit">',
        f"<title>{_esc(view.title)}</title>",
        f"<style>\n{_CSS}</style>",
        "</head>",
        "<body>",
        '<main class="rk-sheet">',
        "<header>",
        f"<h1>{_esc(view.title)}</h1>",
        f'<p class="rk-format">{_esc(view.format_line)}</p>',
        f'<p class="rk-settings">{_esc(view.settings_line)}</p>',
        "</header>",
        '<div class="rk-scroll">',
        '<table class="rk-table">',
        f"<caption>Deals, running totals and standings for {_esc(', '.join(view.names))}</caption>",
        f'<thead><tr><th scope="col">Deal</th><th scope="col"><span class="rk-hidden">Line</span></th>'
        f"{head}</tr></thead>",
    ]
    for block in view.deals:
        span = len(block.lines) + len(block.rejoins)
        lead = (
            f'<th scope="rowgroup" rowspan="{span}">Deal {block.number}'
            f'<span class="rk-dealer">dealer {_esc(block.dealer)}</span></th>'
        )
        parts.append(f'<tbody class="rk-deal" id="rk-deal-{block.number}">')
        for i, line in enumerate(block.lines):
            parts.append(_line_html(line, words, lead if i == 0 else ""))
        for sentence in block.rejoins:
            parts.append(
                f'<tr class="rk-rejoin"><th scope="row">Rejoin</th>'
                f'<td colspan="{width}">{_esc(sentence)}</td></tr>'
            )
        parts.append("</tbody>")
    # A last row group rather than <tfoot>: browsers repeat a <tfoot> on every printed page, and
    # the final totals belong once, at the end.
    parts.append('<tbody class="rk-summary">')
    for i, line in enumerate(view.summary):
        lead = f'<th scope="rowgroup" rowspan="{len(view.summary)}">Now</th>' if i == 0 else ""
        parts.append(_line_html(line, words, lead))
    parts += [
        "</tbody>",
        "</table>",
        "</div>",
        f'<p class="rk-result">{_esc(view.result)}</p>',
    ]
    if view.offers:
        parts.append(f'<p class="rk-offers">{_esc(view.offers)}</p>')
    if view.settle_up:
        parts.append(f'<section class="rk-settle"><h2>{_esc(_settle_title(match))}</h2><ul>')
        parts += [f"<li>{_esc(sentence)}</li>" for sentence in view.settle_up]
        parts.append("</ul></section>")
    parts += [
        f'<p class="rk-legend">{_esc(view.legend)}</p>',
        "</main>",
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(parts)


def _settle_title(match: Match) -> str:
    money = CURRENCY.get(match.format.key, "")
    return f"Settle up at {money}{match.rules.point_value} a point"


# -- PDF ------------------------------------------------------------------------------------------

_PAPER: Final = ("a4", "letter")
# TrueType fonts tried, in order, when a name has letters the standard PDF fonts (Windows-1252)
# lack; each is (regular, bold).  DejaVu is Debian's fonts-dejavu-core; Vera ships with reportlab.
_SYSTEM_FONTS: Final = (
    (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    ),
    (
        "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf",
    ),
    (
        "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
        "/usr/share/fonts/truetype/freefont/FreeSansBold.ttf",
    ),
)


def _standard_font_covers(texts: Iterable[str]) -> bool:
    try:
        for text in texts:
            text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def _pdf_fonts(texts: Sequence[str]) -> tuple[str, str]:
    """The (regular, bold) font names to draw ``texts`` with, registering a TrueType pair if needed."""
    if _standard_font_covers(texts):
        return "Helvetica", "Helvetica-Bold"  # built into every PDF reader: nothing embedded
    from reportlab import __file__ as reportlab_file
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    bundled = Path(reportlab_file).parent / "fonts"
    candidates = [*_SYSTEM_FONTS, (str(bundled / "Vera.ttf"), str(bundled / "VeraBd.ttf"))]
    needed = {ord(ch) for text in texts for ch in text if not ch.isspace()}
    chosen: tuple[str, str] | None = None
    for regular, bold in candidates:
        if not (Path(regular).is_file() and Path(bold).is_file()):
            continue
        names = (f"rk-{Path(regular).stem}", f"rk-{Path(bold).stem}")
        for name, path in zip(names, (regular, bold), strict=True):
            if name not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(TTFont(name, path))
        if chosen is None:
            chosen = names  # the first font found, used if none covers every letter
        font = pdfmetrics.getFont(names[0])
        if isinstance(font, TTFont) and needed <= set(font.face.charToGlyph):
            return names
    return chosen or ("Helvetica", "Helvetica-Bold")


def sheet_pdf(match: Match, *, title: str | None = None, paper: Literal["a4", "letter"] = "a4") -> bytes:
    """The sheet as a PDF (reportlab, no browser): the same table as :func:`sheet_html`.

    Black on white, ruled, the header row repeated on every page.  Names in Windows-1252 letters
    use the standard Helvetica; others a TrueType font found on the system (DejaVu, Noto, FreeSans)
    or reportlab's own Vera.  The output is byte-for-byte reproducible for the same match.
    """
    if paper not in _PAPER:
        raise ValueError(f"paper must be one of {', '.join(_PAPER)}, not {paper!r}")
    from reportlab.lib import colors
    from reportlab.lib.enums import TA_CENTER
    from reportlab.lib.pagesizes import A4, LETTER
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    view = sheet_view(match, title=title)
    texts = [view.title, *view.names, *(sentence for block in view.deals for sentence in block.rejoins)]
    texts += [*view.settle_up, _settle_title(match)]
    regular, bold = _pdf_fonts(texts)

    def style(
        name: str, size: float, font: str = regular, *, before: float = 0, after: float = 0
    ) -> ParagraphStyle:
        return ParagraphStyle(
            name, fontName=font, fontSize=size, leading=size * 1.25, spaceBefore=before, spaceAfter=after
        )

    h1 = style("rk-title", 16, bold, after=4)
    small = style("rk-small", 9)
    result = style("rk-result", 11, bold, before=6)
    head = style("rk-head", 9, bold)
    head.alignment = TA_CENTER
    dealer = style("rk-dealer", 7.5)
    deal = style("rk-deal", 9, bold)

    page = A4 if paper == "a4" else LETTER
    margin = 14 * mm
    usable = page[0] - 2 * margin
    players = len(view.names)
    first, second = 66.0, 50.0
    per_player = min(90.0, (usable - first - second) / players)

    def esc(text: str) -> str:
        return html.escape(text, quote=False)  # Paragraph reads a small XML markup

    data: list[list[object]] = [["Deal", "", *(Paragraph(esc(name), head) for name in view.names)]]
    commands: list[_Command] = [
        ("FONT", (0, 0), (-1, -1), regular, 9),
        ("FONT", (0, 0), (-1, 0), bold, 9),
        ("GRID", (0, 0), (-1, -1), 0.4, colors.black),
        ("BOX", (0, 0), (-1, -1), 1, colors.black),
        ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (2, 1), (-1, -1), "RIGHT"),
        ("ALIGN", (0, 0), (1, 0), "LEFT"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
    ]

    def add_line(line: Line, lead: object = "") -> None:
        r = len(data)
        data.append([lead, line.label, *(cell.plain() for cell in line.cells)])
        commands.append(("FONT", (1, r), (1, r), bold, 9))
        if line.kind == "total":
            commands.append(("FONT", (2, r), (-1, r), bold, 9))

    for block in view.deals:
        start = len(data)
        for i, line in enumerate(block.lines):
            # No row spans: reportlab splits a long table across pages more safely without them.
            lead: object = ""
            if i == 0:
                lead = Paragraph(f"Deal {block.number}", deal)
            elif i == 1:
                lead = Paragraph(f"dealer {esc(block.dealer)}", dealer)
            add_line(line, lead)
        for sentence in block.rejoins:
            r = len(data)
            data.append(["", "Rejoin", sentence, *([""] * (players - 1))])
            commands += [
                ("SPAN", (2, r), (-1, r)),
                ("ALIGN", (2, r), (-1, r), "LEFT"),
                ("FONT", (1, r), (-1, r), bold, 9),
            ]
        commands.append(("LINEABOVE", (0, start), (-1, start), 1.2, colors.black))
        # A deal's lines stay on one page: its charges without its totals would be misread.
        commands.append(("NOSPLIT", (0, start), (-1, len(data) - 1)))
    start = len(data)
    for i, line in enumerate(view.summary):
        add_line(line, Paragraph("Now", deal) if i == 0 else "")
    commands.append(("LINEABOVE", (0, start), (-1, start), 2, colors.black))
    commands.append(("NOSPLIT", (0, start), (-1, len(data) - 1)))

    table = Table(
        data,
        colWidths=[first, second, *([per_player] * players)],
        repeatRows=1,
        hAlign="LEFT",
    )
    table.setStyle(TableStyle(commands))
    story: list[Flowable] = [
        Paragraph(esc(view.title), h1),
        Paragraph(esc(view.format_line), small),
        Paragraph(esc(view.settings_line), small),
        Spacer(1, 6),
        table,
        Paragraph(esc(view.result), result),
    ]
    if view.offers:
        story.append(Paragraph(esc(view.offers), small))
    if view.settle_up:
        story.append(Paragraph(esc(_settle_title(match)), result))
        story += [Paragraph(esc(sentence), small) for sentence in view.settle_up]
    story.append(Spacer(1, 4))
    story.append(Paragraph(esc(view.legend), small))

    out = io.BytesIO()
    doc = SimpleDocTemplate(
        out,
        pagesize=page,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
        title=view.title,
        author="rummykit",
        creator="rummykit",
        invariant=1,  # no timestamps or random ids: the same match gives the same bytes
    )
    doc.build(story)
    return out.getvalue()
