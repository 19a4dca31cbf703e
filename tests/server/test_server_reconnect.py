"""Reconnection (what was missed, or a full state), a second window, and seats that stay away:
played for after their time, then dropped, in everyone's sight."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import Msg, Sock, drive, live_table, make_app, new_table, phase_of, running

from rummykit.server import hub as hub_module

VOLATILE = ("deadline",)  # the seconds left change between two reads of the same version


def same_view(a: Msg, b: Msg) -> bool:
    strip = lambda v: {k: x for k, x in v.items() if k not in VOLATILE}  # noqa: E731
    return bool(strip(a) == strip(b))


def test_a_client_that_reconnects_gets_what_it_missed(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        seats = [{"kind": "human", "name": "Asha"}, {"kind": "human", "name": "Bina"}, {"kind": "bot"}]
        t = new_table(client, seats=seats, seed="reconnect")
        mid, (asha_token, bina_token) = t["match_id"], (t["seats"][0]["token"], t["seats"][1]["token"])
        asha, bina = Sock(client, mid, "Asha"), Sock(client, mid, "Bina")
        asha.hello(seat_token=asha_token)
        bina.hello(seat_token=bina_token)
        drive([asha, bina], lambda: asha.version >= 6)
        last = bina.version
        bina.close()  # Bina's page goes away; Asha and the bot play on
        presence = asha.until(lambda m: m["type"] == "presence")
        assert presence["seats"][1] == {"seat": 1, "connected": False, "away_turns": 0}
        assert asha.view is not None
        drive([asha], lambda: asha.view is not None and asha.view["deal"]["to_play"] == 1)
        assert asha.version > last
        # back with the last version seen: exactly the missed events, then the view
        bina = Sock(client, mid, "Bina again")
        caught = bina.hello(seat_token=bina_token, last_version=last)
        assert caught["type"] == "update" and caught["catchup"] is True
        assert [e["version"] for e in caught["events"]] == list(range(last + 1, asha.version + 1))
        assert all(
            e.get("card") is None for e in caught["events"] if e["kind"] == "drew_stock" and e["seat"] != 1
        )
        fresh = Sock(client, mid, "watch")
        state = fresh.hello(watch_token=t["watch_token"])
        assert state["type"] == "state" and state["version"] == caught["version"]
        # the view is the same as a fresh one (seen from the same seat)
        bina_now = client.get(f"/api/tables/{mid}", params={"seat_token": bina_token}).json()
        assert same_view(caught["view"], bina_now["view"])
        # the others see Bina back, and the play goes on with her
        assert asha.until(lambda m: m["type"] == "presence")["seats"][1]["connected"] is True
        drive([asha, bina], lambda: min(asha.version, bina.version) >= caught["version"] + 4)


@pytest.mark.parametrize("last", [None, 10_000])
def test_no_last_version_or_one_the_table_never_had_gets_a_state(sqlite_url: str, last: Any) -> None:
    with running(make_app(sqlite_url)) as client:
        t = new_table(client, seats=[{"kind": "human"}, {"kind": "bot"}], seed="state")
        s = Sock(client, t["match_id"])
        first = s.hello(seat_token=t["seats"][0]["token"], last_version=last)
        assert first["type"] == "state" and "events" not in first


def test_too_many_missed_events_get_a_state(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_module, "CATCHUP_LIMIT", 3)
    with running(make_app(sqlite_url)) as client:
        t = new_table(client, seats=[{"kind": "human"}, {"kind": "bot"}], seed="limit")
        s = Sock(client, t["match_id"])
        s.hello(seat_token=t["seats"][0]["token"])
        drive([s], lambda: s.version >= 8)
        again = Sock(client, t["match_id"])
        assert again.hello(seat_token=t["seats"][0]["token"], last_version=1)["type"] == "state"


def test_a_second_window_takes_the_seat_over(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        t = new_table(client, seats=[{"kind": "human"}, {"kind": "bot"}], seed="windows")
        token = t["seats"][0]["token"]
        old, new = Sock(client, t["match_id"], "old"), Sock(client, t["match_id"], "new")
        old.hello(seat_token=token)
        new.hello(seat_token=token)
        error = old.until(lambda m: m["type"] == "error")
        assert error["reason"] == "this seat was opened in another window"
        assert old.until(lambda m: m["type"] == "closed")["code"] == 4409
        drive([new], lambda: new.version >= 4)


def away_table(client: Any, **options: Any) -> tuple[Msg, Sock, Sock]:
    seats = [{"kind": "human", "name": "Asha"}, {"kind": "human", "name": "Bina"}]
    t = new_table(client, seats=seats, settings={"players": 2, "rounds": 2}, seed="away-2", options=options)
    asha, bina = Sock(client, t["match_id"], "Asha"), Sock(client, t["match_id"], "Bina")
    asha.hello(seat_token=t["seats"][0]["token"])
    bina.hello(seat_token=t["seats"][1]["token"])
    return t, asha, bina


def test_an_away_seat_is_played_for_then_dropped(sqlite_url: str) -> None:
    app = make_app(sqlite_url)
    with running(app) as client:
        t, asha, bina = away_table(client, away_time=0.1, away_turns=2)
        watcher = Sock(client, t["match_id"], "watch")
        watcher.hello(watch_token=t["watch_token"])
        bina.close()  # Bina goes away for good
        drive(
            [asha, watcher],
            lambda: any(e["kind"] == "dropped" for m in watcher.messages for e in m.get("events", [])),
        )
        events = [e for m in watcher.messages for e in m.get("events", []) if e["seat"] == 1]
        played = [e for e in events if e["kind"] in ("drew_stock", "threw", "dropped")]
        # two turns played for her (draw from the stock, throw that card), then dropped
        assert [e["kind"] for e in played] == ["drew_stock", "threw", "drew_stock", "threw", "dropped"]
        assert all(e["auto"] for e in played)
        assert played[-1]["cost"] == 40  # she had taken cards: a middle drop
        seats = watcher.view["seats"]  # type: ignore[index]
        assert seats[1]["connected"] is False and seats[1]["away_turns"] == 3
        assert watcher.view is not None and watcher.view["match"]["phase"] == "between"
        # between deals the table waits for Asha only (Bina is away); the next deal starts at once
        # when Asha presses Next round, and Bina, still away, is dropped at her first turn
        drive([asha, watcher], lambda: phase_of(watcher) == "over", timeout=30)
        dropped = [e for m in watcher.messages for e in m.get("events", []) if e["kind"] == "dropped"]
        assert len(dropped) == 2 and dropped[1]["seat"] == 1 and dropped[1]["first"] and dropped[1]["auto"]
        table = live_table(app, t["match_id"])
        assert table.auto_turns[1] == 4


def test_coming_back_ends_the_away_play(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        t, asha, bina = away_table(client, away_time=0.1, away_turns=5)
        bina.close()
        drive([asha], lambda: any(e.get("auto") for m in asha.messages for e in m.get("events", [])))
        bina = Sock(client, t["match_id"], "Bina back")
        first = bina.hello(seat_token=t["seats"][1]["token"])
        assert first["view"]["seats"][1]["away_turns"] >= 1
        drive([asha, bina], lambda: bina.view is not None and bina.view["seats"][1]["away_turns"] == 0)
        # her own move reset the count


def test_the_turn_clock_plays_for_a_connected_seat(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        _t, asha, _bina = away_table(client, turn_time=0.15, away_turns=9)
        asha.wait(lambda: asha.view is not None and asha.view["deadline"] is not None)
        deadline = asha.view["deadline"]  # type: ignore[index]
        assert deadline["why"] == "turn" and 0 <= deadline["seconds"] <= 0.15
        # nobody moves: the clock plays for whoever is to play
        auto = asha.until(lambda m: any(e.get("auto") for e in m.get("events", [])), timeout=30)
        assert auto["events"][0]["kind"] == "drew_stock"


def test_between_deals_an_away_seat_does_not_hold_the_table(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        _t, asha, bina = away_table(client, away_time=0.1, away_turns=0)
        bina.close()
        # with away_turns 0 she is dropped at once: the deal ends, the next starts after Asha's
        # Next round without waiting for her
        drive([asha], lambda: phase_of(asha) == "between")
        between = asha.view["between"]  # type: ignore[index]
        assert between["waiting_for"] == [0, 1]
        asha.send(type="next_round")
        asha.until(lambda m: any(e["kind"] == "dealt" for e in m.get("events", [])), timeout=30)


def test_starting_without_a_seat_that_has_not_come(sqlite_url: str) -> None:
    with running(make_app(sqlite_url)) as client:
        seats = [{"kind": "human", "name": "Asha"}, {"kind": "human", "name": "Bina"}, {"kind": "bot"}]
        t = new_table(client, seats=seats, seed="start", options={"away_time": 0.05, "away_turns": 9})
        asha = Sock(client, t["match_id"], "Asha")
        asha.hello(seat_token=t["seats"][0]["token"])
        asha.wait(lambda: asha.version >= 1)  # her join
        assert asha.view is not None and asha.view["match"]["phase"] == "waiting"
        assert [s["joined"] for s in asha.view["seats"]] == [True, False, True]
        asha.send(type="start")
        asha.until(lambda m: any(e["kind"] == "dealt" for e in m.get("events", [])))
        assert [e["seat"] for m in asha.messages for e in m.get("events", []) if e["kind"] == "started"] == [
            0
        ]
        # Bina is away from the start: her turns are played for her
        drive(
            [asha],
            lambda: any(e.get("auto") and e["seat"] == 1 for m in asha.messages for e in m.get("events", [])),
        )
        bina = Sock(client, t["match_id"], "Bina")
        bina.hello(seat_token=t["seats"][1]["token"])
        joined = asha.until(
            lambda m: any(e["kind"] == "joined" and e["seat"] == 1 for e in m.get("events", []))
        )
        assert joined["view"]["seats"][1]["joined"] is True and joined["view"]["match"]["phase"] == "playing"
