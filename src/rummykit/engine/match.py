"""Match formats and the score sheet: deals go in as plain records, totals and winners come out.

One model serves two callers: the game engine, which feeds each finished deal's result, and a
score sheet for people playing with real cards, who type each deal's numbers in.  Nothing here
deals cards or reads files; a :class:`Match` is a log of entries (deals and rejoins) and every
total, out, compel and winner is a deterministic replay of that log, which is what makes
:meth:`Match.undo_last`, :meth:`Match.replace_last` and :meth:`Match.from_dict` exact.

A deal is a :class:`DealEntry`: per seat a ``charge`` (a whole number) and a :class:`Status`, the
winner seat, and whether the winner made an early show.  :func:`validate` says in plain words
what is wrong with an entry for a match;
:meth:`Match.add_deal` refuses an invalid one with :class:`MatchError` and changes nothing.

The format (RULES.md "Match formats"; ``rules.format``) is a small object over :class:`Format`:

* ``settlement`` (Nepali): the winner collects what the others were charged, the others pay
  their charge; Paid rows and the table sum to zero; highest Total after ``rounds`` deals wins.
* ``points`` (Indian online): each deal stands alone; lowest total after ``rounds`` deals wins
  (``rounds`` none: as many deals as the table likes, the score sheet's default); money = points ×
  ``point_value``, settled up zero-sum (:meth:`Match.settle_up`: who pays whom).
* ``pool``: charges add up, a total reaching ``pool_out`` is out, the last seat in wins; out
  seats may rejoin between deals (:meth:`Match.rejoin`); compel is marked.
* ``deals``: 80 × ``rounds`` chips each, the winner takes each seat's charge, most chips wins,
  a tie plays another deal; no dropping.
* ``target`` (Rummy 40): only the winner scores; one deal, or first to reach ``target``.
* ``penalty`` (Remi 51): every seat's score is added (the winner's is −20 or −40); lowest wins.

Settled here (RULES.md and the seeds leave these open):

* Seats are 0-based indexes in the API; messages and the sheet name players, by default
  ``seat 1`` … ``seat N``.  Deals are 0-based too (:attr:`DealRow.index`); the sheet prints
  ``Deal 1``.  A match has 2 to 8 seats whatever the preset's own seat range (the sheet only adds
  numbers; the table that deals checks seats).
* Ties: settlement, points and penalty matches end after ``rounds`` deals and a tie for best is
  a shared win (:attr:`Match.winners` lists every tied seat, :attr:`Match.winner` is ``None``).
  A deals match is never over while tied: every seat plays one more deal, as often as needed.
* A status with a fixed cost (drop, middle drop, full count, wrong show) must be charged that
  cost.  ``played`` takes any count up to the full count.
* An early show (:attr:`DealEntry.early`, where ``early_show_halves`` is on) halves what every
  other seat is charged, rounding down (:mod:`rummykit.engine.early_show`, the rule the deals
  apply too): a fixed cost must then be charged half of it, and a count is at most half the full
  count.  The sheet marks the winner of an early show ``E`` rather than ``W``.  A deal marked
  early where the rules do not halve is refused.
* Stored matches of version 1 (before early shows were marked) are read as version 2: a deal in
  which a fixed cost was charged half (which version 1 accepted only as an early show) is marked
  early, and in it the other fixed costs charged in full and the counts above half the full
  count are halved, as the early show halves them.
* Target format: the winner scores the rivals' charges added up (Rummy 40: their leftovers,
  already doubled for a Hand Rummy, or a blocked deal's differences); a sheet that knows only the
  deal's score may instead enter it as the winner's charge with every rival at 0.  Both at once
  is refused.  Penalty format: the winner's charge is −20 or −40, the only negative number
  accepted anywhere.
* Deals format: a seat never pays more chips than it holds (so chips never go negative and
  always add up to players × 80 × rounds); the dropping ban holds whatever the drop settings say.
* Pool rejoins are measured against the seats that stayed in after the last deal (the
  "survivors"), so two seats rejoining between the same deals both come back at the same total.
  The condition is a function of ``pool_out``: 101 → the highest total still in is at most 79;
  201 → at most 174; any other pool (Pool 250's 251 included) → at least one survivor is not in
  compel.  A rejoin total that would itself be out is refused.  Compel is ``total + drop_first >=
  pool_out``; without dropping nobody is in compel.  When one seat is left the match is over and
  nobody can rejoin.
* The dealer moves one seat left each deal, skipping seats that are out at the start of the
  deal (a seat that rejoined counts as in).  Future deals are projected from the current seats.
* :meth:`Match.undo_last` undoes the latest entry on the sheet, deal or rejoin.
  :meth:`Match.replace_last` replaces the latest deal and replays any rejoins made after it,
  refusing the edit if one of them no longer holds.
* Money: :meth:`Match.money` is total × ``point_value`` for the points format (what the seat
  owes) and the settlement format (signed); :meth:`Match.net_money` settles a points match
  zero-sum (each deal's winner collects the others' money).  :meth:`Match.settle_up` turns the
  zero-sum balances (points: net money; settlement: money) into the fewest payments that settle
  them (:func:`settle`: exact, by splitting the players into as many groups that settle among
  themselves as there can be; ties go to the lower seats).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Final

from rummykit.engine.early_show import halved
from rummykit.engine.rules import Rules, RulesError, get_preset

__all__ = [
    "CHIPS_PER_DEAL",
    "EARLY_LEGEND",
    "EARLY_MARK",
    "MATCH_VERSION",
    "MAX_SEATS",
    "MIN_SEATS",
    "REMI_WINNER_SCORES",
    "DealEntry",
    "DealRow",
    "DealsFormat",
    "Format",
    "Match",
    "MatchError",
    "Payment",
    "PenaltyFormat",
    "PointsFormat",
    "PoolFormat",
    "RejoinOffer",
    "RejoinRecord",
    "SettlementFormat",
    "Standing",
    "Status",
    "TargetFormat",
    "Verdict",
    "charge_text",
    "compel_from",
    "default_charge",
    "format_for",
    "legend",
    "pool_title",
    "rejoin_limit",
    "rejoins_after_last",
    "settle",
    "signed",
    "validate",
]

MATCH_VERSION: Final = 2  # the ``version`` field of Match.to_dict (2: deals say whether early)
MIN_SEATS: Final = 2
MAX_SEATS: Final = 8  # the score sheet's limit, and Kerala's three-pack table
CHIPS_PER_DEAL: Final = 80  # deals format: every seat starts with 80 × rounds chips
REMI_WINNER_SCORES: Final = (-20, -40)  # Remi 51: closing, or closing on a joker / by handling

# The published rejoin limits: the highest total still in may be at most this much.
_NAMED_REJOIN_LIMITS: Final[Mapping[int, int]] = {101: 79, 201: 174}
_POOL_TITLES: Final[Mapping[int, str]] = {101: "Pool 101", 201: "Pool 201", 251: "Pool 250"}


class MatchError(ValueError):
    """An entry, action or stored match that the sheet refuses; ``reasons`` lists every problem."""

    def __init__(self, reason: str | Iterable[str]) -> None:
        self.reasons: tuple[str, ...] = (reason,) if isinstance(reason, str) else tuple(reason)
        super().__init__("; ".join(self.reasons))


class Status(StrEnum):
    """How a seat ended a deal; the value is what the sheet stores."""

    WINNER = "winner"
    PLAYED = "played"  # played the deal out and counted its hand
    DROPPED = "dropped"  # dropped before taking a card: drop_first
    MIDDLE_DROP = "middle_drop"  # dropped later: drop_middle
    FULL_COUNT = "full_count"
    WRONG_SHOW = "wrong_show"
    OUT = "out"  # not playing: already out of a pool

    @classmethod
    def parse(cls, value: Status | str) -> Status:
        """``value`` as a status: the value, any case, ``-``/space for ``_``; ``not playing`` is out."""
        if isinstance(value, Status):
            return value
        if isinstance(value, str):
            word = value.strip().lower().replace("-", "_").replace(" ", "_")
            word = _STATUS_ALIASES.get(word, word)
            for status in cls:
                if status.value == word:
                    return status
        known = ", ".join(status.value for status in cls)
        raise MatchError(f"unknown status {value!r} (known: {known})")


_STATUS_ALIASES: Final[Mapping[str, str]] = {
    "not_playing": "out",
    "drop": "dropped",
    "first_drop": "dropped",
    "middle": "middle_drop",
    "full": "full_count",
    "won": "winner",
}
# One letter per status in the sheet's Charge row (explained by the legend).
MARKS: Final[Mapping[Status, str]] = {
    Status.WINNER: "W",
    Status.PLAYED: "",
    Status.DROPPED: "D",
    Status.MIDDLE_DROP: "M",
    Status.FULL_COUNT: "F",
    Status.WRONG_SHOW: "X",
    Status.OUT: "",
}
LEGEND: Final = "W winner, D drop, M middle drop, F full count, X wrong show"
EARLY_MARK: Final = "E"  # the winner of an early show, in place of W
EARLY_LEGEND: Final = "E early show (won before every player had a turn: the others' charges halved)"


def charge_text(charge: int, status: Status, early: bool = False) -> str:
    """A seat's charge as the sheet writes it: ``25``, ``0W``, ``0E`` (an early show's winner),
    ``20D``, ``out``."""
    if status is Status.OUT:
        return "out"
    return f"{charge}{EARLY_MARK if early and status is Status.WINNER else MARKS[status]}"


def legend(rules: Rules) -> str:
    """The marks of the sheet's Charge rows under ``rules`` (``E`` where early shows halve)."""
    if not rules.early_show_halves:
        return LEGEND
    return LEGEND.replace("W winner, ", f"W winner, {EARLY_LEGEND}, ", 1)


