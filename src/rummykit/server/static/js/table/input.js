// The pointer and the keys: a tap, a drag onto the pile or a meld, a drag within the hand (mouse
// and touch alike), the arrows along the hand.
import { el } from "./dom.js";
import { playOnMeld, selectedCards, tap, tryThrow, moveStep, moveTo, unmark } from "./play.js";
import { focusCard } from "./render.js";
import { S } from "./state.js";
import { entryOf } from "./hand.js";
import { tableGame } from "./view.js";

let drag = null;
let suppressClick = false;

function dropIndexAt(x, y, uid) {
  const buttons = [...el.hand.querySelectorAll("button.card")].filter((b) => Number(b.dataset.uid) !== uid);
  let after = null;
  for (const b of buttons) {
    const r = b.getBoundingClientRect();
    if (y < r.top - 14 || y > r.bottom + 14) continue;
    const idx = S.layout.order.findIndex((e) => e.uid === Number(b.dataset.uid));
    if (x < r.left + r.width / 2) return idx;
    after = idx + 1;
  }
  return after ?? S.layout.order.length;
}

function overPile(x, y) {
  const r = el.pileZone.getBoundingClientRect();
  const pad = 16;
  return x >= r.left - pad && x <= r.right + pad && y >= r.top - pad && y <= r.bottom + pad;
}

function overHand(x, y) {
  const r = el.hand.getBoundingClientRect();
  return x >= r.left - 10 && x <= r.right + 10 && y >= r.top - 30 && y <= r.bottom + 30;
}

/** The meld (and whether its joker) under a point, for a card dragged out of the hand. */
function meldAt(x, y) {
  if (!tableGame(S.view) || el.melds.hidden) return null;
  const area = el.melds.getBoundingClientRect();
  if (y < area.top || y > area.bottom) return null; // a meld scrolled out of the melds' box
  for (const box of el.melds.querySelectorAll(".meld")) {
    const r = box.getBoundingClientRect();
    if (x >= r.left - 6 && x <= r.right + 6 && y >= r.top - 6 && y <= r.bottom + 6) {
      let joker = false;
      for (const j of box.querySelectorAll(".joker-slot")) {
        const q = j.getBoundingClientRect();
        if (x >= q.left && x <= q.right && y >= q.top && y <= q.bottom) joker = true;
      }
      return { id: Number(box.dataset.meld), box, joker };
    }
  }
  return null;
}

function clearDropMarks() {
  for (const b of el.hand.querySelectorAll(".insert-before, .insert-after")) b.classList.remove("insert-before", "insert-after");
}

function onPointerDown(ev) {
  const b = ev.target.closest("button.card");
  if (!b || !el.hand.contains(b) || (ev.pointerType === "mouse" && ev.button !== 0)) return;
  suppressClick = false;
  drag = {
    uid: Number(b.dataset.uid),
    button: b,
    x0: ev.clientX,
    y0: ev.clientY,
    id: ev.pointerId,
    pointerType: ev.pointerType,
    started: false,
    ghost: null,
  };
  try {
    b.setPointerCapture(ev.pointerId);
  } catch {
    /* not capturable: still works without */
  }
}

function onPointerMove(ev) {
  if (!drag || ev.pointerId !== drag.id) return;
  const dx = ev.clientX - drag.x0;
  const dy = ev.clientY - drag.y0;
  if (!drag.started) {
    if (Math.hypot(dx, dy) < 8) return;
    drag.started = true;
    const r = drag.button.getBoundingClientRect();
    drag.offX = drag.x0 - r.left;
    drag.offY = drag.y0 - r.top;
    const ghost = drag.button.cloneNode(true);
    ghost.removeAttribute("id");
    ghost.classList.add("ghost");
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.width = `${r.width}px`;
    ghost.style.height = `${r.height}px`;
    document.body.append(ghost);
    drag.ghost = ghost;
    drag.button.classList.add("dragging");
    el.table.classList.add("dragging-card");
  }
  ev.preventDefault();
  drag.ghost.style.transform = `translate(${ev.clientX - drag.offX}px, ${ev.clientY - drag.offY}px) rotate(-4deg)`;
  const onPile = overPile(ev.clientX, ev.clientY);
  el.pileZone.classList.toggle("drag-over", onPile);
  clearDropMarks();
  const over = onPile ? null : meldAt(ev.clientX, ev.clientY);
  for (const box of el.melds.querySelectorAll(".meld.drag-over")) box.classList.remove("drag-over");
  if (over) over.box.classList.add("drag-over");
  if (!onPile && overHand(ev.clientX, ev.clientY)) {
    const order = S.layout.order;
    const idx = dropIndexAt(ev.clientX, ev.clientY, drag.uid);
    const target = order[idx];
    if (target && target.uid !== drag.uid) {
      el.hand.querySelector(`button.card[data-uid="${target.uid}"]`)?.classList.add("insert-before");
    } else if (!target && order.length) {
      const last = order[order.length - 1];
      if (last.uid !== drag.uid) el.hand.querySelector(`button.card[data-uid="${last.uid}"]`)?.classList.add("insert-after");
    }
  }
}

