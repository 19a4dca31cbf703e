"""Hand histories: a deal's event log as readable, versioned text, and replay from it.

A hand history is plain UTF-8 text, one item a line, that a person reads at a
glance and a diff shows line by line.  It holds what it takes to deal the same
cards again (the rules, the seed, the dealer), the hands as dealt (so a person
reads the deal without the program), every event of the deal in its text form
(:meth:`rummykit.engine.events.Event.text`), and the result, so a reader
follows the play and :func:`replay` rebuilds the deal and checks every line
against what the engine does.  ``docs/hand-history.md`` says the same at
more length.

A three-seat Nepali deal, played to the end:

>>> from rummykit.engine.cards import parse_card
>>> from rummykit.engine.show import ShowDeal
>>> from rummykit.engine.events import Action
>>> from rummykit.engine.rules import get_preset
>>> deal = ShowDeal(get_preset("nepali", players=3), 261)
>>> for seat, action in [
...     (1, Action.draw_stock()), (1, Action.throw(parse_card("As"))), (2, Action.drop()),
...     (0, Action.draw_pile()), (0, Action.show(parse_card("7d"))),
... ]:
...     _ = deal.apply(seat, action)
>>> text = dump(deal, names=["Asha", "Bikash", "Chandra"], match={"id": "m-17", "deal": 1})
>>> print(text, end="")
# rummykit hand history 1.2
rules nepali
seed 261
dealer 0
seats 3
name 0 Asha
name 1 Bikash
name 2 Chandra
match id=m-17
match deal=1
hand 0 5s 6s 7s 10s Js Ks 7d 10d Ac 4c 10c 10c Kc
hand 1 As 2s 7s 8s Ks Kh 3d 4d Qd 3c 7c Jc Kc
hand 2 9s 6h Qh Ad 2d 3d 6d 9d Kd Kd 2c 5c 8c
wild 10
<BLANKLINE>
0 deal pile 4h cut 10d
1 draw stock
1 throw As
2 drop 20
0 take As
0 show 7d: 5s 6s 7s | Js 10c Ks As | 10d 10s 4c | 10c Kc Ac
<BLANKLINE>
0 wins (show): 0 80 20
seat 0 won, charge 0: 5s 6s 7s | Js 10c Ks As | 10d 10s 4c | 10c Kc Ac
seat 1 in, charge 80: 10h 7s 8s | Ks Kh Kc; loose 2s 3d 4d Qd 3c 7c Jc
seat 2 dropped, charge 20
end
>>> replay(text).events == deal.events
True

**Header.**  The first line is ``# rummykit hand history MAJOR.MINOR``.  Then,
in any order: ``rules PRESET``; ``set KEY=VALUE`` for each setting that
differs from the preset at this many seats (RULES.md's names and values);
``seed N`` or ``seed "TEXT"`` (a string seed in JSON quotes, since ``7`` and
``"7"`` shuffle differently); ``dealer SEAT``; ``seats N`` (the ``players``
setting); ``cap N`` only when the deal's turn cap is not the engine's 2000;
and, optionally, ``name SEAT NAME`` and ``match KEY=VALUE`` (context such as
the match id and the deal number).  Format 1.2 adds the deal as dealt:
``hand SEAT CARDS`` for every seat (its cards as dealt, sorted) and, at a
table with a cut joker, ``wild RANK`` (the rank the cut makes wild, or
``none``).  ``set``, ``name``, ``match`` and ``hand`` repeat; the others appear
once.

**Events.**  The body starts at the deal line and has one line per event, in
order: ``DEALER deal pile CARD[ cut CARD]`` (``DEALER deal`` where no card is
turned up at the deal: Remi 51, format 1.2), ``SEAT draw stock`` (the card
stays private), ``SEAT take CARD``, ``SEAT throw CARD``, ``SEAT drop COST``,
``SEAT show CARD: GROUP | GROUP | ...``, ``SEAT wrong show CARD: REASON``, and
the table's ``stock rebuilt: N cards``.  A show replays as the layout its line
prints, whoever laid it out; one whose groups the seat declared itself ends in
`` [declared]``.  A wrong show the seat declared ends in
`` [declared: GROUP | ...]``, its groups (the reason alone does not give them).

The table family (format 1.1): ``SEAT open MELD | MELD ... (POINTS)``,
``SEAT lay down MELD``, ``SEAT lay off ID CARDS`` (onto the meld numbered ID,
1, 2, ... in the order melds went down), ``SEAT swap ID CARD`` (the card takes
the joker's slot; the joker comes to the hand) and ``SEAT put back``.  A meld
is printed as it lies, runs low to high with every joker in its slot, and a
replay lays it down in that order, so it lands the same.

**Result.**  A finished deal's history then has the end of the deal
(``WINNER wins (ENDING): CHARGE CHARGE ...``, a charge a seat, with
``(ENDING, doubled)`` for the table family's doubled deals) and one line a
seat: ``seat N STATUS, charge C`` with STATUS ``won``, ``in``, ``dropped`` or
``wrong show``; ``(hand N)`` for a seat's counted hand where its charge is
something else (a winner at a turn limit or a blocked table deal, Remi 51's
winner, a doubled hand), ``(halved from N)`` for a charge an early show halved (a
count, a drop or a wrong show's penalty);
and after ``:`` the cards the end made public, as groups and ``loose`` cards.
Remi 51's winner is charged -20 or -40.  An unfinished deal's history has no
result: it replays to the same unfinished state.

**End.**  The last line is ``end``: a history without it is cut short.  Blank
lines and lines starting with ``#`` are comments anywhere before ``end``;
nothing but blank lines may follow it.  Cards are in the canonical text of
:mod:`rummykit.engine.cards`.

The seed deals every hand and orders the stock, so a history tells all the
cards of the deal to whoever replays it: keep a live deal's history from the
players until the deal is over.

**Versions.**  A minor version only adds: header lines that a reader may skip
without changing the replay, and new kinds of lines (1.1: the table family;
1.2: the dealt hands, the deal line without a pile card, the settings
``pile_at_deal`` and ``freed_joker_must_go_down``).  :func:`dump` writes the
oldest version that has every line the history holds, which now is 1.2 (every
history has the dealt hands; an older reader skips those header lines).  A
reader reads every minor version of its own major; in a history newer than
itself it skips header lines it does not know and refuses an event line it does
not know as needing a newer rummykit; in its own version or older, a line that
version does not have is corruption.  A setting newer than a history was not
a setting when the history was written: its deal was played with the value
every table had then (:data:`rummykit.engine.rules.LEGACY_VALUES`, so an older
Remi 51 history was dealt with a pile card and owed its freed jokers).  A
changed line is a new major version, and a reader refuses a newer major
version, saying so.

:func:`load` refuses anything malformed with :class:`HistoryError`, which
names the line.  :func:`replay` deals from the seed, checks the dealt hands and
the wild rank the history gives against the deal, and applies every recorded
action through the engine's checked actions; after each one the event the
engine made must have exactly the recorded text, and at the end the result
lines must be the engine's.  It returns the whole replayed deal or raises: a
caller never sees a half-replayed one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Final

from rummykit.engine.arrange import Arranger
from rummykit.engine.cards import RANK_TEXT, CardError, format_cards, parse_card, parse_cards
from rummykit.engine.deal import new_deal
from rummykit.engine.deal_base import TURN_CAP, Deal, IllegalAction
from rummykit.engine.events import (
    Action,
    DealEnded,
    DealResult,
    Dealt,
    Ending,
    Event,
    Groups,
    Phase,
    SeatResult,
    SeatStatus,
    Showed,
    WrongShow,
)
from rummykit.engine.rules import (
    LEGACY_VALUES,
    Rules,
    RulesError,
    format_setting,
    get_preset,
    parse_setting,
)

__all__ = [
    "ACTION_LINES",
    "FORMAT_VERSION",
    "TABLE_LINES",
    "Entry",
    "History",
    "HistoryError",
    "Line",
    "LineKind",
    "RecordedHand",
    "RecordedResult",
    "RecordedWild",
    "changed_settings",
    "dump",
    "load",
    "replay",
    "result_lines",
]

FORMAT_MAJOR: Final = 1
FORMAT_MINOR: Final = 2
# The first minor version of each family's histories: a history is written in the oldest
# version that has all its lines, so older readers keep replaying what they can.
_FAMILY_MINOR: Final = {"show": 0, "table": 1}
# The minor version that has the dealt hands (``hand`` and ``wild`` lines): every history
# written now has them, so it is at least this version.
_DEALT_MINOR: Final = 2
# Settings newer than format 1.0, by the minor version that added them: a history older than
# that has no set line for one, and its deal was played with the setting's LEGACY_VALUES.
_SETTINGS_SINCE: Final = MappingProxyType({"pile_at_deal": 2, "freed_joker_must_go_down": 2})
_NO_PILE_MINOR: Final = 2  # the deal line without a pile card
FORMAT_VERSION: Final = f"{FORMAT_MAJOR}.{FORMAT_MINOR}"
MAGIC: Final = "# rummykit hand history"
END: Final = "end"


class HistoryError(ValueError):
    """A hand history that cannot be read or does not replay; ``line`` is 1-based."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


