// The table's words (static/js/table/words.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  clockText,
  describe,
  endingWords,
  groupedWords,
  meterWords,
  pileWords,
  possessive,
  promptText,
  seatName,
  spoken,
} from "../../src/rummykit/server/static/js/table/words.js";
import { emptyLayout, groupShow, reconcile } from "../../src/rummykit/server/static/js/table/hand.js";

const seats = [{ name: "Asha" }, { name: "Bina" }, { name: "Chandra" }];
const me = { me: 0, seats };
const watcher = { me: null, seats };

test("my own seat is You, the others by name", () => {
  assert.equal(seatName(me, 0), "You");
  assert.equal(seatName(me, 1), "Bina");
  assert.equal(seatName(watcher, 0), "Asha");
  assert.equal(seatName(me, null), "The table");
});

test("possessives: Your seat, not You's seat (defect)", () => {
  assert.equal(possessive("You"), "Your");
  assert.equal(possessive("Bina"), "Bina's");
});

test("events for the log, and spoken with the cards in words", () => {
  assert.equal(describe({ kind: "threw", seat: 1, card: "9s" }, me), "Bina threw 9♠");
  assert.equal(describe({ kind: "threw", seat: 1, card: "9s" }, me, true), "Bina threw the nine of spades");
  assert.equal(describe({ kind: "drew_stock", seat: 0, card: "Kc" }, me), "You drew K♣ from the stock");
  assert.equal(describe({ kind: "drew_stock", seat: 1, card: null }, me), "Bina drew from the stock");
  assert.equal(describe({ kind: "ready", seat: 0 }, me), "You are ready for the next deal");
  assert.equal(describe({ kind: "ready", seat: 2 }, me), "Chandra is ready for the next deal");
  assert.equal(
    describe({ kind: "dealt", deal: 2, dealer: 2, first: 0, cut: "7d", wild: "7" }, me),
    "Deal 2: Chandra dealt. Cut: 7♦. Sevens are wild. You play first.",
  );
  assert.equal(
    describe({ kind: "laid_off", seat: 0, cards: ["4h"], meld_id: 2 }, me),
    "You laid 4♥ off onto meld 2",
  );
  assert.equal(describe({ kind: "put_back", seat: 1, card: "Qs" }, me), "Bina put Q♠ back on the pile");
  assert.equal(describe({ kind: "someday", seat: 1, text: "Bina did it" }, me), "Bina did it");
});

test("the live region speaks the others' moves, and the deal's start and end", () => {
  assert.ok(spoken({ kind: "threw", seat: 1 }, 0));
  assert.ok(!spoken({ kind: "threw", seat: 0 }, 0));
  assert.ok(spoken({ kind: "deal_ended", seat: null }, 0));
  assert.ok(!spoken({ kind: "ready", seat: 1 }, 0));
});

test("deal endings in a sentence", () => {
  assert.equal(endingWords({ winner: 1, ending: "show", finish_card: "9d" }, me), "Bina showed, finishing with 9♦");
  assert.equal(endingWords({ winner: 0, ending: "last in" }, me), "You were the last seat in: everybody else dropped");
  assert.equal(
    endingWords({ winner: 1, ending: "out", finish_card: null, note: "Hand Rummy", doubled: true }, me),
    "Bina went out by laying down the last card (Hand Rummy: the others count double)",
  );
});

const view = (deal, extra = {}) => ({
  match: { phase: "playing", hints: false },
  rules: { family: "show" },
  seats: seats.map((s, i) => ({ ...s, seat: i, in_deal: true, status: "in", thrown: [] })),
  deal: { number: 1, phase: "draw", to_play: 0, pile: [], pile_top: null, pile_take: null, ...deal },
  hand: { cards: ["Ah"] },
  legal: { draw_stock: true, draw_pile: false, pile_refusal: "the pile is empty", throw: [], show: [] },
  ...extra,
});

test("an empty pile is an empty place, said so (Remi 51 before the first throw)", () => {
  const w = pileWords(view({}), 0, undefined);
  assert.equal(w.label, "Pile · empty");
  assert.equal(w.aria, "The pile is empty");
  assert.ok(!/undefined|null/.test(w.aria + w.label));
});

test("the pile says who threw its top card", () => {
  const v = view({ pile: ["3c", "9s"], pile_top: "9s", to_play: 2 });
  assert.equal(pileWords(v, 0, 1).label, "Thrown by Bina");
  assert.equal(pileWords(v, 0, 0).label, "Thrown by you");
  assert.match(pileWords(v, 0, 1).aria, /9|nine/);
  assert.match(pileWords(v, 0, 1).aria, /thrown by Bina$/);
  assert.equal(pileWords(v, 0, null).label, "Pile · 2");
});

test("a full Opening meter without an Open button says why (defect: only a tooltip)", () => {
  const full = { points: 55, threshold: 51, ready: true, can_open: false, why: "no opening in the first round", melds: [] };
  assert.equal(meterWords(full).why, "no opening in the first round");
  assert.equal(meterWords({ ...full, why: null }).why, "you cannot open now");
  assert.equal(meterWords({ ...full, can_open: true }).why, null);
  assert.equal(meterWords(full).text, "55 / 51");
});

test("the prompt: my turn, and the other seat to play", () => {
  assert.deepEqual(promptText(view({}), 0), ["Your turn: take a card", " from the stock or the pile"]);
  assert.equal(promptText(view({ to_play: 1 }, { legal: null }), 0), "Bina is to play");
  assert.equal(promptText(view({}), null), "");
});

test("the clock in seconds, then minutes", () => {
  assert.equal(clockText(29), "29 s");
  assert.equal(clockText(90), "1:30");
  assert.equal(clockText(null), "");
});

test("what Group did, in a line", () => {
  const hand = {
    groups: [{ cards: ["4h", "5h", "6h"], kind: "run", pure: true }],
    loose: ["9s", "Kd"],
    aside: null,
  };
  const l = groupShow(reconcile(emptyLayout(), ["4h", "5h", "6h", "9s", "Kd"], 1), hand);
  assert.equal(groupedWords(l), "Grouped: 1 run, 0 sets, 2 loose cards.");
});
