// The board page's entry point: read the embedded state, draw it, connect the socket and
// route the server's messages to the parts that handle them. The board shows what the
// server accepted and nothing else (no optimistic moves).
//
// The parts, one job each: state.js (the state and its versions, pure), changes.js
// (applying the server's changes, pure), moves.js (reading the notation and deciding
// taps, pure), queue.js (one action in flight), input.js (gestures and keys), hints.js,
// notices.js (messages to the player), result.js (the result dialog; story.js a ranked
// game's story in it, story-words.js its words, pure), controls.js (buttons), render.js
// (drawing), socket.js (the websocket), describe.js (the board in words), reminders.js
// (refusals in the player's words), finish.js (the finish), settings.js (the table's
// settings panel; settings-state.js, pure).

import { wirePlayerControls, wireViewControls } from "./controls.js";
import { describeAction, describeBoard, pileWords } from "./describe.js";
import { Finisher, offersFinish } from "./finish.js";
import { t } from "./i18n.js";
import { Hints } from "./hints.js";
import { Input } from "./input.js";
import { wireMore } from "./more.js";
import { drawMove, parseMove } from "./moves.js";
import { Notices } from "./notices.js";
import { ActionQueue } from "./queue.js";
import { reminderText } from "./reminders.js";
import { BoardView } from "./render.js";
import { ResultDialog } from "./result.js";
import { wireSettings } from "./settings.js";
import { GameSocket } from "./socket.js";
import { wireTableActions } from "./table.js";
import {
  applyAction,
  clock,
  elapsedSeconds,
  justFinished,
  normalise,
  replaceState,
  withDeadEnd,
  UNDO_MODES,
  withHints,
} from "./state.js";

function readJson(id) {
  const el = document.getElementById(id);
  return el ? JSON.parse(el.textContent) : null;
}

/**
 * What the board's controller lets input.js do (BoardPage.controller()).
 * @typedef {object} GameControls
 * @property {() => import("./state.js").Game} get  the current game state
 * @property {(move: string | null | (() => string | null), callbacks?: object) => void} play
 * @property {() => boolean} busy
 * @property {(callbacks?: object) => void} draw
 * @property {() => void} undo
 * @property {(selection: {pile: string, count: number} | null) => void} selected
 * @property {(text: string | null, near?: import("./callout.js").Box | null) => void} note  beside `near`
 * @property {() => string} tapMode  the table's setting: what a tap does (place.js)
 */

/** One board on the page: its current state, and the parts that show and change it. */
class BoardPage {
  constructor(root) {
    this.root = root;
    this.config = readJson("board-config") || {};
    this.game = normalise(readJson("game-state"));
    this.isPlayer = this.game.role === "player";
    // The server's clock minus ours: the timer counts in server time.
    this.skew = this.config.server_now ? Date.parse(this.config.server_now) - Date.now() : 0;
    this.syncAsked = false;
    this.timeEl = root.querySelector('[data-stat="time"] time');
    this.view = new BoardView(root);
    this.notices = new Notices(root);
    this.result = new ResultDialog(root, {
      mine: this.isPlayer,
      storyUrl: this.config.story_url,
      practice: this.config.practice,
    });
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.socket = new GameSocket(`${scheme}//${location.host}${this.config.socket_path}`, {
      onStatus: (status, code) => this.notices.connection(status, code),
      onMessage: (msg) => this.onMessage(msg),
    });
    this.queue = new ActionQueue(this.socket, {
      canSend: () => this.isPlayer && this.game.status === "active",
      version: () => this.game.version,
      syncing: () => this.syncAsked,
    });
    this.hints = new Hints({
      root,
      view: this.view,
      socket: this.socket,
      notices: this.notices,
      game: () => this.game,
      onCount: (hints) => {
        this.game = withHints(this.game, hints);
      },
    });
    this.finisher = new Finisher({
      game: () => this.game,
      play: (choose, callbacks) => this.controller().play(choose, callbacks),
      onStop: () => this.showFinish(),
      // Each card's slide shows; with reduced motion there is no slide to wait for.
      pauseMs: window.matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : 140,
    });
    this.input = null;
    /** @type {(() => import("./settings-state.js").Settings) | null} */
    this.settings = null; // the table's settings, once wired (start)
  }

