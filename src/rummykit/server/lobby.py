"""The lobby: what a new table may be (``GET /api/options``) and reading a request for one.

The settings the lobby shows are seed 000's settings table, in its order: players, rounds, runs a
show needs, dropping, cut joker, printed jokers, the ace in a run, what a hand with no clean run
costs, and the bots' difficulty.  Any other setting of RULES.md may be given by name too; every
value goes through :func:`rummykit.engine.rules.apply_settings`, so a bad one is refused with the
rules' own sentence.

Both families are offered: the show family's presets, then the table family's (``rummy40``,
``remi51``), each with its seat range, its own bots and the turn clock every game may have (off,
or 30, 45, 60, 90, 600 seconds; Rummy 40 plays 45 by default, seed 003, the others none).  Rummy
40 offers its opening (40, or 30 and 51) and its match length (one deal, or to 200).  The table
option ``hints`` (off unless asked for) gives the seat to play a Hint button, at either family.
A seat count the preset does not seat is refused in players' words ("Rummy 40 seats 2 to 6
players; you asked for 9"), never clamped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rummykit.bots import BOT_NAMES, TABLE_BOTS
from rummykit.engine.match import MAX_SEATS
from rummykit.engine.rules import PRESET_NAMES, PRESETS, Rules, RulesError, apply_settings, get_preset
from rummykit.server.limits import ServerLimits
from rummykit.server.protocol import Refusal
from rummykit.server.table import TableOptions

__all__ = [
    "CLOCK_CHOICES",
    "SHOW_PRESETS",
    "TABLE_PRESETS",
    "WEB_PRESETS",
    "NewSeat",
    "NewTable",
    "default_difficulty",
    "options_json",
    "parse_new_table",
    "table_bot_names",
]

SHOW_PRESETS: Final = tuple(name for name in PRESET_NAMES if PRESETS[name].is_show)
TABLE_PRESETS: Final = tuple(name for name in PRESET_NAMES if PRESETS[name].is_table)
WEB_PRESETS: Final = SHOW_PRESETS + TABLE_PRESETS
# The turn clock's choices (seed 003), offered at every game; a preset's own default is its
# ``clock`` setting (Rummy 40: 45 seconds; the others: none).
CLOCK_CHOICES: Final = (30, 45, 60, 90, 600)
# Rummy 40's room options (seed 003): the opening 40, or 30 or 51; one deal, or a match to 200.
OPENING_CHOICES: Final = {"rummy40": (30, 40, 51)}
TARGET_CHOICES: Final = {"rummy40": (None, 200)}
# The presets as players call them (the lobby's cards): the words of a refusal.
PRESET_TITLES: Final = {
    "nepali": "Nepali rummy",
    "indian": "Indian rummy",
    "kerala": "Kerala pool (250)",
    "pool101": "Pool 101",
    "pool201": "Pool 201",
    "deals": "Deals rummy",
    "maharashtra": "Maharashtra rummy",
    "north-indian": "North Indian rummy",
    "rummy40": "Rummy 40",
    "remi51": "Remi 51",
}
MAX_NAME: Final = 40
# The standard drop costs (RULES.md), for a preset without dropping whose table turns it on.
_STANDARD_DROPS: Final = (20, 40)
_LIMITS: Final = {
    "bot_pace": (0.0, 30.0),
    "turn_time": (0.01, 86_400.0),
    "away_time": (0.0, 86_400.0),
    "away_turns": (0, 100),
    "hints": (0, 1),
}


def table_bot_names() -> tuple[str, ...]:
    """The bots that play the table family, weakest first."""
    return tuple(TABLE_BOTS)


def default_difficulty(rules: Rules | None = None) -> str:
    """Seed 000's standard difficulty where the bots have it, else the best bot there is (for
    the family of ``rules``, the show family when none are given)."""
    names = table_bot_names() if rules is not None and rules.is_table else BOT_NAMES
    for name in ("medium", "greedy"):
        if name in names:
            return name
    return names[-1]


def options_json(defaults: TableOptions) -> dict[str, Any]:
    """``GET /api/options``: presets with every setting, the lobby's settings, bots, table options."""
    players = (2, 6)
    return {
        "presets": [_preset_json(name) for name in WEB_PRESETS],
        "lobby": [
            {"key": "players", "label": "Players", "type": "int", "min": players[0], "max": 8},
            {"key": "rounds", "label": "Rounds", "type": "int", "min": 1, "max": 50},
            {"key": "runs_needed", "label": "Runs a show needs", "type": "choice", "choices": [1, 2]},
            {"key": "dropping", "label": "Dropping", "type": "bool"},
            {"key": "cut_joker", "label": "Cut joker", "type": "bool"},
            {"key": "printed_jokers", "label": "Printed jokers", "type": "bool"},
            {"key": "ace_high", "label": "The ace in a run", "type": "bool"},
            {"key": "full_count", "label": "No clean run costs", "type": "int", "min": 1, "max": 1000},
            {"key": "difficulty", "label": "Difficulty", "type": "choice", "choices": list(BOT_NAMES)},
        ],
        "bots": list(BOT_NAMES),
        "default_difficulty": default_difficulty(),
        "options": defaults.to_dict(),
    }


