"""Players that sit at a table: the contract, the baseline bots, and making one by name.

>>> from rummykit.bots import make_player, BOT_NAMES
>>> BOT_NAMES
('random', 'greedy', 'easy', 'medium', 'hard')
>>> make_player("greedy", seed=7).name
'greedy'
>>> make_player("clever", seed=7)
Traceback (most recent call last):
...
rummykit.bots.base.BotError: unknown bot 'clever' (known: random, greedy, easy, medium, hard)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final

from rummykit.bots.base import (
    BasePlayer,
    BotError,
    Player,
    RejoinPolicy,
    Seed,
    play_deal,
    play_match,
    rejoin_always,
)
from rummykit.bots.baseline import GreedyPlayer, RandomPlayer
from rummykit.bots.easy import EasyPlayer
from rummykit.bots.hard import HardPlayer
from rummykit.bots.medium import MediumPlayer
from rummykit.bots.table_baseline import TableGreedy, TableRandom
from rummykit.bots.table_levels import TableEasy, TableHard, TableMedium
from rummykit.engine.rules import Rules

__all__ = [
    "BOTS",
    "BOT_NAMES",
    "TABLE_BOTS",
    "BasePlayer",
    "BotError",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "RejoinPolicy",
    "make_player",
    "play_deal",
    "play_match",
    "rejoin_always",
]

# Every bot by name (the show family).
BOTS: Final[Mapping[str, Callable[[Seed], Player]]] = MappingProxyType(
    {
        "random": RandomPlayer,
        "greedy": GreedyPlayer,
        "easy": EasyPlayer,
        "medium": MediumPlayer,
        "hard": HardPlayer,
    }
)
BOT_NAMES: Final[tuple[str, ...]] = tuple(BOTS)

# The same names at a table-family game (Rummy 40, Remi 51), where a turn melds and lays off.
TABLE_BOTS: Final[Mapping[str, Callable[[Seed], Player]]] = MappingProxyType(
    {
        "random": TableRandom,
        "greedy": TableGreedy,
        "easy": TableEasy,
        "medium": TableMedium,
        "hard": TableHard,
    }
)


def make_player(name: str, seed: Seed, rules: Rules | None = None) -> Player:
    """The bot called ``name`` (any case, surrounding spaces ignored), seeded with ``seed``, for
    the family of ``rules`` (the show family when no rules are given)."""
    bots = TABLE_BOTS if rules is not None and rules.is_table else BOTS
    key = name.strip().lower() if isinstance(name, str) else name
    make = bots.get(key) if isinstance(key, str) else None
    if make is None:
        family = f" at {rules.preset}" if rules is not None and rules.is_table else ""
        raise BotError(f"unknown bot {name!r}{family} (known: {', '.join(bots)})")
    return make(seed)
