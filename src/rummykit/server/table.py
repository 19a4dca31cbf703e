"""One match's authoritative state machine: the session, the versioned event log, the seats,
the steps between deals, and the clocks' next steps.

A :class:`Table` does no I/O and reads no clock: the hub passes ``now`` in, writes each action to
storage between :meth:`Table.check` and :meth:`Table.commit`, and sends what :meth:`Table.render`
and :meth:`Table.view` make.  Everything that changes the table is an :class:`Intent` (an engine
action in its notation, ``engine.notation``, or a step of the match) whose stored form is
:meth:`Intent.payload` (``docs/storage.md``), so a restarted server rebuilds the table exactly by
committing the stored intents again (:meth:`Table.replay`): versions, hands, the sheet, who was
ready, who was played for while away.

Only this object holds the deal.  What the clients read is made by the renderer
(``server.render``), which this table gives the engine's views and each event as its viewer
sees it, never the deal; the move the clock plays for a seat is the autopilot's
(``bots.autopilot``) and the hand's help the coach's (``bots.coach``), both from the seat's view.

The match seats are the seats of the session's :class:`~rummykit.engine.match.Match`; a deal's
seats are the seats still in (pools): ``session.deal_seats`` maps one to the other, and every
message speaks in match seats.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from rummykit.bots.autopilot import autopilot
from rummykit.bots.coach import Coach
from rummykit.engine.deal import Deal
from rummykit.engine.events import (
    Action,
    ActionKind,
    DealEnded,
    Dealt,
    DrewStock,
    Dropped,
    Event,
    LaidDown,
    LaidOff,
    Opened,
    Phase,
    PutBack,
    Showed,
    StockRebuilt,
    Swapped,
    Threw,
    TookPile,
    WrongShow,
)
from rummykit.engine.match import Standing
from rummykit.engine.notation import (
    ACTION_TYPES,
    LOG_KEYS,
    NotationError,
    from_dict,
    read_payload,
    to_dict,
    to_text,
)
from rummykit.engine.rules import Rules
from rummykit.engine.session import MatchSession
from rummykit.engine.table_deal import TableDeal
from rummykit.engine.views import SeatView, SpectatorView
from rummykit.engine.words import expected_moves, not_your_turn, owed_words, wait_for
from rummykit.server.protocol import Refusal
from rummykit.server.render import NO_REFUSALS, MatchState, Note, Refusals, Renderer, SeatPublic

__all__ = ["STEPS", "Entry", "Intent", "SeatInfo", "Step", "Table", "TableOptions"]

# The versioned events' kinds (docs/protocol.md, EVENT) of the engine's events.
_EVENT_KINDS: Final[Mapping[type[Event], str]] = {
    Dealt: "dealt",
    DrewStock: "drew_stock",
    TookPile: "took_pile",
    Threw: "threw",
    Dropped: "dropped",
    Showed: "showed",
    WrongShow: "wrong_show",
    StockRebuilt: "stock_rebuilt",
    Opened: "opened",
    LaidDown: "laid_down",
    LaidOff: "laid_off",
    Swapped: "swapped",
    PutBack: "put_back",
}
_DRAWS: Final = frozenset({ActionKind.DROP, ActionKind.DRAW_STOCK, ActionKind.DRAW_PILE})
# The match's own steps, around its deals (stored in the action log beside the actions).
STEPS: Final = frozenset({"join", "start", "deal", "next_round", "rejoin", "rematch"})
# How long a bot of each kind takes over a move, relative to the table's bot pace.
_PACE_FACTOR: Final = {"random": 0.8, "greedy": 1.0, "easy": 1.2, "medium": 1.0, "hard": 0.9}


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A match seat: who sits there.  ``token_hash`` is the stored hash of a human seat's secret."""

    seat: int
    name: str
    kind: str  # human | bot
    bot: str = ""
    token_hash: str = ""

    @property
    def human(self) -> bool:
        return self.kind == "human"