  start() {
    // First: the settings say what a tap does, and the card size the board is drawn at.
    this.settings = wireSettings(this.root, this.config);
    this.view.render(this.game, { animate: false });
    window.addEventListener("resize", () => this.view.fitColumns());
    this.tick();
    setInterval(() => this.tick(), 1000);
    this.socket.start();
    if (this.isPlayer) {
      this.input = new Input(this.view, this.controller());
      wirePlayerControls(this.root, {
        undo: () => this.undo(),
        resign: () => this.queue.enqueue({ type: "resign" }),
        askHint: () => this.hints.ask(),
        finish: () => this.finish(),
      });
      wireTableActions(this.root, { game: () => this.game });
    }
    wireViewControls(this.root, { describe: () => this.notices.describe(describeBoard(this.game)) });
    wireMore(this.root);
    this.notices.deadEnd(this.game);
    this.showFinish();
    this.hints.updateButton();
    // A finished game opens on its result (a reload, a link from "My games").
    if (this.game.status !== "active") this.showResult();
  }

  /**
   * What input.js may do with the game: read it, and ask for actions.
   * @returns {GameControls}
   */
  controller() {
    // A move, or a function choosing it when its turn comes (on the board by then).
    const message = (move) => (move ? { type: "move", move } : null);
    return {
      get: () => this.game,
      play: (move, callbacks) =>
        this.queue.enqueue(typeof move === "function" ? () => message(move()) : message(move), callbacks),
      busy: () => this.queue.busy,
      // Chosen at its turn too: a tap on the stock just emptied by the last draw redeals.
      draw: (callbacks) => this.queue.enqueue(() => message(drawMove(this.game)), callbacks),
      undo: () => this.undo(),
      note: (text, near) => {
        if (text) this.notices.remind(text, near);
      },
      tapMode: () => this.settings?.().tap ?? "best",
      selected: (selection) => {
        this.notices.announce(
          selection
            ? t("Selected %(pile)s. Choose where it goes.", { pile: pileWords(selection.pile, this.game.board) })
            : t("Selection cancelled."),
        );
      },
    };
  }

  /** Send every card home, one move at a time (offered only when nothing is left to decide). */
  finish() {
    if (!this.isPlayer || !offersFinish(this.game)) return;
    this.finisher.start();
    this.showFinish();
  }

  showFinish() {
    if (this.isPlayer) this.notices.finish(offersFinish(this.game) && !this.finisher.running);
  }

  undo() {
    if (UNDO_MODES.includes(this.game.mode)) this.queue.enqueue({ type: "undo" });
    else if (this.isPlayer && this.game.status === "active") this.notices.remind(t("Ranked games have no undo."));
  }

  serverNow() {
    return Date.now() + this.skew;
  }

  /** Show the game's clock; returns its seconds. */
  tick() {
    const seconds = elapsedSeconds(this.game, this.serverNow());
    this.timeEl.textContent = clock(seconds);
    this.timeEl.setAttribute("datetime", `PT${seconds}S`);
    return seconds;
  }

  showResult() {
    this.result.show(this.game, this.tick());
  }

  // The server's messages (docs/protocol.md) ----------------------------------------

  onMessage(msg) {
    switch (msg.type) {
      case "hello":
        this.hello(msg);
        break;
      case "state":
        this.syncAsked = false;
        this.takeState(msg.game);
        this.queue.pump(); // taps held for the sync are worked out on this state
        break;
      case "synced":
        this.syncAsked = false;
        this.queue.pump();
        break;
      case "accepted":
        this.accepted(msg);
        break;
      case "action":
        this.takeAction(msg);
        break;
      case "dead_end":
        // The solver's verdict on a position, after the answer to the move that made it.
        this.game = withDeadEnd(this.game, msg);
        this.notices.deadEnd(this.game);
        break;
      case "hint":
        this.hints.answered(msg);
        break;
      case "refused":
        if (!this.hints.refused(msg)) this.refused(msg);
        break;
      default:
        break; // pong, and anything newer than this page
    }
  }

