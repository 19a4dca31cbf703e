"""The hub: every live table, its sockets, its bots and clocks, and the store behind them.

Order of work for anything that changes a table (an intent from a socket, a bot's move, a clock
running out, the next deal): take the table's lock, let the table :meth:`~Table.check` it, append
it to the store's action log, :meth:`~Table.commit` it, then queue each socket's message.  So
nothing is ever sent that is not stored, and a refused intent changes nothing anywhere.

Each socket has an outbound queue and a writer task, so a slow client never holds a table's lock;
a client that falls :data:`MAX_QUEUE` messages behind is disconnected (it reconnects and catches
up).  Each table has one driver task that sleeps until the table's next :class:`~Step` (a bot's
move after its pace, an away seat's deadline, the next deal) or until something changes.

What any one client can make the hub do is bounded by :class:`~rummykit.server.limits.ServerLimits`:
how many tables are in memory (a table waiting for players nobody has open is closed after a
while, or first when room is needed; its state stays in the store, marked ``evicted``), how fast
a table plays while no human seat is connected, how many sockets one client holds and how fast
each one talks, and hints: one search per seat and version, in a pool of their own.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import functools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy import select
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from rummykit.bots import BOT_NAMES, BasePlayer, BotError, Player, make_player
from rummykit.bots.hint import hint
from rummykit.engine.events import Action
from rummykit.engine.history import dump as dump_history
from rummykit.engine.notation import to_dict
from rummykit.engine.rules import Rules, RulesError, get_preset, stored_rules
from rummykit.engine.words import action_words, plain
from rummykit.server.limits import ServerLimits, client_address
from rummykit.server.lobby import NewTable, table_bot_names
from rummykit.server.protocol import (
    HELLO_TIMEOUT,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    ConnState,
    Message,
    Refusal,
    dumps,
    parse_message,
    peek_id,
    plain_id,
)
from rummykit.server.table import Entry, Intent, SeatInfo, Step, Table, TableOptions
from rummykit.storage import LeaseLost, NewSeat, SeatRow, Store, StoreError, hash_token

__all__ = ["CATCHUP_LIMIT", "MAX_QUEUE", "Busy", "Conn", "Elsewhere", "Hub", "Live", "TableGone"]

log = logging.getLogger("rummykit.server")

MAX_QUEUE: Final = 500  # messages a socket may fall behind before it is dropped
CATCHUP_LIMIT: Final = 500  # missed events sent as an update; more, and the client gets a state
# Bots that answer in well under a millisecond think on the event loop; the others (the
# difficulty bots search, ``hard`` for ~0.1 s) in a worker thread, so no table waits on them.
FAST_BOTS: Final = frozenset({"random", "greedy", "easy"})
RATE: Final = (200.0, 100.0)  # a socket's message bucket: burst, refill per second (people never come close)
KEEP_OVER: Final = 100  # finished tables kept in memory with nobody watching
EVICTED: Final = "evicted"  # a match's status in the store once the hub closed it unplayed
CLOSE_EVICTED: Final = 4410  # the close code for a socket to a table the hub closed
CLOSE_MOVED: Final = 1012  # the table went to another server of the cluster: reconnect


class Busy(Refusal):
    """The server has no room for this now (too many tables, hints or PDFs at once): try again
    after ``retry_after`` seconds.  The HTTP API answers 503 with ``Retry-After``."""

    def __init__(self, reason: str, expected: str | None, retry_after: float) -> None:
        super().__init__(reason, expected, None)
        self.retry_after = retry_after


class TableGone(Exception):
    """The match exists but the hub closed it (see :meth:`Hub.evict`): ``reason`` says why."""

    def __init__(self, match_id: str, reason: str) -> None:
        super().__init__(reason)
        self.match_id = match_id
        self.reason = reason


class Elsewhere(Exception):
    """Another server of the cluster holds the match (``server/cluster.py``): ``owner`` names it."""

    def __init__(self, match_id: str, owner: str) -> None:
        super().__init__(f"match {match_id} is held by {owner}")
        self.match_id = match_id
        self.owner = owner


def _now() -> float:
    return time.monotonic()


class Conn:
    """One socket: its state in the connection state machine, who it is, and its outbound queue."""

    def __init__(self, ws: WebSocket, rate: tuple[float, float] | None = RATE) -> None:
        self.ws = ws
        self.rate = rate
        self.state = ConnState.CONNECTING
        self.live: Live | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.close_code: int | None = None
        self._tokens, self._refilled = (rate or RATE)[0], _now()

    def send(self, text: str) -> None:
        """Queue a message; a client too far behind is closed (its writer sends nothing more)."""
        if self.state is ConnState.CLOSED:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.close(4429)
            return
        self.queue.put_nowait(text)

    def send_json(self, data: Mapping[str, Any]) -> None:
        self.send(dumps(data))

    def close(self, code: int) -> None:
        """Close after what is queued (the writer closes the socket with ``code``)."""
        if self.close_code is None:
            self.close_code = code
            self.queue.put_nowait(None)

    def error(self, refusal: Refusal, msg_id: str | int | None = None) -> None:
        """Send ``refusal`` to this client, with the id of the message it answers (``msg_id``, or
        the one :func:`parse_message` read before it refused the message)."""
        if msg_id is None:
            msg_id = refusal.msg_id
        live = self.live
        out: dict[str, Any] = {
            "type": "error",
            "reason": refusal.reason,
            "expected": refusal.expected,
            "got": refusal.got,
            "version": None if live is None else live.table.version,
        }
        if msg_id is not None:
            out["id"] = msg_id
        self.send_json(out)

    def take_token(self) -> bool:
        """Rate limit: a token from the bucket, or False when the client sends too fast."""
        if self.rate is None:
            return True
        now = _now()
        burst, rate = self.rate
        self._tokens = min(burst, self._tokens + (now - self._refilled) * rate)
        self._refilled = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    async def writer(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the client went away; the reader sees it too
        finally:
            if self.close_code is not None and self.ws.application_state is WebSocketState.CONNECTED:
                with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
                    await self.ws.close(self.close_code)


@dataclass(eq=False)
class Live:
    """A table in memory with its lock, sockets, bots and driver."""

    table: Table
    watch_token: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    conns: set[Conn] = field(default_factory=set)
    seat_conns: dict[int, Conn] = field(default_factory=dict)
    players: dict[int, Player] = field(default_factory=dict)
    rematch_watch: str | None = None
    driver: asyncio.Task[None] | None = None
    born: float = field(default_factory=_now)  # when it was loaded
    idle_since: float | None = field(default_factory=_now)  # since no socket is open (None: one is)
    closed: str | None = None  # why the hub closed this table (it is no longer in Hub.tables)
    hints: dict[tuple[int, int], asyncio.Task[dict[str, Any]]] = field(default_factory=dict)
    fence: int | None = None  # the cluster's fencing token this server writes the log under

    @property
    def bots_only(self) -> bool:
        return not self.table.humans()


class Hub:
    """Every table this server holds, and everything that touches them."""

    def __init__(
        self,
        store: Store,
        *,
        defaults: TableOptions | None = None,
        allow_seed: bool = False,
        limits: ServerLimits | None = None,
    ) -> None:
        self.store = store
        self.limits = limits or ServerLimits()
        self.message_rate = self.limits.message_rate
        # Writes go through one thread on SQLite: it takes one writer at a time anyway, and
        # threads queueing on its lock sleep in whole milliseconds.  PostgreSQL takes several.
        sqlite = store.engine.dialect.name == "sqlite"
        self._writer = ThreadPoolExecutor(max_workers=1 if sqlite else 4, thread_name_prefix="rummykit-db")
        self.defaults = defaults or TableOptions()
        self.allow_seed = allow_seed
        self.tables: dict[str, Live] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False
        self._creating = asyncio.Lock()  # room is made and a table added as one step
        self._sockets: collections.Counter[str] = collections.Counter()  # open sockets per client
        # Hints search for up to a quarter of a second each: they get threads of their own, so
        # a flood of them queues here, not in front of the bots' moves and the store's reads.
        self._hint_pool = ThreadPoolExecutor(self.limits.hint_workers, thread_name_prefix="rummykit-hint")
        self._hints_pending = 0
        self.counts: collections.Counter[str] = collections.Counter()  # work done: hint searches, evictions
        # In a cluster (server/cluster.py): take a match's lease before loading it, answering its
        # fencing token, None for no such match, or Elsewhere when another server holds it.
        self.claim: Callable[[str], Awaitable[int | None]] | None = None

    # ---- life cycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Bring back every live match from the store, where its log left it (in a cluster, the
        cluster brings back the matches no server holds, and keeps doing so)."""
        if self.claim is not None:
            return
        rows = await asyncio.to_thread(self.store.live_matches)
        for row in rows:
            try:
                await self.load(row.id)
            except Exception:  # one bad match must not stop the server
                log.exception("match %s could not be restored", row.id)

    async def stop(self) -> None:
        """Stop the drivers, close the sockets, let pending writes (histories, summaries) finish."""
        self._closing = True
        drivers = [t for live in self.tables.values() if (t := live.driver) is not None]
        for task in drivers:
            task.cancel()
        for live in list(self.tables.values()):
            for conn in list(live.conns):
                conn.close(1001)
        await asyncio.gather(*drivers, return_exceptions=True)
        if self._tasks:
            _done, pending = await asyncio.wait(list(self._tasks), timeout=5.0)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        self._writer.shutdown(wait=True)
        self._hint_pool.shutdown(wait=False, cancel_futures=True)

    async def _write(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a store write on the writer thread(s)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, functools.partial(fn, *args, **kwargs))

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            error = task.exception()
            if not isinstance(error, Refusal):  # a refusal nobody waited for any more
                log.error("a table task failed", exc_info=error)

    async def _shielded(self, coro: Coroutine[Any, Any, Any]) -> Any:
        """Run a change of a table in a task of the hub's own, and wait for it.

        A connection's task may be cancelled at any await (its client went away, the server is
        stopping); a change of a table must not stop between its write to the store and its
        commit, or memory would fall behind the log.  So the change runs to its end in its own
        task, lock and all, whatever happens to the task waiting for it."""
        return await asyncio.shield(self._spawn(coro))

    # ---- tables --------------------------------------------------------------------------------

    async def create(self, new: NewTable) -> tuple[Live, list[str]]:
        """A new table in the store and in memory; returns it and each human seat's secret token.
        :class:`Busy` when there is no room for it (see :meth:`make_room`)."""
        seed = new.seed if new.seed is not None else secrets.token_hex(8)
        seats = [NewSeat(s.name, s.kind, s.bot) for s in new.seats]
        async with self._creating:
            await self.make_room(waiting=any(s.kind == "human" for s in new.seats))
            row, tokens = await self._write(
                lambda: self.store.create_match(
                    preset=new.preset,
                    settings=new.rules.settings(),
                    seed=seed,
                    seats=seats,
                    title=new.title,
                    options=new.options.to_dict(),
                )
            )
            live = await self.load(row.id)
        assert live is not None
        summary = self._summary(live.table)  # the listing names the seats from the start
        await self._write(lambda: self.store.update_match(row.id, summary=summary))
        return live, tokens

    async def load(self, match_id: str) -> Live | None:
        """The table of ``match_id``, rebuilt from the store if it is not in memory; ``None`` if
        there is no such match, :class:`TableGone` if the hub closed it."""
        live = self.tables.get(match_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(match_id, asyncio.Lock())
        try:
            async with lock:
                live = self.tables.get(match_id)
                if live is None:
                    fence = None
                    if self.claim is not None:  # in a cluster: this server's lease first
                        fence = await self.claim(match_id)
                        if fence is None:
                            return None
                    live = await asyncio.to_thread(self._build, match_id)
                    if live is None:
                        return None
                    live.fence = fence
                    self.tables[match_id] = live
                    self._evict()
                    self._start(live)
        finally:
            if not lock.locked():  # nobody else is loading it: forget the lock (ids can be guessed)
                self._loading.pop(match_id, None)
        return live

    def loading(self, match_id: str) -> bool:
        """Whether :meth:`load` is bringing ``match_id`` into memory now."""
        return match_id in self._loading

    def replica(self, match_id: str) -> Live | None:
        """The match rebuilt from its log for reading only: nothing stored, no driver (a cluster's
        HTTP read of a table another server holds; the log is what that server acknowledged)."""
        return self._build(match_id, write=False)

    def _build(self, match_id: str, *, write: bool = True) -> Live | None:
        """Read a match and replay its log (in a worker thread: it touches the database)."""
        row = self.store.match(match_id)
        if row is None:
            return None
        if row.status == EVICTED:
            raise TableGone(match_id, str((row.summary or {}).get("closed") or "this table was closed"))
        seats = [SeatInfo(s.seat, s.name, s.kind, s.bot, s.token_hash) for s in self.store.seats(match_id)]
        broken: str | None = None
        try:
            rules = stored_rules(row.preset, row.settings)  # a table stored before a setting existed
        except RulesError as e:
            rules = get_preset(row.preset)
            broken = f"the stored rules do not load: {e}"
        try:
            table = Table(
                match_id, rules, row.seed, seats, TableOptions.from_dict(row.options or {}), title=row.title
            )
        except ValueError as e:  # settings a table cannot be built from: leave the match unloaded
            log.error("match %s: %s", match_id, e)
            return None
        now = _now()
        if broken is None:
            table.replay(((a.seat, a.payload) for a in self.store.actions(match_id)), now)
        else:
            table.broken = broken
        if table.broken:
            log.error("match %s: %s", match_id, table.broken)
        live = Live(table, row.watch_token)
        if table.rematch is not None:
            other = self.store.match(table.rematch)
            live.rematch_watch = None if other is None else other.watch_token
        for info in seats:
            if not info.human:
                live.players[info.seat] = self._player(info, row.seed, rules)
        # the bots that keep notes hear the current deal again
        if table.deals and table.phase == "playing":
            start = max(i for i, e in enumerate(table.log) if e.kind == "dealt")
            self._observe(live, table.log[start:])
        if not write:
            return live
        self._missing_histories(table)
        if table.phase == "over" and row.status != "over":
            # the last run stopped before it marked the match over
            self.store.update_match(match_id, status="over", summary=self._summary(table))
        return live

    def _player(self, info: SeatInfo, seed: str, rules: Rules) -> Player:
        """The seat's bot, for the family of ``rules``; a name the family has no bot of plays as
        the family's best (a table-family match stored with a level it does not have yet)."""
        bots = table_bot_names() if rules.is_table else BOT_NAMES
        name = info.bot if info.bot in bots else bots[-1]
        try:
            return make_player(name, f"{seed}/bot/{info.seat}", rules)
        except BotError:
            return make_player(bots[-1], f"{seed}/bot/{info.seat}", rules)

    def _missing_histories(self, table: Table) -> None:
        """Store the history of a finished deal the last run did not get to store."""
        done = {n for n, _ in self.store.histories(table.match_id)}
        finished = table.session.deals_played
        for n in range(finished):
            if n not in done:
                self._save_history(table, n)

    def _save_history(self, table: Table, n: int) -> None:
        self.store.save_history(table.match_id, n, self._history(table, n))

    def _history(self, table: Table, n: int) -> str:
        """Deal ``n``'s hand history, its seats named as at the table (a finished deal: it no
        longer changes, so any thread may read it)."""
        seats = next(e.seats for e in table.log if e.kind == "dealt" and e.deal == n)
        names = [table.names[s] for s in seats]
        return dump_history(table.deals[n], names=names, match={"id": table.match_id, "deal": n + 1})

    def _summary(self, table: Table) -> dict[str, Any]:
        sheet = table.sheet_json()
        return {
            "names": list(table.names),
            "totals": sheet["totals"],
            "totals_text": sheet["totals_text"],
            "winners": sheet["winners"],
            "deals": table.session.deals_played,
            "format": sheet["format"],
        }

    def _evict(self) -> None:
        """Forget finished tables nobody watches, beyond the newest :data:`KEEP_OVER`."""
        idle = [
            m for m, live in self.tables.items() if live.table.phase in ("over", "broken") and not live.conns
        ]
        for match_id in idle[: max(0, len(idle) - KEEP_OVER)]:
            live = self.tables.pop(match_id)
            if live.driver is not None:
                live.driver.cancel()

    def _active(self) -> list[Live]:
        return [live for live in self.tables.values() if live.table.phase not in ("over", "broken")]

    async def make_room(self, *, waiting: bool) -> None:
        """Room for one more table (``waiting``: one that will wait for its players) under
        ``max_tables`` and ``max_waiting``: close the table that has waited longest with no
        socket open, else (for ``max_tables``) the oldest table of bots only that nobody
        watches, else the table everyone left longest ago (more than ``waiting_timeout``: it
        plays on by itself, for nobody).  A table with a person at it is never closed: with
        none to close, :class:`Busy`."""
        limits = self.limits
        active = self._active()
        full = len(active) >= limits.max_tables
        waiting_full = waiting and sum(live.table.phase == "waiting" for live in active) >= limits.max_waiting
        if not (full or waiting_full):
            return
        idle = [live for live in active if live.table.phase == "waiting" and not live.conns]
        victim = min(idle, key=lambda live: live.idle_since or 0.0, default=None)
        why = "to make room for a new table: it had waited longest for its players"
        if victim is None and full:
            bots = [live for live in active if live.bots_only and not live.conns]
            victim = min(bots, key=lambda live: live.born, default=None)
            why = "to make room for a new table: it was the oldest table of bots only, with nobody watching"
        if victim is None and full:
            since = _now() - limits.waiting_timeout
            left = [live for live in active if not live.conns and (live.idle_since or since) < since]
            victim = min(left, key=lambda live: live.idle_since or 0.0, default=None)
            why = (
                f"to make room for a new table: everyone had left it more than "
                f"{_duration(limits.waiting_timeout)} before"
            )
        if victim is None:
            what = "tables" if full else "tables waiting for their players"
            raise Busy(
                f"the server is full: {limits.max_tables if full else limits.max_waiting} {what} are open",
                "try again in a minute",
                60.0,
            )
        await self.evict(victim, why)

    async def evict(self, live: Live, why: str) -> None:
        """Close a table that is not being played: out of memory, its sockets closed (4410), its
        state kept in the store with status ``evicted`` and the reason, which its link then tells."""
        table = live.table
        if live.closed is not None:
            return
        reason = f"this table was closed {why}"
        live.closed = reason
        self.tables.pop(table.match_id, None)
        self.counts["evicted"] += 1
        log.info("match %s: %s", table.match_id, reason)
        for conn in list(live.conns):
            conn.error(Refusal(reason, "a new table from the lobby", None))
            conn.close(CLOSE_EVICTED)
        if live.driver is not None and live.driver is not asyncio.current_task():
            live.driver.cancel()
        summary = {**self._summary(table), "closed": reason}
        try:
            await self._write(
                lambda: self.store.update_match(table.match_id, status=EVICTED, summary=summary)
            )
        except StoreError:
            log.exception("match %s: its eviction was not stored", table.match_id)

    def let_go(self, match_id: str, why: str) -> None:
        """Forget a table another server now holds (its lease was lost): the driver stops, the
        sockets close with :data:`CLOSE_MOVED` and reconnect to the new holder.  Nothing is
        stored: the log is the new holder's now.  No await, so it cannot interleave a change."""
        live = self.tables.pop(match_id, None)
        if live is None or live.closed is not None:
            return
        live.closed = why
        log.warning("match %s: %s", match_id, why)
        for conn in list(live.conns):
            conn.error(Refusal(why, "reconnect: the table goes on on another server", None))
            conn.close(CLOSE_MOVED)
        if live.driver is not None and live.driver is not asyncio.current_task():
            live.driver.cancel()

    def _idle_wait(self, live: Live) -> float | None:
        """Seconds until a waiting table nobody has open times out (``None``: it does not)."""
        if live.table.phase != "waiting" or live.conns or live.idle_since is None:
            return None
        return live.idle_since + self.limits.waiting_timeout - _now()

    def _paced(self, live: Live, step: Step) -> Step:
        """``step`` no sooner than ``bot_min_pace`` after the table's last change while no human
        seat is connected (a table of bots only, or everyone away): such a table is nobody's
        game to wait for, and it must not take the server's time as fast as it can move."""
        pace = self.limits.bot_min_pace
        table = live.table
        if pace <= 0 or any(table.connected[s] for s in table.humans()):
            return step
        floor = table.changed_at + pace
        if step.due >= floor:
            return step
        # a bot starts thinking at the floor too: the driver's wait for it ends when someone
        # comes back, where a bot's pause, once it is thinking, would not
        return dataclasses.replace(step, due=floor, not_before=max(step.not_before, floor))

    def _start(self, live: Live) -> None:
        if live.driver is None and not self._closing:
            live.driver = asyncio.get_running_loop().create_task(self._drive(live))

    # ---- changing a table ----------------------------------------------------------------------

    async def play(
        self,
        live: Live,
        seat: int | None,
        intent: Intent,
        *,
        origin: Conn | None = None,
        msg_id: str | int | None = None,
    ) -> list[Entry]:
        """Check, store, commit and send one intent.  The caller holds ``live.lock``."""
        table = live.table
        table.check(seat, intent)
        deal_no = len(table.deals) - (0 if intent.step == "deal" else 1)
        try:
            await self._write(
                self.store.append_action,
                table.match_id,
                table.actions,
                max(deal_no, 0),
                seat,
                intent.payload(),
                fence=live.fence,
            )
        except LeaseLost as e:
            self.let_go(table.match_id, "this table moved to another server")
            why = f"could not save the move: {e}"
            raise Refusal(why, "reconnect and play it again", intent.words) from None
        except StoreError as e:
            raise Refusal(f"could not save the move: {e}", "try again in a moment", intent.words) from None
        entries = table.commit(seat, intent, _now())
        self._fan_out(live, entries, origin, msg_id)
        self._observe(live, entries)
        live.wake.set()
        if any(e.kind == "deal_ended" for e in entries):
            self._spawn(self._deal_finished(live, len(table.deals) - 1, table.phase == "over"))
        return entries

    async def _deal_finished(self, live: Live, n: int, over: bool) -> None:
        """Store the deal's history and the listing's summary (derived data, after the sends)."""
        table = live.table
        summary = self._summary(table)
        text = self._history(table, n)
        try:
            await self._write(self.store.save_history, table.match_id, n, text)
            await self._write(
                lambda: self.store.update_match(
                    table.match_id, status="over" if over else None, summary=summary
                )
            )
        except StoreError:
            log.exception("match %s: deal %d's history or summary was not stored", table.match_id, n + 1)

    def _observe(self, live: Live, entries: list[Entry]) -> None:
        """Bots that keep notes hear every event as their seat sees it."""
        for seat, player in live.players.items():
            if getattr(type(player), "observe", None) is BasePlayer.observe:
                continue
            for e in entries:
                if e.event is not None and seat in e.seats:
                    player.observe(e.event.seen_by(e.seats.index(seat)))

    def rematch_url(self, live: Live, seat: int | None, token: str | None) -> str | None:
        """The link to the rematch for a seat holding ``token`` (its own seat there), or the
        rematch's watch link for a spectator."""
        target = live.table.rematch
        if target is None:
            return None
        if seat is None:
            return None if live.rematch_watch is None else f"/watch/{target}?token={live.rematch_watch}"
        return None if token is None else f"/t/{target}?seat_token={token}"

    def _fan_out(
        self, live: Live, entries: list[Entry], origin: Conn | None, msg_id: str | int | None
    ) -> None:
        table = live.table
        now = _now()
        made: dict[int | None, dict[str, Any]] = {}
        texts: dict[int | None, str] = {}
        for conn in list(live.conns):
            if conn.state is not ConnState.PLAYING:
                continue
            key = conn.seat
            message = made.get(key)
            if message is None:
                message = made[key] = {
                    "type": "update",
                    "version": table.version,
                    "events": [table.render(e, key) for e in entries],
                    "view": table.view(key, now, rematch_url=self.rematch_url(live, conn.seat, conn.token)),
                }
            text = texts.get(key)
            if text is None:
                text = texts[key] = dumps(message)
            if conn is origin and msg_id is not None:
                # the seat's text with the intent's id added last: the bytes dumps({**message,
                # "id": msg_id}) would write, without a second encoding of the whole view
                text = f"{text[:-1]},{dumps({'id': msg_id})[1:]}"
            conn.send(text)

    def _presence(self, live: Live) -> None:
        table = live.table
        message = dumps(
            {
                "type": "presence",
                "version": table.version,
                "seats": [
                    {
                        "seat": s.seat,
                        "connected": table.connected[s.seat],
                        "away_turns": table.auto_turns[s.seat],
                    }
                    for s in table.seats
                ],
                "deadline": table.deadline(_now()),
            }
        )
        for conn in live.conns:
            if conn.state is ConnState.PLAYING:
                conn.send(message)

    # ---- the driver: bots, clocks, deals ---------------------------------------------------------

    async def _drive(self, live: Live) -> None:
        table = live.table
        # (not closing: so a stop ends it even had a wake swallowed its cancel; not closed: a
        # table another server took over is no longer this one's to drive)
        while not self._closing and live.closed is None:
            live.wake.clear()
            step = table.next_step(_now())
            if step is None:
                idle = self._idle_wait(live)
                if idle is None:
                    await live.wake.wait()
                    continue
                if idle > 0:
                    await _woken(live, idle)
                    continue  # woken, or time is up: look again
                waited = _duration(self.limits.waiting_timeout)
                await self.evict(live, f"after waiting {waited} for its players with nobody at it")
                return
            step = self._paced(live, step)
            delay = step.due - _now()
            if delay > 0 and await _woken(live, delay):
                continue  # something changed: think again
            try:
                await self._perform(live, step)
            except asyncio.CancelledError:
                raise
            except Refusal as e:
                log.warning(
                    "match %s: the table's own %s was refused: %s", table.match_id, step.kind, e.reason
                )
                await asyncio.sleep(1.0)  # the database is likely down: try again soon
            except Exception:
                log.exception("match %s: %s failed", table.match_id, step.kind)
                await asyncio.sleep(1.0)
            else:
                await asyncio.sleep(0)  # let sockets and other tables run between bot moves

    async def _perform(self, live: Live, step: Step) -> None:
        table = live.table
        seat = step.seat
        if step.kind == "bot":
            assert seat is not None
            await self._bot_move(live, step, seat)
            return
        async with live.lock:
            if table.version != step.version:
                return
            if step.kind == "deal":
                await self.play(live, None, Intent(step="deal"))
            elif step.kind == "bot_rejoin":
                await self.play(live, seat, Intent(step="rejoin"))
            elif step.kind == "auto":
                assert seat is not None
                await self.play(live, seat, table.auto_intent(seat))

    async def _bot_move(self, live: Live, step: Step, seat: int) -> None:
        """A bot's move: it thinks from its seat's view while its pause runs, then plays."""
        table = live.table
        async with live.lock:
            if table.version != step.version or table.deal is None:
                return
            dseat = table.session.deal_seat(seat)
            assert dseat is not None
            view = table.deal.view(dseat)
        player = live.players[seat]
        intent: Intent | None
        try:
            if table.seats[seat].bot in FAST_BOTS and not table.is_table:
                action = player.choose(view)
            else:
                action = await asyncio.to_thread(player.choose, view)
            intent = Intent.of(action)
        except Exception:
            log.exception("match %s: bot %s failed to choose", table.match_id, player.name)
            intent = None
        await asyncio.sleep(max(0.0, step.not_before - _now()))  # the rest of its pause
        async with live.lock:
            if table.version != step.version:
                return
            if intent is not None:
                try:
                    await self.play(live, seat, intent)
                    return
                except Refusal as e:
                    if e.reason.startswith("could not save"):
                        raise
                    log.error("match %s: bot %s chose %s: %s", table.match_id, player.name, intent, e.reason)
            # a bot that fails or breaks the contract must not stall the table: play for it
            await self.play(live, seat, table.auto_intent(seat))

    # ---- sockets -----------------------------------------------------------------------------

    async def serve(self, ws: WebSocket, match_id: str) -> None:
        """One socket from accept to close (``docs/protocol.md``, the connection states)."""
        await ws.accept()
        conn = Conn(ws, self.message_rate)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        client = client_address(ws, self.limits.client_header)
        most = self.limits.sockets_per_client
        self._sockets[client] += 1
        try:
            if most and self._sockets[client] > most:
                conn.error(
                    Refusal(
                        "too many connections from your address",
                        f"at most {most} open at once: close some tables' windows",
                        f"{self._sockets[client]} connections",
                    )
                )
                conn.close(1013)  # try again later
                return
            try:
                live = await self.load(match_id) if plain_id(match_id) else None
            except TableGone as gone:
                conn.error(Refusal(gone.reason, "a new table from the lobby", match_id))
                conn.close(CLOSE_EVICTED)
                return
            except Elsewhere:  # the cluster routed this socket here as the match moved away
                conn.error(Refusal("this table moved to another server", "reconnect", match_id))
                conn.close(CLOSE_MOVED)
                return
            if live is None:
                conn.error(Refusal(f"no match {match_id[:40]!r} here", "a table's link", match_id[:40]))
                conn.close(4404)
                return
            conn.live = live
            if not await self._hello(conn, live):
                return
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                await self._on_message(conn, live, message.get("text"))
                if conn.close_code is not None:
                    break
        except WebSocketDisconnect:
            pass
        finally:
            # Plain code, no await: this runs even when the connection's task is being cancelled.
            self._detach(conn)
            self._sockets[client] -= 1
            if self._sockets[client] <= 0:
                del self._sockets[client]
            conn.state = ConnState.CLOSED
            if conn.close_code is None:
                conn.close(1000)
            try:
                await asyncio.wait_for(writer, 5.0)  # flush the last error and the close code
            except TimeoutError:
                pass
            finally:
                writer.cancel()

    async def _hello(self, conn: Conn, live: Live) -> bool:
        """CONNECTING until a good hello; then welcome and the first update or state."""
        deadline = _now() + HELLO_TIMEOUT
        while True:
            try:
                message = await asyncio.wait_for(conn.ws.receive(), max(0.0, deadline - _now()))
            except TimeoutError:
                conn.error(Refusal("no hello in time", f"hello within {HELLO_TIMEOUT:g} seconds", "nothing"))
                conn.close(4408)
                return False
            if message["type"] == "websocket.disconnect":
                return False
            text = message.get("text")
            if not conn.take_token():  # before hello too: a socket that never says hello is no cheaper
                conn.error(self._too_fast(conn), peek_id(text))
                continue
            try:
                msg = parse_message(text)
            except Refusal as e:
                conn.error(e)
                continue
            if msg.type != "hello":
                conn.error(
                    Refusal("expected hello first (the connection is CONNECTING)", "hello", msg.type), msg.id
                )
                continue
            seat = self._authenticate(live, msg)
            if seat is False:
                what = "seat" if msg.seat_token is not None else "watch"
                conn.error(
                    Refusal(
                        f"this token opens no {what} at this table", "the token of this table's link", "hello"
                    ),
                    msg.id,
                )
                conn.close(4403)
                return False
            break
        conn.state = ConnState.HELLO_RECEIVED
        conn.seat = None if seat is None else seat
        conn.token = msg.seat_token
        await self._shielded(self._attach(conn, live, msg.last_version))
        return True

    async def _attach(self, conn: Conn, live: Live, last_version: int | None) -> None:
        """HELLO_RECEIVED -> PLAYING: take the seat (from an older window too), welcome, the first
        view, and the seat's first join."""
        async with live.lock:
            table = live.table
            if live.closed is not None:  # closed while this hello was on its way
                conn.error(Refusal(live.closed, "a new table from the lobby", "hello"))
                conn.close(CLOSE_EVICTED)
                return
            live.idle_since = None
            if conn.seat is not None:
                old = live.seat_conns.get(conn.seat)
                if old is not None:
                    old.error(
                        Refusal("this seat was opened in another window", "use the newest window", None)
                    )
                    old.close(4409)
                    old.state = ConnState.CLOSED
                    live.conns.discard(old)
                live.seat_conns[conn.seat] = conn
                table.set_connected(conn.seat, True, _now())
            live.conns.add(conn)
            conn.send_json(
                {
                    "type": "welcome",
                    "protocol": PROTOCOL_VERSION,
                    "role": "spectator" if conn.seat is None else "seat",
                    "seat": conn.seat,
                    "match_id": table.match_id,
                    "name": None if conn.seat is None else table.names[conn.seat],
                    "version": table.version,
                    "max_message_bytes": MAX_MESSAGE_BYTES,
                }
            )
            self._first_view(conn, live, last_version)
            conn.state = ConnState.PLAYING
            first = conn.seat is not None and conn.seat not in table.joined
            if first and table.phase in ("waiting", "playing", "between"):
                with contextlib.suppress(Refusal):
                    await self.play(live, conn.seat, Intent(step="join"))
            self._presence(live)
            live.wake.set()

    def _authenticate(self, live: Live, msg: Message) -> int | bool | None:
        """The seat a seat token opens, ``None`` for the watch token, ``False`` for neither."""
        table = live.table
        if msg.seat_token is not None:
            wanted = hash_token(msg.seat_token)
            for info in table.seats:
                if info.token_hash and secrets.compare_digest(info.token_hash, wanted):
                    return info.seat
            return False
        watch = msg.watch_token
        if (
            watch is not None
            and live.watch_token
            and secrets.compare_digest(live.watch_token.encode(), watch.encode())
        ):
            return None
        return False

    def _first_view(self, conn: Conn, live: Live, last: int | None) -> None:
        table = live.table
        now = _now()
        view = table.view(conn.seat, now, rematch_url=self.rematch_url(live, conn.seat, conn.token))
        if last is not None and last <= table.version and table.version - last <= CATCHUP_LIMIT:
            events = [table.render(e, conn.seat) for e in table.log[last:]]
            conn.send_json(
                {"type": "update", "version": table.version, "events": events, "view": view, "catchup": True}
            )
        else:
            conn.send_json({"type": "state", "version": table.version, "view": view})

    def _detach(self, conn: Conn) -> None:
        """Forget a closed socket.  No lock: nothing here awaits, so it cannot interleave with a
        change of the table halfway, and it must run even in a cancelled task."""
        live = conn.live
        if live is None or conn not in live.conns:
            return
        live.conns.discard(conn)
        if not live.conns:
            live.idle_since = _now()
            live.wake.set()  # a waiting table's time-out starts now
        if conn.seat is not None and live.seat_conns.get(conn.seat) is conn:
            del live.seat_conns[conn.seat]
            live.table.set_connected(conn.seat, False, _now())
            self._presence(live)
            live.wake.set()

    async def _on_message(self, conn: Conn, live: Live, text: str | None) -> None:
        """One frame in the PLAYING state (``text`` is ``None`` for a binary frame)."""
        msg_id: str | int | None = None
        try:
            if not conn.take_token():
                msg_id = peek_id(text)
                raise self._too_fast(conn)
            msg = parse_message(text)
            msg_id = msg.id
            if msg.type == "ping":
                conn.send_json({"type": "pong"} if msg_id is None else {"type": "pong", "id": msg_id})
                return
            if msg.type == "hello":
                raise Refusal("already said hello (the connection is PLAYING)", "an intent", "hello")
            if conn.seat is None:
                raise Refusal("spectators only watch", "nothing: a watch link cannot act", msg.describe())
            if msg.type == "hint":
                await self._hint(conn, live, msg)  # changes nothing: it need not be shielded
            elif msg.type == "rematch":
                await self._shielded(self._rematch(conn, live, msg))
            else:
                await self._shielded(self._submit(conn, live, msg))
        except Refusal as e:
            conn.error(e, msg_id)

    @staticmethod
    def _too_fast(conn: Conn) -> Refusal:
        limit = (conn.rate or RATE)[1]
        return Refusal("too many messages", f"at most {limit:g} messages a second", "a burst")

    async def _submit(self, conn: Conn, live: Live, msg: Message) -> None:
        assert conn.seat is not None
        async with live.lock:
            table = live.table
            if msg.version is not None and msg.version != table.version:
                raise Refusal(
                    f"stale: the table is at version {table.version}, you sent {msg.version}",
                    f"version {table.version}",
                    f"version {msg.version}",
                )
            await self.play(live, conn.seat, _intent(msg), origin=conn, msg_id=msg.id)

    async def _hint(self, conn: Conn, live: Live, msg: Message) -> None:
        """The hard bot's suggestion for the asking seat's own decision, with a one-line reason
        (only where the table's ``hints`` option is on).  It is worked out from that seat's view
        alone, in the hint threads (it searches for up to a quarter of a second), once per seat
        and table version: asking again before anything changed answers the same hint."""
        table = live.table
        seat = conn.seat
        assert seat is not None
        if not table.options.hints:
            raise Refusal(
                "hints are off at this table", "play on: the table was set up without hints", "hint"
            )
        async with live.lock:
            deal = table.deal
            if table.phase != "playing" or deal is None or table.to_play() != seat:
                to_play = table.to_play()
                why = "a hint is for your own turn"
                if to_play is not None and to_play != seat:
                    why += f": {table.names[to_play]} is to play"
                raise Refusal(why, "ask for a hint when it is your turn", "hint")
            if msg.version is not None and msg.version != table.version:
                raise Refusal(
                    f"stale: the table is at version {table.version}, you sent {msg.version}",
                    f"version {table.version}",
                    f"version {msg.version}",
                )
            version = table.version
            search = live.hints.get((seat, version))
            if search is None:
                if self._hints_pending >= self.limits.hint_workers + self.limits.hint_queue:
                    raise Busy("the hints are busy: ask again in a moment", "a hint in a moment", 1.0)
                dseat = table.session.deal_seat(seat)
                assert dseat is not None
                view = deal.view(dseat)
                names = [table.names[s] for s in table.session.deal_seats]  # the reason names melds' owners
                # one search per seat and version: the table's older ones are done with
                live.hints = {key: task for key, task in live.hints.items() if key[1] == version}
                self._hints_pending += 1  # counted now: two asks in one turn of the loop see it
                self.counts["hint_searches"] += 1
                search = live.hints[(seat, version)] = self._spawn(
                    self._work_out_hint(table.match_id, view, names, version)
                )
            else:
                self.counts["hints_shared"] += 1
        out = dict(await asyncio.shield(search))  # the asker may go; the search is the table's
        if msg.id is not None:
            out["id"] = msg.id
        conn.send_json(out)

    async def _work_out_hint(
        self, match_id: str, view: Any, names: list[str], version: int
    ) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "hint", "version": version}
        try:
            loop = asyncio.get_running_loop()
            action, reason = await loop.run_in_executor(
                self._hint_pool, functools.partial(hint, view, names=names)
            )
        except Exception as e:  # the hint bot does not read this game (yet), or failed
            log.info("match %s: no hint (%s: %s)", match_id, type(e).__name__, e)
            out.update(action=None, text="No hint for this game yet.", reason=None)
        else:
            wire = to_dict(action)
            out.update(action=wire, text=hint_text(action, reason), reason=reason)
        finally:
            self._hints_pending -= 1
        return out

    async def _rematch(self, conn: Conn, live: Live, msg: Message) -> None:
        """A new match with the same rules, seats and options.  Each human seat keeps its secret:
        the new seats get the old seats' token hashes, so the link a player holds opens their
        seat at the rematch too (and nothing else there)."""
        table = live.table
        async with live.lock:
            if msg.version is not None and msg.version != table.version:
                raise Refusal(
                    f"stale: the table is at version {table.version}", f"version {table.version}", None
                )
            assert conn.seat is not None
            table.check(conn.seat, Intent(step="rematch", target="?"))
            async with self._creating:
                await self.make_room(waiting=True)
                row, _tokens = await self._write(
                    lambda: self.store.create_match(
                        preset=table.rules.preset,
                        settings=table.rules.settings(),
                        seed=secrets.token_hex(8),
                        seats=[NewSeat(s.name, s.kind, s.bot) for s in table.seats],
                        title=table.title,
                        options=table.options.to_dict(),
                    )
                )
                await self._write(self._copy_tokens, table, row.id)
                await self.load(row.id)  # in memory at once: it counts, and its waiting times out
            live.rematch_watch = row.watch_token
            rematch = Intent(step="rematch", target=row.id)
            await self.play(live, conn.seat, rematch, origin=conn, msg_id=msg.id)

    def _copy_tokens(self, table: Table, new_id: str) -> None:
        hashes = {info.seat: info.token_hash for info in table.seats}
        with self.store.session() as s:
            for row in s.scalars(select(SeatRow).where(SeatRow.match_id == new_id)):
                row.token_hash = hashes.get(row.seat, "")

    # ---- reading for the HTTP API ------------------------------------------------------------

    def view_for(self, live: Live, seat: int | None, token: str | None) -> dict[str, Any]:
        table = live.table
        return {
            "role": "spectator" if seat is None else "seat",
            "seat": seat,
            "version": table.version,
            "view": table.view(seat, _now(), rematch_url=self.rematch_url(live, seat, token)),
        }

    def open_seat(self, live: Live, seat_token: str | None, watch_token: str | None) -> int | bool | None:
        return self._authenticate(live, Message("hello", seat_token=seat_token, watch_token=watch_token))

    def stats(self) -> dict[str, Any]:
        return {
            "tables": len(self.tables),
            "connections": sum(len(live.conns) for live in self.tables.values()),
            # a count, not the ids: an id opens a table's page, and health answers anyone (the
            # server's log names each broken match and why)
            "broken": sum(1 for live in self.tables.values() if live.table.broken),
        }


