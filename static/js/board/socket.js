// The game's websocket (docs/protocol.md): connecting, reconnecting with backoff,
// keep-alive pings, and client message ids. It knows the protocol's shapes, not the
// board: every message it receives goes to `onMessage`. The live leaderboard
// (board-live.js) uses it too, for the reconnecting and the pings only.

const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 15000;
const PING_MS = 25000; // idle proxies drop quiet sockets after ~30-60 s
// Closes that no retry can fix: not signed in, not allowed, no such game.
const FATAL_CLOSES = new Set([4401, 4403, 4404]);

/** A prefix unique to this page load, so ids never collide with another tab's. */
function randomPrefix() {
  const bytes = new Uint8Array(4);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class GameSocket {
  /**
   * @param {string} url  ws(s)://host/ws/games/<id>/
   * @param {{onMessage(msg: any): void, onStatus(status: string, closeCode?: number): void, onOpen?(): void}} hooks
   *   onMessage(msg), onStatus("connecting"|"connected"|"reconnecting"|"offline", closeCode), onOpen()
   * @param {{backoffStartMs?: number, backoffMaxMs?: number}} [backoff]  first and longest wait between retries, in ms
   */
  constructor(url, hooks, { backoffStartMs = BACKOFF_START_MS, backoffMaxMs = BACKOFF_MAX_MS } = {}) {
    this.url = url;
    this.hooks = hooks;
    this.ws = null;
    this.backoffStart = backoffStartMs;
    this.backoffMax = backoffMaxMs;
    this.backoff = backoffStartMs;
    this.retryTimer = null;
    this.pingTimer = null;
    this.stopped = false;
    this.prefix = randomPrefix();
    this.counter = 0;
    // Actions sent (or waiting to be) and not yet answered, by id, in order. After a
    // reconnect they are sent again with the SAME id: the server applies an id once.
    this.unanswered = new Map();
    window.addEventListener("online", () => this.retryNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.retryNow();
    });
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  nextId() {
    this.counter += 1;
    return `${this.prefix}-${this.counter}`;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.backoff = this.backoffStart;
      this.hooks.onStatus("connected");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return; // the server only sends JSON; ignore anything else
      }
      if (msg.type === "refused" || msg.type === "accepted") this.unanswered.delete(msg.id);
      this.hooks.onMessage(msg);
    });
    ws.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return; // an old socket closing after a newer one opened
      this.ws = null;
      if (FATAL_CLOSES.has(event.code)) {
        this.stopped = true;
        this.hooks.onStatus("offline", event.code);
        return;
      }
      if (!this.stopped) this.scheduleRetry();
    });
    // "error" is always followed by "close", where the retry is scheduled.
  }

  scheduleRetry() {
    this.hooks.onStatus(navigator.onLine === false ? "offline" : "reconnecting");
    // Jitter, so a server restart is not met by every client in the same millisecond.
    const wait = this.backoff * (0.7 + Math.random() * 0.6);
    this.backoff = Math.min(this.backoff * 2, this.backoffMax);
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  /** Reconnect at once (the network is back, the tab is visible again). */
  retryNow() {
    if (this.stopped || this.ws !== null) return;
    this.backoff = this.backoffStart;
    this.connect();
  }

  send(message) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Send an action (move, undo, resign), remembering it until it is answered. */
  act(message) {
    const full = { id: this.nextId(), ...message };
    this.unanswered.set(full.id, full);
    this.send(full);
    return full.id;
  }

  /** After the hello of a new connection: what was never answered goes out again. */
  resendUnanswered() {
    for (const message of this.unanswered.values()) this.send(message);
  }

  hasUnanswered() {
    return this.unanswered.size > 0;
  }
}
