"""One match's authoritative state: the session, the versioned event log, seats and their clocks.

A :class:`Table` does no I/O and reads no clock: the hub passes ``now`` in, writes each action to
storage between :meth:`Table.check` and :meth:`Table.commit`, and sends what :meth:`Table.render`
and :meth:`Table.view` make.  Everything that changes the table is an :class:`Intent` with a
stored form (:meth:`Intent.payload`), so a restarted server rebuilds the table exactly by
committing the stored intents again (:meth:`Table.replay`): versions, hands, the sheet, who was
ready, who was played for while away.

The match seats are the seats of the session's :class:`~rummykit.engine.match.Match`; a deal's
seats are the seats still in (pools): ``session.deal_seats`` maps one to the other, and every
message speaks in match seats.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from rummykit.engine.arrange import Arrangement, Arranger
from rummykit.engine.cards import JOKER, RANK_TEXT, parse_card
from rummykit.engine.deal import Deal, ShowDeal
from rummykit.engine.events import (
    Action,
    ActionKind,
    DealEnded,
    DealResult,
    Dealt,
    DrewStock,
    Dropped,
    Event,
    Groups,
    LaidDown,
    LaidOff,
    Opened,
    Phase,
    PutBack,
    Showed,
    StockRebuilt,
    Swapped,
    TableMeld,
    Threw,
    TookPile,
    WrongShow,
)
from rummykit.engine.groups import card_value
from rummykit.engine.match import (
    LEGEND,
    DealRow,
    Match,
    PointsFormat,
    SettlementFormat,
    Standing,
    charge_text,
    legend,
)
from rummykit.engine.opening import Leftover, Opening, best_leftover, best_opening, finish_plan, opening_meter
from rummykit.engine.rules import Rules
from rummykit.engine.session import MatchSession
from rummykit.engine.table_deal import ENDING_MARKS, SHEET_LEGENDS, TableDeal, ending_note
from rummykit.server.protocol import Refusal, card_text, cards_text

__all__ = ["Entry", "Intent", "SeatInfo", "Step", "Table", "TableOptions"]

# Table intents the engine plays; the others are the table's own (between deals and around them).
_ENGINE_KINDS: Final = {k.value: k for k in ActionKind}
_TABLE_KINDS: Final = frozenset({"join", "start", "deal", "ready", "rejoin", "rematch"})
# Intents as the client names them, for refusals (docs/protocol.md).
_SAID: Final = {
    "ready": "next_round",
    "draw stock": "draw stock",
    "draw pile": "draw pile",
    "lay down": "lay_down",
    "lay off": "lay_off",
    "put back": "put_back",
}
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
    """Something a seat (or the table itself) does; ``payload`` is how the action log stores it.

    The table family adds ``meld`` (the id of a meld on the table: lay off, swap) and ``cards``
    (a new meld, or the cards laid off); an opening's melds are ``groups``."""

    kind: str  # an ActionKind value, or one of _TABLE_KINDS
    card: int | None = None
    groups: Groups | None = None
    auto: bool = False  # the table played it for an away seat
    target: str | None = None  # rematch: the new match's id
    meld: int | None = None
    cards: tuple[int, ...] | None = None

    @property
    def action(self) -> Action | None:
        """The engine's action, for the intents the engine plays."""
        kind = _ENGINE_KINDS.get(self.kind)
        if kind is None:
            return None
        card = self.card if self.card is not None else -1
        if kind is ActionKind.THROW:
            return Action.throw(card)
        if kind is ActionKind.SHOW:
            return Action.show(card, self.groups)
        if kind is ActionKind.OPEN:
            return Action.open(self.groups or ())
        if kind is ActionKind.LAY_DOWN:
            return Action.lay_down(self.cards or ())
        if kind is ActionKind.LAY_OFF:
            return Action.lay_off(self.meld if self.meld is not None else -1, self.cards or ())
        if kind is ActionKind.SWAP:
            return Action.swap(self.meld if self.meld is not None else -1, card)
        return Action(kind)

    @classmethod
    def of(cls, action: Action, *, auto: bool = False) -> Intent:
        return cls(str(action.kind), action.card, action.groups, auto, None, action.meld, action.cards)

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"a": self.kind}
        if self.card is not None:
            out["card"] = card_text(self.card)
        if self.groups is not None:
            out["groups"] = [cards_text(g) for g in self.groups]
        if self.meld is not None:
            out["meld"] = self.meld
        if self.cards is not None:
            out["cards"] = cards_text(self.cards)
        if self.auto:
            out["auto"] = True
        if self.target is not None:
            out["match"] = self.target
        return out

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> Intent:
        """The intent a stored payload holds (raises ValueError/KeyError on a garbled one)."""
        kind = str(data["a"])
        if kind not in _ENGINE_KINDS and kind not in _TABLE_KINDS:
            raise ValueError(f"unknown stored action {kind!r}")
        card = data.get("card")
        groups = data.get("groups")
        meld = data.get("meld")
        cards = data.get("cards")
        if meld is not None and (isinstance(meld, bool) or not isinstance(meld, int)):
            raise ValueError(f"a stored meld id is a number, not {meld!r}")
        return cls(
            kind,
            None if card is None else parse_card(card),
            None if groups is None else tuple(tuple(parse_card(c) for c in g) for g in groups),
            bool(data.get("auto", False)),
            data.get("match"),
            meld,
            None if cards is None else tuple(parse_card(c) for c in cards),
        )


