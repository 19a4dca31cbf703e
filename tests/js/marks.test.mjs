// Who threw the pile's cards, and the last move (static/js/table/marks.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { dealEnd, emptyMarks, lastMove, markEvents, pileThrower } from "../../src/rummykit/server/static/js/table/marks.js";

const seat = (s, thrown = []) => ({ seat: s, name: `S${s}`, in_deal: true, status: "in", thrown });
const view = (deal, seats) => ({ deal: { number: 1, pile_take: null, to_play: 0, ...deal }, seats });

test("the card turned up at the deal was thrown by nobody; a throw by its seat", () => {
  let m = markEvents(emptyMarks(), [{ kind: "dealt", deal: 1, pile_top: "3c" }]);
  const seats = [seat(0), seat(1, ["9s"])];
  assert.equal(pileThrower(m, view({ pile: ["3c"], pile_top: "3c" }, seats)), null);
  m = markEvents(m, [
    { kind: "drew_stock", seat: 1, deal: 1 },
    { kind: "threw", seat: 1, deal: 1, card: "9s" },
  ]);
  assert.equal(pileThrower(m, view({ pile: ["3c", "9s"], pile_top: "9s" }, seats)), 1);
  assert.deepEqual(lastMove(m, view({ pile: ["3c", "9s"] }, seats)), { kind: "threw", seat: 1, deal: 1, card: "9s" });
});

test("a take from the pile uncovers the card under it, and Put back returns it to its thrower", () => {
  let m = markEvents(emptyMarks(), [
    { kind: "dealt", deal: 1, pile_top: "3c" },
    { kind: "threw", seat: 1, card: "9s" },
    { kind: "threw", seat: 0, card: "Kd" },
    { kind: "took_pile", seat: 1, card: "Kd" },
  ]);
  assert.deepEqual(m.pile, [null, 1]);
  m = markEvents(m, [{ kind: "put_back", seat: 1, card: "Kd" }]);
  assert.deepEqual(m.pile, [null, 1, 0]);
  assert.equal(m.last.kind, "put_back");
});

test("an empty pile at the deal (Remi 51): nobody threw anything yet", () => {
  const m = markEvents(emptyMarks(), [{ kind: "dealt", deal: 1, pile_top: null }]);
  assert.equal(pileThrower(m, view({ pile: [], pile_top: null }, [seat(0), seat(1)])), undefined);
  assert.equal(lastMove(m, view({ pile: [] }, [])), null);
});

test("a rebuilt stock leaves the pile's top card with its thrower", () => {
  const m = markEvents(emptyMarks(), [
    { kind: "dealt", deal: 1, pile_top: "3c" },
    { kind: "threw", seat: 1, card: "9s" },
    { kind: "threw", seat: 0, card: "Kd" },
    { kind: "stock_rebuilt", count: 2 },
  ]);
  assert.deepEqual(m.pile, [0]);
});

test("without the events (a view after a long absence) the seats' throws tell", () => {
  const seats = [seat(0, ["2c"]), seat(1, ["5d", "9s"]), seat(2, ["Qh"])];
  const v = view({ pile: ["2c", "5d", "Qh", "9s"], pile_top: "9s", to_play: 2 }, seats);
  assert.equal(pileThrower(emptyMarks(), v), 1);
  // the seat to play took the top card: the one now on top is older, and nobody can tell
  assert.equal(pileThrower(emptyMarks(), { ...v, deal: { ...v.deal, pile_take: "Kh" } }), null);
});

test("a dealt hand is never kept in the marks", () => {
  const m = markEvents(emptyMarks(), [
    { kind: "dealt", deal: 1, pile_top: "3c", hand: ["Ah"] },
    { kind: "drew_stock", seat: 0, card: "Kc", hand: ["x"] },
  ]);
  assert.ok(!("hand" in m.last));
});

test("the deal's end is kept as the server told it, until the next deal", () => {
  let m = markEvents(emptyMarks(), [
    { kind: "dealt", deal: 2, pile_top: "3c" },
    { kind: "deal_ended", deal: 2, line: ["Deal 2: Bina shows, finishing with ", { card: "9d" }] },
  ]);
  const v = view({ number: 2, pile: [] }, []);
  assert.deepEqual(dealEnd(m, v).line, ["Deal 2: Bina shows, finishing with ", { card: "9d" }]);
  m = markEvents(m, [{ kind: "dealt", deal: 3, pile_top: "5h" }]);
  assert.equal(dealEnd(m, { ...v, deal: { ...v.deal, number: 3 } }), null);
});
