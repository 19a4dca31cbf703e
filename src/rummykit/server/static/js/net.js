// The HTTP API and the table's WebSocket, as docs/protocol.md describes them.

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error ?? `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** JSON from the API; an error answer raises ApiError carrying the server's reason. */
export async function api(path, { method = "GET", body, headers = {} } = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  let data = null;
  try {
    data = await r.json();
  } catch {
    data = null;
  }
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
}

const VERSIONED = new Set(["draw", "throw", "show", "drop", "open", "lay_down", "lay_off", "swap", "put_back"]);

// Close codes after which reconnecting cannot help (docs/protocol.md, "Connection states").
const FINAL_CLOSES = {
  4403: "This link opens nothing at this table.",
  4404: "There is no such table.",
  4409: "This seat was opened in another window.",
  4410: "This table was closed: it waited too long for its players. Set up a new one in the lobby.",
};

/**
 * One table's socket: hello with the token and the last version seen, events applied in version
 * order, a gap or a dropped connection answered by a new hello with last_version (the server
 * sends what was missed, or the full state), reconnection with backoff.
 *
 * Handlers (all optional): onView({view, version, events, catchup, id, kind}), onPresence(msg),
 * onError(msg), onWelcome(msg), onHint(msg), onConnection(state, detail) with state one of
 * "connecting" | "open" | "reconnecting" | "closed".
 */
export class TableSocket {
  constructor({ matchId, seatToken = null, watchToken = null, lastVersion = null, handlers = {} }) {
    this.matchId = matchId;
    this.seatToken = seatToken;
    this.watchToken = watchToken;
    this.version = lastVersion; // the version of the last view applied
    this.handlers = handlers;
    this.ws = null;
    this.attempt = 0;
    this.nextId = 1;
    this.stopped = false;
    this.timer = null;
    this.pingTimer = null;
    this.ready = false; // welcome received and the first view applied
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.matchId)}`;
  }

  emit(name, ...args) {
    const fn = this.handlers[name];
    if (fn) fn(...args);
  }

  connect() {
    this.stopped = false;
    clearTimeout(this.timer);
    this.emit("onConnection", this.attempt ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.ready = false;
    ws.onopen = () => {
      const hello = { type: "hello" };
      if (this.seatToken) hello.seat_token = this.seatToken;
      else hello.watch_token = this.watchToken;
      if (this.version != null) hello.last_version = this.version;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (ev) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.ready = false;
      clearInterval(this.pingTimer);
      if (this.stopped) return;
      const final = FINAL_CLOSES[ev.code];
      if (final) {
        this.stopped = true;
        this.emit("onConnection", "closed", { code: ev.code, reason: final });
        return;
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  scheduleReconnect(delay = null) {
    if (this.stopped) return;
    this.attempt += 1;
    // 0.5 s, 1 s, 2 s, 4 s, 8 s, then every 10 s, each with a little jitter
    const base = delay ?? Math.min(10000, 500 * 2 ** Math.min(this.attempt - 1, 5));
    const wait = delay ?? base * (0.8 + Math.random() * 0.4);
    this.emit("onConnection", "reconnecting", { wait });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  /** Ask again for what was missed: a new socket, hello with last_version. */
  resync() {
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close(1000, "resync");
    this.scheduleReconnect(0);
  }

  receive(msg) {
    switch (msg.type) {
      case "welcome":
        this.attempt = 0;
        this.emit("onWelcome", msg);
        this.emit("onConnection", "open");
        clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => this.raw({ type: "ping" }), 25000);
        return;
      case "state":
        this.version = msg.version;
        this.ready = true;
        this.emit("onView", { kind: "state", view: msg.view, version: msg.version, events: [] });
        return;
      case "update": {
        const events = (msg.events ?? []).slice().sort((a, b) => a.version - b.version);
        if (this.version != null && !msg.catchup) {
          if (msg.version <= this.version) return; // already applied
          const first = events.length ? events[0].version : msg.version;
          if (first > this.version + 1) {
            this.resync(); // a gap: ask for what was missed
            return;
          }
        }
        const fresh = this.version == null ? events : events.filter((e) => e.version > this.version);
        this.version = msg.version;
        this.ready = true;
        this.emit("onView", {
          kind: "update",
          view: msg.view,
          version: msg.version,
          events: fresh,
          catchup: !!msg.catchup,
          id: msg.id,
        });
        return;
      }
      case "presence":
        this.emit("onPresence", msg);
        return;
      case "error":
        this.emit("onError", msg);
        return;
      case "hint":
        this.emit("onHint", msg);
        return;
      default:
        return; // pong and anything newer
    }
  }

  raw(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Send an intent with an id; a move carries the version it was decided on, so a double click
   *  or a replayed message never plays twice (Next round, start and rematch do not: another
   *  seat's Next round at the same moment must not make yours stale).  The id, or null. */
  send(intent) {
    const id = `c${this.nextId++}`;
    const message = { ...intent, id };
    if (this.version != null && VERSIONED.has(intent.type)) message.version = this.version;
    return this.raw(message) ? id : null;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close(1000, "bye");
    this.ws = null;
  }
}
