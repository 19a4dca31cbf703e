"""Entering deals on a score sheet: the words and letters people type, turned into match actions.

The terminal (``rummykit sheet``) and the web page (``/sheets``) take the same entries, one per
player: a number (what the player counts), or W winner, D drop, M middle drop, F full count,
X wrong show, ``-`` out of the pool; a number and a letter together (``10D``) give the number.
Both call the functions here, so an entry means the same thing, and is refused in the same words,
wherever it is typed.  Nothing here reads files or talks HTTP: a refusal is an :class:`EntryError`
whose message is one sentence for a person, and each action either changes the match completely
or raises and leaves it as it was (the :class:`~rummykit.engine.match.Match` guarantees that).

A sheet is stored as :func:`sheet_document`: :meth:`Match.to_dict` with a title and a kind
marker; :func:`read_document` reads it back and checks it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from rummykit.engine.match import (
    DealEntry,
    DealRow,
    Match,
    MatchError,
    PointsFormat,
    Standing,
    Status,
    default_charge,
)
from rummykit.engine.rules import Rules, RulesError, apply_settings, get_preset
from rummykit.sheet.render import default_title, rejoin_sentence, sheet_view

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
    "sheet_document",
    "sheet_rules",
    "split_entries",
    "status_text",
    "undo",
]

SHEET_KIND: Final = "rummykit-sheet"  # marks a stored sheet; the rest is Match.to_dict() and a title

LETTERS: Final[Mapping[str, Status]] = {
    "W": Status.WINNER,
    "D": Status.DROPPED,
    "M": Status.MIDDLE_DROP,
    "F": Status.FULL_COUNT,
    "X": Status.WRONG_SHOW,
}
_LETTER_OF: Final[Mapping[Status, str]] = {status: letter for letter, status in LETTERS.items()}
_TOKEN: Final = re.compile(r"(?P<number>[+-]?\d{1,9})?(?P<letters>[A-Za-z]*)")
OUT_TOKENS: Final = ("-", "–", "—")
HOW_TO_ENTER: Final = (
    "one entry per player, in seat order: a number for what the player counts, or "
    "W winner, D drop, M middle drop, F full count, X wrong show, - out "
    "(letters take their numbers from the rules; 10D gives a drop its own number)"
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
    """An entry or action the sheet refuses; the message names the problem in one sentence."""


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
        return apply_settings(get_preset(preset), changes)
    except RulesError as e:
        raise EntryError(str(e)) from None


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
        raise EntryError(str(e)) from None
    return match


def sheet_document(match: Match, title: str | None) -> dict[str, Any]:
    """What a stored sheet holds: :meth:`Match.to_dict` (rules, names, deals, rejoins) and a title."""
    return {"kind": SHEET_KIND, "title": title or default_title(match), **match.to_dict()}


def read_document(data: object) -> tuple[Match, str]:
    """The match and title :func:`sheet_document` stored; an :class:`EntryError` names what is wrong
    (the caller says where the data came from)."""
    if not isinstance(data, dict) or data.get("kind") != SHEET_KIND:
        raise EntryError("is not a score sheet made by rummykit sheet new")
    try:
        match = Match.from_dict(data)
    except MatchError as e:
        raise EntryError(str(e)) from None
    title = data.get("title")
    return match, title if isinstance(title, str) and title.strip() else default_title(match)


# ---- entries -------------------------------------------------------------------------------------


def split_entries(parts: Sequence[str]) -> list[str]:
    """Entries from arguments or a typed line: separated by spaces or commas."""
    return [token for part in parts for token in re.split(r"[\s,]+", part) if token]


def _token(token: str, name: str) -> tuple[int | None, Status, bool]:
    """One player's entry: (number or None, status, marked winner)."""
    token = token.strip()
    if token in OUT_TOKENS:
        return None, Status.OUT, False
    if not token:
        raise EntryError(f"{name}: nothing entered: type what {name} counts, or W D M F X")
    found = _TOKEN.fullmatch(token)
    letters = found["letters"].upper() if found else ""
    if not found or not (found["number"] or letters) or any(letter not in LETTERS for letter in letters):
        raise EntryError(f"{name}: {token!r} is not a number or one of W D M F X -")
    number = int(found["number"]) if found["number"] else None
    won = "W" in letters
    rest = letters.replace("W", "", 1)
    # One letter a player.  W with D or M is let through so that the match refuses a dropped
    # winner in its own words; any other pair is two endings of one deal.
    if len(rest) > 1 or (won and rest not in ("", "D", "M")):
        raise EntryError(f"{name}: {token!r} has more than one letter; give each player one")
    if rest:
        return number, LETTERS[rest], won
    return number, Status.WINNER if won else Status.PLAYED, won


