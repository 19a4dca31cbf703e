// The table's words: the prompt, the pile's, the meter's and the cut card's labels.  Events are
// told in the server's words (each event's ``line``, engine/words.py), only laid out here for the
// log and the live region.  No DOM: the node tests import this (tests/js/words.test.mjs).
//
// ``ctx`` is {me, seats}: my match seat (null: a spectator) and the view's seats, for names.

import { cardName, cardShort, rankPlural, theCard } from "../cardtext.js";
import { plural, possessive } from "../grammar.js";
import { myTurn, tableGame } from "./view.js";

export { plural, possessive };

/** A seat's name as this page says it: "You" for my own seat. */
export function seatName(ctx, s) {
  if (s == null) return "The table";
  if (s === ctx.me) return "You";
  return nameOf(ctx, s);
}

/** A seat's own name, even for me ("Asha"). */
export function nameOf(ctx, s) {
  return ctx.seats?.[s]?.name ?? `Seat ${s + 1}`;
}

/** A seat's name as the object of a sentence: "you", "Bina". */
export function objectName(ctx, s) {
  const name = seatName(ctx, s);
  return name === "You" ? "you" : name;
}

/** An event's words, from the server (docs/protocol.md, EVENT ``line``: the event as this viewer
 *  reads it, text and cards): cards as short text for the log, or named in words for the live
 *  region (``spoken``).  A server that sends no ``line`` has its ``text``. */
export function eventLine(e, spoken = false) {
  if (!Array.isArray(e.line)) return e.text ?? e.kind;
  return lineText(e.line, spoken);
}

/** A sentence of parts (text, and {card} where a card is named) as one line. */
export function lineText(parts, spoken = false) {
  return parts
    .map((p) => (typeof p === "string" ? p : p?.card ? (spoken ? theCard(p.card) : cardShort(p.card)) : ""))
    .join("");
}

/** The events the live region speaks (the others only go in the log). */
export const ANNOUNCED = new Set([
  "opened",
  "laid_down",
  "laid_off",
  "swapped",
  "put_back",
  "took_pile",
  "threw",
  "dropped",
  "showed",
  "wrong_show",
  "deal_ended",
  "match_over",
  "dealt",
  "rejoined",
  "rematch",
]);

/** Speak ``e``?  Not my own moves (I made them), but the deal's start and end always. */
export function spoken(e, me) {
  return ANNOUNCED.has(e.kind) && (e.seat !== me || ["deal_ended", "match_over", "dealt"].includes(e.kind));
}

/** The line beside my name: what the table wants of me.  A string, or [short, more] where the
 *  second part is dropped on a phone. */
export function promptText(v, me) {
  if (me == null) return "";
  const phase = v.match.phase;
  if (phase === "waiting") return "Waiting for the table to start";
  if (phase === "between") return "Between deals";
  if (phase === "over") return "The match is over";
  if (!v.deal) return "";
  const mine = v.seats[me];
  if (!mine.in_deal) return "You sit this deal out";
  if (mine.status === "dropped") return "You dropped out of this deal";
  if (mine.status === "out") return "You are out of this deal";
  if (myTurn(v, me) && tableGame(v)) {
    if (v.deal.phase === "draw") return ["Your turn: take a card", " from the stock or the pile"];
    if (v.deal.pile_due) return [`Use ${cardShort(v.deal.pile_due)} in a meld`, " before you throw (or put it back)"];
    if (v.deal.owed_jokers) return ["Lay the freed joker down", " this turn"];
    return v.hand?.opened
      ? ["Your turn: meld, lay off, then throw", " (select cards, tap a meld)"]
      : ["Your turn: open or throw", " (drag a card onto the pile)"];
  }
  if (myTurn(v, me)) {
    if (v.deal.phase === "draw") return ["Your turn: take a card", " from the stock or the pile"];
    return v.legal.show.length
      ? ["Your turn: you can show!", ""]
      : ["Your turn: throw a card", " (tap it twice, or drag it onto the pile)"];
  }
  return `${nameOf({ seats: v.seats }, v.deal.to_play)} is to play`;
}

/** The pile's label under it and its accessible name.  ``by``: the seat that threw the top card
 *  (null: turned up at the deal, or not known; undefined: the pile is empty). */
