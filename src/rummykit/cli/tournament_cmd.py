"""``rummykit tournament``: bots play many deals against each other; each bot's strength and speed.

Deck ``i`` (0-based) is shuffled with the seed ``SEED/i`` and dealt by seat ``i mod seats``.
``--bots`` names one bot per seat, or fewer that repeat round the table (``hard,greedy`` at four
seats is hard, greedy, hard, greedy).  With ``--duplicate`` every deck is played once for each
distinct rotation of the bots round the table (at two seats: once, then with the seats swapped),
so that each bot meets the same cards from every seat and the luck of the deal cancels.  A bot
at play ``r`` of deck ``i``, seat ``s`` is seeded ``SEED/i/rR/sS``.  The work is split by deck over
``--workers`` processes and added up in deck order, so the figures (times apart) are the same
for the same seed whatever the number of workers.

A bot's name may carry options (``hard:worlds=24``, see :func:`rummykit.bots.make_player`).
The search bots play a fixed number of worlds a decision (their own ``max_worlds``, or the
name's ``worlds=``) and never read the clock, so the figures do not depend on the machine's
load; ``--anytime`` plays them against their deadlines as a live table does.  ``--histories DIR``
writes the hand histories of ``--histories-sample`` decks spread over the run (every rotation of
each, ``deck-NNNNNN-rotation-R.txt``) for ``rummykit replay``.

Both families play: a table-family preset (``--rules rummy40``, ``remi51``) seats that family's
bots.  Per bot: points per deal, the settlement net of its seats (a deal's winner collects what the
others were charged, every other seat pays its charge: higher is better; at Remi 51, whose low
totals win, the others' mean charge less its own, see :func:`seat_net`), with a 95% confidence
interval over the decks (the unit of a duplicate run: each deck's mean over the bot's seats and
rotations; normal approximation); deals won (a seat of the bot won the deal) and that as a rate;
drops; and each decision's time (mean, median, p99, max, and answers later than the budget and
its grace).  Every decision goes through :func:`rummykit.bots.contract.decide`, so each timed
bot is given its deadline.
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

from rummykit.bots import BOT_NAMES, BotError, Player, make_player
from rummykit.bots.contract import DEFAULT_GRACE_MS, is_timed, play_deal_timed
from rummykit.cli.arrange_cmd import InputError, add_rules_options, rules_from_args
from rummykit.cli.runner import cells, run_chunks, signed, whole_number, with_progress
from rummykit.engine import history
from rummykit.engine.arrange import Arranger
from rummykit.engine.deal import Deal, ShowDeal, new_deal
from rummykit.engine.events import DealResult
from rummykit.engine.rules import Rules, RulesError
from rummykit.engine.session import deal_seed

Z95: Final = 1.96


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
    p.add_argument("--json", action="store_true", help="print one JSON object")
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

    def rotations(self) -> list[tuple[str, ...]]:
        """The seatings each deck is played with: the bots as given, then (duplicate) every
        other distinct rotation round the table."""
        if not self.duplicate:
            return [self.bots]
        n = len(self.bots)
        out: list[tuple[str, ...]] = []
        for r in range(n):
            seating = tuple(self.bots[(s + r) % n] for s in range(n))
            if seating not in out:
                out.append(seating)
        return out

    @property
    def names(self) -> tuple[str, ...]:
        """The bots, each once, in seat order."""
        return tuple(dict.fromkeys(self.bots))


@dataclass(slots=True)
class BotTally:
    """One bot's sums (integers and lists kept in deck order, so chunks add up exactly)."""

    deck_means: list[float] = field(default_factory=list)  # per deck: mean net over its seats
    net: float = 0.0
    seat_deals: int = 0  # seats of the bot times plays
    wins: int = 0  # plays won by a seat of the bot
    drops: int = 0
    late: int = 0
    ms: list[float] = field(default_factory=list)

    def add(self, other: BotTally) -> None:
        self.deck_means += other.deck_means
        self.net += other.net
        self.seat_deals += other.seat_deals
        self.wins += other.wins
        self.drops += other.drops
        self.late += other.late
        self.ms += other.ms


