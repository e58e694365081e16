// Turning the player's gestures into moves: tap, double-tap, drag (pointer events:
// mouse, pen and touch alike); the keyboard's half is keyboard.js. Where a card may go is read from the
// server's legal_moves only; a drop or key press on any other pile is still SENT, so
// the server's refusal can tell the player which rule stands in the way.

import { boundCount, boundMove, placeKey, pressKind, wasteTarget } from "./gestures.js";
import { KeyboardInput } from "./keyboard.js";
import { formatMove, legalTargets } from "./moves.js";
import { ownFoundation, smartTarget, tapNote } from "./place.js";

const DRAG_THRESHOLD_PX = 6; // less than this between down and up is a tap
const ANSWER_WAIT_MS = 1200; // a dropped card waits this long for the server, then goes home

/**
 * A press in progress: the pile, card and run under it (sourceAt), where and when.
 * @typedef {{pile: string, count: number, card: string | null, index: number,
 *   elements: HTMLElement[], x: number, y: number, id: number, time: number,
 *   moving: boolean, lastX?: number, lastY?: number}} Drag
 */

export class Input extends KeyboardInput {
  /**
   * @param {import("./render.js").BoardView} view
   * @param {import("./main.js").GameControls} game  main.js's controller
   */
  constructor(view, game) {
    super(view, game);
    /** @type {Drag | null} */
    this.drag = null; // the gesture in progress
    /** @type {import("./gestures.js").Press | null} */
    this.lastTap = null; // the press that started the last gesture (gestures.js)
    this.flying = new Set(); // the cards (placeKey) whose tap's move awaits its answer
    // Draws and waste taps not yet shown on the board ({kind, card, version}; version:
    // answered at it), which decide the waste card a new press is for (wasteTarget).
    this.wastePending = [];
    const table = view.table;
    table.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    table.addEventListener("pointermove", (e) => this.onPointerMove(e));
    table.addEventListener("pointerup", (e) => this.onPointerUp(e));
    table.addEventListener("pointercancel", () => this.cancelDrag());
    // A native double-click would select text and a native drag would drag an image.
    table.addEventListener("dblclick", (e) => e.preventDefault());
    table.addEventListener("dragstart", (e) => e.preventDefault());
  }

  /** The table's setting: what a single tap does ("best" or "home", place.js). */
  get tapMode() {
    return this.game.tapMode();
  }

  // Pointer: tap, double-tap, drag ---------------------------------------------

  /**
   * What a press at (x, y) on `target` would pick up: {pile, count, card, index,
   * elements} or null. Cards sliding to their place let presses through (CSS), so a
   * press is read from the layout of the pile under the pointer: its topmost card whose
   * place, or (still landing there) whose drawn box, holds the point (gestures.js:
   * pickCard). A landing card is picked, never the card under it.
   */
  sourceAt(target, x, y) {
    // The pile under the pointer decides: a card passing over it on its way elsewhere
    // (leaving it, or drawn from the stock) does not take a press on it. Between piles,
    // a card still sliding to its place, drawn under the pointer, does.
    const under = target.closest("[data-pile]");
    const landing = under ? null : this.view.landingCardAt(x, y);
    const pileEl = under ?? landing?.closest("[data-pile]");
    if (!pileEl || !this.view.table.contains(pileEl)) return null;
    const pile = pileEl.dataset.pile;
    if (pile === "stock") return { pile, count: 0, card: null, index: -1, elements: [] };
    const cards = Array.from(pileEl.querySelectorAll(".ft-card[data-card]"));
    // Only the waste's top card plays: a press anywhere on the waste is a press on it
    // (or, the waste still empty, on the card a draw on its way will bring).
    const card = pile === "w" ? cards[cards.length - 1] : landing || this.view.cardAt(pileEl, x, y);
    if (!card) return pile === "w" ? { pile, count: 1, card: null, index: -1, elements: [] } : null;
    const run = Number(card.dataset.run || 0);
    // Only a face-up run (or a foundation card that may come back) moves.
    if (run < 1) return null;
    const board = this.state.board;
    let index = Number(card.dataset.index);
    if (pile === "w") index = board.waste.length - 1;
    else if (pile[0] === "f") index = board.foundations[Number(pile.slice(1)) - 1].count - 1;
    return { pile, count: run, card: card.dataset.card, index, elements: cards.slice(cards.indexOf(card)) };
  }

