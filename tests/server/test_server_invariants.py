"""No message to a seat or a spectator ever holds a card that viewer may not see.

Many matches are played through the real protocol (scripted people on sockets, bots on the
server, a spectator watching).  Afterwards every message each socket received is checked
against the true state at that message's version, rebuilt by replaying the deal from its seed:
a card is *hidden* from a viewer at a version when it lies in another seat's hand, in the stock
or in a dropped hand, and no copy of that card has been public (pile, takes, throws, shows, the
cut, the end of the deal) or in the viewer's own hand so far in the deal.  Every card-shaped
token anywhere in a message (values and sentences alike) must not be hidden.  The views' own
hands must be the true hands, and a card drawn from the stock goes only to its drawer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from server_helpers import Msg, Sock, drive, live_table, make_app, new_table, phase_of, running

from rummykit.engine.cards import KINDS, format_card, parse_card
from rummykit.engine.deal import Deal, ShowDeal, new_deal
from rummykit.engine.events import (
    DealEnded,
    Dealt,
    DrewStock,
    Event,
    LaidDown,
    LaidOff,
    Opened,
    PutBack,
    Showed,
    Swapped,
    Threw,
    TookPile,
    WrongShow,
)
from rummykit.server.table import Table

CARD = re.compile(r"^(?:10|[2-9AJQK])[shdc]$|^JK$")
SPLIT = re.compile(r"[\s,:;()|\[\]{}'\"]+")


def card_tokens(value: Any) -> Iterator[int]:
    """Every card-shaped token in a message, as kinds (sentences are split into words)."""
    if isinstance(value, str):
        for word in SPLIT.split(value):
            if CARD.match(word):
                yield parse_card(word)
    elif isinstance(value, dict):
        for v in value.values():
            yield from card_tokens(v)
    elif isinstance(value, list):
        for v in value:
            yield from card_tokens(v)


@dataclass
class Moment:
    """What the truth is right after one version of a deal."""

    hands: dict[int, tuple[int, ...]]  # match seat -> kinds
    hidden_pool: set[int]  # kinds in any hand, the stock or out of play (dropped hands)
    public: set[int]
    known: dict[int, set[int]]  # match seat -> kinds it has held this deal


@dataclass
class DealTruth:
    """A deal replayed from its seed, a snapshot after every engine event's version."""

    seats: tuple[int, ...]
    moments: dict[int, Moment] = field(default_factory=dict)  # version -> moment
    drawn: dict[int, tuple[int, int]] = field(default_factory=dict)  # version -> (match seat, kind)

    def at(self, version: int) -> Moment:
        """The truth at ``version`` (the last engine event at or before it)."""
        best = max(v for v in self.moments if v <= version)
        return self.moments[best]


def _snapshot(deal: Deal, seats: tuple[int, ...], public: set[int], known: dict[int, set[int]]) -> Moment:
    hands = {seats[s]: deal.hand(s) for s in range(deal.players)}
    pool = {k for h in hands.values() for k in h}
    pool |= {c % KINDS for c in deal._stock} | {c % KINDS for c in deal._out}
    return Moment(hands, pool, set(public), {s: set(k) for s, k in known.items()})


