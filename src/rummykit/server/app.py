"""The ASGI app: the HTTP API, the WebSocket and the pages (``docs/protocol.md`` is the contract).

:func:`create_app` opens the store at once, so a bad database URL is one clear error before any
socket opens; the app's lifespan brings the live matches back (:meth:`Hub.start`) and closes
everything on the way out.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from rummykit.server.hub import Busy, Elsewhere, Hub, Live, TableGone
from rummykit.server.limits import (
    HttpRefusal,
    RateLimiter,
    ServerLimits,
    client_address,
    read_json,
    token_list,
)
from rummykit.server.lobby import options_json, parse_new_table
from rummykit.server.protocol import PROTOCOL_VERSION, Refusal, plain_id, whole_number
from rummykit.server.sheets import sheet_routes
from rummykit.server.table import TableOptions
from rummykit.storage import MatchRow, Store, StoreError

__all__ = ["STATIC", "TOKENS_HEADER", "create_app"]

STATIC: Final = Path(__file__).parent / "static"
TOKENS_HEADER: Final = "X-Tokens"  # the seat and watch tokens a listing of matches is for
_UNSET: Final[Any] = object()
# One page for a seat's table and the spectator's: the page reads its role from the URL.
PAGES: Final = {
    "table": "table.html",
    "watch": "table.html",
    "history": "history.html",
    "lobby": "index.html",
}


_PRIVATE: Final = {"Cache-Control": "no-store", "Vary": TOKENS_HEADER}


def _error(status: int, reason: str, expected: str | None = None, got: str | None = None) -> JSONResponse:
    return JSONResponse({"error": reason, "expected": expected, "got": got}, status_code=status)


def _refused(e: Refusal, status: int = 400) -> Response:
    if isinstance(e, Busy):
        return HttpRefusal(503, e.reason, e.expected, e.got, retry_after=e.retry_after).response()
    return _error(status, e.reason, e.expected, e.got)


def _gone(e: TableGone) -> JSONResponse:
    return _error(410, e.reason, "a new table from the lobby", e.match_id)


def create_app(
    database_url: str | None = None,
    *,
    connect_args: Mapping[str, Any] | None = None,
    bot_pace: float = 0.8,
    defaults: TableOptions | None = None,
    allow_seed: bool = False,
    message_rate: tuple[float, float] | None = _UNSET,
    freeze_gc: bool = False,
    limits: ServerLimits | None = None,
    redis_url: str | None = None,
    cluster_options: Mapping[str, Any] | None = None,
) -> Starlette:
    """The table server on the database at ``database_url`` (default: ``RUMMYKIT_DATABASE_URL`` or
    ``sqlite:///rummykit.db``).  ``bot_pace`` is the default seconds a bot takes for a move;
    ``allow_seed`` lets a request fix the deals' seed (tests and benchmarks only: whoever knows
    the seed knows every card).  ``limits`` bound what any one client may ask (sizes, rates,
    tables, hints: :class:`~rummykit.server.limits.ServerLimits`, its defaults when not given);
    ``message_rate``, when given, replaces its ``message_rate``: each socket's allowance, (burst,
    messages a second), ``None`` lifting it (tests and benchmarks whose clients play faster
    than people).
    ``freeze_gc`` (for a process that only serves, as ``rummykit serve``) moves everything alive
    once the matches are restored out of the cyclic collector's reach: its full passes then
    walk only what play creates, which keeps them short (they stall every table while they
    run).
    ``redis_url`` makes this server one of a cluster sharing the database through that Redis
    (``server/cluster.py``; ``cluster_options`` its keyword arguments: ``prefix``, ``lease_ms``,
    ...); without it the server holds every table itself."""
    limits = limits or ServerLimits()
    if message_rate is not _UNSET:
        limits = dataclasses.replace(limits, message_rate=message_rate)
    store = Store(database_url, connect_args=connect_args)
    options = defaults or TableOptions(bot_pace=bot_pace)
    hub = Hub(store, defaults=options, allow_seed=allow_seed, limits=limits)
    creations = RateLimiter(limits.table_rate)
    cluster = None
    if redis_url is not None:
        from rummykit.server.cluster import Cluster  # redis loads only for a cluster

        cluster = Cluster(hub, redis_url, **dict(cluster_options or {}))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        if cluster is not None:
            await cluster.start()
        if freeze_gc:
            gc.collect()
            gc.freeze()
        try:
            yield
        finally:
            if cluster is not None:
                await cluster.stop_taking()
            await hub.stop()
            if cluster is not None:
                await cluster.stop()
            store.close()

    async def live_or_404(request: Request) -> Live | Response:
        match_id = request.path_params["match_id"]
        if not plain_id(match_id):
            return _error(404, f"no match {match_id[:40]!r}", "a match id", match_id[:40])
        try:
            live = await hub.load(match_id)
        except StoreError as e:
            return _error(503, f"the database failed: {e}")
        except TableGone as e:
            return _gone(e)
        except Elsewhere:
            assert cluster is not None
            try:
                live = await cluster.snapshot(match_id)
            except TableGone as e:
                return _gone(e)
        if live is None:
            return _error(
                404, f"no match {match_id!r}", "a match id from a link or the history page", match_id
            )
        return live

    async def health(request: Request) -> Response:
        return JSONResponse(
            {
                "ok": True,
                "protocol": PROTOCOL_VERSION,
                "database": store.engine.dialect.name,
                **hub.stats(),
                **({} if cluster is None else {"cluster": cluster.stats()}),
            }
        )

    async def options_route(request: Request) -> Response:
        return JSONResponse(options_json(hub.defaults))

    async def create_table(request: Request) -> Response:
        wait = creations.take(client_address(request, limits.client_header))
        if wait:
            return HttpRefusal(
                429,
                "too many new tables from your address",
                f"at most {limits.table_rate[0]:g} at once, then one every {1 / limits.table_rate[1]:g} s"
                if limits.table_rate
                else None,
                "another new table",
                retry_after=wait,
            ).response()
        try:
            data = await read_json(request, limits)
        except HttpRefusal as e:
            return e.response()
        try:
            new = parse_new_table(data, hub.defaults, allow_seed=hub.allow_seed, limits=limits)
        except Refusal as e:
            return _refused(e)
        try:
            live, tokens = await hub.create(new)
        except Busy as e:
            return _refused(e)
        except StoreError as e:
            return _error(503, f"the database failed: {e}")
        table = live.table
        mid = table.match_id
        seats = [
            {
                "seat": info.seat,
                "name": info.name,
                "kind": info.kind,
                "bot": info.bot or None,
                "token": tokens[info.seat] or None,
                "invite": f"/t/{mid}?seat_token={tokens[info.seat]}" if tokens[info.seat] else None,
            }
            for info in table.seats
        ]
        return JSONResponse(
            {
                "match_id": mid,
                "seats": seats,
                "watch": f"/watch/{mid}?token={live.watch_token}",
                "watch_token": live.watch_token,
                "ws": f"/ws/{mid}",
            },
            status_code=201,
        )

    async def table_state(request: Request) -> Response:
        found = await live_or_404(request)
        if not isinstance(found, Live):
            return found
        seat_token = request.query_params.get("seat_token")
        watch_token = request.query_params.get("watch_token") or request.query_params.get("token")
        if (seat_token is None) == (watch_token is None):
            return _error(
                400, "give a seat_token or a watch_token", "?seat_token=... or ?watch_token=...", None
            )
        seat = hub.open_seat(found, seat_token, watch_token)
        if seat is False:
            return _error(
                403, "this token opens nothing at this table", "the token of this table's link", None
            )
        async with found.lock:
            return JSONResponse(hub.view_for(found, seat if isinstance(seat, int) else None, seat_token))

    def entry(row: MatchRow) -> dict[str, Any]:
        summary = row.summary or {}
        deals = int(summary.get("deals", 0))
        return {
            "match_id": row.id,
            "title": row.title,
            "preset": row.preset,
            "status": row.status,
            "created_at": row.created_at.isoformat() if row.created_at else None,
            "names": summary.get("names", []),
            "totals": summary.get("totals", []),
            "totals_text": summary.get("totals_text", []),
            "winners": summary.get("winners", []),
            "deals": deals,
            "histories": list(range(1, deals + 1)) if row.status == "over" else [],
        }

    async def matches(request: Request) -> Response:
        """The matches the tokens in the ``X-Tokens`` header open (a seat's, or a watch link's):
        nobody lists anyone else's matches."""
        status = request.query_params.get("status", "all")
        if status not in ("all", "over", "playing", "evicted"):
            return _error(400, f"unknown status {status[:20]!r}", "over, playing or all", status[:20])
        raw = request.query_params.get("limit", "50")
        limit = whole_number(raw, 1, 500)
        if limit is None:
            return _error(400, "limit is a whole number from 1 to 500", "limit=1 to 500", raw[:20])
        try:
            tokens = token_list(request, TOKENS_HEADER, limits)
        except HttpRefusal as e:
            return e.response()
        try:
            rows = await asyncio.to_thread(
                store.matches_for_tokens, tokens, status=None if status == "all" else status, limit=limit
            )
        except StoreError as e:
            return _error(503, f"the database failed: {e}")
        return JSONResponse({"matches": [entry(r) for r in rows]}, headers=_PRIVATE)

    async def match_detail(request: Request) -> Response:
        found = await live_or_404(request)
        if not isinstance(found, Live):
            return found
        row = await asyncio.to_thread(store.match, found.table.match_id)
        assert row is not None
        out = entry(row)
        async with found.lock:
            table = found.table
            sheet = dict(table.sheet_json())  # a copy: the table keeps its own
            sheet["text"] = table.session.match.table_text()
            out.update(
                names=list(table.names),
                sheet=sheet,
                phase=table.phase,
                deals=table.session.deals_played,
            )
        over = found.table.phase == "over"
        out["histories"] = list(range(1, out["deals"] + 1)) if over else []
        out["history_urls"] = [f"/api/matches/{row.id}/deals/{n}/history" for n in out["histories"]]
        return JSONResponse(out)

    async def deal_history(request: Request) -> Response:
        found = await live_or_404(request)
        if not isinstance(found, Live):
            return found
        table = found.table
        raw = request.path_params["n"]
        n = whole_number(raw, 1, 10_000)
        if n is None:
            return _error(400, "deals are counted from 1", "a deal number", raw[:20])
        if table.phase != "over":
            return _error(
                409,
                "the match is still being played: its hand histories open when it is over",
                "a finished match",
                table.phase,
            )
        text = await asyncio.to_thread(store.history, table.match_id, n - 1)
        if text is None:
            return _error(404, f"no deal {n} in this match", f"1 to {table.session.deals_played}", raw)
        filename = f"rummykit-{table.match_id}-deal-{n}.txt"
        return PlainTextResponse(
            text,
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    def page(name: str) -> Any:
        async def serve(request: Request) -> Response:
            path = STATIC / PAGES[name]
            if not path.is_file():
                path = STATIC / "index.html"
            return FileResponse(path, media_type="text/html; charset=utf-8")

        return serve

    async def socket(ws: WebSocket) -> None:
        if cluster is None:
            await hub.serve(ws, ws.path_params["match_id"])
        else:
            await cluster.serve(ws, ws.path_params["match_id"])

    STATIC.mkdir(exist_ok=True)
    routes = [
        Route("/api/health", health),
        Route("/api/options", options_route),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{match_id}", table_state),
        Route("/api/matches", matches),
        Route("/api/matches/{match_id}", match_detail),
        Route("/api/matches/{match_id}/deals/{n}/history", deal_history),
        WebSocketRoute("/ws/{match_id}", socket),
        Route("/", page("lobby")),
        Route("/t/{match_id}", page("table")),
        Route("/watch/{match_id}", page("watch")),
        Route("/history", page("history")),
        *sheet_routes(store, limits),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    app.state.store = store
    app.state.cluster = cluster
    return app
