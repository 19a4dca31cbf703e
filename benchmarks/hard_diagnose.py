"""Where hard's search leaves medium's choice, and whether it was right to.

Plays hard (a fixed number of worlds) against medium in duplicate decks (Nepali, two seats by
default) and, at every throw where hard throws another card than medium's ranking would, and
every drop decision where the two differ, asks two judges which choice was better on the same
sampled worlds (the worlds come from the seat's view, as hard's own do):

* ``greedy``: many worlds played out by greedy play at every seat (hard's own roll-out, only
  far more worlds): is hard's search just too noisy?
* ``medium``: fewer worlds played out by medium's policy at every seat (it reads ``away``, the
  exchanges from a show, as greedy does not): is the greedy roll-out biased?

It prints, per judge, the mean gain of hard's choice over medium's (points a deal, with a 95%
interval over the positions) and how often the judge agrees with hard; then the same split by
what hard's deviation did to the hand (a throw that leaves it further from a show, the same
distance, or one made for safety).

    python benchmarks/hard_diagnose.py --decks 60 --greedy-worlds 300 --medium-worlds 8
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.bots import play_deal
from rummykit.bots.contract import Deadline
from rummykit.bots.hard import HardPlayer
from rummykit.bots.level import throw_kinds
from rummykit.bots.medium import DROP_RULES, MediumPlayer, hand_features
from rummykit.bots.reading import HandReader
from rummykit.bots.rollout import Playout
from rummykit.bots.tracking import PassTracker, is_wild, read_view, sample_hidden
from rummykit.engine.deal import ShowDeal
from rummykit.engine.events import SeatStatus
from rummykit.engine.rules import get_preset
from rummykit.engine.views import SeatView


@dataclass
class Position:
    kind: str  # "throw" or "drop"
    view: SeatView
    passes: PassTracker
    hard: int  # the card hard threw (drop: 1 when it dropped)
    medium: int
    tag: str


class Recorder(HardPlayer):
    """Hard, writing down where it leaves medium's choice."""

    found: list[Position]

    def __init__(self, seed: int | str) -> None:
        super().__init__(seed)
        self.found = []
        self.untimed = True

    def _copy_passes(self) -> PassTracker:
        p = PassTracker()
        p._pile = list(self.passes._pile)
        p.passed = {s: list(v) for s, v in self.passes.passed.items()}
        return p

    def _throw(self, view: SeatView, reader: HandReader, deadline: Deadline) -> int:
        choice = super()._throw(view, reader, deadline)
        ranked = MediumPlayer.ranked_throws(self, view, reader, view.hand, throw_kinds(view))
        med = ranked[0][1]
        if choice != med.card:
            mine = next(t for _s, t in ranked if t.card == choice)
            if mine.away > med.away:
                tag = "further from a show"
            elif self.last_reason and "though" not in self.last_reason and mine.away == med.away:
                tag = "same distance"
            else:
                tag = "same distance" if mine.away == med.away else "nearer"
            self.found.append(Position("throw", view, self._copy_passes(), choice, med.card, tag))
        return choice

    def _drop(self, view: SeatView, reader: HandReader, deadline: Deadline) -> bool:
        mine = super()._drop(view, reader, deadline)
        first = (
            view.drop_cost == view.rules.drop_first
            and not view.took[view.seat]
            and not view.thrown[view.seat]
        )
        med = False
        if first:
            away, pure, _p = hand_features(reader, view.hand, view.wild)
            med = DROP_RULES[min(view.players, 4)].drops(away, pure)
        if mine != med:
            tag = "hard drops" if mine else "medium drops"
            self.found.append(Position("drop", view, self._copy_passes(), int(mine), int(med), tag))
        return mine