def parse_entry(match: Match, tokens: Sequence[str], seats_in: Sequence[int]) -> DealEntry:
    """The deal ``tokens`` describe for ``match`` (not yet validated: add or replace does that).

    ``seats_in`` are the seats playing the deal; when ``tokens`` has one entry per seat in and
    some seats are out, the out seats are filled in.
    """
    names = match.names
    if len(tokens) == match.players:
        seats: list[int] = list(range(match.players))
    elif len(tokens) == len(seats_in) < match.players:
        seats = list(seats_in)
    else:
        expected = f"{match.players} entries (one per player: {', '.join(names)})"
        if len(seats_in) < match.players:
            listed = ", ".join(names[seat] for seat in seats_in)
            expected += f" or {len(seats_in)} (one per player still in: {listed})"
        raise EntryError(f"a deal needs {expected}, got {len(tokens)}")
    charges: list[int | None] = [None] * match.players
    statuses: dict[int, Status] = {seat: Status.OUT for seat in range(match.players)}
    winners: list[int] = []
    for seat, token in zip(seats, tokens, strict=True):
        number, status, won = _token(token, names[seat])
        charges[seat], statuses[seat] = number, status
        if won:
            winners.append(seat)
    if not winners:
        raise EntryError("no winner: mark the player who won the deal with W")
    for seat, status in statuses.items():
        if charges[seat] is None and default_charge(status, match.rules) is None:
            # A letter the rules have no number for (no dropping, no cap, wrong shows refused):
            # enter 0, so that the match says what is wrong with it in its own words.
            charges[seat] = 0
    try:
        return match.entry(charges, winners[0], statuses)
    except MatchError as e:
        raise EntryError(str(e)) from None


def entry_tokens(match: Match, entry: DealEntry) -> list[str]:
    """The tokens that enter ``entry`` again (one per seat, ``-`` for a seat out): what an edit of
    the last deal starts from.  A letter stands alone when its number is the pre-filled one."""
    tokens: list[str] = []
    for charge, status in zip(entry.charges, entry.statuses, strict=True):
        if status is Status.OUT:
            tokens.append("-")
        elif status is Status.PLAYED:
            tokens.append(str(charge))
        else:
            letter = _LETTER_OF[status]
            tokens.append(letter if charge == default_charge(status, match.rules) else f"{charge}{letter}")
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
    if wanted.isascii() and wanted.isdigit() and 1 <= int(wanted) <= match.players:
        return int(wanted) - 1
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
    view = sheet_view(match)
    lines.append(view.result)
    if view.offers:
        lines.append(view.offers)
    return "\n".join(lines)


# ---- the actions -----------------------------------------------------------------------------


def add_deal(match: Match, tokens: Sequence[str]) -> DealRow:
    """Parse and add the next deal; refused with every problem in one line."""
    entry = parse_entry(match, tokens, match.seats_in)
    try:
        return match.add_deal(entry)
    except MatchError as e:
        raise EntryError(str(e)) from None


def edit_deal(match: Match, tokens: Sequence[str]) -> DealRow:
    """Replace the latest deal with the one ``tokens`` describe."""
    entry = parse_entry(match, tokens, seats_in_last_deal(match))
    try:
        return match.replace_last(entry)
    except MatchError as e:
        raise EntryError(str(e)) from None


def undo(match: Match) -> str:
    """Undo the latest deal or rejoin; the sentence saying which."""
    try:
        undone = match.undo_last()
    except MatchError as e:
        raise EntryError(str(e)) from None
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
