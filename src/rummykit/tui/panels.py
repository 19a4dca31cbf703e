"""The full-screen game's panels, as Rich text, made only from what the person's seat may see.

Like :mod:`rummykit.tui.render` (whose pieces these reuse), nothing here reads a deal: the
table comes from the seat's :class:`~rummykit.engine.views.SeatView`, the hand from the
person's own :class:`~rummykit.tui.hand.Layout` of that view's hand, the moves from the
events as the seat saw them.  Every function takes the width it must fit and returns lines no
wider, so a screen fits its terminal by construction (the tests check it at 80x24).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rich.console import Console
from rich.text import Text

from rummykit.engine.cards import JOKER, RANK_PLURALS
from rummykit.engine.events import ActionKind, Phase, SeatStatus
from rummykit.engine.groups import check_group, is_wild
from rummykit.engine.opening import place_meld
from rummykit.engine.rules import Rules
from rummykit.engine.views import SeatView
from rummykit.tui.hand import Held, Layout
from rummykit.tui.render import Part, card_plain, card_text, cards_text, line_text, meld_text

__all__ = [
    "CELL",
    "KeyHint",
    "group_label",
    "hand_lines",
    "header_lines",
    "help_lines",
    "keys_lines",
    "meld_lines",
    "moves_lines",
    "seat_lines",
]

CELL: Final = 4  # a card's column: up to three characters ("10♥") and a space
CURSOR_STYLE: Final = "reverse"
MARK_STYLE: Final = "on dark_blue"


def _fit(text: Text, width: int) -> Text:
    """``text`` cut to ``width`` cells with an ellipsis (one line)."""
    if text.cell_len > width:
        text = text.copy()
        text.truncate(max(1, width), overflow="ellipsis")
    return text


# ---- the table ---------------------------------------------------------------------------


def wild_text(view: SeatView) -> Text:
    """The show family's wild cards and the cut card; the table family's jokers."""
    rules = view.rules
    out = Text()
    if rules.is_table:
        out.append(f"{rules.printed_jokers} jokers wild" if rules.printed_jokers else "no jokers")
        return out
    jokers = " and jokers" if rules.printed_jokers else ""
    if view.wild is None:
        out.append("Wild: ", style="bold")
        out.append("printed jokers only" if rules.printed_jokers else "none")
    else:
        out.append("Wild: ", style="bold")
        out.append(RANK_PLURALS[view.wild] + jokers, style="bold magenta")
    if view.cut is not None:
        out.append(" (cut ")
        out.append_text(card_text(view.cut))
        out.append(")")
    return out


def header_lines(
    view: SeatView, title: str, deal_text: str, width: int, names: Sequence[str], thrower: int | None
) -> list[Text]:
    """Two lines: the deal and turn, the wild cards; the stock, the pile's top and who threw it."""
    head = Text(title, style="bold")
    head.append(f" · {deal_text} · turn {view.turn}")
    if view.rules.turn_limit is not None:
        head.append(f" of {view.turn_limit}")
    wild = wild_text(view)
    if head.cell_len + 3 + wild.cell_len <= width:
        head.append(" " * (width - head.cell_len - wild.cell_len))
        head.append_text(wild)
        lines = [head]
    else:
        lines = [_fit(head, width), _fit(wild, width)]
    table = Text("Stock ", style="bold")
    table.append(f"{view.stock_count}")
    if view.rebuilds:
        table.append(f" (rebuilt {view.rebuilds}×)")
    table.append(" · ")
    table.append("Pile ", style="bold")
    if view.pile_top is None:
        table.append("empty")
    else:
        table.append_text(card_text(view.pile_top, view.wild))
        if thrower is not None:
            table.append(f" thrown by {'you' if thrower == view.seat else names[thrower]}", style="dim")
        under = view.pile[-2::-1]
        if under:
            table.append(" · under it ")
            table.append_text(cards_text(under[:8], view.wild))
            if len(under) > 8:
                table.append(" …")
    lines.append(_fit(table, width))
    return lines


