// What flies and what sounds (static/js/table/motion.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { flightsFor, soundSetting, soundsFor } from "../../src/rummykit/server/static/js/table/motion.js";

test("my draw flies from the stock into my hand; another seat's throw from its seat to the pile", () => {
  const flights = flightsFor(
    [
      { kind: "drew_stock", seat: 0, card: "Kc" },
      { kind: "threw", seat: 1, card: "9s" },
      { kind: "took_pile", seat: 2, card: "9s" },
    ],
    0,
  );
  assert.deepEqual(flights, [
    { card: "Kc", from: { place: "stock", seat: undefined }, to: { place: "hand", seat: 0 } },
    { card: "9s", from: { place: "seat", seat: 1 }, to: { place: "pile", seat: undefined } },
    { card: "9s", from: { place: "pile", seat: undefined }, to: { place: "seat", seat: 2 } },
  ]);
});

test("another seat's draw from the stock flies face down; a catch-up flies nothing", () => {
  assert.equal(flightsFor([{ kind: "drew_stock", seat: 1, card: null }], 0)[0].card, null);
  assert.deepEqual(flightsFor([{ kind: "threw", seat: 1, card: "9s" }], 0, true), []);
});

test("a burst of moves: only the last few fly", () => {
  const many = Array.from({ length: 10 }, (_, i) => ({ kind: "threw", seat: 1, card: `${(i % 9) + 2}s` }));
  assert.equal(flightsFor(many, 0).length, 3);
});

test("sounds: one of each kind, my turn when it comes round, none on a catch-up", () => {
  const events = [
    { kind: "threw", seat: 1 },
    { kind: "drew_stock", seat: 2 },
    { kind: "threw", seat: 2 },
  ];
  assert.deepEqual(soundsFor(events, 0, { myTurnNow: true, myTurnBefore: false }), ["throw", "draw", "turn"]);
  assert.deepEqual(soundsFor(events, 0, { myTurnNow: true, myTurnBefore: true }), ["throw", "draw"]);
  assert.deepEqual(soundsFor(events, 0, { catchup: true, myTurnNow: true }), []);
});

test("sound is off unless this browser turned it on", () => {
  assert.equal(soundSetting(null), false);
  assert.equal(soundSetting("off"), false);
  assert.equal(soundSetting("on"), true);
});