@dataclass(slots=True)
class Tally:
    decks: int = 0
    plays: int = 0
    bots: dict[str, BotTally] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        self.decks += other.decks
        self.plays += other.plays
        for name, t in other.bots.items():
            self.bots.setdefault(name, BotTally()).add(t)


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
    tally = Tally(bots={name: BotTally() for name in plan.names})
    seatings = plan.rotations()
    for i in range(start, stop):
        seed = deal_seed(plan.seed, i)
        nets: dict[str, list[float]] = {name: [] for name in plan.names}
        for r, seating in enumerate(seatings):
            deal: Deal
            if arranger is not None:
                deal = ShowDeal(rules, seed, dealer=i % n, arranger=arranger)
            else:
                deal = new_deal(rules, seed, dealer=i % n)
            players = [
                _make(bot, f"{seed}/r{r}/s{s}", plan.budget_ms, rules, plan.anytime)
                for s, bot in enumerate(seating)
            ]
            played = play_deal_timed(deal, players, strict=plan.strict, grace_ms=DEFAULT_GRACE_MS)
            if plan.histories is not None and i in plan.history_decks:
                text = history.dump(deal, names=seating, match={"deck": i + 1, "rotation": r + 1})
                path = Path(plan.histories) / f"deck-{i + 1:06d}-rotation-{r + 1}.txt"
                path.write_text(text, encoding="utf-8")
            result = played.result
            tally.plays += 1
            for s, bot in enumerate(seating):
                t = tally.bots[bot]
                seat = result.seats[s]
                net = seat_net(rules, result, s)
                nets[bot].append(net)
                t.net += net
                t.seat_deals += 1
                t.drops += seat.dropped
                t.late += played.late[s]
                t.ms += played.ms[s]
            tally.bots[seating[result.winner]].wins += 1
        tally.decks += 1
        for name, values in nets.items():
            tally.bots[name].deck_means.append(sum(values) / len(values))
    return tally


def seat_net(rules: Rules, result: DealResult, seat: int) -> float:
    """A seat's points from one deal, higher is better and zero-sum round the table.

    Settlement (the show family, Rummy 40): the winner collects what the others were charged,
    every other seat pays its charge.  A penalty count (Remi 51, low totals win): the mean of
    the other seats' charges less the seat's own, so that at two seats it is the difference the
    deal makes between the two totals (the winner's -20 or -40 included).
    """
    r = result.seats[seat]
    if rules.format == "penalty":
        others = [x.charge for x in result.seats if x.seat != seat]
        return sum(others) / max(1, len(others)) - r.charge
    return float(result.collected if r.won else -r.charge)


def _chunks(count: int, workers: int) -> list[tuple[int, int]]:
    """Deck ranges: several per worker (for the progress bar and an even finish)."""
    size = max(1, min(25, math.ceil(count / (workers * 8))))
    return [(start, min(start + size, count)) for start in range(0, count, size)]


def _run_chunk(task: tuple[int, int]) -> Tally:
    return play_decks(*task)


def tournament(plan: Plan, decks: int, workers: int, progress: Callable[[int], None] | None = None) -> Tally:
    """Play ``decks`` decks of the plan over ``workers`` processes, added up in deck order."""
    tasks = _chunks(decks, workers)
    results = run_chunks(
        tasks,
        _run_chunk,
        size=lambda t: t[1] - t[0],
        workers=workers,
        init=_init,
        initargs=(plan,),
        progress=progress,
    )
    tally = Tally(bots={name: BotTally() for name in plan.names})
    for part in results:  # deck order
        tally.add(part)
    return tally


def _with_progress(plan: Plan, decks: int, workers: int) -> Tally:
    return with_progress(
        "tournament decks", "decks", decks, lambda progress: tournament(plan, decks, workers, progress)
    )


# ---- input -----------------------------------------------------------------------------------


def _count(text: str | None, option: str, default: int, least: int = 1) -> int:
    return default if text is None else whole_number(text, option, least)


