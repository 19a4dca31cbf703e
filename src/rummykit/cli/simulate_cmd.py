"""``rummykit simulate``: bots play many deals (or whole matches) and the seats are compared.

Every deal stands alone unless ``--matches`` is given: deal ``i`` (0-based) is shuffled with
the seed ``SEED/i``, dealt by seat ``i mod players`` (the dealer rotates), and the bot at seat
``s`` is seeded ``SEED/i/s``.  With ``--matches M`` each match ``m`` is a whole match in the
format of the rules (settlement, points, pool, deals, target, penalty), its deals seeded
``SEED/mM/n``, its bots ``SEED/mM/seat s``, its first dealer seat ``m mod players``; seats out of
a pool rejoin whenever the rules allow it.  ``--bots`` names one bot a seat or fewer, repeated
round the table (``greedy,random`` at four seats is greedy, random, greedy, random).  The work is
split into chunks by index over ``--workers`` processes and added up in index order, so the
figures are the same for the same seed whatever the number of workers.  With ``--ray auto|ADDRESS``
the same chunks run as tasks on a Ray cluster (README: Scale-out), with the same figures.

Per seat (numbered from 1) and per bot: points per deal, the seat's net in the settlement sense
(a deal's winner collects what the others were charged, every other seat pays its charge, so
higher is better and the seats sum to zero; Remi 51, whose low totals win: the mean of the
others' counts less the seat's own; a seat out of a pool nets 0 that deal) with its 95%
confidence interval (normal approximation over every deal of the run); deals won, drops and
shows (wins by a valid show); the mean charge per deal played; and with ``--matches`` each
match's final total in the format's own sense (settlement: signed, higher is better; points,
pool and penalty: lower is better; deals: chips and target: the winner scores, higher is
better) summed over the matches.  ``--json`` prints the same report as ``rummykit tournament``
(docs/reports.md).  Ctrl-C stops the run at once and prints the finished part, marked partial
(exit status 130).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import orjson

from rummykit.bots import (
    BOT_NAMES,
    TABLE_BOTS,
    BotError,
    Player,
    make_player,
    play_deal,
    play_match,
    rejoin_always,
)
from rummykit.cli.arrange_cmd import InputError, add_rules_options, rules_from_args
from rummykit.cli.report import Tally, report, report_text, workers_text
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
from rummykit.engine.events import Ending
from rummykit.engine.match import DealRow, Status
from rummykit.engine.rules import Rules, RulesError
from rummykit.engine.session import MatchSession, deal_seed

MAX_DEALS_PER_MATCH: Final = 10_000  # a pool that rejoins without limit must still end


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
        help=f"bots round the table, comma-separated, repeated to fill the seats ({', '.join(BOT_NAMES)}; "
        "default greedy)",
    )
    p.add_argument("--seed", metavar="S", default="0", help="the run's seed (default 0)")
    p.add_argument(
        "--workers", metavar="W", help=f"processes (default: every core, {os.cpu_count()}; 1 runs in-process)"
    )
    p.add_argument("--histories", metavar="DIR", help="write each deal's hand history to DIR")
    add_backend_options(p)
    add_progress_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object (docs/reports.md)")
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
    tally = Tally(n, rules)
    seats = range(n)
    for i in range(start, stop):
        seed = deal_seed(plan.seed, i)
        deal: Deal
        if arranger is not None:
            deal = ShowDeal(rules, seed, dealer=i % n, arranger=arranger)
        else:
            deal = new_deal(rules, seed, dealer=i % n)
        result = play_deal(deal, _players(plan, seed))
        dropped = [result.seats[s].dropped for s in seats]
        tally.play(seats, result.charges, result.winner, dropped=dropped, showed=result.ending is Ending.SHOW)
        tally.end_deck()
        if plan.histories is not None:
            text = _history_text(deal, plan.bots, {"deal": i + 1})
            _write(Path(plan.histories) / f"deal-{i + 1:06d}.txt", text)
        tick()
    return tally


def _play_matches(start: int, stop: int) -> Tally:
    plan = _PLAN
    assert plan is not None
    rules = plan.rules
    n = rules.players
    tally = Tally(n, rules)
    for m in range(start, stop):
        seed = f"{plan.seed}/m{m}"
        session = MatchSession(rules, seed, first_dealer=m % n)
        players = [make_player(bot, f"{seed}/seat {s}", rules) for s, bot in enumerate(plan.bots)]

        def record(deal: Deal, row: DealRow, m: int = m, session: MatchSession = session) -> None:
            assert deal.result is not None
            statuses = row.entry.statuses
            tally.play(
                range(n),
                row.charges,
                row.winner,
                playing=[status is not Status.OUT for status in statuses],
                dropped=[status in (Status.DROPPED, Status.MIDDLE_DROP) for status in statuses],
                showed=deal.result.ending is Ending.SHOW,
            )
            tally.end_deck()
            if plan.histories is not None:
                bots = tuple(plan.bots[s] for s in session.deal_seats)
                path = Path(plan.histories) / f"match-{m + 1:06d}-deal-{row.index + 1:03d}.txt"
                _write(path, _history_text(deal, bots, {"match": m + 1, "deal": row.index + 1}))

        # the simulator's rejoin policy: a seat out of a pool rejoins whenever the rules allow
        play_match(session, players, rejoin=rejoin_always, max_deals=MAX_DEALS_PER_MATCH, on_deal=record)
        tally.end_match(session.totals, session.winners)
        tick()
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
    write_text(path, text)  # on this machine, even from a Ray task on another


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
    known = tuple(TABLE_BOTS) if rules.is_table else BOT_NAMES
    bots = bots_round_the_table(args.bots, rules.players, known)
    histories = None if args.histories is None else _check_histories(args.histories)
    return Plan(rules, bots, str(args.seed), matches is not None, histories), count, workers


# ---- running ---------------------------------------------------------------------------------


def _chunks(count: int, workers: int, matches: bool) -> list[tuple[bool, int, int]]:
    """Index ranges: several per worker (for an even finish)."""
    size = max(1, min(50 if not matches else 5, math.ceil(count / (workers * 8))))
    return [(matches, start, min(start + size, count)) for start in range(0, count, size)]


def simulate(
    plan: Plan, count: int, workers: int, meter: Meter | None = None, backend: Backend | None = None
) -> Finished[Tally]:
    """Play the plan: ``count`` deals or matches over ``workers`` processes (or Ray tasks at
    once, on a Ray ``backend``); the figures do not depend on ``workers`` nor the backend.
    ``meter`` shows the deals or matches finished; Ctrl-C answers the chunks that finished
    (``interrupted``)."""
    return run_chunks(
        _chunks(count, workers, plan.matches),
        _run_chunk,
        workers=workers,
        init=_init,
        initargs=(plan,),
        meter=meter,
        backend=backend,
    )


def total(plan: Plan, finished: Finished[Tally]) -> Tally:
    """The chunks' tallies added up in index order."""
    tally = Tally(plan.rules.players, plan.rules)
    for part in finished.results:
        tally.add(part)
    return tally


