// Drawing the board from a game state. The whole table is redrawn after every accepted
// change (at most ~110 cards, well under a millisecond of DOM work), but card elements
// are REUSED by card code, so a card that moves keeps its element and can be animated
// from where it was to where it is now (FLIP: first, last, invert, play).

import { drawFace } from "./card-art.js";
import { SUIT_SYMBOLS, cardName, rankLabel, suitName, suitOf } from "./cards.js";
import { t } from "./i18n.js";
import { pickCard } from "./gestures.js";
import { hasMovesFrom } from "./moves.js";

const WASTE_SHOWN = 3; // the top card plus two under it, fanned
const ANIMATION_MS = 160;

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

export class BoardView {
  constructor(root) {
    this.root = root;
    this.table = root.querySelector(".ft-table");
    this.piles = new Map();
    for (const el of root.querySelectorAll("[data-pile]")) this.piles.set(el.dataset.pile, el);
    this.stats = {
      score: root.querySelector('[data-stat="score"]'),
      moves: root.querySelector('[data-stat="moves"]'),
    };
    this.undoButton = root.querySelector('[data-action="undo"]');
    this.resignButton = root.querySelector('[data-action="resign"]');
    this.stockShown = null; // the stock count last drawn: a smaller one means a draw
    this.slides = new WeakMap(); // each sliding card's latest slide
  }

  pile(name) {
    return this.piles.get(name);
  }

  /**
   * The face-up card of `pileEl` a press at (x, y) picks (gestures.js: pickCard): the
   * topmost whose place (where the layout puts it, whatever its slide) or, while it is
   * landing, whose drawn box holds the point; null if none.
   */
  cardAt(pileEl, x, y) {
    const box = pileEl.getBoundingClientRect();
    const cards = Array.from(pileEl.querySelectorAll(".ft-card[data-card]"));
    const boxes = cards.map((el) => ({
      place: { left: box.left + el.offsetLeft, top: box.top + el.offsetTop, width: el.offsetWidth, height: el.offsetHeight },
      drawn: boxOf(el.getBoundingClientRect()),
      moving: el.classList.contains("is-moving"),
    }));
    return cards[pickCard(boxes, x, y)] ?? null;
  }

  /** The card still landing (sliding to its place) drawn under (x, y), the topmost; null if none. */
  landingCardAt(x, y) {
    const landing = Array.from(this.table.querySelectorAll(".ft-card.is-moving[data-card]"));
    const boxes = landing.map((el) => ({ place: null, drawn: boxOf(el.getBoundingClientRect()), moving: true }));
    return landing[pickCard(boxes, x, y)] ?? null;
  }

  /**
   * Where the top `count` cards of pile `name` stand in the layout (not where
   * a drag or a slide draws it now): the box a callout about it points at. The pile's own
   * box when it shows no card; null for a pile the table does not have.
   * @param {string} name
   * @param {number} [count]
   * @returns {{left: number, top: number, width: number, height: number} | null}
   */
  placeOf(name, count = 1) {
    const pile = this.pile(name);
    if (!pile) return null;
    const box = pile.getBoundingClientRect();
    const cards = Array.from(pile.querySelectorAll(".ft-card[data-card]"));
    /** @type {HTMLElement | undefined} */
    const card = cards[cards.length - (name[0] === "t" ? Math.max(1, count) : 1)];
    if (!card) return boxOf(box);
    // From the card to the foot of the run on it (the top card alone: the whole card).
    const last = /** @type {HTMLElement} */ (cards[cards.length - 1]);
    const shown = last.offsetTop + last.offsetHeight - card.offsetTop;
    return { left: box.left + card.offsetLeft, top: box.top + card.offsetTop, width: card.offsetWidth, height: shown };
  }

  /** Every card element on the table, face-up ones first-class, backs included. */
  cardElements() {
    return Array.from(this.table.querySelectorAll(".ft-card"));
  }

