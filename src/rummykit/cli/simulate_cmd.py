"""``rummykit simulate``: bots play many deals (or whole matches) and the seats are compared.

Every deal stands alone unless ``--matches`` is given: deal ``i`` (0-based) is shuffled with
the seed ``SEED/i``, dealt by seat ``i mod players`` (the dealer rotates), and the bot at seat
``s`` is seeded ``SEED/i/s``.  With ``--matches M`` each match ``m`` is a whole match in the
format of the rules (settlement, points, pool, deals), its deals seeded ``SEED/mM/n``, its bots
``SEED/mM/seat s``, its first dealer seat ``m mod players``; seats out of a pool rejoin
whenever the rules allow it.  The work is split into chunks by index over ``--workers``
processes and added up in index order, so the figures are the same for the same seed
whatever the number of workers.

Per seat: the bot; points per deal, the seat's net in the settlement sense (a deal's winner
collects what the others were charged, every other seat pays its charge, so higher is better
and the seats sum to zero; a seat out of a pool nets 0 that deal) with its 95% confidence
interval (normal approximation, mean ± 1.96·sd/√n over every deal of the run); the mean charge
per deal played (the winner's 0 included); wins, drops and shows (wins by a valid show); and
total: the net summed over the run, or with ``--matches`` each match's final total in the
format's own sense (settlement: signed, higher is better; points and pool: points, lower is
better; deals: chips) summed over the matches.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import orjson

from rummykit.bots import BOT_NAMES, BotError, Player, make_player, play_deal, play_match, rejoin_always
from rummykit.cli.arrange_cmd import InputError, add_rules_options, rules_from_args
from rummykit.cli.runner import cells, run_chunks, signed, whole_number, with_progress
from rummykit.engine import history
from rummykit.engine.arrange import Arranger
from rummykit.engine.deal import Deal, ShowDeal, new_deal
from rummykit.engine.events import DealResult, Ending
from rummykit.engine.match import DealRow, Status
from rummykit.engine.rules import Rules, RulesError
from rummykit.engine.session import MatchSession, deal_seed

MAX_DEALS_PER_MATCH: Final = 10_000  # a pool that rejoins without limit must still end
Z95: Final = 1.96


def add_parser(commands: Any) -> None:
    p = commands.add_parser(
        "simulate",
        help="bots play many deals or matches; per-seat points, charges, wins",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rules_options(p)
    p.add_argument("--players", metavar="N", help="seats (default: the rules' players)")
    p.add_argument("--deals", metavar="K", help="deals to play, each standing alone (default 1000)")
    p.add_argument("--matches", metavar="M", help="play M whole matches in the rules' format instead")
    p.add_argument(
        "--bots",
        metavar="LIST",
        default="greedy",
        help=f"one bot per seat, comma-separated, or one for every seat ({', '.join(BOT_NAMES)}; "
        "default greedy)",
    )
    p.add_argument("--seed", metavar="S", default="0", help="the run's seed (default 0)")
    p.add_argument(
        "--workers", metavar="W", help=f"processes (default: every core, {os.cpu_count()}; 1 runs in-process)"
    )
    p.add_argument("--histories", metavar="DIR", help="write each deal's hand history to DIR")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


# ---- the run's settings, shared with the workers ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    """What to play: everything a worker needs, picklable."""

    rules: Rules
    bots: tuple[str, ...]
    seed: str
    matches: bool  # whole matches instead of single deals
    histories: str | None


@dataclass(slots=True)
class Tally:
    """Integer sums per seat, so that adding chunks in any order gives the same figures."""

    players: int
    deals: int = 0
    matches: int = 0
    net: list[int] = field(default_factory=list)
    net_sq: list[int] = field(default_factory=list)
    charge: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    drops: list[int] = field(default_factory=list)
    shows: list[int] = field(default_factory=list)
    total: list[int] = field(default_factory=list)
    match_wins: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name in ("net", "net_sq", "charge", "played", "wins", "drops", "shows", "total", "match_wins"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.players)

    def add(self, other: Tally) -> None:
        self.deals += other.deals
        self.matches += other.matches
        for name in ("net", "net_sq", "charge", "played", "wins", "drops", "shows", "total", "match_wins"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for s in range(self.players):
                mine[s] += theirs[s]

    def deal(self, charges: Sequence[int], statuses: Sequence[Status], winner: int, showed: bool) -> None:
        """One deal, by match seat (a seat ``out`` of a pool did not play it)."""
        self.deals += 1
        collected = sum(c for s, c in enumerate(charges) if s != winner)
        for s, status in enumerate(statuses):
            net = collected if s == winner else -charges[s]
            self.net[s] += net
            self.net_sq[s] += net * net
            if status is Status.OUT:
                continue
            self.played[s] += 1
            self.charge[s] += charges[s]
            if status in (Status.DROPPED, Status.MIDDLE_DROP):
                self.drops[s] += 1
        self.wins[winner] += 1
        if showed:
            self.shows[winner] += 1


_PLAN: Plan | None = None
_ARRANGER: tuple[Rules, Arranger | None] | None = None


def _init(plan: Plan) -> None:
    """A worker's start: the plan for every chunk it is given."""
    global _PLAN, _ARRANGER
    _PLAN = plan
    _ARRANGER = (plan.rules, Arranger(plan.rules) if plan.rules.is_show else None)


