"""The arranger: the best way to lay out a hand, its charge, and whether it shows.

The exact search lives in the C module ``_arrange`` (ints in, ints out); this
module turns rules into the search's configuration once, asks it the right
questions for the table's credit mode, and builds friendly objects at the
edge.  An :class:`Arranger` is made once per rules object and reused.

>>> from rummykit.engine.rules import get_preset
>>> from rummykit.engine.cards import parse_cards, format_cards
>>> arranger = Arranger(get_preset("nepali"))
>>> a = arranger.arrange(parse_cards("Ah 2h 3h 4c 5c 6c 7s 8s 9s Kd Kc Kh 5d"), wild=5)
>>> a.can_show, a.charge
(True, 0)
>>> [format_cards(g.cards) for g in a.groups]
['7s 8s 9s', '4c 5c 6c', 'Ah 2h 3h 5d', 'Kh Kd Kc']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from rummykit.engine import _arrange  # type: ignore[attr-defined]
from rummykit.engine.cards import JOKER, KINDS, format_card, sort_key
from rummykit.engine.groups import GroupRules, is_wild

T_NONE: int = _arrange.T_NONE
T_PURE: int = _arrange.T_PURE
T_LIVES: int = _arrange.T_LIVES
T_PUREONLY: int = _arrange.T_PUREONLY
T_SHOW: int = _arrange.T_SHOW

_KIND_NAMES = ("run", "set", "thennaali")
_CREDIT = {"pure": 0, "lives_except_pure": 1, "lives_flat": 2, "always": 3}


class ArrangeRules(GroupRules, Protocol):
    """The settings the arranger reads (a :class:`~rummykit.engine.rules.Rules` has them all)."""

    @property
    def complete_hand_charge(self) -> int | None: ...


@dataclass(frozen=True, slots=True)
class Group:
    """One group of an arrangement, cards in playing order (runs low to high)."""

    cards: tuple[int, ...]
    kind: str  # "run", "set", "thennaali" or "jokers" (a joker-only set of nothing)
    pure: bool
    stands_for: tuple[int | None, ...]  # the natural kind each card plays as (None: any)

    @property
    def is_run(self) -> bool:
        return self.kind in ("run", "thennaali")

    def __str__(self) -> str:
        return " ".join(format_card(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """The arranger's answer for one hand."""

    groups: tuple[Group, ...]
    loose: tuple[int, ...]
    charge: int
    can_show: bool
    credited: bool  # False when the charge counts grouped cards too (no pure run, or flat)
    needs: tuple[str, ...]  # what a show still needs, in words; () when it can show
    finish: tuple[int, ...] = ()  # 14 cards: the kinds whose throw leaves a show
    throw: int | None = None  # 14 cards: the throw that leaves the lowest charge
    away: int | None = None  # exchanges to a show, when asked for (see Arranger.away)
    extra: dict[str, object] = field(default_factory=dict, compare=False)

    @property
    def has_pure(self) -> bool:
        return any(g.pure and g.is_run for g in self.groups)

    @property
    def runs(self) -> int:
        return sum(1 for g in self.groups if g.is_run)


