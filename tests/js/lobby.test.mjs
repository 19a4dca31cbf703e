// What the lobby's form offers (static/js/lobbyform.js), from the server's /api/options.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  clockChoices,
  clockValue,
  openingChoices,
  playersRange,
  seatRows,
  tableSettings,
  targetChoices,
} from "../../src/rummykit/server/static/js/lobbyform.js";
import { possessive } from "../../src/rummykit/server/static/js/grammar.js";

const nepali = { name: "nepali", players: [2, 6], settings: { players: 4 }, clock: { default: null, choices: [30, 45, 60, 90, 600] } };
const rummy40 = {
  name: "rummy40",
  players: [2, 6],
  settings: { players: 4 },
  clock: { default: 45, choices: [30, 45, 60, 90, 600] },
  opening: 40,
  openings: [30, 40, 51],
  target: null,
  targets: [null, 200],
};
const remi51 = { ...rummy40, name: "remi51", players: [2, 4], clock: { default: null, choices: [30, 45, 60, 90, 600] }, opening: 51, openings: [51], targets: [] };

test("nine players are drawn as nine seats, not clamped to six (defect)", () => {
  assert.equal(seatRows(9, nepali), 9);
  assert.equal(seatRows(null, nepali), 4);
  assert.equal(seatRows(500, nepali), 12, "drawing stops somewhere; the server refuses anyway");
  assert.deepEqual(playersRange(nepali, 9), { text: "2 to 6 players", ok: false });
  assert.equal(playersRange(nepali, 6).ok, true);
});

test("a turn clock for every game: off by default but at Rummy 40 (45 s)", () => {
  assert.deepEqual(
    clockChoices(nepali).map((c) => [c.value, c.selected]),
    [["", true], ["30", false], ["45", false], ["60", false], ["90", false], ["600", false]],
  );
  assert.equal(clockChoices(rummy40).find((c) => c.selected).value, "45");
  assert.equal(clockChoices(remi51).find((c) => c.selected).label, "Off");
  assert.equal(clockValue(""), null);
  assert.equal(clockValue("90"), 90);
});

test("Rummy 40 offers its opening 30, 40, 51 and one deal or to 200; Remi 51 no choice", () => {
  assert.deepEqual(
    openingChoices(rummy40).map((c) => [c.value, c.selected]),
    [["30", false], ["40", true], ["51", false]],
  );
  assert.deepEqual(
    targetChoices(rummy40).map((c) => [c.label, c.selected]),
    [["One deal", true], ["First to 200", false]],
  );
  assert.deepEqual(openingChoices(remi51), []);
  assert.deepEqual(targetChoices(remi51), []);
});

test("only the choices that differ from the preset are sent", () => {
  assert.deepEqual(tableSettings(rummy40, { opening: "40", target: "" }), {});
  assert.deepEqual(tableSettings(rummy40, { opening: "30", target: "200" }), { opening: 30, target: 200 });
});

test("Your seat, not You's seat (defect)", () => {
  assert.equal(`${possessive("You")} seat`, "Your seat");
  assert.equal(`${possessive("Dipa")} seat`, "Dipa's seat");
});
