"""Write arrange_counts.jsonl: fixed hands with their charge and show, answered by
the brute force (tests/brute_arranger.py), never by the arranger under test.

Run from the project root: .venv/bin/python tests/data/make_counts.py
The file is checked in; test_arrange_counts.py replays it like a perft file."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))

from brute_arranger import brute_arrange
from rummykit.engine.cards import RANK_TEXT, format_cards, shoe
from rummykit.engine.rules import get_preset

TABLES: list[tuple[str, dict[str, object]]] = [
    ("nepali", {}),
    ("indian", {}),
    ("kerala", {}),
    ("kerala", {"players": 8}),
    ("pool201", {}),
    ("deals", {}),
    ("maharashtra", {}),
    ("north-indian", {}),
    ("nepali", {"ace_high": False}),
    ("nepali", {"runs_needed": 1}),
    ("indian", {"adjacent_jokers": False, "max_jokers_in_set": 1}),
    ("indian", {"wrap": True}),
]


def _melds(rng: random.Random, cards: list[int]) -> list[int]:
    pool = list(cards)
    hand: list[int] = []
    while len(hand) < 13:
        if rng.random() < 0.6:
            suit, start = rng.randrange(4), rng.randint(1, 11)
            meld = [suit * 13 + (r - 1) % 13 for r in range(start, start + rng.randint(3, 4))]
        else:
            rank = rng.randrange(13)
            meld = [s * 13 + rank for s in rng.sample(range(4), 3)]
        for k in meld:
            if len(hand) < 13 and k in pool:
                pool.remove(k)
                hand.append(k)
    i = rng.randrange(13)
    hand[i] = pool.pop(rng.randrange(len(pool)))
    return hand


def main() -> None:
    rng = random.Random(20261129)
    out = []
    for preset, changes in TABLES:
        rules = get_preset(preset, **changes)
        cards = [c % 53 for c in shoe(rules.packs, rules.printed_jokers)]
        for i in range(40):
            rng.shuffle(cards)
            hand = cards[:13]
            if i % 3 == 1:  # dealt from two suits, so groups abound
                suits = rng.sample(range(4), 2)
                near = [k for k in cards if k == 52 or k // 13 in suits]
                hand = near[:13]
            elif i % 3 == 2:  # built from real melds, then one card swapped
                hand = _melds(rng, cards)
            wild = rng.randint(1, 13) if rules.cut_joker else None
            res = brute_arrange(hand, rules, wild)
            out.append(
                {
                    "rules": preset,
                    "set": changes,
                    "hand": format_cards(hand),
                    "wild": RANK_TEXT[wild] if wild else None,
                    "charge": res.charge,
                    "can_show": res.can_show,
                }
            )
    path = Path(__file__).parent / "arrange_counts.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in out))
    print(f"{len(out)} hands written to {path}")


if __name__ == "__main__":
    main()
