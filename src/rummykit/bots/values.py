"""What playing a hand on is worth: a table learned by self-play, shipped in the package.

``benchmarks/train_values.py`` plays medium against medium with no drops (Nepali, Indian and
Kerala, two and four seats) and writes, for every cell of a few exact measures of a hand taken
before the draw (:func:`features`), the mean net the seat made from there to the end of the
deal.  :class:`PlayOnValues` reads the table (``data/values.json``) and answers the expected net
of playing on from a position, each cell shrunk towards its coarser parent when it saw few
positions.  ``hard`` and ``expert`` drop when that is worse than the drop; ``expert`` also
judges the ends of its look-ahead by it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from rummykit.bots.reading import HandReader
from rummykit.engine.rules import Rules
from rummykit.engine.views import SeatView

__all__ = [
    "LOSSES",
    "VALUES_PATH",
    "Features",
    "PlayOnValues",
    "bucketed",
    "cell_keys",
    "features",
    "play_on_values",
]

VALUES_PATH: Final = Path(__file__).parent / "data" / "values.json"
SHRINK: Final = 20.0  # positions a cell needs before its own mean counts as much as its parent's
LOSSES: Final = (20, 40, 60, 80, 100)  # the table keeps the share of positions that lost this much


@dataclass(frozen=True, slots=True)
class Features:
    """The measures of a thirteen-card hand that index the table."""

    table: str  # the credit mode and the seats (2, or 4 for three or more)
    away: int  # exchanges from a show, capped at 7
    pure: bool  # holds a pure run
    turns: int  # the seat's own turns so far, bucketed: 0, 1-2, 3-5, 6-9, 10+
    charge: int  # the hand's charge, bucketed by 10 (0-7)


def _turn_bucket(own: int) -> int:
    return 0 if own == 0 else 1 if own <= 2 else 2 if own <= 5 else 3 if own <= 9 else 4


def table_name(rules: Rules, players: int) -> str:
    return f"{rules.credit}/{2 if players == 2 else 4}"


def bucketed(rules: Rules, players: int, away: int, pure: bool, own: int, charge: int) -> Features:
    """The table's cell features from a hand's exact measures (away, pure run, own turns, charge)."""
    return Features(table_name(rules, players), min(7, away), pure, _turn_bucket(own), min(7, charge // 10))


def features_of(
    rules: Rules,
    players: int,
    reader: HandReader,
    hand: tuple[int, ...] | list[int],
    wild: int | None,
    own: int,
) -> Features:
    return bucketed(
        rules, players, reader.away(hand, wild), reader.has_pure(hand, wild), own, reader.charge(hand, wild)
    )


def features(view: SeatView, reader: HandReader) -> Features:
    """The features of the seat's hand now (its own turns: the cards it has thrown)."""
    return features_of(view.rules, view.players, reader, view.hand, view.wild, len(view.thrown[view.seat]))


def cell_keys(f: Features) -> tuple[str, ...]:
    """The cells a position counts in, coarsest first."""
    k0 = f.table
    k1 = f"{k0}/g{min(f.away, 6) // 2}/p{int(f.pure)}"  # away 0-1, 2-3, 4-5, 6-7
    k2 = f"{k0}/a{f.away}/p{int(f.pure)}"
    k3 = f"{k2}/t{f.turns}"
    k4 = f"{k3}/c{f.charge}"
    return k0, k1, k2, k3, k4


class PlayOnValues:
    """The learned table: by cell, the expected net of playing on and the chances of losing at
    least each of :data:`LOSSES`."""

    def __init__(self, cells: dict[str, tuple[float, ...]]) -> None:
        self.cells = cells

    def _estimate(self, f: Features) -> tuple[float, ...] | None:
        keys = cell_keys(f)
        top = self.cells.get(keys[0])
        if top is None:
            return None
        est = [top[0], *top[2:]]
        for key in keys[1:]:
            cell = self.cells.get(key)
            if cell is None:
                break
            n = cell[1]
            mine = [cell[0], *cell[2:]]
            est = [(n * m + SHRINK * e) / (n + SHRINK) for m, e in zip(mine, est, strict=True)]
        return tuple(est)

    def knows(self, rules: Rules, players: int) -> bool:
        """Whether the table learned these rules at this many seats (its credit mode)."""
        return table_name(rules, players) in self.cells

    def value(self, f: Features) -> float | None:
        """The expected net of playing on from ``f`` (``None``: the table never saw these rules)."""
        est = self._estimate(f)
        return None if est is None else est[0]

    def loss_chance(self, f: Features, loss: int) -> float:
        """The chance that playing on from ``f`` costs at least ``loss`` (the nearest of
        :data:`LOSSES` at or below it; 1 for a loss of 0 or less, 0 past the table)."""
        if loss <= 0:
            return 1.0
        est = self._estimate(f)
        if est is None:
            return 0.0
        j = max((i for i, x in enumerate(LOSSES) if x <= loss), default=None)
        return 1.0 if j is None else est[1 + j]


@cache
def play_on_values() -> PlayOnValues:
    """The shipped table (read once)."""
    data = json.loads(VALUES_PATH.read_text(encoding="utf-8"))
    return PlayOnValues({k: tuple(float(x) for x in v) for k, v in data["cells"].items()})
