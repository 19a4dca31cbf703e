// What moves and what sounds when events arrive: a plan the page then animates (effects.js).
// No DOM: the node tests import this.
//
// A flight is {card, from, to}: each end is {place: "stock" | "pile" | "hand" | "seat", seat}.
// A card I drew lands in my hand; another seat's draw flies face down to that seat.

const MAX_FLIGHTS = 3; // a burst of moves (a catch-up, the bots at once): only the last few fly

function end(place, seat) {
  return { place, seat };
}

/** The flights of ``events`` as seat ``me`` sees them (none for a catch-up: nothing moved now). */
export function flightsFor(events, me, catchup = false) {
  if (catchup) return [];
  const out = [];
  for (const e of events) {
    if (e.seat == null) continue;
    const mine = e.seat === me;
    const holder = mine ? end("hand", e.seat) : end("seat", e.seat);
    switch (e.kind) {
      case "drew_stock":
        out.push({ card: mine ? (e.card ?? null) : null, from: end("stock"), to: holder });
        break;
      case "took_pile":
        out.push({ card: e.card, from: end("pile"), to: holder });
        break;
      case "threw":
      case "put_back":
        out.push({ card: e.card, from: holder, to: end("pile") });
        break;
      default:
        break;
    }
  }
  return out.slice(-MAX_FLIGHTS);
}

/** The sounds of ``events``: "draw", "throw", "meld", "turn" (my turn came round), "end". */
export function soundsFor(events, me, { catchup = false, myTurnNow = false, myTurnBefore = false } = {}) {
  if (catchup) return [];
  const out = [];
  for (const e of events) {
    if (e.kind === "drew_stock" || e.kind === "took_pile") out.push("draw");
    else if (e.kind === "threw" || e.kind === "put_back") out.push("throw");
    else if (["opened", "laid_down", "laid_off", "swapped"].includes(e.kind)) out.push("meld");
    else if (e.kind === "deal_ended" || e.kind === "showed") out.push("end");
  }
  if (myTurnNow && !myTurnBefore && me != null) out.push("turn");
  // one of each kind is enough: a burst of bot moves should not chatter
  return [...new Set(out)];
}

/** The sound setting kept in localStorage: on only when it says "on" (off by default). */
export function soundSetting(stored) {
  return stored === "on";
}
