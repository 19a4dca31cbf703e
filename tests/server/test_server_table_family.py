"""The table family (Rummy 40, Remi 51) through the real protocol: a person opens, lays off, swaps
a joker, puts a pile card back, and every refusal carries the engine's reason and changes
nothing; the clock plays for a person who runs out (drawing and throwing, never melding); the
views never show another seat's hand; the Hint message, on and off."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import stacking
from server_helpers import Msg, Sock, live_table, make_app, new_table, running
from starlette.testclient import TestClient

import rummykit.server.hub as hub_module
from rummykit.engine.cards import parse_card
from rummykit.engine.events import Action, Phase

_ids = itertools.count(1)

# Asha (seat 1) plays first at a table of two: she holds 48 points of the seed's example (K K K
# and 5 6 7 of hearts), a run with a joker standing for the J♣ she also holds, and the 4♥ that
# goes onto her hearts.  The bot at seat 0 gets spread-out cards that make no meld.
STORY = {
    "hands": {1: "Ks Kh Kd 5h 6h 7h 9c 10c JK Jc 4h 2s 3d"},
    "pile": "Qs",
    "stock": "8d 2h 3s 4c 5d 6c 7d",
}


def act(sock: Sock, **message: Any) -> Msg:
    """Send one intent and return the server's answer to it (its update, or the error)."""
    mid = f"m{next(_ids)}"
    sock.send(**message, id=mid)
    return sock.until(lambda m: m.get("id") == mid)


def refused(app: Any, match_id: str, sock: Sock, **message: Any) -> str:
    """The reason an intent is refused; checks that the refusal changed nothing."""
    table = live_table(app, match_id)
    deal = table.deal
    assert deal is not None
    before = (table.version, deal.fingerprint(), table.actions)
    got = act(sock, **message)
    assert got["type"] == "error", got
    assert (table.version, deal.fingerprint(), table.actions) == before
    return str(got["reason"])


def story_table(client: TestClient, preset: str = "rummy40", **body: Any) -> tuple[Msg, Sock]:
    seats = [{"kind": "bot", "bot": "greedy"}, {"kind": "human", "name": "Asha"}]
    t = new_table(client, preset=preset, settings={"players": 2}, seats=seats, **body)
    me = Sock(client, t["match_id"], "Asha")
    me.hello(seat_token=t["seats"][1]["token"])
    me.wait(lambda: me.view is not None and me.view["legal"] is not None)
    return t, me


def melds_of(view: Msg) -> dict[int, list[str]]:
    return {m["id"]: m["cards"] for m in view["deal"]["melds"]}


