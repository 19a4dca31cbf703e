"""How well can a seat tell which of its cards the next seat would take?  (Issue 14.)

An oracle hard that sees medium's hand and never feeds it beats medium by about +5.5 a deal
heads up (BENCHMARKS.md); nothing public has yet turned that into a gain.  This measures why:
it plays hard (seat 1) against medium (seat 2), Nepali heads up by default, and at every one of
hard's throws asks, for each natural kind in hard's hand,

* the truth, from medium's real hand: would medium take that card from the pile (its own draw
  rule: a show, or its score better by its margin) and would it show with it;
* each *model*'s prediction, from hard's view alone: hands for medium sampled from the cards hard
  cannot see (after the ones medium took from the pile and still holds), weighed or drawn as the
  model says, and the share of them that would take or show with the card (the greedy rule: a
  show, or a lower charge after the best throw).

Models (``--models``, comma-separated):

* ``uniform``: hands drawn at random from the unseen cards (what hard's search deals);
* ``throws``: the same hands weighed by how well they explain medium's play: its last throw
  was its best (the kept hand pays no more than the cheapest keep, and it could not show), and
  its earlier throws and the pile cards it passed over would not have helped it;
* ``tilt=T``: hands drawn by a Metropolis chain that leans to low charges, ``T`` per own turn
  medium has played (a seat some turns in holds groups, not a random handful), then weighed as
  ``throws``.

It prints the base rates and, per model, the Brier score of its chance of a take and of a show
(lower is better; a model that predicts the base rate for every card scores the "constant"
line), and its mean prediction on the cards that were taken (shown) against the rest: a model
that tells them apart has the first clearly above the second.

    python benchmarks/feeding_calibration.py --decks 60 --seed fc1
"""

from __future__ import annotations

import argparse
import math
import random
from dataclasses import dataclass, field, replace

from rummykit.bots.base import turns
from rummykit.bots.contract import Deadline
from rummykit.bots.hard import HardPlayer
from rummykit.bots.medium import MediumPlayer
from rummykit.bots.reading import HandReader
from rummykit.bots.tracking import Knowledge, is_wild, read_view
from rummykit.engine.deal import ShowDeal
from rummykit.engine.events import ActionKind, Phase
from rummykit.engine.rules import get_preset
from rummykit.engine.views import SeatView


@dataclass
class Tally:
    """Predictions against outcomes, for one model and one event (a take, or a show)."""

    brier: float = 0.0
    n: int = 0
    on_yes: list[float] = field(default_factory=list)
    on_no: list[float] = field(default_factory=list)

    def add(self, p: float, truth: bool) -> None:
        self.brier += (p - truth) ** 2
        self.n += 1
        (self.on_yes if truth else self.on_no).append(p)

    def line(self) -> str:
        yes = sum(self.on_yes) / len(self.on_yes) if self.on_yes else float("nan")
        no = sum(self.on_no) / len(self.on_no) if self.on_no else float("nan")
        return f"Brier {self.brier / max(1, self.n):.4f}  mean on yes {yes:.3f}, on no {no:.3f}"


def medium_takes(
    medium: MediumPlayer, view: SeatView, reader: HandReader, hand: list[int], card: int
) -> tuple[bool, bool]:
    """(take, show): medium's own draw rule with ``hand`` and ``card`` on the pile (``view``, the
    throwing seat's, gives the turn and the table; only the hand and the pile's top are changed)."""
    seen = replace(view, hand=tuple(sorted(hand)), pile_top=card)
    take = medium._draw(seen, reader, Deadline(medium.budget_ms))
    show = not is_wild(card, view.wild) and any(
        k != card for k in reader.arranger.best_throw([*hand, card], view.wild)[0]
    )
    return take, show