  /**
   * Draw `game`. `animate` false skips the motion (first paint, full resyncs). Cards new
   * to the waste fly in from the stock only when the stock went down (a draw); one that
   * a move uncovered under the waste's top simply appears.
   */
  render(game, { animate = true, selection = null } = {}) {
    const board = game.board;
    const motion = animate && !reducedMotion.matches;
    const first = new Map();
    if (motion) {
      for (const el of this.cardElements()) first.set(el, el.getBoundingClientRect());
    }
    // Whatever a drag left behind is cleared now: the new layout decides the places.
    for (const el of this.cardElements()) {
      el.classList.remove("is-dragging", "is-returning");
      el.style.transform = "";
      el.style.transition = "";
    }

    // Pool the face-up card elements by code; the layout below takes them back.
    const pool = new Map();
    for (const el of this.table.querySelectorAll(".ft-card[data-card]")) {
      const list = pool.get(el.dataset.card) || [];
      list.push(el);
      pool.set(el.dataset.card, list);
    }
    const take = (code, pileName) => {
      const list = pool.get(code);
      if (list && list.length) {
        // Prefer the element already in this pile: two decks hold two of each card.
        const i = Math.max(0, list.findIndex((el) => el.dataset.in === pileName));
        return list.splice(i, 1)[0];
      }
      return makeCard(code);
    };
    const legal = game.legal_moves || [];

    // Columns.
    board.columns.forEach((column, i) => {
      const name = `t${i + 1}`;
      const el = this.pile(name);
      if (!el) return;
      const nodes = [];
      for (let d = 0; d < column.down; d += 1) {
        const back = makeBack();
        back.style.setProperty("--d", String(d));
        back.style.setProperty("--u", "0");
        nodes.push(back);
      }
      column.cards.forEach((code, j) => {
        const card = take(code, name);
        card.dataset.in = name;
        card.dataset.index = String(j);
        card.dataset.run = String(column.cards.length - j); // cards from here to the top
        card.style.setProperty("--d", column.down);
        card.style.setProperty("--u", j);
        nodes.push(card);
      });
      el.replaceChildren(...nodes);
      el.style.setProperty("--D", column.down);
      el.style.setProperty("--U", Math.max(0, column.cards.length - 1));
      el.classList.toggle("is-empty", column.down + column.cards.length === 0);
      el.setAttribute("aria-label", pileLabel(name, column.cards, column.down));
    });

    // Waste: the last few, fanned; only the top one is playable.
    const waste = this.pile("w");
    if (waste) {
      const shown = board.waste.slice(-WASTE_SHOWN);
      const nodes = shown.map((code, j) => {
        const card = take(code, "w");
        card.dataset.in = "w";
        card.dataset.index = String(j);
        card.dataset.run = j === shown.length - 1 ? "1" : "0";
        card.style.setProperty("--w", j);
        return card;
      });
      waste.replaceChildren(...nodes);
      waste.classList.toggle("has-more", board.waste.length > WASTE_SHOWN);
      waste.classList.toggle("is-empty", board.waste.length === 0);
      waste.setAttribute("aria-label", pileLabel("w", board.waste.slice(-1), 0, board.waste.length));
    }

    // Foundations: the top card on a slot that always shows its fixed suit.
    board.foundations.forEach((f, k) => {
      const name = `f${k + 1}`;
      const el = this.pile(name);
      if (!el) return;
      el.dataset.suit = f.suit;
      const nodes = [slotMark(f.suit)];
      if (f.top) {
        const card = take(f.top, name);
        card.dataset.in = name;
        card.dataset.index = "0";
        card.dataset.run = hasMovesFrom(legal, name) ? "1" : "0";
        nodes.push(card);
      }
      el.replaceChildren(...nodes);
      el.setAttribute(
        "aria-label",
        `${t("Foundation %(n)s (%(suit)s)", { n: k + 1, suit: suitName(f.suit) })}: ${f.top ? cardName(f.top) : t("empty")}`,
      );
    });

    // Stock: a back with its count; empty, it shows whether a redeal is possible.
    const stock = this.pile("stock");
    if (stock) {
      const canRedeal = board.stock === 0 && legal.includes("r");
      stock.classList.toggle("is-empty", board.stock === 0);
      stock.classList.toggle("can-redeal", canRedeal);
      const count = document.createElement("span");
      count.className = "ft-count";
      count.textContent = board.stock ? String(board.stock) : canRedeal ? "↻" : "";
      const nodes = board.stock ? [makeBack(), count] : [count];
      stock.replaceChildren(...nodes);
      const words = board.stock === 1 ? t("1 card") : t("%(n)s cards", { n: board.stock });
      stock.setAttribute("aria-label", `${t("Stock")}: ${words}`);
    }

    this.root.dataset.version = String(game.version);
    this.root.dataset.status = game.status;
    this.root.classList.toggle("is-finished", game.status !== "active");
    if (this.stats.score) this.stats.score.textContent = String(game.score);
    if (this.stats.moves) this.stats.moves.textContent = String(game.moves);
    if (this.undoButton) this.undoButton.disabled = !game.can_undo || game.status !== "active";
    if (this.resignButton) this.resignButton.disabled = game.status !== "active";

    this.fitColumns();
    this.showSelection(selection);
    const drew = this.stockShown !== null && board.stock < this.stockShown;
    this.stockShown = board.stock;
    if (motion) this.play(first, board, drew);
  }

