// Small DOM helpers shared by the pages.

/** h("button.primary#go", {onclick, "aria-label": ...}, "text", child, ...) */
export function h(spec, attrs = {}, ...children) {
  const m = /^([a-z0-9-]+)?((?:[.#][\w-]+)*)$/i.exec(spec);
  const el = document.createElement(m?.[1] || "div");
  for (const part of (m?.[2] ?? "").match(/[.#][\w-]+/g) ?? []) {
    if (part[0] === ".") el.classList.add(part.slice(1));
    else el.id = part.slice(1);
  }
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = {};
  }
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v == null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "class") el.className = v;
    else if (k in el && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export const $ = (sel, root = document) => root.querySelector(sel);

export const PRESET_TITLES = {
  nepali: "Nepali rummy",
  indian: "Indian rummy",
  kerala: "Kerala pool (250)",
  pool101: "Pool 101",
  pool201: "Pool 201",
  deals: "Deals rummy",
  maharashtra: "Maharashtra rummy",
  "north-indian": "North Indian rummy",
  rummy40: "Rummy 40",
  remi51: "Remi 51",
};

export function presetTitle(name) {
  return PRESET_TITLES[name] ?? name;
}

/** A modal question with buttons; resolves to the chosen button's value (null: dismissed). */
export function ask({ title, text, buttons }) {
  return new Promise((resolve) => {
    const dlg = h("dialog.ask", { "aria-labelledby": "ask-title" });
    const form = h("form", { method: "dialog" });
    form.append(h("h2#ask-title", title));
    if (text) form.append(h("p", text));
    const row = h("div.ask-buttons");
    for (const b of buttons) {
      row.append(
        h(`button.${b.kind ?? "plain"}`, { type: "submit", value: b.value, "data-value": b.value }, b.label),
      );
    }
    form.append(row);
    dlg.append(form);
    document.body.append(dlg);
    dlg.addEventListener("close", () => {
      const v = dlg.returnValue;
      dlg.remove();
      resolve(v || null);
    });
    dlg.showModal();
    const first = buttons.findIndex((b) => b.autofocus);
    const btns = row.querySelectorAll("button");
    (btns[first >= 0 ? first : 0] ?? btns[0])?.focus();
  });
}

/** Copy text, with a fallback for pages that are not a secure context. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = h("textarea", { style: "position:fixed;opacity:0" }, text);
    document.body.append(ta);
    ta.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    ta.remove();
    return ok;
  }
}

/** Links this browser created (their tokens are shown once; keep them here). */
export const saved = {
  key: "rummykit.tables",
  list() {
    try {
      return JSON.parse(localStorage.getItem(this.key) ?? "[]");
    } catch {
      return [];
    }
  },
  add(entry) {
    const all = this.list().filter((e) => e.match_id !== entry.match_id);
    all.unshift(entry);
    try {
      localStorage.setItem(this.key, JSON.stringify(all.slice(0, 20)));
    } catch {
      /* private mode: nothing kept */
    }
  },
};

/** Tokens of the tables this browser opened (a seat's or the watch link's), newest first: the
 *  history page asks for the matches they open (the server lists nobody else's). */
export const opened = {
  key: "rummykit.opened",
  list() {
    try {
      return JSON.parse(localStorage.getItem(this.key) ?? "[]") ?? [];
    } catch {
      return [];
    }
  },
  add(token) {
    if (!token) return;
    const all = [token, ...this.list().filter((t) => t !== token)].slice(0, 100);
    try {
      localStorage.setItem(this.key, JSON.stringify(all));
    } catch {
      /* private mode: nothing kept */
    }
  },
};

/** Every table token this browser holds: those it opened, and the links of the tables it made. */
export function tableTokens() {
  const out = [...opened.list()];
  for (const e of saved.list()) {
    for (const s of e.seats ?? []) out.push(new URL(s.invite, location.href).searchParams.get("seat_token"));
    if (e.watch) out.push(new URL(e.watch, location.href).searchParams.get("token"));
  }
  return [...new Set(out.filter(Boolean))].slice(0, 100);
}

export function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
