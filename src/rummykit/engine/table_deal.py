"""The table family's deal under its older name: see :mod:`rummykit.engine.table_family`."""

from __future__ import annotations

from rummykit.engine.table_family import (
    ENDING_MARKS,
    REMI_CLOSE,
    REMI_JOKER_CLOSE,
    SHEET_LEGENDS,
    TableDeal,
    ending_note,
)

__all__ = ["ENDING_MARKS", "REMI_CLOSE", "REMI_JOKER_CLOSE", "SHEET_LEGENDS", "TableDeal", "ending_note"]