@dataclass(frozen=True, slots=True)
class TableOptions:
    """How the table handles time (bots' pace, the turn clock, seats that went away), and
    whether a seat may ask for a hint."""

    bot_pace: float = 0.8
    turn_time: float | None = None
    away_time: float = 30.0
    away_turns: int = 2
    hints: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot_pace": self.bot_pace,
            "turn_time": self.turn_time,
            "away_time": self.away_time,
            "away_turns": self.away_turns,
            "hints": self.hints,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableOptions:
        base = cls()
        turn = data.get("turn_time", base.turn_time)
        return cls(
            bot_pace=float(data.get("bot_pace", base.bot_pace)),
            turn_time=None if turn is None else float(turn),
            away_time=float(data.get("away_time", base.away_time)),
            away_turns=int(data.get("away_turns", base.away_turns)),
            hints=bool(data.get("hints", base.hints)),
        )


@dataclass(frozen=True, slots=True)
class Intent:
    """Something a seat (or the table itself) does: an engine ``action``, or a ``step`` of the
    match around its deals (one of :data:`STEPS`).  ``auto``: the table played it for an away
    seat; ``target``: a rematch's new match.

    Its stored form (:meth:`payload`, ``docs/storage.md``) is the action's notation dict (the
    message that plays it), or ``{"type": STEP}``, with the log's own keys ``auto`` and ``match``.
    """

    action: Action | None = None
    step: str | None = None
    auto: bool = False
    target: str | None = None  # rematch: the new match's id

    @classmethod
    def of(cls, action: Action, *, auto: bool = False) -> Intent:
        return cls(action, None, auto)

    @property
    def words(self) -> str:
        """The intent in a few words (the action's notation), for a refusal's ``got``."""
        return to_text(self.action) if self.action is not None else str(self.step)

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = to_dict(self.action) if self.action is not None else {"type": self.step}
        if self.auto:
            out["auto"] = True
        if self.target is not None:
            out["match"] = self.target
        return out

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Intent:
        """The intent a stored payload holds, of any stored format (NotationError on a garbled one)."""
        data = read_payload(payload)
        kind = data["type"]
        auto = data.get("auto", False)
        target = data.get("match")
        if not isinstance(auto, bool) or not (target is None or isinstance(target, str)):
            raise NotationError(f"a stored {kind}'s auto is true or false and its match a match id")
        if kind in ACTION_TYPES:
            return cls(from_dict(data, extra=LOG_KEYS), None, auto, target)
        if kind not in STEPS:
            raise NotationError(f"unknown stored action {kind!r}")
        extra = sorted(set(data) - {"type", *LOG_KEYS})
        if extra:
            raise NotationError(f"unknown field {extra[0]!r} in a stored {kind}")
        return cls(None, kind, auto, target)


@dataclass(frozen=True, slots=True)
class Entry:
    """One versioned table event.  ``event`` is the engine's, unredacted: only :meth:`Table.render`
    reads it, and gives the renderer the event as each viewer may see it.  ``seats`` maps its deal
    seats to match seats; ``info`` holds a match step's public facts (see ``render.Note``)."""

    version: int
    kind: str
    seat: int | None
    deal: int | None  # 0-based
    event: Event | None = None
    seats: tuple[int, ...] = ()
    auto: bool = False
    info: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Step:
    """What the table does next by itself, and when (``due`` on the hub's monotonic clock).

    ``kind``: ``deal`` (start the next deal), ``bot`` (a bot's move), ``bot_rejoin``, ``auto`` (a
    human seat's clock ran out, or it is away and past its turns).  ``why`` is for the deadline
    the clients show: ``turn``, ``away`` or ``next_round`` (``""`` when nobody is on a clock).
    """

    due: float
    kind: str
    seat: int | None
    version: int
    why: str = ""
    not_before: float = 0.0  # a bot starts thinking at ``due`` and plays no sooner than this


