"""The shapes docs/protocol.md promises the front end: every key of every part of the view, of
the messages and of the events.  A change here is a change of the protocol: update the doc."""

from __future__ import annotations

from pathlib import Path

from server_helpers import Msg, Sock, drive, make_app, new_table, phase_of, running

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

VIEW = {"match", "rules", "you", "seats", "deal", "hand", "legal", "sheet", "between", "deadline"}
MATCH = {"id", "title", "preset", "format", "describe", "phase", "deals_played", "rounds", "winners"}
MATCH |= {"rematch", "broken"}
SEAT = {"seat", "name", "kind", "bot", "connected", "joined", "away_turns", "ready", "total", "total_text"}
SEAT |= {"standing", "in_deal", "cards", "status", "took", "thrown"}
DEAL = {"number", "dealer", "phase", "to_play", "turn", "turn_limit", "cut", "wild", "pile", "pile_top"}
DEAL |= {"pile_take", "stock_count", "rebuilds", "result"}
RESULT = {"winner", "ending", "turns", "halved", "finish_card", "seats"}
RESULT_SEAT = {"seat", "status", "won", "charge", "hand_charge", "hand", "groups", "loose"}
HAND = {"cards", "drawn", "groups", "loose", "aside", "charge", "can_show", "needs", "finishing"}
LEGAL = {"draw_stock", "draw_pile", "pile_refusal", "drop", "drop_refusal", "throw", "no_throw", "show"}
SHEET = {"format", "label", "describe", "names", "rows", "totals", "totals_text", "standings", "rejoins"}
SHEET |= {"offers", "money", "status_line", "legend", "winners"}
ROW = {"deal", "dealer", "charges", "statuses", "cells", "row", "row_text", "totals", "totals_text"}
ROW |= {"standings"}
BETWEEN = {"ready", "waiting_for", "offer"}
EVENT = {"version", "kind", "seat", "deal", "text"}
EVENT_FIELDS = {
    "joined": set(),
    "dealt": {"dealer", "first", "seats", "pile_top", "cut", "wild", "stock_count"},  # + own "hand"
    "drew_stock": {"card"},
    "took_pile": {"card"},
    "threw": {"card"},
    "dropped": {"cost", "first"},
    "showed": {"card", "groups"},
    "stock_rebuilt": {"count"},
    "deal_ended": {"result", "row"},
    "match_over": {"winners", "totals"},
    "ready": set(),
}


def check_view(view: Msg) -> None:
    assert set(view) == VIEW
    assert set(view["match"]) == MATCH
    for seat in view["seats"]:
        assert set(seat) == SEAT
    assert set(view["sheet"]) == SHEET
    for row in view["sheet"]["rows"]:
        assert set(row) == ROW
    if view["deal"] is not None:
        assert set(view["deal"]) == DEAL
        result = view["deal"]["result"]
        if result is not None:
            assert set(result) == RESULT and all(set(s) == RESULT_SEAT for s in result["seats"])
    if view["hand"] is not None:
        assert set(view["hand"]) == HAND
        assert all(set(g) == {"cards", "kind", "pure"} for g in view["hand"]["groups"])
    if view["legal"] is not None:
        assert set(view["legal"]) == LEGAL
    if view["between"] is not None:
        assert set(view["between"]) == BETWEEN
    if view["deadline"] is not None:
        assert set(view["deadline"]) == {"seat", "seconds", "why"}


def test_every_message_has_the_documented_shape(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        seats = [{"kind": "human", "name": "Asha"}, {"kind": "bot", "bot": "greedy"}]
        t = new_table(client, settings={"players": 2, "rounds": 2}, seats=seats, seed="shapes")
        me = Sock(client, t["match_id"], "Asha")
        me.hello(seat_token=t["seats"][0]["token"])
        watcher = Sock(client, t["match_id"], "watch")
        watcher.hello(watch_token=t["watch_token"])
        drive([me, watcher], lambda: phase_of(me) == "over")
        kinds = set()
        for sock in (me, watcher):
            assert sock.welcome is not None
            assert set(sock.welcome) == {
                "type",
                "protocol",
                "role",
                "seat",
                "match_id",
                "name",
                "version",
            } | {"max_message_bytes"}
            for msg in sock.messages:
                if msg["type"] == "update":
                    assert set(msg) <= {"type", "version", "events", "view", "id", "catchup"}
                    for e in msg["events"]:
                        kinds.add(e["kind"])
                        extra = set(e) - EVENT - {"auto"}
                        want = EVENT_FIELDS.get(e["kind"])
                        if want is not None:
                            own_hand = {"hand"} if e["kind"] == "dealt" and sock is me else set()
                            assert extra == want | own_hand, e
                if msg["type"] in ("update", "state"):
                    check_view(msg["view"])
                elif msg["type"] == "presence":
                    assert set(msg) == {"type", "version", "seats", "deadline"}
        assert {"joined", "dealt", "drew_stock", "threw", "deal_ended", "match_over", "ready"} <= kinds
        doc = DOC.read_text()
        for kind in kinds:  # every event kind that happened is in the doc's table
            assert f"| `{kind}` |" in doc