export function pileWords(v, me, by) {
  const d = v.deal;
  const ctx = { me, seats: v.seats };
  const top = d.pile_top;
  const draw = myTurn(v, me) && d.phase === "draw";
  const throwing = myTurn(v, me) && d.phase === "throw";
  let label;
  if (d.pile_take && d.to_play != null) label = `${seatName(ctx, d.to_play)} took ${cardShort(d.pile_take)}`;
  else if (!top) label = "Pile · empty";
  else if (by != null) label = `Thrown by ${objectName(ctx, by)}`;
  else label = `Pile · ${d.pile.length}`;
  let aria;
  if (!top) {
    aria = throwing ? "The pile is empty. Throw the marked card here" : "The pile is empty";
  } else if (draw) {
    aria = v.legal.draw_pile
      ? `Take ${theCard(top)} from the pile`
      : `The pile (${cardName(top)}): ${v.legal.pile_refusal ?? "cannot be taken"}`;
  } else if (throwing) {
    aria = `The pile: ${cardName(top)} on top. Throw the marked card here`;
  } else {
    aria = `The pile: ${cardName(top)} on top`;
  }
  if (top && by != null) aria += `, thrown by ${objectName(ctx, by)}`;
  return { label, aria };
}

/** The Opening meter in words: the numbers, and why there is no Open button when there is none. */
export function meterWords(meter) {
  const { points, threshold } = meter;
  const text = `${points} / ${threshold}`;
  const why = meter.can_open ? null : (meter.why ?? (meter.ready ? "you cannot open now" : null));
  const aria = `Opening meter: your best opening makes ${points} of the ${threshold} points${why ? `; ${why}` : ""}`;
  return { text, why, aria, full: points >= threshold || meter.ready };
}

/** The turn clock's text: "29 s", "1:30". */
export function clockText(seconds) {
  if (seconds == null) return "";
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return `${m}:${s}`;
}

/** The strip above my buttons, as parts: [{text, tag}] (tag: "strong", "needs", "charge"...). */
export function stripParts(v) {
  const hand = v.hand;
  const legal = v.legal;
  if (tableGame(v)) {
    const parts = [{ tag: "count", text: `Your hand counts ${hand.count}` }];
    const left = hand.leftover;
    if (left) {
      const moves = left.melds.length + left.layoffs.length;
      parts.push({
        tag: "charge",
        text: moves ? ` · down to ${left.cost} if you put down what fits` : " · nothing more fits the table",
      });
    }
    return { ready: false, parts };
  }
  if (legal?.show?.length) {
    const cards = legal.show.map(cardShort).join(" or ");
    return {
      ready: true,
      parts: [{ tag: "strong", text: "A show! " }, { text: `Throw ${cards} and lay the thirteen down: press Show.` }],
    };
  }
  if (hand.can_show) {
    return {
      ready: true,
      parts: [
        { tag: "strong", text: "Your thirteen cards are a show. " },
        { text: "Take a card, then show with the card you do not need." },
      ],
    };
  }
  return {
    ready: false,
    parts: [
      { tag: "needs-label", text: "A show still needs: " },
      { tag: "needs", text: hand.needs.join(" · ") },
      { tag: "charge", text: ` · now you would pay ${hand.charge}` },
    ],
  };
}

/** The words of the cut card's place: its label and accessible name. */
export function cutWords(d) {
  if (d.cut) {
    return {
      label: d.wild ? `Cut · ${rankPlural(d.wild)} wild` : "Cut",
      aria: `The cut card: ${cardName(d.cut)}${d.wild ? `; ${rankPlural(d.wild)} are wild` : ""}`,
    };
  }
  return {
    label: d.wild ? `${rankPlural(d.wild)} wild` : "No cut · jokers wild",
    aria: d.wild ? `No cut card; ${rankPlural(d.wild)} are wild` : "No cut card: only printed jokers are wild",
  };
}

/** The hand's help line, for the family at the table. */
export function handHelp(table) {
  return table
    ? "Tap cards to select them. Tap a meld on the table to lay them off, or tap a joker there to swap your card in; drag a card onto a meld or onto the pile. Lay down makes a new meld of the selected cards."
    : "Tap a card to mark it, tap it again to throw it, or drag it onto the pile. Drag cards along the hand to arrange them. Keys: ← → between cards, Shift + ← → moves a card, Enter marks and throws.";
}

/** What Group said it did, for the status line (``layout``: the hand as Group laid it out). */
export function groupedWords(layout, table = false) {
  const kinds = layout.order.map((e) => layout.segs[e.seg]?.kind ?? "loose");
  const segs = (k) => layout.segs.filter((s) => s.kind === k).length;
  const loose = kinds.filter((k) => k === "loose" || k === "aside").length;
  if (table) {
    const melds = segs("run") + segs("set");
    const offs = kinds.filter((k) => k === "layoff").length;
    const bits = [plural(melds, "meld")];
    if (offs) bits.push(`${plural(offs, "card")} to lay off`);
    bits.push(`${loose} left in hand`);
    return `Grouped, melds first: ${bits.join(", ")}.`;
  }
  return `Grouped: ${plural(segs("run"), "run")}, ${plural(segs("set"), "set")}, ${plural(loose, "loose card")}.`;
}