def truths(table: Table) -> dict[int, DealTruth]:
    """Every deal of ``table`` replayed, keyed by deal number (from 1)."""
    out: dict[int, DealTruth] = {}
    by_deal: dict[int, list[tuple[int, Event]]] = {}
    for entry in table.log:
        if entry.event is not None and entry.deal is not None:
            by_deal.setdefault(entry.deal, []).append((entry.version, entry.event))
    for d, final in enumerate(table.deals):
        dealt = next(e for e in table.log if e.kind == "dealt" and e.deal == d)
        seats = dealt.seats
        replay = (
            ShowDeal(final.rules, final.seed, dealer=final.dealer, arranger=final.arranger)
            if isinstance(final, ShowDeal)
            else new_deal(final.rules, final.seed, dealer=final.dealer)
        )
        truth = DealTruth(seats)
        public: set[int] = set()
        known: dict[int, set[int]] = {s: set() for s in seats}
        applied = 0
        for version, ev in by_deal[d]:
            if ev.action is not None and ev.seq >= applied:
                assert ev.seat is not None
                replay.apply(ev.seat, ev.action)
                applied = len(replay.events)
            if isinstance(ev, Dealt):
                public.add(ev.pile_top)
                if ev.cut is not None:
                    public.add(ev.cut)
                for ds, hand in enumerate(ev.hands):
                    known[seats[ds]] |= set(hand or ())
            elif isinstance(ev, DrewStock):
                assert ev.card is not None
                known[seats[ev.seat]].add(ev.card)
                truth.drawn[version] = (seats[ev.seat], ev.card)
            elif isinstance(ev, TookPile | Threw | PutBack):
                public.add(ev.card)
            elif isinstance(ev, Opened):
                # a joker's slot names the card it stands for: a name, not where a card lies
                public |= {k for m in ev.melds for k in (*m.cards, *m.stands_for)}
            elif isinstance(ev, LaidDown | LaidOff | Swapped):
                public |= set(ev.meld.cards) | set(ev.meld.stands_for) | {52}  # a swap shows the joker
            elif isinstance(ev, Showed):
                public.add(ev.card)
                public |= {k for g in ev.groups for k in g}
            elif isinstance(ev, WrongShow):
                public.add(ev.card)
                public |= {k for g in ev.groups for k in g} | set(ev.loose)
            elif isinstance(ev, DealEnded):
                for r in ev.result.seats:
                    public |= set(r.hand) | set(r.loose) | {k for g in r.groups for k in g}
            truth.moments[version] = _snapshot(replay, seats, public, known)
        assert replay.fingerprint()[:5] == final.fingerprint()[:5], "the replay must end where the deal did"
        out[d + 1] = truth
    return out


def hidden_from(moment: Moment, viewer: int | None) -> set[int]:
    """Kinds the viewer may not see at this moment."""
    allowed = set(moment.public)
    if viewer is not None:
        allowed |= moment.known.get(viewer, set())
    return {k for k in moment.hidden_pool if k not in allowed}


def check_messages(table: Table, viewer: int | None, messages: list[Msg]) -> int:
    """Check every message one socket received; returns how many cards were looked at."""
    deals = truths(table)
    looked = 0
    for msg in messages:
        if msg["type"] not in ("update", "state"):
            assert not list(card_tokens(msg)) or msg["type"] == "error", msg
            continue
        for event in msg.get("events", []):
            d = event["deal"]
            tokens = list(card_tokens(event))
            looked += len(tokens)
            if d is None:
                assert not tokens, event
                continue
            moment = deals[d].at(event["version"])
            leaked = set(tokens) & hidden_from(moment, viewer)
            assert not leaked, f"{viewer}: {event} shows {[format_card(k) for k in leaked]}"
            if event["kind"] == "drew_stock":
                drawer, card = deals[d].drawn[event["version"]]
                assert event["card"] == (format_card(card) if viewer == drawer else None), event
            if event["kind"] == "dealt":
                assert ("hand" in event) == (viewer is not None and viewer in event["seats"]), event
        view = msg["view"]
        tokens = list(card_tokens(view))
        looked += len(tokens)
        if view["deal"] is None:
            assert not tokens, view
            continue
        moment = deals[view["deal"]["number"]].at(msg["version"])
        leaked = set(tokens) & hidden_from(moment, viewer)
        assert not leaked, (
            f"{viewer} at version {msg['version']}: view shows {[format_card(k) for k in leaked]}"
        )
        if viewer is None:
            assert view["hand"] is None and view["legal"] is None
        elif viewer in moment.hands and view["hand"] is not None:
            assert [parse_card(c) for c in view["hand"]["cards"]] == list(moment.hands[viewer])
    return looked


