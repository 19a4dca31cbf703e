"""Several servers, one set of tables: leases, fencing and relayed sockets through Redis.

With ``rummykit serve --redis URL`` every server process (a worker of ``--workers N``, or a
``serve`` on another machine) runs its own :class:`~rummykit.server.hub.Hub` on the shared
database, and this module makes them one server:

* **A table lives on one server at a time.**  Before a hub loads a match it takes the match's
  *lease*, a Redis key ``PREFIX:lease:MATCH`` set with ``NX PX`` to ``WORKER FENCE``, renewed every
  third of its time to live by :meth:`Cluster._tick` and deleted on a clean stop.  ``FENCE`` is a
  fencing token: a counter per match that only grows (``PREFIX:fence:MATCH``, never below the
  database's).  The new holder writes it to the database (``Store.take_fence``) before it reads the
  action log, and every action is appended only under that very token (``Store.append_action``,
  in the same transaction), so a server that lost its lease (killed, or stalled past its time to
  live) cannot append any more: its write is refused (``LeaseLost``), it lets the table go, and
  its sockets reconnect.  The log's ``(match, seq)`` is unique too: a move is stored once.
* **A socket may reach any server.**  A socket for a match another server holds is *relayed*:
  this server accepts it and forwards each frame to the holder's inbox (a pub/sub channel
  ``PREFIX:inbox:WORKER``), where the holder runs the socket through its hub exactly as a local
  one (a Starlette ``WebSocket`` over those messages); the holder sends back each message it
  would have written to that socket, which is that seat's own view: nothing else of the table
  ever crosses Redis.
* **Failover.**  A relaying server watches the holders' leases: when one is gone (its holder
  died and the lease ran out) it closes its sockets with 1012 and the clients reconnect with
  ``last_version``; the server a reconnect (or an HTTP read) reaches takes the free lease and
  rebuilds the table from the log.  A sweep every few seconds takes the matches no server holds
  (tables of bots, or whose players are away, need a driver even with nobody connected).

Each server also keeps ``PREFIX:alive:WORKER`` fresh (for :data:`ALIVE_MS`: a server stalled a
moment under load is not taken for dead), so a holder closes the relayed sockets of a
relaying server that died.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError
from starlette.types import Message as AsgiMessage
from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit.server.hub import CLOSE_MOVED, Elsewhere, Hub, Live, TableGone
from rummykit.server.limits import client_address
from rummykit.server.protocol import plain_id
from rummykit.storage import LeaseLost

__all__ = ["LEASE_MS", "Cluster", "ClusterError", "settled"]

log = logging.getLogger("rummykit.server.cluster")

LEASE_MS: Final = 3000  # a lease's time to live: a dead holder's tables move within about this
SWEEP_SECONDS: Final = 2.0  # how often a server looks for matches nobody holds
ALIVE_MS: Final = 10_000  # a relaying server silent this long is dead: its sockets here are closed

# Take a free lease: the next fencing token, never at or below the database's (a Redis that lost
# its keys restarts the counters; the database remembers, so a counter may also expire after a
# week unused).  Answers {1, fence} or {0, holder}.
_ACQUIRE: Final = """
local held = redis.call('GET', KEYS[1])
if held then return {0, held} end
local f = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if f <= floor then
  f = floor + 1
  redis.call('SET', KEYS[2], f)
