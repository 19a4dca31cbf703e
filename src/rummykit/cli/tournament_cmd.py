"""``rummykit tournament``: bots play many deals against each other; each bot's strength and speed.

Deck ``i`` (0-based) is shuffled with the seed ``SEED/i`` and dealt by seat ``i mod seats``.
``--bots`` names one bot per seat, or fewer that repeat round the table (``hard,greedy`` at four
seats is hard, greedy, hard, greedy).  With ``--duplicate`` every deck is played once for each
distinct rotation of the bots round the table (at two seats: once, then with the seats swapped),
so that each bot meets the same cards from every seat and the luck of the deal cancels.  A bot
at play ``r`` of deck ``i``, seat ``s`` is seeded ``SEED/i/rR/sS``.  The work is split by deck over
``--workers`` processes and added up in deck order, so the figures (times apart) are the same
for the same seed whatever the number of workers; ``--ray auto|ADDRESS`` plays the same chunks as
tasks on a Ray cluster (README: Scale-out), with the same figures.

A bot's name may carry options (``hard:worlds=24``, see :func:`rummykit.bots.make_player`).
The search bots play a fixed number of worlds a decision (their own ``max_worlds``, or the
name's ``worlds=``) and never read the clock, so the figures do not depend on the machine's
load; ``--anytime`` plays them against their deadlines as a live table does.  ``--histories DIR``
writes the hand histories of ``--histories-sample`` decks spread over the run (every rotation of
each, ``deck-NNNNNN-rotation-R.txt``) for ``rummykit replay``.

Both families play: a table-family preset (``--rules rummy40``, ``remi51``) seats that family's
bots.  Per seat (the place in ``--bots`` round the table, numbered from 1; with ``--duplicate``
it moves round the table with its bot) and per bot: points per deal, the settlement net (a
deal's winner collects what the others were charged, every other seat pays its charge: higher
is better; at Remi 51, whose low totals win, the others' mean charge less its own, see
:func:`seat_net`), with a 95% confidence interval over the decks (the unit of a duplicate run:
each deck's mean over the plays of it; normal approximation); deals won and that as a rate;
drops and shows; and per bot each decision's time (mean, median, p99, max, and answers later
than the budget and its grace).  Every decision goes through
:func:`rummykit.bots.contract.decide`, so each timed bot is given its deadline.  ``--json``
prints the same report as ``rummykit simulate`` (docs/reports.md).  Ctrl-C stops the run at once
and prints the finished decks, marked partial (exit status 130).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from rummykit.bots import BOT_NAMES, TABLE_BOTS, BotError, Player, make_player
from rummykit.bots.contract import DEFAULT_GRACE_MS, is_timed, play_deal_timed
from rummykit.cli.arrange_cmd import InputError, add_rules_options, rules_from_args
from rummykit.cli.report import Tally, deal_points, report, report_text, workers_text
from rummykit.cli.runner import (
    INTERRUPTED,
    Backend,
    Finished,
    Meter,
    add_backend_options,
    add_progress_option,
    bots_round_the_table,
    open_backend,
    ray_target_from_args,
    run_chunks,
    tick,
    whole_number,
    write_text,
)
from rummykit.engine import history
from rummykit.engine.arrange import Arranger
from rummykit.engine.deal import Deal, ShowDeal, new_deal
from rummykit.engine.events import DealResult, Ending
from rummykit.engine.rules import Rules, RulesError
from rummykit.engine.session import deal_seed


def add_parser(commands: Any) -> None:
    p = commands.add_parser(
        "tournament",
        help="bots play many deals against each other: points per deal, wins, drops, turn times",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rules_options(p)
    p.add_argument("--seats", metavar="N", help="seats at the table (default: the rules' players)")
    p.add_argument(
        "--bots",
        metavar="LIST",
        default="hard,greedy",
        help=f"bots round the table, comma-separated, repeated to fill the seats ({', '.join(BOT_NAMES)}; "
        "default hard,greedy)",
    )
    p.add_argument("--deals", metavar="K", help="decks to play (default 200)")
    p.add_argument("--seed", metavar="S", default="0", help="the run's seed (default 0)")
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="play every deck once per rotation of the bots round the table, so that luck cancels",
    )
    p.add_argument(
        "--budget-ms", metavar="MS", help="every timed bot's budget per decision (default: its own)"
    )
    p.add_argument("--strict", action="store_true", help="stop at the first answer later than its budget")
    p.add_argument(
        "--anytime",
        action="store_true",
        help="search bots stop at their deadline, as at a live table (default: a fixed number of worlds "
        "a decision, so results do not depend on the machine's load; hard:worlds=N sets it)",
    )
    p.add_argument(
        "--workers", metavar="W", help=f"processes (default: every core, {os.cpu_count()}; 1 runs in-process)"
    )
    p.add_argument(
        "--histories",
        metavar="DIR",
        help="write the hand histories of a sample of decks to DIR (every rotation of each), for "
        "rummykit replay",
    )
    p.add_argument(
        "--histories-sample",
        metavar="N",
        help="decks written by --histories, spread over the run (default 10)",
    )
    add_backend_options(p)
    add_progress_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object (docs/reports.md)")
    p.set_defaults(run=run)


# ---- the run's settings, shared with the workers ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    """What to play: everything a worker needs, picklable."""

    rules: Rules
    bots: tuple[str, ...]  # one per seat
    seed: str
    duplicate: bool
    budget_ms: float | None = None
    strict: bool = False
    anytime: bool = False  # search bots stop at their deadline (else a fixed number of worlds)
    histories: str | None = None  # a folder for the sampled decks' hand histories
    history_decks: tuple[int, ...] = ()  # the decks whose every rotation is written there

    def rotations(self) -> list[int]:
        """The seatings each deck is played with, as offsets round the table: 0 (the bots as
        given), then (duplicate) every other offset that seats the bots differently."""
        if not self.duplicate:
            return [0]
        n = len(self.bots)
        seen: list[tuple[str, ...]] = []
        out: list[int] = []
        for r in range(n):
            seating = tuple(self.bots[(s + r) % n] for s in range(n))
            if seating not in seen:
                seen.append(seating)
                out.append(r)
        return out

    @property
    def names(self) -> tuple[str, ...]:
        """The bots, each once, in seat order."""
        return tuple(dict.fromkeys(self.bots))


_PLAN: Plan | None = None
_ARRANGER: Arranger | None = None


def _init(plan: Plan) -> None:
    """A worker's start: the plan for every chunk, and one arranger for all its deals (the
    show family's; the table family has none)."""
    global _PLAN, _ARRANGER
    _PLAN = plan
    _ARRANGER = Arranger(plan.rules) if plan.rules.is_show else None


