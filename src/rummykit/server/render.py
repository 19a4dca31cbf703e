"""The JSON the clients read: views and events, made from what their viewer may see and nothing else.

This is the server's side of the security boundary.  A :class:`Renderer` is given the engine's
views (the deal's :class:`~rummykit.engine.views.SpectatorView`, and the viewer's own
:class:`~rummykit.engine.views.SeatView`), the match's public state (:class:`MatchState`: who
sits where, who is connected, the score sheet), the engine's reasons about the viewer's own next
moves (:class:`Refusals`) and each event as that viewer sees it (:class:`Note`); never a deal,
never a hand of another seat.  It checks that at its door (a deal, or a view of another seat,
is refused with :class:`TypeError`/:class:`ValueError`), and this module imports neither the
deal nor the table that holds it.  The shapes are ``docs/protocol.md``'s VIEW and EVENT; the
hand's help (the arrangement, the Opening meter, the cheapest leftover) comes from the hand
coach (:mod:`rummykit.bots.coach`), itself fed the seat's view only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from rummykit.bots.coach import Coach
from rummykit.engine.cards import RANK_TEXT, format_card
from rummykit.engine.events import (
    Action,
    ActionKind,
    DealEnded,
    DealResult,
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
    TableMeld,
    Threw,
    TookPile,
    WrongShow,
)
from rummykit.engine.match import (
    LEGEND,
    DealRow,
    Format,
    Match,
    PointsFormat,
    RejoinOffer,
    SettlementFormat,
    Status,
    charge_text,
    legend,
)
from rummykit.engine.notation import to_dict
from rummykit.engine.rules import Rules
from rummykit.engine.table_deal import ENDING_MARKS, SHEET_LEGENDS, ending_note
from rummykit.engine.views import SeatView, SpectatorView
from rummykit.engine.words import Part, event_words, meter_why, parts_json, plain, step_words

__all__ = ["MatchState", "Note", "Refusals", "Renderer", "SeatPublic", "card_text", "cards_text"]


def card_text(k: int | None) -> str | None:
    return None if k is None else format_card(k)


def cards_text(kinds: Sequence[int]) -> list[str]:
    return [format_card(k) for k in kinds]


@dataclass(frozen=True, slots=True)
class SeatPublic:
    """Who sits at a match seat, as everyone may know it."""

    seat: int
    name: str
    kind: str  # human | bot
    bot: str = ""

    @property
    def human(self) -> bool:
        return self.kind == "human"


@dataclass(frozen=True, slots=True)
class MatchState:
    """The match's public state at one moment: no deal, no hand.

    ``stamp`` changes whenever anything here does (a new version, a seat connecting), so the
    part of the view every viewer shares is made once a stamp.  Seats are match seats;
    ``deal_seats`` maps the current deal's seats to them."""

    stamp: int
    version: int
    phase: str  # waiting | playing | between | over | broken
    deals_played: int
    deal_number: int  # deals dealt so far (the current one included)
    deal_seats: tuple[int, ...]
    winners: tuple[int, ...]
    rematch: str | None
    broken: str | None
    connected: tuple[bool, ...]
    joined: tuple[bool, ...]
    away_turns: tuple[int, ...]
    ready: tuple[int, ...]
    waiting_for: tuple[int, ...]
    sheet: Match
    offers: tuple[RejoinOffer, ...]
    results: tuple[DealResult | None, ...]  # by deal, the results so far (public once over)
    in_deal: bool


@dataclass(frozen=True, slots=True)
class Refusals:
    """The engine's reasons against the viewer's own next moves, where the view shows them
    (``""``: none): taking the pile, dropping, throwing now, and the Opening meter's opening."""

    pile: str = ""
    drop: str = ""
    throw: str = ""
    open: str = ""


NO_REFUSALS: Final = Refusals()


