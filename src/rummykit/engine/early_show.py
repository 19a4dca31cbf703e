"""The early show: one rule for the engine's deals and for the score sheet.

RULES.md (Online points, ``early_show_halves``): "a show made before every seat has had one
turn halves what the others are charged (round down)".  :class:`~rummykit.engine.show.ShowDeal`
applies it when a deal ends by a show, and the score sheet (:mod:`rummykit.engine.match`, through
:mod:`rummykit.sheet.entry`) checks and halves an entered deal marked as an early show with the
same two functions, so the table and the sheet charge the same.

Settled here (RULES.md leaves these open):

* **Which charges.**  Every seat but the winner is charged half of what it would have been
  charged, rounding down: a hand's count (the full count included), a drop's cost (RULES.md: "a
  dropped seat is charged its drop", so a drop is a charge) and a wrong show's penalty ("a
  wrong show is charged its penalty").  The winner is charged 0 as always.
* **Every seat has had one turn** when each seat of the deal other than the one showing has
  ended at least one turn of its own.  A turn ends with a throw, with a drop (dropping is the
  seat's turn) or with a wrong show (which ends the seat's turn; it then sits out), so a seat
  that dropped or sat out after a wrong show has had its turn.  A seat out of a pool is not at
  the deal and is not waited for.  The show is the showing seat's own turn, so the seat that
  plays first showing at its first turn is early whenever another seat is at the deal.
* Only a valid show that ends the deal is early; a deal won by the last seat in is never
  halved.  Tables whose rules do not halve (``early_show_halves`` off) never halve.

>>> is_early_show([0, 1, 0, 0], 1)   # seat 1 shows at the table's first turn
True
>>> is_early_show([1, 1, 1, 0], 3)   # seat 3 shows once everybody else has played
False
>>> [halved(c) for c in (80, 45, 20, 0)]
[40, 22, 10, 0]
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["halved", "is_early_show"]


def is_early_show(turns_taken: Sequence[int], seat: int) -> bool:
    """Whether a show by ``seat`` now is early: some other seat of the deal has not yet ended a
    turn of its own (``turns_taken`` by deal seat, this turn not yet counted)."""
    return any(turns == 0 for other, turns in enumerate(turns_taken) if other != seat)


def halved(charge: int) -> int:
    """What an early show charges a seat that would have been charged ``charge``: half, rounded
    down."""
    return charge // 2
