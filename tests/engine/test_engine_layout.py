"""The engine's layout: modules by family with no import circle, one dispatch table per family,
and an action judged once (a show asks the arranger about its thirteen once)."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import rummykit.engine
from rummykit.engine.arrange import Arranger
from rummykit.engine.cards import JOKER, parse_card, parse_cards
from rummykit.engine.deal import new_deal
from rummykit.engine.deal_base import Deal, IllegalAction, stacked_shoe
from rummykit.engine.events import Action, ActionKind, Phase, Showed, WrongShow
from rummykit.engine.rules import Rules, get_preset
from rummykit.engine.show import ShowDeal
from rummykit.engine.table_family import TableDeal

ENGINE = Path(rummykit.engine.__file__).parent
ABOVE = ("bots", "cli", "server", "storage", "tui", "sheet")  # the layers over the engine


def _modules() -> list[str]:
    return sorted(p.stem for p in ENGINE.glob("*.py") if p.stem != "__init__")


def _imports(module: str) -> set[str]:
    """The rummykit modules ``module`` imports at its top level (or in a function when it is
    loaded: those run later but still point one way), without what only a type checker reads."""
    tree = ast.parse((ENGINE / f"{module}.py").read_text())
    found: set[str] = set()

    def walk(nodes: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue  # never executed: an annotation's import cannot make a circle
            yield node
            for field in ("body", "orelse", "finalbody", "handlers"):
                yield from walk(getattr(node, field, []))

    for node in walk(tree.body):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("rummykit"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rummykit"):
            if node.module == "rummykit.engine":
                found.update(f"rummykit.engine.{a.name}" for a in node.names)
            else:
                found.add(node.module)
    return found


def test_every_engine_module_imports_alone_in_a_fresh_interpreter() -> None:
    # One interpreter per module, so no module is imported with another one's help.
    for module in _modules():
        done = subprocess.run(
            [sys.executable, "-c", f"import rummykit.engine.{module}"], capture_output=True, text=True
        )
        assert done.returncode == 0, f"rummykit.engine.{module}: {done.stderr.strip()[-400:]}"


def test_the_engine_import_graph_has_no_circle() -> None:
    graph = {
        m: {i.removeprefix("rummykit.engine.") for i in _imports(m) if i.startswith("rummykit.engine.")}
        for m in _modules()
    }
    assert "deal" in graph["history"] and "deal_base" in graph["show"]  # the walk sees imports
    # Depth-first search: a module met again while it is still on the path closes a circle.
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(m: str) -> None:
        state[m] = "open"
        path.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == "open":
                circle = [*path[path.index(n) :], n]
                pytest.fail(f"an import circle: {' -> '.join(circle)}")
            if n not in state:
                visit(n)
        path.pop()
        state[m] = "done"

    for m in graph:
        if m not in state:
            visit(m)


def test_the_families_and_their_base_import_one_way() -> None:
    assert not {"show", "table_family", "deal"} & {i.rsplit(".", 1)[-1] for i in _imports("deal_base")}
    assert "rummykit.engine.table_family" not in _imports("show")
    assert "rummykit.engine.show" not in _imports("table_family")
    assert not {"rummykit.engine.deal", "rummykit.engine.table_deal", "rummykit.engine.opening"} & (
        _imports("show") | _imports("table_family") | _imports("melds") | _imports("table_arranger")
    )


def test_the_engine_imports_nothing_from_the_layers_above_it() -> None:
    for module in _modules():
        above = sorted(i for i in _imports(module) if i.split(".")[1] in ABOVE)
        assert not above, f"rummykit.engine.{module} imports {above}"


# ---- the dispatch table ----------------------------------------------------------------------

SHARED = {ActionKind.DRAW_STOCK, ActionKind.DRAW_PILE, ActionKind.THROW}


def test_each_family_has_one_rule_per_action_kind_made_from_its_own_methods() -> None:
    assert set(ShowDeal.action_rules) == SHARED | {ActionKind.DROP, ActionKind.SHOW}
    table = {ActionKind.OPEN, ActionKind.LAY_DOWN, ActionKind.LAY_OFF, ActionKind.SWAP, ActionKind.PUT_BACK}
    assert set(TableDeal.action_rules) == SHARED | table
    assert set(ShowDeal.action_rules) | set(TableDeal.action_rules) == set(ActionKind)
    for cls in (ShowDeal, TableDeal):
        for kind, (check, apply) in cls.action_rules.items():
            name = cls.action_names[kind]
            assert check is getattr(cls, f"_check_{name}") and apply is getattr(cls, f"_apply_{name}")
    # a family's override is its rule: the table family's pile card must go down
    assert TableDeal.action_rules[ActionKind.DRAW_PILE][1] is TableDeal._apply_draw_pile
    assert TableDeal._apply_draw_pile is not Deal._apply_draw_pile


def test_the_phase_after_the_draw_is_throw_for_the_show_family_and_play_for_the_table_family() -> None:
    for preset, phase in (("nepali", Phase.THROW), ("rummy40", Phase.PLAY), ("remi51", Phase.PLAY)):
        deal = new_deal(get_preset(preset), 3)
        if deal.phase is Phase.DRAW:
            deal.apply(deal.to_play or 0, Action.draw_stock())
        assert deal.phase is phase and deal.view(deal.to_play).phase is phase
        assert phase.step == "throw"  # the wire's word for it, as before Phase.PLAY
    assert Phase.DRAW.step == "draw" and Phase.OVER.step == "over"


def test_an_action_of_a_kind_the_family_lacks_is_refused_and_changes_nothing() -> None:
    show, table = new_deal(get_preset("nepali"), 1), new_deal(get_preset("rummy40"), 1)
    for deal, action in ((show, Action.put_back()), (table, Action.drop())):
        before = deal.fingerprint()
        assert deal.can(deal.to_play or 0, action).reason == f"{action.kind} is not an action at this table"
        with pytest.raises(IllegalAction):
            deal.apply(deal.to_play or 0, action)
        assert deal.fingerprint() == before


# ---- a show is judged once -------------------------------------------------------------------

NEPALI = get_preset("nepali")
SHOW_HAND = "Ah 2h 3h 4c 6c 7s 8s 5d 10s Kd Kc Kh Js"  # with 5c and fives wild: a show throwing Js
WRONG_HAND = "Ks Kd Kc 10s 10h 10c 8s 8h 8c 6s 6h 6c 4d"  # sets only: no pure run


def _show_deal(rules: Rules, hand: str) -> ShowDeal:
    """Seat 1 (first to play) holds ``hand``, the stock's top card is 5c and fives are wild."""
    given = parse_cards(hand)
    left = Counter({k: rules.packs for k in range(52)})
    left[JOKER] = rules.printed_jokers
    left.subtract([*given, parse_card("Qc"), parse_card("5h"), parse_card("5c")])
    spare = [k for k in sorted(left.elements())]
    hands = [spare[13 * i : 13 * i + 13] for i in range(3)]
    order = stacked_shoe(
        rules, [hands[0], given, hands[1], hands[2]], parse_card("Qc"), parse_card("5h"), [parse_card("5c")]
    )
    deal = ShowDeal.from_shoe(rules, order)
    deal.apply(1, Action.draw_stock())
    return deal