  hello(msg) {
    this.syncAsked = false;
    // A hint asked on the previous connection will not be answered: ask again.
    this.hints.forget();
    if (msg.game && msg.game.version !== this.game.version) this.takeState(msg.game);
    // As the protocol's example: tell the server which version we hold.
    this.socket.send({ type: "sync", version: this.game.version });
    this.syncAsked = true;
    this.socket.resendUnanswered();
    this.queue.pump();
  }

  accepted(msg) {
    this.queue.answered(msg)?.callbacks.onAccepted?.(msg);
    if (msg.duplicate) {
      if (msg.version > this.game.version) this.requestSync();
    } else {
      this.takeAction(msg);
    }
    this.queue.pump();
  }

  refused(msg) {
    const item = this.queue.answered(msg);
    if (msg.code === "rate_limited") {
      // Too fast for the server's pace: the same action again once the wait is over (and
      // a sync that was refused, asked again). Slowed, never lost, nothing to say.
      const wait = Math.max(0, Number(msg.retry_after) || 1) * 1000;
      if (item) this.queue.retry(item, wait);
      else if (this.syncAsked) {
        setTimeout(() => {
          this.syncAsked = false;
          this.requestSync();
        }, wait);
      }
      return;
    }
    item?.callbacks.onRefused?.();
    // A sync refused for another reason than pace is not answered: stop holding the taps.
    if (!item && !msg.id && this.syncAsked) this.syncAsked = false;
    if (msg.code === "stale_version") {
      this.notices.remind(t("The board was out of date and has been refreshed."));
      this.requestSync();
    } else if (msg.reason) {
      this.notices.remind(reminderText(msg), this.near(item?.sent));
    }
    this.queue.pump();
  }

  /**
   * What a refusal of `message` is about, for its callout: a card move's cards (where they
   * stand, or are gliding back to), the stock for a draw, Undo for an undo; else null.
   * @param {{type?: string, move?: string} | undefined} message
   */
  near(message) {
    if (message?.type === "undo") return this.root.querySelector('[data-action="undo"]');
    const move = message?.type === "move" ? message.move : null;
    if (move === "s" || move === "r") return this.view.placeOf("stock");
    const parsed = parseMove(move);
    return parsed ? this.view.placeOf(parsed.src, parsed.count) : null;
  }

  requestSync() {
    if (this.syncAsked) return;
    this.syncAsked = this.socket.send({ type: "sync", version: this.game.version });
  }

  /** A whole state (hello, state): the server's board replaces ours. */
  takeState(next) {
    const before = this.game;
    this.game = replaceState(before, next);
    this.view.render(this.game, { selection: this.input?.selection });
    this.tick();
    this.notices.deadEnd(this.game);
    this.showFinish();
    this.hints.updateButton();
    if (justFinished(before, this.game)) this.showResult();
  }

  /** One accepted action, applied once and in order; a gap asks for the whole state. */
  takeAction(msg) {
    const before = this.game;
    const { kind, game } = applyAction(before, msg, new Date(this.serverNow()).toISOString());
    if (kind === "gap") this.requestSync();
    if (kind !== "applied") return;
    this.game = game;
    this.view.render(game);
    this.tick();
    this.hints.clear();
    this.notices.deadEnd(game);
    this.showFinish();
    this.hints.updateButton();
    const sent = msg.action === "undo" ? 0 : (msg.automatic?.length ?? 0);
    const home = sent ? " " + t("Safe cards sent home: %(n)s.", { n: sent }) : "";
    this.notices.announce(describeAction(msg.action, before, game) + home);
    if (justFinished(before, game)) this.showResult();
  }
}

// Classes are not hoisted: start once the class above exists.
const root = document.querySelector("[data-board]");
if (root) new BoardPage(root).start();