class MediumPolicy:
    """Medium's draw and throw on kinds, for play-outs (no drops)."""

    def __init__(self, reader: HandReader, wild: int | None, players: int) -> None:
        self.reader, self.wild, self.players = reader, wild, players
        self.m = MediumPlayer(0)
        self.pick_wild = reader.rules.pick_joker_from_pile

    def _score(self, turn: int, away: int, charge: int, value: int = 0) -> float:
        m = self.m
        age = min(1.0, (turn // self.players) / m.age_turns)
        w = m.charge_early + (m.charge_late - m.charge_early) * age
        return m.away_weight * away + w * charge - m.value_weight * value

    def best(self, turn: int, hand14: list[int], allowed: Sequence[int]) -> tuple[float, int]:
        r, wild = self.reader, self.wild
        naturals = [k for k in set(allowed) if not is_wild(k, wild)] or list(set(allowed))
        best: tuple[float, int, int] | None = None
        for t in r.throws(hand14, wild, naturals):
            key = (self._score(turn, t.away, t.charge, t.value), -t.value, t.card)
            if best is None or key < best:
                best = key
        assert best is not None
        return best[0], best[2]

    def play(
        self,
        hands: list[list[int]],
        stock: list[int],
        pile: list[int],
        in_play: Sequence[bool],
        charged: Sequence[int],
        seat: int,
        turn: int,
        rng: random.Random,
        limit: int = 80,
    ) -> list[int]:
        r, wild = self.reader, self.wild
        n = len(hands)
        playout = Playout(r.arranger, wild)
        for _ in range(limit):
            hand = hands[seat]
            top = pile[-1] if pile else None
            took = None
            if top is not None and (not is_wild(top, wild) or self.pick_wild):
                take = is_wild(top, wild)
                h14 = [*hand, top]
                finish, _t, _a = r.arranger.best_throw(h14, wild)
                if any(k != top for k in finish):
                    pile.pop()
                    return playout.show(hands, in_play, charged, seat, h14, finish, top)
                if not take:
                    now = self._score(turn, r.away(hand, wild), r.charge(hand, wild))
                    after, _c = self.best(turn, h14, [k for k in hand if k != top])
                    take = after < now - self.m.take_margin
                if take:
                    took = pile.pop()
                    hand.append(took)
            if took is None:
                if not stock:
                    if len(pile) <= 1:
                        break
                    under = pile[:-1]
                    del pile[:-1]
                    rng.shuffle(under)
                    stock.extend(under)
                hand.append(stock.pop())
                finish, _t, _a = r.arranger.best_throw(hand, wild)
                if finish:
                    return playout.show(hands, in_play, charged, seat, hand, finish, None)
            _s, card = self.best(turn, hand, [k for k in hand if k != took])
            hand.remove(card)
            pile.append(card)
            turn += 1
            seat = (seat + 1) % n
            while not in_play[seat]:
                seat = (seat + 1) % n
        charges = [r.charge(h, wild) if in_play[s] else 0 for s, h in enumerate(hands)]
        order = [(seat + i) % n for i in range(n) if in_play[(seat + i) % n]]
        winner = min(order, key=lambda s: charges[s])
        return Playout._settle(charges, in_play, charged, winner)


def judge(pos: Position, reader: HandReader, worlds: int, policy: str, seed: str) -> list[float]:
    """Per world: the net of hard's choice less medium's, both played out in that world."""
    view = pos.view
    rng = random.Random(seed)
    know = read_view(view, pos.passes)
    wild, me, n = view.wild, view.seat, view.players
    in_play = [st is SeatStatus.IN for st in view.statuses]
    charged = [0] * n
    playout = Playout(reader.arranger, wild)
    med = MediumPolicy(reader, wild, n)
    nxt = (me + 1) % n
    while not in_play[nxt]:
        nxt = (nxt + 1) % n
    out = []
    for _ in range(worlds):
        world = sample_hidden(view, know, rng)
        seed32 = rng.getrandbits(32)
        nets = []
        for choice in (pos.hard, pos.medium):
            hands = [list(h) for h in world.hands]
            stock, pile = list(world.stock), list(world.pile)
            prng = random.Random(seed32)
            if pos.kind == "drop":
                if choice:
                    nets.append(-(view.drop_cost or 0))
                    continue
                start, turn = me, view.turn
            else:
                hands[me].remove(choice)
                pile.append(choice)
                start, turn = nxt, view.turn + 1
            if policy == "greedy":
                got = playout.play(
                    hands, stock, pile, in_play, charged, start, prng, turns_left=view.turn_limit - turn
                )
            else:
                got = med.play(hands, stock, pile, in_play, charged, start, turn, prng)
            nets.append(got[me])
        out.append(nets[0] - nets[1])
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--decks", type=int, default=30)
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--seed", default="diag")
    p.add_argument("--hard-worlds", type=int, default=32, help="hard's own worlds a search")
    p.add_argument("--greedy-worlds", type=int, default=400)
    p.add_argument("--medium-worlds", type=int, default=12)
    p.add_argument("--max-positions", type=int, default=400)
    p.add_argument("--medium-positions", type=int, default=100, help="positions the medium judge sees")
    args = p.parse_args()
    rules = get_preset("nepali", players=args.seats)
    reader = HandReader(rules)
    positions: list[Position] = []
    for i in range(args.decks):
        for r in range(2):
            deal = ShowDeal(rules, f"{args.seed}/{i}", dealer=i % args.seats)
            players: list[object] = []
            for s in range(args.seats):
                if (s + r) % 2 == 0:
                    h = Recorder(f"{args.seed}/{i}/{r}/{s}")
                    h.search_worlds = args.hard_worlds
                    players.append(h)
                else:
                    players.append(MediumPlayer(f"{args.seed}/{i}/{r}/{s}"))
            play_deal(deal, players)  # type: ignore[arg-type]
            for pl in players:
                if isinstance(pl, Recorder):
                    positions.extend(pl.found)
        if len(positions) >= args.max_positions:
            break
    positions = positions[: args.max_positions]
    print(f"{len(positions)} positions where hard left medium's choice ({args.decks} decks at most)")
    by: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    agree: dict[tuple[str, str], list[int]] = defaultdict(list)
    for j, pos in enumerate(positions):
        for policy, worlds in (("greedy", args.greedy_worlds), ("medium", args.medium_worlds)):
            if worlds <= 0 or (policy == "medium" and j >= args.medium_positions):
                continue
            diffs = judge(pos, reader, worlds, policy, f"{args.seed}/judge/{j}")
            mean = sum(diffs) / len(diffs)
            by[(policy, pos.kind, "all")].append(mean)
            by[(policy, pos.kind, pos.tag)].append(mean)
            agree[(policy, pos.kind)].append(int(mean > 0))
    print("judge   decision  split                  positions  hard's gain over medium (95%)  judge agrees")
    for key in sorted(by):
        vals = by[key]
        m = statistics.fmean(vals)
        half = 1.96 * statistics.stdev(vals) / math.sqrt(len(vals)) if len(vals) > 1 else float("nan")
        a = agree[(key[0], key[1])]
        share = f"{100 * sum(a) / len(a):.0f}%" if key[2] == "all" else ""
        print(f"{key[0]:7} {key[1]:9} {key[2]:22} {len(vals):9d}  {m:+6.2f} ± {half:4.2f}  {share:>22}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
