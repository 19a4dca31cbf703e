"""``hard``: medium's hand reading plus card tracking, learned drops, and a look at the next draw.

* Tracking (:mod:`~rummykit.bots.tracking`): the unseen cards (shoe minus its hand, the pile and
  the cut), what each seat took from the pile and so still holds, and which pile cards each
  seat passed over (from the events it observed).
* Throw: medium's ranking of the throws by ``away`` and charge (without medium's bonus for
  shedding a high card: :attr:`HardPlayer.value_weight` is 0), with a look at its next draw:
  each throw within :attr:`HardPlayer.look_window` of the best is credited the charge the next
  card is expected to take off the hand it leaves (the best throw after it; a show takes it
  all), and :attr:`HardPlayer.look_show` points per unit of chance that the card lets it show,
  over the cards still unseen, each as often as its copies (:meth:`HardPlayer._look`).
  From three seats up a card the next seat has shown it wants (it took a card from the pile
  that this card would sit in a group with) is penalised.  A search over sampled worlds is
  there (:attr:`HardPlayer.search_seats`; the expert's search builds on it): worlds are
  sampled from the unseen cards consistent with the view (the other seats get what they are
  known to hold, the rest at random; the stock gets its count), each of the closest few throws
  is played out in every world by greedy play at every seat (:mod:`~rummykit.bots.rollout`,
  the same world for every candidate so that only the throw differs), and the throw with the
  best mean net wins.  Hard no longer uses it: greedy play-outs misjudge real play, and
  against the ranking with the look it measured a loss heads up and, once hard's drops
  learned, at four seats too (BENCHMARKS.md).
* Draw: medium's rule (the pile card when it makes a show, is a joker, or clearly improves the
  best throw), with a wider margin (:attr:`HardPlayer.take_margin`).
* Drop: at any turn before drawing, by the expected net of playing on: where
  :mod:`~rummykit.bots.drops` has a model for the table, a linear model of what the view shows
  (the hand's away, charge, wild cards and pile card; the rivals still in, the seat's place
  round the table, the pile cards they took; fitted to medium's played-out hands by
  ``benchmarks/drop_study.py``), else the play-on values learned in self-play
  (:mod:`~rummykit.bots.values`): the seat drops when that is worse than the drop.  In a pool
  the view's match totals are read: a seat in compel never drops (the drop would put it out).
  :attr:`HardPlayer.out_penalty` would also count the table's chance of a charge that puts the
  seat out; it is 0, as 60 measured fewer match wins.  A rejoin is not weighed either: counting
  such a loss as the climb to the rejoin total won fewer three-seat matches (BENCHMARKS.md).
  Rules neither knows fall back to a search of playing on.

The search is anytime: it stops at the deadline or after ``max_worlds`` worlds.  With a fixed
number of worlds (``hard:worlds=N``, or :attr:`untimed` as tournaments set it) it never reads
the clock, so the same seed gives the same play whatever the machine's load.  Its worlds are
dealt from the view only: :func:`~rummykit.bots.tracking.sample_hidden` never sees the deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.bots.contract import Deadline, MatchContext
from rummykit.bots.drops import drop_models
from rummykit.bots.level import throw_kinds
from rummykit.bots.medium import MediumPlayer
from rummykit.bots.reading import HandReader, ThrowEval
from rummykit.bots.rollout import Playout
from rummykit.bots.tracking import Knowledge, PassTracker, World, is_wild, read_view, sample_hidden
from rummykit.bots.values import features, play_on_values
from rummykit.engine.cards import JOKER, pretty_card
from rummykit.engine.events import Action, ActionKind, Event, SeatStatus
from rummykit.engine.views import SeatView

__all__ = ["Candidate", "HardPlayer"]


def _card(k: int) -> str:
    """A card in a hint's words: 7♥, or JK for the printed joker."""
    return "JK" if k == JOKER else pretty_card(k)