class Table:
    """One match, authoritative.  Mutate it only through :meth:`commit` after :meth:`check`."""

    def __init__(
        self,
        match_id: str,
        rules: Rules,
        seed: str,
        seats: Sequence[SeatInfo],
        options: TableOptions,
        *,
        title: str = "",
    ) -> None:
        self.match_id: Final = match_id
        self.rules: Final = rules
        self.seed: Final = seed
        self.seats: Final = tuple(seats)
        self.options: Final = options
        self.title: Final = title
        self.names: Final = tuple(s.name for s in seats)
        self.session: Final = MatchSession(rules, seed, self.names)
        self.deals: list[Deal] = []  # every deal of the match, in order
        self.log: list[Entry] = []  # log[i] has version i + 1
        self.actions = 0  # stored actions committed: the next action's seq
        self.joined: set[int] = set()
        self.started = False  # a joined seat asked to start without the others
        self.ready: set[int] = set()
        self.auto_turns = [0] * len(seats)
        self.rematch: str | None = None
        self.broken: str | None = None  # why the stored log could not be replayed
        n = len(seats)
        self.connected = [not s.human for s in seats]
        self.away_since: list[float | None] = [None] * n
        self.anchor = 0.0  # when the current turn (or the break between deals) began
        self.changed_at = 0.0  # when the table last changed
        self._auto_drawn = False  # the last action was the table drawing for an away seat
        # every seat's hand help, from its view: a hand is arranged once, whoever looks at it
        self.coach: Final = Coach(rules)
        self.renderer: Final = Renderer(
            match_id,
            title,
            rules,
            [SeatPublic(s.seat, s.name, s.kind, s.bot) for s in seats],
            sheet_format=self.session.match.format,
            hints=options.hints,
            turn_time=options.turn_time,
            coach=self.coach,
        )
        self._stamp = 0  # changes with anything a view shows (a commit, a seat connecting)
        self._state: MatchState | None = None
        self._public: tuple[int, SpectatorView] | None = None
        self._deadlines: tuple[tuple[int, float], dict[str, Any] | None] | None = None

    # ---- reading -------------------------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.log)

    @property
    def deal(self) -> Deal | None:
        return self.session.deal

    @property
    def is_table(self) -> bool:
        """A table-family match (Rummy 40, Remi 51): melds go down on the table during play."""
        return self.rules.is_table

    @property
    def phase(self) -> str:
        """``waiting``, ``playing``, ``between``, ``over`` or ``broken``."""
        if self.broken is not None:
            return "broken"
        if self.session.is_over:
            return "over"
        if self.session.deal is None:
            return "waiting"
        return "playing" if self.session.in_deal else "between"

    def humans(self) -> list[int]:
        return [s.seat for s in self.seats if s.human]

    def to_play(self) -> int | None:
        """The match seat to play, while a deal is on."""
        deal = self.deal
        if deal is None or not self.session.in_deal or deal.to_play is None:
            return None
        return self.session.match_seat(deal.to_play)

    def waiting_for(self) -> list[int]:
        """Between deals: the human seats the next deal waits for (not ready yet)."""
        if self.phase != "between":
            return []
        return [s for s in self._required() if s not in self.ready]

    def _required(self) -> list[int]:
        """Human seats whose Next round the next deal waits for: those in, and those out that may
        rejoin (they decide first)."""
        return [
            s
            for s in self.humans()
            if self.session.standing(s) is not Standing.OUT or self.session.can_rejoin(s)
        ]

    # ---- checking intents ------------------------------------------------------------------

    def check(self, seat: int | None, intent: Intent) -> None:
        """Raise :class:`Refusal` when ``seat`` (``None``: the table itself) may not do ``intent`` now."""
        got = intent.words
        phase = self.phase
        if phase == "broken":
            raise Refusal(f"this table is out of order: {self.broken}", "nothing: the table is closed", got)
        if intent.action is not None:
            self._check_engine(seat, intent.action, got)
            return
        kind = intent.step
        if kind == "deal":
            if seat is not None:
                raise Refusal("only the table deals", "next_round", got)
            if phase not in ("waiting", "between"):
                raise Refusal(f"no deal to start while the match is {phase}", None, got)
            return
        if seat is None:
            raise Refusal(f"{kind} is for a seat, not the table", None, got)
        if kind != "rejoin" and not self.seats[seat].human:
            raise Refusal(f"{kind} is for human seats: bots are always ready", None, got)
        if kind == "join":
            if seat in self.joined:
                raise Refusal("this seat has already joined", None, got)
            return
        if kind == "start":
            if phase != "waiting":
                raise Refusal("the match has already started", "next_round between deals", got)
            if seat not in self.joined:
                raise Refusal("join before starting", "hello", got)
            return
        if kind == "rematch":
            if phase != "over":
                raise Refusal("a rematch is for a match that is over", "play on", got)
            if self.rematch is not None:
                raise Refusal("the rematch is already made: its link is in the view", None, got)
            return
        if phase != "between":
            expected = "play the deal" if phase == "playing" else None
            raise Refusal(f"{kind} is between deals, and the match is {phase}", expected, got)
        if kind == "rejoin":
            verdict = self.session.can_rejoin(seat)
            if not verdict:
                raise Refusal(verdict.reason, "next_round", got)
            return
        if kind == "next_round":
            if seat not in self._required():
                raise Refusal("you are out of the match: the others play on", None, got)
            if seat in self.ready:
                raise Refusal("you have already pressed Next round", "wait for the others", got)
            return
        raise Refusal(f"unknown intent {kind!r}", None, got)

    def _check_engine(self, seat: int | None, action: Action, got: str) -> None:
        phase = self.phase
        if phase != "playing":
            expected = {
                "waiting": "wait for the seats to join, or start",
                "between": "next_round",
                "over": "rematch",
            }.get(phase)
            raise Refusal(
                "the match is over" if phase == "over" else f"no deal is being played ({phase})",
                expected,
                got,
            )
        if seat is None:
            raise Refusal("the table plays only for a seat", None, got)
        deal = self.deal
        assert deal is not None
        dseat = self.session.deal_seat(seat)
        if dseat is None:
            raise Refusal("you are out of the pool: you are not in this deal", "watch this deal", got)
        verdict = deal.can(dseat, action)
        if not verdict:
            reason = verdict.reason
            to_play = self.to_play()
            if reason.startswith("not your turn") and to_play is not None:
                reason = not_your_turn(self.names[to_play])  # the engine names seats, people names
            raise Refusal(reason, self._expected(seat), got)

    def _expected(self, seat: int) -> str:
        """What ``seat`` may do now, in words, for an error's ``expected``."""
        deal = self.deal
        to_play = self.to_play()
        if deal is None or to_play is None:
            return "wait"
        if to_play != seat:
            return wait_for(self.names[to_play])
        if deal.phase is Phase.THROW and not isinstance(deal, TableDeal):
            return "throw a card, or show with a finishing card"
        dseat = self.session.deal_seat(seat)
        assert dseat is not None
        kinds = [a.kind for a in deal.legal_actions(dseat)]
        if deal.phase is Phase.DRAW:
            return expected_moves([k for k in kinds if k in _DRAWS])
        return expected_moves(kinds, owes=owed_words(deal.pile_due, deal.owed_jokers))

    # ---- committing ---------------------------------------------------------------------------

    def _add(
        self,
        out: list[Entry],
        kind: str,
        seat: int | None,
        info: Mapping[str, Any] | None = None,
        *,
        event: Event | None = None,
        auto: bool = False,
    ) -> None:
        deal = len(self.deals) - 1 if self.deals else None
        seats = self.session.deal_seats if event is not None else ()
        entry = Entry(self.version + 1, kind, seat, deal, event, seats, auto, info or {})
        self.log.append(entry)
        out.append(entry)

    def commit(self, seat: int | None, intent: Intent, now: float) -> list[Entry]:
        """Apply an intent :meth:`check` accepted; returns the new versioned events."""
        before = (self.phase, self.to_play())
        out: list[Entry] = []
        kind = intent.step
        self.actions += 1
        self._auto_drawn = False
        if intent.action is not None:
            assert seat is not None
            self._commit_engine(seat, intent.action, intent.auto, out)
        elif kind == "deal":
            self.session.start_deal()
            deal = self.deal
            assert deal is not None
            self.deals.append(deal)
            self.ready.clear()
            dealt = deal.events[0]
            assert isinstance(dealt, Dealt)
            self._engine_entries(out, [dealt], False)
        elif kind == "join":
            assert seat is not None
            self.joined.add(seat)
            self._add(out, "joined", seat)
        elif kind == "start":
            self.started = True
            self._add(out, "started", seat)
        elif kind == "next_round":
            assert seat is not None
            self.ready.add(seat)
            self._add(out, "ready", seat)
        elif kind == "rejoin":
            assert seat is not None
            record = self.session.rejoin(seat)
            self.ready.add(seat)
            self.auto_turns[seat] = 0
            self._add(out, "rejoined", seat, {"total": record.total, "number": record.number})
        elif kind == "rematch":
            self.rematch = intent.target
            self._add(out, "rematch", seat, {"match_id": intent.target})
        self.changed_at = now
        if (self.phase, self.to_play()) != before:
            self.anchor = now
        self._stamp += 1
        return out

    def _commit_engine(self, seat: int, action: Action, auto: bool, out: list[Entry]) -> None:
        deal = self.deal
        assert deal is not None
        dseat = self.session.deal_seat(seat)
        assert dseat is not None
        seen = len(deal.events)
        deal.apply(dseat, action)
        if isinstance(deal, TableDeal):
            # a turn of the table family ends with a throw (or a hand emptied by a meld)
            ends_turn = deal.to_play != dseat or deal.phase is not Phase.PLAY
        else:
            ends_turn = action.kind not in (ActionKind.DRAW_STOCK, ActionKind.DRAW_PILE)
        if auto:
            if ends_turn:
                self.auto_turns[seat] += 1
        else:
            self.auto_turns[seat] = 0
        self._auto_drawn = auto and not ends_turn
        self._engine_entries(out, deal.events[seen:], auto)

    def _engine_entries(self, out: list[Entry], events: Sequence[Event], auto: bool) -> None:
        seats = self.session.deal_seats
        for ev in events:
            ms = None if ev.seat is None else seats[ev.seat]
            if isinstance(ev, DealEnded):
                row = self.session.finish_deal()
                self._add(out, "deal_ended", None, {"row": row}, event=ev)
                if self.session.is_over:
                    winners, totals = list(self.session.winners), list(self.session.totals)
                    self._add(out, "match_over", None, {"winners": winners, "totals": totals})
                continue
            played = auto and not isinstance(ev, Dealt | Showed | WrongShow | StockRebuilt)
            self._add(out, _EVENT_KINDS[type(ev)], ms, event=ev, auto=played)

    # ---- replay -----------------------------------------------------------------------------

    def replay(self, actions: Iterable[tuple[int | None, Mapping[str, Any]]], now: float) -> None:
        """Commit the stored actions again, in order; a log that does not replay marks the table
        broken (it then refuses everything) rather than guessing."""
        for n, (seat, payload) in enumerate(actions):
            try:
                intent = Intent.from_payload(payload)
                self.check(seat, intent)
            except (Refusal, ValueError) as e:
                reason = e.reason if isinstance(e, Refusal) else str(e)
                self.broken = f"stored action {n} ({dict(payload)!r}) does not replay: {reason}"
                return
            self.commit(seat, intent, now)

    # ---- what the table does by itself --------------------------------------------------------

    def set_connected(self, seat: int, connected: bool, now: float) -> None:
        if not self.seats[seat].human:
            return
        self.connected[seat] = connected
        self.away_since[seat] = None if connected else now
        self._stamp += 1

    def pace(self, seat: int, drawing: bool) -> float:
        """Seconds the bot at ``seat`` takes over its next move: the table's pace, the bot's own
        factor, a draw quicker than a throw, and a jitter fixed by the version (so it is the same
        on every replay of the same moment)."""
        base = self.options.bot_pace
        if base <= 0:
            return 0.0
        factor = _PACE_FACTOR.get(self.seats[seat].bot, 1.0) * (0.6 if drawing else 1.0)
        jitter = random.Random(f"{self.version}/{seat}").uniform(0.7, 1.3)
        return base * factor * jitter

    def next_step(self, now: float) -> Step | None:
        """The next thing the table does by itself, or ``None`` when it waits for a person."""
        phase = self.phase
        v = self.version
        if phase == "waiting":
            humans = self.humans()
            if self.started or all(s in self.joined for s in humans):
                return Step(now, "deal", None, v)
            return None
        if phase == "between":
            for s in range(len(self.seats)):
                if not self.seats[s].human and self.session.can_rejoin(s):
                    return Step(self.changed_at + self.pace(s, False), "bot_rejoin", s, v)
            waiting = self.waiting_for()
            if not waiting:
                return Step(self.anchor + self.options.bot_pace, "deal", None, v)
            if any(self.connected[s] for s in waiting):
                return None
            last = max(max(self.anchor, self.away_since[s] or 0.0) for s in waiting)
            return Step(last + self.options.away_time, "deal", None, v, "next_round")
        if phase != "playing":
            return None
        seat = self.to_play()
        deal = self.deal
        assert seat is not None and deal is not None
        info = self.seats[seat]
        if not info.human:
            pause = self.pace(seat, deal.phase is Phase.DRAW)
            return Step(self.changed_at, "bot", seat, v, not_before=self.changed_at + pause)
        if self._auto_drawn:
            return Step(now, "auto", seat, v, "away")
        away = not self.connected[seat]
        if away and self.auto_turns[seat] >= self.options.away_turns:
            return Step(now, "auto", seat, v, "away")
        due: float | None = None
        why = ""
        if self.options.turn_time is not None:
            due, why = self.anchor + self.options.turn_time, "turn"
        if away:
            since = max(self.anchor, self.away_since[seat] or 0.0)
            away_due = since + self.options.away_time
            if due is None or away_due < due:
                due, why = away_due, "away"
        return None if due is None else Step(due, "auto", seat, v, why)

    def auto_intent(self, seat: int) -> Intent:
        """What the table plays for a human seat whose clock ran out, or that is away: the
        autopilot's move (``bots.autopilot``) from the seat's own view."""
        view = self.seat_view(seat)
        assert view is not None and view.my_turn, "the table plays only for the seat to play"
        drop = self.auto_turns[seat] >= self.options.away_turns
        return Intent.of(autopilot(view, self.coach, drop=drop), auto=True)

    def deadline(self, now: float) -> dict[str, Any] | None:
        """The clock the clients show: the seat on it, seconds left and why."""
        step = self.next_step(now)
        if step is None or not step.why:
            return None
        seat = step.seat
        if seat is None:
            waiting = [s for s in self.waiting_for() if not self.connected[s]]
            seat = waiting[0] if waiting else None
        return {"seat": seat, "seconds": round(max(0.0, step.due - now), 1), "why": step.why}

    # ---- views: what each viewer may see, for the renderer ----------------------------------

    def state(self) -> MatchState:
        """The match's public state now (made once a stamp)."""
        cached = self._state
        if cached is not None and cached.stamp == self._stamp:
            return cached
        session = self.session
        state = MatchState(
            stamp=self._stamp,
            version=self.version,
            phase=self.phase,
            deals_played=session.deals_played,
            deal_number=len(self.deals),
            deal_seats=session.deal_seats,
            winners=tuple(session.winners),
            rematch=self.rematch,
            broken=self.broken,
            connected=tuple(self.connected),
            joined=tuple(s.seat in self.joined or not s.human for s in self.seats),
            away_turns=tuple(self.auto_turns),
            ready=tuple(sorted(self.ready)),
            waiting_for=tuple(self.waiting_for()),
            sheet=session.match,
            offers=tuple(session.rejoin_offers()),
            results=tuple(d.result for d in self.deals),
            in_deal=session.in_deal,
        )
        self._state = state
        return state

    def _spectator(self, deal: Deal) -> SpectatorView:
        cached = self._public
        if cached is not None and cached[0] == self._stamp:
            return cached[1]
        public = deal.view(None)
        self._public = (self._stamp, public)
        return public

    def seat_view(self, seat: int) -> SeatView | None:
        """Match seat ``seat``'s view of the current (or last) deal; ``None`` when it is not in it."""
        deal = self.deal
        dseat = None if deal is None else self.session.deal_seat(seat)
        return None if deal is None or dseat is None else deal.view(dseat)

    def _refusals(self, deal: Deal, dseat: int, view: SeatView) -> Refusals:
        """The engine's reasons against the moves the seat to play sees refused in its view."""
        pile = deal.can(dseat, Action.draw_pile()).reason if view.phase is Phase.DRAW else ""
        if not isinstance(deal, TableDeal):
            return Refusals(pile=pile, drop=deal.can(dseat, Action.drop()).reason)
        throw = opening = ""
        if view.phase is Phase.PLAY:
            if not any(a.kind is ActionKind.THROW for a in view.legal):
                probe = view.pile_due if view.pile_due is not None else (view.hand or (0,))[0]
                throw = deal.can(dseat, Action.throw(probe)).reason
            if not deal.opened[dseat]:
                best = self.coach.meter(view).best
                if best is not None and Action.open(best.melds) not in view.legal:
                    opening = deal.can(dseat, Action.open(best.melds)).reason
        return Refusals(pile=pile, throw=throw, open=opening)

    def view(self, viewer: int | None, now: float, *, rematch_url: str | None = None) -> dict[str, Any]:
        """The whole table as ``viewer`` (a match seat, ``None``: a spectator) may see it: the
        renderer gets the deal's public view and the viewer's own, never the deal."""
        deal = self.deal
        state = self.state()
        public = None if deal is None else self._spectator(deal)
        mine: SeatView | None = None
        refusals = NO_REFUSALS
        if viewer is not None and deal is not None:
            dseat = self.session.deal_seat(viewer)
            if dseat is not None:
                mine = deal.view(dseat)
                if mine.my_turn and state.phase == "playing":
                    refusals = self._refusals(deal, dseat, mine)
        return self.renderer.view(
            state,
            public,
            mine,
            refusals,
            viewer=viewer,
            deadline=self._deadline(now),
            rematch_url=rematch_url,
        )

    def _deadline(self, now: float) -> dict[str, Any] | None:
        """:meth:`deadline`, worked out once for all the views of one moment."""
        key = (self._stamp, now)
        cached = self._deadlines
        if cached is None or cached[0] != key:
            cached = self._deadlines = (key, self.deadline(now))
        return cached[1]

    def render(self, entry: Entry, viewer: int | None) -> dict[str, Any]:
        """``entry`` as match seat ``viewer`` (``None``: a spectator) may see it."""
        dseat = entry.seats.index(viewer) if viewer is not None and viewer in entry.seats else None
        seen = None if entry.event is None else entry.event.seen_by(dseat)
        e = entry
        note = Note(e.version, e.kind, e.seat, e.deal, e.auto, seen, e.seats, dseat, e.info, viewer)
        return self.renderer.event(note)

    def sheet_json(self) -> dict[str, Any]:
        """The score sheet (docs/protocol.md, SHEET)."""
        return self.renderer.sheet(self.state())
