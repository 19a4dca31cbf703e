"""The free score sheet: people playing with real cards type each deal in, the sheet adds it up.

The arithmetic (totals, outs, compel, rejoins, winners, money) is
:class:`rummykit.engine.match.Match`; this package renders a match as a printable sheet:
:func:`sheet_html` (a self-contained page with a print stylesheet, also the web page's printable
view), :func:`sheet_pdf` (the same sheet as a PDF, no browser needed) and :func:`sheet_text`.
"""

from __future__ import annotations

from rummykit.sheet.render import (
    Cell,
    DealBlock,
    Line,
    SheetView,
    default_title,
    sheet_html,
    sheet_pdf,
    sheet_text,
    sheet_view,
)

__all__ = [
    "Cell",
    "DealBlock",
    "Line",
    "SheetView",
    "default_title",
    "sheet_html",
    "sheet_pdf",
    "sheet_text",
    "sheet_view",
]