def sample_hands(
    view: SeatView,
    reader: HandReader,
    know: Knowledge,
    seat: int,
    model: str,
    tilt_per_turn: float,
    n: int,
    rng: random.Random,
) -> list[tuple[float, list[int], int]]:
    """``n`` (weight, hand, charge) for ``seat`` by ``model`` (see the module's text)."""
    best, charge = reader.arranger.best_throw, reader.arranger.charge
    wild = view.wild
    held = list(know.holds[seat])
    need = view.card_counts[seat] - len(held)
    pool = [k for k, c in enumerate(know.unseen) for _ in range(c)]
    if need < 0 or need > len(pool):
        return []
    drawn: list[tuple[list[int], int]] = []
    tilt = tilt_per_turn * (view.turn // view.players)
    if tilt > 0 and need:
        rng.shuffle(pool)
        hidden, rest = pool[:need], pool[need:]
        cur = charge([*held, *hidden], wild)
        steps = 10
        for step in range((n + 5) * steps):
            if rest:
                i, j = rng.randrange(need), rng.randrange(len(rest))
                hidden[i], rest[j] = rest[j], hidden[i]
                new = charge([*held, *hidden], wild)
                if new <= cur or rng.random() < math.exp(-tilt * (new - cur)):
                    cur = new
                else:
                    hidden[i], rest[j] = rest[j], hidden[i]
            if step % steps == steps - 1 and step >= 5 * steps:
                drawn.append(([*held, *hidden], cur))
    else:
        for _ in range(n):
            hand = [*held, *rng.sample(pool, need)]
            drawn.append((hand, charge(hand, wild)))
    if model == "uniform":
        return [(1.0, h, c) for h, c in drawn]
    thrown = view.thrown[seat]
    last = thrown[-1] if thrown else None
    older = [*thrown[-4:-1], *know.passed[seat][-3:]]
    out = []
    for hand, now in drawn:
        loss = 0.0
        if last is not None:
            finish, _t, after = best([*hand, last], wild)
            loss += 1000.0 if finish else max(0, now - after)
        for k in older:
            finish, _t, after = best([*hand, k], wild)
            loss += 0.5 * (40.0 if finish else max(0, now - after))
        out.append((math.exp(-0.15 * loss), hand, now))
    return out


def predict(
    view: SeatView, reader: HandReader, hands: list[tuple[float, list[int], int]], card: int
) -> tuple[float, float]:
    """(chance of a take, chance of a show) of ``card`` over the weighed hands (greedy's rule)."""
    best, wild = reader.arranger.best_throw, view.wild
    take = show = total = 0.0
    for w, hand, now in hands:
        total += w
        finish, throw, after = best([*hand, card], wild)
        if any(k != card for k in finish):
            take += w
            show += w
        elif throw != card and after < now:
            take += w
    return (take / total, show / total) if total else (0.0, 0.0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="nepali")
    ap.add_argument("--decks", type=int, default=60)
    ap.add_argument("--seed", default="fc1")
    ap.add_argument("--hands", type=int, default=60, help="hands sampled a decision (default 60)")
    ap.add_argument("--models", default="uniform,throws,tilt=0.05,tilt=0.2")
    args = ap.parse_args()
    if not 1 <= args.decks <= 10_000 or not 1 <= args.hands <= 2_000:
        ap.error("--decks is 1 to 10,000 and --hands 1 to 2,000")
    models: dict[str, float] = {}  # each model and its lean to low charges a turn
    for m in (m.strip() for m in args.models.split(",")):
        if m in ("uniform", "throws"):
            models[m] = 0.0
        elif m.startswith("tilt="):
            try:
                models[m] = float(m.removeprefix("tilt="))
            except ValueError:
                ap.error(f"{m!r}: the tilt is a number (tilt=0.05)")
        elif m:
            ap.error(f"unknown model {m!r} (uniform, throws, tilt=T)")
    rules = get_preset(args.rules, players=2)
    takes = {m: Tally() for m in models}
    shows = {m: Tally() for m in models}
    base_take = base_show = cases = 0
    rng = random.Random(f"{args.seed}/models")
    for i in range(args.decks):
        deal = ShowDeal(rules, f"{args.seed}/{i}", dealer=i % 2)
        hard, medium = HardPlayer(f"{args.seed}/{i}/h"), MediumPlayer(f"{args.seed}/{i}/m")
        players = [hard, medium]
        for seat in turns(deal, players):
            view = deal.view(seat)
            if seat == 0 and view.phase is Phase.THROW and view.legal[0].kind is ActionKind.THROW:
                reader = hard.reader(view.rules)
                truth_hand = list(deal.hand(1))
                know = read_view(view, hard.passes)
                cards = sorted({k for k in view.hand if not is_wild(k, view.wild)})
                truth = {c: medium_takes(medium, view, reader, truth_hand, c) for c in cards}
                for c in cards:
                    base_take += truth[c][0]
                    base_show += truth[c][1]
                    cases += 1
                for m, tilt in models.items():
                    hands = sample_hands(view, reader, know, 1, m, tilt, args.hands, rng)
                    for c in cards:
                        p_take, p_show = predict(view, reader, hands, c)
                        takes[m].add(p_take, truth[c][0])
                        shows[m].add(p_show, truth[c][1])
            deal.apply(seat, players[seat].choose(view))
    if not cases:
        print("no throws seen")
        return 1
    rt, rs = base_take / cases, base_show / cases
    print(f"{args.rules}, 2 seats, {args.decks} decks (seed {args.seed}), {cases} cards at hard's throws")
    print(f"medium would take {rt:.1%} of them and show with {rs:.2%}")
    print(f"constant: take Brier {rt * (1 - rt):.4f}, show Brier {rs * (1 - rs):.4f}")
    for m in models:
        print(f"{m:10s} take: {takes[m].line()}")
        print(f"{'':10s} show: {shows[m].line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