@dataclass(slots=True)
class Candidate:
    """One throw in the search: its ranking, and the nets of its playouts."""

    card: int
    score: float  # medium's score plus the danger penalty (lower is better)
    danger: int  # seats that showed they want it (the next seat)
    eval: ThrowEval
    total: float = 0.0
    n: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0


def live_partners(know: Knowledge, k: int, wild: int | None, ace_high: bool) -> int:
    """Copies still unseen of the natural cards that would sit in a group with ``k`` (its rank in
    another suit, its suit one or two ranks away): how live the card is to keep."""
    if is_wild(k, wild):
        return 0
    suit, r = divmod(k, 13)
    n = 0
    for s in range(4):
        if s != suit:
            j = s * 13 + r
            if not is_wild(j, wild):
                n += know.unseen[j]
    for d in (-2, -1, 1, 2):
        rank = r + d  # 0-based: 0 the ace, 12 the king
        if ace_high and r == 0 and d < 0:
            rank = 13 + d  # Q-K-A
        elif ace_high and rank == 13:
            rank = 0  # K-A, Q-K-A
        if 0 <= rank < 13:
            j = suit * 13 + rank
            if not is_wild(j, wild):
                n += know.unseen[j]
    return n


def live_outs(reader: HandReader, hand13: Sequence[int], wild: int | None, know: Knowledge) -> int:
    """Unseen copies of the cards that would let ``hand13`` show at once (it is one exchange
    from a show): how many cards it is really waiting on, the dead ones not counted."""
    best = reader.arranger.best_throw
    hand = list(hand13)
    n = 0
    for k, copies in enumerate(know.unseen):
        if copies:
            hand.append(k)
            if best(hand, wild)[0]:
                n += copies
            hand.pop()
    return n


