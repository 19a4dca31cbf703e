// Cards flying between the stock, the pile, the seats and the hand (the Web Animations API,
// nothing when the person prefers reduced motion), and short sounds made with WebAudio (off by
// default; the bar's Sound button turns them on, and this browser remembers).
import { cardBack, fillFace } from "../cards.js";
import { el } from "./dom.js";
import { soundSetting } from "./motion.js";

const SOUND_KEY = "rummykit.sound";
export const counts = { flights: 0, sounds: 0 }; // for people poking at the page, and the tests

const FLIGHT_MS = 280;
const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

function placeElement({ place, seat }, card, after) {
  switch (place) {
    case "stock":
      return el.stock.querySelector(".card") ?? el.stock;
    case "pile":
      return el.pileCard;
    case "seat":
      return el.opponents.querySelector(`.seat[data-seat="${seat}"] .seat-cards`) ?? null;
    case "hand": {
      const all = [...el.hand.querySelectorAll(`button.card[data-card="${card}"]`)];
      if (!after) return all[all.length - 1] ?? null;
      return el.hand.querySelector("button.card.fresh") ?? all[all.length - 1] ?? null;
    }
    default:
      return null;
  }
}

const visible = (r) => r && r.width > 0 && r.height > 0;

/** Before the page redraws: where each flight starts. */
export function takeOff(flights) {
  // the page is about to be redrawn: a card still in the air was headed for the old layout
  for (const ghost of document.querySelectorAll(".card.flying")) ghost.remove();
  if (reducedMotion() || !flights.length) return [];
  return flights.map((f) => {
    const from = placeElement(f.from, f.card, false);
    return { ...f, rect: from?.getBoundingClientRect() ?? null };
  });
}

/** After the redraw: fly a card from where each flight started to where it lands. */
export function land(started) {
  for (const f of started) {
    const target = placeElement(f.to, f.card, true);
    const to = target?.getBoundingClientRect();
    if (!visible(f.rect) || !visible(to)) continue;
    const ghost = f.card ? fillFace(document.createElement("span"), f.card, {}) : cardBack("big");
    ghost.classList.add("flying");
    ghost.setAttribute("aria-hidden", "true");
    Object.assign(ghost.style, { left: `${to.left}px`, top: `${to.top}px`, width: `${to.width}px`, height: `${to.height}px` });
    ghost.style.setProperty("--w", `${to.width}px`);
    document.body.append(ghost);
    const dx = f.rect.left - to.left;
    const dy = f.rect.top - to.top;
    const sx = f.rect.width / to.width;
    const sy = f.rect.height / to.height;
    counts.flights += 1;
    const timing = { duration: FLIGHT_MS, easing: "cubic-bezier(.2,.7,.3,1)" };
    const anim = ghost.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})` }, { transform: "none" }],
      timing,
    );
    // the card it lands on shows when the flight arrives; it stays where it is meanwhile (opacity,
    // not visibility: a finger already on it still takes it)
    if (target && f.to.place !== "seat") {
      target.animate([{ opacity: 0 }, { opacity: 0, offset: 0.95 }, { opacity: 1 }], { duration: FLIGHT_MS });
    }
    const done = () => ghost.remove();
    anim.onfinish = done;
    anim.oncancel = done;
    setTimeout(done, FLIGHT_MS + 250); // a page whose frames stall (in the background) keeps no ghost
  }
}

// ---------------------------------------------------------------------------------------------
// sounds

let audio = null;

export function soundOn() {
  try {
    return soundSetting(localStorage.getItem(SOUND_KEY));
  } catch {
    return false;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    /* private mode: on for this page only */
  }
  if (on && !audio) {
    try {
      audio = new AudioContext(); // made from the button's click: the browser lets it play
    } catch {
      audio = null;
    }
  }
  audio?.resume?.();
}

// each sound: [frequency Hz, seconds, type] notes played one after the other
const NOTES = {
  draw: [[520, 0.05, "triangle"]],
  throw: [[340, 0.07, "triangle"]],
  meld: [
    [440, 0.06, "sine"],
    [660, 0.08, "sine"],
  ],
  turn: [
    [660, 0.08, "sine"],
    [880, 0.12, "sine"],
  ],
  end: [
    [523, 0.1, "sine"],
    [659, 0.1, "sine"],
    [784, 0.16, "sine"],
  ],
};

export function play(kinds) {
  if (!kinds.length || !soundOn()) return;
  if (!audio) {
    try {
      audio = new AudioContext();
    } catch {
      return;
    }
  }
  let t = audio.currentTime + 0.01;
  for (const kind of kinds) {
    for (const [freq, length, type] of NOTES[kind] ?? []) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.12, t + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + length + 0.02);
      t += length;
    }
    counts.sounds += 1;
  }
}
