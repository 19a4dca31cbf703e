"""The person's own arrangement of the hand in the full-screen game: groups, a cursor, marks.

The engine holds a hand as sorted kinds; a player holds cards in the order they chose, in
groups they made.  A :class:`Layout` keeps that order between turns, as the web table does:
:meth:`Layout.sync` keeps every card still held where it was, drops the cards that left the
hand, and puts a new card (the one just drawn, a joker freed by a swap) in a group of its own at
the end.  Every card has an id, so the two 8♥ of two packs are two cards here too: marks and
the cursor follow the card, not the kind.

It knows nothing of the rules: the screen labels each group (``render.layout_lines``), and the
arranger's reading (:meth:`Layout.regroup`) or a sort (:meth:`Layout.sort`) replace the groups.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.engine.cards import JOKER, sort_key

__all__ = ["Held", "Layout", "rank_key"]


@dataclass(frozen=True, slots=True)
class Held:
    """One card in the hand as laid out: an id of its own and its kind."""

    uid: int
    kind: int


def rank_key(k: int) -> tuple[int, int]:
    """Rank first, then suit; jokers last."""
    if k == JOKER:
        return (99, 0)
    return (k % 13, k // 13)


class Layout:
    """The hand as the person arranged it: groups of cards, a cursor, marked cards."""

    def __init__(self) -> None:
        self.groups: list[list[Held]] = []
        self.cursor = 0  # a place in :meth:`cards`
        self.marked: set[int] = set()  # card ids
        self.fresh: int | None = None  # the id of the card just drawn
        self._next = 0

    # ---- reading ---------------------------------------------------------------------------

    def cards(self) -> list[Held]:
        return [h for g in self.groups for h in g]

    def kinds(self) -> list[int]:
        return [h.kind for h in self.cards()]

    def __len__(self) -> int:
        return sum(len(g) for g in self.groups)

    @property
    def current(self) -> Held | None:
        cards = self.cards()
        return cards[self.cursor] if cards else None

    def place_of(self, uid: int) -> tuple[int, int]:
        """The group and the place in it of card ``uid``."""
        for gi, g in enumerate(self.groups):
            for i, h in enumerate(g):
                if h.uid == uid:
                    return gi, i
        raise KeyError(uid)

    def marked_cards(self) -> list[Held]:
        return [h for h in self.cards() if h.uid in self.marked]

    def selection(self) -> list[Held]:
        """The marked cards in hand order, or the card under the cursor when none is marked."""
        marked = self.marked_cards()
        if marked:
            return marked
        return [self.current] if self.current is not None else []

    def marked_groups(self) -> list[list[int]]:
        """The marked cards, split by the groups they sit in (one meld a group), as kinds."""
        out = []
        for g in self.groups:
            kinds = [h.kind for h in g if h.uid in self.marked]
            if kinds:
                out.append(kinds)
        return out

    # ---- keeping up with the engine's hand -------------------------------------------------

    def _new(self, kind: int) -> Held:
        self._next += 1
        return Held(self._next, kind)

    def sync(self, hand: Sequence[int], drawn: int | None = None) -> None:
        """Make the layout hold exactly ``hand`` (kinds): cards still held stay where they are,
        cards gone leave (the last copies of a kind first), new cards come at the end in a group
        of their own; ``drawn`` (the kind just drawn) is marked fresh and gets the cursor."""
        want = Counter(hand)
        have = Counter(self.kinds())
        if want == have:
            return
        gone = have - want
        before = self.current
        for gi in range(len(self.groups) - 1, -1, -1):
            g = self.groups[gi]
            for i in range(len(g) - 1, -1, -1):
                if gone[g[i].kind] > 0:
                    gone[g[i].kind] -= 1
                    self.marked.discard(g[i].uid)
                    del g[i]
        self.groups = [g for g in self.groups if g]
        added = sorted((want - have).elements(), key=sort_key)
        if added:
            new = [self._new(k) for k in added]
            self.groups.append(new)
            fresh = next((h for h in new if h.kind == drawn), None)
            self.fresh = fresh.uid if fresh is not None else None
            if fresh is not None:
                self.cursor = self.cards().index(fresh)
                return
        else:
            self.fresh = None
        self._keep_cursor(before)

    def discard(self, uids: Sequence[int]) -> None:
        """Take the cards ``uids`` out (the cards just played), so :meth:`sync` removes those
        copies and not others of the same kind."""
        before = self.current
        drop = set(uids)
        for g in self.groups:
            g[:] = [h for h in g if h.uid not in drop]
        self.groups = [g for g in self.groups if g]
        self.marked -= drop
        self._keep_cursor(before if before is not None and before.uid not in drop else None)

    def _keep_cursor(self, card: Held | None) -> None:
        cards = self.cards()
        if card is not None and card in cards:
            self.cursor = cards.index(card)
        self.cursor = max(0, min(self.cursor, len(cards) - 1))

    # ---- the keys --------------------------------------------------------------------------

    def move(self, delta: int) -> None:
        """The cursor ``delta`` cards along (it stops at either end)."""
        self.cursor = max(0, min(self.cursor + delta, len(self) - 1))

    def jump(self, end: bool) -> None:
        self.cursor = len(self) - 1 if end else 0

    def next_group(self, delta: int) -> None:
        """The cursor to the first card of the next (``delta`` 1) or previous (-1) group."""
        card = self.current
        if card is None:
            return
        gi, _ = self.place_of(card.uid)
        gi = max(0, min(gi + delta, len(self.groups) - 1))
        self.cursor = self.cards().index(self.groups[gi][0])

    def toggle_mark(self) -> None:
        card = self.current
        if card is not None:
            self.marked ^= {card.uid}

    def clear_marks(self) -> None:
        self.marked.clear()

    def shift(self, delta: int) -> None:
        """Move the card under the cursor one place left (-1) or right (1).  At the edge of its
        group it goes into the neighbouring group; past either end of the hand it starts a group
        of its own (unless it is one already)."""
        card = self.current
        if card is None:
            return
        gi, i = self.place_of(card.uid)
        g = self.groups[gi]
        j = i + delta
        if 0 <= j < len(g):
            g[i], g[j] = g[j], g[i]
        elif 0 <= gi + delta < len(self.groups):
            del g[i]
            target = self.groups[gi + delta]
            if delta > 0:
                target.insert(0, card)
            else:
                target.append(card)
        elif len(g) > 1:
            del g[i]
            if delta > 0:
                self.groups.append([card])
            else:
                self.groups.insert(0, [card])
        self.groups = [x for x in self.groups if x]
        self.cursor = self.cards().index(card)

    def split(self) -> None:
        """The marked cards (or the card under the cursor) leave their groups and make a new
        group, in the place of the first of them."""
        chosen = self.selection()
        if not chosen:
            return
        first_group, _ = self.place_of(chosen[0].uid)
        ids = {h.uid for h in chosen}
        keep_before = [[h for h in g if h.uid not in ids] for g in self.groups[: first_group + 1]]
        keep_after = [[h for h in g if h.uid not in ids] for g in self.groups[first_group + 1 :]]
        groups = [g for g in keep_before if g] + [list(chosen)] + [g for g in keep_after if g]
        self.groups = groups
        self.marked.clear()
        self.cursor = self.cards().index(chosen[0])

    def set_groups(self, groups: Sequence[Sequence[int]]) -> None:
        """Lay the hand out as ``groups`` (kinds; together exactly the cards held), keeping each
        card's id (marks and the cursor follow their cards)."""
        pool: dict[int, list[Held]] = {}
        for h in self.cards():
            pool.setdefault(h.kind, []).append(h)
        if Counter(k for g in groups for k in g) != Counter(self.kinds()):
            raise ValueError("the groups are not the cards held")
        before = self.current
        self.groups = [[pool[k].pop(0) for k in g] for g in groups if g]
        self._keep_cursor(before)

    def sort(self, by_rank: bool = False) -> None:
        """One group a suit (jokers last), each by rank; or, ``by_rank``, every card by rank."""
        kinds = self.kinds()
        if by_rank:
            self.set_groups([sorted(kinds, key=rank_key)])
            return
        suits = [sorted((k for k in kinds if k != JOKER and k // 13 == s), key=sort_key) for s in range(4)]
        jokers = [k for k in kinds if k == JOKER]
        self.set_groups([*suits, jokers])
