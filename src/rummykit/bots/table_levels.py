"""The difficulty levels at the table family (Rummy 40, Remi 51): ``easy``, ``medium``, ``hard``,
``expert``.

A turn at these tables is several decisions (draw; open, lay down, lay off, swap a joker, put
back; throw), each asked of the bot with the seat's :class:`~rummykit.engine.views.SeatView`.
What the levels share (:class:`TableLevelPlayer`): they open as soon as the engine offers
an opening (the best one the hand has, which reaches the threshold), then lay down and lay off
what the cheapest leftover (:func:`~rummykit.engine.opening.best_leftover`) puts down, and
never throw a joker while a natural card may go.  They differ in how they read the hand and
the table:

* ``easy`` (:class:`TableEasy`): takes the pile's card when it goes down at once, plays the
  leftover's plan, never swaps a joker out, and throws loosely: one of the loose cards of its
  plan, a random one :attr:`TableEasy.random_loose` of the time, else the dearest.
* ``medium`` (:class:`TableMedium`): plays its hand well.  Every throw is scored by what it
  leaves (:meth:`TableMedium.hand_score`): the leftover's cost, weighted more as a rival nears
  going out; before opening, how far the best opening falls short of the threshold; and the
  unfinished melds among the loose cards (pairs of a rank, two cards of a run), each worth the
  copies that would complete it (medium counts the shoe's copies less its own hand).  It takes
  the pile's card only when it goes down this turn, swaps a joker out when that makes the
  leftover cheaper, and keeps its jokers.
* ``hard`` (:class:`TableHard`): medium plus card tracking and safe throws.  It counts only the
  live copies of a card that would complete an unfinished meld (the shoe less its hand, the
  pile, the melds on the table); it reads how near each rival is to going out from whether it
  has opened and how many cards it holds; and it weighs each throw's danger to the next seat
  (the only seat that may take it): a card that fits a meld on the table is a free lay-off once
  that seat has opened (unless it passed that very card over, which :class:`TablePassTracker`
  follows through the events).  Among throws that score within :attr:`TableHard.safe_window`
  of the best, a safe one goes.  At Remi 51 it keeps a spare joker to close on (-40, the
  others counting double) rather than lay it off alone.  No holding back: it opens and lays
  down as medium does.  A feeding estimate over sampled hidden hands and a penalty on cards
  beside those the next seat took from the pile (``want_danger``) were tried and measured no
  stronger (BENCHMARKS.md), so hard plays without them; its one-draw look
  (:meth:`TableHard.draw_gain`, ``look_weight``) is off (the expert has it): alone it measured
  within noise of hard, and it costs up to tens of milliseconds a throw.
* ``expert`` (:class:`TableExpert`): hard with the one-draw look on (each of the best throws
  credited what the next stock card is expected to take off the hand it leaves) and its hand
  evaluation tuned by duplicate self-play against hard: at Rummy 40 unfinished melds weigh
  more, and more of them count; at Remi 51, where those weights measured below hard, it weighs
  them as hard does and, before opening, counts what would go onto the table's melds.  It
  holds an opening for Hand Rummy or Remi's handling while it is near going out all at once
  and no rival is near going out (``hold_hand``).

Every level's weights are options of its name (``hard:partial_cap=6``, see
:func:`rummykit.bots.make_player`), which is how they were tuned.

Every level sees only its view (and ``hard`` the events its seat may see), is seeded, and keeps
the contract of :mod:`rummykit.bots.contract` (``budget_ms``; ``choose(view, deadline)``): the
throws are scored in order of a cheap prior (loose cards, dearest first), and when the deadline
passes the best scored so far goes (the expert's look is dropped whole when the deadline
passes mid-look).  A decision takes a few milliseconds, the expert's throw tens of them.

:attr:`TableLevelPlayer.last_reason` holds one line on the last decision, in the game's words,
for the hint (:func:`rummykit.bots.hint.hint`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from rummykit.bots.base import BasePlayer, BotError, Seed
from rummykit.bots.contract import Deadline
from rummykit.bots.tracking import PassTracker
from rummykit.engine.cards import JOKER, KINDS, RANK_PLURALS, pretty_card
from rummykit.engine.events import (
    Action,
    ActionKind,
    Event,
    Phase,
    PutBack,
    TableMeld,
)
from rummykit.engine.groups import card_value, opening_value
from rummykit.engine.opening import (
    Leftover,
    best_leftover,
    best_opening,
    extend_meld,
    may_extend,
    opening_meter,
    swap_slot,
)
from rummykit.engine.rules import Rules
from rummykit.engine.views import SeatView

__all__ = [
    "TableEasy",
    "TableExpert",
    "TableHard",
    "TableLevelPlayer",
    "TableMedium",
    "TablePassTracker",
    "meld_words",
    "table_unseen",
]

_NUMBER_WORDS: Final = ("", "one", "two", "three", "four")


# ---- reading cards ---------------------------------------------------------------------------


def _card(k: int) -> str:
    """A card for people: ``10♥``, and ``JK`` for a joker."""
    return "JK" if k % KINDS == JOKER else pretty_card(k)


def _cards(kinds: Sequence[int]) -> str:
    return " ".join(_card(k) for k in kinds)


def meld_words(cards: Sequence[int]) -> str:
    """A meld in a player's words: ``three kings`` for a set, the cards for a run."""
    naturals = [k for k in cards if k % KINDS != JOKER]
    ranks = {k % 13 for k in naturals}
    if len(ranks) == 1 and len(naturals) >= 2 and len({k // 13 for k in naturals}) == len(naturals):
        n = len(cards)
        words = f"{_NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else n} {RANK_PLURALS[naturals[0] % 13 + 1]}"
        jokers = len(cards) - len(naturals)
        return words + (f" (with {'a joker' if jokers == 1 else f'{jokers} jokers'})" if jokers else "")
    return _cards(cards)


def _meld_owner(meld: TableMeld, view: SeatView, names: Sequence[str] | None) -> str:
    if meld.owner == view.seat:
        return "your"
    if names is not None and 0 <= meld.owner < len(names):
        return f"{names[meld.owner]}'s"
    return f"seat {meld.owner + 1}'s"


def _meld_kind(meld: TableMeld) -> str:
    return "set" if meld.kind == "set" else "run"


def table_unseen(view: SeatView) -> list[int]:
    """Per kind, the copies this seat cannot see: the shoe less its hand, the pile and the
    melds on the table (what may still come from the stock or sits in a rival's hand)."""
    rules = view.rules
    unseen = [rules.packs] * KINDS
    unseen[JOKER] = rules.printed_jokers
    for k in view.hand:
        unseen[k % KINDS] -= 1
    for k in view.pile:
        unseen[k % KINDS] -= 1
    for m in view.melds:
        for k in m.cards:
            unseen[k % KINDS] -= 1
    return [max(0, u) for u in unseen]


def _shoe_less_hand(view: SeatView) -> list[int]:
    """Per kind, the shoe's copies less the seat's own hand (no tracking of the table)."""
    rules = view.rules
    out = [rules.packs] * KINDS
    out[JOKER] = rules.printed_jokers
    for k in view.hand:
        out[k % KINDS] -= 1
    return [max(0, u) for u in out]


def _run_pos_kind(suit: int, pos: int) -> int | None:
    """The kind at run position ``pos`` (1 = ace low … 13 = king, 14 = ace high) of a suit."""
    if pos < 1 or pos > 14:
        return None
    return suit * 13 + (0 if pos == 14 else pos - 1)


def _positions(k: int, ace_high: bool) -> list[int]:
    r = k % 13 + 1
    return [1, 14] if r == 1 and ace_high else [r]


def _completers(a: int, b: int, ace_high: bool) -> list[int] | None:
    """The kinds that would make a meld of the unfinished pair ``a``, ``b`` (naturals), or
    ``None`` when they make no unfinished meld."""
    if a % 13 == b % 13:
        if a // 13 == b // 13:
            return None  # the same card twice: no set, and no run
        rank = a % 13
        return [s * 13 + rank for s in range(4) if s not in (a // 13, b // 13)]
    if a // 13 != b // 13:
        return None
    suit = a // 13
    for pa in _positions(a, ace_high):
        for pb in _positions(b, ace_high):
            lo, hi = min(pa, pb), max(pa, pb)
            if hi - lo == 1:
                kinds = [_run_pos_kind(suit, lo - 1), _run_pos_kind(suit, hi + 1)]
                return [k for k in kinds if k is not None]
            if hi - lo == 2:
                mid = _run_pos_kind(suit, lo + 1)
                return [mid] if mid is not None else None
    return None


@dataclass(frozen=True, slots=True)
class Partial:
    """An unfinished meld among the loose cards: the two cards, and the copies that finish it."""

    cards: tuple[int, int]
    outs: int


def partials(loose: Sequence[int], live: Sequence[int], ace_high: bool) -> list[Partial]:
    """The unfinished melds (pairs) among the loose natural cards, each with its live outs."""
    naturals = sorted({k for k in loose if k != JOKER})
    out = []
    for i, a in enumerate(naturals):
        for b in naturals[i + 1 :]:
            kinds = _completers(a, b, ace_high)
            if kinds is None:
                continue
            outs = sum(live[k] for k in kinds)
            if outs:
                out.append(Partial((a, b), outs))
    return out


class TablePassTracker(PassTracker):
    """:class:`~rummykit.bots.tracking.PassTracker` for the table family: a card put back goes
    on the pile again."""

    __slots__ = ()

    def observe(self, event: Event) -> None:
        if isinstance(event, PutBack):
            self._pile.append(event.card % KINDS)
            return
        super().observe(event)


# ---- the shared turn -------------------------------------------------------------------------


def _by_kind(legal: Sequence[Action]) -> dict[ActionKind, list[Action]]:
    out: dict[ActionKind, list[Action]] = {}
    for a in legal:
        out.setdefault(a.kind, []).append(a)
    return out


def _swapped(meld: TableMeld, card: int) -> TableMeld | None:
    """``meld`` after ``card`` takes a joker's slot (to judge a swap), or None."""
    slot, _ = swap_slot(meld, card)
    if slot is None:
        return None
    cards = list(meld.cards)
    cards[slot] = card
    return TableMeld(
        id=meld.id, owner=meld.owner, kind=meld.kind, cards=tuple(cards), stands_for=meld.stands_for
    )


def _without(hand: Sequence[int], k: int) -> list[int]:
    rest = list(hand)
    rest.remove(k)
    return rest


class TableLevelPlayer(BasePlayer):
    """The base of the table family's levels: the turn's order, and the moves all three share."""

    name = "table-level"
    budget_ms: float | None = 50.0
    swaps = True  # swap a joker out when that makes the leftover cheaper
    untimed = False  # ignore the deadline (tournaments: the same answers whatever the load)

    def __init__(self, seed: Seed, *, budget_ms: float | None = None) -> None:
        super().__init__(seed)
        if budget_ms is not None:
            self.budget_ms = budget_ms
        self.last_reason = ""  # one line on the last decision, for hints
        self.names: Sequence[str] | None = None  # the seats' names, for the reasons (hints)

    # ---- the decision ---------------------------------------------------------------------

    def choose(self, view: SeatView, deadline: Deadline | None = None) -> Action:
        legal = view.legal
        if not legal:
            raise BotError(f"{self.name}: seat {view.seat} has nothing to do (it is not its turn)")
        if not view.rules.is_table:
            raise BotError(f"{self.name} plays the table family; {view.rules.preset} is a show game")
        deadline = deadline if deadline is not None else Deadline(self.budget_ms)
        self.last_reason = ""
        action = self._draw(view) if view.phase is Phase.DRAW else self._play(view, deadline)
        if action not in legal:  # a bot's own step the engine did not list: never risk it
            action = next((a for a in legal if a.kind is ActionKind.THROW), legal[0])
        return action

    def _opened(self, view: SeatView) -> bool:
        return bool(view.opened) and view.opened[view.seat]

    def _draw(self, view: SeatView) -> Action:
        legal = view.legal
        top = view.pile_top
        if Action.draw_pile() in legal and top is not None:
            why = self._pile_use(view, top)
            if why:
                self.last_reason = f"Take {_card(top)}: {why}"
                return Action.draw_pile()
        if Action.draw_stock() in legal:
            self.last_reason = self._stock_reason(view)
            return Action.draw_stock()
        return legal[0]

    def _stock_reason(self, view: SeatView) -> str:
        top = view.pile_top
        if top is None:
            return "Draw from the stock"
        if Action.draw_pile() not in view.legal:
            if not view.rules.pile_before_opening and not self._opened(view):
                return "Draw from the stock: the pile is yours only once you have opened"
            return "Draw from the stock"
        return f"Draw from the stock: {_card(top)} on the pile would not go down this turn"

    def _pile_use(self, view: SeatView, top: int) -> str:
        """Why the pile's card is worth taking (it goes down this turn), or ``""``."""
        rules = view.rules
        hand = [*view.hand, top]
        if not self._opened(view):
            first_round = not rules.opening_first_round and view.thrown[view.seat] == ()
            if first_round:
                return ""
            best = best_opening(hand, rules, must_include=top)
            if best is None:
                return ""
            return f"with it you can open: {best.points} points"
        plan = best_leftover(hand, list(view.melds), rules)
        if Counter(plan.loose)[top] >= Counter(hand)[top]:
            return ""
        now = best_leftover(view.hand, list(view.melds), rules)
        if plan.cost > now.cost:
            return ""
        return "it goes down this turn"

    def _play(self, view: SeatView, deadline: Deadline) -> Action:
        by_kind = _by_kind(view.legal)
        if not self._opened(view):
            if ActionKind.OPEN in by_kind and not (ActionKind.THROW in by_kind and self._holds_opening(view)):
                action = by_kind[ActionKind.OPEN][0]  # the engine offers the best opening
                assert action.groups is not None
                pts = sum(opening_value(m, view.rules, None) for m in action.groups)
                melds = " and ".join(meld_words(m) for m in action.groups)
                self.last_reason = f"Open with {melds}: {pts} points"
                if pts < (view.rules.opening or 0):
                    self.last_reason += " (the threshold is waived: it leaves you one card or none)"
                return action
            if ActionKind.THROW not in by_kind:
                return self._owed_step(view, by_kind)
            return self._throw(view, by_kind, deadline)
        rules = view.rules
        table = list(view.melds)
        now = best_leftover(view.hand, table, rules)
        if self.swaps:
            swap = self._swap(view, by_kind.get(ActionKind.SWAP, []), now)
            if swap is not None:
                return swap
        step = self._plan_step(view, by_kind, now)
        if step is not None:
            return step
        if ActionKind.THROW not in by_kind:
            return self._owed_step(view, by_kind)
        return self._throw(view, by_kind, deadline)

    def _owed_step(self, view: SeatView, by_kind: dict[ActionKind, list[Action]]) -> Action:
        """The turn owes the pile's card (or a freed joker) and no throw is allowed: the
        engine's step that puts it down, else put the card back."""
        for kind in (ActionKind.LAY_DOWN, ActionKind.LAY_OFF, ActionKind.OPEN):
            if kind in by_kind:
                action = by_kind[kind][0]
                self.last_reason = self._step_reason(view, action, "the card you took must go down")
                return action
        if ActionKind.PUT_BACK in by_kind:
            due = view.pile_due
            card = f"{_card(due)} " if due is not None else "the card "
            self.last_reason = f"Put {card}back: it cannot go down this turn after all"
            return by_kind[ActionKind.PUT_BACK][0]
        return view.legal[0]

    def _swap(self, view: SeatView, swaps: Sequence[Action], now: Leftover) -> Action | None:
        rules = view.rules
        best: tuple[int, Action] | None = None
        for a in swaps:
            assert a.meld is not None and a.card is not None
            meld = next((m for m in view.melds if m.id == a.meld), None)
            after_meld = None if meld is None else _swapped(meld, a.card)
            if after_meld is None:
                continue
            hand = [*_without(view.hand, a.card), JOKER]
            table = [after_meld if m.id == a.meld else m for m in view.melds]
            cost = best_leftover(hand, table, rules).cost
            if cost < now.cost and (best is None or cost < best[0]):
                best = (cost, a)
        if best is None:
            return None
        a = best[1]
        assert a.meld is not None and a.card is not None
        meld = next(m for m in view.melds if m.id == a.meld)
        self.last_reason = (
            f"Swap {_card(a.card)} for the joker in {_meld_owner(meld, view, self.names)} "
            f"{_meld_kind(meld)} {_cards(meld.cards)}: the joker goes down again and your hand "
            f"counts {now.cost - best[0]} less"
        )
        return a

    def _plan_step(
        self, view: SeatView, by_kind: dict[ActionKind, list[Action]], now: Leftover
    ) -> Action | None:
        """The next meld or lay-off of the cheapest leftover, if the engine allows it."""
        legal = set(view.legal)
        steps = [Action.lay_down(m) for m in now.melds] + [Action.lay_off(i, c) for i, c in now.layoffs]
        for a in steps:
            if a in legal and not self._holds_back(view, a):
                self.last_reason = self._step_reason(view, a, "")
                return a
        return None

    def _holds_back(self, view: SeatView, a: Action) -> bool:
        """Whether to keep this step's cards in hand for now (no level but hard does)."""
        return False

    def _holds_opening(self, view: SeatView) -> bool:
        """Whether to keep an opening the hand could make now, to go out in one turn later
        (Hand Rummy, Remi's handling: the rivals count double).  Only the expert does
        (:attr:`TableHard.hold_hand`)."""
        return False

    def _step_reason(self, view: SeatView, a: Action, why: str) -> str:
        rules = view.rules
        cards = a.cards or ()
        points = sum(card_value(k, rules, None) for k in cards)
        tail = f": {why}" if why else f": {points} points out of your hand"
        if a.kind is ActionKind.LAY_DOWN:
            return f"Lay down {meld_words(cards)}{tail}"
        if a.kind is ActionKind.LAY_OFF:
            meld = next((m for m in view.melds if m.id == a.meld), None)
            where = (
                f"meld {a.meld}"
                if meld is None
                else f"{_meld_owner(meld, view, self.names)} {_meld_kind(meld)} {_cards(meld.cards)}"
            )
            return f"Lay off {_cards(cards)} on {where}{tail}"
        return str(a)

    # ---- the throw ------------------------------------------------------------------------

    def _throw(self, view: SeatView, by_kind: dict[ActionKind, list[Action]], deadline: Deadline) -> Action:
        raise NotImplementedError

    def _throwable(self, view: SeatView, by_kind: dict[ActionKind, list[Action]]) -> list[int]:
        """The kinds that may be thrown, jokers only when nothing else may go."""
        cards = [a.card for a in by_kind.get(ActionKind.THROW, []) if a.card is not None]
        naturals = [k for k in cards if k != JOKER]
        return naturals or cards

    def _plan_now(self, view: SeatView, hand: Sequence[int]) -> Leftover:
        """The cheapest leftover of ``hand``: onto the table's melds once opened, else alone."""
        table = list(view.melds) if self._opened(view) else []
        return best_leftover(hand, table, view.rules)


# ---- easy ------------------------------------------------------------------------------------


class TableEasy(TableLevelPlayer):
    """Opens when it can, lays down and lays off the obvious, throws loosely, never swaps."""

    name = "table-easy"
    budget_ms = 50.0
    swaps = False
    random_loose = 0.6  # a random loose card; else the dearest

    def _throw(self, view: SeatView, by_kind: dict[ActionKind, list[Action]], deadline: Deadline) -> Action:
        cards = self._throwable(view, by_kind)
        rules = view.rules
        loose = [k for k in set(self._plan_now(view, view.hand).loose) if k in cards]
        pool = sorted(loose or cards)
        if self.rng.random() < self.random_loose:
            k = self.rng.choice(pool)
            why = "it is loose"
        else:
            k = max(pool, key=lambda c: (card_value(c, rules, None), c))
            why = "the dearest loose card"
        self.last_reason = f"Throw {_card(k)}: {why}"
        return Action.throw(k)


# ---- medium ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ThrowScore:
    """One throw and what it leaves (lower ``score`` is better)."""

    card: int
    score: float
    cost: int
    short: int  # points the best opening still lacks (0 once opened)
    potential: float
    danger: float = 0.0


def _throw_order(rules: Rules) -> Callable[[ThrowScore], tuple[float, int, int]]:
    """The ranking of scored throws: best score first, then the dearer card, then the kind."""
    return lambda t: (t.score, -card_value(t.card, rules, None), t.card)


class TableMedium(TableLevelPlayer):
    """Plays its hand well: the throw that leaves the best hand by cost, opening shortfall and
    unfinished melds; the pile only when its card goes down; jokers kept."""

    name = "table-medium"
    budget_ms = 50.0
    cost_early = 0.35  # the leftover cost's weight while no rival is near going out ...
    cost_late = 1.0  # ... and when one is
    short_weight = 0.35  # a point of opening shortfall (before opening)
    partial_weight = 3.0  # an unfinished meld, scaled by its outs (of 4) ...
    partial_points = 0.6  # ... and, before opening, by what it would count towards the opening
    partial_cap = 4  # unfinished melds counted at most (the best ones)
    reads_table = False  # before opening, count the cards that would go onto the table's melds
    # settings a bot's name may carry (``medium:cost_late=0.8``, see rummykit.bots.make_player)
    tunables: tuple[str, ...] = (
        "cost_early",
        "cost_late",
        "short_weight",
        "partial_weight",
        "partial_points",
        "partial_cap",
        "reads_table",
        "swaps",
    )

    def live(self, view: SeatView) -> list[int]:
        """Copies of each kind that may still come: medium counts the shoe less its hand."""
        return _shoe_less_hand(view)

    def risk(self, view: SeatView) -> float:
        """How near a rival is to going out, 0 to 1 (the leftover's cost weighs more as it nears)."""
        worst = 0.0
        for s in range(view.players):
            if s == view.seat:
                continue
            n = view.card_counts[s]
            opened = bool(view.opened) and view.opened[s]
            r = 0.15 if not opened else (1.0 if n <= 3 else 0.7 if n <= 6 else 0.4)
            worst = max(worst, r)
        own_turns = view.turn // max(1, view.players)
        return max(worst, min(1.0, own_turns / 20.0))

    def hand_score(self, view: SeatView, hand: Sequence[int], live: Sequence[int], risk: float) -> ThrowScore:
        """What ``hand`` (after a throw) is worth: lower is better."""
        rules = view.rules
        if self.reads_table_at(rules) and not self._opened(view):
            plan = best_leftover(hand, list(view.melds), rules)  # what goes down once opened
        else:
            plan = self._plan_now(view, hand)
        cost = plan.cost
        short = 0
        if not self._opened(view):
            points, threshold = opening_meter(hand, rules)
            short = max(0, threshold - points)
        found = partials(plan.loose, live, rules.ace_high)
        values = []
        for p in found:
            v = min(p.outs, 4) / 4.0
            if not self._opened(view):
                a, b = p.cards
                pts = card_value(a, rules, None) + card_value(b, rules, None)
                v *= 1.0 + self.partial_points * pts / 20.0
            values.append(v)
        values.sort(reverse=True)
        partial_weight, partial_cap = self.partial_weights(rules)
        potential = sum(values[:partial_cap])
        weight = self.cost_early + (self.cost_late - self.cost_early) * risk
        score = weight * cost + self.short_weight * short - partial_weight * potential
        return ThrowScore(-1, score, cost, short, potential)

    def partial_weights(self, rules: Rules) -> tuple[float, int]:
        """The unfinished melds' weight and how many of them count, at these rules."""
        return self.partial_weight, self.partial_cap

    def reads_table_at(self, rules: Rules) -> bool:
        """Whether, before opening, the cards that would go onto the table's melds count."""
        return self.reads_table

    def danger(self, view: SeatView, k: int) -> float:
        return 0.0

    def rank_throws(self, view: SeatView, cards: Sequence[int], deadline: Deadline) -> list[ThrowScore]:
        """The throws scored, best first (anytime: those scored by the deadline)."""
        rules = view.rules
        live = self.live(view)
        risk = self.risk(view)
        now_loose = set(self._plan_now(view, view.hand).loose)
        # the prior: loose cards first, dearest first, so a cut-short search has seen the likely ones
        order = sorted(set(cards), key=lambda k: (k not in now_loose, -card_value(k, rules, None), k))
        out: list[ThrowScore] = []
        for k in order:
            if out and not self.untimed and deadline.expired():
                break
            s = self.hand_score(view, _without(view.hand, k), live, risk)
            d = self.danger(view, k)
            out.append(ThrowScore(k, s.score + d, s.cost, s.short, s.potential, d))
        out.sort(key=_throw_order(rules))
        return out

    def pick(self, view: SeatView, ranked: Sequence[ThrowScore]) -> ThrowScore:
        return ranked[0]

    def _throw(self, view: SeatView, by_kind: dict[ActionKind, list[Action]], deadline: Deadline) -> Action:
        cards = self._throwable(view, by_kind)
        ranked = self.rank_throws(view, cards, deadline)
        choice = self.pick(view, ranked)
        self.last_reason = self._throw_reason(view, choice, ranked)
        return Action.throw(choice.card)

    def _throw_reason(self, view: SeatView, t: ThrowScore, ranked: Sequence[ThrowScore]) -> str:
        rules = view.rules
        card = _card(t.card)
        if t.card == JOKER:
            return f"Throw {card}: nothing else may go"
        if len(view.hand) == 1:
            return f"Throw {card}: your last card, and you go out"
        plan = self._plan_now(view, view.hand)
        live = self.live(view)
        loose = t.card in plan.loose
        in_partial = any(t.card in p.cards for p in partials(plan.loose, live, rules.ace_high))
        value = card_value(t.card, rules, None)
        dearest = all(value >= card_value(k, rules, None) for k in plan.loose if k != JOKER)
        if not loose:
            what = "it costs your melds least to give it up"
        elif in_partial:
            what = "the weakest of your unfinished melds"
        elif dearest:
            what = "the dearest card that helps nothing"
        else:
            what = "it helps nothing"
        avoided = [
            r
            for r in ranked
            if r.danger > 0 and r.card in plan.loose and card_value(r.card, rules, None) >= value
        ]
        if t.danger <= 0 and avoided:
            other = _card(avoided[0].card)
            what += f", and {other} would help the next seat"
        return f"Throw {card}: {what}"


# ---- hard ------------------------------------------------------------------------------------


class TableHard(TableMedium):
    """Medium, plus card tracking (live outs, what each rival took and passed over), a closer
    reading of the rivals' nearness to going out, safe throws, and Remi's joker close."""

    name = "table-hard"
    budget_ms = 100.0
    layoff_danger = 6.0  # a card the next seat, opened, could lay off at once from the pile
    # a card beside one the next seat took from the pile (it collects those): 3 measured a loss
    # against 0 at both tables (BENCHMARKS.md), as reading the rival's wants did in the show family
    want_danger = 0.0
    safe_window = 4.0  # a safe throw this close to the best goes instead
    joker_close = True  # Remi 51: keep a spare joker to close on
    # the one-draw look (off in hard): the best ``look_top`` throws are each credited
    # ``look_weight`` times what the next stock card is expected to take off the hand it leaves
    look_weight = 0.0
    look_top = 4
    out_worth = 20.0  # a draw that lets the hand go out: its score (going out wins the deal)
    # Hand Rummy (Rummy 40) and handling (Remi 51): going out in the turn a seat opens doubles
    # every rival's count.  With ``hold_hand`` > 0 an opening that would leave at most that many
    # cards loose after the throw is kept in hand for that, while no rival is near going out
    # (``risk`` at most ``hold_risk``).  0: open whenever the hand can.
    hold_hand = 0
    hold_risk = 0.5
    tunables = (
        *TableMedium.tunables,
        "layoff_danger",
        "want_danger",
        "safe_window",
        "joker_close",
        "look_weight",
        "look_top",
        "out_worth",
        "hold_hand",
        "hold_risk",
    )

    def __init__(self, seed: Seed, *, budget_ms: float | None = None) -> None:
        super().__init__(seed, budget_ms=budget_ms)
        self.passes = TablePassTracker()

    def observe(self, event: Event) -> None:
        self.passes.observe(event)

    def live(self, view: SeatView) -> list[int]:
        return table_unseen(view)

    def risk(self, view: SeatView) -> float:
        worst = 0.0
        for s in range(view.players):
            if s == view.seat:
                continue
            n = view.card_counts[s]
            opened = bool(view.opened) and view.opened[s]
            if opened:
                r = 1.0 if n <= 2 else 0.8 if n <= 4 else 0.55 if n <= 7 else 0.35
            else:
                # an unopened rival can still go out in one turn (Hand Rummy) once the deal ages
                r = 0.1 + min(0.3, view.turn / (view.players * 60.0))
            worst = max(worst, r)
        own_turns = view.turn // max(1, view.players)
        return max(worst, min(1.0, own_turns / 24.0))

    def _holds_back(self, view: SeatView, a: Action) -> bool:
        """Remi 51: a spare joker is kept to close on (-40, and the others count double) rather
        than laid off alone onto a meld, where it only saves its 20."""
        if not self.joker_close or view.rules.format != "penalty" or not view.rules.last_card_discard:
            return False
        if a.kind is not ActionKind.LAY_OFF or not a.cards or any(k != JOKER for k in a.cards):
            return False
        if view.owed_jokers or view.pile_due == JOKER:
            return False  # a joker the turn owes must go down
        return view.hand.count(JOKER) <= len(a.cards)

    def _holds_opening(self, view: SeatView) -> bool:
        if self.hold_hand <= 0 or view.pile_due is not None or view.owed_jokers:
            return False
        rules = view.rules
        # Remi's handling lays nothing onto a rival's meld; Hand Rummy may
        table = [] if rules.last_card_discard else list(view.melds)
        loose = len(best_leftover(view.hand, table, rules).loose)
        if loose <= 1:
            return False  # it goes out this turn: open
        return loose - 1 <= self.hold_hand and self.risk(view) <= self.hold_risk

    def _next_seat(self, view: SeatView) -> int:
        return (view.seat + 1) % view.players

    def danger(self, view: SeatView, k: int) -> float:
        """What throwing ``k`` may give the next seat (it alone may take the pile's card): a
        free lay-off onto the table once it has opened, unless it passed that very card over
        (and, with :attr:`want_danger`, a card beside one it took from the pile)."""
        nxt = self._next_seat(view)
        if k == JOKER or nxt == view.seat:
            return 0.0
        rules = view.rules
        opened = bool(view.opened) and view.opened[nxt]
        if not (opened or rules.pile_before_opening):
            return 0.0  # Remi 51: the pile is not the seat's to take before it opens
        d = 0.0
        if opened:
            for m in view.melds:
                if extend_meld(m, (k,), rules)[0] is not None or (
                    m.jokers and swap_slot(m, k)[0] is not None
                ):
                    d = self.layoff_danger
                    break
        took = view.took[nxt] if view.took and self.want_danger else ()
        if any(_completers(k, h, rules.ace_high) is not None for h in took if h != JOKER):
            d += self.want_danger
        if k in self.passes.passed.get(nxt, ()):
            d = 0.0 if not opened else min(d, self.layoff_danger)
        return d

    def rank_throws(self, view: SeatView, cards: Sequence[int], deadline: Deadline) -> list[ThrowScore]:
        ranked = super().rank_throws(view, cards, deadline)
        if self.look_weight <= 0 or len(ranked) < 2 or len(view.hand) <= 2:
            return ranked
        live = self.live(view)
        risk = self.risk(view)
        onto = self._lay_off_kinds(view)
        head: list[ThrowScore] = []
        for t in ranked[: self.look_top]:
            gain = self.draw_gain(view, _without(view.hand, t.card), live, risk, onto, deadline)
            if gain is None:
                return ranked  # a look at some throws and not others would favour those seen
            head.append(replace(t, score=t.score - self.look_weight * gain))
        out = head + ranked[len(head) :]
        out.sort(key=_throw_order(view.rules))
        return out

    def _lay_off_kinds(self, view: SeatView) -> frozenset[int]:
        """The natural kinds that would go onto a meld on the table (once this seat has opened)."""
        if not self._opened(view) or not view.melds:
            return frozenset()
        rules = view.rules
        return frozenset(
            k
            for k in range(JOKER)
            if any(may_extend(m, k) and extend_meld(m, (k,), rules)[0] is not None for m in view.melds)
        )

    def draw_gain(
        self,
        view: SeatView,
        hand: Sequence[int],
        live: Sequence[int],
        risk: float,
        onto: frozenset[int],
        deadline: Deadline | None = None,
    ) -> float | None:
        """What the next stock card is expected to take off the score of ``hand`` (the hand a
        throw leaves), over the live copies: a card that finishes an unfinished meld, goes onto
        the table or is a joker is kept and the dearest loose card thrown instead; any other
        card goes straight back (it gains nothing).  0 when nothing can help; ``None`` when the
        deadline passed first (a crowded table's leftovers can take a while)."""
        total = sum(live)
        if total <= 0:
            return 0.0
        rules = view.rules
        plan = self._plan_now(view, hand)
        base = self.hand_score(view, hand, live, risk).score
        wanted: set[int] = set(onto)
        if live[JOKER]:
            wanted.add(JOKER)
        naturals = sorted({k for k in plan.loose if k != JOKER})
        for i, a in enumerate(naturals):
            for b in naturals[i + 1 :]:
                kinds = _completers(a, b, rules.ace_high)
                if kinds:
                    wanted.update(kinds)
        gain = 0.0
        for k in wanted:
            n = live[k]
            if n <= 0:
                continue
            if deadline is not None and not self.untimed and deadline.expired():
                return None
            drawn = [*hand, k]
            after = self._plan_now(view, drawn)
            loose = [c for c in after.loose if c != JOKER]
            if len(after.loose) <= 1:
                score = -self.out_worth  # all goes down but a last card at most: it goes out
            elif not loose:
                continue  # only jokers left loose: keep them, throw the card back
            else:
                dearest = max(loose, key=lambda c: (card_value(c, rules, None), c))
                score = self.hand_score(view, _without(drawn, dearest), live, risk).score
            if score < base:
                gain += n * (base - score)
        return gain / total

    def pick(self, view: SeatView, ranked: Sequence[ThrowScore]) -> ThrowScore:
        best = ranked[0]
        if best.danger <= 0:
            return best
        for t in ranked[1:]:
            if t.danger <= 0 and t.score - best.score <= self.safe_window:
                return t
        return best


# ---- expert ----------------------------------------------------------------------------------


class TableExpert(TableHard):
    """Hard with a one-draw look and a hand evaluation tuned by duplicate self-play against hard.

    * The look (:meth:`TableHard.draw_gain`, ``look_weight`` 1): each of the best four throws
      is credited what the next stock card is expected to take off the hand it leaves, over
      the live copies (a card that finishes an unfinished meld, goes onto the table or lets the
      hand go out).  It costs up to tens of milliseconds a throw, so the expert asks for 300 ms.
    * At Rummy 40 unfinished melds weigh more (``partial_weight`` 4.5 against 3) and more of
      them count (``partial_cap`` 6 against 4), so it keeps building where hard sheds.
    * At Remi 51 (its low-is-good scoring, ``format = "penalty"``) those weights measured below
      hard, so there it weighs them as hard does (``remi_as_hard``); instead, before opening, it
      counts the cards that would go onto the table's melds once it has (``remi_reads_table``).
    * It holds an opening for Hand Rummy or Remi's handling (``hold_hand`` 3): while the throw
      would leave at most three cards loose and no rival is near going out, it keeps its melds
      in hand to go down all at once, when the rivals count double.  Heads up at Remi 51 that
      measured +0.42 over opening at once (3,000 decks); level at four seats and at Rummy 40,
      where an opening at 40 seldom comes so near a going out.

    No search over sampled worlds: a table-family deal cannot yet be played out from one the
    way the show family's is (BENCHMARKS.md)."""

    name = "table-expert"
    budget_ms = 300.0
    partial_weight = 4.5
    partial_cap = 6
    look_weight = 1.0
    hold_hand = 3
    remi_as_hard = True  # at Remi 51's scoring, hard's weights (the tuned ones measured a loss there)
    remi_reads_table = True  # at Remi 51, read the table before opening (with the look: +1.61)
    tunables = (*TableHard.tunables, "remi_as_hard", "remi_reads_table")

    def partial_weights(self, rules: Rules) -> tuple[float, int]:
        if self.remi_as_hard and rules.format == "penalty":
            return TableHard.partial_weight, TableHard.partial_cap
        return self.partial_weight, self.partial_cap

    def reads_table_at(self, rules: Rules) -> bool:
        return self.reads_table or (self.remi_reads_table and rules.format == "penalty")