def card_values(rules: ArrangeRules) -> tuple[int, ...]:
    """Loose value by rank (index 0 unused): 2–10 face, J Q K 10, the ace per rules."""
    return (0, rules.ace_value, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


_Raw = tuple[int, list[tuple[int, int, int, int, bytes]], bytes, tuple[int, int, int, int], int, int]
_Solved = tuple[int, bool, bool, "_Raw | None"]


class Arranger:
    """Exact arrangements for one set of rules.  Build once, call often."""

    __slots__ = ("_config", "_values", "rules")

    def __init__(self, rules: ArrangeRules) -> None:
        self.rules = rules
        self._values = card_values(rules)
        self._config = _arrange.make_config(
            int(rules.ace_high),
            int(rules.wrap),
            -1 if rules.max_jokers_per_group is None else rules.max_jokers_per_group,
            -1 if rules.max_jokers_in_set is None else rules.max_jokers_in_set,
            rules.min_naturals,
            int(rules.adjacent_jokers),
            int(rules.joker_only_groups),
            int(rules.thennaali),
            rules.runs_needed,
            int(rules.long_run_required),
            list(self._values),
            rules.joker_value,
            _CREDIT[rules.credit],
            -1 if rules.full_count is None else rules.full_count,
            -1 if rules.complete_hand_charge is None else rules.complete_hand_charge,
        )

    # ---- the hot path: ints only -------------------------------------------------

    def _counts(self, kinds: Sequence[int]) -> tuple[bytes, int]:
        counts = bytearray(KINDS)
        for k in kinds:
            counts[k] += 1
        printed = counts[JOKER]
        return bytes(counts[:52]), printed

    def value(self, k: int, wild: int | None) -> int:
        """What one loose card is charged."""
        if k == JOKER or (wild is not None and k % 13 + 1 == wild):
            return self.rules.joker_value
        return self._values[k % 13 + 1]

    def total(self, kinds: Sequence[int], wild: int | None) -> int:
        return sum(self.value(k, wild) for k in kinds)

    def can_show(self, kinds: Sequence[int], wild: int | None) -> bool:
        counts, printed = self._counts(kinds)
        return _arrange.search(self._config, counts, printed, wild or 0, T_SHOW) is not None

    def _cap(self, charge: int) -> int:
        full = self.rules.full_count
        return charge if full is None else min(charge, full)

    def _complete(self, wild: int | None) -> int:
        c = self.rules.complete_hand_charge
        assert c is not None
        return c + 1 if wild == 2 else c  # seed 004: "2 (3 when twos are wild)"

    def _solve(self, kinds: Sequence[int], wild: int | None, display: bool = True) -> _Solved:
        """(charge, can_show, credited, raw arrangement) for a hand."""
        counts, printed = self._counts(kinds)
        return self._solve_counts(counts, printed, wild, self.total(kinds, wild), display)

    def _solve_counts(
        self, counts: bytes, printed: int, wild: int | None, total: int, display: bool
    ) -> _Solved:
        """The credit mode's questions to the search.  Without ``display`` the
        searches made only to show groups (when the charge no longer depends
        on them) are skipped, and the raw arrangement may be None."""
        w = wild or 0
        config = self._config
        search = _arrange.search
        show = search(config, counts, printed, w, T_SHOW)
        if show is not None:
            charge = 0 if self.rules.complete_hand_charge is None else self._complete(wild)
            return charge, True, True, show
        credit = self.rules.credit
        if credit == "always":
            raw = search(config, counts, printed, w, T_NONE)
            return self._cap(raw[0]), False, True, raw
        if credit == "pure":
            raw = search(config, counts, printed, w, T_PURE)
            if raw is not None:
                return self._cap(raw[0]), False, True, raw
            raw = search(config, counts, printed, w, T_NONE) if display else None
            return self._cap(total), False, False, raw
        lives = search(config, counts, printed, w, T_LIVES)
        if lives is not None and lives[0] == 0:
            return 0, False, True, lives
        if credit == "lives_except_pure":
            pure = search(config, counts, printed, w, T_PUREONLY)
            if lives is not None and (pure is None or lives[0] <= pure[0]):
                return self._cap(lives[0]), False, True, lives
            if pure is not None:
                return self._cap(pure[0]), False, False, pure
        elif credit == "lives_flat":
            if lives is not None:
                return self._cap(lives[0]), False, True, lives
        else:
            raise ValueError(f"unknown credit mode {credit!r}")
        # the charge no longer depends on the groups; show the closest thing
        # to a show: a pure run when there is one, else the fewest loose cards
        raw = None
        if display:
            raw = search(config, counts, printed, w, T_PURE) or search(config, counts, printed, w, T_NONE)
        if credit == "lives_flat" and self.rules.full_count is not None:
            return self.rules.full_count, False, False, raw
        return self._cap(total), False, False, raw

    def away(self, kinds: Sequence[int], wild: int | None) -> int:
        """How many cards away from a show: the fewest exchanges (draw one,
        throw one) after which the hand shows, if every draw were the card it
        wants.  0 when it can show now.  Exact under that reading, with the
        wanted cards assumed still to be had."""
        counts, printed = self._counts(kinds)
        return int(_arrange.away(self._config, counts, printed, wild or 0))

    def charge(self, kinds: Sequence[int], wild: int | None) -> int:
        """What the hand is charged if another seat shows now."""
        return self._solve(kinds, wild, display=False)[0]

    def finishing(self, kinds: Sequence[int], wild: int | None) -> list[int]:
        """For a hand of one card more: the kinds whose throw leaves a show."""
        return list(self.best_throw(kinds, wild)[0])

    def best_throw(self, kinds: Sequence[int], wild: int | None) -> tuple[bytes, int, int]:
        """For a hand of one card more: (finishing kinds, the best throw, the
        charge it leaves).  A throw that shows beats any charge, then the lowest
        charge, then the dearest card out of the hand.  One call into the
        search, the throws sharing one bound."""
        counts = bytearray(KINDS)
        for k in kinds:
            counts[k] += 1
        finish, throw, charge = _arrange.best_throw(self._config, bytes(counts), wild or 0)
        return finish, throw, charge

    # ---- friendly answers ---------------------------------------------------------

    def arrange(self, kinds: Sequence[int], wild: int | None, *, away: bool = False) -> Arrangement:
        """The best arrangement of a hand of ``hand_size`` cards, or for one card
        more the best throw and every finishing card.  ``away=True`` also
        counts the cards away from a show (slower: a search of its own)."""
        hand_size = getattr(self.rules, "hand_size", 13)
        if len(kinds) == hand_size + 1:
            a = self._arrange_plus_one(kinds, wild)
            if away and a.throw is not None:
                rest = list(kinds)
                rest.remove(a.throw)
                a = replace(a, away=0 if a.finish else self.away(rest, wild))
            return a
        charge, can_show, credited, raw = self._solve(kinds, wild)
        a = self._build(kinds, wild, charge, can_show, credited, raw)
        if away:
            a = replace(a, away=0 if can_show else self.away(kinds, wild))
        return a

    def _arrange_plus_one(self, kinds: Sequence[int], wild: int | None) -> Arrangement:
        finish, throw, _charge = self.best_throw(kinds, wild)
        rest = list(kinds)
        rest.remove(throw)
        charge, can_show, credited, raw = self._solve(rest, wild)
        a = self._build(rest, wild, charge, can_show, credited, raw)
        return replace(a, can_show=bool(finish), finish=tuple(finish), throw=throw)

    def _build(
        self,
        kinds: Sequence[int],
        wild: int | None,
        charge: int,
        can_show: bool,
        credited: bool,
        raw: _Raw | None,
    ) -> Arrangement:
        assert raw is not None, "display searches were skipped"
        _value, raw_groups, raw_loose, wild_suits, jog, _unplaced = raw
        # the hand's wild cards, in the order they fill joker slots: cut cards
        # held as jokers first, then printed jokers
        pool: list[int] = []
        if wild is not None:
            for suit, n in enumerate(wild_suits):
                pool += [suit * 13 + wild - 1] * n
        pool += [JOKER] * sum(1 for k in kinds if k == JOKER)
        laid: list[tuple[str, bool, list[int], list[int]]] = []  # (kind, pure, cards, stands_for)
        for kind_id, pure, suit, start, slots in raw_groups:
            name = _KIND_NAMES[kind_id]
            stands: list[int] = []
            for i, s in enumerate(slots):
                if name == "run":
                    pos = (start - 1 + i) % 13 + 1 if self.rules.wrap else start + i
                    stands.append(suit * 13 + (1 if pos == 14 else pos) - 1)
                else:
                    stands.append(s if s != JOKER else -1)
            if name == "set":
                # jokers in a set stand for the suits the set lacks
                held = {c // 13 for c in slots if c != JOKER}
                missing = [x * 13 + start - 1 for x in range(4) if x not in held]
                stands = [p if p != -1 else missing.pop(0) for p in stands]
            laid.append((name, bool(pure), [s if s != JOKER else -1 for s in slots], stands))
        # a joker slot that stands for a cut card held as a joker gets that very
        # card first (it then plays as itself, which reads better); the other
        # slots take what is left
        for _name, _pure, cards, stands in laid:
            for i, p in enumerate(stands):
                if cards[i] == -1 and p in pool:
                    pool.remove(p)
                    cards[i] = p
        groups: list[Group] = []
        for name, pure, cards, stands in laid:
            for i in range(len(cards)):
                if cards[i] == -1:
                    cards[i] = pool.pop()
            if name == "run":
                pure = all(c == p for c, p in zip(cards, stands, strict=True))
            groups.append(Group(tuple(cards), name, pure, tuple(stands)))
        groups.sort(key=_group_order)
        if jog:
            groups.append(Group(tuple(pool.pop() for _ in range(jog)), "jokers", False, (None,) * jog))
        loose = tuple(sorted(tuple(raw_loose) + tuple(pool), key=sort_key))
        needs = self._needs(groups, loose, wild) if not can_show else ()
        return Arrangement(tuple(groups), loose, charge, can_show, credited, needs)

    def _needs(self, groups: list[Group], loose: tuple[int, ...], wild: int | None) -> tuple[str, ...]:
        """What stands between this arrangement and a show, in a player's words."""
        out = []
        runs = sum(1 for g in groups if g.is_run)
        if not any(g.pure and g.is_run for g in groups):
            out.append("a pure run")
            runs_short = self.rules.runs_needed - max(runs, 1)
        else:
            runs_short = self.rules.runs_needed - runs
        if runs_short == 1:
            out.append("a second run" if self.rules.runs_needed == 2 else "one more run")
        elif runs_short > 1:
            out.append(f"{runs_short} more runs")
        if self.rules.long_run_required and not any(g.is_run and len(g.cards) >= 4 for g in groups):
            out.append("a run of four or more cards")
        naturals = [k for k in loose if self.value(k, wild) > 0 or not is_wild(k, wild)]
        if naturals:
            n = len(naturals)
            out.append(f"{n} loose card" if n == 1 else f"{n} loose cards")
        elif not out:
            out.append("its jokers placed")
        return tuple(out)


def _group_order(g: Group) -> tuple[int, int, int]:
    """Pure runs first, then other runs, then sets; each by suit and rank."""
    first = g.stands_for[0] if g.stands_for and g.stands_for[0] is not None else 52
    return (0 if g.pure and g.is_run else 1 if g.is_run else 2, first // 13 if g.is_run else 4, first % 13)