  /** Mark the selected source (keyboard play): its card, or the run from a card up. */
  showSelection(selection) {
    for (const el of this.table.querySelectorAll(".is-selected")) el.classList.remove("is-selected");
    if (!selection) return;
    const pile = this.pile(selection.pile);
    if (!pile) return;
    pile.classList.add("is-selected");
    const cards = Array.from(pile.querySelectorAll(".ft-card[data-card]"));
    for (const el of cards.slice(-selection.count)) el.classList.add("is-selected");
  }

  /** Highlight the piles that accept what is being dragged or selected. */
  showTargets(names) {
    for (const el of this.table.querySelectorAll(".is-target")) el.classList.remove("is-target");
    for (const name of names || []) this.pile(name)?.classList.add("is-target");
  }

  /**
   * Columns fan downwards; a long column is squeezed so it fits the window, but never
   * below the height of a card's corner, so every card's rank and suit stay readable.
   * The sizes are board.css's (--corner, --fan).
   */
  fitColumns() {
    const columns = this.table.querySelector(".ft-columns");
    if (!columns) return;
    const sample = this.pile("t1");
    if (!sample) return;
    const width = sample.clientWidth || 40;
    const cardHeight = width * 1.4;
    const strip = Math.min(19, Math.max(10, width * 0.35)) + 4; // the corner, and its margin
    const fan = Math.max(16, Math.min(30, width * 0.3), strip);
    const minFan = Math.max(strip, Math.min(20, width * 0.22));
    const fanDown = Math.max(6, Math.min(12, width * 0.12));
    // Room for a column: the window less the top row and a margin. A long column is
    // squeezed rather than pushing the page into a long scroll.
    let room = Math.max(cardHeight * 4, window.innerHeight - cardHeight - 150);
    // An upright phone lays the columns in two rows (board-bar.css): each row gets its
    // share of the window below the columns' top, so the second row stays on screen.
    const perRow = getComputedStyle(columns).gridTemplateColumns.split(" ").length;
    const rows = Math.ceil(columns.querySelectorAll(".ft-column").length / perRow);
    if (rows > 1) {
      const top = columns.getBoundingClientRect().top + window.scrollY;
      room = Math.max(cardHeight * 2, (window.innerHeight - top - 8) / rows - 8);
    }
    // Each row holds its share from the first card on, so a growing column of the first
    // row never pushes the second down under the thumb (issue 36). Only a column longer
    // than its share even at the tightest fan makes its row taller.
    columns.style.gridAutoRows = rows > 1 ? `minmax(${Math.floor(room)}px, auto)` : "";
    for (const el of columns.querySelectorAll(".ft-column")) {
      const down = Number(el.style.getPropertyValue("--D")) || 0;
      const up = Number(el.style.getPropertyValue("--U")) || 0;
      let f = fan;
      if (up > 0 && cardHeight + down * fanDown + up * fan > room) {
        f = Math.max(minFan, (room - cardHeight - down * fanDown) / up);
      }
      el.style.setProperty("--fan", `${f}px`);
      el.style.setProperty("--fan-down", `${fanDown}px`);
    }
  }

