"""The words people read: how each event of a deal and of a match is told, the moves the table
names, how a deal ended, and the few refusals the table words itself.

One place for the sentences of the web table (the server sends each event's words to every
viewer: ``docs/protocol.md``, EVENT ``text`` and ``line``), of the terminal game's move log and
of the hints, so a person reads the same words on either screen.  (A hand history's lines are
not people's words but the notation, :mod:`rummykit.engine.notation`.)

A sentence is a list of *parts*: text, and :class:`Card` where a card is named, so each screen
writes a card its own way (the terminal in its suit's colour, the browser as it draws cards or
as a screen reader says them) and :func:`plain` writes it in the canonical notation.  Sentences
are told to one viewer: their own seat is "You" (``me``), the others by name, verbs agreeing:

>>> from rummykit.engine.events import Threw
>>> plain(event_words(Threw(seq=3, seat=1, card=12), ["Asha", "Bina"], me=None))
'Bina throws Ks'
>>> plain(event_words(Threw(seq=3, seat=1, card=12), ["Asha", "Bina"], me=1))
'You throw Ks'

The tense is the present, as a live log reads (``Bina takes 7h from the pile, lays down 7h 8h
9h and throws 2c`` is one turn joined by the terminal; the web table shows one line an event).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rummykit.engine.cards import RANK_PLURALS, format_card
from rummykit.engine.events import (
    Action,
    ActionKind,
    DealEnded,
    DealResult,
    Dealt,
    DrewStock,
    Dropped,
    Ending,
    Event,
    LaidDown,
    LaidOff,
    Opened,
    PutBack,
    Showed,
    StockRebuilt,
    Swapped,
    Threw,
    TookPile,
    WrongShow,
)

__all__ = [
    "AWAY",
    "Card",
    "Part",
    "action_words",
    "ending_words",
    "event_words",
    "expected_moves",
    "fragment",
    "meter_why",
    "not_your_turn",
    "owed_words",
    "parts_json",
    "plain",
    "step_words",
    "wait_for",
]


@dataclass(frozen=True, slots=True)
class Card:
    """A card named inside a sentence (so the sentence can be written in colour or plain)."""

    kind: int


Part = str | Card
AWAY: Final = " (played for an away seat)"  # an action the table played for a seat out of time


def plain(parts: Sequence[Part]) -> str:
    """The sentence as plain text, cards in the canonical notation (``10h``, ``JK``)."""
    return "".join(format_card(p.kind) if isinstance(p, Card) else p for p in parts)


def parts_json(parts: Sequence[Part]) -> list[str | dict[str, str]]:
    """The sentence for JSON: text as strings (each run of text one string), a card as
    ``{"card": "10h"}``: ``["You throw ", {"card": "Ks"}]``."""
    out: list[str | dict[str, str]] = []
    for p in parts:
        if isinstance(p, Card):
            out.append({"card": format_card(p.kind)})
        elif p:
            last = out[-1] if out else None
            if isinstance(last, str):
                out[-1] = last + p
            else:
                out.append(p)
    return out


def _cards(kinds: Sequence[int]) -> list[Part]:
    out: list[Part] = []
    for i, k in enumerate(kinds):
        out += [" ", Card(k)] if i else [Card(k)]
    return out


def _melds(melds: Sequence[Sequence[int]]) -> list[Part]:
    out: list[Part] = []
    for i, meld in enumerate(melds):
        out += [" │ "] if i else []
        out += _cards(meld)
    return out


# ---------------------------------------------------------------------------- who


def _who(seat: int, names: Sequence[str], me: int | None) -> tuple[str, bool]:
    """The subject, and whether it is the viewer ("You", whose verbs take no -s)."""
    return ("You", True) if seat == me else (names[seat], False)


def _s(you: bool) -> str:
    return "" if you else "s"


# ---------------------------------------------------------------------------- a seat's actions


def fragment(event: Event, you: bool) -> list[Part] | None:
    """What a seat did, as words after its name (``you``: said to that seat: "draw", not
    "draws"); ``None`` for the events that are not a seat's action."""
    s = _s(you)
    if isinstance(event, DrewStock):
        # the drawer's own draw shows the card: it is theirs to see (the event they see has it)
        seen: list[Part] = [Card(event.card), " "] if event.card is not None else []
        return [f"draw{s} ", *seen, "from the stock"]
    if isinstance(event, TookPile):
        return [f"take{s} ", Card(event.card), " from the pile"]
    if isinstance(event, Threw):
        return [f"throw{s} ", Card(event.card)]
    if isinstance(event, Showed):
        return [f"show{s}, finishing with ", Card(event.card)]
    if isinstance(event, WrongShow):
        pay = "pay" if you else "pays"
        return [
            f"show{s} with ",
            Card(event.card),
            f", but it is no show ({event.reason}): {pay} {event.penalty} and sit{s} out",
        ]
    if isinstance(event, Dropped):
        return [f"drop{s} out ({'pay' if you else 'pays'} {event.cost})"]
    if isinstance(event, Opened):
        return [f"open{s} with ", *_melds([m.cards for m in event.melds]), f" ({event.points} points)"]
    if isinstance(event, LaidDown):
        return [f"lay{s} down ", *_cards(event.meld.cards)]
    if isinstance(event, LaidOff):
        return [f"lay{s} off ", *_cards(event.cards), f" onto meld {event.meld_id}"]
    if isinstance(event, Swapped):
        return [f"swap{'' if you else 's'} ", Card(event.card), f" for the joker of meld {event.meld_id}"]
    if isinstance(event, PutBack):
        return [f"put{s} ", Card(event.card), " back"]
    return None