def _players(plan: Plan, seed: str) -> list[Player]:
    return [make_player(bot, f"{seed}/{s}", plan.rules) for s, bot in enumerate(plan.bots)]


def _play_deals(start: int, stop: int) -> Tally:
    plan, table = _PLAN, _ARRANGER
    assert plan is not None and table is not None
    rules, arranger = table
    n = rules.players
    tally = Tally(n)
    for i in range(start, stop):
        seed = deal_seed(plan.seed, i)
        deal: Deal
        if arranger is not None:
            deal = ShowDeal(rules, seed, dealer=i % n, arranger=arranger)
        else:
            deal = new_deal(rules, seed, dealer=i % n)
        result = play_deal(deal, _players(plan, seed))
        statuses = [_deal_status(result, s) for s in range(n)]
        tally.deal(result.charges, statuses, result.winner, result.ending is Ending.SHOW)
        if plan.histories is not None:
            text = _history_text(deal, plan.bots, {"deal": i + 1})
            _write(Path(plan.histories) / f"deal-{i + 1:06d}.txt", text)
    return tally


def _deal_status(result: DealResult, seat: int) -> Status:
    r = result.seats[seat]
    if r.won:
        return Status.WINNER
    return Status.DROPPED if r.dropped else Status.PLAYED  # only drops are told apart here


def _play_matches(start: int, stop: int) -> Tally:
    plan = _PLAN
    assert plan is not None
    rules = plan.rules
    tally = Tally(rules.players)
    for m in range(start, stop):
        seed = f"{plan.seed}/m{m}"
        session = MatchSession(rules, seed, first_dealer=m % rules.players)
        players = [make_player(bot, f"{seed}/seat {s}", rules) for s, bot in enumerate(plan.bots)]

        def record(deal: Deal, row: DealRow, m: int = m, session: MatchSession = session) -> None:
            assert deal.result is not None
            tally.deal(row.charges, row.entry.statuses, row.winner, deal.result.ending is Ending.SHOW)
            if plan.histories is not None:
                bots = tuple(plan.bots[s] for s in session.deal_seats)
                path = Path(plan.histories) / f"match-{m + 1:06d}-deal-{row.index + 1:03d}.txt"
                _write(path, _history_text(deal, bots, {"match": m + 1, "deal": row.index + 1}))

        # the simulator's rejoin policy: a seat out of a pool rejoins whenever the rules allow
        play_match(session, players, rejoin=rejoin_always, max_deals=MAX_DEALS_PER_MATCH, on_deal=record)
        tally.matches += 1
        for s, total in enumerate(session.totals):
            tally.total[s] += total
        for s in session.winners:
            tally.match_wins[s] += 1
    return tally


