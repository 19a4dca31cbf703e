"""What the three difficulty levels share: the timed contract, a hand reader per rules, helpers.

A :class:`LevelPlayer` is a :class:`~rummykit.bots.base.BasePlayer` (seeded ``self.rng``) that
also keeps the :mod:`~rummykit.bots.contract`: it has a ``budget_ms`` and its ``choose`` takes a
``deadline``.  Subclasses write ``_drop``, ``_draw`` and ``_throw``; the show, when one is
legal, is always taken (RULES.md and seed 000: a hand that can show should show).
"""

from __future__ import annotations

from rummykit.bots.base import BasePlayer, BotError, Seed
from rummykit.bots.contract import Deadline
from rummykit.bots.reading import HandReader
from rummykit.engine.arrange import Arranger
from rummykit.engine.events import Action, ActionKind, Phase
from rummykit.engine.rules import Rules
from rummykit.engine.views import SeatView

__all__ = ["LevelPlayer", "throw_kinds"]

_READERS: dict[Rules, HandReader] = {}


def throw_kinds(view: SeatView) -> list[int]:
    """The kinds the seat may throw now (the card just taken from the pile excluded)."""
    return [a.card for a in view.legal if a.kind is ActionKind.THROW and a.card is not None]


class LevelPlayer(BasePlayer):
    """The base of ``easy``, ``medium`` and ``hard``."""

    name = "level"
    budget_ms: float | None = 50.0
    untimed = False  # ignore the deadline: searches of their full size (tournaments, tests)

    def __init__(self, seed: Seed, *, budget_ms: float | None = None) -> None:
        super().__init__(seed)
        if budget_ms is not None:
            self.budget_ms = budget_ms
        self._reader: HandReader | None = None

    def reader(self, rules: Rules) -> HandReader:
        """The hand reader for ``rules``, shared by every level bot in the process: its caches
        hold only measures of hands (pure functions of the cards), so sharing them tells a bot
        nothing it could not work out, and the next deal's bots start warm."""
        reader = self._reader
        if reader is None or (reader.rules is not rules and reader.rules != rules):
            reader = _READERS.get(rules)
            if reader is None:
                if len(_READERS) > 16:
                    _READERS.clear()
                reader = _READERS[rules] = HandReader(rules)
            self._reader = reader
        return reader

    @property
    def arranger(self) -> Arranger:
        assert self._reader is not None
        return self._reader.arranger

    def choose(self, view: SeatView, deadline: Deadline | None = None) -> Action:
        """The action for this seat: drop, draw, or throw (showing whenever it can)."""
        legal = view.legal
        if not legal:
            raise BotError(f"{self.name}: seat {view.seat} has nothing to do (it is not its turn)")
        if not view.rules.is_show:
            raise BotError(f"{self.name} plays the show family; {view.rules.preset} is a table game")
        reader = self.reader(view.rules)
        deadline = deadline if deadline is not None else Deadline(self.budget_ms)
        if view.phase is Phase.DRAW:
            if Action.drop() in legal and self._drop(view, reader, deadline):
                return Action.drop()
            take = Action.draw_pile() in legal and self._draw(view, reader, deadline)
            if take:
                return Action.draw_pile()
            if Action.draw_stock() in legal:
                return Action.draw_stock()
            return next(a for a in legal if a.kind is not ActionKind.DROP)
        if legal[0].kind is ActionKind.SHOW:
            return legal[0]  # the engine lists the valid shows first
        return Action.throw(self._throw(view, reader, deadline))

    def _drop(self, view: SeatView, reader: HandReader, deadline: Deadline) -> bool:
        return False

    def _draw(self, view: SeatView, reader: HandReader, deadline: Deadline) -> bool:
        """Whether to take the pile's top card (else the stock)."""
        raise NotImplementedError

    def _throw(self, view: SeatView, reader: HandReader, deadline: Deadline) -> int:
        """The kind to throw (a show was not possible)."""
        raise NotImplementedError