def _make(name: str, seed: str, budget_ms: float | None, rules: Rules, anytime: bool = False) -> Player:
    player = make_player(name, seed, rules)
    if budget_ms is not None and is_timed(player):
        player.budget_ms = budget_ms  # type: ignore[attr-defined]
    if not anytime and hasattr(player, "untimed"):
        # searches of their full size every decision, whatever the machine's load
        player.untimed = True
    return player


def play_decks(start: int, stop: int) -> Tally:
    """Decks ``start`` to ``stop`` (every rotation of each) with the worker's plan."""
    plan, arranger = _PLAN, _ARRANGER
    assert plan is not None
    rules = plan.rules
    n = rules.players
    tally = Tally(n, rules)
    for i in range(start, stop):
        seed = deal_seed(plan.seed, i)
        for r in plan.rotations():
            deal: Deal
            if arranger is not None:
                deal = ShowDeal(rules, seed, dealer=i % n, arranger=arranger)
            else:
                deal = new_deal(rules, seed, dealer=i % n)
            entrant_at = [(s + r) % n for s in range(n)]  # seat s plays the bots' entry s + r
            seating = [plan.bots[e] for e in entrant_at]
            players = [
                _make(bot, f"{seed}/r{r}/s{s}", plan.budget_ms, rules, plan.anytime)
                for s, bot in enumerate(seating)
            ]
            played = play_deal_timed(deal, players, strict=plan.strict, grace_ms=DEFAULT_GRACE_MS)
            if plan.histories is not None and i in plan.history_decks:
                text = history.dump(deal, names=seating, match={"deck": i + 1, "rotation": r + 1})
                path = Path(plan.histories) / f"deck-{i + 1:06d}-rotation-{r + 1}.txt"
                write_text(path, text)  # on this machine, even from a Ray task on another
            result = played.result
            tally.play(
                entrant_at,
                result.charges,
                result.winner,
                dropped=[seat.dropped for seat in result.seats],
                showed=result.ending is Ending.SHOW,
            )
            for s, bot in enumerate(seating):
                tally.time(bot, played.ms[s], played.late[s])
            tick()
        tally.end_deck()
    return tally


