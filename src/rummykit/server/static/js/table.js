// The table: one seat's view (the invite link /t/ID?seat_token=...) or the spectator's (the watch
// link /watch/ID?token=...), one page for both (static/table.html).  The server is
// authoritative: this page draws the view it sends and sends intents; the only state of its own
// is how you arranged your hand.
//
// The modules under table/: the pure ones (hand.js the hand's layout, words.js the words,
// view.js readers of the view, marks.js who threw the pile's cards and the last move, motion.js
// what flies and sounds; tested by node in tests/js/) and the page's own (dom.js, render.js,
// play.js the intents, input.js the pointer and keys, effects.js animation and sound).
import { api, TableSocket } from "./net.js";
import { ask, opened } from "./ui.js";
import { el } from "./table/dom.js";
import { counts, land, play as playSounds, setSound, soundOn, takeOff } from "./table/effects.js";
import { loadLayout, reconcile, saveLayout } from "./table/hand.js";
import { wireHand } from "./table/input.js";
import { emptyMarks, markEvents } from "./table/marks.js";
import { flightsFor, soundsFor } from "./table/motion.js";
import {
  askHint,
  clearPending,
  doDrop,
  doShow,
  draw,
  groupHand,
  layDown,
  moveStep,
  onHint,
  openWithMeter,
  putBack,
  sortHand,
  tryThrow,
  usePlay,
} from "./table/play.js";
import {
  addLogLine,
  announce,
  render,
  renderClock,
  renderConnection,
  renderMe,
  renderPanel,
  renderSeats,
  renderSheetDialog,
  setStatus,
} from "./table/render.js";
import { S } from "./table/state.js";
import { deadlineFrom, myTurn, tableGame } from "./table/view.js";
import { eventLine, spoken } from "./table/words.js";

const params = new URLSearchParams(location.search);
const parts = location.pathname.split("/").filter(Boolean);
S.role = parts[0] === "watch" ? "spectator" : "seat";
S.match = decodeURIComponent(parts[1] ?? "");
const TOKEN = S.role === "seat" ? params.get("seat_token") : (params.get("token") ?? params.get("watch_token"));
const STORE_KEY = `rummykit.table.${S.match}.${S.role === "seat" ? (TOKEN ?? "").slice(0, 6) : "watch"}`;

let socket = null;

function saveLocal() {
  try {
    sessionStorage.setItem(
      STORE_KEY,
      JSON.stringify({ version: S.version, ...saveLayout(S.layout), marks: S.marks, log: S.logLines.slice(-150) }),
    );
  } catch {
    /* storage full or off: the page still works */
  }
}

function loadLocal() {
  try {
    const d = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? "null");
    if (!d) return null;
    S.layout = loadLayout(d);
    if (d.marks && Array.isArray(d.marks.pile)) S.marks = { ...emptyMarks(), ...d.marks };
    for (const line of d.log ?? []) addLogLine(line);
    return d.version ?? null;
  } catch {
    return null;
  }
}

/** The events in the server's words: a line each in the log, the others' moves spoken. */
function onEvents(events, catchup) {
  for (const e of events) {
    addLogLine(eventLine(e));
    if (!catchup && spoken(e, S.me)) announce(eventLine(e, true));
  }
}

function applyView({ view: v, version, events, catchup, id, kind }) {
  const firstView = S.view == null;
  const before = S.view;
  const wasMine = !!before && myTurn(before, S.me);
  S.view = v;
  S.version = version;
  S.me = v.you.seat;
  S.deadline = deadlineFrom(v.deadline, Date.now());
  if (id && id === S.pending) clearPending();
  else if (S.pending && kind === "update" && events.some((e) => e.seat === S.me)) clearPending();
  const quiet = catchup || firstView;
  const flights = takeOff(flightsFor(events, S.me, quiet));
  S.layout = reconcile(S.layout, v.hand?.cards ?? [], v.deal?.number ?? null);
  if (S.marked != null && !S.layout.order.some((e) => e.uid === S.marked)) S.marked = null;
  for (const uid of [...S.selected]) if (!S.layout.order.some((e) => e.uid === uid)) S.selected.delete(uid);
  S.marks = markEvents(S.marks, events);
  // the table family: a move of mine went through, so an older warning no longer applies
  if (tableGame(v) && !catchup && events.some((e) => e.seat === S.me && e.deal != null) && el.status.dataset.kind === "warn")
    setStatus("");
  onEvents(events, quiet);
  const mineNow = myTurn(v, S.me);
  // your turn, said once when it comes round
  if (mineNow && (!wasMine || before.deal.number !== v.deal.number) && !firstView) announce("Your turn.");
  if (v.match.rematch?.url && S.wantRematch) {
    location.href = v.match.rematch.url;
    return;
  }
  if (v.match.phase === "over" && S.histories == null) loadHistories();
  render();
  land(flights);
  playSounds(soundsFor(events, S.me, { catchup: quiet, myTurnNow: mineNow, myTurnBefore: wasMine }));
  saveLocal();
}

