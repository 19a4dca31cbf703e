"""The deals of both families, by one name: :func:`new_deal` and the deal's vocabulary.

The engine's deals live by family: the shared turn machine in
:mod:`rummykit.engine.deal_base`, the show family's :class:`ShowDeal` in
:mod:`rummykit.engine.show`, the table family's :class:`TableDeal` in
:mod:`rummykit.engine.table_family`.  This module imports them all (they import
none of it) and makes the deal a table's rules name; its other names are theirs,
kept here because most callers ask for a deal by this module.
"""

from __future__ import annotations

from rummykit.engine.arrange import Arranger
from rummykit.engine.deal_base import (
    TURN_CAP,
    Deal,
    IllegalAction,
    Seed,
    Verdict,
    stacked_shoe,
    wild_rank,
)
from rummykit.engine.events import Action, ActionKind, Ending, Phase
from rummykit.engine.rules import Rules
from rummykit.engine.show import ShowDeal
from rummykit.engine.table_family import TableDeal

__all__ = [
    "TURN_CAP",
    "Action",
    "ActionKind",
    "Deal",
    "Ending",
    "IllegalAction",
    "Phase",
    "ShowDeal",
    "TableDeal",
    "Verdict",
    "new_deal",
    "stacked_shoe",
    "wild_rank",
]


def new_deal(
    rules: Rules,
    seed: Seed = 0,
    *,
    dealer: int = 0,
    turn_cap: int = TURN_CAP,
    arranger: Arranger | None = None,
) -> Deal:
    """A deal of the family the rules name; ``arranger`` is shared with a show-family deal (the
    table family has none)."""
    if rules.is_show:
        return ShowDeal(rules, seed, dealer=dealer, turn_cap=turn_cap, arranger=arranger)
    return TableDeal(rules, seed, dealer=dealer, turn_cap=turn_cap)
