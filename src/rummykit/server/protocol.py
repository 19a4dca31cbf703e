"""The wire: limits, the client's messages as typed values, and refusals that say what was expected.

Every client frame is one JSON object of at most :data:`MAX_MESSAGE_BYTES`.  :func:`parse_message`
turns it into a :class:`Message` or raises :class:`Refusal` whose ``reason``/``expected``/``got``
become the ``error`` message sent back to that client only (``docs/protocol.md``).  A message that
plays an action is the action's notation (:mod:`rummykit.engine.notation`) with an envelope
(``id``, ``version``): the notation reads it into the engine's :class:`Action`, the same dict the
action log stores.  Nothing here knows about tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

import orjson

from rummykit.engine.events import Action
from rummykit.engine.notation import FIELDS as ACTION_FIELDS
from rummykit.engine.notation import NotationError, from_dict, to_text
from rummykit.engine.numbers import whole_number

__all__ = [
    "HELLO_TIMEOUT",
    "MAX_MESSAGE_BYTES",
    "MAX_MESSAGE_DEPTH",
    "MAX_SOCKET_BYTES",
    "PROTOCOL_VERSION",
    "ConnState",
    "Message",
    "Refusal",
    "dumps",
    "nested_deeper_than",
    "parse_message",
    "peek_id",
    "plain_id",
    "url_token",
    "whole_number",
]

PROTOCOL_VERSION: Final = 2  # docs/protocol.md: 2 only adds fields to 1
MAX_MESSAGE_BYTES: Final = 4096  # a client frame; the largest real one (a declared show) is ~300 bytes
MAX_SOCKET_BYTES: Final = 64 * 1024  # beyond this uvicorn closes the socket (1009) before we read it
HELLO_TIMEOUT: Final = 10.0  # seconds a new socket has to say hello
MAX_MESSAGE_DEPTH: Final = 4  # the deepest real message is a show's groups: {"groups": [[card]]}
_MAX_ID: Final = 64
# Ids, numbers and tokens in paths and queries: ASCII only.  str.isdigit and str.isalnum take
# any script's digits and letters ("²", "٣", "é"), which int() then refuses or reads as another
# number; one strict spelling keeps every route to "a 404 or a 400", never a crash.
_PLAIN_ID: Final = re.compile(r"[0-9A-Za-z]+", re.ASCII)
_URL_TOKEN: Final = re.compile(r"[0-9A-Za-z_-]+", re.ASCII)


class ConnState(StrEnum):
    """A socket's place in the connection state machine."""

    CONNECTING = "CONNECTING"
    HELLO_RECEIVED = "HELLO_RECEIVED"
    PLAYING = "PLAYING"
    CLOSED = "CLOSED"