async function loadHistories() {
  S.histories = [];
  try {
    const d = await api(`/api/matches/${encodeURIComponent(S.match)}`);
    S.histories = d.history_urls ?? [];
  } catch {
    S.histories = [];
  }
  if (S.view) renderPanel();
}

function onPresence(msg) {
  if (!S.view) return;
  for (const p of msg.seats) {
    const seat = S.view.seats[p.seat];
    if (seat) {
      seat.connected = p.connected;
      seat.away_turns = p.away_turns;
    }
  }
  S.deadline = deadlineFrom(msg.deadline, Date.now());
  renderSeats();
  if (S.me != null) renderMe();
}

function onError(msg) {
  if (msg.id && msg.id === S.pending) clearPending();
  if (msg.id && S.wantRematch) {
    S.wantRematch = false;
    renderPanel();
  }
  setStatus(msg.reason + (msg.expected && !/^stale/.test(msg.reason) ? ` (${msg.expected})` : ""));
}

function onConnection(state, detail) {
  if (S.leaving) return;
  S.connection = state;
  if (state !== "open") clearPending();
  renderConnection(state, detail, () => socket.connect());
}

/** Leave the table: asked first; the socket closes and the lobby opens.  A seat left mid-deal is
 *  away, and the server's away rules play it (docs/protocol.md, "Away seats"). */
async function leave() {
  const midDeal = S.view?.match?.phase === "playing" && S.me != null;
  const choice = await ask({
    title: "Leave the table?",
    text: midDeal
      ? "The table plays your turns for you while you are away (it draws and throws). Your invite link brings you back to your seat."
      : "Your invite link brings you back to your seat.",
    buttons: [
      { value: "stay", label: "Stay", kind: "plain", autofocus: true },
      { value: "leave", label: "Leave the table", kind: "danger" },
    ],
  });
  if (choice !== "leave") return;
  S.leaving = true;
  socket?.close();
  location.assign("/");
}

function renderSoundButton() {
  const on = soundOn();
  el.soundButton.setAttribute("aria-pressed", String(on));
  el.soundText.textContent = on ? "Sound on" : "Sound off";
}

function wire() {
  wireHand();
  el.stock.addEventListener("click", () => draw("stock"));
  el.pile.addEventListener("click", () => draw("pile"));
  el.group.addEventListener("click", () => groupHand());
  el.sort.addEventListener("click", () => sortHand());
  el.moveLeft.addEventListener("click", () => S.marked && moveStep(S.marked, -1));
  el.moveRight.addEventListener("click", () => S.marked && moveStep(S.marked, 1));
  el.throw.addEventListener("click", () => S.marked && tryThrow(S.marked));
  el.show.addEventListener("click", () => doShow());
  el.drop.addEventListener("click", () => doDrop());
  el.open.addEventListener("click", () => openWithMeter());
  el.layDown.addEventListener("click", () => layDown());
  el.putBack.addEventListener("click", () => putBack());
  el.hint.addEventListener("click", () => askHint());
  el.sheetButton.addEventListener("click", () => {
    renderSheetDialog();
    el.sheetDialog.showModal();
  });
  el.logButton.addEventListener("click", () => {
    const open = el.logPanel.classList.toggle("open");
    el.logButton.setAttribute("aria-expanded", String(open));
  });
  el.soundButton.addEventListener("click", () => {
    setSound(!soundOn());
    renderSoundButton();
  });
  el.leaveButton.addEventListener("click", () => leave());
  renderSoundButton();
  setInterval(() => {
    if (S.deadline && S.view) {
      renderSeats();
      renderClock();
    }
  }, 1000);
}

function start() {
  // one page for a seat and for the watch link: the role comes from the URL
  document.body.dataset.role = S.role;
  el.table.dataset.role = S.role;
  if (TOKEN) opened.add(TOKEN); // the history page lists the matches this browser holds a token of
  if (S.role === "spectator") {
    el.me.hidden = true;
    el.skip.setAttribute("href", "#center");
    el.skip.textContent = "Skip to the table";
    el.leaveText.textContent = "Stop watching";
    el.leaveButton.setAttribute("aria-label", "Stop watching: back to the lobby");
    document.title = "rummykit · watching";
  }
  wire();
  if (!S.match || !TOKEN) {
    renderConnection("closed", {
      reason:
        S.role === "seat"
          ? "This link has no seat token: open the invite link you were given."
          : "This watch link has no token.",
    });
    el.table.dataset.phase = "broken";
    return;
  }
  const last = loadLocal();
  socket = new TableSocket({
    matchId: S.match,
    seatToken: S.role === "seat" ? TOKEN : null,
    watchToken: S.role === "spectator" ? TOKEN : null,
    lastVersion: last ?? 0, // 0: send what happened so far, for the log (or the state, past 500 events)
    handlers: { onView: applyView, onPresence, onError, onConnection, onHint, onWelcome: () => {} },
  });
  usePlay(socket, saveLocal);
  // a handle for people poking at the page, and for the browser tests
  window.rummykit = { socket, state: S, counts };
  socket.connect();
}

start();
