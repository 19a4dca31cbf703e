// What a person does at the table: taps and buttons become intents for the server, checked
// here only as far as the view already says (the server has the last word and its reason).
import { cardName, cardShort, theCard } from "../cards.js";
import { ask } from "../ui.js";
import { el } from "./dom.js";
import { entryOf, groupShow, groupTable, moveBy, moveEntry, sortLayout } from "./hand.js";
import { announce, focusCard, renderActions, renderHand, setStatus } from "./render.js";
import { ctx, S } from "./state.js";
import { meldIntent, myTurn, playing, tableGame, throwStep } from "./view.js";
import { groupedWords, nameOf } from "./words.js";

let socket = null;
let saveLocal = () => {};

export function usePlay(sock, save) {
  socket = sock;
  saveLocal = save;
}

const notYourTurn = () => `Not your turn: ${nameOf(ctx(), S.view.deal.to_play)} is to play.`;

export function send(intent) {
  if (S.pending) return false;
  const id = socket?.send(intent);
  if (!id) {
    setStatus("Not connected to the table: reconnecting…");
    return false;
  }
  S.pending = id;
  el.table.dataset.busy = "true";
  clearTimeout(S.pendingTimer);
  S.pendingTimer = setTimeout(clearPending, 8000);
  return true;
}

export function clearPending() {
  S.pending = null;
  clearTimeout(S.pendingTimer);
  el.table.dataset.busy = "false";
}

export async function tryThrow(uid) {
  const e = entryOf(S.layout, uid);
  const v = S.view;
  if (!e || !playing(v)) return;
  if (v.deal.to_play !== S.me || !v.legal) {
    setStatus(notYourTurn());
    return;
  }
  if (v.deal.phase === "draw") {
    setStatus("Take a card first: tap the stock or the pile.");
    return;
  }
  const legal = v.legal;
  if (!legal.throw.includes(e.card)) {
    if (legal.no_throw && legal.no_throw.card === e.card) {
      setStatus(`You cannot throw ${cardShort(e.card)}: ${legal.no_throw.reason}.`);
      shake(uid);
      return;
    }
    setStatus(legal.throw_refusal ? `${legal.throw_refusal}.` : `${cardShort(e.card)} cannot be thrown now.`);
    return;
  }
  if (legal.show.includes(e.card)) {
    const choice = await ask({
      title: "This card finishes a show",
      text: `Throwing ${theCard(e.card)} ends the deal with a show: you pay nothing. Show now, or just throw it?`,
      buttons: [
        { value: "show", label: `Show with ${cardShort(e.card)}`, kind: "show", autofocus: true },
        { value: "throw", label: "Just throw it", kind: "plain" },
        { value: "cancel", label: "Cancel", kind: "plain" },
      ],
    });
    if (choice === "show") return doShow(e.card);
    if (choice !== "throw") return;
  }
  if (send({ type: "throw", card: e.card })) {
    S.marked = null;
    S.selected.clear(); // the turn ends with the throw: nothing stays picked
    setStatus("");
  }
}

export function doShow(card) {
  const legal = S.view?.legal;
  if (!legal?.show?.length) return;
  const marked = entryOf(S.layout, S.marked)?.card;
  const finish = card ?? (marked && legal.show.includes(marked) ? marked : legal.show[0]);
  if (send({ type: "show", card: finish })) setStatus("");
}

export function draw(from) {
  const v = S.view;
  if (!playing(v)) return;
  if (v.deal.to_play !== S.me || !v.legal) {
    setStatus(S.me == null ? "Spectators only watch." : notYourTurn());
    return;
  }
  if (v.deal.phase !== "draw") {
    if (from === "pile" && S.marked != null) {
      tryThrow(S.marked); // a marked card, then the pile: throw it there
      return;
    }
    setStatus("You have taken your card: now throw one (tap it twice, or drag it onto the pile).");
    return;
  }
  if (from === "pile" && !v.legal.draw_pile) {
    setStatus(v.legal.pile_refusal ?? "The pile cannot be taken now.");
    return;
  }
  send({ type: "draw", from });
}

export async function doDrop() {
  const legal = S.view?.legal;
  if (!legal?.drop) return;
  const cost = legal.drop.cost;
  const choice = await ask({
    title: `Drop out of this deal for ${cost}?`,
    text: `You pay ${cost}, your hand is never shown, and the deal goes on without you.`,
    buttons: [
      { value: "keep", label: "Keep playing", kind: "plain", autofocus: true },
      { value: "drop", label: `Drop for ${cost}`, kind: "danger" },
    ],
  });
  if (choice === "drop" && S.view?.legal?.drop) send({ type: "drop" });
}

/** A tap on a card of the hand: mark it (a second tap throws), or at the table family pick it. */
export function tap(uid) {
  if (S.me == null) return;
  if (tableGame(S.view)) {
    pick(uid);
    return;
  }
  if (S.marked === uid) {
    tryThrow(uid);
    return;
  }
  S.marked = uid;
  renderHand();
  renderActions();
  focusCard(uid);
  const e = entryOf(S.layout, uid);
  if (throwStep(S.view, S.me)) {
    const legal = S.view.legal;
    if (legal.no_throw && legal.no_throw.card === e.card) {
      setStatus(`${cardShort(e.card)} was just taken from the pile: ${legal.no_throw.reason}.`);
    } else {
      setStatus(`${cardShort(e.card)} marked: tap it again to throw it.`, "info");
    }
  }
}