class Refusal(Exception):
    """A message or intent refused: ``reason`` in words, what was ``expected`` and what arrived."""

    def __init__(
        self,
        reason: str,
        expected: str | None = None,
        got: str | None = None,
        *,
        msg_id: str | int | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.expected = expected
        self.got = got
        self.msg_id = msg_id  # the refused message's id, when it could be read (echoed back)


def plain_id(raw: str, longest: int = 32) -> bool:
    """``raw`` could be a match's or a sheet's id: 1 to ``longest`` ASCII letters and digits."""
    return 1 <= len(raw) <= longest and _PLAIN_ID.fullmatch(raw) is not None


def url_token(raw: str, longest: int = 64) -> bool:
    """``raw`` could be a link's secret (:func:`secrets.token_urlsafe`): ASCII letters, digits,
    ``-`` and ``_``."""
    return 1 <= len(raw) <= longest and _URL_TOKEN.fullmatch(raw) is not None


def nested_deeper_than(value: object, limit: int) -> bool:
    """Whether JSON ``value`` nests lists and objects more than ``limit`` deep (iterative, so no
    depth of input can exhaust the stack)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Any
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


# The messages that are not actions: type -> (required fields, optional fields); "id" is allowed
# on every message.  An action's message is its notation, with "id" and "version".
_FIELDS: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    "hello": (frozenset(), frozenset({"seat_token", "watch_token", "last_version"})),
    "next_round": (frozenset(), frozenset({"version"})),
    "rejoin": (frozenset(), frozenset({"version"})),
    "start": (frozenset(), frozenset({"version"})),
    "rematch": (frozenset(), frozenset({"version"})),
    "hint": (frozenset(), frozenset({"version"})),
    "ping": (frozenset(), frozenset()),
}
_ENVELOPE: Final = ("id", "version")
MESSAGE_TYPES: Final = (*ACTION_FIELDS, *_FIELDS)
_TYPE_LIST: Final = ", ".join(MESSAGE_TYPES)


@dataclass(frozen=True, slots=True)
class Message:
    """One valid client message; ``action`` is the engine's action of a message that plays one."""

    type: str
    id: str | int | None = None
    version: int | None = None
    seat_token: str | None = None
    watch_token: str | None = None
    last_version: int | None = None
    action: Action | None = None

    def describe(self) -> str:
        """The message in a few words, for an error's ``got``: an action in its notation."""
        return self.type if self.action is None else to_text(self.action)


def dumps(data: Any) -> str:
    """JSON text of a message (orjson: the server sends many)."""
    return orjson.dumps(data).decode()


def _int_field(data: dict[str, Any], name: str, got: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Refusal(f"{name} must be a whole number, 0 or more", f"{name}: a version number", got)
    return value


def _token_field(data: dict[str, Any], name: str) -> str | None:
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= 200:
        raise Refusal(f"{name} must be the token text of a link", f"{name}: a string", "hello")
    return value


def _valid_id(data: dict[str, Any]) -> str | int | None:
    mid = data.get("id")
    if mid is None or isinstance(mid, bool) or not isinstance(mid, str | int) or len(str(mid)) > _MAX_ID:
        return None
    return mid


def peek_id(raw: str | None) -> str | int | None:
    """The ``id`` of a frame that is not read further (a client sending too fast), when it is a
    JSON object of at most :data:`MAX_MESSAGE_BYTES` with a valid id; else ``None``."""
    if raw is None or len(raw) > MAX_MESSAGE_BYTES:
        return None
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    return _valid_id(data) if isinstance(data, dict) else None


def parse_message(raw: str | None) -> Message:
    """The client's text frame as a :class:`Message`, or :class:`Refusal` saying what is wrong
    (``None`` stands for a binary frame, which is refused).  A refusal carries the message's
    ``id`` whenever the frame was JSON with a valid one, so the client can match the answer."""
    if raw is None:
        raise Refusal("binary frames are not read here", "a JSON object in a text frame", "a binary frame")
    size = len(raw) if raw.isascii() else len(raw.encode())
    if size > MAX_MESSAGE_BYTES:
        # not read at all (that is the point of the limit), so its id is not known
        raise Refusal(
            f"message too large: {size} bytes", f"at most {MAX_MESSAGE_BYTES} bytes", f"{size} bytes"
        )
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        raise Refusal(f"not JSON: {e}", "a JSON object", "text that is not JSON") from None
    if not isinstance(data, dict):
        raise Refusal("a message is a JSON object", "a JSON object with a type", type(data).__name__)
    mid = _valid_id(data)
    try:
        return _read(data)
    except Refusal as e:
        e.msg_id = mid
        raise


def _read(data: dict[str, Any]) -> Message:
    if nested_deeper_than(data, MAX_MESSAGE_DEPTH):
        raise Refusal(
            f"the message nests more than {MAX_MESSAGE_DEPTH} levels deep",
            f"at most {MAX_MESSAGE_DEPTH} levels of lists and objects",
            "a deeper message",
        )
    kind = data.get("type")
    if not isinstance(kind, str):
        raise Refusal("a message needs a type", f"type: one of {_TYPE_LIST}", repr(kind))
    mid = data.get("id")
    if mid is not None and (
        isinstance(mid, bool) or not isinstance(mid, str | int) or len(str(mid)) > _MAX_ID
    ):
        raise Refusal(f"id must be a string or a number of at most {_MAX_ID} characters", "id", kind)
    if kind in ACTION_FIELDS:
        version = _int_field(data, "version", kind)
        try:
            action = from_dict(data, extra=_ENVELOPE)
        except NotationError as e:
            raise Refusal(e.problem, e.expected, kind) from None
        return Message(kind, mid, version, action=action)
    spec = _FIELDS.get(kind)
    if spec is None:
        raise Refusal(f"unknown message type {kind[:40]!r}", f"one of {_TYPE_LIST}", kind[:40])
    required, optional = spec
    for name in data:
        if name not in required and name not in optional and name not in ("type", "id"):
            allowed = ", ".join(sorted({"type", "id", *required, *optional}))
            raise Refusal(f"unknown field {name[:40]!r} in {kind}", f"fields: {allowed}", name[:40])
    for name in sorted(required):
        if name not in data:
            raise Refusal(f"missing field {name!r} in {kind}", f"{name}", kind)
    version = _int_field(data, "version", kind)
    if kind == "hello":
        seat_token = _token_field(data, "seat_token")
        watch_token = _token_field(data, "watch_token")
        if (seat_token is None) == (watch_token is None):
            raise Refusal(
                "hello needs exactly one of seat_token and watch_token",
                "hello with seat_token (a seat's link) or watch_token (the watch link)",
                "hello",
            )
        return Message(
            kind,
            mid,
            seat_token=seat_token,
            watch_token=watch_token,
            last_version=_int_field(data, "last_version", kind),
        )
    return Message(kind, mid, version)
