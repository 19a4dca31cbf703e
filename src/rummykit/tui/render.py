"""Rich renderables for the terminal table, made only from what the human seat may see.

Nothing here reads a deal: the table comes from the seat's
:class:`~rummykit.engine.views.SeatView`, the hand's layout from the arranger's
:class:`~rummykit.engine.arrange.Arrangement` of that view's hand, the sheet from the
:class:`~rummykit.engine.match.Match`.  So a screen cannot show a bot's hand or the stock.

Cards are printed with suit symbols (red hearts and diamonds, a joker as ``JK``), and every
screen reads the same without colour: jokers in groups say what they stand for (``=6♥``), wild
cards left loose say ``wild``, the card just drawn says ``new``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from rich import box
from rich.console import Group as RichGroup
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from rummykit.engine import words
from rummykit.engine.arrange import Arrangement, Group
from rummykit.engine.cards import JOKER, RANK_PLURALS, RANK_TEXT, SUIT_NAMES, SUIT_SYMBOLS, sort_key
from rummykit.engine.events import ActionKind, DealResult, Ending, Phase, SeatStatus
from rummykit.engine.groups import check_group, is_wild
from rummykit.engine.match import (
    LEGEND,
    Match,
    PointsFormat,
    PoolFormat,
    Standing,
    Status,
    charge_text,
    legend,
    rejoins_after_last,
)
from rummykit.engine.opening import Leftover, place_meld
from rummykit.engine.rules import Rules, RulesError, get_preset
from rummykit.engine.table_deal import ENDING_MARKS, SHEET_LEGENDS
from rummykit.engine.views import SeatView
from rummykit.engine.words import Card, Part

__all__ = [
    "Card",
    "Part",
    "Segment",
    "Slot",
    "by_suit",
    "card_plain",
    "card_text",
    "deal_result",
    "grouped",
    "hand_lines",
    "help_text",
    "keys_line",
    "line_plain",
    "line_text",
    "meld_text",
    "melds_table",
    "needs_text",
    "seat_table",
    "sheet_table",
    "strip",
    "table_help_text",
    "table_keys_line",
    "table_lines",
    "table_segments",
    "table_strip",
    "table_title",
]

CELL: Final = 4  # a card's column in the hand: three characters ("10♥") and a space
GAP: Final = 2  # spaces between groups
_SUIT_STYLES: Final = ("bold", "bold red", "bold red", "bold")  # s h d c
JOKER_STYLE: Final = "bold magenta"
_TITLES: Final = {
    "nepali": "Nepali rummy",
    "indian": "Indian rummy",
    "kerala": "Kerala pool rummy",
    "pool101": "Pool 101",
    "pool201": "Pool 201",
    "deals": "Deals rummy",
    "maharashtra": "Maharashtra rummy",
    "north-indian": "North Indian rummy",
    "rummy40": "Rummy 40",
    "remi51": "Remi 51",
}


# ---- cards ---------------------------------------------------------------------------------


def card_plain(k: int) -> str:
    """A card for people: ``10♥``, ``K♣``; the printed joker ``JK`` (an emoji would break columns)."""
    if k == JOKER:
        return "JK"
    return RANK_TEXT[k % 13 + 1] + SUIT_SYMBOLS[k // 13]


def card_text(k: int, wild: int | None = None) -> Text:
    """A card in its suit's colour; a card of the wild rank is underlined as well."""
    if k == JOKER:
        return Text("JK", style=JOKER_STYLE)
    style = _SUIT_STYLES[k // 13]
    if wild is not None and k % 13 + 1 == wild:
        style += " underline"
    return Text(card_plain(k), style=style)


def cards_text(kinds: Iterable[int], wild: int | None = None, sep: str = " ") -> Text:
    out = Text()
    for i, k in enumerate(kinds):
        if i:
            out.append(sep)
        out.append_text(card_text(k, wild))
    return out


def line_text(parts: Sequence[Part], wild: int | None = None) -> Text:
    out = Text()
    for p in parts:
        if isinstance(p, Card):
            out.append_text(card_text(p.kind, wild))
        else:
            out.append(p)
    return out


def line_plain(parts: Sequence[Part]) -> str:
    return "".join(card_plain(p.kind) if isinstance(p, Card) else p for p in parts)


# ---- the hand ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Slot:
    """One card of the hand as displayed, with the note under it."""

    kind: int
    note: str = ""
    fresh: bool = False  # the card just drawn


@dataclass(frozen=True, slots=True)
class Segment:
    """A labelled run of cards in the hand: a group, the loose cards, or a suit."""

    label: str
    slots: tuple[Slot, ...]
    style: str = ""


def _group_label(g: Group) -> tuple[str, str]:
    if g.kind == "jokers":
        return "jokers", "magenta"
    if g.kind == "thennaali":
        return "thennaali", "green"
    if g.is_run:
        return ("pure run", "green") if g.pure else ("run", "cyan")
    return "set", "cyan"


def _stand_in(c: int, s: int | None, wild: int | None) -> str:
    """The note under a grouped card: what a joker, or a wild card not playing itself, stands for."""
    if c == JOKER:
        return "any" if s is None else "=" + card_plain(s)
    if is_wild(c, wild) and s is not None and s != c:
        return "=" + card_plain(s)
    return ""


def _mark_fresh(segments: list[Segment], drawn: int | None) -> list[Segment]:
    """Mark the first card of the drawn kind (its copies are the same card to a player)."""
    if drawn is None:
        return segments
    out = []
    done = False
    for seg in segments:
        slots = []
        for slot in seg.slots:
            if not done and slot.kind == drawn:
                done = True
                slot = Slot(slot.kind, slot.note or "new", True)
            slots.append(slot)
        out.append(Segment(seg.label, tuple(slots), seg.style))
    return out


def grouped(
    hand: Sequence[int], a: Arrangement, wild: int | None, drawn: int | None = None
) -> list[Segment] | None:
    """The hand as the arranger reads it: groups (pure runs first), then the loose cards.

    For fourteen cards the arrangement is of the thirteen left after the best throw, which is
    shown among the loose cards.  ``None`` if the layout does not account for the hand exactly.
    """
    segments = []
    for g in a.groups:
        label, style = _group_label(g)
        slots = tuple(Slot(c, _stand_in(c, s, wild)) for c, s in zip(g.cards, g.stands_for, strict=True))
        segments.append(Segment(label, slots, style))
    loose = list(a.loose) + ([a.throw] if a.throw is not None else [])
    if loose:
        loose.sort(key=sort_key)
        slots = tuple(Slot(k, "wild" if is_wild(k, wild) else "") for k in loose)
        segments.append(Segment("loose", slots, "yellow"))
    laid = Counter(slot.kind for seg in segments for slot in seg.slots)
    if laid != Counter(hand):
        return None
    return _mark_fresh(segments, drawn)


def by_suit(hand: Sequence[int], wild: int | None, drawn: int | None = None) -> list[Segment]:
    """The hand sorted by suit and rank, one segment a suit, jokers last."""
    segments = []
    for suit in range(4):
        kinds = sorted((k for k in hand if k != JOKER and k // 13 == suit), key=sort_key)
        if kinds:
            slots = tuple(Slot(k, "wild" if is_wild(k, wild) else "") for k in kinds)
            segments.append(Segment(SUIT_NAMES[suit], slots, _SUIT_STYLES[suit]))
    jokers = [k for k in hand if k == JOKER]
    if jokers:
        segments.append(Segment("jokers", tuple(Slot(k) for k in jokers), "magenta"))
    return _mark_fresh(segments, drawn)


def _segment_width(seg: Segment) -> int:
    return max(CELL * len(seg.slots), len(seg.label) + 1)


def _pad(text: Text, width: int) -> None:
    short = width - text.cell_len
    if short > 0:
        text.append(" " * short)


def hand_lines(segments: Sequence[Segment], wild: int | None, width: int) -> tuple[list[Text], list[int]]:
    """The hand as rows of text (labels, numbers, cards, notes), wrapped by segment to ``width``;
    and the kinds in display order, so that number ``i`` names ``order[i - 1]``."""
    order = [slot.kind for seg in segments for slot in seg.slots]
    blocks: list[list[Segment]] = [[]]
    used = 2  # the indent
    for seg in segments:
        w = _segment_width(seg) + GAP
        if blocks[-1] and used + w > width:
            blocks.append([])
            used = 2
        blocks[-1].append(seg)
        used += w
    lines: list[Text] = []
    number = 0
    for block in blocks:
        labels, numbers, cards, notes = Text("  "), Text("  "), Text("  "), Text("  ")
        start = labels.cell_len
        for seg in block:
            w = _segment_width(seg)
            labels.append(seg.label, style=seg.style)
            for slot in seg.slots:
                number += 1
                numbers.append(f"{number:>{CELL}}", style="dim")
                face = card_text(slot.kind, wild)
                if slot.fresh:
                    face.stylize("reverse")
                cards.append(" " * (CELL - face.cell_len))
                cards.append_text(face)
                notes.append(f"{slot.note:>{CELL}}", style="dim" if slot.note != "new" else "bold")
            start += w + GAP
            for row in (labels, numbers, cards, notes):
                _pad(row, start)
        rows = [labels, numbers, cards] + ([notes] if notes.plain.strip() else [])
        for row in rows:
            row.rstrip()
        lines += rows
    return lines, order


# ---- the table -------------------------------------------------------------------------------


def table_title(rules: Rules) -> str:
    """The table's name, with ``(house rules)`` when a setting differs from the preset's."""
    title = _TITLES.get(rules.preset, rules.preset)
    try:
        standard = get_preset(rules.preset).replace(players=rules.players)
    except RulesError:
        return title + " (house rules)"
    return title if standard == rules else title + " (house rules)"


def wild_words(view: SeatView) -> Text:
    """Which cards are wild this deal, and the cut card that says so."""
    rules = view.rules
    out = Text("Wild: ", style="bold")
    jokers = " and printed jokers" if rules.printed_jokers else ""
    if view.cut is None:
        out.append("printed jokers only" if rules.printed_jokers else "none")
        return out
    if view.wild is None:
        out.append("printed jokers only" if rules.printed_jokers else "none")
    else:
        out.append(RANK_PLURALS[view.wild] + jokers, style="magenta")
    out.append(" (cut ")
    out.append_text(card_text(view.cut))
    out.append(")")
    return out


def table_lines(view: SeatView, title: str, deal_text: str) -> list[Text]:
    """The first lines of a screen: the deal, the wild cards, the stock and the pile."""
    head = Text(title, style="bold")
    head.append(f" · {deal_text} · turn {view.turn}")
    if view.rules.turn_limit is not None:
        head.append(f" of {view.turn_limit}")
    info = wild_words(view)
    info.append(f" · Stock: {view.stock_count} cards")
    if view.rebuilds:
        info.append(f" (rebuilt {view.rebuilds}×)")
    pile = Text("Pile: ", style="bold")
    if view.pile_top is None:
        pile.append("empty")
    else:
        pile.append_text(card_text(view.pile_top, view.wild))
        pile.append(" on top")
        under = view.pile[-2::-1][:5]
        if under:
            pile.append(", under it ")
            pile.append_text(cards_text(under, view.wild))
            if len(view.pile) > 6:
                pile.append(" …")
    return [head, info, pile]


def seat_table(
    view: SeatView,
    names: Sequence[str],
    bots: Sequence[str],
    totals: Sequence[str],
    me: int | None,
) -> Table:
    """Every seat of the deal: cards held (a count, never the cards), what it took from the pile,
    whether it dropped, its total so far, who deals and who is to play."""
    table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
    for justify in ("left", "left", "left", "left", "right", "left", "left"):
        table.add_column(justify=justify, no_wrap=True)
    table.columns[5].no_wrap = False
    for s in range(view.players):
        mark = "▶" if view.to_play == s else " "
        name = Text(names[s], style="bold cyan" if s == me else "bold")
        status = view.statuses[s]
        if status is SeatStatus.DROPPED:
            held = Text("dropped", style="yellow")
        elif status is SeatStatus.OUT:
            held = Text("out (wrong show)", style="red")
        else:
            held = Text(f"{view.card_counts[s]} cards")
            if view.opened and view.opened[s]:
                held.append(" · opened", style="green")
        took = Text()
        if view.took[s]:
            took.append("took ", style="dim")
            recent = view.took[s][-6:]
            if len(view.took[s]) > 6:
                took.append("… ")
            took.append_text(cards_text(recent, view.wild))
        role = "deals" if s == view.dealer else ""
        table.add_row(mark, name, Text(bots[s], style="dim"), held, totals[s], took, role)
    return table


# ---- the strip and the keys ---------------------------------------------------------------


def _join(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def needs_text(a: Arrangement) -> str:
    """What a show still needs, in words: ``a pure run, a second run and 3 loose cards placed``."""
    words = []
    for need in a.needs:
        if need.endswith("loose card") or need.endswith("loose cards"):
            words.append(need + " placed")
        else:
            words.append(need)
    return _join(words)


def _away(n: int | None) -> str:
    if n is None:
        return ""
    return f"{n} card away" if n == 1 else f"{n} cards away"


def strip(view: SeatView, a: Arrangement, *, keys: Mapping[str, str] | None = None) -> Text:
    """What a show still needs, how many cards away it is, and what the hand would pay now.
    ``keys`` names the keys where they are not the line mode's (``show``: "press w")."""
    keys = keys or {}
    shows = [x.card for x in view.legal if x.kind is ActionKind.SHOW and x.card is not None]
    out = Text()
    if shows:
        out.append("SHOW! ", style="bold green")
        out.append("Throw ")
        for i, k in enumerate(shows):
            if i:
                out.append(" or ")
            out.append_text(card_text(k, view.wild))
        how = keys.get("show", "type show").split(" ", 1)
        out.append(f" and lay the thirteen out: {how[0]} ")
        out.append(how[-1], style="bold")
        return out
    fourteen = view.my_turn and view.phase is Phase.THROW
    if a.can_show and not fourteen:
        out.append("Your thirteen are a show: ", style="bold green")
        out.append("draw from the stock, then show")
        return out
    out.append("To show: ", style="bold yellow")
    if fourteen:
        out.append("after your best throw, ")
    out.append(needs_text(a) or "the cards in groups")
    away = _away(a.away)
    if away:
        out.append(f" · {away}")
    out.append(f" · charge now {a.charge}")
    if not a.credited:
        # why the charge counts grouped cards too (RULES.md's credit modes)
        out.append(" (no pure run)" if view.rules.credit == "pure" else " (groups not credited)")
    return out


def keys_line(view: SeatView, hand_size: int, grouped_view: bool, *, hints: bool = False) -> Text:
    """The keys that do something now, and what."""
    legal = view.legal
    kinds = {x.kind for x in legal}
    keys: list[tuple[str, Text]] = []
    if view.phase is Phase.DRAW:
        if ActionKind.DRAW_STOCK in kinds:
            keys.append(("s", Text("draw from the stock")))
        if ActionKind.DRAW_PILE in kinds and view.pile_top is not None:
            take = Text("take ")
            take.append_text(card_text(view.pile_top, view.wild))
            keys.append(("p", take))
        if ActionKind.DROP in kinds:
            keys.append(("d", Text(f"drop out ({view.drop_cost})")))
    else:
        keys.append((f"1-{hand_size} or Kc", Text("throw that card")))
        shows = [x.card for x in legal if x.kind is ActionKind.SHOW and x.card is not None]
        if shows:
            what = Text("throw ")
            what.append_text(cards_text(shows[:1], view.wild))
            what.append(" and lay out" if len(shows) == 1 else " (or another) and lay out")
            keys.append(("show", what))
    keys.append(("g", Text("sort by suit" if grouped_view else "group")))
    if hints:
        keys.append(("a", Text("hint")))
    keys.append(("h", Text("help")))
    keys.append(("q", Text("quit")))
    out = Text("Keys: ", style="bold")
    for i, (key, what) in enumerate(keys):
        if i:
            out.append("  ")
        out.append(key, style="bold cyan")
        out.append(" ")
        out.append_text(what)
    return out


_HINT_LINES: Final = (("a, hint", "what the hard bot would do now, and why (it plays nothing)"),)


def help_text(rules: Rules, *, hints: bool = False) -> RenderableType:
    """Every command, with when it works; one command a line, then Enter."""
    lines = [
        ("s, stock", "draw the top card of the stock (nobody sees it)"),
        ("p, pile", "take the top card of the pile (everybody sees it)"),
    ]
    if rules.dropping_allowed:
        lines.append(
            (
                "d, drop",
                f"before drawing: drop out of the deal for {rules.drop_first}, or "
                f"{rules.drop_middle} once you have taken a card (asks first)",
            )
        )
    lines += [
        ("Kc, 10h, JK", "throw that card: rank A 2-10 J Q K (T for ten), suit s h d c"),
        ("1-14", "throw the card with that number in your hand"),
        ("show", "show: throw the finishing card and lay the thirteen out (offered only when it is one)"),
        ("show Kc", "show with that finishing card, when more than one would do"),
        ("g", "group the hand the way the rules read it, or sort it by suit"),
        *(_HINT_LINES if hints else ()),
        ("h, ?", "this help"),
        ("q", "quit the game (asks first)"),
    ]
    return _help(lines, "A card you cannot play is refused with the reason, and nothing changes.")


# ---- the end of a deal and the score sheet ---------------------------------------------------


def _group_text(g: Sequence[int], rules: Rules, wild: int | None) -> Text:
    """A laid-out group, each wild card standing in followed by what it plays as (``JK=8♥``)."""
    check = check_group(g, rules, wild)
    stands: Sequence[int | None] = check.stands_for if check.stands_for is not None else [None] * len(g)
    pairs = list(zip(g, stands, strict=True))
    if check.is_run and check.stands_for is not None:
        # check_group may read the jokers another way than the layout did: order by what they play
        ranks = {s % 13 + 1 for s in check.stands_for}
        high_ace = 13 in ranks and 1 in ranks
        pairs.sort(key=lambda p: 14 if high_ace and p[1] is not None and p[1] % 13 == 0 else (p[1] or 0) % 13)
    out = Text()
    for i, (c, s) in enumerate(pairs):
        if i:
            out.append(" ")
        out.append_text(card_text(c, wild))
        if is_wild(c, wild) and s is not None and s != c:
            out.append("=" + card_plain(s), style="dim")
    return out


def _groups_text(
    groups: Sequence[Sequence[int]], loose: Sequence[int], rules: Rules, wild: int | None
) -> Text:
    out = Text()
    for i, g in enumerate(groups):
        if i:
            out.append(" │ ", style="dim")
        out.append_text(_group_text(g, rules, wild))
    if loose:
        if groups:
            out.append(" │ ", style="dim")
        out.append("loose ", style="yellow")
        out.append_text(cards_text(loose))
    return out


def ending_words(result: DealResult, names: Sequence[str], me: int | None) -> Text:
    """How the deal ended, in one sentence (``Bikash shows``, ``You show``: ``me`` is "You"),
    in the words of ``engine.words`` (the web table's too)."""
    return line_text(words.ending_words(result, names, me))


def deal_result(result: DealResult, names: Sequence[str], rules: Rules, wild: int | None) -> Table:
    """Every seat's end of the deal: how it ended, the cards it showed, its charge."""
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    table.add_column("")
    table.add_column("")
    table.add_column("Left in hand" if rules.is_table else "Cards turned up")
    table.add_column("Charge", justify="right")
    for r in result.seats:
        if r.won:
            what = Text("wins", style="bold green")
        elif r.status is SeatStatus.DROPPED:
            what = Text("dropped", style="yellow")
        elif r.status is SeatStatus.OUT:
            what = Text("wrong show", style="red")
        else:
            what = Text("counted")
        if rules.is_table:
            # the table family counts what is left in the hand; the melds are on the table
            went_out = r.won and result.ending is Ending.OUT
            cards = Text("went out", style="green") if went_out else cards_text(r.hand)
        elif r.groups or r.loose:
            cards = _groups_text(r.groups, r.loose, rules, wild)
        else:
            cards = Text("not shown", style="dim")
        charge = str(r.charge)
        if result.halved and r.unhalved is not None and r.unhalved != r.charge:
            charge += f" (halved from {r.unhalved}: an early show)"
        elif r.hand_charge is not None and r.hand_charge != r.charge and not r.won:
            charge += f" (hand {r.hand_charge})"
        table.add_row(Text(names[r.seat], style="bold"), what, cards, charge)
    return table


def _total_style(match: Match, value: int) -> str:
    if match.format.higher_wins and match.format.key == "settlement":
        return "green" if value > 0 else "red" if value < 0 else ""
    return ""


def sheet_table(match: Match, me: int | None = 0, notes: Mapping[int, str] | None = None) -> Table:
    """The score sheet: per deal the charges (marked W D M F X), the format's row (Paid, Chips)
    and the totals, signed where settlement signs them; a pool's standings and rejoins.
    ``notes`` (the table family): how a deal ended, by deal index, marked in the winner's cell
    (HR Hand Rummy, ×2 Remi's -40, B blocked; :data:`~rummykit.engine.table_deal.ENDING_MARKS`)."""
    fmt = match.format
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, show_edge=False)
    table.add_column("", no_wrap=True)
    for seat, name in enumerate(match.names):
        table.add_column(name, justify="right", header_style="bold cyan" if seat == me else "bold")
    n = match.players
    rejoins = list(match.rejoins)
    is_pool = isinstance(fmt, PoolFormat)
    for row in match.rows:
        if row.index:
            table.add_section()
        label = Text(f"Deal {row.index + 1}", style="bold")
        label.append(f" · dealer {match.names[row.dealer]}", style="dim")
        table.add_row(label, *[""] * n)
        cells = []
        for charge, status in zip(row.charges, row.entry.statuses, strict=True):
            if status is Status.OUT:
                cells.append(Text("out", style="dim"))
            else:
                style = "bold" if status is Status.WINNER else ""
                cells.append(Text(charge_text(charge, status, row.entry.early), style=style))
        mark = ENDING_MARKS.get((notes or {}).get(row.index, ""), "")
        if mark:
            cells[row.entry.winner].append(f" {mark}", style="bold magenta")
        table.add_row("  Charge", *cells)
        if fmt.row_differs:
            table.add_row(f"  {row.label}", *[fmt.show_row(v) for v in row.row])
        table.add_row(
            Text("  Total", style="bold"),
            *[Text(fmt.show_total(t), style="bold " + _total_style(match, t)) for t in row.totals],
        )
        if is_pool:
            table.add_row("  Standing", *[_standing(s) for s in row.standings])
        while rejoins and rejoins[0].after_deals == row.index + 1:
            record = rejoins.pop(0)
            cells = [Text("")] * n
            cells[record.seat] = Text(f"back at {record.total}", style="green")
            table.add_row("  Rejoin", *cells)
    if is_pool and rejoins_after_last(match):
        # only rejoins after the last deal change its totals: otherwise its Total row says it all
        table.add_section()
        table.add_row(Text("Now", style="bold"), *[fmt.show_total(t) for t in match.totals])
        table.add_row("  Standing", *[_standing(match.standing(s)) for s in range(n)])
    if isinstance(fmt, PointsFormat) and match.rows:
        table.add_section()
        table.add_row(Text("Money", style="bold"), *[str(match.money(s)) for s in range(n)])
    return table


def _standing(s: Standing) -> Text:
    return Text(s.value, style={"in": "", "compel": "yellow", "out": "red"}[s.value])


def sheet_notes(match: Match, rules: Rules | None = None) -> list[Text]:
    """The lines under the sheet: its format, the legend (the table family's marks where
    ``rules`` are of that family), where the match stands, rejoin offers."""
    lines = [Text(match.format.describe() + ".", style="dim")]
    if match.rows:
        if rules is not None and rules.is_table:
            marks = SHEET_LEGENDS.get(rules.format, LEGEND)
        else:
            marks = legend(match.rules)  # E where an early show halves
        lines.append(Text(f"({marks})", style="dim"))
    lines.append(Text(match.status_line(), style="bold"))
    offers = match.rejoin_offers()
    if offers:
        listed = ", ".join(f"{match.names[o.seat]} at {o.total}" for o in offers)
        lines.append(Text(f"May rejoin: {listed}"))
    return lines


# ---- the table family: melds on the table, the Opening meter ----------------------------------


def meld_text(cards: Sequence[int], stands_for: Sequence[int]) -> Text:
    """A meld's cards in their slots, a joker followed by what it stands for (``JK=6♥``)."""
    out = Text()
    for i, (c, s) in enumerate(zip(cards, stands_for, strict=True)):
        if i:
            out.append(" ")
        out.append_text(card_text(c))
        if c == JOKER:
            out.append("=" + card_plain(s), style="dim")
    return out


def melds_table(view: SeatView, names: Sequence[str]) -> Table:
    """The melds on the table by number (what ``l`` and ``x`` name), with who laid them down."""
    table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
    table.add_column(justify="right", style="bold cyan", no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(style="dim", no_wrap=True)
    table.add_column()
    for m in view.melds:
        table.add_row(str(m.id), names[m.owner], m.kind, meld_text(m.cards, m.stands_for))
    return table


def table_segments(
    hand: Sequence[int], leftover: Leftover, rules: Rules, drawn: int | None = None
) -> list[Segment] | None:
    """A table-family hand laid out as it could go down: new melds, cards that go onto a meld
    on the table (``onto 3``), then what would be left; ``None`` if that is not the hand."""
    segments = []
    for cards in leftover.melds:
        placed, _ = place_meld(cards, rules)
        if placed is None:
            return None
        slots = tuple(
            Slot(c, "=" + card_plain(p) if c == JOKER else "")
            for c, p in zip(placed.cards, placed.stands_for, strict=True)
        )
        segments.append(Segment(placed.kind, slots, "cyan"))
    for meld_id, cards in leftover.layoffs:
        segments.append(Segment(f"onto {meld_id}", tuple(Slot(c) for c in cards), "green"))
    if leftover.loose:
        loose = sorted(leftover.loose, key=sort_key)
        segments.append(Segment("loose", tuple(Slot(k) for k in loose), "yellow"))
    if Counter(slot.kind for seg in segments for slot in seg.slots) != Counter(hand):
        return None
    return _mark_fresh(segments, drawn)


def table_strip(
    view: SeatView, meter: tuple[int, int], leftover: Leftover, *, keys: Mapping[str, str] | None = None
) -> Text:
    """The table family's strip: the Opening meter before opening, then what could go down; and
    what the turn still owes (the pile card, a freed joker).  ``keys`` names the keys where they
    are not the line mode's (``layoff``: "f")."""
    keys = keys or {}
    out = Text()
    me = view.seat
    opened = bool(view.opened) and view.opened[me]
    legal = view.legal
    if not opened:
        points, threshold = meter
        out.append("Opening: ", style="bold yellow")
        out.append(f"{points} of {threshold} points", style="bold green" if points >= threshold else "bold")
        opening = next((a for a in legal if a.kind is ActionKind.OPEN), None)
        if opening is not None and opening.groups:
            out.append(f" · {keys.get('open', 'o')} opens with ")
            for i, meld in enumerate(opening.groups):
                if i:
                    out.append(" │ ", style="dim")
                out.append_text(cards_text(meld))
        elif points < threshold:
            out.append(f" · {threshold - points} short")
        elif view.my_turn and view.phase is Phase.PLAY and not view.rules.opening_first_round:
            out.append(" · not in your first turn")
    else:
        out.append("Opened. ", style="bold green")
        downs = [a for a in legal if a.kind in (ActionKind.LAY_DOWN, ActionKind.LAY_OFF)]
        if view.my_turn and view.phase is Phase.PLAY and downs:
            first = downs[0]
            down, off = keys.get("meld", "m"), keys.get("layoff", "l")
            out.append(f"{down} lays down " if first.kind is ActionKind.LAY_DOWN else f"{off} lays off ")
            out.append_text(cards_text(first.cards or ()))
            if first.kind is ActionKind.LAY_OFF:
                out.append(f" onto meld {first.meld}")
            out.append(" · ")
        out.append(f"After what can go down, {leftover.cost} points stay in your hand")
    if view.pile_due is not None and view.my_turn:  # the seat to play's card, not always ours
        out.append("\nThe ")
        out.append_text(card_text(view.pile_due))
        out.append(" you took from the pile must go down this turn")
        if any(a.kind is ActionKind.PUT_BACK for a in legal):
            out.append(f" ({keys.get('back', 'b')} puts it back)")
    if view.owed_jokers and view.my_turn:
        out.append("\nLay the freed joker down again before you throw")
    return out


def table_keys_line(view: SeatView, hand_size: int, grouped_view: bool, *, hints: bool = False) -> Text:
    """The table family's keys that do something now."""
    legal = view.legal
    kinds = {x.kind for x in legal}
    keys: list[tuple[str, Text]] = []
    if view.phase is Phase.DRAW:
        if ActionKind.DRAW_STOCK in kinds:
            keys.append(("s", Text("draw from the stock")))
        if ActionKind.DRAW_PILE in kinds and view.pile_top is not None:
            keys.append(("p", Text("take ") + card_text(view.pile_top)))
    elif legal:
        if ActionKind.THROW in kinds:
            keys.append((f"1-{hand_size} or Kc", Text("throw")))
        if ActionKind.OPEN in kinds:
            keys.append(("o", Text("open")))
        # the engine lists every single-card lay-off and swap, and the melds the hand can make
        if ActionKind.LAY_DOWN in kinds:
            keys.append(("m", Text("lay down")))
        if ActionKind.LAY_OFF in kinds:
            keys.append(("l", Text("lay off")))
        if ActionKind.SWAP in kinds:
            keys.append(("x", Text("swap a joker")))
        if ActionKind.PUT_BACK in kinds:
            keys.append(("b", Text("put back")))
    keys.append(("g", Text("sort by suit" if grouped_view else "group")))
    if hints:
        keys.append(("a", Text("hint")))
    keys += [("h", Text("help")), ("q", Text("quit"))]
    out = Text("Keys: ", style="bold")
    for i, (key, what) in enumerate(keys):
        if i:
            out.append("  ")
        out.append(key, style="bold cyan")
        out.append(" ")
        out.append_text(what)
    return out


def table_help_text(rules: Rules, *, hints: bool = False) -> RenderableType:
    """Every command at a table-family game."""
    lines = [
        ("s, stock", "draw the top card of the stock"),
        (
            "p, pile",
            "take the top card of the pile: it must go down this turn"
            + ("" if rules.pile_before_opening else " (only once you have opened)"),
        ),
        ("b, back", "put the card you just took from the pile back, then draw from the stock"),
        ("o", f"open with the best melds your hand has, once they reach {rules.opening} points"),
        ("o 5h 6h 7h / Kc Kd Kh", "open with the melds you name (a / between melds)"),
        ("m", "after opening: lay down the meld the strip suggests"),
        ("m 5h 6h 7h", "after opening: lay down that meld (cards or their numbers)"),
        ("l", "after opening: lay off the cards the strip suggests"),
        ("l 2 8h", "lay 8h off onto meld 2 on the table (yours or a rival's)"),
        (
            "x 2 6h",
            "put 6h in the place of the joker of meld 2 and take the joker "
            + ("(lay it down again)" if rules.freed_joker_must_go_down else "(yours to keep, meld or throw)"),
        ),
        ("Kc, 10h, JK, 1-14", "throw that card (or the card with that number), ending your turn"),
        ("g", "group the hand as it could go down, or sort it by suit"),
        *(_HINT_LINES if hints else ()),
        ("h, ?", "this help"),
        ("q", "quit the game (asks first)"),
    ]
    return _help(lines, "A move the rules refuse is refused with the reason, and nothing changes.")


def _help(lines: Sequence[tuple[str, str]], footer: str) -> RenderableType:
    """Keys and what they do in two columns (a long line wraps within its column)."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold cyan", no_wrap=True)
    grid.add_column()
    for key, what in lines:
        grid.add_row("  " + key, what)
    return RichGroup(Text("Type a command and press Enter:", style="bold"), grid, Text(footer, style="dim"))
