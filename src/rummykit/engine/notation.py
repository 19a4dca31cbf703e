"""One notation for actions: a dict (the WebSocket's and the action log's shape) and a short
text (the hand history's), each read and written here, and a reader for every stored payload.

The dict is the message a client sends to play the action, without the envelope (``id``,
``version``); the server stores the same dict in its action log, so one action keeps one shape
from the socket to the database and back:

>>> from rummykit.engine.cards import parse_card
>>> to_dict(Action.lay_off(2, [parse_card("4h")]))
{'type': 'lay_off', 'meld': 2, 'cards': ['4h']}
>>> from_dict({"type": "draw", "from": "pile"}) == Action.draw_pile()
True

The text is the action as a hand history's line writes it after the seat number
(``docs/hand-history.md``), so ``1 throw Kc`` is seat 1 playing ``throw Kc``:

>>> to_text(Action.swap(3, parse_card("Jc")))
'swap 3 Jc'
>>> from_text("lay off 2 4h 5h") == Action.lay_off(2, [parse_card("4h"), parse_card("5h")])
True

A history line says a little more than its action where the event adds what happened (``take
Kc`` is the card the pile gave, ``drop 20`` the cost, ``open ... (48)`` the points, ``wrong
show 9d: REASON`` why a show failed);
:func:`from_text` reads those forms too, so every action line of a history is notation.

Reading is strict and all-or-nothing: :class:`NotationError` names the first problem (an
unknown type, a missing or unknown field, a bad card, a meld id that is no number) and what was
expected, and no action is built from a part of a message.  Counts are bounded before anything
is built (at most 13 groups, 15 cards a group or a lay-off), so nobody can ask for much work.

Stored payloads (``docs/storage.md``): :func:`read_payload` reads every shape the server has
stored, format 1 (``{"a": "draw stock", ...}``, until this module) and format 2 (the dict above,
plus the log's own ``auto`` and ``match`` keys), and gives the format-2 dict.  Every name a dict
holds (its ``type`` values, field names, ``stock``/``pile``) is a storage key: databases hold
them, so they are never renamed, only added to.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any, Final

from rummykit.engine.cards import CardError, format_card, parse_card, parse_cards
from rummykit.engine.events import DECLARED, Action, ActionKind, Groups, action_text

__all__ = [
    "ACTION_TYPES",
    "FIELDS",
    "LOG_KEYS",
    "NotationError",
    "check_fields",
    "from_dict",
    "from_text",
    "read_payload",
    "to_dict",
    "to_text",
    "type_of",
]

MAX_GROUPS: Final = 13  # an opening or a declared show: thirteen groups at the very most
MAX_CARDS: Final = 15  # a group, a meld or a lay-off (Remi's first player holds fifteen)
MAX_MELD_ID: Final = 10_000

# type -> (required fields, optional fields).  Storage keys: never rename, only add.
FIELDS: Final[Mapping[str, tuple[frozenset[str], frozenset[str]]]] = {
    "draw": (frozenset({"from"}), frozenset()),
    "throw": (frozenset({"card"}), frozenset()),
    "show": (frozenset({"card"}), frozenset({"groups", "layout"})),
    "drop": (frozenset(), frozenset()),
    # the table family (Rummy 40, Remi 51)
    "open": (frozenset({"melds"}), frozenset()),
    "lay_down": (frozenset({"cards"}), frozenset()),
    "lay_off": (frozenset({"meld", "cards"}), frozenset()),
    "swap": (frozenset({"meld", "card"}), frozenset()),
    "put_back": (frozenset(), frozenset()),
}
ACTION_TYPES: Final = tuple(FIELDS)
# The action log's own keys beside an action's (or a step's): played for an away seat; a
# rematch's new match.
LOG_KEYS: Final = frozenset({"auto", "match"})

_TYPE: Final[Mapping[ActionKind, str]] = {
    ActionKind.DRAW_STOCK: "draw",
    ActionKind.DRAW_PILE: "draw",
    ActionKind.THROW: "throw",
    ActionKind.SHOW: "show",
    ActionKind.DROP: "drop",
    ActionKind.OPEN: "open",
    ActionKind.LAY_DOWN: "lay_down",
    ActionKind.LAY_OFF: "lay_off",
    ActionKind.SWAP: "swap",
    ActionKind.PUT_BACK: "put_back",
}
_SOURCES: Final = {"stock": Action.draw_stock(), "pile": Action.draw_pile()}


class NotationError(ValueError):
    """An action's dict or text that does not read: ``problem`` in words, what was ``expected``."""

    def __init__(self, problem: str, expected: str | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.expected = expected


def type_of(action: Action) -> str:
    """The dict's ``type`` of an action (``draw`` for both draws)."""
    return _TYPE[action.kind]


# ---------------------------------------------------------------------------- the dict


def _groups_out(groups: Groups) -> list[list[str]]:
    return [[format_card(k) for k in g] for g in groups]


def to_dict(action: Action) -> dict[str, Any]:
    """The dict of ``action``: the message that plays it, and its stored form."""
    kind = action.kind
    if kind is ActionKind.DRAW_STOCK:
        return {"type": "draw", "from": "stock"}
    if kind is ActionKind.DRAW_PILE:
        return {"type": "draw", "from": "pile"}
    if kind is ActionKind.THROW:
        return {"type": "throw", "card": _card_out(action.card)}
    if kind is ActionKind.SHOW:
        out: dict[str, Any] = {"type": "show", "card": _card_out(action.card)}
        if action.groups is not None:
            out["groups"] = _groups_out(action.groups)
        if action.layout is not None:
            out["layout"] = _groups_out(action.layout)
        return out
    if kind is ActionKind.OPEN:
        return {"type": "open", "melds": _groups_out(action.groups or ())}
    if kind is ActionKind.LAY_DOWN:
        return {"type": "lay_down", "cards": [format_card(k) for k in action.cards or ()]}
    if kind is ActionKind.LAY_OFF:
        return {"type": "lay_off", "meld": action.meld, "cards": [format_card(k) for k in action.cards or ()]}
    if kind is ActionKind.SWAP:
        return {"type": "swap", "meld": action.meld, "card": _card_out(action.card)}
    return {"type": _TYPE[kind]}  # drop, put back


def _card_out(k: int | None) -> str:
    if k is None:
        raise ValueError("this action has no card")
    return format_card(k)


def _card(value: object, where: str = "card") -> int:
    if not isinstance(value, str):
        raise NotationError(f"{where} must be card text such as 10h or JK", f"{where}: a card")
    try:
        return parse_card(value)
    except CardError as e:
        raise NotationError(str(e), f"{where}: a card such as 10h, Qs, JK") from None


def _card_list(value: object, name: str = "cards") -> tuple[int, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_CARDS:
        raise NotationError(f"{name} must be a list of cards", f"{name}: [card, ...]")
    return tuple(_card(c, "a card") for c in value)


def _group_list(value: object, name: str) -> Groups:
    each = "each group" if name != "melds" else "each meld"
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_GROUPS:
        raise NotationError(
            f"{name} must be a list of {name}, each a list of cards", f"{name}: [[cards], ...]"
        )
    out: list[tuple[int, ...]] = []
    for g in value:
        if not isinstance(g, list) or not 1 <= len(g) <= MAX_CARDS:
            raise NotationError(f"{each} is a list of cards", f"{name}: [[cards], ...]")
        out.append(tuple(_card(c, "a group's card") for c in g))
    return tuple(out)


def _meld_id(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_MELD_ID:
        raise NotationError("meld must be the id of a meld on the table", "meld: a meld's id (1, 2, ...)")
    return value


def check_fields(data: Mapping[str, Any], kind: str, extra: Collection[str] = ()) -> None:
    """Refuse a field ``kind`` does not have (``extra``: names the caller reads itself, such as
    a message's ``id``), then a missing one."""
    required, optional = FIELDS[kind]
    for name in data:
        if name != "type" and name not in required and name not in optional and name not in extra:
            allowed = ", ".join(sorted({"type", *required, *optional, *extra}))
            raise NotationError(f"unknown field {str(name)[:40]!r} in {kind}", f"fields: {allowed}")
    for name in sorted(required):
        if name not in data:
            raise NotationError(f"missing field {name!r} in {kind}", name)


def from_dict(data: Mapping[str, Any], *, extra: Collection[str] = ()) -> Action:
    """The action of a dict (:func:`to_dict`'s shape), or :class:`NotationError`.  ``extra`` are
    keys beside the action's own that the caller reads (a message's ``id`` and ``version``, the
    log's ``auto``); any other key is refused."""
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        shown = repr(kind[:40]) if isinstance(kind, str) else repr(kind)
        raise NotationError(f"unknown action type {shown}", f"type: one of {', '.join(ACTION_TYPES)}")
    check_fields(data, kind, extra)
    if kind == "draw":
        source = data["from"]
        action = _SOURCES.get(source) if isinstance(source, str) else None
        if action is None:
            raise NotationError(f"draw from {str(source)[:20]!r}?", 'from: "stock" or "pile"')
        return action
    if kind == "throw":
        return Action.throw(_card(data["card"]))
    if kind == "show":
        card = _card(data["card"])
        groups = data.get("groups")
        layout = data.get("layout")
        return Action.show(
            card,
            None if groups is None else _group_list(groups, "groups"),
            layout=None if layout is None else _group_list(layout, "layout"),
        )
    if kind == "open":
        return Action.open(_group_list(data["melds"], "melds"))
    if kind == "lay_down":
        return Action.lay_down(_card_list(data["cards"]))
    if kind == "lay_off":
        return Action.lay_off(_meld_id(data["meld"]), _card_list(data["cards"]))
    if kind == "swap":
        return Action.swap(_meld_id(data["meld"]), _card(data["card"]))
    return Action.drop() if kind == "drop" else Action.put_back()


# ---------------------------------------------------------------------------- the text


# The text is written by :func:`rummykit.engine.events.action_text` (an action's ``str``), which
# lives with the action so that events need not import this module; it is this notation's.
to_text: Final = action_text


_WORDS: Final = re.compile(r"\s+")
_SIMPLE: Final = {
    "draw stock": Action.draw_stock(),
    "draw pile": Action.draw_pile(),
    "drop": Action.drop(),
    "put back": Action.put_back(),
}
_WRONG_SHOW: Final = re.compile(r"wrong show (?P<card>\S+): .+?(?: \[declared: (?P<declared>[^\]]+)\])?")
_TEXT_VERBS: Final = (
    "draw stock | draw pile | take CARD | throw CARD | show CARD[: GROUP | ...[ [declared]]] | drop"
    " | open GROUP | ... | lay down CARDS | lay off MELD CARDS | swap MELD CARD | put back"
)


def _text_cards(text: str, what: str) -> list[int]:
    try:
        cards = parse_cards(text)
    except CardError as e:
        raise NotationError(f"{what}: {e}", "cards such as 10h Qs JK") from None
    if not 1 <= len(cards) <= MAX_CARDS:
        raise NotationError(f"{what} needs 1 to {MAX_CARDS} cards", "cards such as 10h Qs JK")
    return cards


def _text_groups(text: str, what: str) -> Groups:
    parts = text.split("|")
    if len(parts) > MAX_GROUPS:
        raise NotationError(f"{what} has more than {MAX_GROUPS} groups", "GROUP | GROUP | ...")
    return tuple(tuple(_text_cards(p, what)) for p in parts)


def _text_card(text: str, what: str) -> int:
    try:
        return parse_card(text)
    except CardError as e:
        raise NotationError(f"{what}: {e}", "a card such as 10h, Qs, JK") from None


def _text_meld(text: str, what: str) -> int:
    if not re.fullmatch(r"[0-9]{1,5}", text) or int(text) > MAX_MELD_ID:
        raise NotationError(f"{what}: {text!r} is no meld id", "a meld's id (1, 2, ...)")
    return int(text)


def from_text(text: str) -> Action:
    """The action of a text (:func:`to_text`'s, or a history line's after the seat)."""
    line = _WORDS.sub(" ", text.strip())
    simple = _SIMPLE.get(line)
    if simple is not None:
        return simple
    wrong = _WRONG_SHOW.fullmatch(line)
    if wrong is not None:  # a history's line: the show failed, for the reason it gives
        card = _text_card(wrong["card"], line)
        declared = wrong["declared"]
        return Action.show(card, None if declared is None else _text_groups(declared, line))
    verb, _, rest = line.partition(" ")
    if verb in ("lay", "put", "draw") and rest:
        second, _, rest = rest.partition(" ")
        verb = f"{verb} {second}"
    if not rest:
        raise NotationError(f"{line[:40]!r} is no action, or it is missing its cards", _TEXT_VERBS)
    if verb == "throw":
        return Action.throw(_text_card(rest, line))
    if verb == "take":  # a history's line: the card is what the pile gave
        _text_card(rest, line)
        return Action.draw_pile()
    if verb == "drop" and re.fullmatch(r"[0-9]{1,9}", rest):  # a history's line: the cost
        return Action.drop()
    if verb == "show":
        card_text, colon, groups = rest.partition(":")
        card = _text_card(card_text, line)
        if not colon:
            return Action.show(card)
        groups = groups.strip()
        if groups.endswith(DECLARED.strip()):
            return Action.show(card, _text_groups(groups.removesuffix(DECLARED.strip()), line))
        return Action.show(card, layout=_text_groups(groups, line))
    if verb == "open":
        points = re.fullmatch(r"(.+) \([0-9]{1,9}\)", rest)  # a history's line: the points
        return Action.open(_text_groups(points[1] if points else rest, line))
    if verb == "lay down":
        return Action.lay_down(_text_cards(rest, line))
    if verb in ("lay off", "swap"):
        meld, _, cards = rest.partition(" ")
        if not cards:
            raise NotationError(f"{line[:40]!r} names a meld and then its cards", _TEXT_VERBS)
        if verb == "swap":
            return Action.swap(_text_meld(meld, line), _text_card(cards, line))
        return Action.lay_off(_text_meld(meld, line), _text_cards(cards, line))
    raise NotationError(f"unknown action {line[:40]!r}", _TEXT_VERBS)


# ---------------------------------------------------------------------------- stored payloads

# Format 1 (stored until this module): ``{"a": KIND, ...}`` with KIND an ActionKind value or one
# of the table's steps, and the fields card / groups (a show's, or an opening's melds) / meld /
# cards / auto / match.  These names are storage keys too.
_FORMAT1_ACTIONS: Final = {
    "draw stock": ("draw", {"from": "stock"}),
    "draw pile": ("draw", {"from": "pile"}),
    "throw": ("throw", {}),
    "show": ("show", {}),
    "drop": ("drop", {}),
    "open": ("open", {}),
    "lay down": ("lay_down", {}),
    "lay off": ("lay_off", {}),
    "swap": ("swap", {}),
    "put back": ("put_back", {}),
}
_FORMAT1_STEPS: Final = {"ready": "next_round"}  # the one step whose name changed
_FORMAT1_KEYS: Final = frozenset({"a", "card", "groups", "meld", "cards", "auto", "match"})


def read_payload(payload: Mapping[str, Any]) -> dict[str, Any]:
    """A stored payload of any format, as format 2: the action's dict (or a step's
    ``{"type": NAME}``) with the log's own keys.  Steps (``join``, ``deal``, ``next_round``, ...)
    are the caller's: their names pass through, only checked to be text."""
    if not isinstance(payload, Mapping):
        raise NotationError("a stored action is a JSON object", "an object with a type")
    if "type" in payload:
        if not isinstance(payload["type"], str):
            raise NotationError(f"a stored type is text, not {payload['type']!r}", "type")
        return dict(payload)
    kind = payload.get("a")
    if not isinstance(kind, str):
        raise NotationError("a stored action has a type ('type', or 'a' in format 1)", "type")
    unknown = sorted(str(k) for k in payload if k not in _FORMAT1_KEYS)
    if unknown:
        raise NotationError(f"unknown field {unknown[0]!r} in a format-1 stored {kind}", "format 1's fields")
    out: dict[str, Any] = {k: v for k, v in payload.items() if k in LOG_KEYS}
    action = _FORMAT1_ACTIONS.get(kind)
    if action is None:
        return {"type": _FORMAT1_STEPS.get(kind, kind), **out}
    name, fixed = action
    body: dict[str, Any] = {"type": name, **fixed}
    for key in ("card", "meld", "cards"):
        if key in payload:
            body[key] = payload[key]
    if "groups" in payload:
        body["melds" if name == "open" else "groups"] = payload["groups"]
    return {**body, **out}
