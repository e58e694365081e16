// The table's keyboard: arrows walk the piles, Enter or Space picks a card up and puts it
// down, digits name the columns, w/f/d/s/u the waste, home, draw and undo (the keys the
// table's help lists). The pointer half is input.js, whose Input extends this class and
// gives it draw(), doubleAction() and ownFoundation().

import { cardsAt } from "./describe.js";
import { formatMove, legalCounts, legalTargets } from "./moves.js";

/**
 * A method Input provides: reaching this one is a programming mistake, never a player's.
 * @param {string} name
 * @returns {never}
 */
function abstract(name) {
  throw new Error(`KeyboardInput.${name} is implemented by Input`);
}

export class KeyboardInput {
  /**
   * @param {import("./render.js").BoardView} view
   * @param {import("./main.js").GameControls} game  main.js's controller
   */
  constructor(view, game) {
    this.view = view;
    this.game = game;
    /** @type {{pile: string, count: number} | null} */
    this.selection = null; // the card or run picked up by Enter or Space
    document.addEventListener("keydown", (e) => this.onKey(e));
  }

  get state() {
    return this.game.get();
  }

  get active() {
    return this.state.status === "active";
  }

  // What the pointer's half (Input) does for the keyboard too.
  /** Turn the stock's next card. */
  draw() {
    abstract("draw");
  }

  /**
   * Send a pile's top card or run to its best place, as a double-click does.
   * @param {string} _pile  @param {number} _count  @param {HTMLElement[]} _elements
   */
  doubleAction(_pile, _count, _elements) {
    abstract("doubleAction");
  }

  /**
   * The foundation of the pile's card's suit that is furthest along: the likeliest home.
   * @param {string} _pile
   * @returns {string | null}
   */
  ownFoundation(_pile) {
    return abstract("ownFoundation");
  }

  /** The piles in reading order: stock, waste, foundations, then the columns. */
  pileOrder() {
    return Array.from(this.view.table.querySelectorAll("[data-pile]"));
  }

  onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    // Typing in a form or a dialog is not playing.
    if (target.closest?.("input, textarea, select, dialog, details, [contenteditable]")) return;
    const onPile = target.closest?.("[data-pile]");
    if (onPile && !this.view.table.contains(onPile)) return;
    const key = e.key;
    if (key.startsWith("Arrow") && onPile) {
      if (e.shiftKey && (key === "ArrowUp" || key === "ArrowDown")) {
        this.resizeSelection(key === "ArrowUp" ? 1 : -1);
      } else {
        this.moveFocus(onPile, key);
      }
      e.preventDefault();
      return;
    }
    if (key === "Escape") {
      if (this.selection) {
        this.clearSelection(true);
        e.preventDefault();
      }
      return;
    }
    if (!this.active) return;
    if ((key === "Enter" || key === " ") && onPile) {
      this.activate(onPile.dataset.pile);
      e.preventDefault();
      return;
    }
    if (/^[0-9]$/.test(key)) {
      const n = key === "0" ? 10 : Number(key);
      const pile = `t${n}`;
      if (!this.view.pile(pile)) return;
      this.view.pile(pile).focus();
      this.activate(pile);
      e.preventDefault();
      return;
    }
    switch (key.toLowerCase()) {
      case "w":
        this.view.pile("w")?.focus();
        this.activate("w");
        break;
      case "f":
        this.toFoundation(onPile?.dataset.pile);
        break;
      case "d":
      case "s":
        this.clearSelection();
        this.draw();
        break;
      case "u":
        this.clearSelection();
        this.game.undo();
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  /** Arrows walk the table: left/right along a row, up/down between the two rows. */
  moveFocus(from, key) {
    const piles = this.pileOrder();
    const top = piles.filter((el) => !el.classList.contains("ft-column"));
    const columns = piles.filter((el) => el.classList.contains("ft-column"));
    const row = from.classList.contains("ft-column") ? columns : top;
    let next;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const i = row.indexOf(from) + (key === "ArrowRight" ? 1 : -1);
      next = row[(i + row.length) % row.length];
    } else {
      const other = row === columns ? top : columns;
      // The pile of the other row nearest below or above, by horizontal position.
      const x = from.getBoundingClientRect().left;
      next = other.reduce((best, el) =>
        Math.abs(el.getBoundingClientRect().left - x) < Math.abs(best.getBoundingClientRect().left - x) ? el : best,
      );
    }
    next?.focus();
  }

  /** Enter, Space, a digit or `w` on a pile: pick it up, or put the selection down on it. */
  activate(pile) {
    if (pile === "stock") {
      this.clearSelection();
      this.draw();
      return;
    }
    const sel = this.selection;
    if (sel && sel.pile === pile) {
      // The same pile twice: as a double-click, the best place for it.
      this.clearSelection();
      this.doubleAction(sel.pile, sel.count, []);
      return;
    }
    if (sel && /^[tf]\d+$/.test(pile)) {
      this.clearSelection();
      this.game.play(formatMove(sel.pile, pile, this.countFor(sel, pile)));
      return;
    }
    if (!cardsAt(this.state.board, pile, 1).length) return; // nothing to pick up
    this.select({ pile, count: 1 });
  }

  /**
   * How many cards go from a selected column: the count chosen if it is legal, else
   * the one legal run to that column (runs are picked for the player), else the count
   * chosen, and the server says why not.
   */
  countFor(sel, dst) {
    if (sel.pile[0] !== "t") return 1;
    const counts = legalCounts(this.state.legal_moves, sel.pile, dst);
    if (counts.includes(sel.count) || !counts.length) return sel.count;
    return counts[0];
  }

  toFoundation(focused) {
    const src = this.selection?.pile ?? (focused && focused !== "stock" ? focused : null);
    if (!src) return;
    this.clearSelection();
    const target = legalTargets(this.state.legal_moves, src, 1).find((p) => p[0] === "f") ?? this.ownFoundation(src);
    if (target) this.game.play(formatMove(src, target, 1));
  }

  select(selection) {
    this.selection = selection;
    this.view.showSelection(selection);
    this.view.showTargets(legalTargets(this.state.legal_moves, selection.pile, selection.count));
    this.game.selected(selection);
  }

  /** Shift+Up/Down on a selected column: one card more or less in the run. */
  resizeSelection(delta) {
    const sel = this.selection;
    if (!sel || sel.pile[0] !== "t") return;
    const column = this.state.board.columns[Number(sel.pile.slice(1)) - 1];
    const count = Math.min(column.cards.length, Math.max(1, sel.count + delta));
    if (count !== sel.count) this.select({ pile: sel.pile, count });
  }

  clearSelection(announce = false) {
    if (!this.selection) return;
    this.selection = null;
    this.view.showSelection(null);
    this.view.showTargets([]);
    if (announce) this.game.selected(null);
  }
}
