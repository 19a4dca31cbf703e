// What the lobby's form offers, read from the server's /api/options (no DOM: the node tests
// import this).  The form's limits are the server's; a count the server does not seat is sent as
// typed, and the server's sentence says why not ("Rummy 40 seats 2 to 6 players; you asked for 9").

export const CLOCK_WORDS = { 30: "30 seconds", 45: "45 seconds", 60: "1 minute", 90: "1½ minutes", 600: "10 minutes" };
const MAX_ROWS = 12; // seat rows drawn at most, whatever is typed (the server refuses past the preset's)

/** The seat rows to draw for the count typed in Players (a blank field: the preset's own). */
export function seatRows(typed, preset) {
  const n = Number.isInteger(typed) ? typed : (preset?.settings?.players ?? 4);
  return Math.max(1, Math.min(MAX_ROWS, n));
}

/** "2 to 6 players", and whether ``typed`` is one of them. */
export function playersRange(preset, typed) {
  const [low, high] = preset.players;
  return { text: `${low} to ${high} players`, ok: Number.isInteger(typed) && typed >= low && typed <= high };
}

/** The turn clock's choices at this preset: Off, then the server's, the preset's own selected. */
export function clockChoices(preset) {
  const clock = preset.clock ?? { default: null, choices: [] };
  return [
    { value: "", label: "Off", selected: clock.default == null },
    ...clock.choices.map((c) => ({ value: String(c), label: CLOCK_WORDS[c] ?? `${c} seconds`, selected: c === clock.default })),
  ];
}

/** The turn_time a clock choice sends: seconds, or null for none. */
export function clockValue(choice) {
  return choice === "" || choice == null ? null : Number(choice);
}

/** The opening thresholds a table-family preset offers (empty when there is no choice). */
export function openingChoices(preset) {
  const all = preset.openings ?? [];
  if (all.length < 2) return [];
  return all.map((o) => ({ value: String(o), label: `${o} points`, selected: o === preset.opening }));
}

/** The match lengths a table-family preset offers (empty when there is no choice). */
export function targetChoices(preset) {
  const all = preset.targets ?? [];
  if (all.length < 2) return [];
  return all.map((t) => ({
    value: t == null ? "" : String(t),
    label: t == null ? "One deal" : `First to ${t}`,
    selected: t === (preset.target ?? null),
  }));
}

/** The settings a table-family preset's choices send: only those that differ from the preset. */
export function tableSettings(preset, { opening, target }) {
  const out = {};
  if (opening != null && opening !== "" && Number(opening) !== preset.opening) out.opening = Number(opening);
  const t = target === "" || target == null ? null : Number(target);
  if (target !== undefined && t !== (preset.target ?? null)) out.target = t ?? "none";
  return out;
}