# ---------------------------------------------------------------------------- what load returns


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a history: its number (1-based) and its text."""

    number: int
    text: str


@dataclass(frozen=True, slots=True)
class Entry:
    """One event line: the event's text as recorded and, for a seat's action, what to apply.

    ``text`` leaves out a line's note (``[declared ...]``), so it is exactly the event's text.
    ``seat`` is the seat the event names (the dealer for the deal line, ``None`` for a stock
    rebuild); ``action`` is ``None`` for the table's own events (the deal, a stock rebuild).
    """

    number: int
    text: str
    seat: int | None
    action: Action | None


@dataclass(frozen=True, slots=True)
class RecordedHand:
    """A ``hand SEAT CARDS`` line: the cards a seat was dealt (kinds, as written)."""

    number: int
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RecordedWild:
    """A ``wild RANK`` line: the rank the cut card makes wild (``None``: no rank, only the
    printed jokers, as when a printed joker is cut at Maharashtra)."""

    number: int
    rank: int | None


@dataclass(frozen=True, slots=True)
class RecordedResult:
    """The result lines of a finished deal's history."""

    number: int  # the line of ``text``
    text: str  # the deal's end, e.g. ``1 wins (show): 0 14 41 80``
    winner: int
    ending: Ending
    charges: tuple[int, ...]
    seats: tuple[Line, ...]  # one ``seat N ...`` line per seat, in seat order
    doubled: bool = False  # table family: ``(ENDING, doubled)``