def _wild_words(wild: int | None) -> str:
    return "" if wild is None else f", {RANK_PLURALS[wild]} wild"


def event_words(
    event: Event,
    names: Sequence[str],
    me: int | None,
    *,
    number: int | None = None,
    auto: bool = False,
) -> list[Part]:
    """One event told to one viewer: ``names`` and ``me`` are by the event's own (deal) seats;
    ``number`` (from 1) opens a deal's first and last lines with it (and the deal's line then
    says the cut card and the wild rank too); ``auto``: the table played it for the seat."""
    if event.seat is not None and not isinstance(event, Dealt):
        frag = fragment(event, event.seat == me)
        if frag is not None:
            who, _ = _who(event.seat, names, me)
            return [who, " ", *frag, AWAY] if auto else [who, " ", *frag]
    lead = "" if number is None else f"Deal {number}: "
    if isinstance(event, Dealt):
        first, you = _who(event.first, names, me)
        dealer = "The dealer deals" if event.seat is None else _sentence(event.seat, names, me, "deal")
        out: list[Part] = [f"{lead}{dealer}; {first} play{_s(you)} first. "]
        if event.pile_top is None:  # Remi 51: the first throw starts the pile
            out.append("No card is turned up: the first throw starts the pile")
        else:
            out += ["Pile: ", Card(event.pile_top)]
        if number is None:
            return out  # the short form: the table's header says the cut and the wild rank
        cut: list[Part] = [] if event.cut is None else [", cut ", Card(event.cut)]
        wild = _wild_words(event.wild)
        return [*out, *cut, wild] if wild else [*out, *cut]
    if isinstance(event, StockRebuilt):
        return [f"The pile is shuffled into a new stock ({event.count} cards)"]
    if isinstance(event, DealEnded):
        return [lead, *ending_words(event.result, names, me)]
    raise ValueError(f"no words for {type(event).__name__}")


def _sentence(seat: int, names: Sequence[str], me: int | None, verb: str) -> str:
    who, you = _who(seat, names, me)
    return f"{who} {verb}{_s(you)}"


def ending_words(result: DealResult, names: Sequence[str], me: int | None) -> list[Part]:
    """How the deal ended, in one sentence (``Bikash shows, finishing with K♣``)."""
    w = result.winner
    name, you = _who(w, names, me)
    s = _s(you)
    if result.ending is Ending.SHOW:
        card: list[Part] = ["the last card"] if result.finish_card is None else [Card(result.finish_card)]
        return [f"{name} show{s}, finishing with ", *card]
    if result.ending is Ending.LAST_IN:
        return [f"{name} win{s}: everybody else dropped out"]
    if result.ending is Ending.TURN_LIMIT:
        return [
            f"The deal reached {result.turns} turns: every hand is shown as it stands, "
            f"and {name} win{s} with the lowest"
        ]
    if result.ending is Ending.BLOCKED:
        return [f"The stock ran out: {name} win{s} with the lowest hand"]
    if result.ending is Ending.OUT:
        out: list[Part] = [f"{name} go{'' if you else 'es'} out"]
        if result.finish_card is not None:
            out += [", throwing ", Card(result.finish_card)]
        if result.doubled:
            out.append(" (the others count double)")
        return out
    return [f"The deal ran into the turn cap ({result.turns}): {name} win{s} with the lowest hand"]