def _preset_json(name: str) -> dict[str, Any]:
    rules = PRESETS[name]
    out: dict[str, Any] = {
        "name": name,
        "title": PRESET_TITLES.get(name, name),
        "family": rules.family,
        "players": list(rules.seat_range),
        "format": rules.format,
        "settings": rules.settings(),
        "clock": {"default": _clock(rules), "choices": list(CLOCK_CHOICES)},
    }
    if rules.is_table:
        bots = table_bot_names()
        out.update(
            opening=rules.opening,
            openings=list(OPENING_CHOICES.get(name, (rules.opening,))),
            target=rules.target,
            targets=list(TARGET_CHOICES.get(name, ())),
            bots=list(bots),
            default_difficulty=default_difficulty(rules),
        )
    return out


def _clock(rules: Rules) -> float | None:
    """The preset's own turn clock in seconds (None: no clock unless the table picks one)."""
    return float(rules.clock) if rules.clock is not None else None


@dataclass(frozen=True, slots=True)
class NewSeat:
    name: str
    kind: str  # human | bot
    bot: str = ""


@dataclass(frozen=True, slots=True)
class NewTable:
    """A request for a table, read and checked."""

    preset: str
    rules: Rules
    seats: tuple[NewSeat, ...]
    options: TableOptions
    title: str
    seed: str | None


def _bad(reason: str, expected: str | None = None, got: object = None) -> Refusal:
    return Refusal(reason, expected, None if got is None else str(got)[:80])


