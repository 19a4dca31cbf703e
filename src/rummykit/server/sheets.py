"""The score sheet for real tables on the web (seed 004): its pages and its JSON API.

People playing with real cards keep score here: a sheet is a :class:`~rummykit.engine.match.Match`
stored in the ``sheets`` table of the same database as the web table, entered deal by deal with
the terminal's entries (:mod:`rummykit.sheet.entry`: a number, or W D M F X, ``-`` for a player
out), so a deal means the same and is refused in the same words in both places.

Editing needs the sheet's edit token, shown once when the sheet is made and sent back in the
``X-Edit-Token`` header (the page keeps it in the browser); the share link ``/s/{share}`` opens a
read-only page.  Every refusal is a 4xx JSON ``{"error", "expected", "got"}`` like the rest of the
API, and a refused request changes nothing: the match checks an entry completely before it is
applied, and the store is written only after it was.  ``docs/score-sheet.md`` is the contract.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final, Literal

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from rummykit.engine.match import (
    EARLY_MARK,
    MAX_SEATS,
    MIN_SEATS,
    Match,
    PoolFormat,
    Status,
    compel_from,
    default_charge,
    rejoin_limit,
)
from rummykit.engine.rules import PRESET_NAMES, RulesError, normalize_preset_name
from rummykit.server.limits import (
    HttpRefusal,
    RateLimiter,
    ServerLimits,
    client_address,
    read_json,
    token_list,
)
from rummykit.server.protocol import plain_id, url_token, whole_number
from rummykit.sheet import sheet_html, sheet_pdf, sheet_view
from rummykit.sheet.entry import (
    EDITABLE_SETTINGS,
    HOW_TO_ENTER,
    LETTERS,
    EntryError,
    add_deal,
    edit_deal,
    entry_tokens,
    new_match,
    read_document,
    rejoin,
    sheet_document,
    sheet_rules,
    split_entries,
    undo,
)
from rummykit.sheet.render import default_title
from rummykit.storage import Store, StoreError
from rummykit.storage.store import SheetRow

__all__ = ["EDIT_HEADER", "EDIT_TOKENS_HEADER", "SHARE_TOKENS_HEADER", "SHEET_FORMATS", "sheet_routes"]

STATIC: Final = Path(__file__).parent / "static"
EDIT_HEADER: Final = "X-Edit-Token"
# The sheets list shows only the sheets these open: edit tokens, and share links' tokens.
EDIT_TOKENS_HEADER: Final = "X-Edit-Tokens"
SHARE_TOKENS_HEADER: Final = "X-Share-Tokens"
MAX_TITLE: Final = 200
MAX_NAME: Final = 40
MAX_ENTRY: Final = 16  # characters of one player's entry ("-120WD" is six)
# The formats the new-sheet form offers first, with the name people know them by; any other
# preset is accepted by name too (the sheet only adds what is typed).
SHEET_FORMATS: Final[Mapping[str, str]] = {
    "pool101": "Pool 101",
    "pool201": "Pool 201",
    "kerala": "Pool 250 (Kerala, two rejoins)",
    "indian": "Points",
    "deals": "Deals",
    "nepali": "Nepali settlement",
}
# The other house rules, in seed 004's words: "Points" alone would name three of them.
_OTHER_TITLES: Final[Mapping[str, str]] = {
    "maharashtra": "Points: Maharashtra home games",
    "north-indian": "Points: North Indian club rules",
}
# Format words the form and API accept besides the presets' names (pool250 is already one).
_FORMAT_WORDS: Final[Mapping[str, str]] = {"points": "indian", "settlement": "nepali"}
_PAPERS: Final = ("a4", "letter")


class Refused(Exception):
    """A request the sheet API answers with a 4xx: the reason, what was expected and what came,
    and for a refused entry every problem it has (``problems``, one sentence each)."""

    def __init__(
        self,
        status: int,
        reason: str,
        expected: str | None = None,
        got: str | None = None,
        problems: Sequence[str] = (),
    ) -> None:
        super().__init__(reason)
        self.status, self.reason, self.expected, self.got = status, reason, expected, got
        self.problems = tuple(problems)

    def response(self) -> JSONResponse:
        body: dict[str, Any] = {"error": self.reason, "expected": self.expected, "got": self.got}
        if self.problems:  # a refused entry: every problem, one sentence each
            body["problems"] = list(self.problems)
        return JSONResponse(body, status_code=self.status)


def _clip(value: object, limit: int = 60) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---- what the API answers ------------------------------------------------------------------------


def _buttons(match: Match) -> dict[str, int | None]:
    """The number each one-tap entry stands for (None: these rules do not have it)."""
    rules = match.rules
    deals = match.format.key == "deals"
    out: dict[str, int | None] = {}
    for letter, status in LETTERS.items():
        charge = default_charge(status, rules)
        if status in (Status.DROPPED, Status.MIDDLE_DROP) and (deals or not rules.dropping_allowed):
            charge = None
        if letter == EARLY_MARK and not rules.early_show_halves:
            charge = None  # no early show halves at this table
        out[letter] = charge
    return out


def _settings(match: Match) -> dict[str, Any]:
    rules = match.rules
    pool = isinstance(match.format, PoolFormat)
    return {
        **{name: getattr(rules, name) for name in EDITABLE_SETTINGS},
        "pool_out": rules.pool_out,
        "compel_from": compel_from(rules) if pool else None,
        "rejoin_limit": rejoin_limit(rules.pool_out) if pool and rules.pool_out is not None else None,
        "early_show_halves": rules.early_show_halves,
    }


def sheet_json(row: SheetRow, match: Match, title: str, *, can_edit: bool) -> dict[str, Any]:
    """Everything the page shows of a sheet: who stands where, the printed sheet's model
    (:func:`~rummykit.sheet.render.sheet_view`, so the page and the print agree), and what the
    next entry needs."""
    fmt = match.format
    offers = {offer.seat: offer for offer in match.rejoin_offers()}
    winners = set(match.winners)
    players = []
    for seat, name in enumerate(match.names):
        offer = offers.get(seat)
        players.append(
            {
                "seat": seat,
                "name": name,
                "total": match.totals[seat],
                "total_text": fmt.show_total(match.totals[seat]),
                "standing": match.standing(seat).value,
                "rejoins": match.rejoins_used(seat),
                "rejoin": None
                if offer is None
                else {"total": offer.total, "rejoins_left": offer.rejoins_left},
                "winner": seat in winners,
            }
        )
    deals = len(match.rows)
    last = None
    if match.rows:
        last_row = match.rows[-1]
        last = {
            "deal": last_row.index + 1,
            "entries": entry_tokens(match, last_row.entry),
            "seats": [s for s, st in enumerate(last_row.entry.statuses) if st is not Status.OUT],
        }
    share = row.share_token
    return {
        "id": row.id,
        "title": title,
        "preset": match.rules.preset,
        "format": fmt.key,
        "format_title": default_title(match).removesuffix(" score sheet"),
        "created_at": row.created_at.isoformat() if row.created_at else None,
        "updated_at": row.updated_at.isoformat() if row.updated_at else None,
        "can_edit": can_edit,
        "version": deals + len(match.rejoins),
        "names": list(match.names),
        "players": players,
        "seats_in": list(match.seats_in),
        "deals": deals,
        "over": match.is_over,
        "winners": sorted(winners),
        "next": None
        if match.is_over
        else {"deal": deals + 1, "dealer": match.names[match.dealer_for_deal(deals)]},
        "last": last,
        "settings": _settings(match),
        "buttons": _buttons(match),
        "how_to_enter": HOW_TO_ENTER,
        "view": dataclasses.asdict(sheet_view(match, title=title)),
        "settle_up": [{"payer": p.payer, "payee": p.payee, "amount": p.amount} for p in match.settle_up()],
        "links": {
            "page": f"/sheets/{row.id}",
            "share": f"/s/{share}",
            "pdf": f"/s/{share}.pdf",
            "print": f"/s/{share}/print",
        },
    }


def _list_entry(row: SheetRow, can_edit: bool = True) -> dict[str, Any]:
    """One line of the sheets list; a sheet that no longer reads is listed with the reason.
    ``can_edit``: the caller holds its edit token (else it came by the share link it holds)."""
    base: dict[str, Any] = {
        "id": row.id,
        "title": row.title,
        "updated_at": row.updated_at.isoformat() if row.updated_at else None,
        "share": f"/s/{row.share_token}",
        "can_edit": can_edit,
    }
    try:
        match, title = read_document(row.data)
    except EntryError as e:
        return {**base, "problem": str(e)}
    fmt = match.format
    return {
        **base,
        "title": title,
        "format_title": default_title(match).removesuffix(" score sheet"),
        "names": list(match.names),
        "totals_text": [fmt.show_total(total) for total in match.totals],
        "standings": [match.standing(seat).value for seat in range(match.players)],
        "deals": len(match.rows),
        "over": match.is_over,
        "result": match.status_line(),
    }


def _formats_json() -> dict[str, Any]:
    """The presets a sheet can start from, each with the values the form pre-fills."""
    formats = []
    order = [*SHEET_FORMATS, *(name for name in PRESET_NAMES if name not in SHEET_FORMATS)]
    for name in order:
        rules = sheet_rules(name)  # as a new sheet has it (open-ended points, Nepali wrong shows)
        match = Match.new(rules, 2, ["a", "b"])
        formats.append(
            {
                "preset": name,
                "title": SHEET_FORMATS.get(name)
                or _OTHER_TITLES.get(name, default_title(match).removesuffix(" score sheet")),
                "main": name in SHEET_FORMATS,
                "format": rules.format,
                "describe": match.format.describe(),
                "settings": {setting: getattr(rules, setting) for setting in EDITABLE_SETTINGS},
            }
        )
    return {"formats": formats, "editable": list(EDITABLE_SETTINGS), "players": [2, 8]}


# ---- reading requests ---------------------------------------------------------------------------


async def _body(request: Request, limits: ServerLimits) -> dict[str, Any]:
    data = await read_json(request, limits)  # capped in bytes and nesting before it is read
    if not isinstance(data, dict):
        raise Refused(400, "the body is not a JSON object", "a JSON object", type(data).__name__)
    return data


def _entries(data: Mapping[str, Any]) -> list[str]:
    """The deal's entries: a list with one string (or number) per player, or one line of text."""
    raw = data.get("entries")
    expected = 'entries: one per player, e.g. ["W", "25", "D", "-"], or a line "W 25 D -"'
    # counted before anything is built: a sheet has at most MAX_SEATS players
    if isinstance(raw, str) and len(raw) > MAX_SEATS * (MAX_ENTRY + 1):
        raise Refused(400, "the line of entries is too long", expected, f"{len(raw)} characters")
    if isinstance(raw, list) and len(raw) > MAX_SEATS:
        raise Refused(400, f"{len(raw)} entries", f"at most {MAX_SEATS}: {expected}", f"{len(raw)} entries")
    if isinstance(raw, list) and any(isinstance(t, str) and len(t) > MAX_ENTRY for t in raw):
        raise Refused(400, "an entry is too long", f"at most {MAX_ENTRY} characters each", None)
    if isinstance(raw, str):
        tokens = split_entries([raw])
    elif isinstance(raw, list) and all(
        isinstance(t, str) or (isinstance(t, int) and not isinstance(t, bool)) for t in raw
    ):
        tokens = [str(t).strip() for t in raw]
    else:
        raise Refused(400, "the deal has no entries", expected, _clip(raw) if raw is not None else None)
    if not tokens:
        raise Refused(400, "the deal has no entries", expected, "nothing")
    return tokens