GAMES_EACH = 3  # matches per line below: 30 in all, every message of each checked
GAMES = [
    # (preset, settings, seat kinds: h = a scripted person on a socket, else a bot name)
    ("nepali", {}, ["h", "greedy", "h", "random"]),
    ("nepali", {"runs_needed": 1, "players": 3}, ["h", "random", "h"]),
    ("indian", {"rounds": 2}, ["random", "h", "greedy", "h", "random", "h"]),
    ("pool101", {"players": 3}, ["h", "random", "random"]),
    ("kerala", {"players": 3}, ["random", "h", "greedy"]),
    ("deals", {"players": 2}, ["h", "random"]),
    ("north-indian", {"rounds": 2}, ["easy", "h", "medium", "h"]),
    ("maharashtra", {"players": 2, "rounds": 2}, ["h", "medium"]),
    # the table family: melds on the table are public, hands never are
    ("rummy40", {"players": 3}, ["h", "greedy", "h"]),
    ("remi51", {"players": 3}, ["random", "h", "greedy"]),
]


@pytest.mark.parametrize(("preset", "settings", "kinds"), GAMES, ids=[g[0] for g in GAMES])
def test_no_message_ever_shows_a_hidden_card(
    sqlite_url: str, preset: str, settings: dict[str, Any], kinds: list[str]
) -> None:
    app = make_app(sqlite_url)
    seats = [{"kind": "human"} if k == "h" else {"kind": "bot", "bot": k} for k in kinds]
    with running(app) as client:
        for game in range(GAMES_EACH):
            t = new_table(client, preset=preset, settings=settings, seats=seats, seed=f"{preset}-{game}")
            mid = t["match_id"]
            watcher = Sock(client, mid, "watch")
            watcher.hello(watch_token=t["watch_token"])
            people = {}
            for info in t["seats"]:
                if info["kind"] == "human":
                    sock = Sock(client, mid, info["name"])
                    sock.hello(seat_token=info["token"])
                    people[info["seat"]] = sock
            drive([*people.values(), watcher], lambda w=watcher: phase_of(w) == "over", timeout=120)
            for s in [*people.values(), watcher]:
                s.poll()
            table = live_table(app, mid)
            assert table.phase == "over"
            looked = check_messages(table, None, watcher.messages)
            for seat, sock in people.items():
                looked += check_messages(table, seat, sock.messages)
                sock.close()
            watcher.close()
            assert looked > 100  # the check saw real cards, not empty messages


def test_a_table_of_bots_shows_the_spectator_no_hand(sqlite_url: str) -> None:
    app = make_app(sqlite_url)
    with running(app) as client:
        bots = [{"kind": "bot", "bot": b} for b in ("greedy", "random", "greedy", "random")]
        t = new_table(client, preset="nepali", seats=bots, seed="bots")
        watcher = Sock(client, t["match_id"], "watch")
        watcher.hello(watch_token=t["watch_token"])
        drive([watcher], lambda: phase_of(watcher) == "over")
        table = live_table(app, t["match_id"])
        assert check_messages(table, None, watcher.messages) > 100


def test_the_check_catches_a_leak(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker itself: a server that tells everybody the drawn card is caught."""
    render = Table.render

    def leaky(self: Table, entry: Any, viewer: int | None) -> dict[str, Any]:
        out = render(self, entry, None if viewer is None else entry.seat)
        out["version"] = entry.version
        return out

    monkeypatch.setattr(Table, "render", leaky)
    app = make_app(sqlite_url)
    with running(app) as client:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        t = new_table(client, preset="nepali", settings={"players": 2}, seats=seats, seed="leak")
        me = Sock(client, t["match_id"], "me")
        me.hello(seat_token=t["seats"][0]["token"])
        drive([me], lambda: phase_of(me) == "over")
        with pytest.raises(AssertionError, match="shows"):
            check_messages(live_table(app, t["match_id"]), 0, me.messages)
