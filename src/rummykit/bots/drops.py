"""What playing a hand on is worth, by a linear model of what the view shows: hard's drop.

The learned table of :mod:`~rummykit.bots.values` indexes a hand by its away, pure run, turns
and charge.  At a table of three or more that misses what decides a drop there: how many rivals
are still in, how far round the table the seat sits, whether the seats before it took from the
pile, the wild cards it holds.  :func:`drop_measures` reads those (cheap: no search; the pile
card's worth is fourteen exact ``away`` calls) and :class:`DropModel` answers the expected net
of playing on from them: a ridge regression per table (credit mode and exact seats: two, three
and four; none for five or six, where hard keeps the values table) and per kind of decision (the first,
before any draw; or a later one), fitted by ``benchmarks/drop_study.py`` on medium's
played-out hands and shipped as ``data/drops.json``.  Hard drops when it is worse than the drop.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from rummykit.bots.reading import HandReader, pure_pairs
from rummykit.bots.tracking import is_wild
from rummykit.engine.events import SeatStatus
from rummykit.engine.rules import Rules
from rummykit.engine.views import SeatView

__all__ = [
    "DROPS_PATH",
    "MEASURES",
    "DropModel",
    "LinearModel",
    "drop_measures",
    "drop_models",
    "model_key",
    "stage",
]

DROPS_PATH: Final = Path(__file__).parent / "data" / "drops.json"

MEASURES: Final = (
    "away",  # exchanges from a show
    "charge",  # what the hand pays if another seat shows now
    "pure",  # 1: the hand holds a pure run
    "pairs",  # seeds of pure runs (natural cards of a suit one or two apart)
    "wilds",  # wild cards held (the cut joker's rank and printed jokers)
    "pile_gain",  # exchanges the pile's top card would save
    "rivals",  # other seats still in the deal
    "acted",  # other seats in that have drawn or thrown
    "took_pile",  # cards the other seats took from the pile
    "turn",  # the table's turn (at a first decision: the seat's place round the table)
    "own",  # the seat's own turns so far
    "stock",  # cards left in the stock
)


def drop_measures(view: SeatView, reader: HandReader) -> tuple[float, ...]:
    """The position's :data:`MEASURES` (the seat's hand before its draw)."""
    hand, wild = view.hand, view.wild
    away = reader.away(hand, wild)
    top = view.pile_top
    pile_away = away
    if top is not None and len(hand) == 13:
        h14 = [*hand, top]
        pile_away = min(reader.away(h14[:i] + h14[i + 1 :], wild) for i in range(14))
    others = [s for s in range(view.players) if s != view.seat and view.statuses[s] is SeatStatus.IN]
    return (
        float(away),
        float(reader.charge(hand, wild)),
        float(reader.has_pure(hand, wild)),
        float(pure_pairs(hand, view.rules.ace_high)),
        float(sum(1 for k in hand if is_wild(k, wild))),
        float(away - pile_away),
        float(len(others)),
        float(sum(1 for s in others if view.took[s] or view.thrown[s])),
        float(sum(len(view.took[s]) for s in range(view.players) if s != view.seat)),
        float(view.turn),
        float(len(view.thrown[view.seat])),
        float(view.stock_count),
    )


def stage(view: SeatView) -> str:
    """``first``: the seat's first decision, before any draw (the first drop's price); else
    ``later``."""
    return "later" if view.took[view.seat] or view.thrown[view.seat] else "first"


def model_key(rules: Rules, players: int, stage: str) -> str:
    """A model's name: the credit mode, the exact number of seats (a model fitted at four seats
    misjudges six: it drops far too often there) and the stage."""
    return f"{rules.credit}/{players}/{stage}"


@dataclass(frozen=True, slots=True)
class LinearModel:
    """``intercept + sum(weight * (x - mean) / scale)`` over :data:`MEASURES`."""

    intercept: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weight: tuple[float, ...]

    def __post_init__(self) -> None:
        n = len(MEASURES)
        if not (len(self.mean) == len(self.scale) == len(self.weight) == n):
            raise ValueError(f"a drop model needs {n} means, scales and weights")
        if any(s <= 0 for s in self.scale):
            raise ValueError("a drop model's scales must be positive")

    def predict(self, x: Sequence[float]) -> float:
        return self.intercept + sum(
            w * (v - m) / s for w, v, m, s in zip(self.weight, x, self.mean, self.scale, strict=True)
        )

    def to_json(self) -> dict[str, object]:
        def r(xs: Sequence[float]) -> list[float]:
            return [round(v, 5) for v in xs]

        return {
            "intercept": round(self.intercept, 5),
            "mean": r(self.mean),
            "scale": r(self.scale),
            "weight": r(self.weight),
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> LinearModel:
        def floats(key: str) -> tuple[float, ...]:
            got = data[key]
            if not isinstance(got, list):
                raise ValueError(f"a drop model's {key} must be a list")
            return tuple(float(v) for v in got)

        intercept = data["intercept"]
        if not isinstance(intercept, (int, float)):
            raise ValueError("a drop model's intercept must be a number")
        return cls(float(intercept), floats("mean"), floats("scale"), floats("weight"))


class DropModel:
    """The shipped models by table and stage (``"pure/4/first"``)."""

    def __init__(self, models: dict[str, LinearModel]) -> None:
        self.models = models

    def value(self, view: SeatView, reader: HandReader) -> float | None:
        """The expected net of playing on from this position (``None``: no model for it)."""
        model = self.models.get(model_key(view.rules, view.players, stage(view)))
        if model is None:
            return None
        return model.predict(drop_measures(view, reader))


@cache
def drop_models() -> DropModel:
    """The shipped models (read once)."""
    data = json.loads(DROPS_PATH.read_text(encoding="utf-8"))
    if data.get("measures") != list(MEASURES):
        raise ValueError(f"{DROPS_PATH.name} was fitted on other measures than these")
    return DropModel({k: LinearModel.from_json(v) for k, v in data["models"].items()})
