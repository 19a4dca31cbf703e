"""A server restarted in the middle of a match brings it back exactly where it was, on SQLite and
on the real PostgreSQL: same version, same hands, same sheet; nothing played is lost."""

from __future__ import annotations

from typing import Any

from server_helpers import Msg, Sock, drive, live_table, make_app, new_table, phase_of, running

from rummykit.engine.history import replay
from rummykit.storage import Store
from rummykit.storage.store import MatchRow

Db = tuple[str, dict[str, str] | None]


def views(client: Any, t: Msg) -> dict[str, Any]:
    """Every seat's and the spectator's view now, through the HTTP API (minus the clock)."""
    mid = t["match_id"]
    out = {}
    for info in t["seats"]:
        if info["token"]:
            r = client.get(f"/api/tables/{mid}", params={"seat_token": info["token"]}).json()
            out[info["name"]] = r
    out["watch"] = client.get(f"/api/tables/{mid}", params={"watch_token": t["watch_token"]}).json()
    for r in out.values():
        r["view"].pop("deadline")
        for seat in r["view"]["seats"]:
            seat.pop("connected")  # nobody is connected across a restart
    return out


def people(client: Any, t: Msg, last: dict[str, int] | None = None) -> list[Sock]:
    socks = []
    for info in t["seats"]:
        if info["token"]:
            s = Sock(client, t["match_id"], info["name"])
            s.hello(seat_token=info["token"], last_version=None if last is None else last[info["name"]])
            socks.append(s)
    return socks


def test_a_restart_mid_deal_brings_the_match_back_exactly(any_db: Db) -> None:
    url, connect_args = any_db
    seats = [
        {"kind": "human", "name": "Asha"},
        {"kind": "bot", "bot": "greedy"},
        {"kind": "human", "name": "Bina"},
        {"kind": "bot", "bot": "random"},
    ]
    app = make_app(url, connect_args)
    with running(app) as client:
        t = new_table(client, preset="nepali", settings={"rounds": 2}, seats=seats, seed="restart")
        socks = people(client, t)
        # into the second deal, stopping with a card drawn and not yet thrown
        drive(
            socks,
            lambda: (
                socks[0].view is not None
                and socks[0].view["deal"] is not None
                and socks[0].view["deal"]["number"] == 2
                and socks[0].view["deal"]["phase"] == "throw"
                and socks[0].view["deal"]["to_play"] in (0, 2)
            ),
        )
        before = views(client, t)
        last = {s.name: s.version for s in socks}
        table = live_table(app, t["match_id"])
        fingerprint = table.deal.fingerprint() if table.deal else None
        version = table.version

    # the server stops; a new one starts on the same database
    app = make_app(url, connect_args)
    with running(app) as client:
        table = live_table(app, t["match_id"])  # restored at start-up, before anyone connects
        assert table.version == version
        assert table.deal is not None and table.deal.fingerprint() == fingerprint
        after = views(client, t)
        assert after == before
        socks = people(client, t, last)
        for s in socks:
            assert s.messages[-1]["type"] == "update" and s.messages[-1]["events"] == []
        drive(socks, lambda: phase_of(socks[0]) == "over")
        assert table.phase == "over"

    # the finished match's histories were all stored, and replay
    store = Store(url, connect_args=connect_args)
    try:
        texts = store.histories(t["match_id"])
        assert [n for n, _ in texts] == [0, 1]
        for n, text in texts:
            assert replay(text).result == table.deals[n].result
        row = store.match(t["match_id"])
        assert row is not None and row.status == "over" and row.summary["deals"] == 2
        assert store.action_count(t["match_id"]) == table.actions
    finally:
        store.close()


