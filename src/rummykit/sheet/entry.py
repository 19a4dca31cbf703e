"""Entering deals on a score sheet: the words and letters people type, turned into match actions.

The terminal (``rummykit sheet``) and the web page (``/sheets``) take the same entries, one per
player: a number (what the player counts), or W winner, D drop, M middle drop, F full count,
X wrong show, ``-`` out of the pool; a number and a letter together (``80F``) give the number.
Both call the functions here, so an entry means the same thing, and is refused in the same words,
wherever it is typed.  Nothing here reads files or talks HTTP: a refusal is an :class:`EntryError`
naming every problem of the entry, one sentence each (:attr:`EntryError.problems`), and each
action either changes the match completely or raises and leaves it as it was (the
:class:`~rummykit.engine.match.Match` guarantees that).

Settled here:

* **Early show** (where the rules halve after one, :mod:`rummykit.engine.early_show`): the
  scorekeeper marks the winner ``E`` instead of ``W`` and types what the cards say; the sheet
  halves every other entry itself, rounding down: a count (``45`` is charged 22), a letter's
  cost (``D`` is half the drop) and a number with a letter (``80F`` is charged 40).  A count is
  checked against the full count, and a letter's number against its cost, before halving.
  Editing such a deal offers each count doubled back (22 as ``44``), which halves to the same.
* **Wrong show at a table that refuses one** (Nepali): the app's own table never lets a wrong
  show happen, but at a real table "declaring wrong costs you the full count" (seed 000), so a
  sheet of such a preset charges ``X`` the full count unless ``wrong_show`` is set.
* **Points**: a points sheet is open-ended unless ``rounds`` is set (seed 004: "the table plays
  as many deals as it likes"), and says who pays whom (:meth:`Match.settle_up`).
* Sheets stored before these rules (match version 1) read with them: a Nepali sheet that
  refused wrong shows charges the full count, and a points sheet of the preset's one deal is
  open-ended.

A sheet is stored as :func:`sheet_document`: :meth:`Match.to_dict` with a title and a kind
marker; :func:`read_document` reads it back and checks it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from rummykit.engine.early_show import halved
from rummykit.engine.match import (
    EARLY_MARK,
    DealEntry,
    DealRow,
    Match,
    MatchError,
    PointsFormat,
    Standing,
    Status,
    default_charge,
)
from rummykit.engine.numbers import whole_number
from rummykit.engine.rules import Rules, RulesError, apply_settings, get_preset
from rummykit.sheet.render import default_title, rejoin_sentence, settle_up_line, sheet_view

__all__ = [
    "EDITABLE_SETTINGS",
    "HOW_TO_ENTER",
    "LETTERS",
    "SHEET_KIND",
    "EntryError",
    "add_deal",
    "edit_deal",
    "entry_tokens",
    "find_player",
    "new_match",
    "parse_entry",
    "read_document",
    "rejoin",
    "seats_in_last_deal",
    "sheet_defaults",
    "sheet_document",
    "sheet_rules",
    "split_entries",
    "status_text",
    "undo",
]

SHEET_KIND: Final = "rummykit-sheet"  # marks a stored sheet; the rest is Match.to_dict() and a title

LETTERS: Final[Mapping[str, Status]] = {
    "W": Status.WINNER,
    EARLY_MARK: Status.WINNER,  # E: the winner, by an early show (the others' entries are halved)
    "D": Status.DROPPED,
    "M": Status.MIDDLE_DROP,
    "F": Status.FULL_COUNT,
    "X": Status.WRONG_SHOW,
}
_LETTER_OF: Final[Mapping[Status, str]] = {
    status: letter for letter, status in LETTERS.items() if letter != EARLY_MARK
}
_TOKEN: Final = re.compile(r"(?P<number>[+-]?\d{1,9})?(?P<letters>[A-Za-z]*)")
OUT_TOKENS: Final = ("-", "–", "—")
HOW_TO_ENTER: Final = (
    "one entry per player, in seat order: a number for what the player counts, or "
    "W winner, D drop, M middle drop, F full count, X wrong show, - out "
    "(letters take their numbers from the rules; E instead of W marks an early show where the "
    "rules halve the others' charges, and the sheet halves them)"
)
# The settings a new sheet may change from its preset: the pre-filled costs of the one-tap
# entries, and the match's length and money.  The rest of a preset (how cards count) is the
# table's business, not the sheet's, which only adds up the numbers people type.
EDITABLE_SETTINGS: Final = (
    "drop_first",
    "drop_middle",
    "full_count",
    "wrong_show",
    "point_value",
    "rounds",
    "max_rejoins",
)


class EntryError(ValueError):
    """An entry or action the sheet refuses: ``problems`` names every problem, one sentence each
    (the message joins them with ``; ``)."""

    def __init__(self, problems: str | Sequence[str]) -> None:
        self.problems: tuple[str, ...] = (problems,) if isinstance(problems, str) else tuple(problems)
        super().__init__("; ".join(self.problems))


def _refused(e: MatchError) -> EntryError:
    return EntryError(e.reasons)


# ---- making and storing a sheet ----------------------------------------------------------------


def sheet_rules(preset: str, settings: Mapping[str, object] | None = None) -> Rules:
    """The rules of a new sheet: ``preset`` with ``settings`` (text such as ``"25"`` or
    ``"none"``, or native values) among :data:`EDITABLE_SETTINGS`."""
    changes = dict(settings or {})
    others = [name for name in changes if name.replace("-", "_") not in EDITABLE_SETTINGS]
    if others:
        raise EntryError(
            f"a sheet cannot change {', '.join(sorted(others))}: it may change {', '.join(EDITABLE_SETTINGS)}"
        )
    try:
        rules = apply_settings(get_preset(preset), changes)
        return sheet_defaults(rules, {name.replace("-", "_") for name in changes})
    except RulesError as e:
        raise EntryError(str(e)) from None


def sheet_defaults(rules: Rules, changed: set[str]) -> Rules:
    """What a real table's sheet does where the app's table differs (the module's notes): a points
    sheet is open-ended, and a wrong show the app would refuse costs the full count; a setting
    named in ``changed`` (the sheet's maker set it) is kept as it is."""
    updates: dict[str, object] = {}
    if rules.format == "points" and "rounds" not in changed:
        updates["rounds"] = None
    if rules.wrong_show is None and "wrong_show" not in changed and rules.full_count is not None:
        updates["wrong_show"] = rules.full_count
    return rules.replace(**updates) if updates else rules


def new_match(rules: Rules, players: Sequence[str] | int, *, dealer: str | None = None) -> Match:
    """An empty sheet for ``players`` (names in seat order, or how many, named ``seat 1`` …);
    ``dealer`` (a name or a seat number from 1) deals the first deal."""
    try:
        if isinstance(players, int):
            match = Match.new(rules, players)
        else:
            match = Match.new(rules, len(players), list(players))
        if dealer:
            match = Match(rules, match.players, match.names, find_player(match, dealer))
    except MatchError as e:
        raise _refused(e) from None
    return match


def sheet_document(match: Match, title: str | None) -> dict[str, Any]:
    """What a stored sheet holds: :meth:`Match.to_dict` (rules, names, deals, rejoins) and a title."""
    return {"kind": SHEET_KIND, "title": title or default_title(match), **match.to_dict()}


def read_document(data: object) -> tuple[Match, str]:
    """The match and title :func:`sheet_document` stored; an :class:`EntryError` names what is wrong
    (the caller says where the data came from)."""
    if not isinstance(data, dict) or data.get("kind") != SHEET_KIND:
        raise EntryError("is not a score sheet made by rummykit sheet new")
    if data.get("version") == 1:
        data = _sheet_from_version_1(data)
    try:
        match = Match.from_dict(data)
    except MatchError as e:
        raise _refused(e) from None
    title = data.get("title")
    return match, title if isinstance(title, str) and title.strip() else default_title(match)


def _sheet_from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """A sheet stored before a wrong show the app refuses cost the full count and before points
    sheets were open-ended, with those defaults (the module's notes); the rest as stored."""
    stored = data.get("rules")
    if not isinstance(stored, dict) or not isinstance(stored.get("settings"), dict):
        return data  # Match.from_dict says what is wrong with it
    try:
        preset = get_preset(str(stored.get("preset")))
    except RulesError:
        return data
    settings = dict(stored["settings"])
    if preset.wrong_show is None and settings.get("wrong_show") is None and settings.get("full_count"):
        settings["wrong_show"] = settings["full_count"]
    if settings.get("format") == "points" and settings.get("rounds") == preset.rounds:
        settings["rounds"] = None
    return {**data, "rules": {**stored, "settings": settings}}


# ---- entries -------------------------------------------------------------------------------------


def split_entries(parts: Sequence[str]) -> list[str]:
    """Entries from arguments or a typed line: separated by spaces or commas."""
    return [token for part in parts for token in re.split(r"[\s,]+", part) if token]


def _token(token: str, name: str) -> tuple[int | None, Status, bool, bool]:
    """One player's entry: (number or None, status, marked winner, marked early show)."""
    token = token.strip()
    if token in OUT_TOKENS:
        return None, Status.OUT, False, False
    if not token:
        raise EntryError(f"{name}: nothing entered: type what {name} counts, or W D M F X")
    found = _TOKEN.fullmatch(token)
    letters = found["letters"].upper() if found else ""
    if not found or not (found["number"] or letters) or any(letter not in LETTERS for letter in letters):
        raise EntryError(f"{name}: {token!r} is not a number or one of W E D M F X -")
    number = int(found["number"]) if found["number"] else None
    early = EARLY_MARK in letters
    rest = letters.replace(EARLY_MARK, "", 1) if early else letters
    won = early or "W" in rest
    rest = rest.replace("W", "", 1)
    # One letter a player (W with E is one: the early show's winner).  W with D or M is let
    # through so that the match refuses a dropped winner in its own words; any other pair is two
    # endings of one deal.
    if len(rest) > 1 or (won and rest not in ("", "D", "M")) or EARLY_MARK in rest:
        raise EntryError(f"{name}: {token!r} has more than one letter; give each player one")
    if rest:
        return number, LETTERS[rest], won, early
    return number, Status.WINNER if won else Status.PLAYED, won, early


class _Draft:
    """An entry as typed: the deal it makes (every unreadable part set to nothing at all, so the
    rest can still be checked), the problems found reading it, and whether a winner was marked."""

    def __init__(self, entry: DealEntry | None, problems: list[str], winner_known: bool) -> None:
        self.entry, self.problems, self.winner_known = entry, problems, winner_known


def _draft(match: Match, tokens: Sequence[str], seats_in: Sequence[int]) -> _Draft:
    names, rules = match.names, match.rules
    if len(tokens) == match.players:
        seats: list[int] = list(range(match.players))
    elif len(tokens) == len(seats_in) < match.players:
        seats = list(seats_in)
    else:
        expected = f"{match.players} entries (one per player: {', '.join(names)})"
        if len(seats_in) < match.players:
            listed = ", ".join(names[seat] for seat in seats_in)
            expected += f" or {len(seats_in)} (one per player still in: {listed})"
        return _Draft(None, [f"a deal needs {expected}, got {len(tokens)}"], False)
    problems: list[str] = []
    typed: dict[int, tuple[int | None, Status]] = {seat: (None, Status.OUT) for seat in range(match.players)}
    winners: list[int] = []
    early = False
    for seat, token in zip(seats, tokens, strict=True):
        try:
            number, status, won, marked = _token(token, names[seat])
        except EntryError as e:
            problems += e.problems
            # nothing at all: a count of 0 for a player in, out for a player out
            typed[seat] = (0, Status.PLAYED if seat in match.seats_in else Status.OUT)
            continue
        typed[seat] = (number, status)
        early = early or marked
        if won:
            winners.append(seat)
    if not winners:
        problems.append("no winner: mark the player who won the deal with W (E for an early show)")
    winner = winners[0] if winners else -1
    charges: list[int | None] = []
    statuses: dict[int, Status] = {}
    for seat, (number, status) in typed.items():
        statuses[seat] = status
        if number is None and default_charge(status, rules) is None:
            # A letter the rules have no number for (no dropping, no cap, wrong shows refused):
            # enter 0, so that the match says what is wrong with it in its own words.
            number = 0
        if early and number is not None and seat != winner:
            number = _halve_typed(number, status, rules, names[seat], problems)
        charges.append(number)
    try:
        entry = match.entry(charges, winner, statuses, early)
    except MatchError as e:
        return _Draft(None, [*problems, *e.reasons], False)
    return _Draft(entry, problems, bool(winners))


def _halve_typed(number: int, status: Status, rules: Rules, name: str, problems: list[str]) -> int:
    """A number typed for a seat of an early show, halved; checked first as typed (a count against
    the full count, a letter's number against its cost), so a refusal names what was typed."""
    full = rules.full_count
    cost = default_charge(status, rules) if status not in (Status.PLAYED, Status.OUT) else None
    if status is Status.PLAYED and full is not None and number > full:
        problems.append(f"{name}'s count {number} is above the full count {full}")
        return 0
    if cost is not None and number != cost:
        word = {Status.DROPPED: "a drop", Status.MIDDLE_DROP: "a middle drop"}.get(status, "it")
        problems.append(
            f"{name}: {number}{_LETTER_OF[status]} is not {cost}, what {word} costs here "
            f"(the early show halves it to {halved(cost)})"
        )
        return halved(cost)
    return halved(number)


def parse_entry(match: Match, tokens: Sequence[str], seats_in: Sequence[int]) -> DealEntry:
    """The deal ``tokens`` describe for ``match`` (not yet validated: add or replace does that).

    ``seats_in`` are the seats playing the deal; when ``tokens`` has one entry per seat in and
    some seats are out, the out seats are filled in.  An :class:`EntryError` names every token
    that cannot be read.
    """
    draft = _draft(match, tokens, seats_in)
    if draft.problems or draft.entry is None:
        raise EntryError(draft.problems)
    return draft.entry


def entry_tokens(match: Match, entry: DealEntry) -> list[str]:
    """The tokens that enter ``entry`` again (one per seat, ``-`` for a seat out): what an edit of
    the last deal starts from.  A letter stands alone when its number is the pre-filled one."""
    tokens: list[str] = []
    for seat, (charge, status) in enumerate(zip(entry.charges, entry.statuses, strict=True)):
        cost = default_charge(status, match.rules)
        if entry.early and seat != entry.winner:
            # typed numbers of an early show are halved when entered: give back one that halves to it
            cost = None if cost is None else halved(cost)
            typed = 2 * charge
        else:
            typed = charge
        if status is Status.OUT:
            tokens.append("-")
        elif status is Status.PLAYED:
            tokens.append(str(typed))
        elif status is Status.WINNER and entry.early:
            tokens.append(EARLY_MARK if charge == cost else f"{charge}{EARLY_MARK}")
        else:
            letter = _LETTER_OF[status]
            tokens.append(letter if charge == cost else f"{typed}{letter}")
    return tokens


def seats_in_last_deal(match: Match) -> list[int]:
    """The seats that played the latest deal: what an edit of it is entered for."""
    if not match.rows:
        raise EntryError("nothing to edit: no deals yet")
    statuses = match.rows[-1].entry.statuses
    return [seat for seat, status in enumerate(statuses) if status is not Status.OUT]


def find_player(match: Match, text: str) -> int:
    """The seat called ``text``: a name (exactly, else in any case) or a seat number from 1."""
    if text.strip() in match.names:
        return match.names.index(text.strip())  # "Asha" and "asha" may both play
    wanted = text.strip().casefold()
    for seat, name in enumerate(match.names):
        if name.casefold() == wanted:
            return seat
    number = whole_number(wanted, 1, match.players)
    if number is not None:
        return number - 1
    raise EntryError(f"no player {text!r} (players: {', '.join(match.names)})")


# ---- what the sheet says after a change ------------------------------------------------------


def status_text(match: Match) -> str:
    """Where the sheet stands, in a few lines: totals with outs and compel, money, what is next."""
    fmt = match.format
    cells = []
    for seat, name in enumerate(match.names):
        cell = f"{name} {fmt.show_total(match.totals[seat])}"
        standing = match.standing(seat)
        if standing is not Standing.IN:
            cell += f" ({standing.value})"
        cells.append(cell)
    head = f"After deal {len(match.rows)}" if match.rows else "Totals"
    lines = [f"{head}: {', '.join(cells)}"]
    if isinstance(fmt, PointsFormat):
        money = ", ".join(f"{name} {match.money(seat)}" for seat, name in enumerate(match.names))
        lines.append(f"Money (x {match.rules.point_value}): {money}")
    settle = settle_up_line(match)
    if settle:
        lines.append(settle)
    view = sheet_view(match)
    lines.append(view.result)
    if view.offers:
        lines.append(view.offers)
    return "\n".join(lines)


# ---- the actions -----------------------------------------------------------------------------


def add_deal(match: Match, tokens: Sequence[str]) -> DealRow:
    """Parse and add the next deal; refused with every problem, the entry's and the match's."""
    draft = _draft(match, tokens, match.seats_in)
    if draft.entry is not None:
        draft.problems += match.check(draft.entry, winner_known=draft.winner_known)
    if draft.problems or draft.entry is None:
        raise EntryError(draft.problems)
    try:
        return match.add_deal(draft.entry)
    except MatchError as e:
        raise _refused(e) from None


def edit_deal(match: Match, tokens: Sequence[str]) -> DealRow:
    """Replace the latest deal with the one ``tokens`` describe; refused with every problem."""
    draft = _draft(match, tokens, seats_in_last_deal(match))
    if draft.entry is not None:
        draft.problems += match.check_last(draft.entry, winner_known=draft.winner_known)
    if draft.problems or draft.entry is None:
        raise EntryError(draft.problems)
    try:
        return match.replace_last(draft.entry)
    except MatchError as e:
        raise _refused(e) from None


def undo(match: Match) -> str:
    """Undo the latest deal or rejoin; the sentence saying which."""
    try:
        undone = match.undo_last()
    except MatchError as e:
        raise _refused(e) from None
    if isinstance(undone, DealRow):
        return f"Undid deal {undone.index + 1}."
    return f"Undid {match.names[undone.seat]}'s rejoin at {undone.total}."


def rejoin(match: Match, who: str) -> str:
    """Rejoin the player called ``who``; refused with the reason."""
    seat = find_player(match, who)
    name = match.names[seat]
    verdict = match.can_rejoin(seat)
    if not verdict:
        reason = verdict.reason.removeprefix("no rejoin: ")
        raise EntryError(f"{name} cannot rejoin: {reason}")
    return rejoin_sentence(match, match.rejoin(seat)) + "."