def _players_out_of_range(count: int) -> str:
    return f"a match has {MIN_SEATS} to {MAX_SEATS} players, not {str(count)[:20]}"  # the match's words


def _names(raw: object) -> list[str] | int:
    """The players: names, a line of them separated by commas, or how many.  Every count is
    checked before a name is made (a count of 10**9 once built 10**9 names first)."""
    expected = f"players: {MIN_SEATS} to {MAX_SEATS} names, in seat order"
    if isinstance(raw, int) and not isinstance(raw, bool):
        if not MIN_SEATS <= raw <= MAX_SEATS:
            raise Refused(400, _players_out_of_range(raw), expected, str(raw)[:20])
        return raw
    if isinstance(raw, str):
        if len(raw) > MAX_SEATS * (MAX_NAME + 1):
            raise Refused(400, "the list of names is too long", expected, f"{len(raw)} characters")
        raw = [name for name in raw.split(",")]
    if isinstance(raw, list) and not MIN_SEATS <= len(raw) <= MAX_SEATS:
        raise Refused(400, _players_out_of_range(len(raw)), expected, f"{len(raw)} names")
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise Refused(400, "name the players", expected, None if raw is None else _clip(raw))
    names = [name.strip() for name in raw]
    for name in names:
        if len(name) > MAX_NAME:
            raise Refused(400, f"the name {_clip(name, 24)!r} is too long", f"at most {MAX_NAME} letters")
    return names


