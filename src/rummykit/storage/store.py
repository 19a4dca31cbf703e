"""The store: tables, and the few operations the server and the score sheet need.

A live match is never stored as a snapshot: its *actions* are appended, one
row each, before anything is sent to a player, and a restarted server
rebuilds every live table by replaying them through the engine with the
match's seed.  Snapshots (a match's sheet as JSON, its status) are kept only
for listing pages and are always derivable from the log.

Secret seat tokens are stored hashed: a stolen database does not let anyone
act for a seat.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import CursorResult, Engine
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker


class StoreError(RuntimeError):
    """The store could not do what was asked; the message says what and why."""


class LeaseLost(StoreError):
    """A write for a match under a fencing token older than the database's: another server took
    the match over (``server/cluster.py``), and this one must let it go."""


def default_url() -> str:
    """``RUMMYKIT_DATABASE_URL``, else a SQLite file in the working directory."""
    return os.environ.get("RUMMYKIT_DATABASE_URL", "sqlite:///rummykit.db")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A secret for an invite or share link: 128 bits, URL-safe."""
    return secrets.token_urlsafe(16)


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class MatchRow(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now, onupdate=_now)
    title: Mapped[str] = mapped_column(String(200), default="")
    preset: Mapped[str] = mapped_column(String(40))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)  # every setting, as RULES.md text values
    seed: Mapped[str] = mapped_column(String(100))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # table options (pace, hints, ...)
    status: Mapped[str] = mapped_column(String(20), default="playing")  # playing | over | evicted
    watch_token: Mapped[str] = mapped_column(String(64), default="", index=True)  # spectators
    summary: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # the sheet, for listing pages


class SeatRow(Base):
    __tablename__ = "seats"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    kind: Mapped[str] = mapped_column(String(10))  # human | bot
    bot: Mapped[str] = mapped_column(String(20), default="")  # difficulty, for bots
    token_hash: Mapped[str] = mapped_column(String(64), default="", index=True)