def test_a_restart_between_deals_keeps_who_was_ready(any_db: Db) -> None:
    url, connect_args = any_db
    seats = [{"kind": "human", "name": "Asha"}, {"kind": "human", "name": "Bina"}, {"kind": "bot"}]
    app = make_app(url, connect_args)
    with running(app) as client:
        t = new_table(
            client, preset="nepali", settings={"players": 3, "rounds": 2}, seats=seats, seed="ready"
        )
        asha, bina = people(client, t)
        drive([asha, bina], lambda: phase_of(asha) == "between")
        asha.send(type="next_round")
        asha.until(lambda m: m["type"] == "update")
        before = views(client, t)
        assert before["Asha"]["view"]["between"]["ready"] == [0]
    app = make_app(url, connect_args)
    with running(app) as client:
        after = views(client, t)
        assert after == before
        asha, bina = people(client, t)
        bina.send(type="next_round")
        bina.until(lambda m: any(e["kind"] == "dealt" for e in m.get("events", [])))


def test_a_table_of_bots_plays_on_by_itself_after_a_restart(sqlite_url: str) -> None:
    bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]
    app = make_app(sqlite_url, bot_pace=0.01)
    with running(app) as client:
        t = new_table(client, preset="nepali", settings={"players": 2, "rounds": 2}, seats=bots, seed="bots")
        watcher = Sock(client, t["match_id"], "watch")
        watcher.hello(watch_token=t["watch_token"])
        watcher.until(lambda m: m.get("version", 0) >= 10)
        watcher.close()
    app = make_app(sqlite_url, bot_pace=0.01)
    with running(app) as client:
        watcher = Sock(client, t["match_id"], "watch")
        watcher.hello(watch_token=t["watch_token"], last_version=1)
        watcher.until(lambda m: m.get("view", {}).get("match", {}).get("phase") == "over", timeout=30)
        events = [e for m in watcher.messages for e in m.get("events", [])]
        versions = [e["version"] for e in events]
        assert versions == list(range(2, versions[-1] + 1))  # nothing lost, nothing twice


def test_a_log_that_does_not_replay_closes_only_its_table(sqlite_url: str) -> None:
    app = make_app(sqlite_url)
    with running(app) as client:
        t = new_table(client, seats=[{"kind": "human"}, {"kind": "bot"}], seed="broken")
        good = new_table(client, seats=[{"kind": "human"}, {"kind": "bot"}], seed="good")
        s = Sock(client, t["match_id"])
        s.hello(seat_token=t["seats"][0]["token"])
        drive([s], lambda: s.version >= 3)
    store = Store(sqlite_url)
    store.append_action(t["match_id"], store.action_count(t["match_id"]), 0, 0, {"a": "throw", "card": "Zz"})
    store.close()
    app = make_app(sqlite_url)
    with running(app) as client:
        health = client.get("/api/health").json()
        assert health["broken"] == 1  # a count: health answers anyone, and an id opens a table
        assert t["match_id"] not in str(health)
        s = Sock(client, t["match_id"])
        view = s.hello(seat_token=t["seats"][0]["token"])["view"]
        assert "does not replay" in view["match"]["broken"] and view["match"]["phase"] == "broken"
        s.send(type="draw", **{"from": "stock"})
        assert s.until(lambda m: m["type"] == "error")["reason"].startswith("this table is out of order")
        other = Sock(client, good["match_id"])
        other.hello(seat_token=good["seats"][0]["token"])
        drive([other], lambda: other.version >= 6)


def test_a_whole_match_with_a_spectator_on_each_back_end(any_db: Db) -> None:
    """The same protocol on both stores: a person and a bot play a match out, watched."""
    url, connect_args = any_db
    app = make_app(url, connect_args)
    with running(app) as client:
        seats = [{"kind": "human", "name": "Asha"}, {"kind": "bot", "bot": "medium"}]
        t = new_table(client, preset="kerala", settings={"players": 2}, seats=seats, seed="both")
        watcher = Sock(client, t["match_id"], "watch")
        watcher.hello(watch_token=t["watch_token"])
        (asha,) = people(client, t)
        drive([asha, watcher], lambda: phase_of(asha) == "over")
        table = live_table(app, t["match_id"])
    store = Store(url, connect_args=connect_args)
    try:
        assert store.action_count(t["match_id"]) == table.actions
        assert len(store.histories(t["match_id"])) == table.session.deals_played
    finally:
        store.close()