def _run_chunk(task: tuple[bool, int, int]) -> Tally:
    matches, start, stop = task
    return _play_matches(start, stop) if matches else _play_deals(start, stop)


# ---- hand histories --------------------------------------------------------------------------


def _history_text(deal: Deal, bots: Sequence[str], context: dict[str, object]) -> str:
    """One finished deal's hand history (:func:`rummykit.engine.history.dump`): the seats named
    after their bots, ``context`` as its ``match KEY=VALUE`` lines."""
    return history.dump(deal, names=bots, match=context)


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def _check_histories(text: str) -> str:
    path = Path(text)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".rummykit-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        reason = e.strerror or str(e)
        raise InputError(f"cannot write hand histories to {text}: {reason}") from None
    return str(path)


# ---- input -----------------------------------------------------------------------------------


def _count(text: str | None, option: str, default: int | None = None, least: int = 1) -> int | None:
    return default if text is None else whole_number(text, option, least)


def _bots(text: str, players: int) -> tuple[str, ...]:
    names = [name.strip().lower() for name in text.split(",")]
    for name in names:
        if name not in BOT_NAMES:
            raise InputError(f"unknown bot {name!r} (known: {', '.join(BOT_NAMES)})")
    if len(names) == 1:
        return tuple(names) * players
    if len(names) != players:
        raise InputError(
            f"--bots names {len(names)} bots for {players} seats: give one per seat, or one for all"
        )
    return tuple(names)


def plan_from_args(args: argparse.Namespace) -> tuple[Plan, int, int]:
    """The plan, the number of deals or matches, and the workers; InputError on bad input."""
    rules = rules_from_args(args)
    players = _count(args.players, "--players", least=2)
    if players is not None and players != rules.players:
        try:
            rules = rules.replace(players=players)
        except RulesError as e:
            raise InputError(str(e)) from None
    if args.matches is not None and args.deals is not None:
        raise InputError("give --deals (single deals) or --matches (whole matches), not both")
    matches = _count(args.matches, "--matches")
    count = matches if matches is not None else _count(args.deals, "--deals", 1000)
    assert count is not None
    workers = _count(args.workers, "--workers", os.cpu_count() or 1)
    assert workers is not None
    bots = _bots(args.bots, rules.players)
    histories = None if args.histories is None else _check_histories(args.histories)
    return Plan(rules, bots, str(args.seed), matches is not None, histories), count, workers


# ---- running ---------------------------------------------------------------------------------


def _chunks(count: int, workers: int, matches: bool) -> list[tuple[bool, int, int]]:
    """Index ranges: several per worker (for the progress bar and an even finish)."""
    size = max(1, min(50 if not matches else 5, math.ceil(count / (workers * 8))))
    return [(matches, start, min(start + size, count)) for start in range(0, count, size)]


def simulate(plan: Plan, count: int, workers: int, progress: Callable[[int], None] | None = None) -> Tally:
    """Play the plan: ``count`` deals or matches over ``workers`` processes; the figures do not
    depend on ``workers``.  ``progress`` is told how many deals or matches each chunk finished."""
    tasks = _chunks(count, workers, plan.matches)
    results = run_chunks(
        tasks,
        _run_chunk,
        size=lambda t: t[2] - t[1],
        workers=workers,
        init=_init,
        initargs=(plan,),
        progress=progress,
    )
    tally = Tally(plan.rules.players)
    for part in results:  # index order
        tally.add(part)
    if not plan.matches:
        tally.total = list(tally.net)
    return tally


def _with_progress(plan: Plan, count: int, workers: int) -> Tally:
    what = "matches" if plan.matches else "deals"
    return with_progress(
        f"simulate {what}", what, count, lambda progress: simulate(plan, count, workers, progress)
    )


# ---- output ----------------------------------------------------------------------------------


