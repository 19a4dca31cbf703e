"""What any one client may ask of the server: sizes, counts, rates, and the work behind them.

:class:`ServerLimits` is one small frozen config (``create_app(limits=...)``; ``rummykit serve
--limit KEY=VALUE``); every refusal it leads to is the API's usual ``{error, expected, got}``,
with ``Retry-After`` where waiting helps.  A *client* is a remote address (the socket's peer);
a proxy's header is read only when ``client_header`` names it (``docs/protocol.md``, "Limits").

:class:`RateLimiter` is a token bucket per client, itself bounded in how many clients it
remembers; :func:`read_body` reads a request body with a cap, refusing on ``Content-Length``
before reading anything and counting the bytes of a chunked body as they arrive.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import orjson
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse

from rummykit.server.protocol import nested_deeper_than, whole_number

__all__ = [
    "HttpRefusal",
    "Rate",
    "RateLimiter",
    "ServerLimits",
    "client_address",
    "read_body",
    "read_json",
    "token_list",
]

Rate = tuple[float, float]  # (burst, refill per second)
_CLIENTS_KEPT: Final = 10_000  # addresses a limiter remembers; the longest idle go first


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """The server's bounds on what clients ask (every one documented in ``docs/protocol.md``).

    Rates are ``(burst, per second)`` token buckets, ``None`` for no limit; counts of ``0`` where
    noted lift that limit (tests and benchmarks, never a public server)."""

    max_body: int = 16 * 1024  # bytes of an HTTP request body
    max_depth: int = 8  # nesting of lists and objects in a request body
    max_tokens: int = 100  # tokens one listing request may present
    table_rate: Rate | None = (10.0, 1 / 30)  # tables a client creates: 10 at once, then one per 30 s
    sheet_rate: Rate | None = (10.0, 1 / 30)  # score sheets a client creates
    message_rate: Rate | None = (200.0, 100.0)  # each socket's messages, before hello too
    sockets_per_client: int = 64  # open WebSockets from one client (0: no limit)
    client_header: str | None = None  # a trusted proxy's header naming the client, e.g. x-forwarded-for
    max_tables: int = 1000  # tables in memory that are not over (waiting, playing, between)
    max_waiting: int = 200  # of those, tables waiting for their first deal
    waiting_timeout: float = 3600.0  # seconds a table nobody joined waits before it is closed
    max_rounds: int = 50  # rounds any table may ask (the lobby's own maximum)
    bot_max_rounds: int = 10  # rounds a table with no human seat may ask
    bot_min_pace: float = 0.5  # seconds between a table's own moves while no human seat is connected
    hint_workers: int = 1  # threads that work out hints (shared by every table)
    hint_queue: int = 32  # hints waiting for a thread; beyond that a new hint is refused as busy
    max_sheet_deals: int = 500  # deals a score sheet may hold (each change replays them all)
    sheet_workers: int = 2  # threads that replay sheets and make their JSON, off the event loop
    pdf_workers: int = 1  # threads that render score-sheet PDFs
    pdf_queue: int = 4  # PDFs waiting for a thread; beyond that a PDF is refused as busy

    def __post_init__(self) -> None:
        for name in (
            *("max_body", "max_depth", "max_tokens", "max_rounds", "bot_max_rounds", "max_tables"),
            *("max_waiting", "hint_workers", "pdf_workers", "max_sheet_deals", "sheet_workers"),
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        for name in ("sockets_per_client", "hint_queue", "pdf_queue"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be 0 or more")
        if self.waiting_timeout <= 0 or self.bot_min_pace < 0:
            raise ValueError("waiting_timeout must be positive and bot_min_pace 0 or more")
        for name in ("table_rate", "sheet_rate", "message_rate"):
            rate = getattr(self, name)
            if rate is not None and not (len(rate) == 2 and rate[0] >= 1 and rate[1] > 0):
                raise ValueError(f"{name} must be (burst of at least 1, a positive rate) or None")

    @classmethod
    def lifted(cls, **changes: Any) -> ServerLimits:
        """No per-client rates and no pace floor (tests and benchmarks, whose one client plays far
        faster than people); sizes and the other bounds stay."""
        base: dict[str, Any] = {
            "table_rate": None,
            "sheet_rate": None,
            "message_rate": None,
            "sockets_per_client": 0,
            "bot_min_pace": 0.0,
            "bot_max_rounds": 1000,
        }
        return cls(**{**base, **changes})

    def with_settings(self, pairs: Sequence[str]) -> ServerLimits:
        """These limits with ``KEY=VALUE`` changes (``rummykit serve --limit``): numbers, ``off``
        for a rate or a header, ``BURST/SECONDS`` for a rate (``10/30``: ten, then one per 30 s)."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for pair in pairs:
            key, sep, text = pair.partition("=")
            key, text = key.strip().replace("-", "_"), text.strip()
            if not sep or key not in fields:
                raise ValueError(f"unknown limit {key!r}: expected one of {', '.join(fields)}")
            current = getattr(self, key)
            try:
                if key.endswith("_rate"):
                    if text == "off":
                        changes[key] = None
                    else:
                        burst, _, seconds = text.partition("/")
                        changes[key] = (float(burst), 1 / float(seconds or "1"))
                elif key == "client_header":
                    changes[key] = None if text in ("", "off") else text.lower()
                elif isinstance(current, int):
                    changes[key] = int(text)
                else:
                    changes[key] = float(text)
            except (ValueError, ZeroDivisionError):
                raise ValueError(f"limit {key}={text!r} is not a {type(current).__name__} value") from None
        return dataclasses.replace(self, **changes)