def test_a_restart_mid_deal_brings_a_table_family_match_back(any_db: Db) -> None:
    """Rummy 40: melds on the table, who has opened, the hands and the clock's seat all come
    back from the stored actions, and the deal plays on to its end with histories that replay."""
    url, connect_args = any_db
    seats = [
        {"kind": "human", "name": "Asha"},
        {"kind": "bot", "bot": "greedy"},
        {"kind": "human", "name": "Bina"},
    ]
    app = make_app(url, connect_args)
    with running(app) as client:
        t = new_table(
            client,
            preset="rummy40",
            settings={"players": 3},
            seats=seats,
            seed="restart40",
            options={"turn_time": 600},
        )
        socks = people(client, t)

        def melded_and_mid_turn() -> bool:
            v = socks[0].view
            return (
                v is not None
                and v["deal"] is not None
                and len(v["deal"]["melds"]) >= 2
                and v["deal"]["phase"] == "throw"
                and v["deal"]["to_play"] in (0, 2)
            )

        drive(socks, melded_and_mid_turn)
        before = views(client, t)
        last = {s.name: s.version for s in socks}
        table = live_table(app, t["match_id"])
        fingerprint = table.deal.fingerprint() if table.deal else None
        version = table.version
        assert before["watch"]["view"]["deal"]["melds"]

    app = make_app(url, connect_args)
    with running(app) as client:
        table = live_table(app, t["match_id"])
        assert table.version == version and table.broken is None
        assert table.deal is not None and table.deal.fingerprint() == fingerprint
        assert views(client, t) == before
        socks = people(client, t, last)
        drive(socks, lambda: phase_of(socks[0]) == "over", timeout=120)

    store = Store(url, connect_args=connect_args)
    try:
        texts = store.histories(t["match_id"])
        assert [n for n, _ in texts] == [0]
        assert replay(texts[0][1]).result == table.deals[0].result
        assert store.action_count(t["match_id"]) == table.actions
    finally:
        store.close()


def test_a_remi_table_stored_before_the_pile_and_joker_settings_comes_back_as_it_was_played(
    sqlite_url: str,
) -> None:
    """A Remi 51 table an older server stored has no pile_at_deal or freed_joker_must_go_down in
    its settings: it was dealt with a pile card and owed its freed jokers (as every table was
    then), and a restart rebuilds it so, not as today's Remi."""
    app = make_app(sqlite_url)
    legacy = {"players": 2, "pile_at_deal": True, "freed_joker_must_go_down": True}
    with running(app) as client:
        seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}]
        t = new_table(client, preset="remi51", settings=legacy, seats=seats, seed="old remi")
        (ana,) = people(client, t)

        def mid_turn() -> bool:  # Ana has drawn in her second turn: the bot waits for her
            d = ana.view["deal"] if ana.view is not None else None
            return d is not None and d["to_play"] == 0 and d["phase"] == "throw" and d["turn"] >= 4

        drive([ana], mid_turn)
        table = live_table(app, t["match_id"])
        assert table.deal is not None and len(table.deal.events[0].text().split()) == 4  # "0 deal pile Xx"
        fingerprint, version = table.deal.fingerprint(), table.version
    store = Store(sqlite_url)
    with store.session() as s:  # the row as an older server wrote it: without the newer settings
        row = s.get(MatchRow, t["match_id"])
        assert row is not None
        row.settings = {k: v for k, v in row.settings.items() if k not in legacy or k == "players"}
    store.close()
    app = make_app(sqlite_url)
    with running(app) as client:
        table = live_table(app, t["match_id"])
        assert table.broken is None and table.version == version
        assert table.deal is not None and table.deal.fingerprint() == fingerprint
        assert table.rules.pile_at_deal and table.rules.freed_joker_must_go_down