def _seat_cell(
    view: SeatView, s: int, names: Sequence[str], kinds: Sequence[str], totals: Sequence[str], width: int
) -> Text:
    me = s == view.seat
    out = Text("▶ " if view.to_play == s else "  ", style="bold yellow")
    out.append(names[s][:12], style="bold cyan" if me else "bold")
    if kinds[s]:
        out.append(f" {kinds[s]}", style="dim")
    status = view.statuses[s]
    if status is SeatStatus.DROPPED:
        out.append(" dropped", style="yellow")
    elif status is SeatStatus.OUT:
        out.append(" out (wrong show)", style="red")
    else:
        out.append(f" {view.card_counts[s]} cards")
        if view.opened and view.opened[s]:
            out.append(" opened", style="green")
    if totals[s]:
        out.append(f" {totals[s]}")
    if s == view.dealer:
        out.append(" (deals)", style="dim")
    took = view.took[s]
    if took:
        tail = Text(" took ", style="dim")
        room = width - out.cell_len - tail.cell_len
        shown = max(0, min(len(took), room // 3))
        if shown:
            if shown < len(took):
                tail.append("… ")
                shown = max(1, shown - 1)
            tail.append_text(cards_text(took[-shown:], view.wild))
            out.append_text(tail)
    return _fit(out, width)


def seat_lines(
    view: SeatView,
    names: Sequence[str],
    kinds: Sequence[str],
    totals: Sequence[str],
    width: int,
    *,
    columns: int = 1,
) -> list[Text]:
    """A cell a seat: ``▶`` the seat to play, its name and bot, its cards (a count), opened,
    dropped or out, its total, the dealer, the cards it took from the pile.  ``columns`` cells
    a line."""
    columns = max(1, columns)
    cell = (width - 2 * (columns - 1)) // columns
    cells = [_seat_cell(view, s, names, kinds, totals, cell) for s in range(view.players)]
    lines = []
    for i in range(0, len(cells), columns):
        line = Text()
        for j, c in enumerate(cells[i : i + columns]):
            if j:
                line.append(" " * (cell - cells[i + j - 1].cell_len + 2))
            line.append_text(c)
        lines.append(line)
    return lines


def meld_lines(view: SeatView, names: Sequence[str], width: int, chosen: Sequence[int] = ()) -> list[Text]:
    """The melds on the table, one line an owner (wrapped): ``[3] 7♥ 8♥ 9♥``, the number being
    what a lay-off or a swap names; ``chosen`` melds are highlighted."""
    lines: list[Text] = []
    by_owner: dict[int, list[Text]] = {}
    for m in view.melds:
        item = Text(f"[{m.id}] ", style="bold reverse cyan" if m.id in chosen else "bold cyan")
        item.append_text(meld_text(m.cards, m.stands_for))
        by_owner.setdefault(m.owner, []).append(item)
    for owner, items in sorted(by_owner.items()):
        who = "You" if owner == view.seat else names[owner]
        line = Text(f"{who[:10]}: ", style="bold")
        indent = line.cell_len
        for item in items:
            item = _fit(item, width - indent)
            if line.cell_len > indent and line.cell_len + 2 + item.cell_len > width:
                lines.append(line)
                line = Text(" " * indent)
            elif line.cell_len > indent:
                line.append("  ")
            line.append_text(item)
        lines.append(line)
    return lines


def moves_lines(lines: Sequence[Sequence[Part]], wild: int | None, width: int, height: int) -> list[Text]:
    """The last moves that fit ``height`` lines of ``width`` (a long move wraps)."""
    out: list[Text] = []
    for parts in reversed(lines):
        text = line_text(parts, wild)
        wrapped = list(text.wrap(_CONSOLE, width, overflow="fold"))
        if len(out) + len(wrapped) > height:
            if not out:
                out = [_fit(wrapped[0], width)]
            break
        out = wrapped + out
    return out


# wraps text (never prints)
_CONSOLE: Final = Console(file=io.StringIO(), width=400, color_system=None)


# ---- the hand ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Label:
    text: str
    style: str
    notes: tuple[str, ...]  # per card: what a wild card stands for


def group_label(kinds: Sequence[int], rules: Rules, wild: int | None) -> tuple[str, str, tuple[str, ...]]:
    """What a group the person made is under the rules (``pure run``, ``set``, ...; ``loose``
    when it is no group), its style, and a note a card (``=6♥`` under a stand-in)."""
    n = len(kinds)
    blank = ("",) * n
    if rules.is_table:
        placed, _ = place_meld(kinds, rules) if n >= 3 else (None, "")
        if placed is None:
            return ("loose" if n > 1 else "", "yellow", blank)
        # place_meld reorders a run: read each joker's slot from the meld as placed
        slots = [s for c, s in zip(placed.cards, placed.stands_for, strict=True) if c == JOKER]
        notes = []
        for k in kinds:
            notes.append("=" + card_plain(slots.pop(0)) if k == JOKER and slots else "")
        return (placed.kind, "cyan", tuple(notes))
    if n < 3:
        return ("loose" if n > 1 else "", "yellow", tuple("wild" if is_wild(k, wild) else "" for k in kinds))
    check = check_group(kinds, rules, wild)
    if not check.ok:
        return ("loose", "yellow", tuple("wild" if is_wild(k, wild) else "" for k in kinds))
    notes = []
    for i, k in enumerate(kinds):
        s = check.stands_for[i] if check.stands_for is not None else None
        if k == JOKER:
            notes.append("any" if s is None else "=" + card_plain(s))
        elif is_wild(k, wild) and s is not None and s != k:
            notes.append("=" + card_plain(s))
        else:
            notes.append("")
    if check.kind == "jokers":
        return ("jokers", "magenta", tuple(notes))
    if check.kind == "thennaali":
        return ("thennaali", "green", tuple(notes))
    if check.is_run:
        return (("pure run", "green") if check.pure else ("run", "cyan")) + (tuple(notes),)
    return ("set", "cyan", tuple(notes))


def hand_lines(layout: Layout, view: SeatView, width: int, *, cursor: bool = True) -> list[Text]:
    """The hand as the person laid it out: a label over each group, the cards, notes under
    them (``=6♥``, ``wild``, ``new``), and a row with the cursor ``▲`` and marks ``✓``.  Groups
    wrap to ``width``; they sit two cells apart, or one when that keeps the hand on one block."""
    labelled: list[tuple[list[Held], _Label]] = []
    for g in layout.groups:
        labelled.append((g, _Label(*group_label([h.kind for h in g], view.rules, view.wild))))

    def seg_width(g: list[Held], lab: _Label) -> int:
        return max(CELL * len(g), len(lab.text) + 1)

    total = sum(seg_width(g, lab) for g, lab in labelled)
    gap = 2 if total + 2 * (len(labelled) - 1) <= width else 1
    blocks: list[list[tuple[list[Held], _Label]]] = [[]]
    used = 0
    for g, lab in labelled:
        w = seg_width(g, lab)
        if blocks[-1] and used + gap + w > width:
            blocks.append([])
            used = 0
        used += w + (gap if blocks[-1] else 0)
        blocks[-1].append((g, lab))
    current = layout.current if cursor else None
    lines: list[Text] = []
    for block in blocks:
        labels, cards, notes, marks = Text(), Text(), Text(), Text()
        rows = (labels, cards, notes, marks)
        start = 0
        for i, (g, lab) in enumerate(block):
            if i:
                start += gap
                for row in rows:
                    row.append(" " * (start - row.cell_len))
            labels.append(lab.text, style=lab.style)
            for held, note in zip(g, lab.notes, strict=True):
                face = card_text(held.kind, view.wild)
                here = held is current
                is_marked = held.uid in layout.marked
                if is_marked:
                    face.stylize(MARK_STYLE)
                if here:
                    face.stylize(CURSOR_STYLE)
                cards.append(" " * (CELL - face.cell_len))
                cards.append_text(face)
                word = note or ("new" if held.uid == layout.fresh else "")
                notes.append(f"{word:>{CELL}}", style="bold" if word == "new" else "dim")
                sign = ("✓" if is_marked else " ") + ("▲" if here else " ")
                marks.append(f"{sign:>{CELL}}", style="bold yellow")
            start += seg_width(g, lab)
            for row in rows:
                row.append(" " * max(0, start - row.cell_len))
        for row in rows:
            row.rstrip()
            lines.append(row)
    return lines


# ---- the keys ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KeyHint:
    key: str
    what: str


def keys_lines(hints: Sequence[KeyHint], width: int) -> list[Text]:
    """Key hints, as many lines as they need at ``width``."""
    lines: list[Text] = [Text()]
    for h in hints:
        item = Text(h.key, style="bold cyan")
        item.append(" " + h.what)
        if lines[-1].cell_len and lines[-1].cell_len + 2 + item.cell_len > width:
            lines.append(Text())
        elif lines[-1].cell_len:
            lines[-1].append("  ")
        lines[-1].append_text(_fit(item, width))
    return lines


def turn_keys(view: SeatView, *, hints: bool, busy: bool) -> list[KeyHint]:
    """The keys that do something now, most useful first."""
    kinds = {a.kind for a in view.legal}
    out: list[KeyHint] = []
    if busy or not view.my_turn:
        out.append(KeyHint("…", "the others are playing"))
    elif view.phase is Phase.DRAW:
        if ActionKind.DRAW_STOCK in kinds:
            out.append(KeyHint("s", "stock"))
        if ActionKind.DRAW_PILE in kinds and view.pile_top is not None:
            out.append(KeyHint("p", "pile " + card_plain(view.pile_top)))
        if ActionKind.DROP in kinds:
            out.append(KeyHint("d", f"drop ({view.drop_cost})"))
    else:
        if ActionKind.THROW in kinds:
            out.append(KeyHint("t/⏎", "throw"))
        if ActionKind.SHOW in kinds:
            out.append(KeyHint("w", "show"))
        if ActionKind.OPEN in kinds:
            out.append(KeyHint("o", "open"))
        if ActionKind.LAY_DOWN in kinds:
            out.append(KeyHint("m", "meld"))
        if ActionKind.LAY_OFF in kinds:
            out.append(KeyHint("f", "lay off"))
        if ActionKind.SWAP in kinds:
            out.append(KeyHint("x", "swap joker"))
        if ActionKind.PUT_BACK in kinds:
            out.append(KeyHint("b", "put back"))
    out += [
        KeyHint("←→", "cursor"),
        KeyHint("space", "mark"),
        KeyHint("<>", "move"),
        KeyHint("g", "group"),
        KeyHint("r", "sort"),
        KeyHint("v", "log"),
        KeyHint("c", "sheet"),
    ]
    if hints:
        out.append(KeyHint("a", "hint"))
    out += [KeyHint("?", "keys"), KeyHint("q", "quit")]
    return out


def help_lines(rules: Rules, *, hints: bool) -> list[tuple[str, str]]:
    """Every key of the full-screen game, with what it does at this table."""
    lines = [
        ("← → or h l", "move the cursor over your cards (Home, End; Tab: the next group)"),
        ("space", "mark the card under the cursor (again: unmark); Esc clears the marks"),
        ("< > or Shift+← →", "move the card under the cursor; past a group's edge it joins the next"),
        ("n", "the marked cards (or the cursor's card) become a group of their own"),
        ("g", "group the hand the way the rules read it (the arranger)"),
        ("r", "sort by suit; again: by rank"),
        ("s", "draw the top card of the stock"),
        ("p", "take the top card of the pile" + ("" if rules.is_show else ": it must go down this turn")),
        ("t or Enter", "throw the card under the cursor (or the one card marked)"),
    ]
    if rules.is_show:
        lines.append(("w", "show: throw the finishing card (the one under the cursor, if it is one)"))
        if rules.dropping_allowed:
            cost = f"{rules.drop_first} ({rules.drop_middle} later)"
            lines.append(("d", f"before drawing: drop out for {cost}"))
    else:
        lines += [
            ("o", f"open: the marked cards, one meld a group, or the best opening ({rules.opening}+)"),
            ("m", "lay down the marked cards as a meld (none marked: the meld the strip names)"),
            ("f", "lay off the marked cards onto a meld you pick (none marked: the strip's)"),
            ("x", "swap the card under the cursor for a joker on the table"),
            ("b", "put back the card you took from the pile"),
        ]
    lines += [
        ("v", "the whole deal's log, as your seat saw it"),
        ("c", "the score sheet"),
        ("S", "save the match's hand histories (written once the match is over)"),
    ]
    if hints:
        lines.append(("a", "a hint: what the hard bot would do now, and why"))
    lines += [("?", "this help"), ("q", "quit (asks first)")]
    return lines


def short_help(rules: Rules, *, hints: bool) -> list[tuple[str, str]]:
    """The keys in a few words each, for the column beside the table on a wide terminal."""
    lines = [
        ("← → h l", "cursor (Tab: next group)"),
        ("space / Esc", "mark / clear marks"),
        ("< > ⇧← ⇧→", "move the card"),
        ("n", "marked cards: a new group"),
        ("g / r", "group / sort"),
        ("s / p", "draw stock / pile"),
        ("t ⏎", "throw"),
    ]
    if rules.is_show:
        lines.append(("w", "show"))
        if rules.dropping_allowed:
            lines.append(("d", f"drop ({rules.drop_first}/{rules.drop_middle})"))
    else:
        lines += [
            ("o", f"open ({rules.opening}+)"),
            ("m", "lay down a meld"),
            ("f", "lay off onto a meld"),
            ("x", "swap for a joker"),
            ("b", "put back the pile card"),
        ]
    lines += [("v", "the deal's log"), ("c", "score sheet"), ("S", "save hand histories")]
    if hints:
        lines.append(("a", "hint"))
    lines += [("?", "all keys"), ("q", "quit")]
    return lines