def seat_net(rules: Rules, result: DealResult, seat: int) -> float:
    """A seat's points from one deal (:func:`rummykit.cli.report.deal_points`): higher is better
    and zero-sum round the table.  Settlement (the show family, Rummy 40): the winner collects
    what the others were charged, every other seat pays its charge.  A penalty count (Remi 51,
    low totals win): the mean of the other seats' charges less the seat's own."""
    return deal_points(rules, result.charges, result.winner, [True] * len(result.seats))[seat]


def _chunks(count: int, workers: int) -> list[tuple[int, int]]:
    """Deck ranges: several per worker (for an even finish)."""
    size = max(1, min(25, math.ceil(count / (workers * 8))))
    return [(start, min(start + size, count)) for start in range(0, count, size)]


def _run_chunk(task: tuple[int, int]) -> Tally:
    return play_decks(*task)


def run_decks(
    plan: Plan, decks: int, workers: int, meter: Meter | None = None, backend: Backend | None = None
) -> Finished[Tally]:
    """Play ``decks`` decks of the plan over ``workers`` processes (or Ray tasks at once, on a
    Ray ``backend``); ``meter`` counts the deals played; Ctrl-C answers the chunks that
    finished (``interrupted``)."""
    return run_chunks(
        _chunks(decks, workers),
        _run_chunk,
        workers=workers,
        init=_init,
        initargs=(plan,),
        meter=meter,
        backend=backend,
    )


def total(plan: Plan, finished: Finished[Tally]) -> Tally:
    """The chunks' tallies added up in deck order."""
    tally = Tally(plan.rules.players, plan.rules)
    for part in finished.results:
        tally.add(part)
    return tally


def tournament(plan: Plan, decks: int, workers: int) -> Tally:
    """Play ``decks`` decks of the plan over ``workers`` processes, added up in deck order."""
    return total(plan, run_decks(plan, decks, workers))


# ---- input -----------------------------------------------------------------------------------


def _count(text: str | None, option: str, default: int, least: int = 1) -> int:
    return default if text is None else whole_number(text, option, least)


def _bots(text: str, rules: Rules) -> tuple[str, ...]:
    """The bots round the table; each name's options are checked by making the bot once."""
    known = tuple(TABLE_BOTS) if rules.is_table else BOT_NAMES
    bots = bots_round_the_table(text, rules.players, known)
    for name in dict.fromkeys(bots):
        try:
            make_player(name, 0, rules)
        except BotError as e:
            raise InputError(str(e)) from None
    return bots


