"""The rules model: every setting of RULES.md, the named presets, and settings as text.

A :class:`Rules` is an immutable, validated value for every row of RULES.md's
settings table plus the preset it came from.  A table changes any setting with
``--set KEY=VALUE`` or a TOML house-rules file; :func:`resolve_rules` is what
the command line calls.  Only :func:`load_rules_file` and :func:`resolve_rules`
read files.

Settings RULES.md marks "–" for a family are given inert values that mean "no
rule of this kind": ``printed_joker_cut="aces"``, ``runs_needed=2``,
``long_run_required=False``, ``wrong_show=None`` (refuse), ``complete_hand_charge=None``
and ``early_show_halves=False`` for the table family; ``opening=None``,
``opening_first_round=True``, ``pile_before_opening=True``,
``last_card_discard=False`` and ``freed_joker_must_go_down=True`` for the show
family; ``rounds=1`` where a format does not count deals (pool, and Rummy 40's
single deal or race to ``target``); ``pool_out=None``, ``max_rejoins=None`` and
``target=None`` outside their formats.

Two settings are not in RULES.md's table; they settle differences between seeds 001 and 003
that the table leaves to the prose (issue 12):

* ``pile_at_deal``: a card is turned up at the deal to start the pile.  True at the show family
  and Rummy 40 (seed 003: "One more card is turned face up to start the discard pile"); false at
  Remi 51 (seed 001: "The rest of the cards are put aside on the table"), where the first
  player, dealt fifteen, starts the pile with its throw.
* ``freed_joker_must_go_down``: a joker freed by a swap must go down again that turn.  True at
  Rummy 40 (seed 003: "The freed joker has to go back down on the table that same turn"); false
  at Remi 51, where it is the player's to keep (seed 001: "you can use that Joker to create
  (and maybe discard) a new Tercet"): it may be melded later, thrown, or held.

Data written before a setting existed (a stored table's settings, an older hand history) says
nothing about it; such a table played :data:`LEGACY_VALUES`, and :func:`stored_rules` reads it so.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from os import PathLike, fspath
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, Literal, cast

__all__ = [
    "CREDIT_MODES",
    "DEFAULT_PRESET",
    "FAMILIES",
    "FORMATS",
    "JOKER_CUT_MODES",
    "LEGACY_VALUES",
    "PACK_SIZE",
    "PRESETS",
    "PRESET_NAMES",
    "SETTING_NAMES",
    "SHOW_FORMATS",
    "TABLE_FORMATS",
    "Rules",
    "RulesError",
    "apply_settings",
    "format_setting",
    "get_preset",
    "load_rules_file",
    "normalize_preset_name",
    "parse_set_option",
    "parse_setting",
    "resolve_rules",
    "stored_rules",
]


class RulesError(ValueError):
    """A setting, preset or rules file that makes no playable table; the message is one sentence."""


class _BadValue(Exception):
    """A value of the wrong shape; callers add where it came from before it reaches the user."""


FAMILIES: Final = ("show", "table")
CREDIT_MODES: Final = ("pure", "lives_except_pure", "lives_flat", "always")
SHOW_FORMATS: Final = ("settlement", "points", "pool", "deals")
TABLE_FORMATS: Final = ("target", "penalty")
FORMATS: Final = SHOW_FORMATS + TABLE_FORMATS
JOKER_CUT_MODES: Final = ("aces", "printed_only")
PACK_SIZE: Final = 52
DEFAULT_PRESET: Final = "nepali"

PRESET_NAMES: Final[tuple[str, ...]] = (
    "nepali",
    "indian",
    "kerala",
    "pool101",
    "pool201",
    "deals",
    "maharashtra",
    "north-indian",
    "rummy40",
    "remi51",
)

# Seats each preset allows (RULES.md: two-pack tables 2–6, Kerala 2–8, Remi 51 2–4).
_SEAT_RANGES: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {name: (2, 6) for name in PRESET_NAMES} | {"kerala": (2, 8), "remi51": (2, 4)}
)
# Presets that deal from three packs from this many seats up unless packs is set.
_THREE_PACKS_FROM: Final[Mapping[str, int]] = MappingProxyType({"kerala": 7})
_PRESET_PACKS: Final = 2  # every preset's own pack count at its standard four seats


@dataclass(frozen=True, slots=True)
class _Spec:
    """How one setting is typed, parsed and range-checked."""

    kind: Literal["bool", "int", "enum"]
    lo: int = 0
    hi: int = 0
    optional: bool = False
    choices: tuple[str, ...] = ()
    none_word: str = "none"


def _flag() -> _Spec:
    return _Spec("bool")


def _number(lo: int, hi: int, *, optional: bool = False, none_word: str = "none") -> _Spec:
    return _Spec("int", lo, hi, optional, none_word=none_word)


def _choice(*choices: str) -> _Spec:
    return _Spec("enum", choices=choices)


# In RULES.md's table order, which is also the order of Rules' fields, settings() and describe().
# Upper bounds are generous sanity limits, there so absurd numbers get a readable message.
_SPECS: Final[Mapping[str, _Spec]] = MappingProxyType(
    {
        "family": _choice(*FAMILIES),
        "players": _number(2, 8),  # validated against the preset's seat range instead
        "packs": _number(1, 3),
        "printed_jokers": _number(0, 8),
        "cut_joker": _flag(),
        "printed_joker_cut": _choice(*JOKER_CUT_MODES),
        "hand_size": _number(1, 21),
        "first_hand_size": _number(1, 21),
        "pile_at_deal": _flag(),
        "ace_high": _flag(),
        "wrap": _flag(),
        "max_jokers_per_group": _number(0, 13, optional=True),
        "max_jokers_in_set": _number(0, 4, optional=True),
        "min_naturals": _number(0, 3),
        "adjacent_jokers": _flag(),
        "joker_only_groups": _flag(),
        "thennaali": _flag(),
        "runs_needed": _number(1, 4),
        "long_run_required": _flag(),
        "wrong_show": _number(0, 10_000, optional=True, none_word="refuse"),
        "credit": _choice(*CREDIT_MODES),
        "full_count": _number(1, 10_000, optional=True),
        "ace_value": _number(0, 100),
        "joker_value": _number(0, 100),
        "complete_hand_charge": _number(0, 10_000, optional=True),
        "early_show_halves": _flag(),
        "drop_first": _number(0, 10_000, optional=True),
        "drop_middle": _number(0, 10_000, optional=True),
        "pick_joker_from_pile": _flag(),
        "stock_rebuilds": _number(0, 1_000, optional=True),
        "turn_limit": _number(1, 1_000_000, optional=True),
        "format": _choice(*FORMATS),
        "rounds": _number(1, 1_000, optional=True),
        "point_value": _number(1, 1_000_000),
        "pool_out": _number(1, 100_000, optional=True),
        "max_rejoins": _number(0, 1_000, optional=True),
        "target": _number(1, 1_000_000, optional=True),
        "opening": _number(1, 1_000, optional=True),
        "opening_first_round": _flag(),
        "pile_before_opening": _flag(),
        "last_card_discard": _flag(),
        "freed_joker_must_go_down": _flag(),
        "clock": _number(1, 86_400, optional=True),
    }
)
SETTING_NAMES: Final[tuple[str, ...]] = tuple(_SPECS)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every setting of one table, validated; build it with :func:`get_preset` and change it with
    :meth:`replace`."""

    preset: str  # the preset it started from; decides the seat range
    family: str  # "show" or "table"
    players: int
    packs: int
    printed_jokers: int
    cut_joker: bool
    printed_joker_cut: str  # "aces" or "printed_only"
    hand_size: int
    first_hand_size: int
    pile_at_deal: bool  # a card is turned up at the deal to start the pile (not at Remi 51)
    ace_high: bool
    wrap: bool
    max_jokers_per_group: int | None
    max_jokers_in_set: int | None
    min_naturals: int
    adjacent_jokers: bool
    joker_only_groups: bool
    thennaali: bool
    runs_needed: int
    long_run_required: bool
    wrong_show: int | None  # None: an invalid show is refused
    credit: str
    full_count: int | None  # None: no cap
    ace_value: int
    joker_value: int
    complete_hand_charge: int | None  # Kerala's 2; RULES.md makes it 3 when twos are wild
    early_show_halves: bool
    drop_first: int | None  # None (with drop_middle): dropping not allowed
    drop_middle: int | None
    pick_joker_from_pile: bool
    stock_rebuilds: int | None  # None: unlimited
    turn_limit: int | None
    format: str
    rounds: int | None  # None: as many deals as the table likes (points format only)
    point_value: int  # money = points × point value (points format)
    pool_out: int | None
    max_rejoins: int | None  # None: unlimited
    target: int | None  # None: the match is one deal
    opening: int | None
    opening_first_round: bool
    pile_before_opening: bool
    last_card_discard: bool
    freed_joker_must_go_down: bool  # a joker freed by a swap goes down again that turn (Rummy 40)
    clock: int | None

    def __post_init__(self) -> None:
        if not isinstance(self.preset, str) or self.preset not in _SEAT_RANGES:
            raise RulesError(_unknown_preset_message(str(self.preset)))
        for name, spec in _SPECS.items():
            # players is range-checked against the preset's seats just below
            _check_value(name, spec, getattr(self, name), check_range=name != "players")
        low, high = self.seat_range
        if not low <= self.players <= high:
            raise RulesError(
                f"players={self.players} is out of range for {self.preset}: {low} to {high} seats"
            )
        self._check_consistency()

    def _check_consistency(self) -> None:
        if self.first_hand_size < self.hand_size:
            raise RulesError(
                f"first_hand_size={self.first_hand_size} is smaller than hand_size={self.hand_size}: "
                "the first player is dealt at least a full hand"
            )
        if (self.drop_first is None) != (self.drop_middle is None):
            raise RulesError(
                f"drop_first={_text(self.drop_first)} and drop_middle={_text(self.drop_middle)} disagree: "
                "set both costs to allow dropping, or both to none to forbid it"
            )
        allowed = SHOW_FORMATS if self.is_show else TABLE_FORMATS
        if self.format not in allowed:
            raise RulesError(
                f"format={self.format} does not fit family={self.family}: "
                f"expected one of {', '.join(allowed)}"
            )
        if self.format == "pool" and self.pool_out is None:
            raise RulesError("format=pool needs pool_out, the total that puts a seat out")
        if self.rounds is None and self.format != "points":
            raise RulesError(
                f"rounds=none (as many deals as the table likes) is for format=points, not {self.format}"
            )
        if self.is_table and self.opening is None:
            raise RulesError("family=table needs opening, the points a player's first melds must reach")
        if self.credit == "lives_flat" and self.full_count is None:
            raise RulesError("credit=lives_flat needs full_count, since it charges the full count flat")
        if self.is_show:
            # A show lays every card out in groups of three or more, runs_needed of them runs.
            least = 3 * self.runs_needed + (1 if self.long_run_required else 0)
            if least > self.hand_size:
                raise RulesError(
                    f"runs_needed={self.runs_needed} cannot be met with hand_size={self.hand_size}: "
                    f"the runs alone take {least} cards"
                )
        dealt = self.hand_size * (self.players - 1) + self.first_hand_size
        turned = (1 if self.pile_at_deal else 0) + (1 if self.cut_joker else 0)  # the pile's card, the cut
        # One stock card per seat, so that every seat can draw at least once.
        needed = dealt + turned + self.players
        if needed > self.shoe_size:
            raise RulesError(
                f"{self.players} seats dealt {self.hand_size} cards need {needed} cards "
                f"({dealt} dealt, {turned} turned up, {self.players} left to draw) but "
                f"packs={self.packs} and printed_jokers={self.printed_jokers} make {self.shoe_size}"
            )

    # -- derived values -------------------------------------------------------------------

    @property
    def seat_range(self) -> tuple[int, int]:
        """The fewest and most seats the preset allows."""
        return _SEAT_RANGES[self.preset]

    @property
    def shoe_size(self) -> int:
        """Cards in the shoe: the packs and the printed jokers."""
        return self.packs * PACK_SIZE + self.printed_jokers

    @property
    def dropping_allowed(self) -> bool:
        """Whether a seat may drop out of a deal."""
        return self.drop_first is not None

    @property
    def is_show(self) -> bool:
        """Show family: nothing goes down until one player shows every card."""
        return self.family == "show"

    @property
    def is_table(self) -> bool:
        """Table family: melds go down during play."""
        return self.family == "table"

    # -- conversions ----------------------------------------------------------------------

    def settings(self) -> dict[str, object]:
        """Every setting by name, in RULES.md's table order (the preset is not a setting)."""
        return {name: getattr(self, name) for name in SETTING_NAMES}

    def describe(self) -> str:
        """The preset and every setting, one ``name = value`` line each."""
        lines = [f"preset = {self.preset}"]
        lines += [f"{name} = {format_setting(name, value)}" for name, value in self.settings().items()]
        return "\n".join(lines)

    def replace(self, **changes: object) -> Rules:
        """A validated copy with ``changes``.

        Changing ``players`` alone re-applies the preset's pack rule (Kerala: three packs at
        7–8 seats), unless the current pack count differs from that rule, i.e. was set by hand.
        """
        for key in changes:
            if key != "preset" and key not in _SPECS:
                raise RulesError(_unknown_setting_message(key))
        values: dict[str, object] = {"preset": self.preset, **self.settings(), **changes}
        players, preset = values["players"], values["preset"]
        if (
            "players" in changes
            and "packs" not in changes
            and isinstance(players, int)
            and isinstance(preset, str)
            and preset in _SEAT_RANGES
            and self.packs == _auto_packs(self.preset, self.players)
        ):
            values["packs"] = _auto_packs(preset, players)
        return _build(values)