@dataclass(frozen=True, slots=True)
class History:
    """A hand history as read by :func:`load`: what to deal, what happened, and how it ended."""

    version: tuple[int, int]
    rules: Rules
    seed: int | str
    dealer: int
    turn_cap: int
    names: tuple[str, ...]  # one a seat, "" for a seat without a name
    match: Mapping[str, str]
    entries: tuple[Entry, ...]
    result: RecordedResult | None  # None: the deal was not over
    end: int  # the line of ``end``
    rules_line: int  # the ``rules`` line, for errors about the rules as a whole
    # the dealt hands (1.2): one a seat, in seat order, or () in an older history
    hands: tuple[RecordedHand, ...] = ()
    wild: RecordedWild | None = None  # the ``wild`` line (cut-joker tables, 1.2)

    @property
    def actions(self) -> int:
        """How many seat actions the history records."""
        return sum(1 for e in self.entries if e.action is not None)

    @property
    def finished(self) -> bool:
        return self.result is not None


# ---------------------------------------------------------------------------- event lines

# An action line is ``SEAT`` then one of these; a new kind of action is one more entry.
# ``note`` is the part of a line that is not the event's text; ``build`` turns a match into the
# action (CardError: a bad card); ``since`` is the minor version that added the line.


@dataclass(frozen=True, slots=True)
class LineKind:
    """One kind of event line: its pattern and, for a seat's action, how the line becomes it."""

    name: str
    pattern: re.Pattern[str]
    build: Callable[[re.Match[str]], Action] | None  # None: the table's own event, not an action
    since: int = 0  # the minor version of format 1 that has this line


def _kind(
    name: str, pattern: str, build: Callable[[re.Match[str]], Action] | None = None, since: int = 0
) -> LineKind:
    return LineKind(name, re.compile(pattern), build, since)


_NOTE: Final = " [declared"


def _groups(text: str) -> Groups:
    return tuple(tuple(parse_cards(g)) for g in text.split("|"))


def _show(m: re.Match[str]) -> Action:
    card = parse_card(m["card"])
    groups = _groups(m["groups"])
    if m["note"]:
        return Action.show(card, groups)
    # The table laid it out: replay that very layout, not whatever the arranger gives today.
    return Action.show(card, layout=groups)


def _wrong_show(m: re.Match[str]) -> Action:
    declared = m["declared"]
    return Action.show(parse_card(m["card"]), None if declared is None else _groups(declared))


def _throw(m: re.Match[str]) -> Action:
    return Action.throw(parse_card(m["card"]))


def _take(m: re.Match[str]) -> Action:
    parse_card(m["card"])  # which card the replay checks; a line naming no card is refused here
    return Action.draw_pile()


# The table family's melds are printed as they lie (runs low to high, jokers in their slots),
# and the engine keeps a meld given in that order as it is: the line is the whole action.


def _open(m: re.Match[str]) -> Action:
    return Action.open(_groups(m["groups"]))


def _lay_down(m: re.Match[str]) -> Action:
    return Action.lay_down(parse_cards(m["cards"]))


def _lay_off(m: re.Match[str]) -> Action:
    return Action.lay_off(int(m["meld"]), parse_cards(m["cards"]))


def _swap(m: re.Match[str]) -> Action:
    return Action.swap(int(m["meld"]), parse_card(m["card"]))


_SEAT: Final = r"(?P<seat>\d+) "
_CARD: Final = r"(?P<card>\S+)"
_MELD: Final = r"(?P<meld>\d{1,9})"

ACTION_LINES: Final[tuple[LineKind, ...]] = (
    _kind("draw stock", _SEAT + r"draw stock", lambda m: Action.draw_stock()),
    _kind("take", _SEAT + r"take " + _CARD, _take),
    _kind("throw", _SEAT + r"throw " + _CARD, _throw),
    _kind("drop", _SEAT + r"drop \d+", lambda m: Action.drop()),
    _kind("show", _SEAT + r"show " + _CARD + r": (?P<groups>.+?)(?P<note> \[declared\])?", _show),
    _kind(
        "wrong show",
        _SEAT + r"wrong show " + _CARD + r": .+?(?P<note> \[declared: (?P<declared>[^\]]+)\])?",
        _wrong_show,
    ),
    # the table family (Rummy 40, Remi 51), format 1.1
    _kind("open", _SEAT + r"open (?P<groups>.+) \(\d+\)", _open, since=1),
    _kind("lay down", _SEAT + r"lay down (?P<cards>.+)", _lay_down, since=1),
    _kind("lay off", _SEAT + r"lay off " + _MELD + r" (?P<cards>.+)", _lay_off, since=1),
    _kind("swap", _SEAT + r"swap " + _MELD + " " + _CARD, _swap, since=1),
    _kind("put back", _SEAT + r"put back", lambda m: Action.put_back(), since=1),
)
TABLE_LINES: Final[tuple[LineKind, ...]] = (
    _kind("deal", _SEAT + r"deal pile \S+(?: cut \S+)?"),
    # no card turned up at the deal (pile_at_deal off: Remi 51), format 1.2
    _kind("deal without a pile card", _SEAT + r"deal(?: cut \S+)?", since=_NO_PILE_MINOR),
    _kind("stock rebuilt", r"stock rebuilt: \d+ cards"),
)
_DEALS: Final = TABLE_LINES[:2]
_DOUBLED: Final = ", doubled"
_WINS: Final = re.compile(
    r"(?P<seat>\d+) wins \((?P<ending>[a-z ]+?)(?P<doubled>, doubled)?\): (?P<charges>-?\d+(?: -?\d+)*)"
)
_SEAT_LINE: Final = re.compile(
    r"seat (?P<seat>\d+) (?P<status>won|in|dropped|wrong show), charge (?P<charge>-?\d+)"
    r"(?: \((?:hand|halved from) \d+\))?(?:: (?P<cards>.+))?"
)
_STATUS_WORDS: Final = {SeatStatus.IN: "in", SeatStatus.DROPPED: "dropped", SeatStatus.OUT: "wrong show"}