class HardPlayer(MediumPlayer):
    """Tracking, safe throws, expected-cost drops, and determinized playouts under a deadline."""

    name = "hard"
    budget_ms = 250.0
    max_worlds = 64  # worlds per decision: the search's size when the deadline is far
    min_worlds = 8  # with fewer worlds by the deadline, the search is too noisy: the ranking decides
    candidates = 6  # throws searched
    window = 40.0  # ... within this much of the best score
    danger_weight = 6.0  # score penalty for feeding the next seat ...
    danger_seats = 3  # ... at this many seats or more (heads up it measured a loss, see BENCHMARKS.md)
    prior_weight = 0.4  # points of mean net per point of score (the ranking's say in the search)
    drop_margin = 0.0  # drop when playing on is worse than the drop by this much
    # search the throws at this many seats or more: 9, never (no table seats nine).  Its greedy
    # play-outs measured a loss against the ranking with the look heads up and at four seats
    # too once the drops learned (-1.91 Nepali, -0.98 Indian, 600 decks: BENCHMARKS.md)
    search_seats = 9
    take_margin = 4.0  # medium's 2: heads up, taking the pile's card less often measured better
    out_penalty = 0.0  # a pool: what going out is worth beyond the points (60 measured a loss: BENCHMARKS.md)
    safety_ms = 5.0  # stop the search this long before the deadline
    search_draw = False  # search the pile against the stock (off: it measured weaker, see below)
    draw_bias = 1.0  # points of mean net in favour of medium's rule
    drop_search = True  # search the drop at every turn (off: medium's first-turn rule)
    drop_table = True  # drop by the learned play-on values where they know the rules
    drop_model = True  # ... and before them by the linear drop model where it knows the table
    outs_weight = 0.0  # one exchange from a show: score per unseen card that would finish it
    live_weight = 0.0  # score per live card that would sit in a group with the thrown card
    pool_aware = True  # weigh the match standing (a pool's limit, compel) in drops and searches
    search_worlds = 0  # > 0: exactly this many worlds a search, whatever the deadline says
    look_weight = 1.0  # the next draw: score per point of charge it is expected to take off
    # ... and per unit of chance that it makes a show: against 0, +0.36 to +0.50 at four seats
    # and +0.23 heads up (the tenth pass, BENCHMARKS.md)
    look_show = 15.0
    look_window = 10.0  # the look-ahead weighs the throws this close to the best
    look_draw = False  # draw by the look too (the expert's draw; off: medium's rule)
    look_draw_margin = 2.0  # ... the pile's hand must beat the held one by this much
    # A thrown card's own value counts only through the charge it takes off the hand: medium's
    # bonus for shedding a high card for its own sake measured a loss (against 0.3: +1.01
    # Nepali, +0.99 Indian at four seats; heads up about +0.3 over 3,000 decks each; the eighth
    # and ninth passes, BENCHMARKS.md)
    value_weight = 0.0
    tunables: tuple[str, ...] = (
        "worlds",
        "candidates",
        "window",
        "danger_weight",
        "prior_weight",
        "drop_margin",
        "search_draw",
        "draw_bias",
        "drop_search",
        "drop_table",
        "drop_model",
        "danger_seats",
        "search_seats",
        "pool_aware",
        "out_penalty",
        "live_weight",
        "outs_weight",
        "away_weight",
        "charge_early",
        "charge_late",
        "age_turns",
        "value_weight",
        "take_margin",
        "min_worlds",
        "look_weight",
        "look_show",
        "look_window",
        "look_draw",
        "look_draw_margin",
    )

    def __init__(self, seed: int | str, *, budget_ms: float | None = None) -> None:
        super().__init__(seed, budget_ms=budget_ms)
        self.passes = PassTracker()
        self.context: MatchContext | None = None
        self.cutoffs = 0  # searches the deadline cut short (those decisions may not replay exactly)
        self.last_reason = ""  # one line on the last decision, for hints
        self.last_values: dict[str, float] = {}
        self.worlds_searched = 0  # worlds played out in the last decision (all its searches)

    def observe(self, event: Event) -> None:
        self.passes.observe(event)

    def _more(self, worlds: int, deadline: Deadline) -> bool:
        """Whether a search that has played ``worlds`` worlds plays another: exactly
        :attr:`search_worlds` when that is set (the deadline is not read, so the answer does
        not depend on the machine's speed), else up to :attr:`max_worlds` by the deadline
        (untimed: :attr:`max_worlds` whatever the deadline)."""
        if self.search_worlds > 0:
            more = worlds < self.search_worlds
        elif worlds >= self.max_worlds:
            more = False
        elif self.untimed:
            more = True
        elif deadline.remaining_ms() < self.safety_ms:
            self.cutoffs += 1
            more = False
        else:
            more = True
        self.worlds_searched += more
        return more

    def _enough(self, worlds: int) -> bool:
        return worlds >= min(self.min_worlds, self.search_worlds or self.min_worlds)

    def choose(self, view: SeatView, deadline: Deadline | None = None) -> Action:
        """As every level chooses; also leaves a one-line reason in :attr:`last_reason`."""
        self.last_reason = ""
        self.worlds_searched = 0
        action = super().choose(view, deadline)
        if not self.last_reason:
            self.last_reason = self._reason(view, action)
        return action

    def _reason(self, view: SeatView, action: Action) -> str:
        """Why ``action``, in a player's words (the throw and the drop say it themselves)."""
        top = view.pile_top
        if action.kind is ActionKind.SHOW and action.card is not None:
            return f"show, throwing {_card(action.card)}: the other thirteen are all in groups"
        if action.kind is ActionKind.DRAW_PILE and top is not None:
            card = _card(top)
            hand, wild, reader = view.hand, view.wild, self.reader(view.rules)
            if is_wild(top, wild):
                return f"take {card}: a joker fills whatever gap the hand ends up with"
            finish, _throw, _after = reader.arranger.best_throw((*hand, top), wild)
            if any(k != top for k in finish):
                return f"take {card}: it completes the hand, and you can show"
            ranked = self.ranked_throws(view, reader, (*hand, top), [k for k in set(hand) if k != top])
            t = ranked[0][1]
            away = reader.away(hand, wild)
            if t.away < away:
                return f"take {card}: it brings the hand from {away} to {t.away} cards from a show"
            return f"take {card}: it lowers what the hand would pay to {t.charge}"
        if action.kind is ActionKind.DRAW_STOCK:
            if top is None or Action.draw_pile() not in view.legal:
                return "draw from the stock"
            return f"draw from the stock: the {_card(top)} on the pile does not help this hand"
        if action.kind is ActionKind.DROP:
            return f"drop for {view.drop_cost}: this hand is too far from a show to play on"
        return str(action)

    # ---- helpers ---------------------------------------------------------------------------

    def _look(self, view: SeatView, reader: HandReader, know: Knowledge, hand13: Sequence[int]) -> float:
        """The next draw's worth to ``hand13``, over the cards still unseen (each as often as its
        copies: the stock's distribution as this seat knows it): the charge it is expected to take
        off after the best throw, and the chance that it makes a show, as a score to subtract."""
        best = reader.arranger.best_throw
        wild = view.wild
        now = reader.charge(hand13, wild)
        hand = list(hand13)
        off = shows = weight = 0.0
        for k, n in enumerate(know.unseen):
            if not n:
                continue
            hand.append(k)
            finish, _card, after = best(hand, wild)
            hand.pop()
            weight += n
            if finish:
                shows += n
                off += n * now
            else:
                off += n * max(0, now - after)
        if not weight:
            return 0.0
        return self.look_weight * self._charge_weight(view) * off / weight + self.look_show * shows / weight

    def _world(self, view: SeatView, know: Knowledge) -> World:
        """One world for a search, dealt from the view only."""
        return sample_hidden(view, know, self.rng)

    def _next_seat(self, view: SeatView) -> int:
        n = view.players
        s = (view.seat + 1) % n
        while view.statuses[s] is not SeatStatus.IN and s != view.seat:
            s = (s + 1) % n
        return s

    def match_context(self, view: SeatView) -> MatchContext | None:
        """What the seat knows of the match around the deal: :attr:`context` when it was given,
        else the totals its view carries (a match session's deal)."""
        if not self.pool_aware:
            return None
        if self.context is not None:
            return self.context
        if not view.match_totals:
            return None
        rules = view.rules
        return MatchContext(view.match_totals, rules.pool_out if rules.format == "pool" else None)

    def _utility(self, view: SeatView, net: float, charge: float) -> float:
        """A deal's net as this seat values it: in a pool, going out costs ``out_penalty`` more."""
        ctx = self.match_context(view)
        if ctx is None or ctx.pool_out is None:
            return net
        if ctx.totals[view.seat] + charge >= ctx.pool_out:
            return net - self.out_penalty
        return net

    def _in_play(self, view: SeatView) -> list[bool]:
        return [st is SeatStatus.IN for st in view.statuses]

    def _charged(self, view: SeatView) -> list[int]:
        """What seats out of the deal were charged (a drop's cost; a wrong show's penalty)."""
        out = [0] * view.players
        rules = view.rules
        for s, st in enumerate(view.statuses):
            if st is SeatStatus.DROPPED:
                # a seat that dropped before taking any card paid the first drop
                first = not view.took[s] and not view.thrown[s]
                out[s] = (rules.drop_first if first else rules.drop_middle) or 0
            elif st is SeatStatus.OUT:
                out[s] = rules.wrong_show or 0
        return out

    # ---- drop ------------------------------------------------------------------------------

    def _drop(self, view: SeatView, reader: HandReader, deadline: Deadline) -> bool:
        cost = view.drop_cost
        if cost is None:
            return False
        hand, wild = view.hand, view.wild
        away = reader.away(hand, wild)
        charge = reader.charge(hand, wild)
        ctx = self.match_context(view)
        if ctx is not None and ctx.compelled(view.seat, view.rules.drop_first):
            self.last_reason = "play on: dropping now would put this seat out of the pool"
            return False
        if self.drop_model:
            model = self._drop_by_model(view, reader, cost, away)
            if model is not None:
                return model
        if self.drop_table:
            table = self._drop_by_table(view, reader, cost, away)
            if table is not None:
                return table
        if not self.drop_search:
            return super()._drop(view, reader, deadline)
        if away <= 2 or (away <= 3 and charge < reader.arranger.total(hand, wild)):
            return False  # near a show, or a pure run in hand: plainly worth playing
        value = self._search_play_on(view, reader, deadline)
        if value is None:
            return super()._drop(view, reader, deadline)
        return self._drop_if_worse(view, value, cost, away)

    def _drop_by_model(self, view: SeatView, reader: HandReader, cost: int, away: int) -> bool | None:
        """Drop by the linear model of :mod:`~rummykit.bots.drops` (``None``: it has no model for
        this table).  In a pool it stands aside when going out is weighed (``out_penalty``): the
        table knows the chances of each loss, the model only the mean."""
        if self.out_penalty and self.match_context(view) is not None:
            return None
        play = drop_models().value(view, reader)
        if play is None:
            return None
        return self._drop_if_worse(view, play, cost, away)

    def _drop_if_worse(self, view: SeatView, play: float, cost: int, away: int) -> bool:
        """Drop when ``play`` (the expected net of playing on, by whichever estimate) is worse
        than the drop, and say why."""
        drop_value = self._utility(view, -cost, cost)
        self.last_values = {"play": play, "drop": drop_value}
        if play < drop_value - self.drop_margin:
            self.last_reason = (
                f"drop for {cost}: the hand is {away} cards from a show and playing on is worth "
                f"about {play:+.0f} on average"
            )
            return True
        return False

    def _drop_by_table(self, view: SeatView, reader: HandReader, cost: int, away: int) -> bool | None:
        """Drop by the learned play-on values (:mod:`~rummykit.bots.values`), or ``None`` when the
        table never saw these rules.  In a pool, playing on also risks a charge that puts the
        seat out (the table's chance of losing that much), and dropping may do so for sure."""
        values = play_on_values()
        f = features(view, reader)
        play = values.value(f)
        if play is None:
            return None
        ctx = self.match_context(view)
        if ctx is not None and ctx.pool_out is not None:
            room = ctx.pool_out - ctx.totals[view.seat]
            play -= self.out_penalty * values.loss_chance(f, room)
        return self._drop_if_worse(view, play, cost, away)

    def _search_play_on(self, view: SeatView, reader: HandReader, deadline: Deadline) -> float | None:
        """The mean value of playing on from this draw (greedy play everywhere), or None when
        the deadline left no time for enough worlds."""
        know = read_view(view, self.passes)
        playout = Playout(reader.arranger, view.wild)
        in_play, charged = self._in_play(view), self._charged(view)
        turns_left = view.turn_limit - view.turn + 1
        total, n = 0.0, 0
        while self._more(n, deadline):
            world = self._world(view, know)
            rng = random.Random(self.rng.getrandbits(32))
            nets = playout.play(
                world.hands, world.stock, world.pile, in_play, charged, view.seat, rng, turns_left=turns_left
            )
            mine = nets[view.seat]
            total += self._utility(view, mine, max(0, -mine))
            n += 1
        return total / n if self._enough(n) else None

    # ---- draw ------------------------------------------------------------------------------

    def _draw(self, view: SeatView, reader: HandReader, deadline: Deadline) -> bool:
        """Medium's rule (with :attr:`look_draw`, :meth:`_draw_by_look`), then (when the pile
        card might help) a search of stock against pile."""
        take = super()._draw(view, reader, deadline)
        top = view.pile_top
        if not self.search_draw or top is None or is_wild(top, view.wild):
            return take
        hand, wild = view.hand, view.wild
        finish, _t, _c = reader.arranger.best_throw((*hand, top), wild)
        if any(k != top for k in finish):
            return True  # a show
        playout = Playout(reader.arranger, wild)
        if not playout.may_want(list(hand), top):
            return take
        ranked = self.ranked_throws(view, reader, (*hand, top), [k for k in set(hand) if k != top])
        if not ranked:
            return False
        throw = ranked[0][1]
        value = self._search_draw(view, reader, playout, top, throw, deadline)
        if value is None:
            return take
        pile_value, stock_value = value
        self.last_values = {"pile": pile_value, "stock": stock_value}
        bias = self.draw_bias if take else -self.draw_bias  # the rule's say
        return pile_value + bias > stock_value

    def _take(
        self, view: SeatView, reader: HandReader, now: float, ranked: list[tuple[float, ThrowEval]]
    ) -> bool:
        if self.look_draw:
            return self._draw_by_look(view, reader, now, ranked)
        return super()._take(view, reader, now, ranked)

    def _draw_by_look(
        self, view: SeatView, reader: HandReader, now: float, ranked: list[tuple[float, ThrowEval]]
    ) -> bool:
        """The pile's card when the hand it leaves (each throw in ``ranked`` within
        :attr:`look_window` of the best), with the next draw's worth (hard's look), scores better
        by :attr:`look_draw_margin` than the hand held (``now``) with the worth of the blind draw
        it would make instead."""
        top = view.pile_top
        assert top is not None  # medium's draw asks only with a card on the pile
        know = read_view(view, self.passes)
        first = ranked[0][0]
        kept = [*view.hand, top]
        pile = float("inf")
        for rank_score, t in ranked:
            if rank_score > first + self.look_window:
                break
            kept.remove(t.card)
            # as medium's rule: the hand's score, not the thrown card's own value
            after = self.score(view, t.away, t.charge)
            pile = min(pile, after - self._look(view, reader, know, kept))
            kept.append(t.card)
        stock = now - self._look(view, reader, know, view.hand)
        self.last_values = {"pile": -pile, "stock": -stock}
        return pile < stock - self.look_draw_margin

    def _search_draw(
        self,
        view: SeatView,
        reader: HandReader,
        playout: Playout,
        top: int,
        throw: ThrowEval,
        deadline: Deadline,
    ) -> tuple[float, float] | None:
        """Mean values of taking the pile card (then ``throw``) and of a blind draw (then the
        greedy throw), over the same sampled worlds; None with too few worlds by the deadline."""
        know = read_view(view, self.passes)
        in_play, charged = self._in_play(view), self._charged(view)
        me, nxt = view.seat, self._next_seat(view)
        turns_left = view.turn_limit - view.turn
        best = reader.arranger.best_throw
        pile_total = stock_total = 0.0
        worlds = 0
        while self._more(worlds, deadline):
            world = self._world(view, know)
            if not world.stock:
                break
            seed = self.rng.getrandbits(32)
            # the pile card, then the ranking's throw
            hands = [list(h) for h in world.hands]
            hands[me].remove(throw.card)
            hands[me].append(top)
            pile = [*world.pile[:-1], throw.card]
            charges = [-1] * view.players
            charges[me] = throw.charge
            nets = playout.play(
                hands,
                list(world.stock),
                pile,
                in_play,
                charged,
                nxt,
                random.Random(seed),
                charges=charges,
                turns_left=turns_left,
            )
            pile_total += self._utility(view, nets[me], max(0, -nets[me]))
            # a blind draw, then the greedy throw (or a show)
            hands = [list(h) for h in world.hands]
            stock = list(world.stock)
            mine = hands[me]
            mine.append(stock.pop())
            finish, card, after = best(mine, view.wild)
            if finish:
                nets = playout.show(hands, in_play, charged, me, mine, finish, None)
            else:
                mine.remove(card)
                charges = [-1] * view.players
                charges[me] = after
                nets = playout.play(
                    hands,
                    stock,
                    [*world.pile, card],
                    in_play,
                    charged,
                    nxt,
                    random.Random(seed),
                    charges=charges,
                    turns_left=turns_left,
                )
            stock_total += self._utility(view, nets[me], max(0, -nets[me]))
            worlds += 1
        if not self._enough(worlds):
            return None
        return pile_total / worlds, stock_total / worlds

    # ---- throw -----------------------------------------------------------------------------

    def _throw(self, view: SeatView, reader: HandReader, deadline: Deadline) -> int:
        allowed = throw_kinds(view)
        ranked = self.ranked_throws(view, reader, view.hand, allowed)
        know = read_view(view, self.passes)
        nxt = self._next_seat(view)
        ace_high = view.rules.ace_high
        cands = []
        for score, t in ranked:
            watch = nxt != view.seat and view.players >= self.danger_seats
            danger = know.danger([nxt], t.card, ace_high) if watch else 0
            live = (
                self.live_weight * live_partners(know, t.card, view.wild, ace_high)
                if self.live_weight
                else 0.0
            )
            cands.append(Candidate(t.card, score + self.danger_weight * danger + live, danger, t))
        if (self.look_weight or self.look_show) and view.players < self.search_seats:
            top = min(c.score for c in cands)
            hand = list(view.hand)
            for c in cands:
                if c.score <= top + self.look_window:
                    hand.remove(c.card)
                    c.score -= self._look(view, reader, know, hand)
                    hand.append(c.card)
        cands.sort(key=lambda c: (c.score, -c.eval.value, c.card))
        best = cands[0].score
        pool = [c for c in cands[: self.candidates] if c.score <= best + self.window]
        searched = len(pool) > 1 and view.players >= self.search_seats
        if searched and self._enough(self._search_throws(view, reader, know, pool, deadline)):
            pool.sort(key=lambda c: (-(c.mean - self.prior_weight * (c.score - best)), c.score, c.card))
        choice = pool[0]
        self.last_reason = self._throw_reason(view, reader, know, choice, nxt)
        return choice.card

    def _search_throws(
        self,
        view: SeatView,
        reader: HandReader,
        know: Knowledge,
        pool: Sequence[Candidate],
        deadline: Deadline,
    ) -> int:
        """Play every candidate out in the same sampled worlds until the deadline or
        ``max_worlds``; returns the number of worlds."""
        playout = Playout(reader.arranger, view.wild)
        in_play, charged = self._in_play(view), self._charged(view)
        nxt = self._next_seat(view)
        turns_left = view.turn_limit - view.turn
        me = view.seat
        for c in pool:
            c.total, c.n = 0.0, 0
        worlds = 0
        while self._more(worlds, deadline):
            world = self._world(view, know)
            seed = self.rng.getrandbits(32)
            for c in pool:
                hands = [list(h) for h in world.hands]
                hands[me].remove(c.card)
                pile = [*world.pile, c.card]
                charges = [-1] * view.players
                charges[me] = c.eval.charge
                nets = playout.play(
                    hands,
                    list(world.stock),
                    pile,
                    in_play,
                    charged,
                    nxt,
                    random.Random(seed),
                    charges=charges,
                    turns_left=turns_left,
                )
                mine = nets[me]
                c.total += self._utility(view, mine, max(0, -mine))
                c.n += 1
            worlds += 1
        return worlds

    def _throw_reason(
        self, view: SeatView, reader: HandReader, know: Knowledge, c: Candidate, nxt: int
    ) -> str:
        card = _card(c.card)
        wild = view.wild
        a = reader.arranger.arrange(view.hand, wild)
        loose = c.card in a.loose or c.card == a.throw
        what = "it is in no group" if loose else f"it leaves the hand {c.eval.away} from a show"
        if c.danger:
            return f"throw {card}: {what}, though seat {nxt + 1} has taken cards it would go with"
        others = [s for s in range(view.players) if s != view.seat]
        if not any(know.wanted_by(s, c.card, view.rules.ace_high) for s in others):
            safe = "no one has shown they want it"
        else:
            safe = f"seat {nxt + 1}, next to play, has not shown it wants it"
        return f"throw {card}: {what} and {safe}"