export function unmark() {
  S.marked = null;
  renderHand();
  renderActions();
}

function shake(uid) {
  const b = el.hand.querySelector(`button.card[data-uid="${uid}"]`);
  if (!b) return;
  b.classList.remove("shake");
  void b.offsetWidth;
  b.classList.add("shake");
}

// ---------------------------------------------------------------------------------------------
// arranging the hand (the page's own business: nothing goes to the server)

function relaid(layout, status) {
  S.layout = layout;
  saveLocal();
  renderHand();
  renderActions();
  if (status) setStatus(status, "info");
}

export function groupHand() {
  const hand = S.view?.hand;
  if (!hand || !hand.cards.length) return;
  const table = tableGame(S.view);
  const layout = table ? groupTable(S.layout, hand) : groupShow(S.layout, hand);
  relaid(layout, groupedWords(layout, table));
}

export function sortHand() {
  const by = S.sortBy;
  S.sortBy = by === "suit" ? "rank" : "suit";
  relaid(sortLayout(S.layout, by), `Sorted by ${by}.`);
}

export function moveTo(uid, to) {
  relaid(moveEntry(S.layout, uid, to));
}

export function moveStep(uid, delta) {
  const moved = moveBy(S.layout, uid, delta);
  if (!moved) return;
  relaid(moved.layout);
  focusCard(uid);
  announce(`${cardName(entryOf(S.layout, uid).card)} moved to place ${moved.place} of ${S.layout.order.length}`);
}

// ---------------------------------------------------------------------------------------------
// the table family (Rummy 40, Remi 51): melds on the table, the Opening meter, lay-offs and swaps

export function selectedCards() {
  return S.layout.order.filter((e) => S.selected.has(e.uid)).map((e) => e.card);
}

/** Tap a card: select it, or let it go (several may be selected: a meld, a lay-off). */
function pick(uid) {
  const e = entryOf(S.layout, uid);
  if (!e) return;
  if (S.selected.has(uid)) {
    S.selected.delete(uid);
    if (S.marked === uid) S.marked = [...S.selected].pop() ?? null;
  } else {
    S.selected.add(uid);
    S.marked = uid;
  }
  renderHand();
  renderActions();
  focusCard(uid);
  const n = S.selected.size;
  if (!n) setStatus("");
  else if (throwStep(S.view, S.me)) {
    const words = n === 1 ? `${cardShort(e.card)} selected` : `${n} cards selected`;
    const opened = S.view.hand?.opened;
    setStatus(
      opened
        ? `${words}: tap a meld to lay ${n === 1 ? "it" : "them"} off${n === 1 ? ", a joker to swap it in, or Throw" : ", or Lay down"}.`
        : `${words}.${n === 1 ? " Throw it, or drag it onto the pile." : ""}`,
      "info",
    );
  }
}

export function clearSelection() {
  S.selected.clear();
  S.marked = null;
}

/** Selected cards onto meld ``id``: a swap when one natural card goes onto a joker, else a lay-off. */
export function playOnMeld(id, onJoker, cards) {
  if (S.me == null) return;
  const v = S.view;
  if (!myTurn(v, S.me)) {
    setStatus(playing(v) ? notYourTurn() : "No deal is being played.");
    return;
  }
  if (v.deal.phase === "draw") {
    setStatus("Take a card first: tap the stock or the pile.");
    return;
  }
  if (!cards.length) {
    setStatus(
      onJoker
        ? "Select the card the joker stands for in your hand, then tap the joker."
        : "Select a card in your hand first, then tap the meld.",
    );
    return;
  }
  // the selection stays until the update takes the cards away (a refusal leaves it as it was)
  if (send(meldIntent(id, onJoker, cards))) setStatus("");
}

export function layDown() {
  const cards = selectedCards();
  if (cards.length < 3) {
    setStatus("Select three or more cards for a new meld.");
    return;
  }
  if (send({ type: "lay_down", cards })) setStatus("");
}

export function openWithMeter() {
  const meter = S.view?.hand?.meter;
  if (!meter?.can_open) {
    setStatus(meter?.why ?? "No opening now.");
    return;
  }
  if (send({ type: "open", melds: meter.melds })) setStatus("");
}

export function putBack() {
  if (send({ type: "put_back" })) clearSelection();
}

export function askHint() {
  if (!myTurn(S.view, S.me)) return;
  el.hintLine.hidden = false;
  el.hintLine.textContent = "Thinking…";
  if (!socket?.send({ type: "hint" })) el.hintLine.textContent = "Not connected to the table.";
}

export function onHint(msg) {
  el.hintLine.hidden = false;
  el.hintLine.textContent = msg.text;
  S.hintVersion = msg.version;
}