  onPointerDown(e) {
    if (!this.active || e.button > 0 || this.drag) return;
    const source = this.sourceAt(e.target, e.clientX, e.clientY);
    if (!source) return;
    e.preventDefault(); // no text selection, no focus flicker; keyboard focus is ours
    // The press's own time (the event's), not when it was handled: under a busy main
    // thread two clicks 150 ms apart may be handled 20 ms apart.
    this.drag = { ...source, x: e.clientX, y: e.clientY, id: e.pointerId, time: e.timeStamp, moving: false };
    try {
      e.target.setPointerCapture?.(e.pointerId);
    } catch {
      // A pointer the browser no longer tracks (it was lifted already): nothing to capture.
    }
  }

  onPointerMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id || !d.elements.length) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.moving) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
      d.moving = true;
      this.clearSelection();
      for (const el of d.elements) el.classList.add("is-dragging");
      this.view.showTargets(legalTargets(this.state.legal_moves, d.pile, d.count));
    }
    for (const el of d.elements) el.style.transform = `translate(${dx}px, ${dy}px)`;
    d.lastX = e.clientX;
    d.lastY = e.clientY;
  }

  onPointerUp(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    this.drag = null;
    this.view.showTargets([]);
    if (!d.moving) {
      this.tap(d);
      return;
    }
    const dst = this.dropTarget(e.clientX, e.clientY, d);
    if (!dst) {
      this.view.returnCards(d.elements);
      return;
    }
    // The cards stay where they were dropped until the server answers: accepted, the
    // new layout carries them on from there; refused, they glide back.
    const elements = d.elements;
    const fallback = setTimeout(() => this.view.returnCards(elements), ANSWER_WAIT_MS);
    this.game.play(formatMove(d.pile, dst, d.count), {
      onRefused: () => {
        clearTimeout(fallback);
        this.view.returnCards(elements);
      },
      onAccepted: () => clearTimeout(fallback),
    });
  }

  cancelDrag() {
    if (!this.drag) return;
    if (this.drag.moving) this.view.returnCards(this.drag.elements);
    this.view.showTargets([]);
    this.drag = null;
  }

  /**
   * The pile a drag was dropped on: the one under the pointer; failing that (a sloppy
   * drop between piles) the accepting pile the dragged card overlaps most.
   */
  dropTarget(x, y, d) {
    const under = /** @type {HTMLElement | null | undefined} */ (document.elementFromPoint(x, y)?.closest("[data-pile]"));
    const name = under?.dataset.pile;
    if (name && name !== d.pile && /^[tf]\d+$/.test(name)) return name;
    const card = d.elements[0]?.getBoundingClientRect();
    if (!card) return null;
    let best = null;
    let bestArea = 0;
    for (const target of legalTargets(this.state.legal_moves, d.pile, d.count)) {
      const r = this.view.pile(target)?.getBoundingClientRect();
      if (!r) continue;
      const w = Math.min(card.right, r.right) - Math.max(card.left, r.left);
      const h = Math.min(card.bottom, r.bottom) - Math.max(card.top, r.top);
      if (w > 0 && h > 0 && w * h > bestArea) {
        best = target;
        bestArea = w * h;
      }
    }
    return best;
  }

  /**
   * A tap is decided at once (gestures.js). A press is bound to the card it started on:
   * a single tap sends that card to its best place (place.js: a foundation, else the best
   * column; under the setting "home", a foundation only, the waste card failing that to a
   * column); a second tap on a card a tap just could not move is a double-tap: to a
   * foundation, else the best accepting column, else an empty one. A
   * second press right after a press that moved its card (the rest of a double-click)
   * is the same gesture and does nothing: a gesture makes at most one move, never one
   * for the card that was underneath. A later press on a waste or column card whose move
   * is still on its way is a tap of its own, for the card under it (gestures.js).
   */
  tap(d) {
    const now = d.time ?? performance.now();
    if (d.pile === "stock") {
      this.lastTap = null;
      this.draw();
      return;
    }
    const press = { pile: d.pile, card: d.card, index: d.index, count: d.count, x: d.x, y: d.y, time: now };
    const kind = pressKind(this.lastTap, press, { inFlight: this.flying.has(placeKey(press)) });
    if (kind === "same" || kind === "again") {
      // A third click of a triple-click is the same gesture still. The rest of a
      // double-click whose first press waits its turn makes that press a double-tap.
      if (this.lastTap) this.lastTap.time = now;
      if (kind === "again") this.lastTap.double = true;
      return;
    }
    if (press.pile === "w") {
      // Bound to a waste card now: the top card shown, or the one under a card whose move
      // is on its way, or the card a draw on its way brings.
      const bound = wasteTarget(this.state.board.waste, this.unshown());
      if (!bound) return;
      press.card = bound.card;
    } else if (press.pile[0] === "t" && press.count === 1) {
      press.top = true; // for the column's top card at its turn (gestures.js: boundCount)
    }
    if (kind === "double") {
      this.lastTap = { ...press, moved: true };
      this.doubleTap(press, d.elements);
      return;
    }
    if (this.game.busy()) {
      // An earlier action is still on its way: this tap is worked out when its turn
      // comes, for the card it was bound to (nothing if that card has gone by then); as
      // a double-tap if the rest of a double-click joins it meanwhile (pressKind).
      const gesture = { ...press, moved: true, waiting: true, double: false };
      this.lastTap = gesture;
      this.send(press, () => {
        gesture.waiting = false;
        if (gesture.double) return boundMove(this.state, press, { double: true }) ?? this.homeAnyway(press);
        const move = boundMove(this.state, press, { tap: this.tapMode });
        gesture.moved = Boolean(move);
        // Still there with nowhere to go: say so, as an immediate tap does (a board
        // still syncing after connecting is busy too, and a silent tap reads as a miss).
        if (!move && boundCount(this.state.board, press)) this.note(press);
        return move;
      });
      return;
    }
    const move = boundMove(this.state, press, { tap: this.tapMode });
    this.lastTap = { ...press, moved: Boolean(move) };
    if (move) this.send(press, move);
    // A card with nowhere to go says so briefly, beside it (under "home", one that only
    // a column takes says that a double-tap places it).
    else this.note(press);
  }

  /** The note for a tap that moved nothing, beside the card (the one now there). */
  note(press) {
    const text = tapNote(this.state, press, { tap: this.tapMode });
    if (text) this.game.note(text, this.view.placeOf(press.pile, press.count || 1));
  }

  /** Play a pressed card's move (or a function choosing it at its turn), in flight until answered. */
  send(press, move) {
    const key = placeKey(press);
    this.flying.add(key);
    const waste = press.pile === "w" ? this.track({ kind: "waste", card: press.card }) : null;
    this.game.play(move, {
      onAccepted: (msg) => {
        this.flying.delete(key);
        waste?.onAccepted(msg);
      },
      onRefused: () => {
        this.flying.delete(key);
        waste?.onRefused();
      },
    });
  }

  /** A draw (or redeal), chosen at its turn, remembered until the board shows it. */
  draw() {
    this.game.draw(this.track({ kind: "draw", card: null }));
  }

  /** Remember a waste-changing action until the board shows it; its answer's callbacks. */
  track(entry) {
    this.wastePending.push(entry);
    return {
      onAccepted: (msg) => {
        // Shown once the board reaches its version (later than now if one was skipped).
        entry.version = msg?.version ?? 0;
      },
      onRefused: () => {
        this.wastePending = this.wastePending.filter((e) => e !== entry);
      },
    };
  }

  /** The waste-changing actions, in order, that the board does not show yet. */
  unshown() {
    const shown = this.state.version;
    this.wastePending = this.wastePending.filter((e) => e.version === undefined || e.version > shown);
    return this.wastePending;
  }

  /** A double-tap's one move, for the card it is bound to. */
  doubleTap(press, elements) {
    const choose = () => boundMove(this.state, press, { double: true }) ?? this.homeAnyway(press);
    if (this.game.busy()) {
      this.send(press, choose);
      return;
    }
    const move = choose();
    if (move) this.send(press, move);
    else this.shake(elements);
  }

  /**
   * Nowhere legal: ask the server anyway with the card's own foundation, so the player
   * hears why (a foundation wants the next card of its suit).
   */
  homeAnyway(press) {
    if (press.count !== 1 || !boundCount(this.state.board, press)) return null;
    const home = this.ownFoundation(press.pile);
    return home ? formatMove(press.pile, home, 1) : null;
  }

  /** The keyboard's double action (the same pile twice): the best place for the selection. */
  doubleAction(pile, count, elements) {
    const target = smartTarget(this.state, pile, count, { columns: true });
    if (target) {
      this.game.play(formatMove(pile, target, count));
      return;
    }
    const fallback = count === 1 ? this.ownFoundation(pile) : null;
    if (fallback) this.game.play(formatMove(pile, fallback, 1));
    else this.shake(elements);
  }

  /** The foundation of the card's suit that is furthest along: the likeliest home. */
  ownFoundation(pile) {
    return ownFoundation(this.state.board, pile);
  }

  shake(elements) {
    for (const el of elements || []) {
      el.classList.remove("is-shaking");
      void el.offsetWidth;
      el.classList.add("is-shaking");
    }
  }
}
