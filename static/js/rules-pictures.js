/**
 * The rules page's pictures: a deal as it opens and each rule's example, drawn by the
 * board's own renderer (board/render.js's BoardView, the table's cards and faces) from the
 * positions the page embeds (games/rules_pictures.py, the "rules-pictures" JSON). They are
 * pictures, not games: no input is wired, and each position is drawn once, without motion.
 */

import { BoardView } from "./board/render.js";

/** @param {Record<string, unknown>} board  A position as the board's state carries it. */
function asGame(board) {
  return { board, legal_moves: [], version: 0, status: "active", score: 0, moves: 0, can_undo: false };
}

function drawAll() {
  const source = document.getElementById("rules-pictures");
  if (!source) return;
  const data = JSON.parse(source.textContent);
  const drawn = [];
  /** @type {NodeListOf<HTMLElement>} */
  const boards = document.querySelectorAll("[data-rules-board]");
  for (const root of boards) {
    const [name, step] = root.dataset.rulesBoard.split(":");
    const board = name === "deal" ? data.deal : data.examples[name]?.[step];
    if (!board) continue;
    const view = new BoardView(root);
    view.render(asGame(board), { animate: false });
    root.classList.add("is-drawn");
    drawn.push(view);
  }
  // The columns' fan is measured from the cards' width: measured again when it changes
  // (a phone turned on its side), once a frame at most.
  let pending = false;
  window.addEventListener("resize", () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      for (const view of drawn) view.fitColumns();
    });
  });
}

drawAll();
