"""Short stories through the real protocol: a person at a table of bots draws, throws, sees the
bots play, shows or drops, reads the sheet, presses Next round, and the match ends; pools with
rejoins, spectators, and the rematch."""

from __future__ import annotations

from typing import Any

from server_helpers import Msg, Sock, drive, live_table, make_app, new_table, phase_of, running, scripted
from starlette.testclient import TestClient


def events_of(sock: Sock, kind: str) -> list[Msg]:
    return [e for m in sock.messages for e in m.get("events", []) if e["kind"] == kind]


def my_turn(sock: Sock) -> bool:
    return sock.view is not None and sock.view["legal"] is not None


def person_and_bots(client: TestClient, n: int = 4, **body: Any) -> tuple[Msg, Sock]:
    seats = [{"kind": "human", "name": "Asha"}] + [{"kind": "bot", "bot": "greedy"}] * (n - 1)
    t = new_table(client, seats=seats, **body)
    me = Sock(client, t["match_id"], "Asha")
    return t, me


def test_a_person_plays_a_match_against_bots(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        t, me = person_and_bots(client, preset="nepali", settings={"rounds": 2}, seed="story")
        first = me.hello(seat_token=t["seats"][0]["token"])
        assert me.welcome == {
            "type": "welcome",
            "protocol": 2,
            "role": "seat",
            "seat": 0,
            "match_id": t["match_id"],
            "name": "Asha",
            "version": 0,
            "max_message_bytes": 4096,
        }
        assert first["type"] == "state" and first["view"]["match"]["phase"] == "waiting"
        # opening the link joins the seat, and the only person having joined, the deal is dealt
        dealt = me.until(lambda m: any(e["kind"] == "dealt" for e in m.get("events", [])))
        assert [e["kind"] for e in events_of(me, "joined")] == ["joined"]
        deal_event = events_of(me, "dealt")[0]
        assert len(deal_event["hand"]) == 13 and deal_event["deal"] == 1
        view = dealt["view"]
        assert view["match"]["phase"] == "playing" and len(view["hand"]["cards"]) == 13
        assert view["deal"]["stock_count"] == deal_event["stock_count"]
        assert all(s["cards"] == 13 for s in view["seats"])

        me.wait(lambda: my_turn(me))
        legal = me.view["legal"]  # type: ignore[index]
        assert legal["draw_stock"] and legal["drop"] == {"cost": 20} and legal["throw"] == []
        before = me.version
        me.send(type="draw", **{"from": "stock"}, id="d1")
        drew = me.until(lambda m: m["type"] == "update")
        assert drew["id"] == "d1" and drew["version"] == before + 1
        card = drew["events"][0]["card"]
        assert drew["events"][0]["kind"] == "drew_stock" and card is not None
        hand = drew["view"]["hand"]
        assert hand["drawn"] == card and len(hand["cards"]) == 14 and hand["aside"] in hand["cards"]
        assert drew["view"]["legal"]["throw"] and drew["view"]["legal"]["drop"] is None
        throw = hand["aside"]
        me.send(type="throw", card=throw)
        threw = me.until(lambda m: m["type"] == "update")
        assert threw["events"][0] == {
            "version": before + 2,
            "kind": "threw",
            "seat": 0,
            "deal": 1,
            "text": f"Asha throws {throw}",  # as anyone watching reads it
            "card": throw,
            "line": ["You throw ", {"card": throw}],  # as Asha does (protocol 2)
        }
        assert threw["view"]["deal"]["pile_top"] == throw and threw["view"]["legal"] is None
        # the bots play: the next seat's draw shows no card to us
        bot_draws = [e for e in [*me.until(lambda m: m["version"] > before + 2)["events"]]]
        assert bot_draws[0]["seat"] == 1
        if bot_draws[0]["kind"] == "drew_stock":
            assert bot_draws[0]["card"] is None

        drive([me], lambda: phase_of(me) == "between")
        ended = events_of(me, "deal_ended")[0]
        assert ended["row"]["deal"] == 1 and sum(ended["row"]["row"]) == 0
        assert me.view["between"] == {"ready": [], "waiting_for": [0], "offer": None}  # type: ignore[index]
        assert me.view["sheet"]["rows"][0]["totals"] == ended["row"]["totals"]  # type: ignore[index]
        me.send(type="next_round")
        me.until(lambda m: any(e["kind"] == "dealt" for e in m.get("events", [])))
        assert [e["deal"] for e in events_of(me, "dealt")] == [1, 2]
        assert events_of(me, "ready")[0]["seat"] == 0

        drive([me], lambda: phase_of(me) == "over")
        over = events_of(me, "match_over")[0]
        view = me.view
        assert view is not None
        assert view["match"]["winners"] == over["winners"] and sum(over["totals"]) == 0
        sheet = view["sheet"]
        assert len(sheet["rows"]) == 2 and sheet["label"] == "Paid"
        assert all(t.startswith(("+", "-")) or t == "0" for t in sheet["totals_text"])
        # every version came exactly once, in order
        versions = [e["version"] for m in me.messages for e in m.get("events", [])]
        assert versions == list(range(1, me.version + 1))


def test_a_person_shows_and_wins_the_deal(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        for attempt in range(12):
            t, me = person_and_bots(
                client, n=2, preset="nepali", settings={"runs_needed": 1, "rounds": 2}, seed=f"show{attempt}"
            )
            me.hello(seat_token=t["seats"][0]["token"])
            drive([me], lambda me=me: phase_of(me) == "over")
            shows = [e for e in events_of(me, "showed") if e["seat"] == 0]
            if shows:
                break
            me.close()
        else:
            raise AssertionError("the scripted player never showed in 24 deals")
        show = shows[0]
        assert len([c for g in show["groups"] for c in g]) == 13
        ended = next(e for e in events_of(me, "deal_ended") if e["version"] == show["version"] + 1)
        result = ended["result"]
        assert result["winner"] == 0 and result["ending"] == "show" and result["finish_card"] == show["card"]
        mine = result["seats"][0]
        assert mine["won"] and mine["charge"] == 0 and mine["groups"] == show["groups"]
        # the view lit the finishing card before the show
        before = next(m for m in me.messages if m.get("version") == show["version"] - 1 and m.get("view"))
        assert show["card"] in before["view"]["legal"]["show"]
        assert show["card"] in before["view"]["hand"]["finishing"]


def test_dropping_costs_the_drop_and_ends_a_two_seat_deal(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        t, me = person_and_bots(client, n=2, preset="nepali", settings={"rounds": 2}, seed="drop")
        me.hello(seat_token=t["seats"][0]["token"])
        me.wait(lambda: my_turn(me))
        me.send(type="drop")
        me.until(lambda m: any(e["kind"] == "deal_ended" for e in m.get("events", [])))
        dropped = events_of(me, "dropped")[0]
        assert dropped["seat"] == 0 and dropped["cost"] == 20 and dropped["first"] is True
        ended = events_of(me, "deal_ended")[0]
        assert ended["result"]["ending"] == "last in" and ended["result"]["winner"] == 1
        assert ended["row"]["cells"] == ["20D", "0W"] and ended["row"]["totals_text"] == ["-20", "+20"]
        assert ended["result"]["seats"][0]["hand"] == []  # a dropped hand is never shown
        me.send(type="next_round")
        me.wait(lambda: my_turn(me) and me.view["deal"]["number"] == 2)  # type: ignore[index]
        me.send(type="draw", **{"from": "stock"})
        me.until(lambda m: m["type"] == "update")
        legal = me.view["legal"]  # type: ignore[index]
        assert legal["drop"] is None and legal["drop_refusal"] == "too late to drop: you have already drawn"
        me.send(type="drop")
        error = me.until(lambda m: m["type"] == "error")
        assert error["reason"] == "too late to drop: you have already drawn"
        assert error["expected"] == "throw a card, or show with a finishing card" and error["got"] == "drop"


def test_no_dropping_at_this_table(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        t, me = person_and_bots(client, n=2, settings={"dropping": False}, seed="nodrop")
        me.hello(seat_token=t["seats"][0]["token"])
        me.wait(lambda: my_turn(me))
        legal = me.view["legal"]  # type: ignore[index]
        assert legal["drop"] is None and legal["drop_refusal"] == "dropping is not allowed at this table"
        me.send(type="drop")
        assert me.until(lambda m: m["type"] == "error")["reason"] == "dropping is not allowed at this table"


def test_the_card_just_taken_from_the_pile_cannot_go_back(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        t, me = person_and_bots(client, n=2, seed="pile")
        me.hello(seat_token=t["seats"][0]["token"])
        me.wait(lambda: my_turn(me) and me.view["legal"]["draw_pile"])  # type: ignore[index]
        top = me.view["deal"]["pile_top"]  # type: ignore[index]
        me.send(type="draw", **{"from": "pile"})
        took = me.until(lambda m: m["type"] == "update")
        assert took["events"][0] == {**took["events"][0], "kind": "took_pile", "card": top}
        legal = took["view"]["legal"]
        reason = "cannot throw back the card just taken from the pile"
        assert legal["no_throw"] == {"card": top, "reason": reason}
        assert took["view"]["deal"]["pile_take"] == top
        assert top not in legal["throw"]  # not even a second copy: the rule is about the card's kind
        me.send(type="throw", card=top)
        assert me.until(lambda m: m["type"] == "error")["reason"] == reason


def test_a_spectator_watches_every_move_and_cannot_act(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        t, me = person_and_bots(client, n=3, seed="watch")
        watcher = Sock(client, t["match_id"], "watch")
        first = watcher.hello(watch_token=t["watch_token"])
        assert watcher.welcome is not None and watcher.welcome["role"] == "spectator"
        assert first["view"]["you"] == {"role": "spectator", "seat": None}
        me.hello(seat_token=t["seats"][0]["token"])
        drive([me, watcher], lambda: min(me.version, watcher.version) >= 12)
        assert watcher.view is not None and watcher.view["hand"] is None and watcher.view["legal"] is None
        draws = [e for e in events_of(watcher, "drew_stock")]
        assert draws and all(e["card"] is None for e in draws)
        watcher.send(type="draw", **{"from": "stock"})
        error = watcher.until(lambda m: m["type"] == "error")
        assert error["reason"] == "spectators only watch"
        watcher.send(type="ping", id=7)
        assert watcher.until(lambda m: m["type"] == "pong") == {"type": "pong", "id": 7}


def wrong_shower(view: Msg) -> Msg | None:
    """Shows with a card that leaves no show (a wrong show costs 80 at pool101: out in two
    deals), rejoins when offered."""
    legal = view["legal"]
    if legal is not None and view["deal"]["phase"] == "throw" and not legal["show"]:
        return {"type": "show", "card": legal["throw"][0]}
    return scripted(view)


def test_out_of_the_pool_and_rejoining(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        for attempt in range(10):
            seats = [{"kind": "human", "name": "Asha"}] + [{"kind": "bot", "bot": "greedy"}] * 2
            t = new_table(
                client, preset="pool101", settings={"players": 3}, seats=seats, seed=f"pool{attempt}"
            )
            me = Sock(client, t["match_id"], "Asha")
            me.hello(seat_token=t["seats"][0]["token"])
            drive(
                [me],
                lambda me=me: phase_of(me) == "over" or bool(events_of(me, "rejoined")),
                policy=wrong_shower,
            )
            if events_of(me, "rejoined"):
                break
            me.close()
        else:
            raise AssertionError("no rejoin offer came in ten pools")
        wrong = events_of(me, "wrong_show")
        assert wrong and all(e["penalty"] == 80 and e["reason"] for e in wrong)
        rejoined = events_of(me, "rejoined")[0]
        assert rejoined["seat"] == 0 and rejoined["number"] == 1
        update = next(m for m in me.messages if m.get("version") == rejoined["version"])
        sheet = update["view"]["sheet"]
        assert sheet["rejoins"][0]["seat"] == 0 and sheet["rejoins"][0]["total"] == rejoined["total"]
        assert sheet["totals"][0] == rejoined["total"] and sheet["standings"][0] in ("in", "compel")


def test_rematch_keeps_each_seat_its_link(sqlite_url: str) -> None:
    app = make_app(sqlite_url)
    with running(app) as client:
        t, me = person_and_bots(client, n=2, settings={"rounds": 1}, seed="rematch")
        me.hello(seat_token=t["seats"][0]["token"])
        watcher = Sock(client, t["match_id"], "watch")
        watcher.hello(watch_token=t["watch_token"])
        drive([me, watcher], lambda: phase_of(me) == "over")
        me.send(type="rematch")
        update = me.until(lambda m: m["type"] == "update" and m["events"][0]["kind"] == "rematch")
        new_id = update["events"][0]["match_id"]
        token = t["seats"][0]["token"]
        assert update["view"]["match"]["rematch"] == {
            "match_id": new_id,
            "url": f"/t/{new_id}?seat_token={token}",
        }
        seen = watcher.until(lambda m: m["type"] == "update" and m["events"][0]["kind"] == "rematch")
        url = seen["view"]["match"]["rematch"]["url"]
        assert url.startswith(f"/watch/{new_id}?token=") and token not in url
        me.send(type="rematch")
        assert "already made" in me.until(lambda m: m["type"] == "error")["reason"]
        again = Sock(client, new_id, "Asha again")
        first = again.hello(seat_token=token)
        assert first["view"]["you"]["seat"] == 0 and first["view"]["sheet"]["rows"] == []
        assert live_table(app, new_id).rules == live_table(app, t["match_id"]).rules


def test_every_difficulty_plays_at_the_table(sqlite_url: str) -> None:
    """The difficulty bots (the slow ones think in a worker thread) play a deal with a person."""
    with running(make_app(sqlite_url)) as client:
        seats = [{"kind": "human", "name": "Asha"}] + [
            {"kind": "bot", "bot": b} for b in ("easy", "medium", "hard")
        ]
        t = new_table(client, preset="nepali", settings={"rounds": 1}, seats=seats, seed="levels")
        me = Sock(client, t["match_id"], "Asha")
        me.hello(seat_token=t["seats"][0]["token"])
        drive([me], lambda: phase_of(me) == "over", timeout=60)
        moved = {
            e["seat"] for e in events_of(me, "threw") + events_of(me, "dropped") + events_of(me, "showed")
        }
        assert {1, 2, 3} <= moved | {e["result"]["winner"] for e in events_of(me, "deal_ended")}
        assert not any(e.get("auto") for m in me.messages for e in m.get("events", []))
