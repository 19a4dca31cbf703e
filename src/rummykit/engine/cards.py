"""Cards, their text form, packs and shoes.

A card *kind* is a small int: ``suit * 13 + (rank - 1)`` for the 52 natural
kinds (suits in the order s h d c, ranks A=1 … K=13) and :data:`JOKER` (52)
for a printed joker.  Two packs hold two cards of each kind; a *physical*
card in a shoe is ``copy * 53 + kind`` so that the two 8♥ stay two cards.
Text is parsed and formatted only at the edges; the hot paths use ints.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

SUITS: Final = "shdc"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANK_TEXT: Final = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES: Final = (
    "",
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)
RANK_PLURALS: Final = (
    "",
    "aces",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
)
ACE: Final = 1
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
JOKER: Final = 52
KINDS: Final = 53
JOKER_TEXT: Final = "JK"


class CardError(ValueError):
    """Card text that names no card, or a hand that cannot exist."""


def kind(suit: int, rank: int) -> int:
    """The kind of the natural card of ``suit`` (0–3) and ``rank`` (1–13)."""
    return suit * 13 + rank - 1


def suit_of(k: int) -> int:
    """Suit index 0–3 of a natural kind (meaningless for the joker)."""
    return k // 13


def rank_of(k: int) -> int:
    """Rank 1–13 of a natural kind, 0 for the printed joker."""
    return 0 if k == JOKER else k % 13 + 1


def kind_of(card: int) -> int:
    """The kind of a physical card."""
    return card % KINDS


_RANK_IN: Final = {
    "A": 1,
    "1": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "10": 10,
    "T": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
}
_SUIT_IN: Final = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}
_JOKER_IN: Final = frozenset({"JK", "JOKER", "🃏"})

# Every accepted spelling, built once, so that parsing a hand is one dict
# lookup a card (PokerKit's slow spot was normalising card text in the hot path).
_PARSE: Final[dict[str, int]] = {}
for _r_text, _r in _RANK_IN.items():
    if _r_text == "1":
        continue  # "1h" is not RULES.md notation; refuse it rather than guess
    for _s_text, _s in _SUIT_IN.items():
        _PARSE[_r_text + _s_text] = kind(_s, _r)
for _j in _JOKER_IN:
    _PARSE[_j] = JOKER

_SPLIT: Final = re.compile(r"[\s,]+")


def parse_card(text: str) -> int:
    """Parse one card (``10h``, ``Th``, ``qs``, ``A♠``, ``JK``) to its kind.

    >>> parse_card("10h"), parse_card("JK")
    (22, 52)
    """
    k = _PARSE.get(text.strip().upper())
    if k is None:
        raise CardError(f"unknown card {text.strip()!r}: write rank then suit, like 10h, Qs, A♠, or JK")
    return k


def parse_cards(text: str) -> list[int]:
    """Parse cards separated by spaces or commas to a list of kinds.

    >>> format_cards(parse_cards("4h, 5h 6♥ jk"))
    '4h 5h 6h JK'
    """
    words = [w for w in _SPLIT.split(text.strip()) if w]
    table = _PARSE
    out = []
    for w in words:
        k = table.get(w.upper())
        if k is None:
            raise CardError(f"unknown card {w!r}: write rank then suit, like 10h, Qs, A♠, or JK")
        out.append(k)
    return out


_FORMAT: Final = (*tuple(RANK_TEXT[k % 13 + 1] + SUITS[k // 13] for k in range(52)), JOKER_TEXT)
_PRETTY: Final = (*tuple(RANK_TEXT[k % 13 + 1] + SUIT_SYMBOLS[k // 13] for k in range(52)), "🃏")


def format_card(k: int) -> str:
    """Canonical text of a kind (or of a physical card)."""
    return _FORMAT[k % KINDS]


def pretty_card(k: int) -> str:
    """Text with suit symbols, for people: ``10♥``."""
    return _PRETTY[k % KINDS]


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(_FORMAT[c % KINDS] for c in cards)


def card_name(k: int) -> str:
    """Words for a screen reader: ``ten of hearts``, ``joker``."""
    k %= KINDS
    if k == JOKER:
        return "joker"
    return f"{RANK_NAMES[k % 13 + 1]} of {SUIT_NAMES[k // 13]}"


def shoe(packs: int, printed_jokers: int) -> list[int]:
    """The physical cards of a shoe, in a fixed order (shuffle it with a seeded RNG)."""
    cards = [copy * KINDS + k for copy in range(packs) for k in range(52)]
    cards += [copy * KINDS + JOKER for copy in range(printed_jokers)]
    return cards


def check_copies(kinds: Sequence[int], packs: int, printed_jokers: int) -> None:
    """Refuse a hand that holds a card more often than the shoe does."""
    counts = [0] * KINDS
    for k in kinds:
        counts[k] += 1
    for k, n in enumerate(counts):
        limit = printed_jokers if k == JOKER else packs
        if n > limit:
            held = "printed jokers" if k == JOKER else format_card(k)
            raise CardError(
                f"{n} × {held} in one hand, but the shoe holds {limit} "
                f"({packs} packs, {printed_jokers} printed jokers)"
            )


def sort_key(k: int) -> tuple[int, int]:
    """Order for showing a hand: by suit, then rank, jokers last."""
    return (4, 0) if k % KINDS == JOKER else (k % KINDS // 13, k % 13)
