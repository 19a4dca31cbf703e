"""Players that sit at a table: the contract, the baseline bots, and making one by name.

>>> from rummykit.bots import make_player, BOT_NAMES
>>> BOT_NAMES
('random', 'greedy', 'easy', 'medium', 'hard', 'expert')
>>> make_player("greedy", seed=7).name
'greedy'
>>> make_player("clever", seed=7)
Traceback (most recent call last):
...
rummykit.bots.base.BotError: unknown bot 'clever' (known: random, greedy, easy, medium, hard, expert)

A bot's name may carry options after colons, each one of its tunable settings
(:attr:`tunables`): ``hard:worlds=32`` makes each of its searches (a drop's where no learned
model knows the rules; the throws' with ``search_seats=3``) exactly 32 worlds whatever the clock
says, which is how tournaments play it (a result that does not move with the machine's load).

>>> make_player("hard:worlds=16", seed=7).search_worlds
16
>>> make_player("greedy:worlds=16", seed=7)
Traceback (most recent call last):
...
rummykit.bots.base.BotError: greedy takes no options (got 'worlds=16')
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
from rummykit.bots.expert import ExpertPlayer
from rummykit.bots.hard import HardPlayer
from rummykit.bots.medium import MediumPlayer
from rummykit.bots.table_baseline import TableGreedy, TableRandom
from rummykit.bots.table_levels import TableEasy, TableExpert, TableHard, TableMedium
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
    "split_spec",
]

# Every bot by name (the show family).
BOTS: Final[Mapping[str, Callable[[Seed], Player]]] = MappingProxyType(
    {
        "random": RandomPlayer,
        "greedy": GreedyPlayer,
        "easy": EasyPlayer,
        "medium": MediumPlayer,
        "hard": HardPlayer,
        "expert": ExpertPlayer,
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
        "expert": TableExpert,
    }
)


def split_spec(spec: str) -> tuple[str, list[tuple[str, str]]]:
    """A bot spec's name (lower case) and its ``key=value`` options, in order."""
    name, *opts = spec.strip().lower().split(":")
    pairs = []
    for opt in opts:
        key, eq, value = opt.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise BotError(f"a bot option is KEY=VALUE, not {opt!r} (in {spec!r})")
        pairs.append((key.strip(), value.strip()))
    return name.strip(), pairs


def _option_value(player: Player, spec: str, key: str, text: str) -> object:
    current = getattr(player, key)
    kind = bool if isinstance(current, bool) else int if isinstance(current, int) else float
    try:
        if kind is bool:
            if text not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(text)
            value: object = text in ("true", "1", "yes")
        else:
            value = kind(text)
    except ValueError:
        raise BotError(
            f"{spec}: {key} takes {kind.__name__ if kind is not float else 'a number'}, not {text!r}"
        ) from None
    if kind is not bool and not float(value) >= 0:  # type: ignore[arg-type]
        raise BotError(f"{spec}: {key} is at least 0, not {text}")
    return value


def make_player(name: str, seed: Seed, rules: Rules | None = None) -> Player:
    """The bot called ``name`` (any case, surrounding spaces ignored), seeded with ``seed``, for
    the family of ``rules`` (the show family when no rules are given).  ``name`` may carry
    options (``hard:worlds=32``): settings from the bot's ``tunables``."""
    bots = TABLE_BOTS if rules is not None and rules.is_table else BOTS
    if not isinstance(name, str):
        raise BotError(f"unknown bot {name!r} (known: {', '.join(bots)})")
    key, options = split_spec(name)
    make = bots.get(key)
    if make is None:
        family = f" at {rules.preset}" if rules is not None and rules.is_table else ""
        raise BotError(f"unknown bot {key!r}{family} (known: {', '.join(bots)})")
    player = make(seed)
    tunables: tuple[str, ...] = getattr(player, "tunables", ())
    for opt, text in options:
        if not tunables:
            raise BotError(f"{key} takes no options (got {opt + '=' + text!r})")
        if opt not in tunables:
            raise BotError(f"{key} has no option {opt!r} (its options: {', '.join(tunables)})")
        setattr(
            player,
            "search_worlds" if opt == "worlds" else opt,
            _option_value(player, name, "search_worlds" if opt == "worlds" else opt, text),
        )
    return player