def summary(plan: Plan, tally: Tally, seconds: float, workers: int) -> dict[str, Any]:
    """The JSON object: the run, and one entry per seat."""
    seats = []
    n = tally.deals
    for s in range(tally.players):
        mean = tally.net[s] / n if n else 0.0
        var = (tally.net_sq[s] - tally.net[s] ** 2 / n) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(max(var, 0.0) / n) if n else 0.0
        seat: dict[str, Any] = {
            "seat": s,
            "bot": plan.bots[s],
            "points_per_deal": round(mean, 4),
            "ci95": [round(mean - half, 4), round(mean + half, 4)],
            "wins": tally.wins[s],
            "drops": tally.drops[s],
            "shows": tally.shows[s],
            "total": tally.total[s],
            "mean_charge": round(tally.charge[s] / tally.played[s], 4) if tally.played[s] else 0.0,
            "deals_played": tally.played[s],
        }
        if plan.matches:
            seat["match_wins"] = tally.match_wins[s]
        seats.append(seat)
    out: dict[str, Any] = {
        "deals": n,
        "deals_per_second": round(n / seconds, 1) if seconds > 0 else None,
        "seconds": round(seconds, 3),
        "rules": plan.rules.preset,
        "players": plan.rules.players,
        "seed": plan.seed,
        "workers": workers,
        "seats": seats,
    }
    if plan.matches:
        out["matches"] = tally.matches
        out["format"] = plan.rules.format
    return out


def human(data: dict[str, Any], plan: Plan) -> str:
    what = (
        f"{data['matches']} {plan.rules.format} matches, {data['deals']} deals"
        if plan.matches
        else (f"{data['deals']} deals")
    )
    head = (
        f"{what} of {plan.rules.preset}, {plan.rules.players} seats, seed {plan.seed}: "
        f"{data['deals_per_second']} deals/s on {data['workers']} worker{'s' if data['workers'] != 1 else ''}"
    )
    columns = ["seat", "bot", "points/deal", "95% CI", "mean charge", "wins", "drops", "shows", "total"]
    if plan.matches:
        columns.append("match wins")
    rows = []
    for seat in data["seats"]:
        lo, hi = seat["ci95"]
        total = seat["total"]
        row = [
            str(seat["seat"] + 1),
            seat["bot"],
            signed(seat["points_per_deal"]),
            f"[{signed(lo)}, {signed(hi)}]",
            f"{seat['mean_charge']:.2f}",
            str(seat["wins"]),
            str(seat["drops"]),
            str(seat["shows"]),
            f"{total:+d}" if not plan.matches or plan.rules.format == "settlement" else str(total),
        ]
        if plan.matches:
            row.append(str(seat["match_wins"]))
        rows.append(row)
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(columns)]
    lines = [head, "", cells(columns, widths, left=2)]
    lines += [cells(r, widths, left=2) for r in rows]
    lines.append("")
    lines.append(
        "points/deal: the seat's net a deal (the winner collects the others' charges, the rest pay "
        "theirs); higher is better, the seats sum to zero."
    )
    if plan.matches:
        lines.append(f"total: the seats' final match totals summed over the matches ({_total_sense(plan)}).")
    else:
        lines.append("total: the net summed over every deal.")
    return "\n".join(lines)


def _total_sense(plan: Plan) -> str:
    fmt = plan.rules.format
    if fmt == "settlement":
        return "settlement, higher is better"
    if fmt == "deals":
        return "chips, higher is better"
    return f"{fmt} points, lower is better"


def run(args: argparse.Namespace) -> int:
    plan, count, workers = plan_from_args(args)
    t0 = time.perf_counter()
    try:
        tally = _with_progress(plan, count, workers)
    except BotError as e:
        raise InputError(str(e)) from None
    seconds = time.perf_counter() - t0
    data = summary(plan, tally, seconds, workers)
    if args.json:
        sys.stdout.write(orjson.dumps(data).decode() + "\n")
    else:
        print(human(data, plan))
    return 0