end
redis.call('PEXPIRE', KEYS[2], 604800000)
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. f, 'PX', ARGV[2])
return {1, tostring(f)}
"""
_RENEW: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class ClusterError(RuntimeError):
    """Redis cannot be used: the message says why (``rummykit serve`` prints it in one line)."""


def settled(created_at: datetime, now: datetime, lease_ms: int) -> bool:
    """Whether a match made at ``created_at`` is old enough for the sweep to take when no lease
    is on it.  Its creator stores it first and takes its lease just after: a younger match is
    still its creator's to claim (taking it then would make the creator's own table "held
    elsewhere").  A creator that died in between leaves it to the sweep a lease later.  SQLite
    gives the time back without its zone: it was stored in UTC."""
    if created_at.tzinfo is None:
        created_at = created_at.replace(tzinfo=UTC)
    return now - created_at >= timedelta(milliseconds=lease_ms)


def worker_name() -> str:
    """This process's name in the cluster: the machine, the process and a random tail (a
    restarted process on the same pid is another worker)."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class _Channel:
    """The ASGI side of a relayed socket on its table's server: the frames the relaying server
    forwarded, and the messages the hub writes, sent back to it."""

    def __init__(self, cluster: Cluster, cid: str, relay: str) -> None:
        self.cluster = cluster
        self.cid = cid
        self.relay = relay  # the worker holding the client's real socket
        self.inbox: asyncio.Queue[AsgiMessage] = asyncio.Queue()
        self.inbox.put_nowait({"type": "websocket.connect"})
        self.closed = False  # nothing more comes from the client
        self.sent_close = False  # the hub closed it (the relaying server closes the client's)

    def feed(self, message: AsgiMessage) -> None:
        if not self.closed:
            self.inbox.put_nowait(message)

    def gone(self, code: int = 1001) -> None:
        self.feed({"type": "websocket.disconnect", "code": code})
        self.closed = True

    async def receive(self) -> AsgiMessage:
        return await self.inbox.get()

    async def send(self, message: AsgiMessage) -> None:
        kind = message["type"]
        if kind == "websocket.send":
            out: dict[str, Any] = {"k": "send", "cid": self.cid, "text": message.get("text")}
        elif kind == "websocket.close":
            out = {"k": "close", "cid": self.cid, "code": message.get("code", 1000)}
            self.sent_close = True
        else:  # websocket.accept: the relaying server accepted the real socket already
            return
        try:
            await self.cluster.publish(self.relay, out)
        except RedisError as e:  # the writer reads this as a client gone away
            raise OSError(f"the relay is out of reach: {e}") from e


@dataclass(eq=False)
class _Relay:
    """A socket on this server whose table another server holds."""

    match_id: str
    owner: str
    outbox: asyncio.Queue[str | int] = field(default_factory=asyncio.Queue)  # text, or a close code