class HttpRefusal(Exception):
    """An HTTP request refused with ``status``: the API's ``{error, expected, got}``."""

    def __init__(
        self,
        status: int,
        reason: str,
        expected: str | None = None,
        got: str | None = None,
        *,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(reason)
        self.status, self.reason, self.expected, self.got = status, reason, expected, got
        self.retry_after = retry_after

    def response(self) -> JSONResponse:
        headers = {}
        if self.retry_after is not None:
            headers["Retry-After"] = str(max(1, math.ceil(self.retry_after)))
        body = {"error": self.reason, "expected": self.expected, "got": self.got}
        return JSONResponse(body, status_code=self.status, headers=headers)


class RateLimiter:
    """A token bucket per client.  It remembers at most :data:`_CLIENTS_KEPT` clients (a client
    forgotten starts again with a full bucket, no more than a new client gets)."""

    def __init__(self, rate: Rate | None, *, kept: int = _CLIENTS_KEPT) -> None:
        self.rate = rate
        self.kept = kept
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # client -> (tokens, at)

    def take(self, client: str, now: float | None = None) -> float:
        """Take one token for ``client``: ``0.0`` when it may go on, else the seconds until it may."""
        if self.rate is None:
            return 0.0
        burst, per_second = self.rate
        now = time.monotonic() if now is None else now
        tokens, at = self._buckets.pop(client, (burst, now))
        tokens = min(burst, tokens + (now - at) * per_second)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            return (1 - tokens) / per_second
        self._buckets[client] = (tokens - 1, now)
        while len(self._buckets) > self.kept:
            self._buckets.popitem(last=False)
        return 0.0


def client_address(conn: HTTPConnection, header: str | None) -> str:
    """The client a request or socket counts against: the peer's address, or, behind a proxy
    that the limits trust (``client_header``), the last address that proxy wrote in its header
    (the one it saw; earlier ones are whatever the client claimed)."""
    if header:
        value = conn.headers.get(header, "")
        last = value.rsplit(",", 1)[-1].strip()
        if last:
            return last[:100]
    return conn.client.host if conn.client is not None else "unknown"


def _too_large(size: str, limit: int) -> HttpRefusal:
    return HttpRefusal(413, f"the body is {size} bytes", f"at most {limit} bytes", f"{size} bytes")


async def read_body(request: Request, limit: int) -> bytes:
    """The body, at most ``limit`` bytes: refused (413) from its ``Content-Length`` before any of
    it is read, or, without one (chunked), as soon as more than ``limit`` bytes have come."""
    declared = request.headers.get("content-length")
    if declared is not None:
        size = whole_number(declared.strip(), 0, 10**18)
        if size is None:
            raise HttpRefusal(400, "Content-Length is not a number", "a byte count", declared[:20])
        if size > limit:
            raise _too_large(str(size), limit)
    chunks: list[bytes] = []
    got = 0
    async for chunk in request.stream():
        got += len(chunk)
        if got > limit:
            raise _too_large(f"more than {limit}", limit)
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(request: Request, limits: ServerLimits) -> object:
    """The body as JSON (``{}`` when empty), capped in bytes and in nesting."""
    raw = await read_body(request, limits.max_body)
    if not raw.strip():
        return {}
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        if "depth" in str(e):  # orjson's own limit (1024), past ours
            raise _too_deep(limits.max_depth) from None
        raise HttpRefusal(400, f"not JSON: {e}", "a JSON object", "text that is not JSON") from None
    if nested_deeper_than(data, limits.max_depth):
        raise _too_deep(limits.max_depth)
    return data


def _too_deep(limit: int) -> HttpRefusal:
    return HttpRefusal(
        400,
        f"the body nests more than {limit} levels deep",
        f"at most {limit} levels of lists and objects",
        "a deeper body",
    )


def token_list(conn: HTTPConnection, header: str, limits: ServerLimits) -> list[str]:
    """The tokens a listing request presents in ``header`` (separated by commas or spaces), at
    most ``limits.max_tokens`` of them, each a plausible link secret."""
    raw = conn.headers.get(header, "")
    if len(raw) > limits.max_tokens * 201:
        raise HttpRefusal(
            400,
            f"the {header} header is too long",
            f"at most {limits.max_tokens} tokens",
            f"{len(raw)} bytes",
        )
    tokens = raw.replace(",", " ").split()
    if len(tokens) > limits.max_tokens:
        raise HttpRefusal(
            400,
            f"{len(tokens)} tokens in {header}",
            f"at most {limits.max_tokens} tokens",
            f"{len(tokens)} tokens",
        )
    if any(len(token) > 200 for token in tokens):
        raise HttpRefusal(400, f"a token in {header} is too long", "tokens from the links", None)
    return list(dict.fromkeys(tokens))