class ActionRow(Base):
    """One accepted action: the match's single history, in order.  ``payload`` is the action's
    notation dict (``rummykit.engine.notation``) or a step of the match; ``docs/storage.md``
    says which names in it are storage keys, and how older payloads are read."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("match_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    deal: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class FenceRow(Base):
    """The newest fencing token of a match that servers share (``server/cluster.py``): a server
    appends to the match's log only under this very token, so one that lost the match's lease
    (it stalled, its lease ran out, another took over) can no longer write."""

    __tablename__ = "fences"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    fence: Mapped[int] = mapped_column(Integer)


class HistoryRow(Base):
    """A finished deal's hand history, in the documented text format."""

    __tablename__ = "histories"
    __table_args__ = (UniqueConstraint("match_id", "deal"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    deal: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class SheetRow(Base):
    """A paper score sheet: the match model's data, and a read-only share token."""

    __tablename__ = "sheets"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now, onupdate=_now)
    title: Mapped[str] = mapped_column(String(200), default="")
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    edit_token_hash: Mapped[str] = mapped_column(String(64), index=True)
    share_token: Mapped[str] = mapped_column(String(64), unique=True)


@dataclass(frozen=True, slots=True)
class NewSeat:
    name: str
    kind: str  # human | bot
    bot: str = ""


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")  # WAL keeps commits durable across a process crash
        cursor.close()


class Store:
    """One database.  Methods are short transactions; all are thread-safe."""

    def __init__(self, url: str | None = None, *, connect_args: Mapping[str, Any] | None = None) -> None:
        self.url = url or default_url()
        self.connect_args = dict(connect_args or {})
        kwargs: dict[str, Any] = {"future": True}
        if connect_args:
            kwargs["connect_args"] = dict(connect_args)
        if self.url.startswith("sqlite"):
            kwargs.setdefault("connect_args", {})["check_same_thread"] = False
        try:
            self.engine = create_engine(self.url, **kwargs)
        except (SQLAlchemyError, ImportError, ValueError) as e:
            raise StoreError(f"cannot use the database {self._safe_url()}: {e}") from e
        if self.url.startswith("sqlite"):
            _sqlite_pragmas(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self._append = insert(Base.metadata.tables[ActionRow.__tablename__])
        try:
            Base.metadata.create_all(self.engine)
            # A database made before an index was declared gets it too (listing by token reads it).
            for table in Base.metadata.sorted_tables:
                for index in table.indexes:
                    index.create(self.engine, checkfirst=True)
        except OperationalError as e:
            raise StoreError(f"cannot reach the database {self._safe_url()}: {e.orig}") from e

    def _safe_url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True) if hasattr(self, "engine") else self.url

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self._session() as s, s.begin():
            yield s

    # ---- matches ---------------------------------------------------------------

    def create_match(
        self,
        *,
        preset: str,
        settings: Mapping[str, Any],
        seed: str,
        seats: Sequence[NewSeat],
        title: str = "",
        options: Mapping[str, Any] | None = None,
        match_id: str | None = None,
    ) -> tuple[MatchRow, list[str]]:
        """A new match and its seats; returns the row and each human seat's secret
        token (``""`` for bots), shown once and stored only as a hash."""
        mid = match_id or secrets.token_hex(8)
        tokens: list[str] = []
        with self.session() as s:
            row = MatchRow(
                id=mid,
                title=title,
                preset=preset,
                settings=dict(settings),
                seed=seed,
                options=dict(options or {}),
                watch_token=new_token(),
            )
            s.add(row)
            for i, seat in enumerate(seats):
                token = new_token() if seat.kind == "human" else ""
                tokens.append(token)
                s.add(
                    SeatRow(
                        match_id=mid,
                        seat=i,
                        name=seat.name,
                        kind=seat.kind,
                        bot=seat.bot,
                        token_hash=hash_token(token) if token else "",
                    )
                )
        return row, tokens

    def match(self, match_id: str) -> MatchRow | None:
        with self.session() as s:
            return s.get(MatchRow, match_id)

    def seats(self, match_id: str) -> list[SeatRow]:
        with self.session() as s:
            return list(s.scalars(select(SeatRow).where(SeatRow.match_id == match_id).order_by(SeatRow.seat)))

    def seat_for_token(self, match_id: str, token: str) -> int | None:
        """The seat this secret opens, or None."""
        if not token:
            return None
        with self.session() as s:
            row = s.scalars(
                select(SeatRow).where(SeatRow.match_id == match_id, SeatRow.token_hash == hash_token(token))
            ).first()
            return row.seat if row else None

    def live_matches(self) -> list[MatchRow]:
        with self.session() as s:
            return list(s.scalars(select(MatchRow).where(MatchRow.status == "playing")))

    def recent_matches(self, limit: int = 50) -> list[MatchRow]:
        with self.session() as s:
            q = select(MatchRow).order_by(MatchRow.created_at.desc()).limit(limit)
            return list(s.scalars(q))

    def matches_for_tokens(
        self, tokens: Sequence[str], *, status: str | None = None, limit: int = 50
    ) -> list[MatchRow]:
        """The matches these tokens open (a seat's secret, or the watch link's token), newest
        first; ``status`` keeps only those with that status."""
        if not tokens:
            return []
        hashes = [hash_token(t) for t in tokens if t]
        with self.session() as s:
            by_seat = select(SeatRow.match_id).where(SeatRow.token_hash.in_(hashes))
            q = select(MatchRow).where(MatchRow.id.in_(by_seat) | MatchRow.watch_token.in_(list(tokens)))
            if status is not None:
                q = q.where(MatchRow.status == status)
            return list(s.scalars(q.order_by(MatchRow.created_at.desc()).limit(limit)))

    def update_match(
        self, match_id: str, *, status: str | None = None, summary: Mapping[str, Any] | None = None
    ) -> None:
        with self.session() as s:
            row = s.get(MatchRow, match_id)
            if row is None:
                raise StoreError(f"no match {match_id}")
            if status is not None:
                row.status = status
            if summary is not None:
                row.summary = dict(summary)

    # ---- the action log --------------------------------------------------------------

    def append_action(
        self,
        match_id: str,
        seq: int,
        deal: int,
        seat: int | None,
        payload: Mapping[str, Any],
        *,
        fence: int | None = None,
    ) -> None:
        """Append one action; ``seq`` must be the next number (a repeat is refused,
        so two writers can never both think they played the same move).  With ``fence``, only
        while it is still the match's fencing token (:meth:`take_fence`), else :class:`LeaseLost`:
        the check locks the match's fence row until the action is in, so a server taking the
        match over waits for this write and then reads it back.

        One Core insert, not the ORM: this runs for every move, and the unit of work cost
        several times the insert itself (``benchmarks/server_bench.py``)."""
        row = {"match_id": match_id, "seq": seq, "deal": deal, "seat": seat, "payload": dict(payload)}
        try:
            with self.engine.begin() as c:
                if fence is not None:
                    held = c.execute(
                        update(FenceRow)
                        .where(FenceRow.match_id == match_id, FenceRow.fence == fence)
                        .values(fence=fence)
                    )
                    if held.rowcount != 1:
                        raise LeaseLost(f"match {match_id}: another server holds it now (fence {fence})")
                c.execute(self._append, row)
        except IntegrityError as e:
            raise StoreError(f"match {match_id}: action {seq} is already stored") from e

    def take_fence(self, match_id: str, fence: int) -> None:
        """Make ``fence`` the match's fencing token, unless a newer one is there (then
        :class:`LeaseLost`).  Called by a server that took the match's lease, before it reads the
        log: it waits for a write under the older token to end, so that write is in the log it
        reads, and no later one can be."""
        for _ in range(3):
            try:
                with self.session() as s:
                    moved = cast(
                        CursorResult[Any],
                        s.execute(
                            update(FenceRow)
                            .where(FenceRow.match_id == match_id, FenceRow.fence <= fence)
                            .values(fence=fence)
                        ),
                    )
                    if moved.rowcount == 1:
                        return
                    if s.get(FenceRow, match_id) is not None:
                        raise LeaseLost(f"match {match_id}: a newer server than fence {fence} holds it")
                    s.add(FenceRow(match_id=match_id, fence=fence))
                return
            except IntegrityError:
                continue  # another server made the row first: compare with its token
        raise StoreError(f"match {match_id}: its fencing token could not be set")

    def fence(self, match_id: str) -> int | None:
        with self.session() as s:
            row = s.get(FenceRow, match_id)
            return None if row is None else row.fence

    def actions(self, match_id: str) -> list[ActionRow]:
        with self.session() as s:
            q = select(ActionRow).where(ActionRow.match_id == match_id).order_by(ActionRow.seq)
            return list(s.scalars(q))

    def action_count(self, match_id: str) -> int:
        with self.session() as s:
            q = select(func.count()).select_from(ActionRow).where(ActionRow.match_id == match_id)
            return int(s.scalar(q) or 0)

    # ---- hand histories --------------------------------------------------------------

    def save_history(self, match_id: str, deal: int, text: str) -> None:
        with self.session() as s:
            existing = s.scalars(
                select(HistoryRow).where(HistoryRow.match_id == match_id, HistoryRow.deal == deal)
            ).first()
            if existing is None:
                s.add(HistoryRow(match_id=match_id, deal=deal, text=text))
            else:
                existing.text = text

    def history(self, match_id: str, deal: int) -> str | None:
        with self.session() as s:
            row = s.scalars(
                select(HistoryRow).where(HistoryRow.match_id == match_id, HistoryRow.deal == deal)
            ).first()
            return row.text if row else None

    def histories(self, match_id: str) -> list[tuple[int, str]]:
        with self.session() as s:
            q = select(HistoryRow).where(HistoryRow.match_id == match_id).order_by(HistoryRow.deal)
            return [(r.deal, r.text) for r in s.scalars(q)]

    # ---- score sheets ------------------------------------------------------------------

    def create_sheet(self, data: Mapping[str, Any], title: str = "") -> tuple[SheetRow, str]:
        """A new sheet; returns it and its secret edit token (the share token is public)."""
        edit = new_token()
        with self.session() as s:
            row = SheetRow(
                id=secrets.token_hex(8),
                title=title,
                data=json.loads(json.dumps(data)),
                edit_token_hash=hash_token(edit),
                share_token=new_token(),
            )
            s.add(row)
        return row, edit

    def sheet(self, sheet_id: str) -> SheetRow | None:
        with self.session() as s:
            return s.get(SheetRow, sheet_id)

    def sheet_by_share(self, share_token: str) -> SheetRow | None:
        with self.session() as s:
            return s.scalars(select(SheetRow).where(SheetRow.share_token == share_token)).first()

    def can_edit_sheet(self, sheet_id: str, edit_token: str) -> bool:
        row = self.sheet(sheet_id)
        return (
            row is not None
            and bool(edit_token)
            and secrets.compare_digest(row.edit_token_hash, hash_token(edit_token))
        )

    def save_sheet(self, sheet_id: str, data: Mapping[str, Any], title: str | None = None) -> None:
        with self.session() as s:
            row = s.get(SheetRow, sheet_id)
            if row is None:
                raise StoreError(f"no sheet {sheet_id}")
            row.data = json.loads(json.dumps(data))
            if title is not None:
                row.title = title

    def sheets(self, limit: int = 50) -> list[SheetRow]:
        with self.session() as s:
            return list(s.scalars(select(SheetRow).order_by(SheetRow.updated_at.desc()).limit(limit)))

    def sheets_for_tokens(
        self, edit_tokens: Sequence[str], share_tokens: Sequence[str] = (), *, limit: int = 50
    ) -> list[tuple[SheetRow, bool]]:
        """The sheets these tokens open, most recently changed first, each with whether one of
        ``edit_tokens`` edits it (else a share token only reads it)."""
        hashes = [hash_token(t) for t in edit_tokens if t]
        shares = [t for t in share_tokens if t]
        if not hashes and not shares:
            return []
        with self.session() as s:
            q = select(SheetRow).where(
                SheetRow.edit_token_hash.in_(hashes) | SheetRow.share_token.in_(shares)
            )
            rows = list(s.scalars(q.order_by(SheetRow.updated_at.desc()).limit(limit)))
        editable = set(hashes)
        return [(row, row.edit_token_hash in editable) for row in rows]
