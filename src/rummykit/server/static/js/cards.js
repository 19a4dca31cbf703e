// The cards' faces, drawn with text and CSS only: rank and suit symbol always shown (colour is
// never the only cue), red for hearts and diamonds, black for spades and clubs.  The words and
// keys of cards are in cardtext.js (no DOM), re-exported here for the pages.
import { cardName, isWild, parseCard, SUITS } from "./cardtext.js";

export * from "./cardtext.js";

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