def _event_line(event: Event) -> str:
    """An event's line: its text, and a show's declaration where the text alone does not tell it."""
    text = event.text()
    if isinstance(event, Showed) and event.declared is not None:
        return text + _NOTE + "]"
    if isinstance(event, WrongShow) and event.declared is not None:
        return f"{text}{_NOTE}: {_groups_text(event.declared)}]"
    return text


def _groups_text(groups: Groups) -> str:
    return " | ".join(format_cards(g) for g in groups)


def _seat_line(s: SeatResult, halved: bool) -> str:
    text = f"seat {s.seat} {'won' if s.won else _STATUS_WORDS[s.status]}, charge {s.charge}"
    if halved and s.unhalved is not None and s.unhalved != s.charge:
        text += f" (halved from {s.unhalved})"  # a count, a drop or a penalty an early show halved
    elif s.hand_charge is not None and s.hand_charge != s.charge:
        text += f" (hand {s.hand_charge})"
    parts = []
    if s.groups:
        parts.append(_groups_text(s.groups))
    if s.loose:
        parts.append("loose " + format_cards(s.loose))
    return text + (": " + "; ".join(parts) if parts else "")


def result_lines(result: DealResult) -> list[str]:
    """A finished deal's result lines: the deal's end, then one line per seat."""
    head = DealEnded(seq=0, seat=None, result=result).text()  # the event's own text form
    if result.doubled:  # the event's text does not say so; a table-family history does
        head = head.replace(")", _DOUBLED + ")", 1)
    return [head, *(_seat_line(s, result.halved) for s in result.seats)]


# ---------------------------------------------------------------------------- dump


def _base_rules(preset: str, players: int) -> Rules:
    """What the ``rules`` and ``seats`` lines alone give; ``set`` lines say what differs."""
    base = get_preset(preset)
    try:
        return base.replace(players=players)
    except RulesError:
        return base  # the preset at this many seats needs the set lines to be playable at all


def _rules_from(preset: str, players: int, changes: Mapping[str, object]) -> Rules:
    # One step, as _base_rules does it: a pack count in the set lines counts as set by hand.
    return get_preset(preset).replace(players=players, **changes)


def changed_settings(rules: Rules) -> dict[str, str]:
    """The settings (as text) in which ``rules`` differ from its preset at its number of seats."""
    base = _base_rules(rules.preset, rules.players)
    return {
        key: format_setting(key, value)
        for key, value in rules.settings().items()
        if key != "players" and value != getattr(base, key)
    }


def _cap(deal: Deal) -> int:
    """The ``cap`` to write: the deal's turn cap, or the engine's where that deals the same."""
    cap, rule = deal.turn_cap, deal.rules.turn_limit
    if rule is not None and rule <= min(cap, TURN_CAP):
        return TURN_CAP  # the rules' limit ends the deal first, under either cap
    return cap


def _version_of(deal: Deal) -> str:
    """The oldest format version that has every line of the deal's history (now always the
    dealt hands' 1.2)."""
    minor = max(_FAMILY_MINOR[deal.rules.family], _DEALT_MINOR)
    dealt = deal.events[0]
    if isinstance(dealt, Dealt) and dealt.pile_top is None:
        minor = max(minor, _NO_PILE_MINOR)
    for name in changed_settings(deal.rules):
        minor = max(minor, _SETTINGS_SINCE.get(name, 0))
    return f"{FORMAT_MAJOR}.{minor}"


def _wild_text(wild: int | None) -> str:
    return "none" if wild is None else RANK_TEXT[wild]


def _dealt_lines(deal: Deal) -> list[str]:
    """Every seat's hand as dealt (a person reads the deal without replaying it), and the wild
    rank the cut names at a cut-joker table; the pile card and the cut card are on the deal line."""
    dealt = deal.events[0]
    assert isinstance(dealt, Dealt)
    lines = [f"hand {s} {format_cards(h)}" for s, h in enumerate(dealt.hands) if h is not None]
    if deal.rules.cut_joker:
        lines.append(f"wild {_wild_text(deal.wild)}")
    return lines


def _seed_text(seed: int | str) -> str:
    # A string in JSON quotes, ASCII only: "7" and 7 shuffle differently, and no seed breaks a line.
    return json.dumps(seed) if isinstance(seed, str) else str(seed)


def _one_line(what: str, text: str) -> str:
    if not text or text != text.strip() or not text.isprintable():
        raise ValueError(f"{what} must be printable text on one line, without spaces at its ends: {text!r}")
    return text


_MATCH_KEY: Final = re.compile(r"[A-Za-z0-9_.-]+")


