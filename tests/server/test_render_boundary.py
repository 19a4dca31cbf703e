"""The renderer, the server's half of the hidden-information boundary, only ever holds views.

It imports no deal (nor the table, the session or the hub that hold one); at its door it refuses
a deal, another seat's view and an event with a card its viewer may not see; and in real matches
of both families, played through the protocol, every argument it was ever given (searched all
the way down) holds no deal and no other seat's hand.  (``test_server_invariants`` checks every
message the clients got against the true cards.)
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Sock, drive, live_table, make_app, new_table, phase_of, running

import rummykit.bots.coach
import rummykit.server.render
from rummykit.engine.deal import Deal, ShowDeal
from rummykit.engine.events import Dealt, DrewStock, Event
from rummykit.engine.rules import get_preset
from rummykit.engine.views import SeatView, SpectatorView
from rummykit.server.render import Note, Renderer
from rummykit.server.table import Table

FORBIDDEN_MODULES = {
    "rummykit.engine.deal",
    "rummykit.engine.session",
    "rummykit.engine.driver",
    "rummykit.engine.history",
    "rummykit.server.table",
    "rummykit.server.hub",
}
FORBIDDEN_NAMES = {"Deal", "ShowDeal", "TableDeal", "new_deal", "MatchSession", "Table"}


@pytest.mark.parametrize("module", [rummykit.server.render, rummykit.bots.coach], ids=lambda m: m.__name__)
def test_the_renderer_and_the_coach_import_no_deal(module: Any) -> None:
    tree = ast.parse(Path(module.__file__).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not {a.name for a in node.names} & FORBIDDEN_MODULES, ast.dump(node)
        elif isinstance(node, ast.ImportFrom):
            assert node.module not in FORBIDDEN_MODULES, node.module
            assert not {a.name for a in node.names} & FORBIDDEN_NAMES, (
                node.module,
                [a.name for a in node.names],
            )


def _renderer_and_table() -> tuple[Renderer, Table]:
    from rummykit.server.table import Intent, SeatInfo, TableOptions

    rules = get_preset("nepali", players=2)
    table = Table(
        "m1", rules, "door", [SeatInfo(0, "Asha", "human"), SeatInfo(1, "Bina", "human")], TableOptions()
    )
    for s in (0, 1):
        table.commit(s, Intent(step="join"), 0.0)
    table.commit(None, Intent(step="deal"), 0.0)
    return table.renderer, table


def test_the_renderer_refuses_a_deal_and_another_seats_view() -> None:
    renderer, table = _renderer_and_table()
    deal = table.deal
    assert isinstance(deal, ShowDeal)
    state = table.state()
    with pytest.raises(TypeError, match="not ShowDeal"):
        renderer.view(state, deal, None, viewer=None, deadline=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not ShowDeal"):
        renderer.view(state, deal.view(None), deal, viewer=0, deadline=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="SpectatorView of the deal, not SeatView"):
        renderer.view(state, deal.view(1), deal.view(0), viewer=0, deadline=None)
    with pytest.raises(ValueError, match="not another seat's"):
        renderer.view(state, deal.view(None), deal.view(1), viewer=0, deadline=None)
    assert renderer.view(state, deal.view(None), deal.view(0), viewer=0, deadline=None)["hand"] is not None


def test_the_renderer_refuses_an_event_its_viewer_may_not_see() -> None:
    renderer, table = _renderer_and_table()
    dealt = table.log[-1]
    assert isinstance(dealt.event, Dealt)
    unredacted = Note(dealt.version, "dealt", 0, 0, event=dealt.event, seats=dealt.seats, viewer_seat=0)
    with pytest.raises(ValueError, match="a hand its viewer may not see"):
        renderer.event(unredacted)
    own = dataclasses.replace(unredacted, event=dealt.event.seen_by(0))
    assert renderer.event(own)["hand"]
    drew = DrewStock(seq=1, seat=1, card=5)
    with pytest.raises(ValueError, match="did not draw it"):
        renderer.event(Note(9, "drew_stock", 1, 0, event=drew, seats=(0, 1), viewer_seat=0))


def _holds(value: Any, what: type, seen: set[int], depth: int = 0) -> bool:
    """Whether ``value`` holds a ``what`` anywhere inside (dataclasses, containers, objects)."""
    if isinstance(value, what):
        return True
    if value is None or isinstance(value, str | int | float | bool) or id(value) in seen or depth > 12:
        return False
    seen.add(id(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        inner: Any = [getattr(value, f.name) for f in dataclasses.fields(value)]
    elif isinstance(value, dict):
        inner = list(value.keys()) + list(value.values())
    elif isinstance(value, list | tuple | set | frozenset):
        inner = list(value)
    elif hasattr(value, "__dict__"):
        inner = list(vars(value).values())
    else:
        return False
    return any(_holds(v, what, seen, depth + 1) for v in inner)


GAMES = [
    ("nepali", {"players": 3}, ["h", "greedy", "h"]),
    ("pool101", {"players": 3}, ["h", "random", "random"]),
    ("rummy40", {"players": 3}, ["h", "greedy", "h"]),
    ("remi51", {"players": 2}, ["h", "greedy"]),
]


@pytest.mark.parametrize(("preset", "settings", "kinds"), GAMES, ids=[g[0] for g in GAMES])
def test_in_real_matches_the_renderer_is_given_views_only(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch, preset: str, settings: dict[str, Any], kinds: list[str]
) -> None:
    given: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    view, event = Renderer.view, Renderer.event

    def spy_view(self: Renderer, *args: Any, **kwargs: Any) -> dict[str, Any]:
        given.append(("view", args, kwargs))
        return view(self, *args, **kwargs)

    def spy_event(self: Renderer, note: Note) -> dict[str, Any]:
        given.append(("event", (note,), {}))
        return event(self, note)

    monkeypatch.setattr(Renderer, "view", spy_view)
    monkeypatch.setattr(Renderer, "event", spy_event)
    app = make_app(sqlite_url)
    with running(app) as client:
        seats = [{"kind": "human"} if k == "h" else {"kind": "bot", "bot": k} for k in kinds]
        t = new_table(client, preset=preset, settings=settings, seats=seats, seed=f"boundary-{preset}")
        socks = []
        for info in t["seats"]:
            if info["kind"] == "human":
                sock = Sock(client, t["match_id"], info["name"])
                sock.hello(seat_token=info["token"])
                socks.append(sock)
        watcher = Sock(client, t["match_id"], "watch")
        watcher.hello(watch_token=t["watch_token"])
        drive([*socks, watcher], lambda: phase_of(watcher) == "over", timeout=120)
        assert live_table(app, t["match_id"]).phase == "over"
    views = [g for g in given if g[0] == "view"]
    events = [g for g in given if g[0] == "event"]
    assert len(views) > 50 and len(events) > 50
    for _kind, args, kwargs in given:
        assert not _holds((args, kwargs), Deal, set()), "the renderer was given a deal"
    for _kind, (state, deal, mine, _refusals), kwargs in views:
        assert deal is None or type(deal) is SpectatorView
        if mine is not None:
            assert type(mine) is SeatView and state.deal_seats[mine.seat] == kwargs["viewer"]
    for _kind, (note,), _kw in events:
        ev: Event | None = note.event
        if ev is not None:
            assert ev.seen_by(note.viewer_seat) == ev  # already as its viewer sees it
