// The score sheet's rows (static/js/sheetmodel.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { sheetModel } from "../../src/rummykit/server/static/js/sheetmodel.js";

const row = (deal, charges, totals, standings = ["in", "in", "in"]) => ({
  deal,
  dealer: 0,
  charges,
  statuses: charges.map((c) => (c === 0 ? "winner" : "played")),
  cells: charges.map((c) => (c === 0 ? "0W" : String(c))),
  row: charges,
  row_text: charges.map(String),
  totals,
  totals_text: totals.map(String),
  standings,
});

const pool = {
  format: "pool",
  label: "Points",
  describe: "Pool 101: out at 101",
  names: ["Asha", "Bina", "Chandra"],
  rows: [row(1, [0, 40, 80], [0, 40, 80]), row(2, [30, 0, 25], [30, 40, 105], ["in", "in", "out"])],
  totals: [30, 40, 105],
  totals_text: ["30", "40", "105"],
  standings: ["in", "in", "out"],
  rejoins: [],
  winners: [],
  legend: "W winner",
};

test("a pool sheet shows the running total after each deal (defect: only the last)", () => {
  const m = sheetModel(pool, 0);
  assert.deepEqual(
    m.deals.map((d) => d.lines.map((l) => l.kind)),
    [
      ["charged", "paid", "running"],
      ["charged", "paid", "running"],
    ],
  );
  assert.deepEqual(
    m.deals.map((d) => d.lines[2].cells.map((c) => c.text)),
    [
      ["0", "40", "80"],
      ["30", "40", "105"],
    ],
  );
  assert.equal(m.deals[1].lines[2].cells[2].tag, "out");
  assert.equal(m.deals[0].lines[0].cells[0].cls, "me-col status-winner");
});

test("a settlement sheet signs its numbers and has no running line", () => {
  const m = sheetModel({ ...pool, format: "settlement", label: "Paid", totals: [-5, 5, 0] }, null);
  assert.deepEqual(
    m.deals[0].lines.map((l) => l.kind),
    ["charged", "paid"],
  );
  assert.deepEqual(
    m.total.map((c) => c.cls),
    ["minus", "plus", ""],
  );
});

test("rejoins are noted under the sheet", () => {
  const m = sheetModel({ ...pool, rejoins: [{ seat: 2, total: 81, after_deals: 2, number: 1 }] });
  assert.deepEqual(m.notes, ["W winner", "Rejoined: Chandra at 81 after deal 2"]);
});