class Standing(StrEnum):
    """Where a seat stands between deals (only a pool has anything but ``in``)."""

    IN = "in"
    COMPEL = "compel"  # in, but a drop would put it out
    OUT = "out"


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether an action is allowed, and the sentence that says why; truthy when allowed."""

    ok: bool
    reason: str

    def __bool__(self) -> bool:
        return self.ok


def signed(value: int) -> str:
    """A settlement total as the sheet prints it: ``+135``, ``-14``, ``0``."""
    return f"+{value}" if value > 0 else str(value)


def default_charge(status: Status | str, rules: Rules) -> int | None:
    """The number the sheet pre-fills for ``status`` under ``rules``, or None if it must be typed.

    Winner 0 (Remi 51's penalty format: −20, the plain close), drop ``drop_first``, middle drop
    ``drop_middle``, full count ``full_count``, wrong show ``wrong_show``, out 0; a played hand,
    or a status the rules do not have (no dropping, no cap, wrong shows refused), has none.
    """
    status = Status.parse(status)
    if status is Status.WINNER:
        return REMI_WINNER_SCORES[0] if rules.format == "penalty" else 0
    if status is Status.OUT:
        return 0
    return {
        Status.DROPPED: rules.drop_first,
        Status.MIDDLE_DROP: rules.drop_middle,
        Status.FULL_COUNT: rules.full_count,
        Status.WRONG_SHOW: rules.wrong_show,
    }.get(status)


# -- pool arithmetic --------------------------------------------------------------------------------


def pool_title(pool_out: int) -> str:
    """What tables call the pool that puts a seat out at ``pool_out`` (251 is Pool 250)."""
    return _POOL_TITLES.get(pool_out, f"Pool (out at {pool_out})")


def rejoin_limit(pool_out: int) -> int | None:
    """The highest total still in that allows a rejoin (Pool 101: 79, Pool 201: 174), or None
    where the rule is compel-based: a rejoin is allowed while some seat still in is not in
    compel (Pool 250, and every pool other than 101 and 201)."""
    return _NAMED_REJOIN_LIMITS.get(pool_out)


def compel_from(rules: Rules) -> int | None:
    """The lowest total in compel (226 in Pool 250 with drop 25), or None without a pool or drop."""
    if rules.pool_out is None or rules.drop_first is None:
        return None
    return rules.pool_out - rules.drop_first


# -- entries and rows -------------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class DealEntry:
    """One finished deal as plain numbers: per seat a charge and a status, the winner seat, and
    whether the winner showed early (``early``: every other charge is then halved, already, in
    ``charges``).

    The winner's status is ``winner`` as well; the redundancy is the sheet's (a winner button and a
    status per seat), and :func:`validate` says when the two disagree.
    """

    charges: tuple[int, ...]
    statuses: tuple[Status, ...]
    winner: int
    early: bool = False

    def __post_init__(self) -> None:
        # Stored matches come back from JSON as lists and strings; only the shape is checked here,
        # the meaning is validate()'s job because it depends on the match.
        charges = tuple(self.charges)
        if not all(_is_int(charge) for charge in charges):
            raise MatchError(f"charges must be whole numbers, not {list(charges)!r}")
        if not _is_int(self.winner):
            raise MatchError(f"the winner must be a seat number, not {self.winner!r}")
        if not isinstance(self.early, bool):
            raise MatchError(f"early is true or false, not {self.early!r}")
        object.__setattr__(self, "charges", charges)
        object.__setattr__(self, "statuses", tuple(Status.parse(status) for status in self.statuses))

    @classmethod
    def from_charges(
        cls,
        charges: Sequence[int],
        winner: int,
        statuses: Mapping[int, Status | str] | None = None,
        early: bool = False,
    ) -> DealEntry:
        """An entry from each seat's charge and the winner; every other seat ``played`` unless
        ``statuses`` (seat → status) says otherwise."""
        marks = [Status.WINNER if seat == winner else Status.PLAYED for seat in range(len(charges))]
        for seat, status in (statuses or {}).items():
            if not 0 <= seat < len(marks):
                raise MatchError(f"status given for seat index {seat}, but there are {len(marks)} seats")
            marks[seat] = Status.parse(status)
        return cls(tuple(charges), tuple(marks), winner, early)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return {
            "charges": list(self.charges),
            "statuses": [status.value for status in self.statuses],
            "winner": self.winner,
            "early": self.early,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DealEntry:
        """The entry :meth:`to_dict` wrote."""
        try:
            return cls(
                tuple(data["charges"]), tuple(data["statuses"]), data["winner"], data.get("early", False)
            )
        except (KeyError, TypeError) as exc:
            raise MatchError(f"a stored deal needs charges, statuses and winner ({exc})") from None


@dataclass(frozen=True, slots=True)
class DealRow:
    """One deal on the sheet: its entry, the format's row for it, and the totals after it."""

    index: int  # 0-based; the sheet prints index + 1
    dealer: int
    entry: DealEntry
    label: str  # what ``row`` is: Paid, Points, Chips, Score
    row: tuple[int, ...]
    totals: tuple[int, ...]
    standings: tuple[Standing, ...]

    @property
    def charges(self) -> tuple[int, ...]:
        """Each seat's charge as entered."""
        return self.entry.charges

    @property
    def winner(self) -> int:
        """The seat that won the deal."""
        return self.entry.winner


@dataclass(frozen=True, slots=True)
class RejoinRecord:
    """A rejoin on the sheet: who, at what total, after how many deals, and which of theirs."""

    seat: int
    total: int
    after_deals: int
    number: int  # 1 for a seat's first rejoin


@dataclass(frozen=True, slots=True)
class Payment:
    """One payment of a settle-up: ``payer`` pays ``payee`` ``amount`` (money, more than 0)."""

    payer: int
    payee: int
    amount: int


def settle(balances: Sequence[int]) -> tuple[Payment, ...]:
    """The fewest payments that settle ``balances`` (each seat's money, summing to zero: what the
    seat is owed when positive, what it owes when negative), by payer then payee.

    A set of players whose balances sum to zero settles among themselves in one payment fewer
    than its size, so the fewest payments are the players owed or owing less the most groups
    they split into; with at most eight players every split is tried.

    >>> settle([40, -30, -10])
    (Payment(payer=1, payee=0, amount=30), Payment(payer=2, payee=0, amount=10))
    >>> settle([5, -5, 7, -7])  # two pairs: two payments, not three
    (Payment(payer=1, payee=0, amount=5), Payment(payer=3, payee=2, amount=7))
    """
    if sum(balances) != 0:
        raise MatchError(f"balances that do not sum to zero cannot be settled: {list(balances)}")
    seats = [seat for seat, balance in enumerate(balances) if balance]
    n = len(seats)
    full = (1 << n) - 1
    total = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + balances[seats[low.bit_length() - 1]]
    # groups[mask]: the most zero-sum groups the players of mask can be split into
    groups = [0] * (full + 1)
    for mask in range(1, full + 1):
        best = max(groups[mask ^ (1 << i)] for i in range(n) if mask >> i & 1)
        groups[mask] = best + (total[mask] == 0)
    # Walk back through an ordering that reaches the most groups; cut it where its sums are zero.
    order: list[int] = []
    mask = full
    while mask:
        zero = total[mask] == 0
        i = next(i for i in range(n) if mask >> i & 1 and groups[mask ^ (1 << i)] + zero == groups[mask])
        order.append(i)
        mask ^= 1 << i
    payments: list[Payment] = []
    group: list[int] = []
    running = 0
    for i in reversed(order):
        group.append(seats[i])
        running += balances[seats[i]]
        if running == 0:
            payments += _settle_group(group, balances)
            group = []
    return tuple(sorted(payments, key=lambda p: (p.payer, p.payee)))


def _settle_group(group: Sequence[int], balances: Sequence[int]) -> list[Payment]:
    """A zero-sum group settled in one payment fewer than its size: the largest debt to the
    largest claim, until nothing is left."""
    owed = {seat: balances[seat] for seat in group}
    out: list[Payment] = []
    while any(owed.values()):
        payer = min(owed, key=lambda seat: (owed[seat], seat))
        payee = max(owed, key=lambda seat: (owed[seat], -seat))
        amount = min(-owed[payer], owed[payee])
        out.append(Payment(payer, payee, amount))
        owed[payer] += amount
        owed[payee] -= amount
    return out


@dataclass(frozen=True, slots=True)
class RejoinOffer:
    """A seat that may rejoin now, the total it would come back at, and rejoins left (None: no limit)."""

    seat: int
    total: int
    rejoins_left: int | None


@dataclass(frozen=True, slots=True)
class _Rejoin:
    """The rejoin event in the log; its total is derived on replay."""

    seat: int


_Event = DealEntry | _Rejoin


@dataclass(slots=True)
class _State:
    """Everything the log replays to; formats read and update it."""

    totals: list[int]
    in_play: list[bool]
    survivors: tuple[int, ...]  # seats in after the last deal: what rejoins are measured against
    rejoins_used: list[int]
    rows: list[DealRow] = field(default_factory=list)
    rejoins: list[RejoinRecord] = field(default_factory=list)

    def copy(self) -> _State:
        return _State(
            list(self.totals),
            list(self.in_play),
            self.survivors,
            list(self.rejoins_used),
            list(self.rows),
            list(self.rejoins),
        )

    @property
    def seats_in(self) -> tuple[int, ...]:
        return tuple(seat for seat, playing in enumerate(self.in_play) if playing)


# -- formats ----------------------------------------------------------------------------------------


class Format(ABC):
    """What one match format does with a deal; stateless, over the match's replayed state."""

    key: ClassVar[str]
    row_label: ClassVar[str]
    higher_wins: ClassVar[bool] = False
    row_differs: ClassVar[bool] = True  # False: the row is the charges, so the sheet prints it once

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    @abstractmethod
    def describe(self) -> str:
        """The format in one line, as the sheet heads it."""

    def start_total(self) -> int:
        """Every seat's total before the first deal."""
        return 0

    def winner_charge_problem(self, charge: int) -> str | None:
        """Why ``charge`` is wrong for the deal's winner, if it is (most formats: it must be 0)."""
        return None if charge == 0 else f"the winner is charged 0, not {charge}"

    def entry_problems(self, entry: DealEntry, names: Sequence[str]) -> list[str]:
        """Problems only this format has with an otherwise well-formed entry."""
        return []

    @abstractmethod
    def deal_row(self, entry: DealEntry, state: _State) -> tuple[int, ...]:
        """The deal's row: what it adds to each seat's total."""

    def after_deal(self, state: _State) -> None:
        """Anything the new totals decide (a pool puts seats out)."""
        return None  # outside a pool nobody is ever out

    @abstractmethod
    def is_over(self, state: _State) -> bool:
        """Whether the match has been decided."""

    def winners(self, state: _State) -> tuple[int, ...]:
        """The seats that won (several on a shared win); empty while the match goes on."""
        if not self.is_over(state):
            return ()
        best = (max if self.higher_wins else min)(state.totals)
        return tuple(seat for seat, total in enumerate(state.totals) if total == best)

    def standing(self, state: _State, seat: int) -> Standing:
        """Where ``seat`` stands between deals."""
        return Standing.IN if state.in_play[seat] else Standing.OUT

    def rejoin(self, state: _State, seat: int, names: Sequence[str]) -> tuple[Verdict, int]:
        """Whether ``seat`` may rejoin now, and at what total (0 when it may not)."""
        return Verdict(False, f"no rejoin: {self.describe_short()} has no pool to rejoin"), 0

    def describe_short(self) -> str:
        """The format's name in a sentence."""
        return f"a {self.key} match"

    def show_total(self, value: int) -> str:
        """A total as the sheet prints it."""
        return str(value)

    def show_row(self, value: int) -> str:
        """One cell of the deal's row as the sheet prints it."""
        return self.show_total(value)

    @property
    def rounds(self) -> int:
        """The deals of a match of fixed length (Rules allows none only in the points format)."""
        assert self.rules.rounds is not None
        return self.rules.rounds

    def deals_text(self, count: int) -> str:
        """``1 deal``, ``3 deals``."""
        return f"{count} deal" if count == 1 else f"{count} deals"


class _RoundsFormat(Format):
    """Formats that end after ``rounds`` deals, best total winning and a tie shared."""

    def is_over(self, state: _State) -> bool:
        # rounds none: the table plays as many deals as it likes (points only; see Rules)
        return self.rules.rounds is not None and len(state.rows) >= self.rules.rounds


class SettlementFormat(_RoundsFormat):
    """Nepali settlement: the winner collects the others' charges; higher Total is better."""

    key = "settlement"
    row_label = "Paid"
    higher_wins = True

    def describe(self) -> str:
        return (
            f"Settlement over {self.deals_text(self.rounds)}: the winner collects what the others "
            "are charged, the table sums to zero; highest Total wins"
        )

    def deal_row(self, entry: DealEntry, state: _State) -> tuple[int, ...]:
        collected = sum(charge for seat, charge in enumerate(entry.charges) if seat != entry.winner)
        return tuple(
            collected if seat == entry.winner else -charge for seat, charge in enumerate(entry.charges)
        )

    def show_total(self, value: int) -> str:
        return signed(value)


class PointsFormat(_RoundsFormat):
    """Indian online points: each deal stands alone; lowest total wins; money = points × value."""

    key = "points"
    row_label = "Points"
    row_differs = False

    def describe(self) -> str:
        if self.rules.rounds is None:
            return (
                f"Points at {self.rules.point_value} a point, as many deals as the table likes: "
                "lowest total wins"
            )
        return (
            f"Points over {self.deals_text(self.rounds)} at {self.rules.point_value} a point: "
            "lowest total wins"
        )

    def deal_row(self, entry: DealEntry, state: _State) -> tuple[int, ...]:
        return entry.charges


class PenaltyFormat(_RoundsFormat):
    """Remi 51: every seat's score is added, the winner's −20 or −40; lowest total wins."""

    key = "penalty"
    row_label = "Score"
    row_differs = False

    def describe(self) -> str:
        return (
            f"Penalty over {self.deals_text(self.rounds)}: the winner scores -20 or -40, "
            "the others their count; lowest total wins"
        )

    def winner_charge_problem(self, charge: int) -> str | None:
        if charge in REMI_WINNER_SCORES:
            return None
        return f"the winner scores -20 or -40, not {charge}"

    def deal_row(self, entry: DealEntry, state: _State) -> tuple[int, ...]:
        return entry.charges


class DealsFormat(Format):
    """Deals: chips change hands; most chips after the last deal wins; a tie plays another deal."""

    key = "deals"
    row_label = "Chips"
    higher_wins = True

    def describe(self) -> str:
        return (
            f"Deals over {self.deals_text(self.rounds)}: {self.start_total()} chips each, the winner "
            "takes each seat's charge; most chips wins, a tie plays another deal"
        )

    def start_total(self) -> int:
        return CHIPS_PER_DEAL * self.rounds

    def show_row(self, value: int) -> str:
        return signed(value)  # chips moved: won or lost

    def deal_row(self, entry: DealEntry, state: _State) -> tuple[int, ...]:
        # A seat pays at most the chips it holds, so chips never go negative in tie-break deals.
        paid = [
            0 if seat == entry.winner else min(charge, state.totals[seat])
            for seat, charge in enumerate(entry.charges)
        ]
        return tuple(sum(paid) if seat == entry.winner else -paid[seat] for seat in range(len(paid)))

    def is_over(self, state: _State) -> bool:
        if len(state.rows) < self.rounds:
            return False
        best = max(state.totals)
        return state.totals.count(best) == 1


class TargetFormat(Format):
    """Rummy 40: only each deal's winner scores; one deal, or first winner to reach ``target``."""

    key = "target"
    row_label = "Score"
    higher_wins = True

    def describe(self) -> str:
        if self.rules.target is None:
            return "One deal: its winner wins the match"
        return f"First deal winner to reach {self.rules.target} wins"

    def winner_charge_problem(self, charge: int) -> str | None:
        return None  # the winner's charge may be the deal's score (checked with the rivals below)

    def entry_problems(self, entry: DealEntry, names: Sequence[str]) -> list[str]:
        if not 0 <= entry.winner < len(entry.charges):
            return []
        rivals = [charge for seat, charge in enumerate(entry.charges) if seat != entry.winner]
        if entry.charges[entry.winner] != 0 and any(rivals):
            return [
                f"{names[entry.winner]} is given a score of {entry.charges[entry.winner]} and the rivals "
                "their counts: enter the rivals' counts or the winner's score, not both"
            ]
        return []

    def deal_row(self, entry: DealEntry, state: _State) -> tuple[int, ...]:
        score = sum(entry.charges)  # the rivals' counts, or the winner's own score (never both)
        return tuple(score if seat == entry.winner else 0 for seat in range(len(entry.charges)))

    def is_over(self, state: _State) -> bool:
        if self.rules.target is None:
            return len(state.rows) >= 1
        return any(total >= self.rules.target for total in state.totals)

    def winners(self, state: _State) -> tuple[int, ...]:
        if not self.is_over(state):
            return ()
        # The match stops at the deal that decides it, so that deal's winner is the match's.
        return (state.rows[-1].winner,)


class PoolFormat(Format):
    """Pool 101 / 201 / 250: charges add up, ``pool_out`` is out, the last seat in wins."""

    key = "pool"
    row_label = "Points"
    row_differs = False

    @property
    def pool_out(self) -> int:
        """The total that puts a seat out (Rules guarantees one for format=pool)."""
        assert self.rules.pool_out is not None
        return self.rules.pool_out

    @property
    def compel(self) -> int | None:
        """The lowest total in compel, or None without dropping."""
        return compel_from(self.rules)

    def describe(self) -> str:
        limit = rejoin_limit(self.pool_out)
        if limit is not None:
            condition = f"while that total is {limit} or less"
        else:
            condition = "while a seat still in is not in compel"
        most = self.rules.max_rejoins
        rejoins = "unlimited rejoins" if most is None else f"{most} rejoin{'' if most == 1 else 's'} each"
        compel = "no compel (no dropping)" if self.compel is None else f"compel from {self.compel}"
        return (
            f"{pool_title(self.pool_out)}: out at {self.pool_out}; rejoin at the highest total still in + 1 "
            f"{condition}; {rejoins}; {compel}"
        )

    def describe_short(self) -> str:
        return pool_title(self.pool_out)

    def deal_row(self, entry: DealEntry, state: _State) -> tuple[int, ...]:
        return entry.charges

    def after_deal(self, state: _State) -> None:
        for seat, total in enumerate(state.totals):
            if total >= self.pool_out:
                state.in_play[seat] = False

    def is_over(self, state: _State) -> bool:
        return sum(state.in_play) == 1

    def winners(self, state: _State) -> tuple[int, ...]:
        return state.seats_in if self.is_over(state) else ()

    def standing(self, state: _State, seat: int) -> Standing:
        if not state.in_play[seat]:
            return Standing.OUT
        if self.compel is not None and state.totals[seat] >= self.compel:
            return Standing.COMPEL
        return Standing.IN

    def rejoin(self, state: _State, seat: int, names: Sequence[str]) -> tuple[Verdict, int]:
        name = names[seat]
        if self.is_over(state):
            return Verdict(False, "no rejoin: the match is over"), 0
        if state.in_play[seat]:
            return Verdict(False, f"no rejoin: {name} is still in"), 0
        used, most = state.rejoins_used[seat], self.rules.max_rejoins
        if most is not None and used >= most:
            if most == 0:
                return Verdict(False, "no rejoins in this pool"), 0
            return Verdict(False, f"no rejoins left ({used} used)"), 0
        top = max(state.totals[other] for other in state.survivors)
        limit = rejoin_limit(self.pool_out)
        if limit is not None and top > limit:
            return Verdict(False, f"no rejoin: the highest total still in is {top}, above {limit}"), 0
        compel = self.compel
        if limit is None and compel is not None and all(state.totals[s] >= compel for s in state.survivors):
            return Verdict(False, f"no rejoin: every seat still in is in compel ({compel} or more)"), 0
        total = top + 1
        if total >= self.pool_out:
            return Verdict(False, f"no rejoin: {name} would come back at {total}, which is out"), 0
        return Verdict(True, f"{name} may rejoin at {total}"), total


_FORMATS: Final[Mapping[str, type[Format]]] = {
    cls.key: cls
    for cls in (SettlementFormat, PointsFormat, PoolFormat, DealsFormat, TargetFormat, PenaltyFormat)
}


def format_for(rules: Rules) -> Format:
    """The format object ``rules.format`` names."""
    return _FORMATS[rules.format](rules)


# -- validation -------------------------------------------------------------------------------------

_FIXED_COST_WORDS: Final[Mapping[Status, str]] = {
    Status.DROPPED: "dropped first",
    Status.MIDDLE_DROP: "dropped in the middle",
    Status.FULL_COUNT: "is marked full count",
    Status.WRONG_SHOW: "made a wrong show",
}


def _seat_problems(
    seat: int, entry: DealEntry, rules: Rules, fmt: Format, state: _State, names: Sequence[str]
) -> list[str]:
    name, charge, status = names[seat], entry.charges[seat], entry.statuses[seat]
    is_pool = isinstance(fmt, PoolFormat)
    if status is Status.OUT:
        if not is_pool:
            return [f"{name} is marked out, but only a pool puts seats out"]
        if state.in_play[seat]:
            return [f"{name} is still in the pool, so cannot be marked out"]
        return [] if charge == 0 else [f"{name} is out and is charged nothing, not {charge}"]
    if is_pool and not state.in_play[seat]:
        verb = "win" if seat == entry.winner else "play"
        return [f"{name} is out of the pool and cannot {verb} (mark the seat out, or rejoin first)"]

    if seat == entry.winner:
        if status in (Status.DROPPED, Status.MIDDLE_DROP):
            return [f"{name} dropped, so cannot be the winner"]
        if status is not Status.WINNER:
            return [f"{name} is the winner but is marked {status.value.replace('_', ' ')}"]
        problem = fmt.winner_charge_problem(charge)
        if problem is None and charge < 0 and not isinstance(fmt, PenaltyFormat):
            problem = f"a negative number ({charge}) is refused"
        return [] if problem is None else [f"{name}: {problem}"]
    if status is Status.WINNER:
        return []  # reported once, with every seat marked winner, by validate()
    if charge < 0:
        return [f"{name}: a negative number ({charge}) is refused"]

    if status in (Status.DROPPED, Status.MIDDLE_DROP):
        if isinstance(fmt, DealsFormat):
            return [f"{name} is marked dropped, but there is no dropping in a deals match"]
        if not rules.dropping_allowed:
            return [f"{name} is marked dropped, but these rules do not allow dropping"]
    if status is Status.FULL_COUNT and rules.full_count is None:
        return [f"{name} is marked full count, but these rules have no full count"]
    if status is Status.WRONG_SHOW and rules.wrong_show is None:
        return [f"{name} is marked wrong show, but these rules refuse a wrong show"]
    cost = default_charge(status, rules)
    words = _FIXED_COST_WORDS.get(status)
    if words is not None and cost is not None:
        if entry.early and charge != halved(cost):
            return [
                f"{name} {words} and is charged {halved(cost)} after the early show "
                f"(half of {cost}), not {charge}"
            ]
        if not entry.early and charge != cost:
            hint = ""
            if rules.early_show_halves and charge == halved(cost):
                hint = " (half of it is charged after an early show, and this deal is not marked one)"
            return [f"{name} {words} and is charged {cost}, not {charge}{hint}"]
    full = rules.full_count
    if status is Status.PLAYED and full is not None:
        if entry.early and charge > halved(full):
            return [
                f"{name}'s count {charge} is above {halved(full)}, half the full count {full}, "
                "after the early show"
            ]
        if charge > full:
            return [f"{name}'s count {charge} is above the full count {full}"]
    return []


def _problems(
    entry: DealEntry,
    rules: Rules,
    fmt: Format,
    state: _State,
    names: Sequence[str],
    *,
    winner_known: bool = True,
) -> tuple[str, ...]:
    if fmt.is_over(state):
        return ("the match is over: no more deals",)
    players = len(state.totals)
    if len(entry.charges) != players or len(entry.statuses) != players:
        return (
            f"expected {players} seats, got {len(entry.charges)} charges and {len(entry.statuses)} statuses",
        )
    problems: list[str] = []
    if not 0 <= entry.winner < players:
        if winner_known:
            return (f"the winner must be a seat from 0 to {players - 1}, not {entry.winner}",)
        entry = DealEntry(entry.charges, entry.statuses, -1, entry.early)  # check the seats alone
    if entry.early and not rules.early_show_halves:
        problems.append("the deal is marked an early show, but these rules do not halve after one")
    marked = [seat for seat, status in enumerate(entry.statuses) if status is Status.WINNER]
    if len(marked) > 1:
        listed = " and ".join(names[seat] for seat in marked)
        both = "both" if len(marked) == 2 else "all"
        problems.append(f"exactly one winner per deal: {listed} are {both} marked winner")
    for seat in range(players):
        problems += _seat_problems(seat, entry, rules, fmt, state, names)
    problems += fmt.entry_problems(entry, names)
    return tuple(problems)


def validate(entry: DealEntry, match: Match) -> tuple[str, ...]:
    """Every reason ``entry`` cannot be the next deal of ``match``, in words; empty when valid."""
    return match.check(entry)


# -- the match --------------------------------------------------------------------------------------


class Match:
    """A match, or a score sheet: a log of deals and rejoins, and everything they add up to.

    Build one with :meth:`new` or :meth:`from_dict`.  Mutators either apply completely or raise
    :class:`MatchError` and change nothing.
    """

    def __init__(
        self,
        rules: Rules,
        players: int,
        names: Sequence[str],
        first_dealer: int = 0,
        events: Iterable[_Event] = (),
    ) -> None:
        if not _is_int(players) or not MIN_SEATS <= players <= MAX_SEATS:
            raise MatchError(f"a match has {MIN_SEATS} to {MAX_SEATS} players, not {players!r}")
        names = tuple(names)
        if len(names) != players:
            raise MatchError(f"expected {players} names, got {len(names)}")
        if not all(isinstance(name, str) and name.strip() for name in names):
            raise MatchError("every player needs a name")
        names = tuple(name.strip() for name in names)
        if len(set(names)) != len(names):
            raise MatchError(f"two players share a name: {', '.join(names)}")
        if not _is_int(first_dealer) or not 0 <= first_dealer < players:
            raise MatchError(f"the first dealer must be a seat from 0 to {players - 1}, not {first_dealer!r}")
        self.rules: Final = rules
        self.players: Final = players
        self.names: Final[tuple[str, ...]] = names
        self.first_dealer: Final = first_dealer
        self.format: Final = format_for(rules)
        self._events: list[_Event] = list(events)
        self._state = self._replay(self._events)

    @classmethod
    def new(
        cls,
        rules: Rules,
        players: int | None = None,
        names: Sequence[str] | None = None,
        *,
        first_dealer: int = 0,
    ) -> Match:
        """An empty sheet for ``players`` seats (default: as many as ``names``, else
        ``rules.players``), named ``seat 1`` … unless ``names`` are given;
        ``first_dealer`` deals the first deal."""
        count = (len(names) if names is not None else rules.players) if players is None else players
        if names is None:
            # no names made for a count out of range: the constructor refuses it in words
            fits = _is_int(count) and MIN_SEATS <= count <= MAX_SEATS
            names = [f"seat {seat + 1}" for seat in range(count if fits else 0)]
        return cls(rules, count, names, first_dealer)

    # -- replay ---------------------------------------------------------------------------------

    def _fresh(self) -> _State:
        seats = range(self.players)
        return _State(
            totals=[self.format.start_total() for _ in seats],
            in_play=[True for _ in seats],
            survivors=tuple(seats),
            rejoins_used=[0 for _ in seats],
        )

    def _replay(self, events: Sequence[_Event]) -> _State:
        state = self._fresh()
        for event in events:
            deals = len(state.rows)
            if isinstance(event, DealEntry):
                problems = _problems(event, self.rules, self.format, state, self.names)
                if problems:
                    raise MatchError(f"deal {deals + 1}: {problem}" for problem in problems)
                self._apply_deal(state, event)
            else:
                verdict, total = self._rejoin_verdict(state, event.seat)
                if not verdict:
                    raise MatchError(f"the rejoin after deal {deals}: {verdict.reason}")
                self._apply_rejoin(state, event.seat, total)
        return state

    def _apply_deal(self, state: _State, entry: DealEntry) -> DealRow:
        dealer = self._next_dealer(state)
        row = self.format.deal_row(entry, state)
        state.totals = [total + change for total, change in zip(state.totals, row, strict=True)]
        self.format.after_deal(state)
        state.survivors = state.seats_in
        deal = DealRow(
            index=len(state.rows),
            dealer=dealer,
            entry=entry,
            label=self.format.row_label,
            row=row,
            totals=tuple(state.totals),
            standings=tuple(self.format.standing(state, seat) for seat in range(self.players)),
        )
        state.rows.append(deal)
        return deal

    def _apply_rejoin(self, state: _State, seat: int, total: int) -> RejoinRecord:
        state.totals[seat] = total
        state.in_play[seat] = True
        state.rejoins_used[seat] += 1
        record = RejoinRecord(seat, total, len(state.rows), state.rejoins_used[seat])
        state.rejoins.append(record)
        return record

    def _rejoin_verdict(self, state: _State, seat: int) -> tuple[Verdict, int]:
        if not _is_int(seat) or not 0 <= seat < self.players:
            return Verdict(False, f"no seat {seat!r}: seats are 0 to {self.players - 1}"), 0
        return self.format.rejoin(state, seat, self.names)

    def _next_seat_in(self, state: _State, after: int) -> int:
        for step in range(1, self.players + 1):
            seat = (after + step) % self.players
            if state.in_play[seat]:
                return seat
        return after  # nobody in: cannot happen, a deal always leaves its winner in

    def _next_dealer(self, state: _State) -> int:
        if not state.rows:
            return self.first_dealer
        return self._next_seat_in(state, state.rows[-1].dealer)

    def _commit(self, events: list[_Event]) -> None:
        state = self._replay(events)  # raises before anything changes
        self._events, self._state = events, state

    # -- entering deals -------------------------------------------------------------------------

    def check(self, entry: DealEntry, *, winner_known: bool = True) -> tuple[str, ...]:
        """Every reason ``entry`` cannot be the next deal, in words; empty when it can.  With
        ``winner_known`` false the entry's winner is not a seat (none was marked): every seat is
        still checked, so that a sheet can name every problem at once."""
        return _problems(entry, self.rules, self.format, self._state, self.names, winner_known=winner_known)

    def check_last(self, entry: DealEntry, *, winner_known: bool = True) -> tuple[str, ...]:
        """Every reason ``entry`` cannot replace the latest deal (:meth:`replace_last`), in words."""
        last = max((i for i, event in enumerate(self._events) if isinstance(event, DealEntry)), default=None)
        if last is None:
            return ("nothing to edit: no deals yet",)
        before = self._replay(self._events[:last])
        return _problems(entry, self.rules, self.format, before, self.names, winner_known=winner_known)

    def entry(
        self,
        charges: Sequence[int | None],
        winner: int,
        statuses: Mapping[int, Status | str] | None = None,
        early: bool = False,
    ) -> DealEntry:
        """The score sheet's entry: like :meth:`DealEntry.from_charges`, but seats out of the pool
        are marked out, and a ``None`` charge is pre-filled from the seat's status
        (:func:`default_charge`, halved for the others of an ``early`` show).  The entry is not
        validated here."""
        marks = {seat: Status.OUT for seat in range(self.players) if not self._state.in_play[seat]}
        marks.update({seat: Status.parse(status) for seat, status in (statuses or {}).items()})
        draft = DealEntry.from_charges([0] * len(charges), winner, marks)
        filled: list[int] = []
        for seat, charge in enumerate(charges):
            if charge is None:
                charge = default_charge(draft.statuses[seat], self.rules)
                if charge is None:
                    label = draft.statuses[seat].value.replace("_", " ")
                    raise MatchError(f"{self._name(seat)}: enter a number ({label} has no default)")
                if early and seat != winner:
                    charge = halved(charge)
            filled.append(charge)
        return DealEntry(tuple(filled), draft.statuses, winner, early)

    def add_deal(self, entry: DealEntry) -> DealRow:
        """Add the next deal; raises :class:`MatchError` with every problem and changes nothing."""
        problems = self.check(entry)
        if problems:
            raise MatchError(problems)
        state = self._state.copy()
        row = self._apply_deal(state, entry)
        self._events.append(entry)
        self._state = state
        return row

    def undo_last(self) -> DealRow | RejoinRecord:
        """Undo the latest entry on the sheet (a deal, or a rejoin made after it) and return it."""
        if not self._events:
            raise MatchError("nothing to undo: no deals yet")
        undone: DealRow | RejoinRecord = (
            self._state.rows[-1] if isinstance(self._events[-1], DealEntry) else self._state.rejoins[-1]
        )
        self._commit(self._events[:-1])
        return undone

    def replace_last(self, entry: DealEntry) -> DealRow:
        """Replace the latest deal with ``entry`` (an edit); rejoins made after it are replayed."""
        last = max((i for i, event in enumerate(self._events) if isinstance(event, DealEntry)), default=None)
        if last is None:
            raise MatchError("nothing to edit: no deals yet")
        events = list(self._events)
        events[last] = entry
        # Check the entry itself first, so its own problems read plainly rather than as a replay.
        before = self._replay(events[:last])
        problems = _problems(entry, self.rules, self.format, before, self.names)
        if problems:
            raise MatchError(problems)
        self._commit(events)
        return self._state.rows[-1]

    # -- rejoins --------------------------------------------------------------------------------

    def can_rejoin(self, seat: int) -> Verdict:
        """Whether ``seat`` may rejoin now, with the sentence for the sheet."""
        return self._rejoin_verdict(self._state, seat)[0]

    def rejoin(self, seat: int) -> RejoinRecord:
        """Bring ``seat`` back into the pool at the highest total still in + 1 (between deals)."""
        verdict, total = self._rejoin_verdict(self._state, seat)
        if not verdict:
            raise MatchError(verdict.reason)
        state = self._state.copy()
        record = self._apply_rejoin(state, seat, total)
        self._events.append(_Rejoin(seat))
        self._state = state
        return record

    def rejoin_offers(self) -> tuple[RejoinOffer, ...]:
        """Every seat that may rejoin now, the total it would come back at, and rejoins left."""
        offers: list[RejoinOffer] = []
        most = self.rules.max_rejoins
        for seat in range(self.players):
            verdict, total = self._rejoin_verdict(self._state, seat)
            if verdict:
                left = None if most is None else most - self._state.rejoins_used[seat]
                offers.append(RejoinOffer(seat, total, left))
        return tuple(offers)

    def rejoins_used(self, seat: int) -> int:
        """How many times ``seat`` has rejoined."""
        return self._state.rejoins_used[seat]

    # -- reading the sheet ----------------------------------------------------------------------

    @property
    def rows(self) -> tuple[DealRow, ...]:
        """Every deal so far, in order."""
        return tuple(self._state.rows)

    @property
    def rejoins(self) -> tuple[RejoinRecord, ...]:
        """Every rejoin so far, in order."""
        return tuple(self._state.rejoins)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total now (chips in a deals match)."""
        return tuple(self._state.totals)

    @property
    def seats_in(self) -> tuple[int, ...]:
        """Seats still playing (every seat, outside a pool)."""
        return self._state.seats_in

    def standing(self, seat: int) -> Standing:
        """Whether ``seat`` is in, in compel, or out."""
        return self.format.standing(self._state, seat)

    @property
    def is_over(self) -> bool:
        """Whether the match has been decided."""
        return self.format.is_over(self._state)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats: one, several on a shared win, none while the match goes on."""
        return self.format.winners(self._state)

    @property
    def winner(self) -> int | None:
        """The one winning seat, or None while the match goes on or on a shared win."""
        winners = self.winners
        return winners[0] if len(winners) == 1 else None

    def dealer_for_deal(self, n: int) -> int:
        """The seat that deals deal ``n`` (0-based): one seat left each deal, skipping seats out;
        deals not yet played are projected from the seats in now."""
        if n < 0:
            raise MatchError(f"deals are numbered from 0, not {n}")
        if n < len(self._state.rows):
            return self._state.rows[n].dealer
        dealer = self._next_dealer(self._state)
        for _ in range(n - len(self._state.rows)):
            dealer = self._next_seat_in(self._state, dealer)
        return dealer

    def money(self, seat: int) -> int:
        """Total × point value: what ``seat`` owes in a points match, its signed balance in a
        settlement match."""
        if not isinstance(self.format, PointsFormat | SettlementFormat):
            raise MatchError(f"money is kept in points and settlement matches, not in {self.format.key}")
        return self._state.totals[seat] * self.rules.point_value

    def net_money(self, seat: int) -> int:
        """A points match settled zero-sum: each deal's winner collects the others' points × value."""
        if not isinstance(self.format, PointsFormat):
            raise MatchError(f"net money is for points matches, not {self.format.key}")
        net = 0
        for row in self._state.rows:
            if row.winner == seat:
                net += sum(row.charges) - row.charges[seat]
            else:
                net -= row.charges[seat]
        return net * self.rules.point_value

    def balances(self) -> tuple[int, ...] | None:
        """Each seat's money relative to the others, zero-sum: a points match's net money, a
        settlement match's money; ``None`` in the formats that keep no money."""
        if isinstance(self.format, PointsFormat):
            return tuple(self.net_money(seat) for seat in range(self.players))
        if isinstance(self.format, SettlementFormat):
            return tuple(self.money(seat) for seat in range(self.players))
        return None

    def settle_up(self) -> tuple[Payment, ...]:
        """Who pays whom, in the fewest payments (:func:`settle`); empty where no money is kept."""
        balances = self.balances()
        return () if balances is None else settle(balances)

    # -- storage --------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data: the rules, the seats and the log; :meth:`from_dict` reads it."""
        events: list[dict[str, Any]] = [
            {"deal": event.to_dict()} if isinstance(event, DealEntry) else {"rejoin": event.seat}
            for event in self._events
        ]
        return {
            "version": MATCH_VERSION,
            "rules": {"preset": self.rules.preset, "settings": self.rules.settings()},
            "players": self.players,
            "names": list(self.names),
            "first_dealer": self.first_dealer,
            "events": events,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Match:
        """The match :meth:`to_dict` stored, replayed and checked entry by entry."""
        if not isinstance(data, Mapping):
            raise MatchError("a stored match is a mapping")
        version = data.get("version")
        if version not in (1, MATCH_VERSION):
            raise MatchError(
                f"unsupported match version {version!r} (this sheet reads 1 and {MATCH_VERSION})"
            )
        try:
            stored_rules = data["rules"]
            # Settings missing from older data keep the preset's value.
            rules = get_preset(stored_rules["preset"]).replace(**dict(stored_rules.get("settings", {})))
            events: list[_Event] = []
            for event in data.get("events", []):
                if not isinstance(event, Mapping):
                    raise MatchError(f"unknown stored event {event!r}")
                if "deal" in event:
                    entry = DealEntry.from_dict(event["deal"])
                    events.append(_from_version_1(entry, rules) if version == 1 else entry)
                elif "rejoin" in event:
                    events.append(_Rejoin(event["rejoin"]))
                else:
                    raise MatchError(f"unknown stored event {event!r}")
            return cls(rules, data["players"], data["names"], data.get("first_dealer", 0), events)
        except RulesError as exc:
            raise MatchError(f"stored rules: {exc}") from None
        except (KeyError, TypeError, AttributeError) as exc:
            raise MatchError(f"a stored match is missing or garbles {exc}") from None

    # -- text -----------------------------------------------------------------------------------

    def _name(self, seat: int) -> str:
        return self.names[seat]

    def describe(self) -> str:
        """The format in one line, then where the match stands."""
        return f"{self.format.describe()}.\n{self.status_line()}"

    def status_line(self) -> str:
        """Where the match stands: the winner, a shared win, or the next deal and its dealer."""
        winners = self.winners
        show = self.format.show_total
        if len(winners) == 1:
            seat = winners[0]
            return f"Winner: {self._name(seat)} ({show(self._state.totals[seat])})"
        if winners:
            listed = " and ".join(self._name(seat) for seat in winners)
            return f"Shared win: {listed} at {show(self._state.totals[winners[0]])}"
        deal = len(self._state.rows)
        extra = ""
        if isinstance(self.format, DealsFormat) and deal >= self.format.rounds:
            extra = " (a tie for most chips: one more deal)"
        return f"Next: deal {deal + 1}, dealer {self._name(self.dealer_for_deal(deal))}{extra}"

    def table_text(self) -> str:
        """The whole sheet as plain text: every deal's charges, row and totals, rejoins, standings."""
        show = self.format.show_total
        is_pool = isinstance(self.format, PoolFormat)
        # Lines are either plain text or a labelled row of cells, aligned once every cell is known.
        lines: list[str | tuple[str, list[str]]] = [self.format.describe() + ".", ("", list(self.names))]
        rejoins = list(self._state.rejoins)
        for row in self._state.rows:
            lines.append(f"Deal {row.index + 1} (dealer {self._name(row.dealer)})")
            statuses = row.entry.statuses
            early = row.entry.early
            lines.append(
                ("Charge", [charge_text(c, s, early) for c, s in zip(row.charges, statuses, strict=True)])
            )
            if self.format.row_differs:
                lines.append((row.label, [self.format.show_row(value) for value in row.row]))
            lines.append(("Total", [show(total) for total in row.totals]))
            if is_pool:
                lines.append(("Standing", [standing.value for standing in row.standings]))
            while rejoins and rejoins[0].after_deals == row.index + 1:
                record = rejoins.pop(0)
                of = "" if self.rules.max_rejoins is None else f" of {self.rules.max_rejoins}"
                lines.append(
                    f"Rejoin: {self._name(record.seat)} comes back at {record.total} "
                    f"(rejoin {record.number}{of})"
                )
        if is_pool and rejoins_after_last(self):
            # Rejoins after the last deal change its totals, so the sheet restates them (once:
            # a deal played after a rejoin prints the totals itself).
            lines.append(("Now", [show(total) for total in self._state.totals]))
            lines.append(("Standing", [self.standing(seat).value for seat in range(self.players)]))
        if isinstance(self.format, PointsFormat):
            lines.append(("Money", [str(self.money(seat)) for seat in range(self.players)]))
        if self._state.rows:
            lines.append(f"({legend(self.rules)})")
        lines.append(self.status_line())
        offers = self.rejoin_offers()
        if offers:
            listed = ", ".join(f"{self._name(offer.seat)} at {offer.total}" for offer in offers)
            lines.append(f"May rejoin: {listed}")

        cells = [cell for line in lines if isinstance(line, tuple) for cell in line[1]]
        width = max(len(cell) for cell in cells) + 2
        label_width = max(len(line[0]) for line in lines if isinstance(line, tuple))
        return "\n".join(
            line
            if isinstance(line, str)
            else (f"  {line[0]:<{label_width}}" + "".join(f"{cell:>{width}}" for cell in line[1])).rstrip()
            for line in lines
        )

    def __repr__(self) -> str:
        return (
            f"Match({self.rules.preset!r}, format={self.format.key!r}, players={self.players}, "
            f"deals={len(self._state.rows)}, totals={list(self._state.totals)})"
        )


def rejoins_after_last(match: Match) -> tuple[RejoinRecord, ...]:
    """The rejoins made since the latest deal (those whose totals no deal row shows yet)."""
    return tuple(r for r in match.rejoins if r.after_deals == len(match.rows))


def _from_version_1(entry: DealEntry, rules: Rules) -> DealEntry:
    """A deal stored before early shows were marked, as version 2 reads it (the module's notes)."""
    if not rules.early_show_halves:
        return entry
    costs = [
        default_charge(status, rules) if status in _FIXED_COST_WORDS else None for status in entry.statuses
    ]
    if not any(
        cost is not None and cost != halved(cost) == c for c, cost in zip(entry.charges, costs, strict=True)
    ):
        return entry
    charges = []
    full = rules.full_count
    for seat, (charge, status, cost) in enumerate(zip(entry.charges, entry.statuses, costs, strict=True)):
        if seat != entry.winner and cost is not None and charge == cost:
            charge = halved(cost)
        elif status is Status.PLAYED and full is not None and charge > halved(full):
            charge = halved(charge)
        charges.append(charge)
    return DealEntry(tuple(charges), entry.statuses, entry.winner, True)