async def _woken(live: Live, seconds: float) -> bool:
    """Wait up to ``seconds`` for the table to change: True when it did.  Not ``wait_for``: on
    Python 3.11 a cancel arriving as the event is set is swallowed by it, and a driver that
    lost its cancel kept the server's shutdown waiting forever (``asyncio.timeout`` tells its
    own time-out from a cancel)."""
    try:
        async with asyncio.timeout(seconds):
            await live.wake.wait()
    except TimeoutError:
        return False
    return True


def _duration(seconds: float) -> str:
    if seconds >= 120:
        return f"{seconds / 60:g} minutes"
    return f"{seconds:g} second" + ("" if seconds == 1 else "s")


def _intent(msg: Message) -> Intent:
    """A message's intent: its action, or a step of the match (``next_round``, ``rejoin``, ...)."""
    return Intent(msg.action) if msg.action is not None else Intent(step=msg.type)


def hint_text(action: Action, reason: str) -> str:
    """The hint's one line, each card said once: the hint bots' reasons begin with the move itself
    ("Throw K♣: it is in no group"), and then the reason is the whole line; otherwise the move in
    words comes first ("Hint: draw from the stock. Play on: ...")."""
    said = plain(action_words(action))
    first = reason.split(maxsplit=1)[0].rstrip(",:").lower() if reason else ""
    if first and first == said.split(maxsplit=1)[0].rstrip(",:").lower():
        return f"Hint: {reason[0].upper()}{reason[1:]}"
    if reason:
        return f"Hint: {said}. {reason[0].upper()}{reason[1:]}"
    return f"Hint: {said}."