# ---- output ----------------------------------------------------------------------------------


def summary(
    plan: Plan,
    tally: Tally,
    seconds: float,
    workers: int,
    count: int | None = None,
    interrupted: bool = False,
    backend: str = "local",
) -> dict[str, Any]:
    """The JSON object (docs/reports.md)."""
    unit = "matches" if plan.matches else "deals"
    done = tally.matches if plan.matches else tally.deals
    return report(
        "simulate",
        tally,
        bots=plan.bots,
        seed=plan.seed,
        workers=workers,
        seconds=seconds,
        asked=done if count is None else count,
        unit=unit,
        matches=plan.matches,
        interrupted=interrupted,
        backend=backend,
    )


def human(data: dict[str, Any]) -> str:
    what = (
        f"{data['matches']} {data['format']} matches, {data['deals']} deals"
        if data["matches"] is not None
        else (f"{data['deals']} deals")
    )
    head = (
        f"{what} of {data['rules']}, {data['players']} seats, seed {data['seed']}: "
        f"{data['deals_per_second']} deals/s on {workers_text(data)}"
    )
    return report_text(data, head)


def run(args: argparse.Namespace) -> int:
    plan, count, workers = plan_from_args(args)
    target = ray_target_from_args(args)
    what = "matches" if plan.matches else "deals"
    with open_backend(target) as backend:
        if args.workers is None:
            workers = backend.default_workers()
        t0 = time.perf_counter()
        try:
            meter = Meter("simulate", what, count, args.progress)
            finished = simulate(plan, count, workers, meter, backend)
        except BotError as e:
            raise InputError(str(e)) from None
        seconds = time.perf_counter() - t0
        tally = total(plan, finished)
        data = summary(plan, tally, seconds, workers, count, finished.interrupted, backend.name)
        if args.json:
            sys.stdout.write(orjson.dumps(data).decode() + "\n")
        else:
            print(human(data))
        sys.stdout.flush()  # the report before a cluster's shutdown
    return INTERRUPTED if finished.interrupted else 0