# ---------------------------------------------------------------------------- the match's own steps


def step_words(
    kind: str, seat: int | None, names: Sequence[str], me: int | None, info: Mapping[str, Any]
) -> str:
    """A match step (between and around the deals) told to one viewer; ``names`` by match seat."""
    if kind == "match_over":
        winners = [_who(s, names, me) for s in info["winners"]]
        if not winners:
            return "The match is over: nobody wins"
        verb = "win" if len(winners) > 1 or winners[0][1] else "wins"
        return f"The match is over: {' and '.join(w for w, _ in winners)} {verb}"
    if kind == "rematch":
        return "A rematch is set up"
    who, you = ("The table", False) if seat is None else _who(seat, names, me)
    s = _s(you)
    if kind == "joined":
        return f"{who} join{s} the table"
    if kind == "started":
        return f"{who} start{s} the match"
    if kind == "ready":
        return f"{who} {'are' if you else 'is'} ready for the next deal"
    if kind == "rejoined":
        return f"{who} rejoin{s} the pool at {info['total']}"
    raise ValueError(f"no words for a {kind!r} step")


# ---------------------------------------------------------------------------- moves, and why not


_MOVES: Final[Mapping[ActionKind, str]] = {
    ActionKind.DROP: "drop",
    ActionKind.DRAW_STOCK: "draw from the stock",
    ActionKind.DRAW_PILE: "draw from the pile",
    ActionKind.PUT_BACK: "put back",
    ActionKind.OPEN: "open",
    ActionKind.LAY_DOWN: "lay down",
    ActionKind.LAY_OFF: "lay off",
    ActionKind.SWAP: "swap a joker",
    ActionKind.THROW: "throw a card",
    ActionKind.SHOW: "show",
}


def action_words(action: Action) -> list[Part]:
    """A move as a person is told to make it (a hint): ``throw K♥``, ``lay 4♥ off onto meld 2``."""
    kind = action.kind
    if kind is ActionKind.DRAW_STOCK:
        return ["draw from the stock"]
    if kind is ActionKind.DRAW_PILE:
        return ["take the pile's top card"]
    if kind is ActionKind.THROW and action.card is not None:
        return ["throw ", Card(action.card)]
    if kind is ActionKind.SHOW and action.card is not None:
        return ["show, finishing with ", Card(action.card)]
    if kind is ActionKind.OPEN:
        return ["open with ", *_melds(action.groups or ())]
    if kind is ActionKind.LAY_DOWN:
        return ["lay down ", *_cards(action.cards or ())]
    if kind is ActionKind.LAY_OFF:
        return ["lay ", *_cards(action.cards or ()), f" off onto meld {action.meld}"]
    if kind is ActionKind.SWAP and action.card is not None:
        return ["swap ", Card(action.card), f" for the joker of meld {action.meld}"]
    return [_MOVES.get(kind, str(kind))]


def expected_moves(kinds: Sequence[ActionKind], *, owes: list[Part] | None = None) -> str:
    """What the seat to play may do now, for a refusal's ``expected``: ``one of: draw from the
    stock, draw from the pile``; ``owes``: what its turn still owes, said last."""
    said = [_MOVES[k] for k in _MOVES if k in kinds and k is not ActionKind.SHOW]
    if owes:
        said.append(plain(owes))
    return "one of: " + ", ".join(said) if said else "play on"


def owed_words(pile_due: int | None, owed_jokers: int) -> list[Part] | None:
    """What a table-family turn still owes before a throw, if anything."""
    if pile_due is not None:
        return ["use ", Card(pile_due), " from the pile in a meld"]
    if owed_jokers:
        return ["lay the freed joker down"]
    return None


def not_your_turn(name: str) -> str:
    return f"not your turn: {name} is to play"


def wait_for(name: str) -> str:
    return f"wait for your turn: {name} is to play"


def meter_why(points: int, threshold: int, due: int | None) -> list[Part]:
    """Why the Opening meter's best is no opening yet."""
    short = max(0, threshold - points)
    why: list[Part] = [f"your melds make {points} of the {threshold} points, {short} short"]
    return ["with ", Card(due), " from the pile, ", *why] if due is not None else why