def _match_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def dump(
    deal: Deal,
    *,
    names: Sequence[str] | None = None,
    match: Mapping[str, object] | None = None,
) -> str:
    """The hand history of ``deal``, finished or not.

    ``names`` gives one name a seat (``""`` for none); ``match`` is context such as the match id
    and the deal number, written as ``match KEY=VALUE`` lines and given back by :func:`load`.
    """
    rules = deal.rules
    if deal.stacked:
        raise ValueError(
            "this deal was dealt from a stacked shoe, not from its seed: its history would not replay"
        )
    cap = _cap(deal)
    lines = [f"{MAGIC} {_version_of(deal)}", f"rules {rules.preset}"]
    lines += [f"set {key}={text}" for key, text in changed_settings(rules).items()]
    lines += [f"seed {_seed_text(deal.seed)}", f"dealer {deal.dealer}", f"seats {rules.players}"]
    if cap != TURN_CAP:
        lines.append(f"cap {cap}")
    if names is not None:
        if len(names) != rules.players:
            raise ValueError(f"{len(names)} names for {rules.players} seats")
        lines += [f"name {s} {_one_line('a name', n)}" for s, n in enumerate(names) if n]
    for key, value in (match or {}).items():
        if not _MATCH_KEY.fullmatch(key):
            raise ValueError(f"a match key is letters, digits, '_', '.' or '-', not {key!r}")
        lines.append(f"match {key}={_one_line('a match value', _match_value(value))}")
    lines += _dealt_lines(deal)
    lines.append("")
    lines += [_event_line(e) for e in deal.events if not isinstance(e, DealEnded)]
    if deal.result is not None:
        lines.append("")
        lines += result_lines(deal.result)
    lines.append(END)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- load


def _lines(text: str) -> tuple[list[str], bool]:
    """The lines of ``text``, and whether the text ends with a newline."""
    raw = text.removeprefix("\ufeff").split("\n")
    newline_at_end = raw[-1] == ""
    if newline_at_end:
        raw.pop()
    lines = [line.removesuffix("\r") for line in raw]  # a history saved with CRLF line ends
    if not lines or not lines[0].strip():
        raise HistoryError(1, f"empty: a hand history begins with '{MAGIC} {FORMAT_VERSION}'")
    return lines, newline_at_end


def _version(first: str) -> tuple[int, int]:
    m = re.fullmatch(re.escape(MAGIC) + r" (\d+)\.(\d+)\s*", first)
    if m is None:
        if first.startswith(MAGIC):
            raise HistoryError(1, f"the format version must be MAJOR.MINOR, as in '{MAGIC} {FORMAT_VERSION}'")
        raise HistoryError(1, f"not a rummykit hand history: it begins with '{MAGIC} {FORMAT_VERSION}'")
    major, minor = int(m[1]), int(m[2])
    if major > FORMAT_MAJOR:
        raise HistoryError(
            1,
            f"this hand history is format {major}.{minor}, newer than this rummykit reads "
            f"({FORMAT_MAJOR}.x): a newer rummykit is needed to replay it",
        )
    if major < 1:
        raise HistoryError(1, f"format {major}.{minor} is no format rummykit ever wrote")
    return major, minor


def _skip(line: str) -> bool:
    """Blank lines and comments."""
    return not line.strip() or line.lstrip().startswith("#")


def _end_line(lines: list[str], newline_at_end: bool) -> int:
    """The index of the ``end`` line, after refusing a cut-short history and text after ``end``."""
    for i, line in enumerate(lines):
        if line.strip() == END:
            for j in range(i + 1, len(lines)):
                if lines[j].strip():
                    raise HistoryError(j + 1, f"text after the end of the history: {lines[j]!r}")
            return i
    if not newline_at_end:
        raise HistoryError(len(lines), "the history is cut off in the middle of this line (no 'end' line)")
    raise HistoryError(len(lines), "the history is cut short: it stops here without its 'end' line")


def _int(text: str, number: int, what: str) -> int:
    if not re.fullmatch(r"[0-9]{1,9}", text):
        raise HistoryError(number, f"{what} must be a whole number, not {text!r}")
    return int(text)