def _build(values: Mapping[str, object]) -> Rules:
    # Values are checked by Rules.__post_init__, so the static types need not be known here.
    return Rules(**cast("dict[str, Any]", dict(values)))


def _auto_packs(preset: str, players: int) -> int:
    threshold = _THREE_PACKS_FROM.get(preset)
    return 3 if threshold is not None and players >= threshold else _PRESET_PACKS


def _check_value(name: str, spec: _Spec, value: object, *, check_range: bool = True) -> None:
    if value is None:
        if spec.optional:
            return
        raise RulesError(f"{name}=none is not allowed: expected {_expectation(spec)}")
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise RulesError(f"{name}={value!r}: expected true or false")
    elif spec.kind == "enum":
        if not isinstance(value, str) or value not in spec.choices:
            raise RulesError(f"{name}={value!r}: expected one of {', '.join(spec.choices)}")
    elif isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name}={value!r}: expected {_expectation(spec)}")
    elif check_range and not spec.lo <= value <= spec.hi:
        alternative = f"{spec.none_word} or " if spec.optional else ""
        raise RulesError(f"{name}={value} is out of range: expected {alternative}{spec.lo} to {spec.hi}")


def _expectation(spec: _Spec) -> str:
    if spec.kind == "bool":
        return "true or false (also yes/no, on/off)"
    if spec.kind == "enum":
        return f"one of {', '.join(spec.choices)}"
    if spec.none_word == "refuse":
        return "refuse or a whole number (the penalty)"
    return "a whole number or none" if spec.optional else "a whole number"


