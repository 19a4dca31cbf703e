// The page's state: the last view the server sent and what this page keeps of its own (the hand's
// layout, the marks, what is picked).  No DOM.
import { emptyLayout } from "./hand.js";
import { emptyMarks } from "./marks.js";

export const S = {
  role: "seat", // "seat" or "spectator", from the URL
  match: "",
  view: null,
  version: null,
  me: null, // my match seat (null: spectator)
  layout: emptyLayout(), // the hand as laid out here (hand.js)
  marks: emptyMarks(), // who threw the pile's cards, the last move (marks.js)
  marked: null, // uid of the marked card
  selected: new Set(), // the table family: uids of the cards picked for a meld, a lay-off or a swap
  sortBy: "suit", // what the Sort button does next
  pending: null, // id of the intent in flight
  pendingTimer: null,
  deadline: null, // {seat, until (ms), why}
  wantRematch: false,
  logLines: [],
  histories: null, // history URLs once the match is over
  connection: "connecting",
  hintVersion: null,
  leaving: false,
};

/** {me, seats}: what the words need to name seats. */
export const ctx = () => ({ me: S.me, seats: S.view?.seats ?? [] });