@dataclass(frozen=True, slots=True)
class Note:
    """One versioned table event as one viewer may see it: ``event`` is the engine's event
    already made for that viewer (``Event.seen_by``), ``viewer_seat`` the viewer's deal seat
    (``None``: a spectator or a seat out of the deal), ``viewer`` its match seat.  ``info``: a
    match step's public facts (``rejoined``: total, number; ``rematch``: match_id;
    ``match_over``: winners, totals; ``deal_ended``: the sheet's row)."""

    version: int
    kind: str
    seat: int | None
    deal: int | None  # 0-based
    auto: bool = False
    event: Event | None = None
    seats: tuple[int, ...] = ()
    viewer_seat: int | None = None
    info: Mapping[str, Any] = field(default_factory=dict)
    viewer: int | None = None  # the viewer's match seat (None: a spectator)


def _check_views(deal: object, mine: object) -> None:
    """Only views pass: the renderer never holds a deal (nor a subclass of a view holding one)."""
    if deal is not None and type(deal) is not SpectatorView:
        raise TypeError(f"the renderer takes a SpectatorView of the deal, not {type(deal).__name__}")
    if mine is not None and type(mine) is not SeatView:
        raise TypeError(f"the renderer takes the viewer's own SeatView, not {type(mine).__name__}")


def _personal(note: Note) -> bool:
    """Whether the event reads differently to this viewer than to anyone watching: it is told
    of the viewer ("You ..."), or shows the viewer a card of its own (a dealt hand)."""
    ev = note.event
    if ev is None:
        if note.viewer is None:
            return False
        return note.viewer == note.seat or (note.kind == "match_over" and note.viewer in note.info["winners"])
    me = note.viewer_seat
    if me is None:
        return False
    if isinstance(ev, Dealt):
        return True
    if isinstance(ev, DealEnded):
        return ev.result.winner == me
    return ev.seat == me


def _check_note(note: Note) -> None:
    """An event with a card its viewer may not see is refused."""
    ev = note.event
    if isinstance(ev, Dealt):
        if any(h is not None for s, h in enumerate(ev.hands) if s != note.viewer_seat):
            raise ValueError("a dealt event holding a hand its viewer may not see")
    elif isinstance(ev, DrewStock) and ev.card is not None and ev.seat != note.viewer_seat:
        raise ValueError("a drawn card shown to a viewer who did not draw it")