def plan_from_args(args: argparse.Namespace) -> tuple[Plan, int, int]:
    """The plan, the number of decks and the workers; InputError on bad input."""
    rules = rules_from_args(args)
    if args.seats is not None:
        seats = _count(args.seats, "--seats", rules.players, least=2)
        if seats != rules.players:
            try:
                rules = rules.replace(players=seats)
            except RulesError as e:
                raise InputError(str(e)) from None
    decks = _count(args.deals, "--deals", 200)
    workers = _count(args.workers, "--workers", os.cpu_count() or 1)
    budget: float | None = None
    if args.budget_ms is not None:
        try:
            budget = float(args.budget_ms)
        except ValueError:
            raise InputError(f"--budget-ms takes a number of milliseconds, not {args.budget_ms!r}") from None
        if not budget > 0:
            raise InputError(f"--budget-ms must be more than 0, not {args.budget_ms}")
    bots = _bots(args.bots, rules)
    sample = _count(args.histories_sample, "--histories-sample", 10)
    if args.histories_sample is not None and args.histories is None:
        raise InputError("--histories-sample needs --histories DIR")
    folder = None if args.histories is None else check_histories(args.histories)
    plan = Plan(
        rules,
        bots,
        str(args.seed),
        bool(args.duplicate),
        budget,
        bool(args.strict),
        bool(args.anytime),
        folder,
        sample_decks(decks, sample) if folder is not None else (),
    )
    return plan, decks, workers


def check_histories(text: str) -> str:
    """A folder hand histories can be written to (made when missing), or an InputError."""
    path = Path(text)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".rummykit-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise InputError(f"cannot write hand histories to {text}: {e.strerror or e}") from None
    return text


def sample_decks(decks: int, sample: int) -> tuple[int, ...]:
    """``sample`` deck indices spread evenly over ``decks`` (all of them when fewer).

    >>> sample_decks(100, 4), sample_decks(3, 10)
    ((0, 25, 50, 75), (0, 1, 2))
    """
    if sample >= decks:
        return tuple(range(decks))
    return tuple(j * decks // sample for j in range(sample))


# ---- output ----------------------------------------------------------------------------------


def summary(
    plan: Plan,
    tally: Tally,
    seconds: float,
    workers: int,
    decks: int | None = None,
    interrupted: bool = False,
    backend: str = "local",
) -> dict[str, Any]:
    """The JSON object (docs/reports.md)."""
    return report(
        "tournament",
        tally,
        bots=plan.bots,
        seed=plan.seed,
        workers=workers,
        seconds=seconds,
        asked=tally.decks if decks is None else decks,
        unit="decks",
        duplicate=plan.duplicate,
        timed=True,
        interrupted=interrupted,
        backend=backend,
    )


def human(data: dict[str, Any]) -> str:
    dup = ", duplicate" if data["duplicate"] else ""
    seating = ", ".join(s["bot"] for s in data["seats"])
    head = (
        f"{data['decks']} decks ({data['deals']} deals{dup}) of {data['rules']}, {data['players']} seats "
        f"({seating}), seed {data['seed']}: {data['seconds']:.1f} s on {workers_text(data)}"
    )
    return report_text(data, head)


def run(args: argparse.Namespace) -> int:
    plan, decks, workers = plan_from_args(args)
    target = ray_target_from_args(args)
    deals = decks * len(plan.rotations())
    with open_backend(target) as backend:
        if args.workers is None:
            workers = backend.default_workers()
        t0 = time.perf_counter()
        try:
            meter = Meter("tournament", "deals", deals, args.progress)
            finished = run_decks(plan, decks, workers, meter, backend)
        except BotError as e:
            raise InputError(str(e)) from None
        seconds = time.perf_counter() - t0
        tally = total(plan, finished)
        data = summary(plan, tally, seconds, workers, decks, finished.interrupted, backend.name)
        if args.json:
            sys.stdout.write(orjson.dumps(data).decode() + "\n")
        else:
            print(human(data))
        sys.stdout.flush()  # the report before a cluster's shutdown
    return INTERRUPTED if finished.interrupted else 0