class Cluster:
    """This server's part of the cluster: its leases, relayed sockets and the sockets it serves
    for other servers.  :meth:`start` after the hub, :meth:`stop` around the hub's."""

    def __init__(
        self,
        hub: Hub,
        redis_url: str,
        *,
        prefix: str = "rummykit",
        lease_ms: int = LEASE_MS,
        sweep_seconds: float = SWEEP_SECONDS,
        worker: str | None = None,
    ) -> None:
        self.hub = hub
        self.url = redis_url
        self.prefix = prefix
        self.lease_ms = lease_ms
        self.sweep_seconds = sweep_seconds
        self.worker = worker or worker_name()
        self.redis: aioredis.Redis = aioredis.Redis.from_url(redis_url, decode_responses=True)
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self.leases: dict[str, int] = {}  # match -> the fencing token this server holds it under
        self.relays: dict[str, _Relay] = {}  # relayed sockets here, by connection id
        self.channels: dict[str, _Channel] = {}  # sockets of other servers served here
        self._tasks: list[asyncio.Task[None]] = []
        self._serving: set[asyncio.Task[None]] = set()
        self._stopping = False
        self.counts: dict[str, int] = {"taken": 0, "lost": 0, "relayed": 0}
        hub.claim = self.claim

    # ---- keys ---------------------------------------------------------------------------------

    def _lease(self, match_id: str) -> str:
        return f"{self.prefix}:lease:{match_id}"

    def _fence(self, match_id: str) -> str:
        return f"{self.prefix}:fence:{match_id}"

    def _alive(self, worker: str) -> str:
        return f"{self.prefix}:alive:{worker}"

    def _inbox(self, worker: str) -> str:
        return f"{self.prefix}:inbox:{worker}"

    # ---- life cycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Say this server is alive, listen to its inbox, and start renewing and sweeping."""
        try:
            await self.redis.set(self._alive(self.worker), "1", px=max(ALIVE_MS, self.lease_ms))
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            await pubsub.subscribe(self._inbox(self.worker))
        except (RedisError, OSError) as e:
            raise ClusterError(f"cannot reach Redis at {self._safe_url()}: {e}") from e
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(pubsub)),
            loop.create_task(self._ticking()),
            loop.create_task(self._sweeping()),
        ]

    def _safe_url(self) -> str:
        head, at, tail = self.url.rpartition("@")
        return f"{head.split('//')[0]}//***@{tail}" if at else self.url

    async def stop_taking(self) -> None:
        """Before the hub stops: take no more tables, and send the relayed sockets away (1001:
        they reconnect, to another server)."""
        self._stopping = True
        for relay in self.relays.values():
            relay.outbox.put_nowait(1001)

    async def stop(self) -> None:
        """After the hub stopped: release every lease (the next server takes the tables at
        once, not a lease's time later) and leave."""
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for channel in list(self.channels.values()):
            channel.gone()
        if self._serving:
            await asyncio.wait(list(self._serving), timeout=5.0)
        with contextlib.suppress(RedisError, OSError):
            for match_id, fence in list(self.leases.items()):
                await self._release(keys=[self._lease(match_id)], args=[self._held(fence)])
            await self.redis.delete(self._alive(self.worker))
        self.leases.clear()
        await self.redis.aclose()

    def _held(self, fence: int) -> str:
        return f"{self.worker} {fence}"

    # ---- leases -------------------------------------------------------------------------------

    async def claim(self, match_id: str) -> int | None:
        """The fencing token under which this server may hold ``match_id`` (taking its lease
        when it is free), ``None`` when there is no such match; :class:`Elsewhere` when another
        server holds it."""
        held = self.leases.get(match_id)
        if held is not None:
            return held
        if self._stopping:
            raise Elsewhere(match_id, "another server (this one is stopping)")
        store = self.hub.store
        row = await asyncio.to_thread(store.match, match_id)
        if row is None:
            return None
        floor = await asyncio.to_thread(store.fence, match_id) or 0
        got, value = await self._acquire(
            keys=[self._lease(match_id), self._fence(match_id)], args=[self.worker, self.lease_ms, floor]
        )
        if not int(got):
            raise Elsewhere(match_id, str(value).partition(" ")[0])
        fence = int(value)
        self.leases[match_id] = fence  # renewed from now on, while the hub loads it and after
        try:
            await asyncio.to_thread(store.take_fence, match_id, fence)
        except LeaseLost:
            await self._give_back(match_id)
            raise Elsewhere(match_id, "a server with a newer fence") from None
        self.counts["taken"] += 1
        log.info("match %s: taken by %s under fence %d", match_id, self.worker, fence)
        return fence

    async def _give_back(self, match_id: str) -> None:
        fence = self.leases.pop(match_id, None)
        if fence is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._release(keys=[self._lease(match_id)], args=[self._held(fence)])

    async def owner(self, match_id: str) -> str | None:
        """The worker holding ``match_id`` now, or None."""
        value = await self.redis.get(self._lease(match_id))
        return None if value is None else str(value).partition(" ")[0]

    async def _ticking(self) -> None:
        while True:
            await asyncio.sleep(self.lease_ms / 3000)
            try:
                await self._tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away a moment: the fences keep the log safe meanwhile
                log.exception("the cluster's renewal failed")

    async def _tick(self) -> None:
        """Renew this server's leases (a table it no longer has in memory gives its lease back;
        one whose lease is gone or taken is let go), and watch the other servers: a relayed
        socket whose holder lost the table, and a served socket whose relay died, are closed."""
        await self.redis.set(self._alive(self.worker), "1", px=max(ALIVE_MS, self.lease_ms))
        hub = self.hub
        for match_id in [m for m in self.leases if m not in hub.tables and not hub.loading(m)]:
            await self._give_back(match_id)
        held = list(self.leases.items())
        if held:
            async with self.redis.pipeline(transaction=False) as pipe:
                for match_id, fence in held:
                    await self._renew(
                        keys=[self._lease(match_id)], args=[self._held(fence), self.lease_ms], client=pipe
                    )
                renewed = await pipe.execute()
            for (match_id, fence), ok in zip(held, renewed, strict=True):
                if not int(ok) and self.leases.get(match_id) == fence:
                    del self.leases[match_id]
                    self.counts["lost"] += 1
                    hub.let_go(match_id, "this server lost the table's lease")
        relays = list(self.relays.values())
        if relays:
            holders = await self.redis.mget([self._lease(r.match_id) for r in relays])
            for relay, value in zip(relays, holders, strict=True):
                if value is None or str(value).partition(" ")[0] != relay.owner:
                    log.info("match %s: %s no longer holds it (%s)", relay.match_id, relay.owner, value)
                    relay.outbox.put_nowait(CLOSE_MOVED)
        channels = list(self.channels.values())
        workers = sorted({c.relay for c in channels})
        if workers:
            alive = await self.redis.mget([self._alive(w) for w in workers])
            dead = {w for w, a in zip(workers, alive, strict=True) if a is None}
            for channel in channels:
                if channel.relay in dead:
                    log.info("socket %s: its server %s is gone", channel.cid, channel.relay)
                    channel.gone()

    async def _sweeping(self) -> None:
        while True:
            try:
                await self._sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the cluster's sweep failed")
            await asyncio.sleep(self.sweep_seconds)

    async def _sweep(self) -> None:
        """Take the live matches no server holds (their holder died, or none was ever started),
        once they are older than a lease (:func:`settled`)."""
        rows = await asyncio.to_thread(self.hub.store.live_matches)
        now = datetime.now(UTC)
        ids = [
            r.id for r in rows if r.id not in self.hub.tables and settled(r.created_at, now, self.lease_ms)
        ]
        if not ids:
            return
        taken = await self.redis.mget([self._lease(m) for m in ids])
        for match_id, value in zip(ids, taken, strict=True):
            if value is not None or self._stopping:
                continue
            try:
                await self.hub.load(match_id)
            except (Elsewhere, TableGone):
                continue
            except Exception:  # one bad match must not stop the others'
                log.exception("match %s could not be taken over", match_id)

    # ---- messages between servers ---------------------------------------------------------------

    async def publish(self, worker: str, message: Mapping[str, Any]) -> None:
        await self.redis.publish(self._inbox(worker), orjson.dumps(message))

    async def _listen(self, pubsub: Any) -> None:
        try:
            async for item in pubsub.listen():
                if item.get("type") != "message":
                    continue
                try:
                    self._dispatch(orjson.loads(item["data"]))
                except Exception:
                    log.exception("a cluster message could not be read")
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    def _dispatch(self, msg: dict[str, Any]) -> None:
        kind = msg["k"]
        cid = str(msg["cid"])
        if kind in ("send", "close"):  # to a relayed socket here
            relay = self.relays.get(cid)
            if relay is not None:
                relay.outbox.put_nowait(str(msg["text"]) if kind == "send" else int(msg["code"]))
            return
        if kind == "open":
            self._open(cid, str(msg["from"]), str(msg["match"]), str(msg["client"]))
            return
        channel = self.channels.get(cid)
        if channel is None:
            if kind == "frame":  # a socket this server does not serve (it restarted): reconnect
                refusal = {"k": "close", "cid": cid, "code": CLOSE_MOVED}
                self._later(self.publish(str(msg["from"]), refusal))
            return
        if kind == "frame":
            if msg.get("text") is None:
                channel.feed({"type": "websocket.receive", "bytes": b""})
            else:
                channel.feed({"type": "websocket.receive", "text": str(msg["text"])})
        elif kind == "gone":
            channel.gone(int(msg.get("code", 1001)))

    def _open(self, cid: str, relay: str, match_id: str, client: str) -> None:
        """A socket another server holds for a table here: serve it through the hub."""
        log.info("match %s: socket %s from %s", match_id, cid, relay)
        channel = self.channels[cid] = _Channel(self, cid, relay)
        scope = {
            "type": "websocket",
            "path": f"/ws/{match_id}",
            "headers": [],
            "client": (client, 0),
            "query_string": b"",
            "path_params": {"match_id": match_id},
        }
        self._later(self._serve_channel(WebSocket(scope, channel.receive, channel.send), match_id, cid))

    async def _serve_channel(self, ws: WebSocket, match_id: str, cid: str) -> None:
        try:
            await self.hub.serve(ws, match_id)
        except Exception:
            log.exception("match %s: a relayed socket failed", match_id)
        finally:
            channel = self.channels.pop(cid, None)
            # always say so: a relay taken for dead may only have been slow, and its client
            # would otherwise wait on a socket nobody serves
            if channel is not None and not channel.sent_close:
                with contextlib.suppress(RedisError, OSError):
                    await channel.send({"type": "websocket.close", "code": 1011})

    def _later(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` as a task of this server's, awaited by :meth:`stop`."""
        task = asyncio.get_running_loop().create_task(coro)
        self._serving.add(task)
        task.add_done_callback(self._serving.discard)

    # ---- sockets ----------------------------------------------------------------------------------

    async def serve(self, ws: WebSocket, match_id: str) -> None:
        """One socket: served here when this server holds the table (or takes it now), else
        relayed to the server that holds it."""
        hub = self.hub
        if match_id in hub.tables or not plain_id(match_id):
            await hub.serve(ws, match_id)
            return
        try:
            owner = await self.owner(match_id)
        except RedisError as e:
            log.error("match %s: Redis is out of reach: %s", match_id, e)
            await ws.close(1011)
            return
        if owner is None or owner == self.worker:
            await hub.serve(ws, match_id)  # the hub's load takes the lease
            return
        await self._relay(ws, match_id, owner)

    async def _relay(self, ws: WebSocket, match_id: str, owner: str) -> None:
        await ws.accept()
        cid = secrets.token_hex(8)
        relay = self.relays[cid] = _Relay(match_id, owner)
        log.info("match %s: socket %s relayed to %s", match_id, cid, owner)
        self.counts["relayed"] += 1
        client = client_address(ws, self.hub.limits.client_header)
        loop = asyncio.get_running_loop()
        sending = loop.create_task(self._relay_out(ws, relay))
        code = 1001
        try:
            opening = {"k": "open", "cid": cid, "from": self.worker, "match": match_id, "client": client}
            await self.publish(owner, opening)
            while not sending.done():
                receiving = loop.create_task(ws.receive())
                await asyncio.wait([receiving, sending], return_when=asyncio.FIRST_COMPLETED)
                if not receiving.done():
                    receiving.cancel()
                    with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                        await receiving
                    break
                message = receiving.result()
                if message["type"] == "websocket.disconnect":
                    code = int(message.get("code", 1001))
                    break
                text = message.get("text")
                await self.publish(owner, {"k": "frame", "cid": cid, "from": self.worker, "text": text})
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        except RedisError as e:
            log.error("match %s: a relayed socket lost Redis: %s", match_id, e)
            relay.outbox.put_nowait(CLOSE_MOVED)
        finally:
            log.info("match %s: relayed socket %s ends", match_id, cid)
            self.relays.pop(cid, None)
            with contextlib.suppress(RedisError, OSError):
                await self.publish(owner, {"k": "gone", "cid": cid, "code": code})
            if not sending.done():
                relay.outbox.put_nowait(1001)
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(sending, 5.0)

    async def _relay_out(self, ws: WebSocket, relay: _Relay) -> None:
        """The holder's messages to the client, in order; a close code ends it."""
        try:
            while True:
                item = await relay.outbox.get()
                if isinstance(item, int):
                    with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
                        await ws.close(item)
                    return
                await ws.send_text(item)
        except (RuntimeError, OSError, WebSocketDisconnect):
            return

    # ---- reading a table held elsewhere, for the HTTP API ------------------------------------------

    async def snapshot(self, match_id: str) -> Live | None:
        """The match as its log stands, for reading only (the HTTP API on a server that does not
        hold it): rebuilt from the database, its views those of the last stored action, no
        driver, nothing written."""
        return await asyncio.to_thread(self.hub.replica, match_id)

    def stats(self) -> dict[str, Any]:
        return {"worker": self.worker, "leases": len(self.leases), "relays": len(self.relays), **self.counts}
