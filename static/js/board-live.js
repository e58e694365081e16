// The live daily board: a socket says "the board changed"; this re-fetches the rows
// (and the player's own position) over HTTP and swaps them in. The socket carries no
// board data, so a missed message costs nothing: every (re)connect re-fetches too.
// Loaded as a module (deferred, strict); no build step. The socket is the game board's
// (reconnecting with backoff and jitter, keep-alive pings, no retry after a 4404).

import { GameSocket } from "./board/socket.js";

const MIN_INTERVAL_MS = 1000; // at most one re-fetch a second, however busy the board
// A leaderboard is less urgent than a game: back off further between retries.
const BACKOFF = { backoffStartMs: 1000, backoffMaxMs: 30000 };

const root = document.querySelector("[data-board-live]");
if (root) {
  start(root);
}

function start(root) {
  const label = root.querySelector(".board-live__label");
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socketUrl = `${scheme}//${location.host}${root.dataset.socketPath}`;
  let lastFetch = 0;
  let timer = null;
  let fetching = false;
  let again = false;

  root.hidden = false;

  function show(live) {
    root.classList.toggle("is-live", live);
    label.textContent = live ? root.dataset.labelLive : root.dataset.labelOffline;
  }

  // Debounce: coalesce any burst of changes into one re-fetch, no sooner than a second
  // after the previous one; a change during a fetch schedules one more afterwards.
  function schedule() {
    if (fetching) {
      again = true;
      return;
    }
    if (timer !== null) return;
    const wait = Math.max(0, lastFetch + MIN_INTERVAL_MS - Date.now());
    timer = setTimeout(refresh, wait);
  }

  async function refresh() {
    timer = null;
    fetching = true;
    lastFetch = Date.now();
    try {
      await swap(root.dataset.rowsUrl, "#board-rows", true);
      if (document.getElementById("board-position")) {
        await swap(root.dataset.positionUrl, "#board-position", false);
      }
    } catch (err) {
      // A failed fetch leaves the old rows; the next change (or reconnect) tries again.
      console.warn("board refresh failed", err);
    } finally {
      fetching = false;
      if (again) {
        again = false;
        schedule();
      }
    }
  }

  async function swap(url, selector, whole) {
    const response = await fetch(url, {
      credentials: "same-origin",
      headers: { Accept: "text/html" },
    });
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    const html = await response.text();
    const target = document.querySelector(selector);
    if (!target) return;
    if (whole) {
      // A <template> parses a bare <tbody> correctly (a <div> would drop it).
      const template = document.createElement("template");
      template.innerHTML = html;
      const fresh = template.content.querySelector(selector);
      if (fresh) target.replaceWith(fresh);
    } else {
      target.innerHTML = html;
    }
  }

  const socket = new GameSocket(
    socketUrl,
    {
      onStatus(status) {
        const live = status === "connected";
        show(live);
        if (live) schedule(); // catch up on whatever changed while we were away
      },
      onMessage(message) {
        if (message.type === "board") schedule();
      },
    },
    BACKOFF,
  );

  show(false);
  socket.start();
}