def _text(value: object, none_word: str = "none") -> str:
    if value is None:
        return none_word
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _did_you_mean(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f"did you mean {close[0]}? " if close else ""


def _unknown_setting_message(name: str) -> str:
    if name.strip().lower() == "preset":
        return "preset is not a setting that can be changed here: choose it with --rules or a rules file"
    guess = _did_you_mean(name.strip().lower().replace("-", "_"), SETTING_NAMES)
    return f"unknown setting {name!r} ({guess}known settings: {', '.join(SETTING_NAMES)})"


def _unknown_preset_message(name: str) -> str:
    guess = _did_you_mean(name.strip().lower(), PRESET_NAMES)
    return f"unknown preset {name!r} ({guess}presets: {', '.join(PRESET_NAMES)})"


# -- presets ----------------------------------------------------------------------------------


def _variant(base: Rules, preset: str, **changes: object) -> Rules:
    return _build({"preset": preset, **base.settings(), **changes})


_NEPALI: Final = Rules(
    preset="nepali",
    family="show",
    players=4,
    packs=2,
    printed_jokers=2,
    cut_joker=True,
    printed_joker_cut="aces",
    hand_size=13,
    first_hand_size=13,
    pile_at_deal=True,
    ace_high=True,
    wrap=False,
    max_jokers_per_group=None,
    max_jokers_in_set=None,
    min_naturals=0,
    adjacent_jokers=True,
    joker_only_groups=True,
    thennaali=False,
    runs_needed=2,
    long_run_required=False,
    wrong_show=None,
    credit="pure",
    full_count=80,
    ace_value=10,
    joker_value=0,
    complete_hand_charge=None,
    early_show_halves=False,
    drop_first=20,
    drop_middle=40,
    pick_joker_from_pile=True,
    stock_rebuilds=None,
    turn_limit=250,
    format="settlement",
    rounds=3,
    point_value=1,
    pool_out=None,
    max_rejoins=None,
    target=None,
    opening=None,
    opening_first_round=True,
    pile_before_opening=True,
    last_card_discard=False,
    freed_joker_must_go_down=True,
    clock=None,
)
_INDIAN: Final = _variant(
    _NEPALI,
    "indian",
    min_naturals=1,
    joker_only_groups=False,
    wrong_show=80,
    credit="lives_except_pure",
    early_show_halves=True,
    pick_joker_from_pile=False,
    turn_limit=None,
    format="points",
    rounds=1,
)
_KERALA: Final = _variant(
    _INDIAN,
    "kerala",
    thennaali=True,
    wrong_show=100,
    credit="lives_flat",
    full_count=100,
    complete_hand_charge=2,
    early_show_halves=False,  # the halving is the online custom, not the Association's
    drop_first=25,
    drop_middle=50,
    format="pool",
    pool_out=251,
    max_rejoins=2,
)
_RUMMY40: Final = _variant(
    _NEPALI,
    "rummy40",
    family="table",
    printed_jokers=4,
    cut_joker=False,
    min_naturals=2,
    adjacent_jokers=False,
    joker_only_groups=False,
    credit="always",
    full_count=None,
    ace_value=11,
    joker_value=20,
    drop_first=None,
    drop_middle=None,
    stock_rebuilds=2,
    turn_limit=None,
    format="target",
    rounds=1,
    opening=40,
    clock=45,
)
_REMI51: Final = _variant(
    _RUMMY40,
    "remi51",
    hand_size=14,
    first_hand_size=15,
    pile_at_deal=False,  # seed 001: "The rest of the cards are put aside"; the first throw starts it
    max_jokers_in_set=1,
    min_naturals=1,
    ace_value=10,
    stock_rebuilds=None,
    format="penalty",
    opening=51,
    opening_first_round=False,
    pile_before_opening=False,
    last_card_discard=True,
    freed_joker_must_go_down=False,  # seed 001: the freed joker may make "a new Tercet", later
    clock=None,
)

PRESETS: Final[Mapping[str, Rules]] = MappingProxyType(
    {
        "nepali": _NEPALI,
        "indian": _INDIAN,
        "kerala": _KERALA,
        "pool101": _variant(_INDIAN, "pool101", format="pool", pool_out=101),
        "pool201": _variant(_INDIAN, "pool201", format="pool", pool_out=201, drop_first=25, drop_middle=50),
        "deals": _variant(_INDIAN, "deals", format="deals", rounds=2, drop_first=None, drop_middle=None),
        "maharashtra": _variant(
            _INDIAN,
            "maharashtra",
            full_count=None,
            drop_first=10,
            drop_middle=40,
            printed_joker_cut="printed_only",
            pick_joker_from_pile=True,
        ),
        "north-indian": _variant(
            _INDIAN,
            "north-indian",
            credit="lives_flat",
            max_jokers_per_group=1,
            long_run_required=True,
        ),
        "rummy40": _RUMMY40,
        "remi51": _REMI51,
    }
)


def _preset_key(text: str) -> str:
    return re.sub(r"[\s_-]+", "", text.strip().lower())


# Spelling variants map to the canonical name; "pool250" is what seed 004 calls Kerala's pool.
_PRESET_ALIASES: Final[Mapping[str, str]] = MappingProxyType(
    {_preset_key(name): name for name in PRESET_NAMES} | {"remi": "remi51", "pool250": "kerala"}
)


def normalize_preset_name(name: str) -> str:
    """The canonical preset name for ``name`` (any case, ``-``/``_`` optional), or RulesError."""
    if not isinstance(name, str):
        raise RulesError(_unknown_preset_message(repr(name)))
    canonical = _PRESET_ALIASES.get(_preset_key(name))
    if canonical is None:
        raise RulesError(_unknown_preset_message(name))
    return canonical


# Settings added after tables had been stored and histories written, with the value every table
# played before they existed (Remi 51 too: a pile card turned up, the freed joker laid down again).
LEGACY_VALUES: Final[Mapping[str, object]] = MappingProxyType(
    {"pile_at_deal": True, "freed_joker_must_go_down": True}
)


def stored_rules(preset: str, settings: Mapping[str, object]) -> Rules:
    """The rules of a stored table: ``settings`` as :meth:`Rules.settings` wrote them (native
    values), where a setting the data lacks predates it and takes its :data:`LEGACY_VALUES`."""
    missing = {k: v for k, v in LEGACY_VALUES.items() if k not in settings}
    return get_preset(preset).replace(**(missing | dict(settings)))


def get_preset(name: str, /, **overrides: object) -> Rules:
    """The preset called ``name``, with ``overrides`` (native values) applied."""
    if "preset" in overrides:
        raise RulesError(_unknown_setting_message("preset"))
    rules = PRESETS[normalize_preset_name(name)]
    return rules.replace(**overrides) if overrides else rules


# -- settings as text -------------------------------------------------------------------------

_TRUE_WORDS: Final = frozenset({"true", "yes", "on", "1"})
_FALSE_WORDS: Final = frozenset({"false", "no", "off", "0"})
_INTEGER: Final = re.compile(r"[+-]?[0-9]{1,18}")


def _setting_name(raw: str) -> str:
    name = raw.strip().lower().replace("-", "_").replace(" ", "_")
    if name not in _SPECS:
        raise RulesError(_unknown_setting_message(raw.strip()))
    return name


def _parse_text(spec: _Spec, text: str) -> object:
    word = text.strip().lower()
    if spec.kind == "bool":
        if word in _TRUE_WORDS:
            return True
        if word in _FALSE_WORDS:
            return False
    elif spec.kind == "enum":
        choice = word.replace("-", "_")
        if choice in spec.choices:
            return choice
    else:
        if spec.optional and word == spec.none_word:
            return None
        if _INTEGER.fullmatch(word):
            return int(word)
    raise _BadValue(f"expected {_expectation(spec)}")


def _convert(name: str, value: object) -> object:
    """``value`` (text, or a native TOML/Python value) as the type setting ``name`` holds."""
    spec = _SPECS[name]
    if isinstance(value, str):
        return _parse_text(spec, value)
    if value is None and spec.optional:
        return None
    if spec.kind == "bool" and isinstance(value, bool):
        return value
    if spec.kind == "int" and isinstance(value, int) and not isinstance(value, bool):
        return value
    raise _BadValue(f"expected {_expectation(spec)}")


def _convert_pair(key: str, value: object, context: str) -> tuple[str, object]:
    try:
        name = _setting_name(key)
    except RulesError as exc:
        raise RulesError(f"{context}{exc}") from None
    try:
        return name, _convert(name, value)
    except _BadValue as exc:
        shown = value.strip() if isinstance(value, str) else _text(value)
        raise RulesError(f"{context}{key.strip()}={shown}: {exc}") from None


def _convert_pairs(pairs: Mapping[str, object], context: str) -> dict[str, object]:
    changes: dict[str, object] = {}
    spelled: dict[str, str] = {}
    for key, value in pairs.items():
        name, converted = _convert_pair(key, value, context)
        if name in changes:
            raise RulesError(f"{context}{spelled[name]} and {key} both set {name}")
        changes[name] = converted
        spelled[name] = key
    return changes


def parse_setting(name: str, text: str) -> object:
    """Setting ``name`` (``-`` or ``_``) read from ``text``: true/false/yes/no/on/off, a whole
    number, ``none``, an enum word, or ``refuse`` for wrong_show."""
    return _convert_pair(name, text, "")[1]


def format_setting(name: str, value: object) -> str:
    """``value`` of setting ``name`` as :func:`parse_setting` reads it back."""
    return _text(value, _SPECS[_setting_name(name)].none_word)


def apply_settings(rules: Rules, pairs: Mapping[str, object]) -> Rules:
    """``rules`` with ``pairs`` applied; values are text (``--set``) or native bool/int/str."""
    changes = _convert_pairs(pairs, "")
    return rules.replace(**changes) if changes else rules


def parse_set_option(option: str) -> tuple[str, str]:
    """Split ``KEY=VALUE`` from ``--set`` into the key and the value text, both stripped."""
    key, sep, value = option.partition("=")
    if not sep:
        raise RulesError(f"--set {option}: expected KEY=VALUE, for example --set runs_needed=1")
    if not key.strip():
        raise RulesError(f"--set {option}: no setting name before '='")
    return key.strip(), value.strip()


# -- rules files ------------------------------------------------------------------------------

_TOML_POSITION: Final = re.compile(
    r"(?P<problem>.*?)\s*\(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)", re.S
)


def _toml_problem(message: str) -> str:
    match = _TOML_POSITION.fullmatch(message)
    if match is None:
        return message
    problem = match["problem"][:1].lower() + match["problem"][1:]
    if match["line"] is None:
        return f"at the end of the file: {problem}"
    return f"line {match['line']}: {problem} (column {match['column']})"


def _read_rules_file(path: str | PathLike[str]) -> tuple[str | None, dict[str, object]]:
    """The preset named in a TOML rules file (or None) and its settings, not yet converted."""
    label = fspath(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise RulesError(f"{label}: cannot read the rules file ({exc.strerror or exc})") from None
    try:
        document = tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise RulesError(f"{label}: the rules file is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{label}: {_toml_problem(str(exc))}") from None

    top = dict(document)
    preset = top.pop("preset", None)
    section = top.pop("settings", {})
    if not isinstance(section, dict):
        raise RulesError(f"{label}: settings must be a [settings] table, not a single value")
    section = dict(section)
    if "preset" in section:
        inner = section.pop("preset")
        if preset is not None and inner != preset:
            raise RulesError(f"{label}: preset is given twice, as {preset!r} and in [settings] as {inner!r}")
        preset = inner
    if preset is not None and not isinstance(preset, str):
        raise RulesError(f'{label}: preset must be a name in quotes, such as preset = "nepali"')

    settings: dict[str, object] = {}
    for key, value in top.items():
        if isinstance(value, dict):
            raise RulesError(f"{label}: unknown table [{key}] (a rules file holds preset and [settings])")
        settings[key] = value
    for key, value in section.items():
        if key in settings:
            raise RulesError(f"{label}: {key} is set both at the top level and in [settings]")
        settings[key] = value
    return preset, settings


def _no_preset_message(label: str) -> str:
    return f'{label}: no preset given (add a line such as preset = "nepali")'


def _apply_from_file(base: Rules, changes: Mapping[str, object], label: str) -> Rules:
    try:
        return base.replace(**changes) if changes else base
    except RulesError as exc:
        raise RulesError(f"{label}: {exc}") from None


def _file_preset(name: str, label: str) -> Rules:
    try:
        return get_preset(name)
    except RulesError as exc:
        raise RulesError(f"{label}: {exc}") from None


def load_rules_file(path: str | PathLike[str]) -> Rules:
    """The rules a TOML house-rules file describes: ``preset = "…"`` plus settings, at the top level
    or in a ``[settings]`` table."""
    label = fspath(path)
    preset, settings = _read_rules_file(path)
    if preset is None:
        raise RulesError(_no_preset_message(label))
    base = _file_preset(preset, label)
    return _apply_from_file(base, _convert_pairs(settings, f"{label}: "), label)


def resolve_rules(preset: str | None, rules_file: str | None, sets: Sequence[str]) -> Rules:
    """The rules for ``--rules PRESET [--rules-file FILE] [--set KEY=VALUE ...]``.

    ``--rules`` wins over the file's preset; then the file's settings apply, then ``--set`` (a
    later ``--set`` of one setting wins).  With neither preset nor file the table is nepali.
    """
    file_preset: str | None = None
    file_settings: dict[str, object] = {}
    if rules_file is not None:
        file_preset, file_settings = _read_rules_file(rules_file)

    if preset is not None:
        base = get_preset(preset)
    elif file_preset is not None:
        base = _file_preset(file_preset, str(rules_file))
    elif rules_file is not None:
        raise RulesError(_no_preset_message(rules_file))
    else:
        base = get_preset(DEFAULT_PRESET)

    file_changes: dict[str, object] = {}
    rules = base
    if rules_file is not None:
        file_changes = _convert_pairs(file_settings, f"{rules_file}: ")
        rules = _apply_from_file(base, file_changes, rules_file)

    set_changes: dict[str, object] = {}
    for option in sets:
        key, text = parse_set_option(option)
        try:
            _setting_name(key)
        except RulesError as exc:
            raise RulesError(f"--set {key}={text}: {exc}") from None
        name, value = _convert_pair(key, text, "--set ")
        set_changes[name] = value
    if not set_changes:
        return rules
    # Applied to the preset in one step, so a pack count from the file still counts as set by hand.
    return base.replace(**(file_changes | set_changes))