class _Header:
    """The header lines as they are read, checked once the body starts."""

    def __init__(self, version: tuple[int, int]) -> None:
        self.version = version
        self.newer = version[1] > FORMAT_MINOR and version[0] == FORMAT_MAJOR
        self.once: dict[str, tuple[int, str]] = {}  # key -> (line, value text)
        self.sets: dict[str, tuple[int, object]] = {}
        self.names: dict[int, tuple[int, str]] = {}
        self.match: dict[str, str] = {}
        self.hands: dict[int, RecordedHand] = {}
        self.wild: RecordedWild | None = None

    def _since(self, number: int, what: str, minor: int) -> None:
        """Refuse ``what`` in a history of a version before ``1.minor``: it cannot hold one."""
        if self.version[1] < minor:
            raise HistoryError(
                number,
                f"{what} is in format {FORMAT_MAJOR}.{minor} and newer, "
                f"but the history says it is format {self.version[0]}.{self.version[1]}",
            )

    def read(self, number: int, line: str) -> None:
        key, _, value = line.partition(" ")
        value = value.strip()
        if key == "hand":
            self._since(number, "a 'hand' line", _DEALT_MINOR)
            self._hand(number, value)
        elif key == "wild":
            self._since(number, "a 'wild' line", _DEALT_MINOR)
            if self.wild is not None:
                raise HistoryError(number, f"a second 'wild' line (the first is line {self.wild.number})")
            if value == "none":
                rank = None
            elif value in RANK_TEXT[1:]:
                rank = RANK_TEXT.index(value)
            else:
                raise HistoryError(
                    number, f"a wild line names a rank (A, 2 ... 10, J, Q, K) or none, not {value!r}"
                )
            self.wild = RecordedWild(number, rank)
        elif key in ("rules", "seed", "dealer", "seats", "cap"):
            if key in self.once:
                raise HistoryError(number, f"a second '{key}' line (the first is line {self.once[key][0]})")
            self.once[key] = (number, value)
        elif key == "set":
            self._set(number, value)
        elif key == "name":
            seat, _, name = value.partition(" ")
            s = _int(seat, number, "a name line's seat")
            if s in self.names:
                raise HistoryError(number, f"a second name for seat {s}")
            if not name.strip():
                raise HistoryError(number, "a name line is 'name SEAT NAME'")
            self.names[s] = (number, name.strip())
        elif key == "match":
            k, eq, v = value.partition("=")
            if not eq or not _MATCH_KEY.fullmatch(k):
                raise HistoryError(number, f"a match line is 'match KEY=VALUE', not {line!r}")
            if k in self.match:
                raise HistoryError(number, f"a second match line for {k!r}")
            self.match[k] = v.strip()
        elif not self.newer:  # a newer minor version may add header lines: skip those
            raise HistoryError(number, f"unknown header line {line!r}")

    def _hand(self, number: int, value: str) -> None:
        seat_text, _, cards = value.partition(" ")
        seat = _int(seat_text, number, "a hand line's seat")
        if seat in self.hands:
            raise HistoryError(
                number, f"a second hand for seat {seat} (the first is line {self.hands[seat].number})"
            )
        try:
            kinds = tuple(parse_cards(cards))
        except CardError as e:
            raise HistoryError(number, f"seat {seat}'s hand: {e}") from None
        if not kinds:
            raise HistoryError(number, "a hand line is 'hand SEAT CARDS'")
        self.hands[seat] = RecordedHand(number, seat, kinds)

    def dealt(self, rules: Rules, at: int) -> tuple[tuple[RecordedHand, ...], RecordedWild | None]:
        """The dealt hands (all seats, or none) and the wild line, checked against the rules."""
        players = rules.players
        for s, hand in self.hands.items():
            if s >= players:
                raise HistoryError(hand.number, f"no seat {s} at this table (seats 0 to {players - 1})")
        if self.hands and len(self.hands) != players:
            missing = [s for s in range(players) if s not in self.hands]
            last = max(h.number for h in self.hands.values())
            raise HistoryError(
                last,
                f"the dealt hands leave out seat{'s' if len(missing) > 1 else ''} "
                f"{', '.join(map(str, missing))}: a history gives every seat's hand or none",
            )
        if self.wild is not None and not rules.cut_joker:
            raise HistoryError(self.wild.number, "a wild line, but these rules cut no joker")
        if self.hands and rules.cut_joker and self.wild is None:
            raise HistoryError(at, "the history gives the dealt hands but no 'wild' line for the cut joker")
        hands = tuple(self.hands[s] for s in range(players)) if self.hands else ()
        return hands, self.wild

    def _set(self, number: int, value: str) -> None:
        key, eq, text = value.partition("=")
        key = key.strip()
        if not eq:
            raise HistoryError(number, f"a set line is 'set KEY=VALUE', not 'set {value}'")
        try:
            parsed = parse_setting(key, text)
        except RulesError as e:
            raise HistoryError(number, str(e)) from None
        name = key.lower().replace("-", "_")
        if name in _SETTINGS_SINCE:
            self._since(number, f"the setting {name}", _SETTINGS_SINCE[name])
        if name == "players":
            raise HistoryError(number, "the number of players is the 'seats' line, not a setting")
        if name in self.sets:
            raise HistoryError(number, f"{name} is set twice (first on line {self.sets[name][0]})")
        self.sets[name] = (number, parsed)

    def need(self, key: str, at: int) -> tuple[int, str]:
        if key not in self.once:
            raise HistoryError(at, f"the header has no '{key}' line")
        return self.once[key]

    def rules(self, at: int) -> Rules:
        rules_at, preset = self.need("rules", at)
        seats_at, seats_text = self.need("seats", at)
        seats = _int(seats_text, seats_at, "seats")
        try:
            get_preset(preset)
        except RulesError as e:
            raise HistoryError(rules_at, str(e)) from None
        changes = {name: value for name, (_, value) in self.sets.items()}
        # A setting newer than the history: its deal was played as every table played then.
        changes = {k: v for k, v in LEGACY_VALUES.items() if _SETTINGS_SINCE[k] > self.version[1]} | changes
        try:
            return _rules_from(preset, seats, changes)
        except RulesError as e:
            # Blame the set line the message names, else the last line that made the rules.
            blamed = [n for name, (n, _) in self.sets.items() if str(e).startswith(f"{name}=")]
            if not blamed and str(e).startswith("players="):
                blamed = [seats_at]
            lines = [rules_at, seats_at, *(n for n, _ in self.sets.values())]
            raise HistoryError(blamed[0] if blamed else max(lines), str(e)) from None

    def seed(self, at: int) -> int | str:
        number, text = self.need("seed", at)
        if re.fullmatch(r"-?[0-9]+", text):
            return int(text)
        if text.startswith('"'):
            try:
                seed = json.loads(text)
            except ValueError:
                seed = None
            if isinstance(seed, str):
                return seed
        raise HistoryError(number, f"a seed is a whole number or a string in double quotes, not {text!r}")


