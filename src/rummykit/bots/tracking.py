"""Card tracking for one seat: what is dead, what each seat holds for sure, what is still live.

Everything here is read from the seat's own :class:`~rummykit.engine.views.SeatView` and the
events it observed, never from the deal: the pile, the cut card, the cards each seat took from
the pile (which it holds until it throws that kind again) and, from the events, the pile cards
each seat passed over by drawing from the stock instead.

:func:`sample_hidden` deals the cards this seat cannot see into one *world* consistent with the
view: every other seat in play gets the cards it is known to hold plus unseen cards at random,
the stock gets ``stock_count`` more, and what is left is out of play (dropped hands).  Worlds are
drawn with the caller's generator, so a seeded bot samples the same worlds every time.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.engine.cards import JOKER, KINDS
from rummykit.engine.events import Dealt, DrewStock, Event, Showed, StockRebuilt, Threw, TookPile
from rummykit.engine.events import SeatStatus as _Status
from rummykit.engine.rules import Rules
from rummykit.engine.views import SeatView

__all__ = ["Knowledge", "PassTracker", "World", "is_wild", "near", "read_view", "sample_hidden"]


def is_wild(k: int, wild: int | None) -> bool:
    return k == JOKER or (wild is not None and k % 13 + 1 == wild)


def copies(rules: Rules) -> list[int]:
    """How many cards of each kind the shoe holds."""
    out = [rules.packs] * KINDS
    out[JOKER] = rules.printed_jokers
    return out


def near(a: int, b: int, ace_high: bool = True) -> bool:
    """Whether natural kinds ``a`` and ``b`` can sit in one group: the same rank (a set), or one
    suit within two ranks (a run, the ace also above the king where the rules allow)."""
    if a == JOKER or b == JOKER:
        return False
    ra, rb = a % 13, b % 13
    if ra == rb:
        return a != b  # the same card twice never sits in one set (but may in two runs)
    if a // 13 != b // 13:
        return False
    d = abs(ra - rb)
    return d <= 2 or (ace_high and d >= 11)  # 11, 12: A with Q, K


class PassTracker:
    """Follows the pile through the events a seat observes, to know which pile card each seat
    passed over (drew from the stock while it lay on top): a card a seat did not want."""

    __slots__ = ("_pile", "passed")

    def __init__(self) -> None:
        self._pile: list[int] = []
        self.passed: dict[int, list[int]] = {}

    def observe(self, event: Event) -> None:
        if isinstance(event, Dealt):
            self._pile = [] if event.pile_top is None else [event.pile_top]  # none turned up: Remi 51
            self.passed = {}
        elif isinstance(event, Threw | Showed):
            self._pile.append(event.card)
        elif isinstance(event, TookPile):
            if self._pile:
                self._pile.pop()
        elif isinstance(event, DrewStock):
            if self._pile and event.seat is not None:
                self.passed.setdefault(event.seat, []).append(self._pile[-1])
        elif isinstance(event, StockRebuilt):
            self._pile = self._pile[-1:]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows of the cards (kinds) it cannot see."""

    unseen: tuple[int, ...]  # per kind: copies not in sight (stock, other hands, out of play)
    holds: tuple[tuple[int, ...], ...]  # per seat: kinds it took from the pile and still holds
    passed: tuple[tuple[int, ...], ...]  # per seat: pile cards it passed over
    thrown: tuple[tuple[int, ...], ...]  # per seat: kinds it threw

    def live(self, k: int) -> int:
        """Copies of ``k`` that may still come to this seat (stock, or other hands)."""
        return self.unseen[k]

    def wanted_by(self, seat: int, k: int, ace_high: bool = True) -> bool:
        """Whether seat ``seat`` has shown it wants cards around ``k``: it took a card from the
        pile that ``k`` could sit in a group with."""
        return any(near(k, h, ace_high) or h == k for h in self.holds[seat])

    def danger(self, seats: Sequence[int], k: int, ace_high: bool = True) -> int:
        """How many of ``seats`` have shown they want cards around ``k``."""
        return sum(1 for s in seats if self.wanted_by(s, k, ace_high))


def read_view(view: SeatView, passes: PassTracker | None = None) -> Knowledge:
    """The seat's knowledge from its view (and the passes its events showed)."""
    rules = view.rules
    unseen = copies(rules)
    for k in view.hand:
        unseen[k] -= 1
    for k in view.pile:
        unseen[k] -= 1
    if view.cut is not None:
        unseen[view.cut] -= 1
    holds: list[tuple[int, ...]] = []
    for s in range(view.players):
        if s == view.seat or view.statuses[s] is not _Status.IN:
            holds.append(())
            continue
        held = Counter(view.took[s])
        held.subtract(Counter(view.thrown[s]))
        known = []
        for k, n in sorted(held.items()):
            for _ in range(max(0, n)):
                if unseen[k] > 0:  # a card back on the pile is in sight, not in a hand
                    unseen[k] -= 1
                    known.append(k)
        holds.append(tuple(known))
    passed = tuple(tuple(passes.passed.get(s, ())) if passes else () for s in range(view.players))
    # the shown hands' cards are public too, but only once the deal is over: no need here
    return Knowledge(tuple(max(0, u) for u in unseen), tuple(holds), passed, view.thrown)


@dataclass(slots=True)
class World:
    """One sampled deal from this seat's point of view: every hand (kinds; this seat's own as it
    is), the stock (top last) and the pile (top last)."""

    hands: list[list[int]]
    stock: list[int]
    pile: list[int]


def sample_hidden(view: SeatView, know: Knowledge, rng: random.Random) -> World:
    """One world consistent with the view: the unseen cards shuffled and dealt to the other seats
    in play (after what each is known to hold), then to the stock; the rest is out of play."""
    pool: list[int] = []
    for k, n in enumerate(know.unseen):
        if n:
            pool.extend([k] * n)
    rng.shuffle(pool)
    hands: list[list[int]] = []
    pos = 0
    for s in range(view.players):
        if s == view.seat:
            hands.append(list(view.hand))
        elif view.statuses[s] is not _Status.IN:
            hands.append([])
        else:
            need = view.card_counts[s] - len(know.holds[s])
            hand = list(know.holds[s]) + pool[pos : pos + need]
            pos += need
            hands.append(hand)
    stock = pool[pos : pos + view.stock_count]
    return World(hands, stock, list(view.pile))