@dataclass(frozen=True, slots=True)
class Entry:
    """One versioned table event.  ``event`` is the engine's (unredacted: render it per viewer);
    ``seats`` maps its deal seats to match seats; ``data`` holds the public fields."""

    version: int
    kind: str
    seat: int | None
    deal: int | None  # 0-based
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    event: Event | None = None
    seats: tuple[int, ...] = ()
    auto: bool = False


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
        self._arranger = Arranger(rules)
        # each seat's hand and its arrangement: a hand is arranged once, whoever looks at it
        self._arranged: dict[int, tuple[tuple[int, ...], int | None, Arrangement]] = {}
        self._leftovers: dict[int, tuple[tuple[tuple[int, ...], tuple[TableMeld, ...]], Leftover]] = {}
        self._meters: dict[
            int, tuple[tuple[tuple[int, ...], int | None], tuple[int, int, Opening | None]]
        ] = {}
        self._shared: tuple[int, dict[str, Any]] | None = None  # (version, the views' common part)
        self._sheet: tuple[tuple[int, int, bool], dict[str, Any]] | None = None
        self.rules_json: Final = dict(rules.settings())

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

    def _name(self, seat: int | None) -> str:
        return "the table" if seat is None else self.names[seat]

    def check(self, seat: int | None, intent: Intent) -> None:
        """Raise :class:`Refusal` when ``seat`` (``None``: the table itself) may not do ``intent`` now."""
        said = _SAID.get(intent.kind, intent.kind)
        got = said + ("" if intent.card is None else f" {card_text(intent.card)}")
        phase = self.phase
        if phase == "broken":
            raise Refusal(f"this table is out of order: {self.broken}", "nothing: the table is closed", got)
        kind = intent.kind
        if kind in _ENGINE_KINDS:
            self._check_engine(seat, intent, got)
            return
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
            raise Refusal(f"{said} is between deals, and the match is {phase}", expected, got)
        if kind == "rejoin":
            verdict = self.session.can_rejoin(seat)
            if not verdict:
                raise Refusal(verdict.reason, "next_round", got)
            return
        if kind == "ready":
            if seat not in self._required():
                raise Refusal("you are out of the match: the others play on", None, got)
            if seat in self.ready:
                raise Refusal("you have already pressed Next round", "wait for the others", got)
            return
        raise Refusal(f"unknown intent {kind!r}", None, got)

    def _check_engine(self, seat: int | None, intent: Intent, got: str) -> None:
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
        action = intent.action
        assert action is not None
        verdict = deal.can(dseat, action)
        if not verdict:
            reason = verdict.reason
            to_play = self.to_play()
            if reason.startswith("not your turn") and to_play is not None:
                reason = f"not your turn: {self.names[to_play]} is to play"
            raise Refusal(reason, self._expected(seat), got)

    def _expected(self, seat: int) -> str:
        """What ``seat`` may do now, in words, for an error's ``expected``."""
        deal = self.deal
        to_play = self.to_play()
        if deal is None or to_play is None:
            return "wait"
        if to_play != seat:
            return f"wait for your turn: {self.names[to_play]} is to play"
        if deal.phase is Phase.THROW:
            if not isinstance(deal, TableDeal):
                return "throw a card, or show with a finishing card"
            dseat = self.session.deal_seat(seat)
            assert dseat is not None
            kinds = {a.kind for a in deal.legal_actions(dseat)}
            said = [
                w
                for k, w in (
                    (ActionKind.PUT_BACK, "put back"),
                    (ActionKind.OPEN, "open"),
                    (ActionKind.LAY_DOWN, "lay down"),
                    (ActionKind.LAY_OFF, "lay off"),
                    (ActionKind.SWAP, "swap a joker"),
                    (ActionKind.THROW, "throw a card"),
                )
                if k in kinds
            ]
            if deal.pile_due is not None:
                said.append(f"use {card_text(deal.pile_due)} from the pile in a meld")
            elif deal.owed_jokers:
                said.append("lay the freed joker down")
            return "one of: " + ", ".join(said) if said else "play on"
        dseat = self.session.deal_seat(seat)
        assert dseat is not None
        words = {
            ActionKind.DROP: "drop",
            ActionKind.DRAW_STOCK: "draw from the stock",
            ActionKind.DRAW_PILE: "draw from the pile",
        }
        return "one of: " + ", ".join(words[a.kind] for a in deal.legal_actions(dseat) if a.kind in words)

    # ---- committing ---------------------------------------------------------------------------

    def _add(
        self,
        out: list[Entry],
        kind: str,
        seat: int | None,
        text: str,
        data: Mapping[str, Any] | None = None,
        *,
        event: Event | None = None,
        auto: bool = False,
    ) -> None:
        deal = len(self.deals) - 1 if self.deals else None
        entry = Entry(
            self.version + 1,
            kind,
            seat,
            deal,
            text,
            dict(data or {}),
            event,
            self.session.deal_seats if event is not None else (),
            auto,
        )
        self.log.append(entry)
        out.append(entry)

    def commit(self, seat: int | None, intent: Intent, now: float) -> list[Entry]:
        """Apply an intent :meth:`check` accepted; returns the new versioned events."""
        before = (self.phase, self.to_play())
        out: list[Entry] = []
        kind = intent.kind
        self.actions += 1
        self._auto_drawn = False
        if kind in _ENGINE_KINDS:
            assert seat is not None
            self._commit_engine(seat, intent, out)
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
            self._add(out, "joined", seat, f"{self.names[seat]} joined the table")
        elif kind == "start":
            self.started = True
            self._add(out, "started", seat, f"{self._name(seat)} started the match")
        elif kind == "ready":
            assert seat is not None
            self.ready.add(seat)
            self._add(out, "ready", seat, f"{self.names[seat]} is ready for the next deal")
        elif kind == "rejoin":
            assert seat is not None
            record = self.session.rejoin(seat)
            self.ready.add(seat)
            self.auto_turns[seat] = 0
            self._add(
                out,
                "rejoined",
                seat,
                f"{self.names[seat]} rejoined at {record.total}",
                {"total": record.total, "number": record.number},
            )
        elif kind == "rematch":
            self.rematch = intent.target
            self._add(out, "rematch", seat, "A rematch is set up", {"match_id": intent.target})
        self.changed_at = now
        if (self.phase, self.to_play()) != before:
            self.anchor = now
        self._shared = None
        return out

    def _commit_engine(self, seat: int, intent: Intent, out: list[Entry]) -> None:
        deal = self.deal
        assert deal is not None
        dseat = self.session.deal_seat(seat)
        assert dseat is not None
        action = intent.action
        assert action is not None
        seen = len(deal.events)
        deal.apply(dseat, action)
        if isinstance(deal, TableDeal):
            # a turn of the table family ends with a throw (or a hand emptied by a meld)
            ends_turn = deal.to_play != dseat or deal.phase is not Phase.THROW
        else:
            ends_turn = action.kind not in (ActionKind.DRAW_STOCK, ActionKind.DRAW_PILE)
        if intent.auto:
            if ends_turn:
                self.auto_turns[seat] += 1
        else:
            self.auto_turns[seat] = 0
        self._auto_drawn = intent.auto and not ends_turn
        self._engine_entries(out, deal.events[seen:], intent.auto)

    def _engine_entries(self, out: list[Entry], events: Sequence[Event], auto: bool) -> None:
        seats = self.session.deal_seats
        for ev in events:
            ms = None if ev.seat is None else seats[ev.seat]
            name = self._name(ms)
            if isinstance(ev, Dealt):
                wild = None if ev.wild is None else RANK_TEXT[ev.wild]
                data: dict[str, Any] = {
                    "dealer": ms,
                    "first": seats[ev.first],
                    "seats": list(seats),
                    "pile_top": card_text(ev.pile_top),
                    "cut": card_text(ev.cut),
                    "wild": wild,
                    "stock_count": ev.stock_count,
                }
                wild_words = f", wild {wild}" if wild else ""
                self._add(
                    out, "dealt", ms, f"Deal {len(self.deals)}: {name} dealt{wild_words}", data, event=ev
                )
            elif isinstance(ev, DrewStock):
                self._add(out, "drew_stock", ms, f"{name} drew from the stock", event=ev, auto=auto)
            elif isinstance(ev, TookPile):
                c = card_text(ev.card)
                self._add(out, "took_pile", ms, f"{name} took {c}", {"card": c}, event=ev, auto=auto)
            elif isinstance(ev, Threw):
                c = card_text(ev.card)
                self._add(out, "threw", ms, f"{name} threw {c}", {"card": c}, event=ev, auto=auto)
            elif isinstance(ev, Dropped):
                self._add(
                    out,
                    "dropped",
                    ms,
                    f"{name} dropped ({ev.cost})",
                    {"cost": ev.cost, "first": ev.first},
                    event=ev,
                    auto=auto,
                )
            elif isinstance(ev, Showed):
                c = card_text(ev.card)
                shown = {"card": c, "groups": [cards_text(g) for g in ev.groups]}
                self._add(out, "showed", ms, f"{name} showed, finishing with {c}", shown, event=ev)
            elif isinstance(ev, WrongShow):
                wrong: dict[str, Any] = {
                    "card": card_text(ev.card),
                    "groups": [cards_text(g) for g in ev.groups],
                    "loose": cards_text(ev.loose),
                    "reason": ev.reason,
                    "penalty": ev.penalty,
                }
                text = f"{name}'s show was wrong: {ev.reason} ({ev.penalty})"
                self._add(out, "wrong_show", ms, text, wrong, event=ev)
            elif isinstance(ev, Opened):
                melds = [self.meld_json(m) for m in ev.melds]
                waived = " (the threshold waived)" if ev.waived else ""
                texts = " | ".join(" ".join(m["cards"]) for m in melds)
                self._add(
                    out,
                    "opened",
                    ms,
                    f"{name} opened with {ev.points}{waived}: {texts}",
                    {"melds": melds, "points": ev.points, "waived": ev.waived},
                    event=ev,
                    auto=auto,
                )
            elif isinstance(ev, LaidDown):
                meld = self.meld_json(ev.meld)
                text = f"{name} laid down {' '.join(meld['cards'])}"
                self._add(out, "laid_down", ms, text, {"meld": meld}, event=ev, auto=auto)
            elif isinstance(ev, LaidOff):
                cards = cards_text(ev.cards)
                meld = self.meld_json(ev.meld)
                text = f"{name} laid {' '.join(cards)} off onto meld {ev.meld_id}"
                data = {"meld_id": ev.meld_id, "cards": cards, "meld": meld}
                self._add(out, "laid_off", ms, text, data, event=ev, auto=auto)
            elif isinstance(ev, Swapped):
                c = card_text(ev.card)
                meld = self.meld_json(ev.meld)
                text = f"{name} swapped {c} for the joker in meld {ev.meld_id}"
                data = {"meld_id": ev.meld_id, "card": c, "meld": meld}
                self._add(out, "swapped", ms, text, data, event=ev, auto=auto)
            elif isinstance(ev, PutBack):
                c = card_text(ev.card)
                self._add(out, "put_back", ms, f"{name} put {c} back", {"card": c}, event=ev, auto=auto)
            elif isinstance(ev, StockRebuilt):
                self._add(
                    out,
                    "stock_rebuilt",
                    None,
                    f"The stock was rebuilt: {ev.count} cards",
                    {"count": ev.count},
                    event=ev,
                )
            elif isinstance(ev, DealEnded):
                self._deal_ended(out, ev)

    def _deal_ended(self, out: list[Entry], ev: DealEnded) -> None:
        seats = self.session.deal_seats
        result = self.result_json(ev.result, seats)
        row = self.session.finish_deal()
        winner = self.names[seats[ev.result.winner]]
        data = {"result": result, "row": self._row_json(row)}
        text = f"Deal {len(self.deals)}: {winner} wins ({ev.result.ending})"
        self._add(out, "deal_ended", None, text, data, event=ev)
        if self.session.is_over:
            winners = list(self.session.winners)
            names = " and ".join(self.names[s] for s in winners) or "nobody"
            self._add(
                out,
                "match_over",
                None,
                f"The match is over: {names} won",
                {"winners": winners, "totals": list(self.session.totals)},
            )

    # ---- replay -----------------------------------------------------------------------------

    def replay(self, actions: Iterable[tuple[int | None, Mapping[str, Any]]], now: float) -> None:
        """Commit the stored actions again, in order; a log that does not replay marks the table
        broken (it then refuses everything) rather than guessing."""
        for n, (seat, payload) in enumerate(actions):
            try:
                intent = Intent.from_payload(payload)
                self.check(seat, intent)
            except (Refusal, ValueError, KeyError, TypeError) as e:
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
        self._shared = None

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
        """What the table plays for a human seat whose clock ran out (see docs/protocol.md)."""
        deal = self.deal
        dseat = self.session.deal_seat(seat)
        assert deal is not None and dseat is not None
        legal = deal.legal_actions(dseat)
        if isinstance(deal, TableDeal):
            return Intent.of(self._table_auto(deal, dseat, legal), auto=True)
        if deal.phase is Phase.DRAW:
            drop = Action.drop()
            if self.auto_turns[seat] >= self.options.away_turns and drop in legal:
                return Intent.of(drop, auto=True)
            for action in (Action.draw_stock(), Action.draw_pile()):
                if action in legal:
                    return Intent.of(action, auto=True)
            return Intent.of(legal[0], auto=True)
        drawn = deal.drawn
        if drawn is not None and Action.throw(drawn) in legal:
            return Intent.of(Action.throw(drawn), auto=True)
        assert isinstance(deal, ShowDeal)
        return Intent.of(Action.throw(self._cheapest_throw(deal, dseat, legal)), auto=True)

    def _table_auto(self, deal: TableDeal, dseat: int, legal: Sequence[Action]) -> Action:
        """The table family's clock: draw from the stock and throw, never melding.  A card taken
        from the pile is put back first (then the stock is drawn); where the turn owes a card
        that can no longer be put back (the pile card after a meld, a freed joker at Rummy 40),
        the engine's own way to pay it is played, since a turn cannot end owing it (RULES.md).
        A joker a swap freed at Remi 51 is owed nothing (``freed_joker_must_go_down`` is off):
        it stays in the hand and the clock throws as on any turn."""
        if deal.phase is Phase.DRAW:
            for action in (Action.draw_stock(), Action.draw_pile()):
                if action in legal:
                    return action
            return legal[0]
        if Action.put_back() in legal:
            return Action.put_back()
        throws = [a.card for a in legal if a.kind is ActionKind.THROW and a.card is not None]
        if not throws:
            plan = finish_plan(
                deal.hand(dseat),
                deal.melds,
                deal.rules,
                due=deal.pile_due,
                jokers_owed=deal.owed_jokers,
                min_left=1 if deal.rules.last_card_discard else 0,
            )
            if plan:
                target, cards = plan[0]
                action = Action.lay_down(cards) if target is None else Action.lay_off(target, cards)
                if deal.can(dseat, action):
                    return action
            return legal[0]
        drawn = deal.drawn
        if drawn is not None and drawn in throws:
            return Action.throw(drawn)
        # Remi's first player, who drew nothing: the dearest card, a joker last
        rules = deal.rules
        return Action.throw(max(throws, key=lambda k: (k != JOKER, card_value(k, rules, None), k)))

    def _cheapest_throw(self, deal: ShowDeal, dseat: int, legal: Sequence[Action]) -> int:
        """The legal throw that leaves the lowest charge (the dearest card on a tie)."""
        hand = list(deal.hand(dseat))
        best: tuple[int, int, int] | None = None
        for action in legal:
            if action.kind is not ActionKind.THROW or action.card is None:
                continue
            rest = list(hand)
            rest.remove(action.card)
            key = (
                self._arranger.charge(rest, deal.wild),
                -self._arranger.value(action.card, deal.wild),
                action.card,
            )
            if best is None or key < best:
                best = key
        assert best is not None, "a seat in the throw phase always has a card to throw"
        return best[2]

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

    # ---- views ------------------------------------------------------------------------------

    def render(self, entry: Entry, viewer: int | None) -> dict[str, Any]:
        """``entry`` as match seat ``viewer`` (``None``: a spectator) may see it."""
        out: dict[str, Any] = {
            "version": entry.version,
            "kind": entry.kind,
            "seat": entry.seat,
            "deal": None if entry.deal is None else entry.deal + 1,
            "text": entry.text,
            **entry.data,
        }
        if entry.auto:
            out["auto"] = True
        ev = entry.event
        if isinstance(ev, Dealt):
            dseat = entry.seats.index(viewer) if viewer in entry.seats else None
            seen = ev.seen_by(dseat)
            if dseat is not None and seen.hands[dseat] is not None:
                out["hand"] = cards_text(seen.hands[dseat] or ())
        elif isinstance(ev, DrewStock):
            dseat = entry.seats.index(viewer) if viewer in entry.seats else None
            card = ev.seen_by(dseat).card
            out["card"] = card_text(card)
        return out

    def meld_json(self, meld: TableMeld, seats: Sequence[int] | None = None) -> dict[str, Any]:
        """A meld on the table: its id, the match seat that laid it down, ``run`` or ``set``, its
        cards in slot order, and what each card stands for (a joker's slot names its card)."""
        seats = self.session.deal_seats if seats is None else seats
        return {
            "id": meld.id,
            "owner": seats[meld.owner],
            "kind": meld.kind,
            "cards": cards_text(meld.cards),
            "stands_for": cards_text(meld.stands_for),
        }

    def result_json(self, result: DealResult, seats: Sequence[int]) -> dict[str, Any]:
        """A deal's end: who won and how, and every seat's hand and charge.  A table-family deal
        adds whether the rivals' counts were doubled (Hand Rummy, or Remi's -40) and a note; its
        hands have no groups (the melds went down on the table)."""
        table = self.is_table
        out: dict[str, Any] = {
            "winner": seats[result.winner],
            "ending": str(result.ending),
            "turns": result.turns,
            "halved": False if table else result.halved,
            "finish_card": card_text(result.finish_card),
            "seats": [
                {
                    "seat": seats[r.seat],
                    "status": str(r.status),
                    "won": r.won,
                    "charge": r.charge,
                    "hand_charge": r.hand_charge,
                    "unhalved": r.unhalved,
                    "hand": cards_text(r.hand),
                    "groups": [] if table else [cards_text(g) for g in r.groups],
                    "loose": cards_text(r.loose),
                }
                for r in result.seats
            ],
        }
        if table:
            out["doubled"] = result.doubled
            out["note"] = ending_note(self.rules, result)
        return out

    def _row_json(self, row: DealRow) -> dict[str, Any]:
        fmt = self.session.match.format
        statuses = row.entry.statuses
        cells = [charge_text(c, s, row.entry.early) for c, s in zip(row.charges, statuses, strict=True)]
        note = None
        if self.is_table and row.index < len(self.deals):
            result = self.deals[row.index].result
            if result is not None:
                note = ending_note(self.rules, result)
                mark = ENDING_MARKS.get(note or "", "")
                if mark:
                    winner = row.entry.winner
                    cells[winner] = f"{cells[winner]} {mark}"
        extra: dict[str, Any] = {"note": note} if self.is_table else {}
        return {
            **extra,
            "deal": row.index + 1,
            "dealer": row.dealer,
            "charges": list(row.charges),
            "statuses": [str(s) for s in statuses],
            "cells": cells,
            "row": list(row.row),
            "row_text": [fmt.show_row(v) for v in row.row],
            "totals": list(row.totals),
            "totals_text": [fmt.show_total(v) for v in row.totals],
            "standings": [str(s) for s in row.standings],
        }

    def sheet_json(self) -> dict[str, Any]:
        """The score sheet (see docs/protocol.md, SHEET); it changes only with a deal or a rejoin
        (and the offers with the deal in progress)."""
        key = (self.session.deals_played, len(self.session.match.rejoins), self.session.in_deal)
        cached = self._sheet
        if cached is not None and cached[0] == key:
            return cached[1]
        sheet = self._sheet_json()
        self._sheet = (key, sheet)
        return sheet

    def _sheet_json(self) -> dict[str, Any]:
        match: Match = self.session.match
        fmt = match.format
        n = len(self.seats)
        money: list[int] | None = None
        if isinstance(fmt, PointsFormat | SettlementFormat):
            money = [match.money(s) for s in range(n)]
        return {
            "format": fmt.key,
            "label": fmt.row_label,
            "describe": fmt.describe(),
            "names": list(self.names),
            "rows": [self._row_json(r) for r in match.rows],
            "totals": list(match.totals),
            "totals_text": [fmt.show_total(t) for t in match.totals],
            "standings": [str(match.standing(s)) for s in range(n)],
            "rejoins": [
                {"seat": r.seat, "total": r.total, "after_deals": r.after_deals, "number": r.number}
                for r in match.rejoins
            ],
            "offers": [
                {"seat": o.seat, "total": o.total, "rejoins_left": o.rejoins_left}
                for o in self.session.rejoin_offers()
            ],
            "money": money,
            "status_line": match.status_line(),
            "legend": SHEET_LEGENDS.get(self.rules.format, LEGEND) if self.is_table else legend(self.rules),
            "winners": list(match.winners),
        }

    def _deal_json(self) -> dict[str, Any] | None:
        deal = self.deal
        if deal is None:
            return None
        seats = self.session.deal_seats
        wild = deal.wild
        extra: dict[str, Any] = {}
        if isinstance(deal, TableDeal):
            extra = {
                "melds": [self.meld_json(m, seats) for m in deal.melds],
                "pile_due": card_text(deal.pile_due),
                "owed_jokers": deal.owed_jokers,
                "opening": self.rules.opening,
                "stock_rebuilds": self.rules.stock_rebuilds,
            }
        return {
            **extra,
            "number": len(self.deals),
            "dealer": seats[deal.dealer],
            "phase": str(deal.phase),
            "to_play": None if deal.to_play is None else seats[deal.to_play],
            "turn": deal.turns if deal.over else deal.turns + 1,
            "turn_limit": deal.turn_limit,
            "cut": card_text(deal.cut),
            "wild": None if wild is None else RANK_TEXT[wild],
            "pile": cards_text(deal.pile),
            "pile_top": card_text(deal.pile_top),
            "pile_take": card_text(deal.pile_take),
            "stock_count": deal.stock_count,
            "rebuilds": deal.rebuilds,
            "result": None if deal.result is None else self.result_json(deal.result, seats),
        }

    def _seats_json(self) -> list[dict[str, Any]]:
        deal = self.deal
        session = self.session
        match = session.match
        fmt = match.format
        totals = match.totals
        out = []
        for info in self.seats:
            s = info.seat
            item: dict[str, Any] = {
                "seat": s,
                "name": info.name,
                "kind": info.kind,
                "bot": info.bot or None,
                "connected": self.connected[s],
                "joined": s in self.joined or not info.human,
                "away_turns": self.auto_turns[s],
                "ready": s in self.ready,
                "total": totals[s],
                "total_text": fmt.show_total(totals[s]),
                "standing": str(match.standing(s)),
                "in_deal": False,
                "cards": 0,
                "status": None,
                "took": [],
                "thrown": [],
            }
            dseat = session.deal_seat(s) if deal is not None else None
            if deal is not None and dseat is not None:
                item.update(
                    in_deal=True,
                    cards=deal.card_counts[dseat],
                    status=str(deal.statuses[dseat]),
                    took=cards_text(deal.took[dseat]),
                    thrown=cards_text(deal.thrown[dseat]),
                )
                if isinstance(deal, TableDeal):
                    item["opened"] = deal.opened[dseat]
            elif self.is_table:
                item["opened"] = False
            out.append(item)
        return out

    def _shared_json(self) -> dict[str, Any]:
        """The part of every view that is the same for all viewers at this version."""
        cached = self._shared
        if cached is not None and cached[0] == self.version:
            return cached[1]
        session = self.session
        shared = {
            "match": {
                "id": self.match_id,
                "title": self.title,
                "preset": self.rules.preset,
                "format": self.rules.format,
                "describe": session.match.format.describe(),
                "phase": self.phase,
                "deals_played": session.deals_played,
                "rounds": self.rules.rounds
                if self.rules.format in ("settlement", "points", "deals")
                else None,
                "winners": list(session.winners),
                "rematch": None,
                "broken": self.broken,
                "family": self.rules.family,
                "hints": self.options.hints,
                "turn_time": self.options.turn_time,
            },
            "seats": self._seats_json(),
            "deal": self._deal_json(),
            "sheet": self.sheet_json(),
        }
        self._shared = (self.version, shared)
        return shared

    def arrangement(self, seat: int, hand: tuple[int, ...], wild: int | None) -> Arrangement:
        """The Group button's answer for ``seat``'s hand (kept until the hand changes)."""
        cached = self._arranged.get(seat)
        if cached is not None and cached[0] == hand and cached[1] == wild:
            return cached[2]
        a = self._arranger.arrange(hand, wild)
        self._arranged[seat] = (hand, wild, a)
        return a

    def _hand_json(self, seat: int) -> dict[str, Any] | None:
        deal = self.deal
        dseat = self.session.deal_seat(seat) if deal is not None else None
        if deal is None or dseat is None:
            return None
        hand = deal.hand(dseat)
        mine = deal.to_play == dseat
        if isinstance(deal, TableDeal):
            return self._table_hand_json(deal, seat, dseat, hand, mine)
        assert isinstance(deal, ShowDeal)
        out: dict[str, Any] = {
            "cards": cards_text(hand),
            "drawn": card_text(deal.drawn) if mine else None,
            "groups": [],
            "loose": [],
            "aside": None,
            "charge": 0,
            "can_show": False,
            "needs": [],
            "finishing": [],
        }
        size = self.rules.hand_size
        if len(hand) not in (size, size + 1):
            return out  # dropped, or out after a wrong show: nothing to group
        a = self.arrangement(seat, hand, deal.wild)
        out.update(
            groups=[{"cards": cards_text(g.cards), "kind": g.kind, "pure": g.pure} for g in a.groups],
            loose=cards_text(a.loose),
            aside=card_text(a.throw),
            charge=a.charge,
            can_show=a.can_show,
            needs=list(a.needs),
            finishing=cards_text(deal.finishing_cards(dseat)) if len(hand) == size + 1 else [],
        )
        return out

    def _table_hand_json(
        self, deal: TableDeal, seat: int, dseat: int, hand: tuple[int, ...], mine: bool
    ) -> dict[str, Any]:
        """A table-family hand: its cards and count, and the Opening meter (before opening) or
        the cheapest leftover with its plan (after)."""
        out: dict[str, Any] = {
            "cards": cards_text(hand),
            "drawn": card_text(deal.drawn) if mine else None,
            "groups": [],
            "loose": [],
            "aside": None,
            "charge": deal.hand_count(dseat),
            "can_show": False,
            "needs": [],
            "finishing": [],
            "count": deal.hand_count(dseat),
            "opened": deal.opened[dseat],
            "meter": None,
            "leftover": None,
        }
        if not hand or deal.phase is Phase.OVER:
            return out
        due = deal.pile_due if mine else None
        if not deal.opened[dseat]:
            points, threshold, best = self._meter(seat, hand, due)
            why: str | None = None
            can_open = False
            if best is None:
                short = threshold - points
                why = f"your melds make {points} of the {threshold} points, {short} short"
                if due is not None:
                    why = f"with {card_text(due)} from the pile, {why}"
            elif mine and deal.phase is Phase.THROW:
                verdict = deal.can(dseat, Action.open(best.melds))
                can_open, why = bool(verdict), (None if verdict else verdict.reason)
            elif mine:
                why = "take a card first"
            else:
                why = "wait for your turn"
            out["meter"] = {
                "points": points if best is None else best.points,
                "threshold": threshold,
                "melds": [] if best is None else [cards_text(m) for m in best.melds],
                "ready": best is not None,
                "waived": False if best is None else best.waived,
                "can_open": can_open,
                "why": why,
            }
        else:
            left = self._leftover(seat, hand, deal.melds)
            seats = self.session.deal_seats
            out["leftover"] = {
                "cost": left.cost,
                "loose": cards_text(left.loose),
                "melds": [cards_text(m) for m in left.melds],
                "layoffs": [{"meld": i, "cards": cards_text(c)} for i, c in left.layoffs],
                "owners": {str(m.id): seats[m.owner] for m in deal.melds},
            }
        return out

    def _leftover(self, seat: int, hand: tuple[int, ...], melds: tuple[TableMeld, ...]) -> Leftover:
        """The cheapest leftover of an opened hand, kept until the hand or the table changes."""
        key = (hand, melds)
        cached = self._leftovers.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        left = best_leftover(hand, melds, self.rules)
        self._leftovers[seat] = (key, left)
        return left

    def _meter(self, seat: int, hand: tuple[int, ...], due: int | None) -> tuple[int, int, Opening | None]:
        """(points, threshold, the best opening or ``None``), kept until the hand changes."""
        key = (hand, due)
        cached = self._meters.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        points, threshold = opening_meter(hand, self.rules, must_include=due)
        best = best_opening(hand, self.rules, must_include=due)
        got = (points, threshold, best)
        self._meters[seat] = (key, got)
        return got

    def _table_legal_json(self, deal: TableDeal, dseat: int) -> dict[str, Any]:
        legal = deal.legal_actions(dseat)
        throws = [a.card for a in legal if a.kind is ActionKind.THROW and a.card is not None]
        pile = deal.can_draw_pile(dseat)
        due = deal.pile_due
        throw_refusal: str | None = None
        if deal.phase is Phase.THROW and not throws:
            probe = due if due is not None else (deal.hand(dseat) or (0,))[0]
            throw_refusal = deal.can(dseat, Action.throw(probe)).reason or None
        opening = next((a.groups for a in legal if a.kind is ActionKind.OPEN), None)
        return {
            "draw_stock": Action.draw_stock() in legal,
            "draw_pile": bool(pile),
            "pile_refusal": None if pile or deal.phase is not Phase.DRAW else pile.reason,
            "drop": None,
            "drop_refusal": "there is no dropping at this table",
            "throw": cards_text(throws),
            "no_throw": None if due is None else {"card": card_text(due), "reason": throw_refusal},
            "throw_refusal": throw_refusal,
            "show": [],
            "put_back": Action.put_back() in legal,
            "open": None if opening is None else [cards_text(m) for m in opening],
            "lay_down": [cards_text(a.cards or ()) for a in legal if a.kind is ActionKind.LAY_DOWN],
            "lay_off": [
                {"meld": a.meld, "cards": cards_text(a.cards or ())}
                for a in legal
                if a.kind is ActionKind.LAY_OFF
            ],
            "swap": [{"meld": a.meld, "card": card_text(a.card)} for a in legal if a.kind is ActionKind.SWAP],
            "pile_due": card_text(due),
            "owed_jokers": deal.owed_jokers,
        }

    def _legal_json(self, seat: int) -> dict[str, Any] | None:
        deal = self.deal
        if deal is None or self.phase != "playing" or self.to_play() != seat:
            return None
        dseat = self.session.deal_seat(seat)
        assert dseat is not None
        if isinstance(deal, TableDeal):
            return self._table_legal_json(deal, dseat)
        assert isinstance(deal, ShowDeal)
        legal = deal.legal_actions(dseat)
        throws = [a.card for a in legal if a.kind is ActionKind.THROW and a.card is not None]
        shows = [a.card for a in legal if a.kind is ActionKind.SHOW and a.card is not None]
        pile = deal.can_draw_pile(dseat)
        drop = deal.can_drop(dseat)
        take = deal.pile_take
        return {
            "draw_stock": Action.draw_stock() in legal,
            "draw_pile": bool(pile),
            "pile_refusal": None if pile or deal.phase is not Phase.DRAW else pile.reason,
            "drop": {"cost": deal.drop_cost(dseat)} if drop else None,
            "drop_refusal": None if drop else drop.reason,
            "throw": cards_text(throws),
            "no_throw": None
            if take is None
            else {"card": card_text(take), "reason": "cannot throw back the card just taken from the pile"},
            "show": cards_text(shows),
        }

    def view(self, viewer: int | None, now: float, *, rematch_url: str | None = None) -> dict[str, Any]:
        """The whole table as ``viewer`` (a match seat, ``None``: a spectator) may see it."""
        shared = self._shared_json()
        view: dict[str, Any] = dict(shared)
        if self.rematch is not None:
            view["match"] = {**shared["match"], "rematch": {"match_id": self.rematch, "url": rematch_url}}
        view["rules"] = self.rules_json
        view["you"] = {"role": "spectator" if viewer is None else "seat", "seat": viewer}
        view["hand"] = None if viewer is None else self._hand_json(viewer)
        view["legal"] = None if viewer is None else self._legal_json(viewer)
        between = None
        if self.phase == "between":
            offer = None
            if viewer is not None:
                for o in self.session.rejoin_offers():
                    if o.seat == viewer:
                        offer = {"total": o.total, "rejoins_left": o.rejoins_left}
            between = {"ready": sorted(self.ready), "waiting_for": self.waiting_for(), "offer": offer}
        view["between"] = between
        view["deadline"] = self.deadline(now)
        return view
