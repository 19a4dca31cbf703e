// The hand's layout (static/js/table/hand.js): what the page keeps of its own.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  clusters,
  emptyLayout,
  groupShow,
  groupTable,
  loadLayout,
  meldKind,
  moveBy,
  moveEntry,
  reconcile,
  saveLayout,
  sortLayout,
} from "../../src/rummykit/server/static/js/table/hand.js";

const cards = (layout) => layout.order.map((e) => e.card);
const labels = (layout) => clusters(layout).map((c) => [c.label, c.entries.map((e) => e.card)]);

// a show-family HAND with fourteen cards, as the server sends it (the Group button's answer)
const HAND14 = {
  cards: ["4h", "5h", "6h", "9s", "10s", "7c", "Kc", "Qd", "As", "8d", "3c", "2h", "5s", "Jd"],
  groups: [
    { cards: ["4h", "5h", "6h"], kind: "run", pure: true },
    { cards: ["7c", "9s", "10s"], kind: "run", pure: false },
  ],
  loose: ["As", "5s", "2h", "8d", "Qd", "3c", "Kc", "Jd"],
  aside: "Kc",
};

test("a new deal lays the hand out in the server's order", () => {
  const l = reconcile(emptyLayout(), ["Ah", "2h", "JK"], 1);
  assert.deepEqual(cards(l), ["Ah", "2h", "JK"]);
  assert.equal(l.deal, 1);
  assert.deepEqual(new Set(l.order.map((e) => e.uid)).size, 3);
});

test("the local order is kept for the cards still held; a drawn card goes at the end", () => {
  let l = reconcile(emptyLayout(), ["Ah", "2h", "3h"], 1);
  l = moveEntry(l, l.order[2].uid, 0); // 3h to the front
  assert.deepEqual(cards(l), ["3h", "Ah", "2h"]);
  const uids = l.order.map((e) => e.uid);
  const after = reconcile(l, ["Ah", "2h", "3h", "Kd"], 1);
  assert.deepEqual(cards(after), ["3h", "Ah", "2h", "Kd"]);
  assert.deepEqual(after.order.slice(0, 3).map((e) => e.uid), uids);
  assert.deepEqual(cards(l), ["3h", "Ah", "2h"], "the layout given is left as it was");
});

test("two copies of one card stay two cards", () => {
  let l = reconcile(emptyLayout(), ["8h", "8h", "9h"], 1);
  l = reconcile(l, ["8h", "9h"], 1);
  assert.deepEqual(cards(l), ["8h", "9h"]);
});

test("group lays out groups first, then the loose cards, the best throw last", () => {
  const l = groupShow(reconcile(emptyLayout(), HAND14.cards, 1), HAND14);
  assert.deepEqual(labels(l), [
    ["Clean run", ["4h", "5h", "6h"]],
    ["Run", ["7c", "9s", "10s"]],
    ["Loose", ["As", "5s", "2h", "8d", "Qd", "3c", "Jd"]],
    ["Best throw", ["Kc"]],
  ]);
});

test("the Best throw label goes with the throw of another card (defect: it stayed)", () => {
  const grouped = groupShow(reconcile(emptyLayout(), HAND14.cards, 1), HAND14);
  const left = HAND14.cards.filter((c) => c !== "Jd"); // Jd thrown, not the best throw
  const after = reconcile(grouped, left, 1);
  assert.ok(!labels(after).some(([label]) => label === "Best throw"), JSON.stringify(labels(after)));
  assert.deepEqual(cards(after).slice(-1), ["Kc"], "the card stays where it was");
  // the groups the throw did not touch keep their labels
  assert.equal(labels(after)[0][0], "Clean run");
});

test("the Best throw label goes when a card is drawn too", () => {
  const thirteen = { ...HAND14, cards: HAND14.cards.slice(0, 13) };
  const grouped = groupShow(reconcile(emptyLayout(), thirteen.cards, 1), { ...HAND14, aside: "Kc" });
  const after = reconcile(grouped, [...thirteen.cards, "Jc"], 1);
  assert.ok(!labels(after).some(([label]) => label === "Best throw"));
});

test("a group that loses a card loses its label", () => {
  const grouped = groupShow(reconcile(emptyLayout(), HAND14.cards, 1), HAND14);
  const after = reconcile(grouped, HAND14.cards.filter((c) => c !== "5h"), 1);
  assert.deepEqual(labels(after)[0], [null, ["4h", "6h"]]);
});

test("moving a card by hand drops the labels", () => {
  const grouped = groupShow(reconcile(emptyLayout(), HAND14.cards, 1), HAND14);
  const moved = moveBy(grouped, grouped.order[0].uid, 1);
  assert.equal(moved.place, 2);
  assert.deepEqual(cards(moved.layout).slice(0, 2), ["5h", "4h"]);
  assert.deepEqual(moved.layout.segs, []);
  assert.equal(moveBy(grouped, grouped.order[0].uid, -1), null, "the first card goes no further left");
});

test("sort by suit and by rank, jokers last", () => {
  const l = reconcile(emptyLayout(), ["Kd", "JK", "2s", "Ah", "2h", "10s"], 1);
  assert.deepEqual(cards(sortLayout(l, "suit")), ["2s", "10s", "Ah", "2h", "Kd", "JK"]);
  assert.deepEqual(cards(sortLayout(l, "rank")), ["Ah", "2s", "2h", "10s", "Kd", "JK"]);
  assert.deepEqual(sortLayout(l, "rank").segs, []);
});

test("the table family groups melds first: the Opening meter's melds before opening", () => {
  const hand = {
    cards: ["2s", "Ks", "Kh", "Kd", "5h", "6h", "7h", "9c", "10c", "JK", "3d", "8s", "4c"],
    opened: false,
    meter: { points: 77, threshold: 40, melds: [["Ks", "Kh", "Kd"], ["5h", "6h", "7h"], ["9c", "10c", "JK"]] },
    leftover: null,
  };
  const l = groupTable(reconcile(emptyLayout(), hand.cards, 1), hand);
  assert.deepEqual(labels(l), [
    ["Set", ["Ks", "Kh", "Kd"]],
    ["Run", ["5h", "6h", "7h"]],
    ["Run", ["9c", "10c", "JK"]],
    ["Loose", ["2s", "8s", "3d", "4c"]],
  ]);
});

test("after opening, Group lays the leftover's melds and lay-offs first", () => {
  const hand = {
    cards: ["4h", "Jc", "Qc", "Kc", "2s", "9d"],
    opened: true,
    meter: null,
    leftover: { cost: 11, melds: [["Jc", "Qc", "Kc"]], layoffs: [{ meld: 2, cards: ["4h"] }], loose: ["2s", "9d"] },
  };
  const l = groupTable(reconcile(emptyLayout(), hand.cards, 1), hand);
  assert.deepEqual(labels(l), [
    ["Run", ["Jc", "Qc", "Kc"]],
    ["Lay off on 2", ["4h"]],
    ["Loose", ["2s", "9d"]],
  ]);
});

test("a meld's kind: a set when the natural cards share a rank", () => {
  assert.equal(meldKind(["7s", "7h", "JK"]), "set");
  assert.equal(meldKind(["7s", "8s", "JK"]), "run");
});

test("the layout survives a page load", () => {
  const grouped = groupShow(reconcile(emptyLayout(), HAND14.cards, 3), HAND14);
  const back = loadLayout(JSON.parse(JSON.stringify(saveLayout(grouped))));
  assert.deepEqual(labels(back), labels(grouped));
  assert.equal(back.deal, 3);
  assert.deepEqual(cards(reconcile(back, HAND14.cards, 3)), cards(grouped));
});
