"""A match played deal by deal: what the terminal game, the simulator and the web table drive.

A :class:`MatchSession` owns a :class:`~rummykit.engine.match.Match` (the score sheet) and the
deal being played.  :meth:`~MatchSession.start_deal` deals the next deal; the caller drives it
(``session.deal.apply(...)``, by *deal* seat); :meth:`~MatchSession.finish_deal` turns its
:class:`~rummykit.engine.events.DealResult` into a :class:`~rummykit.engine.match.DealEntry` and
adds it to the match.  Between deals, seats out of a pool may rejoin.

Deterministic: deal ``n`` (0-based) is shuffled with the seed ``f"{seed}/{n}"``, so the same
session seed and the same actions make the same match, whatever else runs beside it.

Settled here:

* Seats out of a pool do not play.  A deal is made for the seats still in: the rules with
  ``players`` = seats in (so Kerala's three packs apply only while seven or eight play), and
  deal seat ``i`` is match seat ``session.deal_seats[i]`` (the seats in, in order).
  The match's dealer (one seat left each deal, skipping seats out) deals.  A seat that
  rejoins plays again from the next deal.
* A deals match forbids dropping whatever the drop settings say (RULES.md: "No dropping";
  match.py refuses a drop there), so its deals are made with no drop costs.
* Deal result to sheet entry, per seat: the winner is ``winner`` with charge 0, also when a turn
  limit (or the engine's cap, or a blocked stock) made the lowest hand the winner with a count of
  its own (RULES.md: nobody pays more than their own charge, and the winner pays nothing); a drop
  is ``dropped`` or ``middle_drop`` as the :class:`~rummykit.engine.events.Dropped` event says;
  a wrong show is ``wrong_show`` at its penalty; a hand still in is ``full_count`` when its
  count before any halving is the full count, else ``played`` (any count: Kerala's complete
  hand 2); a seat out of the pool is ``out`` at 0.  Each charge is the deal's, so after an early
  show (:mod:`rummykit.engine.early_show`) every one is halved, and the entry is marked
  ``early``, which the sheet checks the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit.engine.arrange import Arranger
from rummykit.engine.deal import new_deal
from rummykit.engine.deal_base import TURN_CAP, Deal
from rummykit.engine.events import DealResult, Dropped, SeatStatus
from rummykit.engine.match import (
    DealEntry,
    DealRow,
    Match,
    RejoinOffer,
    RejoinRecord,
    Standing,
    Status,
    Verdict,
)
from rummykit.engine.rules import Rules
from rummykit.engine.show import ShowDeal

__all__ = ["MatchSession", "SessionError", "deal_seed", "entry_for"]

Seed = int | str


class SessionError(ValueError):
    """A session step out of order (a deal still being played, none to finish, the match over)."""


def deal_seed(seed: Seed, n: int) -> str:
    """The seed of deal ``n`` (0-based) of a session or simulation seeded ``seed``."""
    return f"{seed}/{n}"


def entry_for(deal: Deal, seats: Sequence[int], players: int, rules: Rules | None = None) -> DealEntry:
    """The sheet's entry for a finished ``deal`` whose seat ``i`` is match seat ``seats[i]``, at a
    table of ``players`` seats (the others are ``out`` at 0); see the module's notes."""
    result = deal.result
    if result is None:
        raise SessionError("the deal is not over yet")
    rules = deal.rules if rules is None else rules
    first_drop = {e.seat: e.first for e in deal.events if isinstance(e, Dropped)}
    charges = [0] * players
    statuses = [Status.OUT] * players
    for r in result.seats:
        seat = seats[r.seat]
        charges[seat] = r.charge
        statuses[seat] = _status(r.seat, result, first_drop, rules)
    return DealEntry(tuple(charges), tuple(statuses), seats[result.winner], result.halved)


def _status(seat: int, result: DealResult, first_drop: dict[int, bool], rules: Rules) -> Status:
    r = result.seats[seat]
    if r.won:
        return Status.WINNER
    if r.status is SeatStatus.DROPPED:
        return Status.DROPPED if first_drop.get(seat, False) else Status.MIDDLE_DROP
    if r.status is SeatStatus.OUT:
        return Status.WRONG_SHOW
    if rules.full_count is not None and r.hand_charge == rules.full_count:
        return Status.FULL_COUNT
    return Status.PLAYED