def _count_arranger(monkeypatch: pytest.MonkeyPatch, thirteen: str) -> list[str]:
    """Count the arranger's answers about exactly these thirteen cards (the others' hands are
    counted at the end of a deal, which is settling it, not judging the show)."""
    calls: list[str] = []
    want = sorted(parse_cards(thirteen))
    for name in ("arrange", "can_show", "charge", "finishing", "best_throw"):
        real = getattr(Arranger, name)

        def counted(
            self: Arranger, kinds: Sequence[int], wild: int | None, *a: object, _r: Any = real, _n: str = name
        ) -> object:
            if sorted(kinds) == want:
                calls.append(_n)
            return _r(self, kinds, wild, *a)

        monkeypatch.setattr(Arranger, name, counted)
    return calls


@pytest.mark.parametrize("how", ["apply", "show", "can then apply"])
def test_a_show_asks_the_arranger_about_its_thirteen_once(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    deal = _show_deal(NEPALI, SHOW_HAND)
    calls = _count_arranger(monkeypatch, SHOW_HAND.replace("Js", "5c"))
    action = Action.show(parse_card("Js"))
    if how == "apply":
        event = deal.apply(1, action)
    elif how == "show":
        event = deal.show(1, parse_card("Js"))
    else:
        assert deal.can(1, action)
        event = deal.apply(1, action)  # the server's order: the check's answer is kept
    assert isinstance(event, Showed) and deal.over
    assert calls == ["arrange"]
    assert event.text() == "1 show Js: Ah 2h 3h | 4c 5c 6c | 7s 8s 5d 10s | Kh Kd Kc"


def test_a_wrong_show_asks_the_arranger_once_too(monkeypatch: pytest.MonkeyPatch) -> None:
    kerala = get_preset("kerala")
    deal = _show_deal(kerala, WRONG_HAND)
    calls = _count_arranger(monkeypatch, WRONG_HAND)
    event = deal.apply(1, Action.show(parse_card("5c")))
    assert isinstance(event, WrongShow) and event.penalty == kerala.wrong_show
    assert calls == ["arrange"]


def test_a_check_kept_for_one_seat_and_action_object_is_not_reused_for_another() -> None:
    deal = _show_deal(NEPALI, SHOW_HAND)
    action = Action.show(parse_card("Js"))
    assert deal.can(1, action)
    assert deal.can(2, action).reason == "not your turn: seat 1 is to play"
    assert deal.can(True, action).reason.startswith("no seat True")
    before = deal.fingerprint()
    with pytest.raises(IllegalAction):
        deal.apply(True, action)
    assert deal.fingerprint() == before
