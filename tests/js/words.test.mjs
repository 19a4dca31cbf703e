// The table's words (static/js/table/words.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  clockText,
  eventLine,
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

test("events are the server's words: its line, cards short for the log, named when spoken", () => {
  const threw = { kind: "threw", seat: 1, card: "9s", text: "Bina throws 9s", line: ["Bina throws ", { card: "9s" }] };
  assert.equal(eventLine(threw), "Bina throws 9♠");
  assert.equal(eventLine(threw, true), "Bina throws the nine of spades");
  const drew = { kind: "drew_stock", seat: 0, line: ["You draw ", { card: "JK" }, " from the stock"] };
  assert.equal(eventLine(drew), "You draw Joker from the stock");
  assert.equal(eventLine(drew, true), "You draw a printed joker from the stock");
  // a server that sends no line (protocol 1): its text
  assert.equal(eventLine({ kind: "threw", seat: 1, text: "Bina threw 9s" }), "Bina threw 9s");
});

test("the live region speaks the others' moves, and the deal's start and end", () => {
  assert.ok(spoken({ kind: "threw", seat: 1 }, 0));
  assert.ok(!spoken({ kind: "threw", seat: 0 }, 0));
  assert.ok(spoken({ kind: "deal_ended", seat: null }, 0));
  assert.ok(!spoken({ kind: "ready", seat: 1 }, 0));
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
