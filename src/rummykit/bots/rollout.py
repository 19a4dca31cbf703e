"""A light show-family playout on kinds, for the hard bot's search over sampled worlds.

The engine's :class:`~rummykit.engine.deal.ShowDeal` checks every rule and logs every event;
a search plays thousands of deals a decision, so it plays them here instead: hands as lists of
kinds, the stock and pile as lists, and every seat playing the greedy policy (the
:class:`~rummykit.bots.baseline.GreedyPlayer`'s: take the pile card when it makes a show or
lowers the charge, show as soon as possible, else throw the arranger's best throw).  A playout
returns each seat's net in the settlement sense (the winner collects the others' charges).

It never sees a real deal: the worlds come from :func:`~rummykit.bots.tracking.sample_hidden`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummykit.engine.arrange import Arranger

__all__ = ["Playout"]


class Playout:
    """Greedy playouts for one set of rules and one wild rank."""

    __slots__ = ("_best", "_charge", "_pick_wild", "_wild", "arranger", "max_turns")

    def __init__(self, arranger: Arranger, wild: int | None, *, max_turns: int = 120) -> None:
        self.arranger = arranger
        self._wild = wild
        self._best = arranger.best_throw
        self._charge = arranger.charge
        self._pick_wild = bool(getattr(arranger.rules, "pick_joker_from_pile", True))
        self.max_turns = max_turns

    def _wild_card(self, k: int) -> bool:
        w = self._wild
        return k == 52 or (w is not None and k % 13 + 1 == w)

    def may_want(self, hand: list[int], top: int) -> bool:
        """Whether the pile card is worth a look (a search): a joker that may be taken, or a
        natural card that would sit in a group with one of the hand's natural cards.  It skips
        the pile card that only swaps a dear loose card for a cheaper one, which greedy takes."""
        if self._wild_card(top):
            return self._pick_wild
        suit, rank = divmod(top, 13)
        for k in hand:
            if k == 52:
                continue
            s, r = divmod(k, 13)
            if r == rank:
                if s != suit:
                    return True
            elif s == suit and (abs(r - rank) <= 2 or abs(r - rank) >= 11):
                return True
        return False

    def play(
        self,
        hands: list[list[int]],
        stock: list[int],
        pile: list[int],
        in_play: Sequence[bool],
        charged: Sequence[int],
        to_play: int,
        rng: random.Random,
        *,
        charges: list[int] | None = None,
        turns_left: int | None = None,
    ) -> list[int]:
        """Play from the start of ``to_play``'s turn to the end of the deal (see :meth:`play_until`)."""
        nets = self.play_until(
            hands, stock, pile, in_play, charged, to_play, rng, charges=charges, turns_left=turns_left
        )
        assert nets is not None
        return nets

    def play_until(
        self,
        hands: list[list[int]],
        stock: list[int],
        pile: list[int],
        in_play: Sequence[bool],
        charged: Sequence[int],
        to_play: int,
        rng: random.Random,
        *,
        charges: list[int] | None = None,
        turns_left: int | None = None,
        stop: tuple[int, int] | None = None,
    ) -> list[int] | None:
        """Play from the start of ``to_play``'s turn to the end; the lists are changed in place.

        ``charged`` are the seats' fixed charges (drops) for seats out of play; ``charges`` the
        hands' current charges when known (``-1``: unknown).  Returns every seat's net.  With
        ``stop=(seat, turns)`` the play-out stops at the start of ``seat``'s turn once at least
        ``turns`` turns were played, and returns ``None`` when the deal has not ended by then
        (the hands are left as they stand, for the caller to judge).
        """
        n = len(hands)
        best, charge, wild = self._best, self._charge, self._wild
        if charges is None:
            charges = [charge(h, wild) if in_play[s] else 0 for s, h in enumerate(hands)]
        else:
            charges = [
                charge(h, wild) if in_play[s] and c < 0 else c
                for s, (h, c) in enumerate(zip(hands, charges, strict=True))
            ]
        seat = to_play
        limit = self.max_turns if turns_left is None else min(turns_left, self.max_turns)
        for played in range(limit):
            if stop is not None and seat == stop[0] and played >= stop[1]:
                return None
            hand = hands[seat]
            top = pile[-1] if pile else None
            took = False
            if top is not None and self.may_want(hand, top):
                hand.append(top)
                finish, throw, after = best(hand, wild)
                if any(k != top for k in finish):
                    pile.pop()
                    return self.show(hands, in_play, charged, seat, hand, finish, top)
                if not finish and throw != top and after < charges[seat]:
                    pile.pop()
                    took = True
                else:
                    hand.pop()
            if not took:
                if not stock:
                    if len(pile) <= 1:
                        break
                    under = pile[:-1]
                    del pile[:-1]
                    rng.shuffle(under)
                    stock.extend(under)
                hand.append(stock.pop())
                finish, throw, after = best(hand, wild)
                if finish:
                    return self.show(hands, in_play, charged, seat, hand, finish, None)
            hand.remove(throw)
            pile.append(throw)
            charges[seat] = after
            seat = (seat + 1) % n
            while not in_play[seat]:
                seat = (seat + 1) % n
        # the turn limit: every hand shown as it stands, the lowest charge wins
        order = [(seat + i) % n for i in range(n) if in_play[(seat + i) % n]]
        winner = min(order, key=lambda s: charges[s])
        return self._settle(charges, in_play, charged, winner)

    def show(
        self,
        hands: list[list[int]],
        in_play: Sequence[bool],
        charged: Sequence[int],
        seat: int,
        hand: list[int],
        finish: bytes,
        top: int | None,
    ) -> list[int]:
        """``seat`` shows with ``hand`` (fourteen cards) by a finishing card other than ``top``
        (the card it took from the pile); the nets."""
        card = next(k for k in finish if k != top)
        hand.remove(card)
        charge, wild = self._charge, self._wild
        charges = [0 if s == seat or not in_play[s] else charge(h, wild) for s, h in enumerate(hands)]
        return self._settle(charges, in_play, charged, seat)

    @staticmethod
    def _settle(
        charges: Sequence[int], in_play: Sequence[bool], charged: Sequence[int], winner: int
    ) -> list[int]:
        paid = [(charges[s] if in_play[s] else charged[s]) if s != winner else 0 for s in range(len(charges))]
        total = sum(paid)
        return [total if s == winner else -paid[s] for s in range(len(paid))]
