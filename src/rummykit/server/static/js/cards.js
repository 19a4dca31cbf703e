// Cards as the protocol writes them ("10h", "Qs", "As", "JK") and as people read them.
// Faces are drawn with text and CSS only: rank and suit symbol always shown (colour is never the
// only cue), red for hearts and diamonds, black for spades and clubs.

export const SUITS = {
  s: { symbol: "♠", name: "spades", color: "black" },
  h: { symbol: "♥", name: "hearts", color: "red" },
  d: { symbol: "♦", name: "diamonds", color: "red" },
  c: { symbol: "♣", name: "clubs", color: "black" },
};

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
const RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

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
  return "shdc".indexOf(c.suit) * 13 + RANK_ORDER.indexOf(c.rank);
}

/** The card's face as elements, to put inside a button or a plain span.
 *  opts.wild: the deal's wild rank (a star marks wild cards). */
export function fillFace(el, text, opts = {}) {
  const c = parseCard(text);
  el.classList.add("card");
  el.dataset.card = text;
  el.classList.toggle("red", !c.joker && SUITS[c.suit]?.color === "red");
  el.classList.toggle("black", !c.joker && SUITS[c.suit]?.color === "black");
  el.classList.toggle("joker", c.joker);
  const wild = isWild(text, opts.wild);
  el.classList.toggle("wild", wild);
  el.textContent = "";
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  if (c.joker) {
    corner.innerHTML = '<span class="suit">★</span>';
    pip.textContent = "★";
  } else {
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = c.rank;
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = SUITS[c.suit]?.symbol ?? c.suit;
    corner.append(rank, suit);
    pip.textContent = SUITS[c.suit]?.symbol ?? c.suit;
  }
  el.append(corner, pip);
  if (c.joker) {
    const word = document.createElement("span");
    word.className = "joker-word";
    word.setAttribute("aria-hidden", "true");
    word.textContent = "JOKER";
    el.append(word);
  }
  if (wild && !c.joker) {
    const star = document.createElement("span");
    star.className = "wild-mark";
    star.setAttribute("aria-hidden", "true");
    star.title = "wild";
    star.textContent = "★";
    el.append(star);
  }
  return el;
}

/** A small static card (a span with role img and the card's name). */
export function miniCard(text, opts = {}) {
  const el = document.createElement("span");
  fillFace(el, text, opts);
  el.classList.add(opts.size ?? "mini");
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(text) + (isWild(text, opts.wild) && text !== "JK" ? ", wild" : ""));
  return el;
}

/** A face-down card. */
export function cardBack(size = "mini") {
  const el = document.createElement("span");
  el.className = `card back ${size}`;
  el.setAttribute("aria-hidden", "true");
  return el;
}

/** A row of small cards with a label for screen readers ("Took: seven of diamonds"). */
export function miniRow(cards, opts = {}) {
  const row = document.createElement("span");
  row.className = "mini-row";
  if (opts.label) {
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", `${opts.label}: ${cards.map(cardName).join(", ") || "none"}`);
  }
  for (const c of cards) {
    const m = miniCard(c, opts);
    if (opts.label) m.setAttribute("aria-hidden", "true");
    row.append(m);
  }
  return row;
}
