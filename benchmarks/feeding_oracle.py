"""How much is the next seat's hidden hand worth?  A ceiling for issue 14's targets.

``oracle`` is hard with one thing no fair bot has: at each throw it asks the next seat's own
bot, on that seat's real hand, whether it would take the card from the pile (its draw rule as it
stands) and be nearer a show for it (it shows, or is fewer exchanges away), and throws the
best-ranked card that would not (the ranking's best when they all would; only throws within
:data:`NEAR` of the best are asked).  Everything else is hard's.  Played against a rival on
duplicate decks, beside plain hard against the same rival on the same decks, it measures what
reading the rival's hand perfectly would add to hard's throws: the most any reading of the view
could give there.

    python benchmarks/feeding_oracle.py --rival greedy --decks 1000 --seed or1 --bots oracle,hard,medium
    python benchmarks/feeding_oracle.py --rival medium --decks 1000 --seed or1
    python benchmarks/feeding_oracle.py --rival hard --decks 1000 --seed or1 --bots oracle

Each line is the mean settlement net a deal of the named bot, with its 95% interval over the
decks (each deck dealt twice, the bots swapping seats).  Two seats only: at more seats "the
next seat" is one rival among several and the ceiling is not one number.  Not shipped: a
measuring instrument, its oracle sees the deal.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rummykit.bots import make_player
from rummykit.bots.base import turns
from rummykit.bots.baseline import GreedyPlayer
from rummykit.bots.contract import Deadline
from rummykit.bots.hard import HardPlayer
from rummykit.bots.level import LevelPlayer
from rummykit.bots.reading import HandReader, ThrowEval
from rummykit.cli.tournament_cmd import seat_net
from rummykit.engine.deal import ShowDeal
from rummykit.engine.events import Action, Phase
from rummykit.engine.rules import Rules, get_preset
from rummykit.engine.views import SeatView

FED = 1000.0  # the penalty on a card the rival would take: below every other card
NEAR = 15.0  # asked only of throws this near the best (hard's look reaches 10 past it)


class OraclePlayer(HardPlayer):
    """Hard that never throws a card the next seat would take, told by that seat's own bot."""

    name = "oracle"

    def __init__(self, seed: int | str) -> None:
        super().__init__(seed)
        self.untimed = True
        self.deal: ShowDeal | None = None
        self.rival: Any = None
        self.rival_seat = 1
        self._throwing = False
        self.asked: dict[int, bool] = {}  # the last throw's answers: card -> it would feed the rival

    def rival_takes(self, card: int) -> bool:
        """Whether the rival would take ``card`` and be nearer a show for it (a take that only
        swaps a dear loose card for a cheaper one is not worth breaking one's own hand for)."""
        deal, rival = self.deal, self.rival
        assert deal is not None
        seen = deal.view(self.rival_seat)
        seen = replace(seen, pile_top=card)
        if not self._would_take(rival, seen, card):
            return False
        reader, wild, hand = self.reader(seen.rules), seen.wild, seen.hand
        if any(k != card for k in reader.arranger.best_throw((*hand, card), wild)[0]):
            return True  # it shows
        after = min(t.away for t in reader.throws((*hand, card), wild, set(hand)))
        return after < reader.away(hand, wild)

    def _would_take(self, rival: Any, seen: SeatView, card: int) -> bool:
        """The rival's own draw rule on ``seen`` (its view with ``card`` on the pile), asked as
        at its draw (not ``choose``: that may move a search's random state)."""
        drawing = replace(seen, phase=Phase.DRAW, legal=(Action.draw_stock(), Action.draw_pile()))
        if isinstance(rival, GreedyPlayer):
            return rival._draw(drawing, rival._arranger_for(seen.rules)) == Action.draw_pile()
        assert isinstance(rival, LevelPlayer)
        return bool(rival._draw(drawing, rival.reader(seen.rules), Deadline(rival.budget_ms)))

    def ranked_throws(
        self, view: SeatView, reader: HandReader, hand14: Sequence[int], allowed: Sequence[int]
    ) -> list[tuple[float, ThrowEval]]:
        ranked = super().ranked_throws(view, reader, hand14, allowed)
        if not self._throwing or not ranked:
            return ranked  # the draw's look at the pile card: hard's own
        near = ranked[0][0] + NEAR
        self.asked = {t.card: self.rival_takes(t.card) for s, t in ranked if s <= near}
        marked = [(s + (FED if self.asked.get(t.card) else 0.0), t) for s, t in ranked]
        marked.sort(key=lambda st: (st[0], -st[1].value, st[1].card))
        return marked

    def _throw(self, view: SeatView, reader: HandReader, deadline: Deadline) -> int:
        self._throwing = True
        try:
            return super()._throw(view, reader, deadline)
        finally:
            self._throwing = False


def _player(name: str, seed: str) -> Any:
    if name == "oracle":
        return OraclePlayer(seed)
    player = make_player(name, seed)
    if hasattr(player, "untimed"):
        player.untimed = True
    return player


def _net(rules: Rules, seed: str, dealer: int, names: tuple[str, str], me: int) -> float:
    deal = ShowDeal(rules, seed, dealer=dealer)
    players = [_player(n, f"{seed}/{s}/{n}") for s, n in enumerate(names)]
    for s, p in enumerate(players):
        if isinstance(p, OraclePlayer):
            p.deal, p.rival, p.rival_seat = deal, players[1 - s], 1 - s
    for seat in turns(deal, players):
        deal.apply(seat, players[seat].choose(deal.view(seat)))
    assert deal.result is not None
    return seat_net(rules, deal.result, me)


def _deck(job: tuple[str, str, str, str, int]) -> float:
    rules_name, seed0, bot, rival, i = job
    rules = get_preset(rules_name, players=2)
    seed = f"{seed0}/{i}"
    a = _net(rules, seed, i % 2, (bot, rival), 0)
    b = _net(rules, seed, i % 2, (rival, bot), 1)
    return (a + b) / 2


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="nepali")
    ap.add_argument("--rival", default="greedy", help="greedy, medium or hard")
    ap.add_argument("--bots", default="oracle,hard", help="the bots measured against the rival")
    ap.add_argument("--decks", type=int, default=400)
    ap.add_argument("--seed", default="or1")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    if not 1 <= args.decks <= 20_000 or not 1 <= args.workers <= 16:
        ap.error("--decks is 1 to 20,000 and --workers 1 to 16")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    for bot in bots:
        try:
            _player(bot, "check")
        except Exception as e:  # the registry's own message names the problem
            ap.error(f"--bots: {bot!r}: {e}")
    if args.rival not in ("greedy", "medium", "hard"):
        ap.error(f"--rival {args.rival!r}: greedy, medium or hard (a bot whose draw rule can be asked)")
    print(f"{args.rules}, two seats, {args.decks} duplicate decks (seed {args.seed}), against {args.rival}")
    with multiprocessing.Pool(args.workers) as pool:
        for bot in bots:
            if bot == args.rival:
                print(f"{bot:8s} vs {args.rival:8s} (itself: level by construction, not played)")
                continue
            jobs = [(args.rules, args.seed, bot, args.rival, i) for i in range(args.decks)]
            nets = pool.map(_deck, jobs, chunksize=4)
            n = len(nets)
            mean = sum(nets) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in nets) / max(1, n - 1))
            half = 1.96 * sd / math.sqrt(n)
            print(f"{bot:8s} vs {args.rival:8s} {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