def _settings_in(raw: object) -> dict[str, object]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise Refused(400, "settings is not an object", 'settings: {"drop_first": 20, ...}', _clip(raw))
    return {str(key): value for key, value in raw.items()}


def _paper(request: Request) -> str:
    paper = request.query_params.get("paper", "a4").lower()
    if paper not in _PAPERS:
        raise Refused(400, f"unknown paper {_clip(paper, 20)!r}", "paper=a4 or paper=letter", paper[:20])
    return paper


# ---- the routes -----------------------------------------------------------------------------------


Handler = Callable[[Request], Awaitable[Response]]


def sheet_routes(store: Store, limits: ServerLimits | None = None) -> list[BaseRoute]:
    """The score sheet's pages and API on ``store``; mount them before the static files.
    ``limits``: the body cap, new sheets per client, deals a sheet holds, PDFs at once."""
    limits = limits or ServerLimits()
    creations = RateLimiter(limits.sheet_rate)
    # PDFs take a third of a second for 200 deals: a thread of their own, and a short queue.
    pdf_pool = ThreadPoolExecutor(limits.pdf_workers, thread_name_prefix="rummykit-pdf")
    pdfs_waiting = 0
    # Replaying a sheet and making its JSON take tens of milliseconds at a few hundred deals:
    # threads of their own, so a flood of sheet requests queues there and the event loop (every
    # table's moves) never waits on it.
    sheet_pool = ThreadPoolExecutor(limits.sheet_workers, thread_name_prefix="rummykit-sheet")

    async def off_loop(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(
            sheet_pool, functools.partial(fn, *args, **kwargs)
        )

    # One lock per sheet: two requests changing the same sheet at once would each replay the
    # stored log and the later save would drop the other's deal.
    locks: dict[str, asyncio.Lock] = {}

    def guarded(handler: Handler) -> Handler:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except (Refused, HttpRefusal) as e:
                return e.response()
            except StoreError as e:
                return Refused(503, f"the database failed: {e}").response()

        return run

    async def load(sheet_id: str) -> tuple[SheetRow, Match, str]:
        if not plain_id(sheet_id):
            raise Refused(404, f"no sheet {_clip(sheet_id, 40)!r}", "a sheet id from a link", sheet_id[:40])
        row = await asyncio.to_thread(store.sheet, sheet_id)
        if row is None:
            raise Refused(
                404, f"no sheet {sheet_id!r}", "a sheet id from a link or the sheets page", sheet_id
            )
        return (row, *(await off_loop(_read, row)))

    async def load_shared(share: str) -> tuple[SheetRow, Match, str]:
        row = None
        if url_token(share):
            row = await asyncio.to_thread(store.sheet_by_share, share)
        if row is None:
            raise Refused(404, "no sheet is shared by this link", "a share link", share[:64])
        return (row, *(await off_loop(_read, row)))

    def _read(row: SheetRow) -> tuple[Match, str]:
        try:
            return read_document(row.data)
        except EntryError as e:
            raise Refused(500, f"the stored sheet {row.id} does not read: {e}") from None

    async def editable(request: Request) -> str:
        """The sheet id, once the request's edit token opens it (else 401 or 403)."""
        sheet_id: str = request.path_params["sheet_id"]
        await load(sheet_id)  # 404 before 401: an unknown sheet is named as such
        token = request.headers.get(EDIT_HEADER, "")
        if not token:
            raise Refused(
                401,
                "editing a sheet needs its edit token",
                f"the {EDIT_HEADER} header with the token given when the sheet was made",
                None,
            )
        if not await asyncio.to_thread(store.can_edit_sheet, sheet_id, token):
            raise Refused(
                403,
                "this token does not edit this sheet (a share link only reads it)",
                "the edit token given when the sheet was made",
                None,
            )
        return sheet_id

    def can_edit(request: Request, row: SheetRow) -> bool:
        token = request.headers.get(EDIT_HEADER, "")
        return bool(token) and store.can_edit_sheet(row.id, token)

    def change(action: Callable[[Match, dict[str, Any]], str], expected: str | None = None) -> Handler:
        """A change to a sheet: checked, applied to the match, stored, then answered with the sheet
        and the sentence that says what happened.  A refusal stores nothing."""

        async def handler(request: Request) -> Response:
            sheet_id = await editable(request)
            data = await _body(request, limits)
            lock = locks.setdefault(sheet_id, asyncio.Lock())
            async with lock:
                row, match, title = await load(sheet_id)
                version = data.get("version")
                now = len(match.rows) + len(match.rejoins)
                if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
                    raise Refused(400, "version is a whole number", "the sheet's version", _clip(version))
                if version is not None and version != now:
                    raise Refused(
                        409,
                        "the sheet changed since you loaded it: reload it and enter the deal again",
                        f"version {version}",
                        f"version {now}",
                    )
                try:
                    said = await off_loop(action, match, data)
                except EntryError as e:
                    raise Refused(400, str(e), expected, problems=e.problems) from None
                document = await off_loop(sheet_document, match, title)
                await asyncio.to_thread(store.save_sheet, sheet_id, document)
                fresh = await asyncio.to_thread(store.sheet, sheet_id)
                answer = await off_loop(sheet_json, fresh or row, match, title, can_edit=True)
            return JSONResponse({"message": said, "sheet": answer})

        return handler

    # -- the API --

    async def formats(request: Request) -> Response:
        return JSONResponse(_formats_json())

    async def list_sheets(request: Request) -> Response:
        """The sheets the presented tokens open: edit tokens (``X-Edit-Tokens``) and share links'
        tokens (``X-Share-Tokens``).  Nobody lists anyone else's sheets or share links."""
        raw = request.query_params.get("limit", "50")
        limit = whole_number(raw, 1, 500)
        if limit is None:
            raise Refused(400, "limit is a whole number from 1 to 500", "limit=1 to 500", raw[:20])
        edits = token_list(request, EDIT_TOKENS_HEADER, limits)
        shares = token_list(request, SHARE_TOKENS_HEADER, limits)
        rows = await asyncio.to_thread(store.sheets_for_tokens, edits, shares, limit=limit)
        headers = {"Cache-Control": "no-store", "Vary": f"{EDIT_TOKENS_HEADER}, {SHARE_TOKENS_HEADER}"}
        listed = await off_loop(lambda: [_list_entry(row, mine) for row, mine in rows])
        return JSONResponse({"sheets": listed}, headers=headers)

    async def create(request: Request) -> Response:
        wait = creations.take(client_address(request, limits.client_header))
        if wait:
            raise HttpRefusal(
                429, "too many new sheets from your address", None, "another new sheet", retry_after=wait
            )
        data = await _body(request, limits)
        preset = data.get("preset", data.get("format"))
        if not isinstance(preset, str):
            raise Refused(
                400, "choose the sheet's format", f"preset: one of {', '.join(SHEET_FORMATS)}", _clip(preset)
            )
        try:
            preset = normalize_preset_name(_FORMAT_WORDS.get(preset.strip().lower(), preset))
        except RulesError as e:
            raise Refused(400, str(e), f"preset: one of {', '.join(PRESET_NAMES)}", preset[:40]) from None
        title = data.get("title") or ""
        if not isinstance(title, str) or len(title) > MAX_TITLE:
            raise Refused(400, "the title is too long or not text", f"at most {MAX_TITLE} letters")
        dealer = data.get("dealer")
        if isinstance(dealer, str) and len(dealer) > MAX_NAME:
            raise Refused(400, "dealer is a player's name", f"at most {MAX_NAME} letters", _clip(dealer))
        if dealer is not None and not isinstance(dealer, str | int):
            raise Refused(400, "dealer is a player's name", "a name or a seat number from 1", _clip(dealer))
        try:
            rules = sheet_rules(preset, _settings_in(data.get("settings")))
            match = new_match(rules, _names(data.get("players")), dealer=str(dealer) if dealer else None)
        except EntryError as e:
            raise Refused(400, str(e), "players: 2 to 8 different names") from None
        title = title.strip() or default_title(match)
        document = await off_loop(sheet_document, match, title)
        row, token = await asyncio.to_thread(store.create_sheet, document, title)
        body = await off_loop(sheet_json, row, match, title, can_edit=True)
        return JSONResponse(
            {"id": row.id, "edit_token": token, "edit": f"/sheets/{row.id}#edit={token}", "sheet": body},
            status_code=201,
        )

    async def detail(request: Request) -> Response:
        row, match, title = await load(request.path_params["sheet_id"])
        editing = await asyncio.to_thread(can_edit, request, row)
        return JSONResponse(await off_loop(sheet_json, row, match, title, can_edit=editing))

    async def shared(request: Request) -> Response:
        row, match, title = await load_shared(request.path_params["share"])
        return JSONResponse(await off_loop(sheet_json, row, match, title, can_edit=False))

    def do_add(match: Match, data: dict[str, Any]) -> str:
        if len(match.rows) >= limits.max_sheet_deals:
            raise Refused(
                400,
                f"this sheet is full: {limits.max_sheet_deals} deals",
                "a new sheet for the next deals",
                f"deal {len(match.rows) + 1}",
            )
        row = add_deal(match, _entries(data))
        return f"Deal {row.index + 1} added."

    def do_edit(match: Match, data: dict[str, Any]) -> str:
        row = edit_deal(match, _entries(data))
        return f"Deal {row.index + 1} replaced."

    def do_undo(match: Match, data: dict[str, Any]) -> str:
        return undo(match)

    def do_rejoin(match: Match, data: dict[str, Any]) -> str:
        who = data.get("player")
        if isinstance(who, int) and not isinstance(who, bool):
            if not 0 <= who < match.players:
                raise Refused(400, f"no seat {who}", f"a seat from 0 to {match.players - 1}", str(who))
            who = match.names[who]  # a seat index
        if not isinstance(who, str) or not who.strip() or len(who) > MAX_NAME:
            raise Refused(400, "name the player who rejoins", 'player: a name, e.g. {"player": "Asha"}')
        return rejoin(match, who)

    # -- printing --

    async def pdf(request: Request, row: SheetRow, match: Match, title: str) -> Response:
        nonlocal pdfs_waiting
        paper = _paper(request)
        if pdfs_waiting >= limits.pdf_workers + limits.pdf_queue:
            raise HttpRefusal(503, "too many PDFs at once: try again in a moment", None, None, retry_after=2)
        pdfs_waiting += 1
        try:
            size: Literal["a4", "letter"] = "a4" if paper == "a4" else "letter"
            data = await asyncio.get_running_loop().run_in_executor(
                pdf_pool, lambda: sheet_pdf(match, title=title, paper=size)
            )
        finally:
            pdfs_waiting -= 1
        return Response(
            data,
            media_type="application/pdf",
            headers={"Content-Disposition": f'inline; filename="rummykit-sheet-{row.id}.pdf"'},
        )

    async def pdf_by_id(request: Request) -> Response:
        return await pdf(request, *(await load(request.path_params["sheet_id"])))

    async def pdf_by_share(request: Request) -> Response:
        return await pdf(request, *(await load_shared(request.path_params["share"])))

    async def print_by_id(request: Request) -> Response:
        _, match, title = await load(request.path_params["sheet_id"])
        return HTMLResponse(await off_loop(sheet_html, match, title=title))

    async def print_by_share(request: Request) -> Response:
        _, match, title = await load_shared(request.path_params["share"])
        return HTMLResponse(await off_loop(sheet_html, match, title=title))

    # -- the pages (the script reads the sheet from the API) --

    def page(name: str) -> Handler:
        async def serve(request: Request) -> Response:
            return FileResponse(STATIC / name, media_type="text/html; charset=utf-8")

        return serve

    async def sheet_page(request: Request) -> Response:
        await load(request.path_params["sheet_id"])  # an unknown sheet is a 404, not an empty page
        return FileResponse(STATIC / "sheet-edit.html", media_type="text/html; charset=utf-8")

    async def shared_page(request: Request) -> Response:
        await load_shared(request.path_params["share"])
        return FileResponse(STATIC / "sheet-edit.html", media_type="text/html; charset=utf-8")

    endpoints: Sequence[tuple[str, Handler, list[str]]] = (
        ("/api/sheet-formats", formats, ["GET"]),
        ("/api/sheets", list_sheets, ["GET"]),
        ("/api/sheets", create, ["POST"]),
        ("/api/sheets/{sheet_id}", detail, ["GET"]),
        ("/api/sheets/{sheet_id}/deals", change(do_add, HOW_TO_ENTER), ["POST"]),
        ("/api/sheets/{sheet_id}/deals/last", change(do_edit, HOW_TO_ENTER), ["PUT"]),
        ("/api/sheets/{sheet_id}/deals/last", change(do_undo), ["DELETE"]),
        ("/api/sheets/{sheet_id}/rejoin", change(do_rejoin, "a player who is out and may rejoin"), ["POST"]),
        ("/api/s/{share}", shared, ["GET"]),
        ("/sheets", page("sheets.html"), ["GET"]),
        ("/sheets/{sheet_id}.pdf", pdf_by_id, ["GET"]),
        ("/sheets/{sheet_id}/print", print_by_id, ["GET"]),
        ("/sheets/{sheet_id}", sheet_page, ["GET"]),
        ("/s/{share}.pdf", pdf_by_share, ["GET"]),
        ("/s/{share}/print", print_by_share, ["GET"]),
        ("/s/{share}", shared_page, ["GET"]),
    )
    return [Route(path, guarded(handler), methods=methods) for path, handler, methods in endpoints]