class MatchSession:
    """One match, deal by deal: the score sheet and the deal being played.

    ``names`` (default ``seat 1`` …) gives the number of seats, else ``rules.players`` does.
    """

    def __init__(
        self,
        rules: Rules,
        seed: Seed,
        names: Sequence[str] | None = None,
        first_dealer: int = 0,
        *,
        turn_cap: int = TURN_CAP,
    ) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise SessionError(f"a session's seed is an int or a str, not {seed!r}")
        players = rules.players if names is None else len(names)
        self.match: Final = Match.new(rules, players, names, first_dealer=first_dealer)
        self.rules: Final = rules
        self.seed: Final = seed
        self.turn_cap: Final = turn_cap
        self._deal: Deal | None = None
        self._deal_seats: tuple[int, ...] = ()
        self._recorded = True  # the current deal (if any) is on the sheet
        self._tables: dict[int, tuple[Rules, Arranger | None]] = {}

    # ---- reading ---------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.match.players

    @property
    def names(self) -> tuple[str, ...]:
        return self.match.names

    @property
    def deal(self) -> Deal | None:
        """The deal being played, or the last one played between deals (``None`` before the first)."""
        return self._deal

    @property
    def deal_seats(self) -> tuple[int, ...]:
        """The current deal's seats as match seats: deal seat ``i`` is match seat ``deal_seats[i]``."""
        return self._deal_seats

    @property
    def in_deal(self) -> bool:
        """A deal has been started and is not yet on the sheet."""
        return not self._recorded

    @property
    def deals_played(self) -> int:
        return len(self.match.rows)

    @property
    def rows(self) -> tuple[DealRow, ...]:
        return self.match.rows

    @property
    def totals(self) -> tuple[int, ...]:
        return self.match.totals

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    @property
    def winners(self) -> tuple[int, ...]:
        return self.match.winners

    def standing(self, seat: int) -> Standing:
        return self.match.standing(seat)

    def deal_seat(self, seat: int) -> int | None:
        """Match seat ``seat``'s seat in the current deal, ``None`` when it is not playing it."""
        try:
            return self._deal_seats.index(seat)
        except ValueError:
            return None

    def match_seat(self, deal_seat: int) -> int:
        """The match seat playing deal seat ``deal_seat``."""
        return self._deal_seats[deal_seat]

    # ---- playing -----------------------------------------------------------------------------

    def _table(self, players: int) -> tuple[Rules, Arranger | None]:
        """The rules (and, for the show family, a shared arranger) of a deal for ``players`` seats."""
        table = self._tables.get(players)
        if table is None:
            changes: dict[str, object] = {}
            if players != self.rules.players:
                changes["players"] = players
            if self.rules.format == "deals" and self.rules.dropping_allowed:
                changes["drop_first"] = changes["drop_middle"] = None
            rules = self.rules.replace(**changes) if changes else self.rules
            table = self._tables[players] = (rules, Arranger(rules) if rules.is_show else None)
        return table

    def start_deal(self) -> Deal:
        """Deal the next deal to the seats still in and return it (drive it by deal seat)."""
        if self.match.is_over:
            raise SessionError("the match is over: no more deals")
        if not self._recorded:
            raise SessionError("finish the deal being played first")
        n = len(self.match.rows)
        seats = self.match.seats_in
        rules, arranger = self._table(len(seats))
        dealer = seats.index(self.match.dealer_for_deal(n))
        seed = deal_seed(self.seed, n)
        if arranger is not None:
            self._deal = ShowDeal(rules, seed, dealer=dealer, turn_cap=self.turn_cap, arranger=arranger)
        else:
            self._deal = new_deal(rules, seed, dealer=dealer, turn_cap=self.turn_cap)
        self._deal.match_totals = tuple(self.match.totals[m] for m in seats)
        self._deal_seats = seats
        self._recorded = False
        return self._deal

    def entry(self) -> DealEntry:
        """The sheet's entry for the current deal, once it is over (not yet added)."""
        if self._deal is None or self._recorded:
            raise SessionError("no deal to finish: start one first")
        return entry_for(self._deal, self._deal_seats, self.players, self.rules)

    def finish_deal(self) -> DealRow:
        """Put the finished deal on the sheet and return its row."""
        row = self.match.add_deal(self.entry())
        self._recorded = True
        return row

    # ---- between deals -------------------------------------------------------------------------

    def can_rejoin(self, seat: int) -> Verdict:
        if not self._recorded:
            return Verdict(False, "no rejoin while a deal is being played")
        return self.match.can_rejoin(seat)

    def rejoin(self, seat: int) -> RejoinRecord:
        """Bring ``seat`` back into the pool; it plays from the next deal."""
        if not self._recorded:
            raise SessionError("no rejoin while a deal is being played")
        return self.match.rejoin(seat)

    def rejoin_offers(self) -> tuple[RejoinOffer, ...]:
        return () if not self._recorded else self.match.rejoin_offers()

    def __repr__(self) -> str:
        return f"MatchSession(seed={self.seed!r}, {self.match!r})"
