// Small words shared by the pages (no DOM): possessives and counts.

/** "Your" for "You", else "Bina's". */
export function possessive(name) {
  if (name === "You") return "Your";
  return `${name}'s`;
}

/** "1 run", "2 runs". */
export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}