class Renderer:
    """Views and events of one match as JSON (``docs/protocol.md``)."""

    def __init__(
        self,
        match_id: str,
        title: str,
        rules: Rules,
        seats: Sequence[SeatPublic],
        *,
        sheet_format: Format,
        hints: bool,
        turn_time: float | None,
        coach: Coach | None = None,
    ) -> None:
        self.match_id: Final = match_id
        self.title: Final = title
        self.rules: Final = rules
        self.seats: Final = tuple(seats)
        self.names: Final = tuple(s.name for s in seats)
        self.format: Final = sheet_format
        self.hints: Final = hints
        self.turn_time: Final = turn_time
        self.coach: Final = coach if coach is not None else Coach(rules)
        self.rules_json: Final = dict(rules.settings())
        self._is_table = rules.is_table
        self._shared: tuple[int, dict[str, Any]] | None = None  # (stamp, the views' common part)
        self._sheet: tuple[tuple[int, int, bool], dict[str, Any]] | None = None
        self._texts: dict[int, str] = {}  # version -> the event's words for anyone watching
        self._datas: dict[int, dict[str, Any]] = {}  # version -> a public event's fields
        self._impersonal: dict[int, dict[str, Any]] = {}  # version -> EVENT for viewers it is not about
        self._by_seats: dict[tuple[int, ...], list[str]] = {}  # a deal's seats -> their names
        self._actions: dict[Action, dict[str, Any]] = {}  # a legal action -> the message that plays it
        self._hands: dict[int, tuple[object, dict[str, Any]]] = {}  # seat -> (key, its HAND)

    # ---- events -------------------------------------------------------------------------------

    def _name(self, seat: int | None) -> str:
        return "the table" if seat is None else self.names[seat]

    def event(self, note: Note) -> dict[str, Any]:
        """``note`` as EVENT JSON: its fields, and its words (``engine.words``): ``text`` as
        anyone watching reads it, ``line`` as this viewer does ("You throw Ks").  Every viewer
        the event does not speak of (nor show a card of its own) gets the same JSON, made once."""
        _check_note(note)
        if _personal(note):
            return self._event(note, personal=True)
        cached = self._impersonal.get(note.version)
        if cached is None:
            if len(self._impersonal) > 1024:
                self._impersonal.clear()
            cached = self._impersonal[note.version] = self._event(note, personal=False)
        return cached

    def _event(self, note: Note, *, personal: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "version": note.version,
            "kind": note.kind,
            "seat": note.seat,
            "deal": None if note.deal is None else note.deal + 1,
        }
        ev = note.event
        if ev is None:
            data = self._step_data(note)
            said: list[Part] = [step_words(note.kind, note.seat, self.names, note.viewer, note.info)]
        else:
            data = self._event_json(note, ev)
            said = self._words(note, ev, note.viewer_seat)
        if personal:
            out["text"] = self._text(note)
        else:  # a viewer the event is not about reads it as anyone watching does
            out["text"] = self._keep_text(note.version, plain(said))
        out.update(data)
        out["line"] = parts_json(said)
        if note.auto:
            out["auto"] = True
        return out

    def _words(self, note: Note, ev: Event, me: int | None) -> list[Part]:
        names = self._by_seats.get(note.seats)
        if names is None:
            names = self._by_seats[note.seats] = [self.names[m] for m in note.seats]
        number = None if not isinstance(ev, Dealt | DealEnded) else (note.deal or 0) + 1
        return event_words(ev, names, me, number=number, auto=note.auto)

    def _text(self, note: Note) -> str:
        """The event as anyone watching reads it (the same for every viewer: made once)."""
        cached = self._texts.get(note.version)
        if cached is not None:
            return cached
        ev = note.event
        if ev is None:
            text = step_words(note.kind, note.seat, self.names, None, note.info)
        else:
            text = plain(self._words(note, ev.seen_by(None), None))
        return self._keep_text(note.version, text)

    def _keep_text(self, version: int, text: str) -> str:
        if len(self._texts) > 1024:
            self._texts.clear()
        self._texts[version] = text
        return text

    def _event_json(self, note: Note, ev: Event) -> dict[str, Any]:
        """The event's fields; those of an event every viewer sees alike are made once."""
        if isinstance(ev, Dealt | DrewStock):
            return self._event_data(note)  # a hand or a drawn card for one viewer only
        cached = self._datas.get(note.version)
        if cached is None:
            if len(self._datas) > 1024:
                self._datas.clear()
            cached = self._datas[note.version] = self._event_data(note)
        return cached

    def _step_data(self, note: Note) -> dict[str, Any]:
        kind, info = note.kind, note.info
        if kind == "rejoined":
            return {"total": info["total"], "number": info["number"]}
        if kind == "rematch":
            return {"match_id": info["match_id"]}
        if kind == "match_over":
            return {"winners": list(info["winners"]), "totals": list(info["totals"])}
        return {}

    def _event_data(self, note: Note) -> dict[str, Any]:
        ev = note.event
        seats = note.seats
        if isinstance(ev, Dealt):
            data: dict[str, Any] = {
                "dealer": seats[ev.seat] if ev.seat is not None else None,
                "first": seats[ev.first],
                "seats": list(seats),
                "pile_top": card_text(ev.pile_top),
                "cut": card_text(ev.cut),
                "wild": None if ev.wild is None else RANK_TEXT[ev.wild],
                "stock_count": ev.stock_count,
            }
            if note.viewer_seat is not None and ev.hands[note.viewer_seat] is not None:
                data["hand"] = cards_text(ev.hands[note.viewer_seat] or ())
            return data
        if isinstance(ev, DrewStock):
            return {"card": card_text(ev.card)}
        if isinstance(ev, TookPile | Threw | PutBack):
            return {"card": format_card(ev.card)}
        if isinstance(ev, Dropped):
            return {"cost": ev.cost, "first": ev.first}
        if isinstance(ev, Showed):
            return {"card": format_card(ev.card), "groups": [cards_text(g) for g in ev.groups]}
        if isinstance(ev, WrongShow):
            return {
                "card": format_card(ev.card),
                "groups": [cards_text(g) for g in ev.groups],
                "loose": cards_text(ev.loose),
                "reason": ev.reason,
                "penalty": ev.penalty,
            }
        if isinstance(ev, Opened):
            return {
                "melds": [self.meld_json(m, seats) for m in ev.melds],
                "points": ev.points,
                "waived": ev.waived,
            }
        if isinstance(ev, LaidDown):
            return {"meld": self.meld_json(ev.meld, seats)}
        if isinstance(ev, LaidOff):
            return {
                "meld_id": ev.meld_id,
                "cards": cards_text(ev.cards),
                "meld": self.meld_json(ev.meld, seats),
            }
        if isinstance(ev, Swapped):
            return {
                "meld_id": ev.meld_id,
                "card": format_card(ev.card),
                "meld": self.meld_json(ev.meld, seats),
            }
        if isinstance(ev, StockRebuilt):
            return {"count": ev.count}
        if isinstance(ev, DealEnded):
            row: DealRow = note.info["row"]
            return {"result": self.result_json(ev.result, seats), "row": self.row_json(row, ev.result)}
        raise ValueError(f"no JSON for {type(ev).__name__}")

    def meld_json(self, meld: TableMeld, seats: Sequence[int]) -> dict[str, Any]:
        """A meld on the table: its id, the match seat that laid it down, ``run`` or ``set``, its
        cards in slot order, and what each card stands for (a joker's slot names its card)."""
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
        table = self._is_table
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

    def row_json(self, row: DealRow, result: DealResult | None) -> dict[str, Any]:
        """A row of the sheet; ``result`` is its deal's (the table family marks its ending)."""
        statuses = row.entry.statuses
        cells = [charge_text(c, s, row.entry.early) for c, s in zip(row.charges, statuses, strict=True)]
        note = None
        if self._is_table and result is not None:
            note = ending_note(self.rules, result)
            mark = ENDING_MARKS.get(note or "", "")
            if mark:
                winner = row.entry.winner
                cells[winner] = f"{cells[winner]} {mark}"
        extra: dict[str, Any] = {"note": note} if self._is_table else {}
        return {**extra, **self._row_numbers(row, statuses, cells)}

    def _row_numbers(self, row: DealRow, statuses: Sequence[Status], cells: list[str]) -> dict[str, Any]:
        fmt = self.format
        return {
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

    # ---- the sheet ----------------------------------------------------------------------------

    def sheet(self, state: MatchState) -> dict[str, Any]:
        """The score sheet (see docs/protocol.md, SHEET); it changes only with a deal or a rejoin
        (and the offers with the deal in progress)."""
        match = state.sheet
        key = (state.deals_played, len(match.rejoins), state.in_deal)
        cached = self._sheet
        if cached is not None and cached[0] == key:
            return cached[1]
        sheet = self._sheet_json(state)
        self._sheet = (key, sheet)
        return sheet

    def _sheet_json(self, state: MatchState) -> dict[str, Any]:
        match = state.sheet
        fmt = self.format
        n = len(self.seats)
        money: list[int] | None = None
        if isinstance(fmt, PointsFormat | SettlementFormat):
            money = [match.money(s) for s in range(n)]
        results = state.results
        return {
            "format": fmt.key,
            "label": fmt.row_label,
            "describe": fmt.describe(),
            "names": list(self.names),
            "rows": [
                self.row_json(r, results[r.index] if r.index < len(results) else None) for r in match.rows
            ],
            "totals": list(match.totals),
            "totals_text": [fmt.show_total(t) for t in match.totals],
            "standings": [str(match.standing(s)) for s in range(n)],
            "rejoins": [
                {"seat": r.seat, "total": r.total, "after_deals": r.after_deals, "number": r.number}
                for r in match.rejoins
            ],
            "offers": [
                {"seat": o.seat, "total": o.total, "rejoins_left": o.rejoins_left} for o in state.offers
            ],
            "money": money,
            "status_line": match.status_line(),
            "legend": SHEET_LEGENDS.get(self.rules.format, LEGEND) if self._is_table else legend(self.rules),
            "winners": list(match.winners),
        }

    # ---- the view -----------------------------------------------------------------------------

    def view(
        self,
        state: MatchState,
        deal: SpectatorView | None,
        mine: SeatView | None,
        refusals: Refusals = NO_REFUSALS,
        *,
        viewer: int | None,
        deadline: dict[str, Any] | None,
        rematch_url: str | None = None,
    ) -> dict[str, Any]:
        """The whole table as ``viewer`` (a match seat, ``None``: a spectator) may see it:
        ``deal`` is the deal's public view, ``mine`` the viewer's own (``None`` for a spectator
        and a seat out of the deal)."""
        _check_views(deal, mine)
        if mine is not None and (viewer is None or state.deal_seats[mine.seat] != viewer):
            raise ValueError("the renderer takes the viewer's own view, not another seat's")
        shared = self._shared_json(state, deal)
        view: dict[str, Any] = dict(shared)
        if state.rematch is not None:
            view["match"] = {**shared["match"], "rematch": {"match_id": state.rematch, "url": rematch_url}}
        view["rules"] = self.rules_json
        view["you"] = {"role": "spectator" if viewer is None else "seat", "seat": viewer}
        view["hand"] = None if mine is None else self._hand_json(mine, state, refusals)
        playing = state.phase == "playing" and mine is not None and mine.my_turn
        view["legal"] = self._legal_json(mine, refusals) if playing and mine is not None else None
        between = None
        if state.phase == "between":
            offer = None
            if viewer is not None:
                for o in state.offers:
                    if o.seat == viewer:
                        offer = {"total": o.total, "rejoins_left": o.rejoins_left}
            between = {"ready": list(state.ready), "waiting_for": list(state.waiting_for), "offer": offer}
        view["between"] = between
        view["deadline"] = deadline
        return view

    def _shared_json(self, state: MatchState, deal: SpectatorView | None) -> dict[str, Any]:
        """The part of every view that is the same for all viewers at this stamp."""
        cached = self._shared
        if cached is not None and cached[0] == state.stamp:
            return cached[1]
        rules = self.rules
        shared = {
            "match": {
                "id": self.match_id,
                "title": self.title,
                "preset": rules.preset,
                "format": rules.format,
                "describe": self.format.describe(),
                "phase": state.phase,
                "deals_played": state.deals_played,
                "rounds": rules.rounds if rules.format in ("settlement", "points", "deals") else None,
                "winners": list(state.winners),
                "rematch": None,
                "broken": state.broken,
                "family": rules.family,
                "hints": self.hints,
                "turn_time": self.turn_time,
            },
            "seats": self._seats_json(state, deal),
            "deal": None if deal is None else self._deal_json(state, deal),
            "sheet": self.sheet(state),
        }
        self._shared = (state.stamp, shared)
        return shared

    def _seats_json(self, state: MatchState, deal: SpectatorView | None) -> list[dict[str, Any]]:
        match = state.sheet
        fmt = self.format
        totals = match.totals
        in_deal = {m: d for d, m in enumerate(state.deal_seats)} if deal is not None else {}
        out = []
        for info in self.seats:
            s = info.seat
            item: dict[str, Any] = {
                "seat": s,
                "name": info.name,
                "kind": info.kind,
                "bot": info.bot or None,
                "connected": state.connected[s],
                "joined": state.joined[s],
                "away_turns": state.away_turns[s],
                "ready": s in state.ready,
                "total": totals[s],
                "total_text": fmt.show_total(totals[s]),
                "standing": str(match.standing(s)),
                "in_deal": False,
                "cards": 0,
                "status": None,
                "took": [],
                "thrown": [],
            }
            dseat = in_deal.get(s)
            if deal is not None and dseat is not None:
                item.update(
                    in_deal=True,
                    cards=deal.card_counts[dseat],
                    status=str(deal.statuses[dseat]),
                    took=cards_text(deal.took[dseat]),
                    thrown=cards_text(deal.thrown[dseat]),
                )
                if self._is_table:
                    item["opened"] = deal.opened[dseat]
            elif self._is_table:
                item["opened"] = False
            out.append(item)
        return out

    def _deal_json(self, state: MatchState, deal: SpectatorView) -> dict[str, Any]:
        seats = state.deal_seats
        wild = deal.wild
        extra: dict[str, Any] = {}
        if self._is_table:
            extra = {
                "melds": [self.meld_json(m, seats) for m in deal.melds],
                "pile_due": card_text(deal.pile_due),
                "owed_jokers": deal.owed_jokers,
                "opening": self.rules.opening,
                "stock_rebuilds": self.rules.stock_rebuilds,
            }
        return {
            **extra,
            "number": state.deal_number,
            "dealer": seats[deal.dealer],
            "phase": deal.phase.step,  # protocol 2: the play step is sent as "throw"
            "to_play": None if deal.to_play is None else seats[deal.to_play],
            "turn": deal.turn,
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

    # ---- the viewer's own hand and moves ------------------------------------------------------

    def _hand_json(self, view: SeatView, state: MatchState, refusals: Refusals) -> dict[str, Any]:
        if self._is_table:
            return self._table_hand_json(view, state, refusals)
        hand = view.hand
        drawn = view.drawn if view.my_turn else None
        size = view.rules.hand_size
        groupable = len(hand) in (size, size + 1)  # else dropped, or out after a wrong show
        finishing = self.coach.finishing(view) if len(hand) == size + 1 else ()
        key = (hand, drawn, view.wild, finishing)
        cached = self._hands.get(view.seat)
        if cached is not None and cached[0] == key:
            return cached[1]  # the same hand as the last view of it: its JSON is made once
        out: dict[str, Any] = {
            "cards": cards_text(hand),
            "drawn": card_text(drawn),
            "groups": [],
            "loose": [],
            "aside": None,
            "charge": 0,
            "can_show": False,
            "needs": [],
            "finishing": [],
        }
        if groupable:
            a = self.coach.arrangement(view)
            out.update(
                groups=[{"cards": cards_text(g.cards), "kind": g.kind, "pure": g.pure} for g in a.groups],
                loose=cards_text(a.loose),
                aside=card_text(a.throw),
                charge=a.charge,
                can_show=a.can_show,
                needs=list(a.needs),
                finishing=cards_text(finishing),
            )
        self._hands[view.seat] = (key, out)
        return out

    def _table_hand_json(self, view: SeatView, state: MatchState, refusals: Refusals) -> dict[str, Any]:
        """A table-family hand: its cards and count, and the Opening meter (before opening) or
        the cheapest leftover with its plan (after)."""
        hand = view.hand
        mine = view.my_turn
        count = self.coach.count(view)
        opened = bool(view.opened) and view.opened[view.seat]
        out: dict[str, Any] = {
            "cards": cards_text(hand),
            "drawn": card_text(view.drawn) if mine else None,
            "groups": [],
            "loose": [],
            "aside": None,
            "charge": count,
            "can_show": False,
            "needs": [],
            "finishing": [],
            "count": count,
            "opened": opened,
            "meter": None,
            "leftover": None,
        }
        if not hand or view.phase is Phase.OVER:
            return out
        if not opened:
            meter = self.coach.meter(view)
            best = meter.best
            why: str | None = None
            can_open = False
            if best is None:
                why = plain(meter_why(meter.points, meter.threshold, meter.due))
            elif mine and view.phase is Phase.PLAY:
                can_open = Action.open(best.melds) in view.legal
                why = None if can_open else (refusals.open or "no opening now")
            elif mine:
                why = "take a card first"
            else:
                why = "wait for your turn"
            out["meter"] = {
                "points": meter.points if best is None else best.points,
                "threshold": meter.threshold,
                "melds": [] if best is None else [cards_text(m) for m in best.melds],
                "ready": best is not None,
                "waived": False if best is None else best.waived,
                "can_open": can_open,
                "why": why,
            }
        else:
            left = self.coach.leftover(view)
            seats = state.deal_seats
            out["leftover"] = {
                "cost": left.cost,
                "loose": cards_text(left.loose),
                "melds": [cards_text(m) for m in left.melds],
                "layoffs": [{"meld": i, "cards": cards_text(c)} for i, c in left.layoffs],
                "owners": {str(m.id): seats[m.owner] for m in view.melds},
            }
        return out

    def _action_json(self, action: Action) -> dict[str, Any]:
        """The message that plays ``action`` (its notation), made once an action (read only)."""
        cached = self._actions.get(action)
        if cached is None:
            if len(self._actions) > 4096:
                self._actions.clear()
            cached = self._actions[action] = to_dict(action)
        return cached

    def _legal_json(self, view: SeatView, refusals: Refusals) -> dict[str, Any]:
        legal = view.legal
        actions = [self._action_json(a) for a in legal]  # every legal action as the message that plays it
        throws = [a.card for a in legal if a.kind is ActionKind.THROW and a.card is not None]
        kinds = {a.kind for a in legal}  # the moves without a card: legal when their kind is
        pile = ActionKind.DRAW_PILE in kinds
        pile_refusal = None if pile or view.phase is not Phase.DRAW else refusals.pile or None
        if self._is_table:
            due = view.pile_due
            throw_refusal = refusals.throw or None if view.phase is Phase.PLAY and not throws else None
            opening = next((a.groups for a in legal if a.kind is ActionKind.OPEN), None)
            return {
                "draw_stock": ActionKind.DRAW_STOCK in kinds,
                "draw_pile": pile,
                "pile_refusal": pile_refusal,
                "drop": None,
                "drop_refusal": "there is no dropping at this table",
                "throw": cards_text(throws),
                "no_throw": None if due is None else {"card": format_card(due), "reason": throw_refusal},
                "throw_refusal": throw_refusal,
                "show": [],
                "put_back": ActionKind.PUT_BACK in kinds,
                "open": None if opening is None else [cards_text(m) for m in opening],
                "lay_down": [cards_text(a.cards or ()) for a in legal if a.kind is ActionKind.LAY_DOWN],
                "lay_off": [
                    {"meld": a.meld, "cards": cards_text(a.cards or ())}
                    for a in legal
                    if a.kind is ActionKind.LAY_OFF
                ],
                "swap": [
                    {"meld": a.meld, "card": card_text(a.card)} for a in legal if a.kind is ActionKind.SWAP
                ],
                "pile_due": card_text(due),
                "owed_jokers": view.owed_jokers,
                "actions": actions,
            }
        shows = [a.card for a in legal if a.kind is ActionKind.SHOW and a.card is not None]
        drop = ActionKind.DROP in kinds
        take = view.pile_take
        return {
            "draw_stock": ActionKind.DRAW_STOCK in kinds,
            "draw_pile": pile,
            "pile_refusal": pile_refusal,
            "drop": {"cost": view.drop_cost} if drop else None,
            "drop_refusal": None if drop else refusals.drop or None,
            "throw": cards_text(throws),
            "no_throw": None
            if take is None
            else {"card": format_card(take), "reason": "cannot throw back the card just taken from the pile"},
            "show": cards_text(shows),
            "actions": actions,
        }