function endDrag(ev, cancelled) {
  if (!drag || ev.pointerId !== drag.id) return;
  const d = drag;
  drag = null;
  el.pileZone.classList.remove("drag-over");
  el.table.classList.remove("dragging-card");
  clearDropMarks();
  for (const box of el.melds.querySelectorAll(".meld.drag-over")) box.classList.remove("drag-over");
  if (!d.started) return; // a tap: the click that follows handles it
  suppressClick = true;
  setTimeout(() => (suppressClick = false), 400);
  d.ghost?.remove();
  d.button.classList.remove("dragging");
  if (cancelled) return;
  // act after the touch ends: redrawing the hand under a finger that is still down would take
  // the touch's target away, and the browser would then make no click of the next tap
  const x = ev.clientX;
  const y = ev.clientY;
  const meld = overPile(x, y) ? null : meldAt(x, y);
  if (overPile(x, y)) {
    if (S.me != null) setTimeout(() => tryThrow(d.uid), 0);
  } else if (meld) {
    // a dragged card carries the selection it belongs to, else itself
    const dragged = entryOf(S.layout, d.uid);
    const cards = S.selected.has(d.uid) && S.selected.size > 1 ? selectedCards() : dragged ? [dragged.card] : [];
    if (S.me != null) setTimeout(() => playOnMeld(meld.id, meld.joker, cards), 0);
  } else if (overHand(x, y)) {
    const to = dropIndexAt(x, y, d.uid);
    setTimeout(() => {
      moveTo(d.uid, to);
      if (d.pointerType !== "touch") focusCard(d.uid);
    }, 0);
  }
}

function onHandClick(ev) {
  const b = ev.target.closest("button.card");
  if (!b) return;
  if (suppressClick) {
    suppressClick = false;
    ev.preventDefault();
    return;
  }
  tap(Number(b.dataset.uid));
}

function onHandKey(ev) {
  const b = ev.target.closest("button.card");
  if (!b) return;
  const uid = Number(b.dataset.uid);
  const order = S.layout.order;
  const i = order.findIndex((e) => e.uid === uid);
  const shiftish = ev.shiftKey || ev.altKey || ev.ctrlKey || ev.metaKey;
  if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
    ev.preventDefault();
    const delta = ev.key === "ArrowLeft" ? -1 : 1;
    if (shiftish) moveStep(uid, delta);
    else {
      const next = order[i + delta];
      if (next) focusCard(next.uid);
    }
  } else if (ev.key === "Home" || ev.key === "End") {
    ev.preventDefault();
    const next = ev.key === "Home" ? order[0] : order[order.length - 1];
    if (next) focusCard(next.uid);
  } else if (ev.key === "Escape") {
    unmark();
    focusCard(uid);
  }
}

function onMeldClick(ev) {
  const b = ev.target.closest("button.mcard");
  if (!b) return;
  playOnMeld(Number(b.dataset.meld), b.classList.contains("joker-slot"), selectedCards());
}

export function wireHand() {
  el.hand.addEventListener("pointerdown", onPointerDown);
  el.hand.addEventListener("pointermove", onPointerMove);
  el.hand.addEventListener("pointerup", (ev) => endDrag(ev, false));
  el.hand.addEventListener("pointercancel", (ev) => endDrag(ev, true));
  el.hand.addEventListener("click", onHandClick);
  el.hand.addEventListener("keydown", onHandKey);
  el.hand.addEventListener("dragstart", (ev) => ev.preventDefault());
  el.melds.addEventListener("click", onMeldClick);
}
