"""The table family's melds and arranger under their older name.

The meld geometry is :mod:`rummykit.engine.melds`; the searches (best opening,
Opening meter, cheapest leftover, can the turn still end) are
:mod:`rummykit.engine.table_arranger`.
"""

from __future__ import annotations

from rummykit.engine.melds import Placed, extend_meld, may_extend, meld_points, place_meld, swap_slot
from rummykit.engine.table_arranger import (
    Leftover,
    Opening,
    TableRules,
    best_leftover,
    best_opening,
    finish_plan,
    opening_meter,
)

__all__ = [
    "Leftover",
    "Opening",
    "Placed",
    "TableRules",
    "best_leftover",
    "best_opening",
    "extend_meld",
    "finish_plan",
    "may_extend",
    "meld_points",
    "opening_meter",
    "place_meld",
    "swap_slot",
]
