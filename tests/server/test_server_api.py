"""The HTTP API: health, lobby options, creating tables, a seat's state, past matches, hand
histories and the pages (docs/protocol.md)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Sock, drive, live_table, make_app, new_table, phase_of, running
from starlette.testclient import TestClient

from rummykit.cli.main import main as cli
from rummykit.engine.history import replay
from rummykit.engine.rules import PRESETS
from rummykit.server.app import STATIC

SHOW_PRESETS = [name for name, rules in PRESETS.items() if rules.is_show]
TABLE_PRESETS = [name for name, rules in PRESETS.items() if rules.is_table]


@pytest.fixture
def client(sqlite_url: str) -> Any:
    with running(make_app(sqlite_url)) as c:
        yield c


def test_health_and_options(client: TestClient) -> None:
    health = client.get("/api/health").json()
    assert health["ok"] and health["protocol"] == 2 and health["database"] == "sqlite"
    options = client.get("/api/options").json()
    assert [p["name"] for p in options["presets"]] == SHOW_PRESETS + TABLE_PRESETS
    assert TABLE_PRESETS == ["rummy40", "remi51"]
    by_name = {p["name"]: p for p in options["presets"]}
    # the table family: seats from the presets, and Rummy 40's room options (seed 003)
    assert by_name["rummy40"]["players"] == [2, 6] and by_name["remi51"]["players"] == [2, 4]
    for name in TABLE_PRESETS:
        assert by_name[name]["family"] == "table"
        assert by_name[name]["default_difficulty"] in by_name[name]["bots"]
    assert by_name["rummy40"]["openings"] == [30, 40, 51] and by_name["rummy40"]["opening"] == 40
    assert by_name["rummy40"]["targets"] == [None, 200] and by_name["rummy40"]["target"] is None
    assert by_name["remi51"]["openings"] == [51] and by_name["remi51"]["targets"] == []
    # a turn clock offered at every game: Rummy 40 45 s by default, the others none (RULES.md)
    for name, p in by_name.items():
        default = 45.0 if name == "rummy40" else None
        assert p["clock"] == {"default": default, "choices": [30, 45, 60, 90, 600]}, name
    assert by_name["nepali"]["family"] == "show" and by_name["nepali"]["title"] == "Nepali rummy"
    assert options["options"]["hints"] is False
    # seed 000's settings table, in its order, and the preset picker's values
    assert [s["key"] for s in options["lobby"]] == [
        "players",
        "rounds",
        "runs_needed",
        "dropping",
        "cut_joker",
        "printed_jokers",
        "ace_high",
        "full_count",
        "difficulty",
    ]
    nepali = options["presets"][0]["settings"]
    assert nepali["players"] == 4 and nepali["rounds"] == 3 and nepali["full_count"] == 80
    assert "greedy" in options["bots"] and options["default_difficulty"] in options["bots"]


def test_create_a_table_with_every_lobby_setting(client: TestClient) -> None:
    t = new_table(
        client,
        preset="nepali",
        settings={
            "players": 3,
            "rounds": 2,
            "runs_needed": 1,
            "dropping": False,
            "cut_joker": False,
            "printed_jokers": False,
            "ace_high": False,
            "full_count": 60,
        },
        difficulty="random",
        seats=[{"kind": "human", "name": "Asha"}, {"kind": "bot"}, {"kind": "human", "name": "Dipa"}],
        title="Friday",
        options={"bot_pace": 0.5, "away_time": 20, "away_turns": 3, "turn_time": None},
    )
    assert [s["name"] for s in t["seats"]] == ["Asha", "Bot 2", "Dipa"]
    assert t["seats"][1]["bot"] == "random" and t["seats"][1]["token"] is None
    assert t["seats"][0]["invite"] == f"/t/{t['match_id']}?seat_token={t['seats'][0]['token']}"
    assert t["watch"] == f"/watch/{t['match_id']}?token={t['watch_token']}"
    state = client.get(f"/api/tables/{t['match_id']}", params={"seat_token": t["seats"][0]["token"]}).json()
    rules = state["view"]["rules"]
    assert (rules["players"], rules["rounds"], rules["runs_needed"], rules["full_count"]) == (3, 2, 1, 60)
    assert rules["drop_first"] is None and rules["drop_middle"] is None
    assert not rules["cut_joker"] and rules["printed_jokers"] == 0 and not rules["ace_high"]
    assert state["role"] == "seat" and state["seat"] == 0 and state["view"]["match"]["title"] == "Friday"
    assert state["view"]["match"]["phase"] == "waiting"  # Asha and Dipa have not opened their links


@pytest.mark.parametrize("preset", SHOW_PRESETS)
def test_every_show_preset_makes_a_table(client: TestClient, preset: str) -> None:
    t = new_table(client, preset=preset)
    assert len(t["seats"]) == PRESETS[preset].players
    assert [s["kind"] for s in t["seats"]] == ["human"] + ["bot"] * (PRESETS[preset].players - 1)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"preset": "rummy40", "settings": {"dropping": True}}, 400, "rummy40 has no dropping"),
        (
            {"preset": "remi51", "settings": {"players": 5}},
            400,
            "Remi 51 seats 2 to 4 players; you asked for 5",
        ),
        ({"preset": "rummy40", "options": {"hints": "yes"}}, 400, "hints is true or false"),
        ({"preset": "dhumbal"}, 400, "unknown preset 'dhumbal'"),
        ({"settings": {"players": 9}}, 400, "Nepali rummy seats 2 to 6 players; you asked for 9"),
        (
            {"preset": "rummy40", "seats": [{"kind": "bot"}] * 9},
            400,
            "Rummy 40 seats 2 to 6 players; you asked for 9",
        ),
        (
            {"preset": "kerala", "settings": {"players": 1}},
            400,
            "Kerala pool (250) seats 2 to 8 players; you asked for 1",
        ),
        ({"settings": {"runs_needed": "lots"}}, 400, "runs_needed=lots"),
        ({"settings": {"colour": "red"}}, 400, "unknown setting 'colour'"),
        ({"settings": {"dropping": "maybe"}}, 400, "dropping is true or false"),
        ({"settings": {"players": 3}, "seats": [{"kind": "human"}]}, 400, "1 seats for players=3"),
        ({"seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "a"}]}, 400, "two seats"),
        ({"seats": [{"kind": "bot", "bot": "clever"}, {"kind": "human"}]}, 400, "unknown bot 'clever'"),
        ({"seats": [{"kind": "alien"}, {"kind": "human"}]}, 400, "kind is human or bot"),
        ({"difficulty": "godlike"}, 400, "unknown difficulty"),
        ({"options": {"away_turns": -1}}, 400, "away_turns must be a number"),
        ({"options": {"speed": 3}}, 400, "unknown option 'speed'"),
        ({"colour": "red"}, 400, "unknown field 'colour'"),
        ([1, 2], 400, "the body must be a JSON object"),
    ],
)
def test_a_bad_table_is_refused_with_the_reason(
    client: TestClient, body: Any, status: int, words: str
) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert set(r.json()) == {"error", "expected", "got"}


@pytest.mark.parametrize("preset", TABLE_PRESETS)
def test_every_table_preset_makes_a_table_with_its_clock(client: TestClient, preset: str) -> None:
    t = new_table(client, preset=preset)
    assert len(t["seats"]) == PRESETS[preset].players
    state = client.get(f"/api/tables/{t['match_id']}", params={"seat_token": t["seats"][0]["token"]}).json()
    assert state["view"]["match"]["preset"] == preset and state["view"]["rules"]["family"] == "table"
    t = new_table(client, preset=preset, options={"turn_time": 90, "hints": True})
    table = live_table(client.app, t["match_id"])  # type: ignore[arg-type]
    assert table.options.turn_time == 90 and table.options.hints
    # the preset's own clock by default: Rummy 40 45 seconds, Remi 51 none (RULES.md's settings)
    default = live_table(client.app, new_table(client, preset=preset)["match_id"]).options.turn_time  # type: ignore[arg-type]
    assert default == (45 if preset == "rummy40" else None)


def test_rummy40s_room_options_opening_and_match_to_200(client: TestClient) -> None:
    t = new_table(client, preset="rummy40", settings={"opening": 30, "target": 200})
    rules = client.get(f"/api/tables/{t['match_id']}", params={"seat_token": t["seats"][0]["token"]}).json()
    assert (rules["view"]["rules"]["opening"], rules["view"]["rules"]["target"]) == (30, 200)


def test_a_clock_at_a_show_family_table(client: TestClient) -> None:
    t = new_table(client, preset="nepali", options={"turn_time": 60})
    assert live_table(client.app, t["match_id"]).options.turn_time == 60  # type: ignore[arg-type]


def test_bodies_that_are_not_json_or_too_big(client: TestClient) -> None:
    r = client.post("/api/tables", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"].startswith("not JSON")
    r = client.post("/api/tables", content=b" " * 20_000)
    assert r.status_code == 413 and r.json()["expected"] == "at most 16384 bytes"


def test_a_seed_is_only_taken_where_the_server_allows_it(sqlite_url: str) -> None:
    from rummykit.server import create_app

    with running(create_app(sqlite_url)) as client:
        r = client.post("/api/tables", json={"seed": "known"})
        assert r.status_code == 400 and r.json()["error"] == "this server deals its own seeds"


def test_table_state_needs_the_right_token(client: TestClient) -> None:
    t = new_table(client, seats=[{"kind": "human", "name": "Asha"}, {"kind": "bot"}])
    mid = t["match_id"]
    watch = client.get(f"/api/tables/{mid}", params={"watch_token": t["watch_token"]}).json()
    assert watch["role"] == "spectator" and watch["view"]["hand"] is None
    assert client.get(f"/api/tables/{mid}", params={"seat_token": "guess"}).status_code == 403
    assert client.get(f"/api/tables/{mid}", params={"watch_token": "guess"}).status_code == 403
    assert client.get(f"/api/tables/{mid}").status_code == 400
    other = new_table(client, seats=[{"kind": "human"}, {"kind": "bot"}])
    # one table's token opens nothing at another
    r = client.get(f"/api/tables/{mid}", params={"seat_token": other["seats"][0]["token"]})
    assert r.status_code == 403
    assert client.get("/api/tables/0123456789abcdef", params={"seat_token": "x"}).status_code == 404
    assert client.get("/api/tables/..%2Fetc", params={"seat_token": "x"}).status_code == 404


@pytest.mark.parametrize(
    ("path", "page"),
    [
        ("/", "index.html"),
        ("/t/abc", "table.html"),
        ("/watch/abc", "table.html"),  # one page for seats and spectators
        ("/history", "history.html"),
        ("/static/index.html", "index.html"),
    ],
)
def test_pages_are_served(client: TestClient, path: str, page: str) -> None:
    """Each page's own file, or the lobby's index.html while the page does not exist."""
    r = client.get(path)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    file = STATIC / page if (STATIC / page).is_file() else STATIC / "index.html"
    assert r.text == file.read_text()


def test_past_matches_and_their_hand_histories(client: TestClient, sqlite_url: str, tmp_path: Path) -> None:
    app = client.app
    t = new_table(
        client,
        preset="nepali",
        settings={"players": 2, "rounds": 2},
        seats=[{"kind": "human", "name": "Asha"}, {"kind": "bot", "bot": "greedy"}],
        seed="hist",
        title="two deals",
    )
    mid = t["match_id"]
    me = Sock(client, mid, "Asha")
    me.hello(seat_token=t["seats"][0]["token"])
    drive([me], lambda: phase_of(me) == "between")
    # while the match is on, a history would tell the deals to come
    r = client.get(f"/api/matches/{mid}/deals/1/history")
    assert r.status_code == 409 and "still being played" in r.json()["error"]
    mine = {"X-Tokens": t["seats"][0]["token"]}  # the list shows the matches your tokens open
    listed = client.get("/api/matches", params={"status": "playing"}, headers=mine).json()["matches"]
    assert [m["match_id"] for m in listed] == [mid]
    assert listed[0]["names"] == ["Asha", "Bot 2"] and listed[0]["histories"] == []
    drive([me], lambda: phase_of(me) == "over")
    table = live_table(app, mid)  # type: ignore[arg-type]
    for _ in range(100):  # the histories are stored just after the last update is sent
        if client.get("/api/matches", params={"status": "over"}, headers=mine).json()["matches"]:
            break
        time.sleep(0.02)
    over = client.get("/api/matches", params={"status": "over"}, headers=mine).json()["matches"]
    assert [m["match_id"] for m in over] == [mid]
    entry = over[0]
    assert entry["names"] == ["Asha", "Bot 2"] and entry["status"] == "over"
    assert entry["deals"] == 2 and entry["histories"] == [1, 2] and entry["title"] == "two deals"
    assert entry["totals"] == list(table.session.totals) and sum(entry["totals"]) == 0
    detail = client.get(f"/api/matches/{mid}").json()
    assert detail["history_urls"] == [f"/api/matches/{mid}/deals/{n}/history" for n in (1, 2)]
    assert detail["sheet"]["label"] == "Paid" and len(detail["sheet"]["rows"]) == 2
    assert "Total" in detail["sheet"]["text"]
    for n in (1, 2):
        r = client.get(f"/api/matches/{mid}/deals/{n}/history")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
        assert f'filename="rummykit-{mid}-deal-{n}.txt"' in r.headers["content-disposition"]
        deal = replay(r.text)  # the hand-history format, replayed by the engine
        assert deal.result == table.deals[n - 1].result
        path = tmp_path / f"deal{n}.txt"
        path.write_text(r.text)
        assert cli(["replay", str(path)]) == 0  # and by rummykit replay
    assert client.get(f"/api/matches/{mid}/deals/3/history").status_code == 404
    assert client.get(f"/api/matches/{mid}/deals/0/history").status_code == 400
    assert client.get("/api/matches", params={"status": "lost"}).status_code == 400
    assert client.get("/api/matches/nope0000/deals/1/history").status_code == 404