def _parse_event(number: int, line: str, players: int, version: tuple[int, int]) -> Entry:
    for kind in ACTION_LINES + TABLE_LINES:
        m = kind.pattern.fullmatch(line)
        if m is None:
            continue
        if kind.since > version[1]:
            raise HistoryError(
                number,
                f"{line!r} is a line of format {FORMAT_MAJOR}.{kind.since}, "
                f"but the history says it is format {version[0]}.{version[1]}",
            )
        seat: int | None = None
        if "seat" in kind.pattern.groupindex:
            seat = int(m["seat"])
            if seat >= players:
                raise HistoryError(number, f"no seat {seat} at this table (seats 0 to {players - 1})")
        text = line
        if "note" in kind.pattern.groupindex and m["note"] is not None:
            text = line[: m.start("note")] + line[m.end("note") :]
        if kind.build is None:
            return Entry(number, text, seat, None)
        try:
            action = kind.build(m)
        except CardError as e:
            raise HistoryError(number, f"{line!r}: {e}") from None
        return Entry(number, text, seat, action)
    if version[1] > FORMAT_MINOR:  # a newer minor version may add kinds of lines
        raise HistoryError(
            number,
            f"{line!r} is no line this rummykit knows, and the history is format {version[0]}.{version[1]}, "
            f"newer than {FORMAT_VERSION}: a newer rummykit is needed to replay it",
        )
    raise HistoryError(number, f"not an action or an event of a deal: {line!r}")


def _parse_result(number: int, line: str, players: int) -> RecordedResult | None:
    m = _WINS.fullmatch(line)
    if m is None:
        return None
    try:
        ending = Ending(m["ending"])
    except ValueError:
        raise HistoryError(number, f"unknown ending {m['ending']!r}") from None
    charges = tuple(int(c) for c in m["charges"].split())
    winner = int(m["seat"])
    if len(charges) != players or winner >= players:
        raise HistoryError(number, f"a result names a winner and one charge a seat, for {players} seats")
    return RecordedResult(number, line, winner, ending, charges, (), m["doubled"] is not None)


def _seat_lines(
    lines: list[str], start: int, end: int, result: RecordedResult, players: int
) -> tuple[Line, ...]:
    seats: list[Line] = []
    for i in range(start, end):
        line = lines[i].strip()
        if _skip(lines[i]):
            continue
        m = _SEAT_LINE.fullmatch(line)
        if m is None:
            raise HistoryError(i + 1, f"expected a seat's result ('seat N ...') or 'end', not {line!r}")
        s = int(m["seat"])
        if s != len(seats) or s >= players:
            raise HistoryError(i + 1, f"expected the result of seat {len(seats)}, not of seat {s}")
        if int(m["charge"]) != result.charges[s]:
            raise HistoryError(
                i + 1,
                f"seat {s}'s charge {m['charge']} is not the {result.charges[s]} of line {result.number}",
            )
        if (m["status"] == "won") != (s == result.winner):
            raise HistoryError(i + 1, f"seat {result.winner} won, as line {result.number} says")
        if m["cards"] is not None:
            try:
                for part in m["cards"].split(";"):
                    _groups(part.strip().removeprefix("loose "))
            except CardError as e:
                raise HistoryError(i + 1, str(e)) from None
        seats.append(Line(i + 1, line))
    if len(seats) != players:
        raise HistoryError(end + 1, f"the result has {len(seats)} seat lines for {players} seats")
    return tuple(seats)


def load(text: str) -> History:
    """Read a hand history; :class:`HistoryError` names the line of the first problem."""
    lines, newline_at_end = _lines(text)
    version = _version(lines[0].strip())
    end = _end_line(lines, newline_at_end)

    # The header: everything up to the deal line.
    header = _Header(version)
    i = 1
    while i < end:
        line = lines[i].strip()
        if not _skip(lines[i]):
            if any(kind.pattern.fullmatch(line) for kind in _DEALS):
                break
            if line[0] in "0123456789":
                raise HistoryError(i + 1, f"expected the deal line ('0 deal ...') first, not {line!r}")
            header.read(i + 1, line)
        i += 1
    at = i + 1  # the deal line (or the end line): missing header lines are reported there
    rules = header.rules(at)
    first = _FAMILY_MINOR[rules.family]
    if version < (FORMAT_MAJOR, first):
        raise HistoryError(
            header.once["rules"][0],
            f"{rules.preset} is a {rules.family}-family game, whose histories are format "
            f"{FORMAT_MAJOR}.{first} or newer, but this one says it is format {version[0]}.{version[1]}",
        )
    players = rules.players
    seed = header.seed(at)
    dealer_at, dealer_text = header.need("dealer", at)
    dealer = _int(dealer_text, dealer_at, "the dealer")
    if dealer >= players:
        raise HistoryError(dealer_at, f"dealer {dealer} is no seat at this table (seats 0 to {players - 1})")
    cap = TURN_CAP
    if "cap" in header.once:
        cap_at, cap_text = header.once["cap"]
        cap = _int(cap_text, cap_at, "the turn cap")
        if cap < 1:
            raise HistoryError(cap_at, "the turn cap is at least 1")
    hands, wild = header.dealt(rules, at)
    names = [""] * players
    for s, (number, name) in header.names.items():
        if s >= players:
            raise HistoryError(number, f"no seat {s} at this table (seats 0 to {players - 1})")
        names[s] = name
    if i == end:
        raise HistoryError(end + 1, "the history has no deal line ('0 deal ...')")

    # The body: one line per event, then the result lines of a finished deal.
    entries: list[Entry] = []
    result: RecordedResult | None = None
    for j in range(i, end):
        if _skip(lines[j]):
            continue
        line = lines[j].strip()
        result = _parse_result(j + 1, line, players)
        if result is not None:
            result = replace(result, seats=_seat_lines(lines, j + 1, end, result, players))
            break
        entries.append(_parse_event(j + 1, line, players, version))
    return History(
        version=version,
        rules=rules,
        seed=seed,
        dealer=dealer,
        turn_cap=cap,
        names=tuple(names),
        match=MappingProxyType(dict(header.match)),
        entries=tuple(entries),
        result=result,
        end=end + 1,
        rules_line=header.once["rules"][0],
        hands=hands,
        wild=wild,
    )


