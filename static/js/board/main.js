// The board page's glue: read the embedded state, draw it, connect the socket, apply
// what the server accepted (and nothing else: no optimistic moves), and wire the
// buttons, the timer, the live description and the result dialog.

import { suitName } from "./cards.js";
import { describeAction, describeBoard } from "./describe.js";
import { setStrings, t } from "./i18n.js";
import { Input } from "./input.js";
import { BoardView } from "./render.js";
import { GameSocket } from "./socket.js";

const MAX_QUEUED = 3; // taps beyond this while the server is busy are dropped, not stacked up
const REMINDER_MS = 4000;
const FOUR_COLOUR_KEY = "ft-four-colour";
const HINT_SHOWN_MS = 2500; // how long a hint's source and target stay marked

const root = document.querySelector("[data-board]");
if (root) start(root);

function readJson(id) {
  const el = document.getElementById(id);
  return el ? JSON.parse(el.textContent) : null;
}

function start(root) {
  const config = readJson("board-config") || {};
  setStrings(config.strings);
  let game = normalise(readJson("game-state"));
  const role = game.role;
  const view = new BoardView(root);
  // The server's clock minus ours: the timer counts in server time.
  const skew = config.server_now ? Date.parse(config.server_now) - Date.now() : 0;
  const serverNow = () => Date.now() + skew;

  const reminder = root.querySelector('[data-testid="reminder"]');
  const description = root.querySelector('[data-testid="description"]');
  const connection = root.querySelector('[data-testid="connection"]');
  const timeEl = root.querySelector('[data-stat="time"] time');
  const resultDialog = root.querySelector('[data-testid="result"]');
  const confirmDialog = root.querySelector('[data-testid="confirm-resign"]');
  const deadEnd = root.querySelector('[data-testid="dead-end"]');
  const hintButton = root.querySelector('[data-action="hint"]');

  // Drawing and the timer ----------------------------------------------------

  view.render(game, { animate: false });
  window.addEventListener("resize", () => view.fitColumns());

  function tick() {
    const first = game.first_action_at ? Date.parse(game.first_action_at) : null;
    const end = game.finished_at ? Date.parse(game.finished_at) : serverNow();
    const seconds = first ? Math.max(0, Math.floor((end - first) / 1000)) : 0;
    timeEl.textContent = clock(seconds);
    timeEl.setAttribute("datetime", `PT${seconds}S`);
    return seconds;
  }
  tick();
  setInterval(tick, 1000);

  // Messages to the player ---------------------------------------------------

  let reminderTimer = null;
  function remind(text) {
    reminder.textContent = text;
    reminder.classList.add("is-shown");
    clearTimeout(reminderTimer);
    reminderTimer = setTimeout(() => reminder.classList.remove("is-shown"), REMINDER_MS);
  }

  function announce(text) {
    // Re-setting the same text would not be read again; a blank first makes it news.
    description.textContent = "";
    requestAnimationFrame(() => {
      description.textContent = text;
    });
  }

  const STATUS_WORDS = {
    connecting: "Connecting…",
    connected: "Connected",
    reconnecting: "Reconnecting…",
    offline: "Offline",
  };
  function showConnection(status, code) {
    connection.dataset.state = status;
    let text = t(STATUS_WORDS[status]);
    if (code === 4404) text = `${t("Offline")}: ${t("This game no longer exists.")}`;
    else if (code === 4401 || code === 4403) text = `${t("Offline")}: ${t("You cannot open this game here.")}`;
    connection.textContent = text;
  }

  // Applying the server's word ----------------------------------------------

  /** Take a whole state (hello, state): the server's board replaces ours. */
  function replaceState(next) {
    const finishedBefore = game.status !== "active";
    game = normalise({ ...next, role });
    view.render(game, { selection: input?.selection });
    tick();
    showDeadEnd();
    if (!finishedBefore && game.status !== "active") showResult();
  }

  /**
   * One accepted action (ours, or from anyone, to everyone): applied once, in order.
   * A version we have is ignored; a gap means we missed one, so ask for the state.
   */
  function applyAction(msg) {
    if (typeof msg.version !== "number" || msg.version <= game.version) return;
    if (msg.version > game.version + 1 || !msg.changes) {
      requestSync();
      return;
    }
    const before = game;
    const board = { ...before.board };
    const changes = msg.changes;
    if (changes.columns) {
      board.columns = board.columns.slice();
      for (const [i, column] of Object.entries(changes.columns)) board.columns[Number(i)] = column;
    }
    if (changes.foundations) {
      board.foundations = board.foundations.slice();
      for (const [i, f] of Object.entries(changes.foundations)) board.foundations[Number(i)] = f;
    }
    for (const key of ["waste", "stock", "redeals_left", "won", "stuck", "can_undo"]) {
      if (key in changes) board[key] = changes[key];
    }
    board.score = msg.score;
    board.moves = msg.moves;
    const next = {
      ...before,
      board,
      version: msg.version,
      score: msg.score,
      moves: msg.moves,
      status: msg.status,
      legal_moves: changes.legal_moves ?? before.legal_moves,
      // Proved by the server's solver only (never guessed here); false when undecided.
      dead_end: changes.dead_end ?? false,
      // The timer starts at the first action and stops at the last, in server time.
      first_action_at: before.first_action_at ?? new Date(serverNow()).toISOString(),
      finished_at: before.finished_at ?? (msg.status !== "active" ? new Date(serverNow()).toISOString() : null),
    };
    game = normalise(next);
    view.render(game);
    tick();
    clearHint();
    showDeadEnd();
    announce(describeAction(msg.action, before, game));
    if (before.status === "active" && game.status !== "active") showResult();
  }

  let syncAsked = false;
  function requestSync() {
    if (syncAsked) return;
    syncAsked = socket.send({ type: "sync", version: game.version });
  }

  // Sending actions: one at a time, each with the version it was chosen at ------

  const queue = [];
  let inFlight = null;

  function enqueue(message, callbacks = {}) {
    if (role !== "player" || game.status !== "active") return;
    if (queue.length >= MAX_QUEUED) {
      callbacks.onRefused?.();
      return;
    }
    queue.push({ message, callbacks });
    pump();
  }

  function pump() {
    if (inFlight || !queue.length || !socket.isOpen) return;
    const item = queue.shift();
    const message = { ...item.message };
    if (message.type !== "resign") message.version = game.version;
    item.id = socket.act(message);
    inFlight = item;
  }

  function answered(msg) {
    if (!inFlight || msg.id !== inFlight.id) return null;
    const item = inFlight;
    inFlight = null;
    return item;
  }

  // The socket ---------------------------------------------------------------

  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new GameSocket(`${scheme}//${location.host}${config.socket_path}`, {
    onStatus: showConnection,
    onMessage(msg) {
      switch (msg.type) {
        case "hello":
          syncAsked = false;
          // A hint asked on the previous connection will not be answered: ask again.
          hintPending = null;
          updateHintButton();
          if (msg.game && msg.game.version !== game.version) replaceState(msg.game);
          // As the protocol's example: tell the server which version we hold.
          socket.send({ type: "sync", version: game.version });
          syncAsked = true;
          socket.resendUnanswered();
          pump();
          break;
        case "state":
          syncAsked = false;
          replaceState(msg.game);
          break;
        case "synced":
          syncAsked = false;
          break;
        case "accepted": {
          const item = answered(msg);
          item?.callbacks.onAccepted?.();
          if (msg.duplicate) {
            if (msg.version > game.version) requestSync();
          } else {
            applyAction(msg);
          }
          pump();
          break;
        }
        case "action":
          applyAction(msg);
          break;
        case "hint":
          hintAnswered(msg);
          break;
        case "refused": {
          if (hintPending && msg.id === hintPending) {
            hintPending = null;
            updateHintButton();
            if (msg.reason) remind(msg.reason);
            break;
          }
          const item = answered(msg);
          item?.callbacks.onRefused?.();
          if (msg.code === "stale_version") {
            remind(t("The board was out of date and has been refreshed."));
            requestSync();
          } else if (msg.reason) {
            remind(msg.reason);
          }
          pump();
          break;
        }
        default:
          break; // pong, and anything newer than this page
      }
    },
  });
  socket.start();

  // Buttons ------------------------------------------------------------------

  const controller = {
    get: () => game,
    play: (move, callbacks) => enqueue({ type: "move", move }, callbacks),
    draw() {
      // An empty stock with a redeal left turns the waste over; otherwise a draw
      // (sent even on an empty stock: the server says why not).
      const move = game.board.stock === 0 && game.legal_moves.includes("r") ? "r" : "s";
      enqueue({ type: "move", move });
    },
    undo() {
      if (game.mode === "practice") enqueue({ type: "undo" });
    },
    selected(selection) {
      announce(selection ? t("Selected %(pile)s. Choose where it goes.", { pile: pileTitle(selection.pile, game) }) : t("Selection cancelled."));
    },
  };

  let input = null;
  if (role === "player") {
    // Watchers get no input handlers at all: the board is theirs to look at only.
    input = new Input(view, controller);
    root.querySelector('[data-action="undo"]')?.addEventListener("click", () => controller.undo());
    root.querySelector('[data-action="resign"]')?.addEventListener("click", () => {
      if (confirmDialog?.showModal) confirmDialog.showModal();
      else if (window.confirm(confirmDialog?.textContent.trim() || "Resign?")) enqueue({ type: "resign" });
    });
    confirmDialog?.addEventListener("close", () => {
      if (confirmDialog.returnValue === "resign") enqueue({ type: "resign" });
    });
  }
  // Hints (practice only): the server's solver picks a legal move; the board marks its
  // source and target for a moment and plays nothing.

  let hintPending = null;
  let hintTimer = null;
  let hintMarked = [];

  function updateHintButton() {
    if (hintButton) hintButton.disabled = game.status !== "active" || Boolean(hintPending);
  }

  function askHint() {
    if (role !== "player" || !game.solver_help || game.status !== "active" || hintPending) return;
    const id = `hint-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    if (!socket.send({ type: "hint", id })) return;
    hintPending = id;
    updateHintButton();
  }

  /** The piles a move names: "t3-f1" -> t3, f1; "w-t10x2" -> w, t10; "s" and "r" -> stock. */
  function movePiles(move) {
    if (move === "s" || move === "r") return ["stock"];
    const [source, rest = ""] = move.split("-");
    return [source, rest.split("x")[0]].filter(Boolean);
  }

  function clearHint() {
    clearTimeout(hintTimer);
    for (const el of hintMarked) {
      el.style.outline = "";
      el.style.outlineOffset = "";
      el.removeAttribute("data-hint");
    }
    hintMarked = [];
  }

  function hintAnswered(msg) {
    if (msg.id !== hintPending) return;
    hintPending = null;
    updateHintButton();
    game = { ...game, hints: msg.hints };
    clearHint();
    if (!msg.move) {
      remind(t("No hint: there is no move to make."));
      return;
    }
    const [source, target] = movePiles(msg.move);
    for (const [name, end] of [[source, "source"], [target, "target"]]) {
      const el = name ? view.pile(name) : null;
      if (!el) continue;
      el.style.outline = end === "source" ? "3px dashed #e0a800" : "3px solid #e0a800";
      el.style.outlineOffset = "2px";
      el.setAttribute("data-hint", end);
      hintMarked.push(el);
    }
    const words = source && target && source !== "stock"
      ? t("Hint: from %(src)s to %(dst)s.", { src: pileTitle(source, game), dst: pileTitle(target, game) })
      : msg.move === "r" ? t("Hint: turn the waste over.") : t("Hint: draw a card.");
    remind(words);
    announce(words);
    hintTimer = setTimeout(clearHint, HINT_SHOWN_MS);
  }

  // The dead-end notice: shown once the server proved no win is left; offers to resign.
  function showDeadEnd() {
    if (!deadEnd) return;
    const shown = Boolean(game.dead_end) && game.status === "active";
    const wasHidden = deadEnd.hidden;
    deadEnd.hidden = !shown;
    if (shown && wasHidden) announce(t("No win is possible any more from here."));
    updateHintButton();
  }

  if (role === "player") {
    hintButton?.addEventListener("click", askHint);
    document.addEventListener("keydown", (e) => {
      if (e.key === "h" && !e.ctrlKey && !e.metaKey && !e.altKey && !e.target.closest?.("input, textarea")) askHint();
    });
    deadEnd?.querySelector('[data-action="end-game"]')?.addEventListener("click", () => {
      if (confirmDialog?.showModal) confirmDialog.showModal();
      else enqueue({ type: "resign" });
    });
  }
  showDeadEnd();
  updateHintButton();

  root.querySelector('[data-action="describe"]')?.addEventListener("click", () => announce(describeBoard(game)));

  const fourColour = root.querySelector('[data-action="four-colour"]');
  function setFourColour(on) {
    root.classList.toggle("four-colour", on);
    fourColour?.setAttribute("aria-pressed", String(on));
  }
  setFourColour(storageGet(FOUR_COLOUR_KEY) === "1");
  fourColour?.addEventListener("click", () => {
    const on = !root.classList.contains("four-colour");
    setFourColour(on);
    storageSet(FOUR_COLOUR_KEY, on ? "1" : "0");
  });

  // The result ---------------------------------------------------------------

  let shareLoaded = false;
  function showResult() {
    if (!resultDialog) return;
    const mine = role === "player";
    const titles = mine
      ? { won: t("You won!"), lost: t("Game over"), resigned: t("Resigned") }
      : { won: t("%(player)s won", { player: game.player }), lost: t("Game over"), resigned: t("%(player)s resigned", { player: game.player }) };
    resultDialog.querySelector('[data-result="title"]').textContent = titles[game.status] || t("Game over");
    resultDialog.querySelector('[data-result="line"]').textContent = game.status === "lost" ? t("No more moves: the game is lost.") : "";
    resultDialog.querySelector('[data-result="score"]').textContent = String(game.score);
    resultDialog.querySelector('[data-result="moves"]').textContent = String(game.moves);
    resultDialog.querySelector('[data-result="time"]').textContent = clock(tick());
    const hintsEl = resultDialog.querySelector('[data-result="hints"]');
    if (hintsEl) hintsEl.textContent = String(game.hints ?? 0);
    resultDialog.dataset.status = game.status;
    if (config.share_url && mine && !shareLoaded) loadShare();
    if (!resultDialog.open) resultDialog.showModal?.();
  }

  async function loadShare() {
    shareLoaded = true;
    const block = resultDialog.querySelector('[data-result="share"]');
    try {
      const response = await fetch(config.share_url, { credentials: "same-origin", headers: { Accept: "text/plain" } });
      // 404 (not built yet, or no share text for this game): no share block at all.
      if (!response.ok) return;
      resultDialog.querySelector('[data-result="share-text"]').textContent = (await response.text()).trim();
      block.hidden = false;
    } catch {
      /* offline: the result stands without its share text */
    }
  }

  resultDialog?.querySelector('[data-action="copy-share"]')?.addEventListener("click", async () => {
    const text = resultDialog.querySelector('[data-result="share-text"]').textContent;
    const status = resultDialog.querySelector('[data-result="copied"]');
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = t("Copied.");
    } catch {
      status.textContent = t("Copy failed: select the text and copy it.");
    }
  });

  // A finished game opens on its result (a reload, a link from "My games").
  if (game.status !== "active") showResult();
}

/** Fill what a state leaves to inference, so the rest of the code can trust it. */
function normalise(game) {
  const finished = game.status !== "active";
  return {
    ...game,
    legal_moves: finished ? [] : game.legal_moves || [],
    can_undo: game.mode === "practice" && !finished && Boolean(game.board?.can_undo),
  };
}

function pileTitle(pile, game) {
  if (pile === "w") return t("the waste");
  if (pile[0] === "t") return t("column %(n)s", { n: Number(pile.slice(1)) });
  const f = game.board.foundations[Number(pile.slice(1)) - 1];
  return t("foundation %(n)s (%(suit)s)", { n: Number(pile.slice(1)), suit: f ? suitName(f.suit) : "" });
}

/** 75 -> "1:15", 3725 -> "1:02:05". */
function clock(seconds) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

// localStorage may be unavailable (privacy modes): the toggle then lasts the page.
function storageGet(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function storageSet(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    /* ignore */
  }
}