def test_a_rummy40_story_open_lay_off_swap_put_back_and_every_refusal(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    stacking.install({"story": STORY}, monkeypatch.setattr)
    app = make_app(sqlite_url, turn_time=None)
    with running(app) as client:
        t, me = story_table(client, seed="story", options={"turn_time": 600})
        mid = t["match_id"]
        view = me.view
        assert view is not None
        assert view["rules"]["family"] == "table" and view["match"]["preset"] == "rummy40"
        deal = view["deal"]
        assert deal["to_play"] == 1 and deal["phase"] == "draw" and deal["melds"] == []
        assert deal["pile_top"] == "Qs" and deal["opening"] == 40 and deal["stock_count"] == 81
        assert [s["opened"] for s in view["seats"]] == [False, False]
        assert [s["cards"] for s in view["seats"]] == [13, 13]
        meter = view["hand"]["meter"]
        assert meter["threshold"] == 40 and meter["ready"] and meter["points"] >= 48
        assert not meter["can_open"] and meter["why"] == "take a card first"
        assert view["deadline"] == {"seat": 1, "seconds": pytest.approx(600, abs=2), "why": "turn"}

        # the pile card must go down before a throw; Put back undoes the take
        took = act(me, type="draw", **{"from": "pile"})
        assert took["events"][0]["kind"] == "took_pile" and took["view"]["deal"]["pile_due"] == "Qs"
        legal = took["view"]["legal"]
        assert legal["put_back"] and legal["throw"] == [] and legal["pile_due"] == "Qs"
        reason = refused(app, mid, me, type="throw", card="Qs")
        assert reason == "use the card you took from the pile before throwing"
        assert legal["no_throw"] == {"card": "Qs", "reason": reason}
        back = act(me, type="put_back")
        assert [e["kind"] for e in back["events"]] == ["put_back"]
        assert back["events"][0]["text"] == "Asha puts Qs back"
        assert back["events"][0]["line"] == ["You put ", {"card": "Qs"}, " back"]
        assert back["view"]["deal"]["pile_top"] == "Qs" and back["view"]["deal"]["phase"] == "draw"
        assert (
            refused(app, mid, me, type="draw", **{"from": "pile"})
            == "you put that card back: draw from the stock"
        )
        drew = act(me, type="draw", **{"from": "stock"})
        assert drew["events"][0]["card"] == "8d"
        assert refused(app, mid, me, type="put_back") == "there is no card taken from the pile to put back"

        # the Opening meter reads the best opening; one short of 40 says by how much
        view = drew["view"]
        meter = view["hand"]["meter"]
        assert meter["can_open"] and meter["why"] is None and meter["points"] == 91
        assert view["legal"]["open"] == meter["melds"]
        reason = refused(app, mid, me, type="open", melds=[["5h", "6h", "7h"]])
        assert reason == "an opening needs 40 points: these make 18, 22 short"
        assert "not in your hand" in refused(app, mid, me, type="open", melds=[["As", "Ah", "Ad"]])
        assert (
            refused(app, mid, me, type="lay_down", cards=["Ks", "Kh", "Kd"]) == "not before you have opened"
        )

        opened = act(me, type="open", melds=[["Ks", "Kh", "Kd"], ["5h", "6h", "7h"], ["9c", "10c", "JK"]])
        event = opened["events"][0]
        assert event["kind"] == "opened" and event["points"] == 30 + 18 + 29 and not event["waived"]
        assert [m["owner"] for m in event["melds"]] == [1, 1, 1]
        view = opened["view"]
        assert melds_of(view) == {1: ["Ks", "Kh", "Kd"], 2: ["5h", "6h", "7h"], 3: ["9c", "10c", "JK"]}
        joker_meld = view["deal"]["melds"][2]
        assert joker_meld["kind"] == "run" and joker_meld["stands_for"] == ["9c", "10c", "Jc"]
        assert [s["opened"] for s in view["seats"]] == [False, True] and view["hand"]["opened"]
        assert view["hand"]["meter"] is None and view["hand"]["leftover"] is not None
        assert {"meld": 2, "cards": ["4h"]} in view["legal"]["lay_off"]
        assert {"meld": 3, "card": "Jc"} in view["legal"]["swap"]

        # a lay-off that would break a meld says which rule; a good one goes on
        assert (
            refused(app, mid, me, type="lay_off", meld=1, cards=["2s"])
            == "2s does not fit meld 1: a set of kings, which takes only kings"
        )
        assert (
            refused(app, mid, me, type="lay_off", meld=9, cards=["4h"]) == "there is no meld 9 on the table"
        )
        laid = act(me, type="lay_off", meld=2, cards=["4h"])
        assert laid["events"][0]["kind"] == "laid_off" and laid["events"][0]["meld_id"] == 2
        assert melds_of(laid["view"])[2] == ["4h", "5h", "6h", "7h"]

        # a swap with the wrong card says what the slot needs; the freed joker must go down
        assert refused(app, mid, me, type="swap", meld=3, card="8d") == "the slot needs Jc"
        swapped = act(me, type="swap", meld=3, card="Jc")
        assert swapped["events"][0]["kind"] == "swapped"
        view = swapped["view"]
        assert melds_of(view)[3] == ["9c", "10c", "Jc"] and "JK" in view["hand"]["cards"]
        assert view["deal"]["owed_jokers"] == 1 and view["legal"]["throw"] == []
        assert refused(app, mid, me, type="throw", card="8d") == "you must lay the freed joker down this turn"
        laid = act(me, type="lay_off", meld=2, cards=["JK"])
        assert melds_of(laid["view"])[2] == ["4h", "5h", "6h", "7h", "JK"]
        assert laid["view"]["deal"]["melds"][1]["stands_for"][-1] == "8h"
        threw = act(me, type="throw", card="8d")
        assert threw["events"][0]["kind"] == "threw"
        assert sorted(threw["view"]["hand"]["cards"]) == sorted(["2s", "3d"])
        assert threw["view"]["seats"][1]["cards"] == 2
        # not my turn now: the refusal names who is to play.  The bot plays meanwhile, and on a
        # slow machine its whole turn may come first: the updates before the refusal say which
        got = act(me, type="lay_off", meld=1, cards=["2s"])
        assert got["type"] == "error" and me.view is not None
        if me.view["deal"]["to_play"] == 1:
            assert got["reason"].startswith("draw first"), got
        else:
            assert got["reason"].startswith("not your turn"), got


def test_remi51_story_first_player_skips_the_draw_and_opens_only_after_the_first_round(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    stack = {
        "hands": {1: "As Ah Ad Kc Qc Jc 10c 7s 7h 7d 2h 3s 4d 9h 6c"},
        "stock": "8c 2d 3h 4s 5d 6h 7c",
    }
    stacking.install({"remi": stack}, monkeypatch.setattr)
    app = make_app(sqlite_url)
    with running(app) as client:
        t, me = story_table(client, preset="remi51", seed="remi")
        mid = t["match_id"]
        view = me.view
        assert view is not None
        assert len(view["hand"]["cards"]) == 15 and view["deal"]["phase"] == "throw"
        assert view["deal"]["opening"] == 51 and view["legal"]["draw_stock"] is False
        # A A A (30) + 10 J Q K of clubs (40) + 7 7 7 (21): the meter reads 91, but not in the first round
        meter = view["hand"]["meter"]
        assert meter["ready"] and meter["points"] == 91 and not meter["can_open"]
        assert meter["why"] == "no opening in the first round"
        assert refused(app, mid, me, type="open", melds=meter["melds"]) == "no opening in the first round"
        assert refused(app, mid, me, type="draw", **{"from": "stock"}).startswith(
            "the first player skips the draw"
        )
        threw = act(me, type="throw", card="6c")
        assert threw["events"][0]["kind"] == "threw"
        # the bot plays; on my second turn the pile is mine only after opening
        me.wait(lambda: me.view is not None and me.view["legal"] is not None)
        view = me.view
        assert view["legal"]["draw_pile"] is False
        assert view["legal"]["pile_refusal"] == "the pile is yours to take only after opening"
        drew = act(me, type="draw", **{"from": "stock"})
        view = drew["view"]
        assert view["hand"]["meter"]["can_open"]
        short = refused(app, mid, me, type="open", melds=[["As", "Ah", "Ad"]])
        assert short == "an opening needs 51 points: these make 30, 21 short"
        opened = act(me, type="open", melds=view["legal"]["open"])
        assert opened["events"][0]["kind"] == "opened" and opened["events"][0]["points"] >= 51
        assert opened["view"]["seats"][1]["opened"]


def test_the_clock_draws_and_throws_for_a_table_seat_and_never_melds(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asha could open with 91 points, but her clock runs out: the table draws from the stock
    and throws the card drawn.  Next turn she takes the pile and runs out again: the table puts
    the card back, draws from the stock and throws."""
    stacking.install({"clock": STORY}, monkeypatch.setattr)
    app = make_app(sqlite_url)
    with running(app) as client:
        t, me = story_table(client, seed="clock", options={"turn_time": 0.4})
        assert me.view is not None and me.view["deadline"]["why"] == "turn"
        me.wait(lambda: [k for k, _ in moves(me)].count("threw") == 1)
        assert moves(me) == [("drew_stock", True), ("threw", True)]
        mine = [
            e for m in me.messages for e in m.get("events", []) if e.get("seat") == 1 and e["kind"] == "threw"
        ]
        assert mine[0]["card"] == "8d"
        # the bot plays, then Asha takes the pile and lets the clock run out again
        me.wait(lambda: me.view is not None and me.view["legal"] is not None)
        top = me.view["deal"]["pile_top"]  # type: ignore[index]
        took = act(me, type="draw", **{"from": "pile"})
        assert took["type"] == "update"
        me.wait(lambda: [k for k, _ in moves(me)].count("threw") == 2)
        assert moves(me)[2:] == [
            ("took_pile", False),
            ("put_back", True),
            ("drew_stock", True),
            ("threw", True),
        ]
        put = [e for m in me.messages for e in m.get("events", []) if e["kind"] == "put_back"]
        assert put[0]["card"] == top and put[0]["auto"]
        table = live_table(app, t["match_id"])
        assert table.deal is not None and not table.deal.opened[1]  # never melded for her
        assert not any(e.kind in ("opened", "laid_down", "laid_off", "swapped") for e in table.log)


def moves(sock: Sock, seat: int = 1) -> list[tuple[str, bool]]:
    """The moves of ``seat`` in the deal so far, and whether the table played each for it."""
    return [
        (e["kind"], bool(e.get("auto")))
        for m in sock.messages
        for e in m.get("events", [])
        if e.get("seat") == seat and e["deal"] is not None and e["kind"] != "dealt"
    ]


def test_table_views_never_carry_another_seats_hand(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    stacking.install({"secret": STORY}, monkeypatch.setattr)
    app = make_app(sqlite_url)
    with running(app) as client:
        t, _me = story_table(client, seed="secret")
        mid = t["match_id"]
        bot_hand = live_table(app, mid).deal.hand(0)  # type: ignore[union-attr]
        watch = client.get(f"/api/tables/{mid}", params={"watch_token": t["watch_token"]}).json()["view"]
        mine = client.get(f"/api/tables/{mid}", params={"seat_token": t["seats"][1]["token"]}).json()["view"]
        assert watch["hand"] is None and watch["legal"] is None
        assert mine["hand"]["cards"] == [c for c in STORY_SORTED]
        for view in (watch, mine):
            for seat in view["seats"]:
                assert set(seat) & {"hand", "cards_text", "meter", "leftover"} == set()
            text = repr(view)
            # the bot's hand is spread-out cards Asha does not hold: none of them shows anywhere
            shown = {parse_card(c) for c in _card_words(text)}
            assert not shown & (set(bot_hand) - {parse_card(c) for c in STORY_SORTED} - {parse_card("Qs")})


STORY_SORTED = sorted(STORY["hands"][1].split(), key=parse_card)  # type: ignore[union-attr]


def _card_words(text: str) -> list[str]:
    import re

    return re.findall(r"'((?:10|[2-9AJQK])[shdc]|JK)'", text)


def test_hints_are_refused_where_the_table_has_them_off(sqlite_url: str) -> None:
    app = make_app(sqlite_url)
    with running(app) as client:
        _t, me = story_table(client, seed="nohint")
        got = act(me, type="hint")
        assert got["type"] == "error" and got["reason"] == "hints are off at this table"


@pytest.mark.parametrize("preset", ["rummy40", "nepali"])
def test_a_hint_is_the_hard_bots_move_for_my_own_turn(sqlite_url: str, preset: str) -> None:
    app = make_app(sqlite_url)
    with running(app) as client:
        _t, me = story_table(client, preset=preset, seed="hint", options={"hints": True})
        got = act(me, type="hint")
        assert got["type"] == "hint" and got["version"] == me.version
        assert got["action"] is not None and got["text"].startswith("Hint: ") and got["reason"]
        # the suggestion is a move the table accepts as it stands
        played = act(me, **got["action"])
        assert played["type"] == "update", played


_CARD = r"(?:10|[2-9AJQK])(?:[shdc♠♥♦♣])"


@pytest.mark.parametrize(
    ("action", "reason", "text"),
    [
        (Action.throw(parse_card("Kc")), "throw K♣: it is in no group", "Hint: Throw K♣: it is in no group"),
        (Action.draw_pile(), "Take 7♦: it fits meld 2", "Hint: Take 7♦: it fits meld 2"),
        (
            Action.put_back(),
            "Put Q♠ back: it cannot go down this turn",
            "Hint: Put Q♠ back: it cannot go down this turn",
        ),
        (
            Action.draw_stock(),
            "play on: dropping now would put this seat out",
            "Hint: draw from the stock. Play on: dropping now would put this seat out",
        ),
        (Action.draw_stock(), "", "Hint: draw from the stock."),
    ],
)
def test_a_hint_says_each_card_once(action: Action, reason: str, text: str) -> None:
    """The hint's line was the move in words and then the bot's reason, which names the move again:
    "Hint: throw Kc. throw K♣: ..." said the card twice."""
    import re

    from rummykit.server.hub import hint_text

    got = hint_text(action, reason)
    assert got == text
    cards = [c.translate(str.maketrans("♠♥♦♣", "shdc")) for c in re.findall(_CARD, got)]
    assert len(cards) == len(set(cards)), got


def test_a_hint_names_the_players_as_they_sit_in_the_deal(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the hard bot's reasons say whose meld a card goes onto ("Lay off 10♠ on Asha's run")
    from rummykit.server import hub

    asked: list[Any] = []
    real = hub.hint

    def spy(view: Any, **kwargs: Any) -> Any:
        asked.append((view.seat, kwargs))
        return real(view, **kwargs)

    monkeypatch.setattr(hub, "hint", spy)
    app = make_app(sqlite_url)
    with running(app) as client:
        _t, me = story_table(client, seed="hint", options={"hints": True})
        got = act(me, type="hint")
        assert got["type"] == "hint" and got["action"] is not None
    ((seat, kwargs),) = asked
    assert kwargs["names"][seat] == "Asha" and len(kwargs["names"]) == 2


def test_a_hint_is_only_for_the_seat_to_play(sqlite_url: str) -> None:
    app = make_app(sqlite_url)
    with running(app) as client:
        seats = [{"kind": "human", "name": "Asha"}, {"kind": "human", "name": "Bina"}]
        t = new_table(
            client, preset="rummy40", settings={"players": 2}, seats=seats, seed="h2", options={"hints": True}
        )
        asha, bina = Sock(client, t["match_id"], "Asha"), Sock(client, t["match_id"], "Bina")
        asha.hello(seat_token=t["seats"][0]["token"])
        bina.hello(seat_token=t["seats"][1]["token"])
        asha.wait(lambda: asha.view is not None and asha.view["deal"] is not None)
        got = act(asha, type="hint")  # Bina plays first (the seat left of the dealer)
        assert got["type"] == "error" and got["reason"] == "a hint is for your own turn: Bina is to play"


# ---- the score sheet: Hand Rummy and blocked deals ------------------------------------------------


def _table(preset: str, seed: str, players: int = 2) -> Any:
    from rummykit.engine.rules import get_preset
    from rummykit.server.table import Intent, SeatInfo, Table, TableOptions

    rules = get_preset(preset, players=players)
    seats = [SeatInfo(s, f"P{s + 1}", "human") for s in range(players)]
    table = Table("m1", rules, seed, seats, TableOptions())
    for s in range(players):
        table.commit(s, Intent(step="join"), 0.0)
    table.commit(None, Intent(step="deal"), 0.0)
    return table


def _play(table: Any, seat: int, intent: Any) -> None:
    table.check(seat, intent)
    table.commit(seat, intent, 0.0)


def test_the_sheet_marks_a_blocked_deal() -> None:
    """Nobody melds, every card drawn is thrown: the stock is rebuilt twice, then the deal is
    blocked and the lightest hand wins by what each other hand outweighs it."""
    from rummykit.server.table import Intent

    table = _table("rummy40", "blocked")
    while table.phase == "playing":
        seat, deal = table.to_play(), table.deal
        _play(table, seat, Intent(Action.draw_stock() if deal.phase == "draw" else Action.throw(deal.drawn)))
    view = table.view(0, 0.0)
    result = view["deal"]["result"]
    assert result["ending"] == "blocked" and result["note"] == "blocked"
    assert view["deal"]["rebuilds"] == 2
    counts = {s["seat"]: s["hand_charge"] for s in result["seats"]}
    light = min(counts.values())
    assert {s["seat"]: s["charge"] for s in result["seats"]} == {s: c - light for s, c in counts.items()}
    sheet = view["sheet"]
    row = sheet["rows"][0]
    assert row["note"] == "blocked" and row["cells"][result["winner"]].endswith(" B")
    assert "B blocked deal" in sheet["legend"] and view["match"]["phase"] == "over"


def test_the_sheet_marks_hand_rummy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 1 opens with every card on its first turn: the deal is Hand Rummy, the rival's count
    doubled, and the sheet says so."""
    from rummykit.server.table import Intent

    stacking.install(
        {"hr": {"hands": {1: "As Ah Ad 2c 3c 4c 5c 7s 8s 9s 10s Ks Kd"}, "pile": "2d", "stock": "Kh"}},
        monkeypatch.setattr,
    )
    table = _table("rummy40", "hr")
    _play(table, 1, Intent(Action.draw_stock()))
    melds = table.view(1, 0.0)["legal"]["open"]
    assert sorted(len(m) for m in melds) == [3, 3, 4, 4]
    groups = tuple(tuple(parse_card(c) for c in m) for m in melds)
    _play(table, 1, Intent(Action.open(groups)))
    view = table.view(0, 0.0)
    result = view["deal"]["result"]
    assert result["ending"] == "out" and result["doubled"] and result["note"] == "Hand Rummy"
    rival = next(s for s in result["seats"] if s["seat"] == 0)
    assert rival["charge"] == 2 * rival["hand_charge"] > 0
    row = view["sheet"]["rows"][0]
    assert row["cells"][1] == "0W HR" and row["note"] == "Hand Rummy"
    assert [e.kind for e in table.log][-3:] == ["opened", "deal_ended", "match_over"]


def test_after_opening_a_new_meld_goes_down_and_a_bad_one_says_why(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    stack = {"hands": {1: "Ks Kh Kd 5h 6h 7h 2c 3c 9s 10d Jh Qs 8d"}, "pile": "Ad", "stock": "4c"}
    stacking.install({"laydown": stack}, monkeypatch.setattr)
    app = make_app(sqlite_url)
    with running(app) as client:
        t, me = story_table(client, seed="laydown")
        mid = t["match_id"]
        act(me, type="draw", **{"from": "stock"})
        # the table's own opening would take the clubs too; Asha opens with less and keeps them
        assert me.view is not None and ["2c", "3c", "4c"] in me.view["legal"]["open"]
        opened = act(me, type="open", melds=[["Ks", "Kh", "Kd"], ["5h", "6h", "7h"]])
        assert opened["events"][0]["points"] == 48  # the seed's example: 30 + 18
        assert ["2c", "3c", "4c"] in opened["view"]["legal"]["lay_down"]
        assert (
            refused(app, mid, me, type="lay_down", cards=["9s", "10d", "Jh"])
            == "9s 10d Jh: a run is one suit"
        )
        assert refused(app, mid, me, type="lay_down", cards=["2c", "3c", "4c", "Ac"]).endswith(
            "not in your hand"
        )
        laid = act(me, type="lay_down", cards=["2c", "3c", "4c"])
        event = laid["events"][0]
        assert event["kind"] == "laid_down" and event["meld"]["id"] == 3 and event["meld"]["owner"] == 1
        assert melds_of(laid["view"])[3] == ["2c", "3c", "4c"]
        assert laid["view"]["hand"]["leftover"]["cost"] == laid["view"]["hand"]["count"]


def test_the_clock_pays_what_the_turn_owes_only_when_it_must(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock never melds for a seat, except to put down what the seat's own play left owing:
    Asha swapped the J♣ in and ran out of time holding the freed joker, which a turn cannot end
    with; the table lays it down by the engine's plan, then throws."""
    from rummykit.server.table import Intent

    stacking.install({"owed": STORY}, monkeypatch.setattr)
    table = _table("rummy40", "owed")
    c = parse_card
    _play(table, 1, Intent(Action.draw_stock()))
    _play(
        table,
        1,
        Intent(
            Action.open(
                ((c("Ks"), c("Kh"), c("Kd")), (c("5h"), c("6h"), c("7h")), (c("9c"), c("10c"), c("JK")))
            )
        ),
    )
    _play(table, 1, Intent(Action.swap(3, c("Jc"))))
    assert table.deal.owed_jokers == 1
    first = table.auto_intent(1)
    assert first.auto and first.action is not None and str(first.action.kind) in ("lay off", "lay down")
    assert c("JK") in (first.action.cards or ())
    _play(table, 1, first)
    second = table.auto_intent(1)
    assert second.action is not None and second.action.kind == "throw" and second.auto
    _play(table, 1, second)
    assert table.to_play() == 0


def test_the_clock_leaves_a_remi_player_the_joker_a_swap_freed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Remi 51 (seed 001): a joker freed by a swap is the player's to keep, so the turn may end
    holding it: out of time, the table throws the card drawn and never lays the joker down."""
    from rummykit.server.table import Intent

    stack = {"hands": {1: "Ks Kh Kd Qs Qh Qd 5h JK 7h 6h 2c 9s 4d 8c Jd"}, "stock": "9c 3s 8d"}
    stacking.install({"remi-kept": stack}, monkeypatch.setattr)
    table = _table("remi51", "remi-kept")
    c = parse_card
    _play(table, 1, Intent(Action.throw(c("2c"))))
    _play(table, 0, Intent(Action.draw_stock()))
    _play(table, 0, Intent(Action.throw(table.deal.drawn)))
    _play(table, 1, Intent(Action.draw_stock()))  # 3s
    melds = ((c("Ks"), c("Kh"), c("Kd")), (c("Qs"), c("Qh"), c("Qd")), (c("5h"), c("JK"), c("7h")))
    _play(table, 1, Intent(Action.open(melds)))
    _play(table, 1, Intent(Action.swap(3, c("6h"))))
    assert table.deal.owed_jokers == 0 and c("JK") in table.deal.hand(1)
    auto = table.auto_intent(1)
    assert auto.auto and auto.action == Action.throw(c("3s"))
    _play(table, 1, auto)
    assert table.to_play() == 0 and c("JK") in table.deal.hand(1)


def test_the_clock_throws_for_remis_first_player_who_draws_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Remi 51's first player holds fifteen and draws nothing: out of time, the table throws the
    dearest card (an ace or a ten-count card at Remi), never the joker, and never opens."""
    stacking.install(
        {"remi-clock": {"hands": {1: "As Ah Ad Kc Qc Jc 10c 7s 7h 7d 2h 3s 4d 9h JK"}}},
        monkeypatch.setattr,
    )
    table = _table("remi51", "remi-clock")
    assert table.to_play() == 1 and table.deal.phase is Phase.PLAY and table.deal.drawn is None
    auto = table.auto_intent(1)
    assert auto.action is not None and auto.action.kind == "throw" and auto.auto
    card = auto.action.card
    assert card is not None and card != parse_card("JK") and table.rules.ace_value == 10
    assert card in {parse_card(t) for t in ("As", "Ah", "Ad", "Kc", "Qc", "Jc", "10c")}
    _play(table, 1, auto)
    assert table.to_play() == 0 and not any(e.kind == "opened" for e in table.log)


def test_a_game_the_hint_bot_cannot_read_gets_a_clear_answer(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_hint(view: Any) -> Any:
        raise ValueError("hard plays the show family")

    monkeypatch.setattr(hub_module, "hint", no_hint)
    app = make_app(sqlite_url)
    with running(app) as client:
        _t, me = story_table(client, seed="nohint2", options={"hints": True})
        got = act(me, type="hint")
        assert got == {
            "type": "hint",
            "version": me.version,
            "action": None,
            "text": "No hint for this game yet.",
            "reason": None,
            "id": got["id"],
        }
        assert me.view is not None and me.view["legal"] is not None  # nothing changed: still my turn
