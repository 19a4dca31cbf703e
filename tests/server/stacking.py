"""Test-only: table-family deals dealt from a stacked shoe, so that a story knows every hand.

:func:`install` replaces the deal maker the match session uses (``rummykit.engine.session.new_deal``)
with one that deals a *stacked* shoe for the deal seeds it is given and the seed's own shuffle for
every other.  Nothing of it is reachable through the server's API: the server tests patch their
own process with ``monkeypatch``, and the browser tests' server (``serve_for_tests.py``) takes the
stacks as a JSON file on its command line.  A stack names some hands by seat (card text), the
pile's first card (only where the rules turn one up at the deal: not at Remi 51) and the top of
the stock; the other hands get spread-out cards that make no meld with each other.

Stacked deals are not their seed's deals: their hand histories do not replay, so a story on one
must not end its deal (the server would then fail to store the history) and must not restart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import rummykit.engine.session as session_module
from rummykit.engine.cards import JOKER, parse_card, parse_cards
from rummykit.engine.deal import TURN_CAP, Deal, stacked_shoe
from rummykit.engine.rules import Rules
from rummykit.engine.table_deal import TableDeal

# Cards for the hands nobody named: no three of them make a run or a set.
_SPREAD = parse_cards("2s 5h 8d Jc 3h 6d 9c Qs 4d 7c 10s Kh 2c 6s 9h Qd 3c 7s 10h Kd 4s 8h Jd Ac 5c 9s")

Stack = Mapping[str, Any]  # {"hands": {seat: "cards"}, "pile": "card" (not at Remi 51), "stock": "cards"}


def shoe_order(rules: Rules, stack: Stack, dealer: int) -> list[int]:
    """The shoe (physical cards, top first) that deals ``stack`` at a table of ``rules``."""
    given = {int(s): parse_cards(text) for s, text in stack["hands"].items()}
    if ("pile" in stack) != rules.pile_at_deal:
        raise ValueError("a stack names the pile's card exactly where the rules turn one up at the deal")
    pile = parse_card(stack["pile"]) if rules.pile_at_deal else None
    stock = parse_cards(stack.get("stock", ""))
    left = Counter({k: rules.packs for k in range(52)})
    left[JOKER] = rules.printed_jokers
    left.subtract(k for h in given.values() for k in h)
    if pile is not None:
        left[pile] -= 1
    left.subtract(stock)
    assert all(v >= 0 for v in left.values()), "the stack asks for more copies than the shoe holds"
    first = (dealer + 1) % rules.players
    hands = []
    for s in range(rules.players):
        if s in given:
            hands.append(given[s])
            continue
        size = rules.first_hand_size if s == first else rules.hand_size
        hand: list[int] = []
        for k in _SPREAD * 2:
            if len(hand) == size:
                break
            if left[k] > 0 and k not in hand:
                left[k] -= 1
                hand.append(k)
        hands.append(hand)
    return stacked_shoe(rules, hands, pile, None, stock, dealer=dealer)


def stacked_new_deal(stacks: Mapping[str, Stack], original: Callable[..., Deal]) -> Callable[..., Deal]:
    """A ``new_deal`` that deals ``stacks[seed]`` for the deal seeds named there."""

    def new_deal(
        rules: Rules, seed: Any = 0, *, dealer: int = 0, turn_cap: int = TURN_CAP, arranger: Any = None
    ) -> Deal:
        stack = stacks.get(str(seed))
        if stack is None or not rules.is_table:
            return original(rules, seed, dealer=dealer, turn_cap=turn_cap, arranger=arranger)
        order = shoe_order(rules, stack, dealer)
        return TableDeal.from_shoe(rules, order, dealer=dealer, seed=seed, turn_cap=turn_cap)

    return new_deal


def install(stacks: Mapping[str, Stack], setattr_: Callable[[Any, str, Any], None] | None = None) -> None:
    """Deal ``stacks`` (keyed by *match* seed: its first deal is stacked) from now on.
    ``setattr_`` is pytest's ``monkeypatch.setattr`` (undone after the test), or plain setattr."""
    by_deal_seed = {f"{seed}/0": stack for seed, stack in stacks.items()}
    patched = stacked_new_deal(by_deal_seed, session_module.new_deal)
    (setattr_ or setattr)(session_module, "new_deal", patched)
