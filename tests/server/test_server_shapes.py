"""The shapes docs/protocol.md promises the front end: every key of every part of the view, of
the messages and of the events.  A change here is a change of the protocol: update the doc."""

from __future__ import annotations

from pathlib import Path

from server_helpers import Msg, Sock, drive, make_app, new_table, phase_of, running

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

VIEW = {"match", "rules", "you", "seats", "deal", "hand", "legal", "sheet", "between", "deadline"}
MATCH = {"id", "title", "preset", "format", "describe", "phase", "deals_played", "rounds", "winners"}
MATCH |= {"rematch", "broken", "family", "hints", "turn_time"}
SEAT = {"seat", "name", "kind", "bot", "connected", "joined", "away_turns", "ready", "total", "total_text"}
SEAT |= {"standing", "in_deal", "cards", "status", "took", "thrown"}
DEAL = {"number", "dealer", "phase", "to_play", "turn", "turn_limit", "cut", "wild", "pile", "pile_top"}
DEAL |= {"pile_take", "stock_count", "rebuilds", "result"}
RESULT = {"winner", "ending", "turns", "halved", "finish_card", "seats"}
RESULT_SEAT = {"seat", "status", "won", "charge", "hand_charge", "unhalved", "hand", "groups", "loose"}
HAND = {"cards", "drawn", "groups", "loose", "aside", "charge", "can_show", "needs", "finishing"}
LEGAL = {"draw_stock", "draw_pile", "pile_refusal", "drop", "drop_refusal", "throw", "no_throw", "show"}
LEGAL |= {"actions"}  # protocol 2: every legal action as the message that plays it
SHEET = {"format", "label", "describe", "names", "rows", "totals", "totals_text", "standings", "rejoins"}
SHEET |= {"offers", "money", "status_line", "legend", "winners"}
ROW = {"deal", "dealer", "charges", "statuses", "cells", "row", "row_text", "totals", "totals_text"}
ROW |= {"standings"}
BETWEEN = {"ready", "waiting_for", "offer"}
# the table family (Rummy 40, Remi 51) adds these
TABLE_SEAT = SEAT | {"opened"}
TABLE_DEAL = DEAL | {"melds", "pile_due", "owed_jokers", "opening", "stock_rebuilds"}
TABLE_RESULT = RESULT | {"doubled", "note"}
TABLE_ROW = ROW | {"note"}
TABLE_HAND = HAND | {"count", "opened", "meter", "leftover"}
TABLE_LEGAL = LEGAL | {
    "throw_refusal",
    "put_back",
    "open",
    "lay_down",
    "lay_off",
    "swap",
    "pile_due",
    "owed_jokers",
}
MELD = {"id", "owner", "kind", "cards", "stands_for"}
METER = {"points", "threshold", "melds", "ready", "waived", "can_open", "why"}
LEFTOVER = {"cost", "loose", "melds", "layoffs", "owners"}
EVENT = {"version", "kind", "seat", "deal", "text", "line"}  # protocol 2 added line
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
    "opened": {"melds", "points", "waived"},
    "laid_down": {"meld"},
    "laid_off": {"meld_id", "cards", "meld"},
    "swapped": {"meld_id", "card", "meld"},
    "put_back": {"card"},
}


def check_view(view: Msg) -> None:
    table = view["match"]["family"] == "table"
    assert set(view) == VIEW
    assert set(view["match"]) == MATCH
    for seat in view["seats"]:
        assert set(seat) == (TABLE_SEAT if table else SEAT)
    assert set(view["sheet"]) == SHEET
    for row in view["sheet"]["rows"]:
        assert set(row) == (TABLE_ROW if table else ROW)
    if view["deal"] is not None:
        assert set(view["deal"]) == (TABLE_DEAL if table else DEAL)
        for meld in view["deal"].get("melds", []):
            assert set(meld) == MELD
        result = view["deal"]["result"]
        if result is not None:
            assert set(result) == (TABLE_RESULT if table else RESULT)
            assert all(set(s) == RESULT_SEAT for s in result["seats"])
    if view["hand"] is not None:
        assert set(view["hand"]) == (TABLE_HAND if table else HAND)
        assert all(set(g) == {"cards", "kind", "pure"} for g in view["hand"]["groups"])
        if table and view["hand"]["meter"] is not None:
            assert set(view["hand"]["meter"]) == METER
        if table and view["hand"]["leftover"] is not None:
            assert set(view["hand"]["leftover"]) == LEFTOVER
    if view["legal"] is not None:
        assert set(view["legal"]) == (TABLE_LEGAL if table else LEGAL)
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


def test_table_family_messages_have_the_documented_shape(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        seats = [{"kind": "human", "name": "Asha"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human"}]
        t = new_table(client, preset="rummy40", settings={"players": 3}, seats=seats, seed="shapes40")
        socks = [Sock(client, t["match_id"], "Asha"), Sock(client, t["match_id"], "P3")]
        socks[0].hello(seat_token=t["seats"][0]["token"])
        socks[1].hello(seat_token=t["seats"][2]["token"])
        watcher = Sock(client, t["match_id"], "watch")
        watcher.hello(watch_token=t["watch_token"])
        drive([*socks, watcher], lambda: phase_of(watcher) == "over", timeout=120)
        kinds = set()
        for sock in (*socks, watcher):
            for msg in sock.messages:
                if msg["type"] == "update":
                    for e in msg["events"]:
                        kinds.add(e["kind"])
                        want = EVENT_FIELDS.get(e["kind"])
                        if want is not None:
                            own_hand = {"hand"} if e["kind"] == "dealt" and sock is not watcher else set()
                            assert set(e) - EVENT - {"auto"} == want | own_hand, e
                        for m in e.get("melds", []) + ([e["meld"]] if "meld" in e else []):
                            assert set(m) == MELD
                if msg["type"] in ("update", "state"):
                    check_view(msg["view"])
        assert {"opened", "threw", "deal_ended"} <= kinds
        doc = DOC.read_text()
        for kind in kinds:
            assert f"| `{kind}` |" in doc
