// Cards as the protocol writes them ("10h", "Qs", "As", "JK") and as people read them: names,
// short text, values and sort keys.  No DOM: the node tests import this (tests/js/).

export const SUITS = {
  s: { symbol: "♠", name: "spades", color: "black" },
  h: { symbol: "♥", name: "hearts", color: "red" },
  d: { symbol: "♦", name: "diamonds", color: "red" },
  c: { symbol: "♣", name: "clubs", color: "black" },
};
export const SUIT_ORDER = "shdc"; // the engine's order
export const RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

const RANK_NAMES = {
  A: "ace",
  2: "two",
  3: "three",
  4: "four",
  5: "five",
  6: "six",
  7: "seven",
  8: "eight",
  9: "nine",
  10: "ten",
  J: "jack",
  Q: "queen",
  K: "king",
};
const RANK_PLURALS = {
  A: "aces",
  2: "twos",
  3: "threes",
  4: "fours",
  5: "fives",
  6: "sixes",
  7: "sevens",
  8: "eights",
  9: "nines",
  10: "tens",
  J: "jacks",
  Q: "queens",
  K: "kings",
};

/** {text, rank, suit, joker} of card text in the canonical notation. */
export function parseCard(text) {
  if (text === "JK") return { text, rank: null, suit: null, joker: true };
  return { text, rank: text.slice(0, -1), suit: text.slice(-1), joker: false };
}

/** "ten of hearts", "printed joker". */
export function cardName(text) {
  if (!text) return "";
  const c = parseCard(text);
  if (c.joker) return "printed joker";
  return `${RANK_NAMES[c.rank] ?? c.rank} of ${SUITS[c.suit]?.name ?? c.suit}`;
}

/** "the ten of hearts", "a printed joker": for sentences. */
export function theCard(text) {
  return text === "JK" ? "a printed joker" : `the ${cardName(text)}`;
}

/** "10♥", "Joker": short text with the suit symbol. */
export function cardShort(text) {
  if (!text) return "";
  const c = parseCard(text);
  if (c.joker) return "Joker";
  return `${c.rank}${SUITS[c.suit]?.symbol ?? c.suit}`;
}

export function rankPlural(rank) {
  return RANK_PLURALS[rank] ?? rank;
}

export function isWild(text, wild) {
  const c = parseCard(text);
  return c.joker || (wild != null && c.rank === wild);
}

/** A sort key: suits in the engine's order, then rank; jokers last. */
export function cardSortKey(text) {
  const c = parseCard(text);
  if (c.joker) return 99;
  return SUIT_ORDER.indexOf(c.suit) * 13 + RANK_ORDER.indexOf(c.rank);
}

/** A sort key by rank first (aces low), then suit; jokers last. */
export function rankSortKey(text) {
  const c = parseCard(text);
  if (c.joker) return 99;
  return RANK_ORDER.indexOf(c.rank) * 4 + SUIT_ORDER.indexOf(c.suit);
}

const VALUE = { A: 10, J: 10, Q: 10, K: 10 };

/** What a loose card is charged at the show family (wild cards nothing, picture cards and aces 10). */
export function cardValue(card, wildRank) {
  if (isWild(card, wildRank)) return 0;
  const rank = card.slice(0, -1);
  return VALUE[rank] ?? Number(rank);
}
