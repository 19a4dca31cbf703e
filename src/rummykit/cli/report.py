"""The report of ``rummykit simulate`` and ``rummykit tournament``: one tally, one JSON shape,
one text layout (``docs/reports.md`` is the contract).

A run seats *entrants*: the bots of ``--bots`` repeated round the table, entrant ``e`` at seat
``e`` of the first seating (``seat`` ``e + 1`` in the text and the JSON).  A tournament with
``--duplicate`` plays every deck once per rotation, so an entrant moves round the table; its
figures follow it.  Simulate seats each entrant at its own seat throughout.

Per entrant and per bot (every entrant of that bot together), the figures are:

* ``points``: the settlement net summed over every deal (a deal's winner collects what the
  others were charged, every other seat pays its charge: higher is better and the seats sum to
  zero).  A penalty count (Remi 51, whose low totals win) scores a seat the mean of the other
  seats' charges less its own, so that at two seats it is the difference the deal makes
  between the two totals.  A seat out of a pool scores 0 that deal.
* ``points_per_deal`` with its 95% interval ``ci95``: over the decks (the unit of a duplicate
  run: each deck's mean over the entrant's plays of it; in simulate every deal is its own deck),
  normal approximation, mean ± 1.96·sd/√decks.
* ``deals`` (dealt in, a pool's seat out included), ``deals_played``, ``deals_won`` and
  ``deal_win_rate``, ``drops`` and ``drop_rate`` (``null`` where the rules have no dropping),
  ``shows`` (wins by a valid show; ``null`` for the table family), ``mean_charge`` (per deal
  played, the winner's 0 included).
* With ``--matches``: ``match_total`` (each match's final total in the format's own sense,
  summed) and ``match_wins`` (a shared win counts for each).
* Per bot, the tournament's decision times (``decisions``, ``mean_ms``, ``median_ms``,
  ``p99_ms``, ``max_ms``, ``late``); ``null`` in simulate, which does not time its bots.

Every sum is kept in deck order, so chunks added in task order give the same figures whatever
the number of workers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from rummykit.cli.runner import cells, signed
from rummykit.engine.match import format_for
from rummykit.engine.rules import Rules

__all__ = ["REPORT_VERSION", "Tally", "deal_points", "report", "report_text", "workers_text"]

REPORT_VERSION: Final = 1
Z95: Final = 1.96


def deal_points(rules: Rules, charges: Sequence[int], winner: int, playing: Sequence[bool]) -> list[float]:
    """Each seat's points from one deal (see the module's notes): higher is better, zero-sum
    round the seats that played it; a seat not playing (out of a pool) scores 0."""
    seats = range(len(charges))
    if rules.format == "penalty":
        out = []
        for s in seats:
            others = [charges[o] for o in seats if o != s and playing[o]]
            out.append(sum(others) / max(1, len(others)) - charges[s] if playing[s] else 0.0)
        return out
    collected = sum(charges[s] for s in seats if s != winner and playing[s])
    return [float(collected if s == winner else -charges[s]) if playing[s] else 0.0 for s in seats]


@dataclass(slots=True)
class _Entrant:
    deck_points: list[float] = field(default_factory=list)  # per deck: points over its plays of it
    deals: int = 0
    played: int = 0
    charge: int = 0
    won: int = 0
    drops: int = 0
    shows: int = 0
    match_total: int = 0
    match_wins: int = 0
    open_deck: float = 0.0  # the deck being played

    def add(self, other: _Entrant) -> None:
        self.deck_points += other.deck_points
        self.deals += other.deals
        self.played += other.played
        self.charge += other.charge
        self.won += other.won
        self.drops += other.drops
        self.shows += other.shows
        self.match_total += other.match_total
        self.match_wins += other.match_wins


@dataclass(slots=True)
class _Times:
    ms: list[float] = field(default_factory=list)
    late: int = 0


@dataclass(slots=True)
class Tally:
    """A run's sums: per entrant, and the decision times per bot.  Fill it with :meth:`play`
    (one deal), :meth:`end_deck` (after every play of a deck), :meth:`end_match` and
    :meth:`time`; add chunks with :meth:`add` in task order."""

    entrants: int
    rules: Rules
    decks: int = 0
    deals: int = 0
    matches: int = 0
    seats: list[_Entrant] = field(default_factory=list)
    times: dict[str, _Times] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [_Entrant() for _ in range(self.entrants)]

    def play(
        self,
        entrant_at: Sequence[int],
        charges: Sequence[int],
        winner: int,
        *,
        playing: Sequence[bool] | None = None,
        dropped: Sequence[bool] = (),
        showed: bool = False,
    ) -> None:
        """One deal, by seat: the entrant at each seat, the charges, the winner seat, the seats
        playing it (all by default), the seats that dropped, whether the winner showed."""
        playing = [True] * len(charges) if playing is None else playing
        points = deal_points(self.rules, charges, winner, playing)
        self.deals += 1
        for s, e in enumerate(entrant_at):
            t = self.seats[e]
            t.deals += 1
            t.open_deck += points[s]
            if not playing[s]:
                continue
            t.played += 1
            t.charge += charges[s]
            if dropped and dropped[s]:
                t.drops += 1
        t = self.seats[entrant_at[winner]]
        t.won += 1
        if showed:
            t.shows += 1

    def end_deck(self) -> None:
        self.decks += 1
        for t in self.seats:
            t.deck_points.append(t.open_deck)
            t.open_deck = 0.0

    def end_match(self, totals: Sequence[int], winners: Sequence[int]) -> None:
        """A whole match, by entrant: its final totals and its winners."""
        self.matches += 1
        for e, total in enumerate(totals):
            self.seats[e].match_total += total
        for e in winners:
            self.seats[e].match_wins += 1

    def time(self, bot: str, ms: Sequence[float], late: int) -> None:
        t = self.times.setdefault(bot, _Times())
        t.ms += ms
        t.late += late

    def add(self, other: Tally) -> None:
        self.decks += other.decks
        self.deals += other.deals
        self.matches += other.matches
        for mine, theirs in zip(self.seats, other.seats, strict=True):
            mine.add(theirs)
        for bot, t in other.times.items():
            self.time(bot, t.ms, t.late)


# ---- the JSON object -------------------------------------------------------------------------------


def _interval(values: Sequence[float]) -> tuple[float, float, float]:
    d = len(values)
    mean = sum(values) / d if d else 0.0
    var = sum((x - mean) ** 2 for x in values) / (d - 1) if d > 1 else 0.0
    half = Z95 * math.sqrt(var / d) if d else 0.0
    return mean, mean - half, mean + half


def _percentile(sorted_ms: Sequence[float], q: float) -> float:
    if not sorted_ms:
        return 0.0
    i = min(len(sorted_ms) - 1, max(0, math.ceil(q * len(sorted_ms)) - 1))
    return sorted_ms[i]


def _figures(group: Sequence[_Entrant], rules: Rules, decks: int, matches: bool) -> dict[str, Any]:
    """The figures of one entrant, or of a bot's entrants together."""
    deals = sum(t.deals for t in group)
    played = sum(t.played for t in group)
    won = sum(t.won for t in group)
    drops = sum(t.drops for t in group)
    per_deck = deals / decks if decks else 1  # plays of a deck by the group: the same every deck
    values = [sum(t.deck_points[d] for t in group) / per_deck for d in range(decks)]
    mean, lo, hi = _interval(values)
    dropping = rules.is_show and rules.dropping_allowed and rules.format != "deals"
    out: dict[str, Any] = {
        "deals": deals,
        "deals_played": played,
        "points": round(sum(sum(t.deck_points) for t in group), 4),
        "points_per_deal": round(mean, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "deals_won": won,
        "deal_win_rate": round(won / deals, 4) if deals else 0.0,
        "drops": drops if dropping else None,
        "drop_rate": (round(drops / played, 4) if played else 0.0) if dropping else None,
        "shows": sum(t.shows for t in group) if rules.is_show else None,
        "mean_charge": round(sum(t.charge for t in group) / played, 4) if played else 0.0,
    }
    if matches:
        out["match_total"] = sum(t.match_total for t in group)
        out["match_wins"] = sum(t.match_wins for t in group)
    return out


_TIME_FIELDS: Final = ("decisions", "mean_ms", "median_ms", "p99_ms", "max_ms", "late")


def _time_figures(times: _Times | None) -> dict[str, Any]:
    if times is None:
        return dict.fromkeys(_TIME_FIELDS)
    ms = sorted(times.ms)
    return {
        "decisions": len(ms),
        "mean_ms": round(sum(ms) / len(ms), 3) if ms else 0.0,
        "median_ms": round(_percentile(ms, 0.5), 3),
        "p99_ms": round(_percentile(ms, 0.99), 3),
        "max_ms": round(ms[-1], 3) if ms else 0.0,
        "late": times.late,
    }


def report(
    command: str,
    tally: Tally,
    *,
    bots: Sequence[str],
    seed: str,
    workers: int,
    seconds: float,
    asked: int,
    unit: str,
    duplicate: bool = False,
    matches: bool = False,
    timed: bool = False,
    interrupted: bool = False,
    backend: str = "local",
) -> dict[str, Any]:
    """The JSON object of a run (``docs/reports.md``): the run, one entry per seat (entrant),
    one per bot.  ``asked`` is how many ``unit`` (``deals``, ``decks`` or ``matches``) the run
    was asked to play; an interrupted run reports the chunks that finished, marked partial.
    ``backend``: where the chunks ran, ``local`` (this machine's processes) or ``ray``."""
    rules = tally.rules
    fmt = format_for(rules)
    done = {"deals": tally.deals, "decks": tally.decks, "matches": tally.matches}[unit]
    seats = []
    for e, t in enumerate(tally.seats):
        seats.append({"seat": e + 1, "bot": bots[e], **_figures([t], rules, tally.decks, matches)})
    by_bot: dict[str, Any] = {}
    for name in dict.fromkeys(bots):
        mine = [e for e, b in enumerate(bots) if b == name]
        figures = _figures([tally.seats[e] for e in mine], rules, tally.decks, matches)
        times = _time_figures(tally.times.get(name, _Times()) if timed else None)
        by_bot[name] = {"seats": [e + 1 for e in mine], **figures, **times}
    return {
        "report": REPORT_VERSION,
        "command": command,
        "partial": interrupted,
        "asked": {"count": asked, "unit": unit, "done": done},
        "rules": rules.preset,
        "family": rules.family,
        "format": fmt.key,
        "higher_is_better": fmt.higher_wins,
        "players": rules.players,
        "seed": seed,
        "duplicate": duplicate,
        "decks": tally.decks,
        "deals": tally.deals,
        "matches": tally.matches if matches else None,
        "workers": workers,
        "backend": backend,
        "seconds": round(seconds, 3),
        "deals_per_second": round(tally.deals / seconds, 1) if seconds > 0 else None,
        "timed": timed,
        "seats": seats,
        "bots": by_bot,
    }


# ---- the text ------------------------------------------------------------------------------------


def workers_text(data: dict[str, Any]) -> str:
    """``2 workers``, or on a Ray cluster ``2 Ray tasks at once``."""
    n = data["workers"]
    if data.get("backend") == "ray":
        return f"{n} Ray task{'s' if n != 1 else ''} at once"
    return f"{n} worker{'s' if n != 1 else ''}"


def _count(n: int | None) -> str:
    return "-" if n is None else str(n)


def _rate(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def report_text(data: dict[str, Any], head: str) -> str:
    """The report as the commands print it: ``head``, a partial mark, the seats, the bots
    (with their decision times when timed), and what the figures mean."""
    matches = data["matches"] is not None
    lines = [head]
    if data["partial"]:
        asked = data["asked"]
        lines.append(
            f"Partial: stopped by Ctrl-C after {asked['done']} of {asked['count']} {asked['unit']}; "
            "the figures are those of the finished part."
        )
    lines.append("")
    columns = ["seat", "bot", "points/deal", "95% CI", "deals won", "win rate", "drops", "shows"]
    columns += ["mean charge", "points"]
    if matches:
        columns += ["match total", "match wins"]
    rows = []
    for s in data["seats"]:
        lo, hi = s["ci95"]
        row = [
            str(s["seat"]),
            s["bot"],
            signed(s["points_per_deal"]),
            f"[{signed(lo)}, {signed(hi)}]",
            str(s["deals_won"]),
            _rate(s["deal_win_rate"]),
            _count(s["drops"]),
            _count(s["shows"]),
            f"{s['mean_charge']:.2f}",
            f"{s['points']:+.0f}",
        ]
        if matches:
            total = s["match_total"]
            row += [f"{total:+d}" if data["format"] == "settlement" else str(total), str(s["match_wins"])]
        rows.append(row)
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(columns)]
    lines += [cells(columns, widths, left=2), *(cells(r, widths, left=2) for r in rows)]

    several = len(data["bots"]) < len(data["seats"])
    if several or data["timed"]:
        lines.append("")
        columns = ["bot", "seats", "points/deal", "95% CI", "deals won", "win rate", "drops"]
        if data["timed"]:
            columns += ["mean ms", "p99 ms", "late"]
        rows = []
        for name, b in data["bots"].items():
            lo, hi = b["ci95"]
            row = [
                name,
                ",".join(str(x) for x in b["seats"]),
                signed(b["points_per_deal"]),
                f"[{signed(lo)}, {signed(hi)}]",
                str(b["deals_won"]),
                _rate(b["deal_win_rate"]),
                _count(b["drops"]),
            ]
            if data["timed"]:
                row += [f"{b['mean_ms']:.1f}", f"{b['p99_ms']:.1f}", str(b["late"])]
            rows.append(row)
        widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(columns)]
        lines += [cells(columns, widths, left=2), *(cells(r, widths, left=2) for r in rows)]

    lines.append("")
    if data["format"] == "penalty":
        lines.append(
            "points/deal: a seat's net a deal, the mean of the others' counts less its own (low totals "
            "win at this table); higher is better, the seats sum to zero."
        )
    else:
        lines.append(
            "points/deal: a seat's net a deal (the winner collects the others' charges, the rest pay "
            "theirs); higher is better, the seats sum to zero."
        )
    if matches:
        better = "higher" if data["higher_is_better"] else "lower"
        lines.append(
            f"match total: each match's final total in the {data['format']} format, summed over "
            f"the matches ({better} is better)."
        )
    if data["duplicate"]:
        lines.append("seat: the place in --bots; with --duplicate each bot plays every seat of each deck.")
    if data["timed"]:
        lines.append("ms: time per decision; late: answers after the budget and its grace.")
    return "\n".join(lines)