  /** FLIP: each card that moved is drawn back where it was, then let go to its place. */
  play(first, board, drew) {
    const stock = this.pile("stock")?.getBoundingClientRect();
    const moved = [];
    for (const el of this.table.querySelectorAll(".ft-card[data-card]")) {
      let from = first.get(el);
      // A card new to the table came from the stock (a draw) or is a full redraw.
      if (!from) {
        if (!drew || el.dataset.in !== "w" || !stock || !board.waste.length) continue;
        from = stock;
      }
      const to = el.getBoundingClientRect();
      const dx = from.left - to.left;
      const dy = from.top - to.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      el.style.transition = "none";
      el.style.transform = `translate(${dx}px, ${dy}px)`;
      el.classList.add("is-moving");
      moved.push(el);
    }
    if (!moved.length) return;
    // One reflow for all, then release them together: input is never blocked.
    void this.table.offsetWidth;
    for (const el of moved) {
      el.style.transition = "";
      el.style.transform = "";
    }
    // A card sent on again before it lands slides on: only its latest slide ends it.
    const slide = {};
    for (const el of moved) this.slides.set(el, slide);
    setTimeout(() => {
      for (const el of moved) if (this.slides.get(el) === slide) el.classList.remove("is-moving");
    }, ANIMATION_MS + 40);
  }

  /** A refused or cancelled drag: the cards glide back to their place. */
  returnCards(elements) {
    for (const el of elements) {
      el.classList.remove("is-dragging");
      el.classList.add("is-returning");
      el.style.transition = reducedMotion.matches ? "none" : "";
      el.style.transform = "";
    }
    setTimeout(() => {
      for (const el of elements) el.classList.remove("is-returning");
    }, ANIMATION_MS + 40);
  }
}

function boxOf(rect) {
  return { left: rect.left, top: rect.top, width: rect.width, height: rect.height };
}

function makeCard(code) {
  const el = document.createElement("div");
  const suit = suitOf(code);
  el.className = "ft-card";
  el.dataset.card = code;
  el.dataset.suit = suit;
  el.setAttribute("aria-label", cardName(code));
  el.setAttribute("role", "img");
  const corner = document.createElement("span");
  corner.className = "ft-card__corner";
  corner.setAttribute("aria-hidden", "true");
  const rank = document.createElement("span");
  rank.className = "ft-card__rank";
  rank.textContent = rankLabel(code);
  const symbol = document.createElement("span");
  symbol.className = "ft-card__suit";
  symbol.textContent = SUIT_SYMBOLS[suit];
  corner.append(rank, symbol);
  const pip = document.createElement("span");
  pip.className = "ft-card__pip";
  pip.setAttribute("aria-hidden", "true");
  pip.textContent = SUIT_SYMBOLS[suit];
  el.append(corner, pip, drawFace(code));
  return el;
}

function makeBack() {
  const el = document.createElement("div");
  el.className = "ft-card ft-card--back";
  el.setAttribute("aria-hidden", "true");
  return el;
}

function slotMark(suit) {
  const el = document.createElement("span");
  el.className = "ft-slot-mark";
  el.dataset.suit = suit;
  el.setAttribute("aria-hidden", "true");
  el.textContent = SUIT_SYMBOLS[suit];
  return el;
}

/** How focus announces a pile: its name, how many cards, and the card on top. */
function pileLabel(name, cards, down, total) {
  const title = name === "w" ? t("Waste") : t("Column %(n)s", { n: Number(name.slice(1)) });
  const count = (total ?? cards.length) + down;
  if (!count) return `${title}: ${t("empty")}`;
  const words = count === 1 ? t("1 card") : t("%(n)s cards", { n: count });
  const top = cards[cards.length - 1];
  return top ? `${title}: ${words}, ${cardName(top)}` : `${title}: ${words}`;
}