def _bots(text: str, rules: Rules) -> tuple[str, ...]:
    players = rules.players
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    if not names:
        raise InputError("--bots names no bot")
    for name in names:
        try:
            make_player(name, 0, rules)  # the name and its options
        except BotError as e:
            raise InputError(str(e)) from None
    if len(names) > players:
        raise InputError(f"--bots names {len(names)} bots for {players} seats")
    return tuple(names[s % len(names)] for s in range(players))


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


def _percentile(sorted_ms: Sequence[float], q: float) -> float:
    if not sorted_ms:
        return 0.0
    i = min(len(sorted_ms) - 1, max(0, math.ceil(q * len(sorted_ms)) - 1))
    return sorted_ms[i]


def summary(plan: Plan, tally: Tally, seconds: float, workers: int) -> dict[str, Any]:
    """The JSON object: the run, and one entry per bot."""
    bots: dict[str, Any] = {}
    for name in plan.names:
        t = tally.bots[name]
        d = len(t.deck_means)
        mean = sum(t.deck_means) / d if d else 0.0
        var = sum((x - mean) ** 2 for x in t.deck_means) / (d - 1) if d > 1 else 0.0
        half = Z95 * math.sqrt(var / d) if d else 0.0
        ms = sorted(t.ms)
        bots[name] = {
            "seats": plan.bots.count(name),
            "points_per_deal": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "deals_won": t.wins,
            "deal_win_rate": round(t.wins / tally.plays, 4) if tally.plays else 0.0,
            "drops": t.drops,
            "drop_rate": round(t.drops / t.seat_deals, 4) if t.seat_deals else 0.0,
            "decisions": len(ms),
            "mean_ms": round(sum(ms) / len(ms), 3) if ms else 0.0,
            "median_ms": round(_percentile(ms, 0.5), 3),
            "p99_ms": round(_percentile(ms, 0.99), 3),
            "max_ms": round(ms[-1], 3) if ms else 0.0,
            "late": t.late,
        }
    return {
        "rules": plan.rules.preset,
        "seats": plan.rules.players,
        "bots_by_seat": list(plan.bots),
        "deals": tally.decks,
        "plays": tally.plays,
        "duplicate": plan.duplicate,
        "seed": plan.seed,
        "workers": workers,
        "seconds": round(seconds, 3),
        "bots": bots,
    }


def human(data: dict[str, Any]) -> str:
    dup = ", duplicate" if data["duplicate"] else ""
    head = (
        f"{data['deals']} decks ({data['plays']} deals{dup}) of {data['rules']}, {data['seats']} seats "
        f"({', '.join(data['bots_by_seat'])}), seed {data['seed']}: {data['seconds']:.1f} s on "
        f"{data['workers']} worker{'s' if data['workers'] != 1 else ''}"
    )
    columns = ["bot", "points/deal", "95% CI", "deals won", "win rate", "drops", "mean ms", "p99 ms", "late"]
    rows = []
    for name, b in data["bots"].items():
        lo, hi = b["ci95"]
        rows.append(
            [
                name,
                signed(b["points_per_deal"]),
                f"[{signed(lo)}, {signed(hi)}]",
                str(b["deals_won"]),
                f"{100 * b['deal_win_rate']:.1f}%",
                str(b["drops"]),
                f"{b['mean_ms']:.1f}",
                f"{b['p99_ms']:.1f}",
                str(b["late"]),
            ]
        )
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(columns)]
    lines = [head, "", cells(columns, widths), *(cells(r, widths) for r in rows), ""]
    lines.append(
        "points/deal: the bot's seats' net a deal (the winner collects the others' charges, the rest "
        "pay theirs); higher is better.  ms: time per decision."
    )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    plan, decks, workers = plan_from_args(args)
    t0 = time.perf_counter()
    try:
        tally = _with_progress(plan, decks, workers)
    except BotError as e:
        raise InputError(str(e)) from None
    data = summary(plan, tally, time.perf_counter() - t0, workers)
    if args.json:
        sys.stdout.write(orjson.dumps(data).decode() + "\n")
    else:
        print(human(data))
    return 0
