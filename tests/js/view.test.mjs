// Readers of the server's view (static/js/table/view.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  deadlineFrom,
  meldIntent,
  meldOwnerOrder,
  offers,
  seatOrder,
  secondsLeft,
} from "../../src/rummykit/server/static/js/table/view.js";

const seats = [0, 1, 2, 3].map((s) => ({ seat: s, status: "in" }));

test("the other seats from my left round to my right; a spectator sees them all", () => {
  assert.deepEqual(seatOrder({ seats }, 1), [2, 3, 0]);
  assert.deepEqual(seatOrder({ seats }, null), [0, 1, 2, 3]);
  assert.deepEqual(meldOwnerOrder({ seats }, 2), [2, 3, 0, 1]);
});

test("one natural card on a joker swaps; anything else lays off", () => {
  assert.deepEqual(meldIntent(3, true, ["Jc"]), { type: "swap", meld: 3, card: "Jc" });
  assert.deepEqual(meldIntent(3, true, ["JK"]), { type: "lay_off", meld: 3, cards: ["JK"] });
  assert.deepEqual(meldIntent(2, false, ["4h", "5h"]), { type: "lay_off", meld: 2, cards: ["4h", "5h"] });
});

test("the clock counts down from the deadline's arrival", () => {
  const d = deadlineFrom({ seat: 1, seconds: 29.5, why: "turn" }, 1000);
  assert.equal(secondsLeft(d, 1, 1000), 30);
  assert.equal(secondsLeft(d, 1, 20000), 11);
  assert.equal(secondsLeft(d, 0, 1000), null);
  assert.equal(secondsLeft(d, 1, 99999), 0);
  assert.equal(deadlineFrom(null, 0), null);
});

const table = (phase, extra = {}) => ({
  match: { phase: "playing", hints: true },
  rules: { family: "table" },
  seats,
  deal: { phase, to_play: 0 },
  hand: { cards: ["Ah", "2h", "3h"], opened: true },
  legal: { throw: ["Ah"], show: [], drop: null, put_back: true, ...extra },
});

test("Sort and Group are offered at the table family too", () => {
  const o = offers(table("throw"), 0, { marked: "Ah", selected: 1 });
  assert.equal(o.group, true);
  assert.equal(o.sort, true);
  assert.equal(o.throwCard, "Ah");
  assert.equal(o.putBack, true);
  assert.equal(o.layDown, true);
  assert.equal(o.hint, true);
});

test("with several cards selected at the table family, Throw waits for one", () => {
  const o = offers(table("throw"), 0, { marked: "Ah", selected: 3 });
  assert.equal(o.throw, true);
  assert.equal(o.throwCard, null);
});

test("nothing of mine is offered on another seat's turn but arranging the hand", () => {
  const v = { ...table("throw"), deal: { phase: "throw", to_play: 1 }, legal: null };
  const o = offers(v, 0, {});
  assert.deepEqual([o.group, o.sort, o.throw, o.putBack, o.hint, o.drop], [true, true, false, false, false, null]);
});