# ---------------------------------------------------------------------------- replay


def _waiting(deal: Deal) -> str:
    seat = deal.to_play
    if seat is None:
        return "the deal is over"
    if deal.phase is Phase.DRAW:
        return f"seat {seat} is to draw"
    return f"seat {seat} is to {'play' if deal.family == 'table' else 'throw'}"


def _mismatch(entry: Entry, event: Event, history: History) -> HistoryError:
    if isinstance(event, DealEnded):
        return HistoryError(entry.number, f"{entry.text!r}, but the deal is over: {event.text()!r}")
    problem = f"{entry.text!r} is not what happened: the deal has {event.text()!r} here"
    if event.seq == 0:
        problem += (
            f" (seed {_seed_text(history.seed)}, the rules and dealer {history.dealer} "
            "in the header do not deal this history)"
        )
    return HistoryError(entry.number, problem)


def _check_dealt(history: History, deal: Deal) -> None:
    """The dealt hands and the wild rank the history gives are the ones the seed deals."""
    dealt = deal.events[0]
    assert isinstance(dealt, Dealt)
    blame = (
        f"(seed {_seed_text(history.seed)}, the rules and dealer {history.dealer} in the header "
        "do not deal this history)"
    )
    for recorded, cards in zip(history.hands, dealt.hands, strict=False):
        assert cards is not None
        if sorted(recorded.cards) != sorted(cards):
            raise HistoryError(
                recorded.number,
                f"seat {recorded.seat}'s hand is not what was dealt: the deal gives "
                f"{format_cards(cards)} {blame}",
            )
    if history.wild is not None and history.wild.rank != deal.wild:
        raise HistoryError(
            history.wild.number,
            f"the wild rank is not the deal's: the deal has {_wild_text(deal.wild)} {blame}",
        )


def replay(source: str | History, *, arranger: Arranger | None = None) -> Deal:
    """The deal a hand history records, replayed through the engine and checked line by line.

    The deal is of the family the rules name (a ``ShowDeal`` or a ``TableDeal``).  Raises
    :class:`HistoryError` (naming the line) when the text is malformed, an action is not legal,
    an event is not the recorded one, or the result differs; nothing half-replayed is ever
    returned.  Pass ``arranger`` to share one between show-family replays of the same rules.
    """
    history = load(source) if isinstance(source, str) else source
    rules = history.rules
    if arranger is not None and arranger.rules != rules:
        arranger = None  # built for other rules: the deal makes its own
    deal = new_deal(rules, history.seed, dealer=history.dealer, turn_cap=history.turn_cap, arranger=arranger)
    _check_dealt(history, deal)
    matched = 0  # the engine's events matched to lines so far
    for entry in history.entries:
        events = deal.events_since(matched)
        if entry.action is not None:
            if events:  # the table had something to say first (a rebuild, the end of the deal)
                raise _mismatch(entry, events[0], history)
            assert entry.seat is not None
            try:
                deal.apply(entry.seat, entry.action)
            except IllegalAction as e:
                raise HistoryError(entry.number, f"{entry.text!r} cannot be played: {e.reason}") from None
            events = deal.events_since(matched)
        if not events:
            raise HistoryError(entry.number, f"{entry.text!r} did not happen here: {_waiting(deal)}")
        if events[0].text() != entry.text:
            raise _mismatch(entry, events[0], history)
        matched += 1

    pending = deal.events_since(matched)
    recorded = history.result
    if recorded is None:
        if pending:
            raise HistoryError(
                history.end, f"the history stops, but the deal goes on with {pending[0].text()!r}"
            )
        return deal
    if not pending:
        raise HistoryError(recorded.number, f"the history records a result, but {_waiting(deal)}")
    if not isinstance(pending[0], DealEnded):
        raise HistoryError(recorded.number, f"the deal has {pending[0].text()!r} here, not the result")
    assert deal.result is not None
    expected = result_lines(deal.result)
    for line, want in zip((Line(recorded.number, recorded.text), *recorded.seats), expected, strict=True):
        if line.text != want:
            raise HistoryError(line.number, f"the result differs: the deal gives {want!r}")
    return deal
