// The score sheet as rows of cells (no DOM; sheet.js draws it, tests/js/sheet.test.mjs checks it):
// per deal the Charged row (a letter per status) and what each seat gained or paid (Paid, Points
// or Chips); in a pool, the running total after each deal too (who is near the limit); then the
// Total with its sign.

/** {caption, names, deals: [{deal, lines: [{kind, label, cells: [{text, cls}]}]}], total, notes} */
export function sheetModel(sheet, me = null) {
  // a settlement's signs read as won and lost; points, pools and chips are left plain
  const money = sheet.format === "settlement";
  const sign = (n) => (!money ? "" : n > 0 ? "plus" : n < 0 ? "minus" : "");
  const col = (i, extra = "") => [i === me ? "me-col" : "", extra].filter(Boolean).join(" ");
  const running = sheet.format === "pool";
  const deals = sheet.rows.map((row) => {
    const lines = [
      { kind: "charged", label: "Charged", cells: row.cells.map((c, i) => ({ text: c, cls: col(i, `status-${row.statuses[i]}`) })) },
      { kind: "paid", label: sheet.label, cells: row.row_text.map((c, i) => ({ text: c, cls: col(i, sign(row.row[i])) })) },
    ];
    if (running) {
      lines.push({
        kind: "running",
        label: "Total",
        cells: row.totals_text.map((c, i) => ({
          text: c,
          cls: col(i, row.standings?.[i] === "out" ? "out" : ""),
          tag: row.standings?.[i] === "out" ? "out" : row.standings?.[i] === "compel" ? "compel" : null,
        })),
      });
    }
    return { deal: row.deal, lines };
  });
  const total = sheet.totals_text.map((t, i) => {
    const win = sheet.winners.includes(i);
    const standing = sheet.standings[i];
    return {
      text: t,
      cls: col(i, [sign(sheet.totals[i]), win ? "winner" : ""].filter(Boolean).join(" ")),
      tag: standing === "out" ? "out" : standing === "compel" ? "compel" : null,
      won: win,
    };
  });
  const notes = [sheet.legend];
  if (sheet.rejoins.length) {
    notes.push(
      "Rejoined: " +
        sheet.rejoins.map((r) => `${sheet.names[r.seat]} at ${r.total} after deal ${r.after_deals}`).join("; "),
    );
  }
  return { caption: sheet.describe, names: sheet.names, me, deals, total, notes };
}