def _mapping(value: object, what: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise _bad(f"{what} must be a JSON object", f"{what}: {{...}}", type(value).__name__)
    return value


def _name(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise _bad(f"{what} must be text", "a name of 1 to 40 characters", value)
    if len(value) > 4 * MAX_NAME:  # not worth tidying up: no spacing makes this a name
        raise _bad(f"{what} must be 1 to {MAX_NAME} printable characters", "a short name", value)
    name = " ".join(value.split())
    if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
        raise _bad(f"{what} must be 1 to {MAX_NAME} printable characters", "a short name", value)
    return name


def _rules(preset: str, settings: Mapping[str, Any], seats: int | None) -> Rules:
    try:
        base = get_preset(preset)
    except RulesError as e:
        raise _bad(str(e), f"one of {', '.join(WEB_PRESETS)}", preset) from None
    if base.is_table and "dropping" in settings:
        raise _bad(f"{base.preset} has no dropping", "no dropping setting at a table game", "dropping")
    pairs = {k: v for k, v in settings.items() if k not in ("dropping", "printed_jokers", "difficulty")}
    if "dropping" in settings:
        dropping = settings["dropping"]
        if not isinstance(dropping, bool):
            raise _bad("dropping is true or false", "dropping: true or false", dropping)
        if not dropping:
            pairs["drop_first"] = pairs["drop_middle"] = None
        elif base.drop_first is None:
            pairs["drop_first"], pairs["drop_middle"] = _STANDARD_DROPS
    if "printed_jokers" in settings:
        jokers = settings["printed_jokers"]
        if isinstance(jokers, bool):
            pairs["printed_jokers"] = (base.printed_jokers or 2) if jokers else 0
        else:
            pairs["printed_jokers"] = jokers
    if seats is not None and "players" not in pairs:
        pairs["players"] = seats
    _check_players(base, pairs.get("players"))
    try:
        return apply_settings(base, pairs)
    except RulesError as e:
        raise _bad(str(e), "settings this preset can play", None) from None


def _check_players(base: Rules, asked: object) -> None:
    """A count of seats the preset does not seat, refused in players' words (never clamped)."""
    if isinstance(asked, bool) or not isinstance(asked, int):
        return  # text as --set takes it, or a wrong type: the rules' own sentence
    low, high = base.seat_range
    if not low <= asked <= high:
        title = PRESET_TITLES.get(base.preset, base.preset)
        raise _bad(
            f"{title} seats {low} to {high} players; you asked for {asked}", f"{low} to {high} players", asked
        )


def _seats(raw: object, players: int, difficulty: str, bots: Sequence[str]) -> tuple[NewSeat, ...]:
    if raw is None:
        items: list[Mapping[str, Any]] = [{"kind": "human", "name": "You"}]
        items += [{"kind": "bot"} for _ in range(players - 1)]
    elif isinstance(raw, list):
        if len(raw) != players:  # counted before anything is built from it
            raise _bad(f"{len(raw)} seats for players={players}", f"{players} seats", len(raw))
        items = [_mapping(item, "a seat") for item in raw]
    else:
        raise _bad("seats must be a list", "seats: [{kind, name, bot}, ...]", type(raw).__name__)
    if len(items) != players:
        raise _bad(f"{len(items)} seats for players={players}", f"{players} seats", len(items))
    seats: list[NewSeat] = []
    taken: set[str] = set()
    for i, item in enumerate(items):
        unknown = set(item) - {"kind", "name", "bot"}
        if unknown:
            raise _bad(
                f"seat {i}: unknown field {sorted(unknown)[0]!r}", "kind, name, bot", sorted(unknown)[0]
            )
        kind = item.get("kind", "bot")
        if kind not in ("human", "bot"):
            raise _bad(f"seat {i}: kind is human or bot", "human or bot", kind)
        bot = ""
        if kind == "bot":
            bot = item.get("bot") or difficulty
            if bot not in bots:
                raise _bad(f"seat {i}: unknown bot {bot!r}", f"one of {', '.join(bots)}", bot)
        elif item.get("bot"):
            raise _bad(f"seat {i}: a human seat has no bot", "no bot field on a human seat", item.get("bot"))
        default = f"Player {i + 1}" if kind == "human" else f"Bot {i + 1}"
        name = _name(item["name"], f"seat {i}'s name") if item.get("name") is not None else default
        if name.lower() in taken:
            if item.get("name") is not None:
                raise _bad(f"two seats are called {name}", "a different name for each seat", name)
            name = f"{name} ({bot or kind})"
        taken.add(name.lower())
        seats.append(NewSeat(name, kind, bot))
    return tuple(seats)


def _options(
    raw: Mapping[str, Any], defaults: TableOptions, rules: Rules, *, min_pace: float = 0.0
) -> TableOptions:
    unknown = set(raw) - set(_LIMITS)
    if unknown:
        name = sorted(unknown)[0]
        raise _bad(f"unknown option {name!r}", ", ".join(_LIMITS), name)
    values: dict[str, Any] = defaults.to_dict()
    values["bot_pace"] = max(values["bot_pace"], min_pace)
    if rules.clock is not None:
        values["turn_time"] = float(rules.clock)  # the preset's clock, unless the table sets one
    for key, value in raw.items():
        lo, hi = _LIMITS[key]
        if value is None and key == "turn_time":
            values[key] = None
            continue
        if key == "hints":
            if not isinstance(value, bool):
                raise _bad("hints is true or false", "hints: true or false", value)
            values[key] = value
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
            raise _bad(f"{key} must be a number from {lo:g} to {hi:g}", f"{key}: {lo:g} to {hi:g}", value)
        if key == "away_turns" and not isinstance(value, int):
            raise _bad("away_turns is a whole number", "away_turns: 0 to 100", value)
        if key == "bot_pace" and value < min_pace:
            raise _bad(
                f"a table of bots only moves at most once every {min_pace:g} seconds",
                f"bot_pace: {min_pace:g} to {hi:g} (or a human seat)",
                value,
            )
        values[key] = value
    return TableOptions.from_dict(values)


def _bounded(rules: Rules, bots_only: bool, limits: ServerLimits) -> None:
    """The match is one this server plays: at most ``max_rounds`` rounds, and a table of bots
    only (nobody's game to wait for) no longer than ``bot_max_rounds`` and its preset's own
    pool or target."""
    rounds = rules.rounds
    if rounds is None or rounds > limits.max_rounds:  # None: open-ended, as a points sheet may be
        raise _bad(
            f"rounds={'none' if rounds is None else rounds} is more than this server plays",
            f"rounds: 1 to {limits.max_rounds}",
            rounds,
        )
    if not bots_only:
        return
    if rounds > limits.bot_max_rounds:
        raise _bad(
            f"a table of bots only plays at most {limits.bot_max_rounds} rounds",
            f"rounds: 1 to {limits.bot_max_rounds} (or a human seat)",
            rules.rounds,
        )
    base = PRESETS[rules.preset]
    for name in ("pool_out", "target"):
        value, own = getattr(rules, name), getattr(base, name)
        if own is not None and (value is None or value > own):
            raise _bad(
                f"a table of bots only plays to its preset's {name} ({own}) or less",
                f"{name}: at most {own} (or a human seat)",
                value,
            )


def parse_new_table(
    body: object, defaults: TableOptions, *, allow_seed: bool, limits: ServerLimits | None = None
) -> NewTable:
    """The body of ``POST /api/tables`` as a :class:`NewTable`, or :class:`Refusal` saying why not
    (every count is checked before anything is built from it)."""
    limits = limits or ServerLimits()
    data = _mapping(body, "the body")
    known = {"preset", "settings", "difficulty", "seats", "title", "options", "seed"}
    unknown = set(data) - known
    if unknown:
        name = sorted(unknown)[0]
        raise _bad(f"unknown field {name!r}", ", ".join(sorted(known)), name)
    preset = data.get("preset", "nepali")
    if not isinstance(preset, str):
        raise _bad("preset must be a preset's name", f"one of {', '.join(WEB_PRESETS)}", preset)
    settings = _mapping(data.get("settings"), "settings")
    raw_seats = data.get("seats")
    count = len(raw_seats) if isinstance(raw_seats, Sequence) and not isinstance(raw_seats, str) else None
    if count is not None and not 1 <= count <= MAX_SEATS:
        if preset in PRESETS:  # in the preset's own words: "Rummy 40 seats 2 to 6 players; ..."
            _check_players(PRESETS[preset], count)
        raise _bad(f"{count} seats", f"2 to {MAX_SEATS} seats (the preset's range)", count)
    rules = _rules(preset, settings, count)
    bots = table_bot_names() if rules.is_table else BOT_NAMES
    difficulty = data.get("difficulty", settings.get("difficulty", default_difficulty(rules)))
    if difficulty not in bots:
        family = f" at {rules.preset}" if rules.is_table else ""
        raise _bad(f"unknown difficulty {difficulty!r}{family}", f"one of {', '.join(bots)}", difficulty)
    seats = _seats(raw_seats, rules.players, str(difficulty), bots)
    bots_only = all(seat.kind == "bot" for seat in seats)
    _bounded(rules, bots_only, limits)
    title = data.get("title", "")
    if not isinstance(title, str) or len(title) > 200 or (title and not title.isprintable()):
        raise _bad("title must be printable text of at most 200 characters", "a short title", title)
    seed = data.get("seed")
    if seed is not None:
        if not allow_seed:
            raise _bad("this server deals its own seeds", "no seed field", "seed")
        if not isinstance(seed, str | int) or isinstance(seed, bool) or not 1 <= len(str(seed)) <= 80:
            raise _bad("seed must be a short string or number", "seed: text", seed)
        seed = str(seed)
    min_pace = limits.bot_min_pace if bots_only else 0.0
    options = _options(_mapping(data.get("options"), "options"), defaults, rules, min_pace=min_pace)
    return NewTable(rules.preset, rules, seats, options, title.strip(), seed)
