// The board in words, for screen readers: the whole table on demand ("Describe the
// board"), and after each change a sentence about what happened plus the piles it touched.

import { cardName, suitName } from "./cards.js";
import { t } from "./i18n.js";
import { parseMove } from "./moves.js";

function list(cards) {
  return cards.map(cardName).join(", ");
}

function columnText(column, i) {
  const parts = [];
  if (column.down) parts.push(t("%(n)s face down", { n: column.down }));
  if (column.cards.length) parts.push(list(column.cards));
  return `${t("Column %(n)s", { n: i + 1 })}: ${parts.length ? parts.join(", ") : t("empty")}.`;
}

function foundationText(f, k) {
  const name = t("Foundation %(n)s (%(suit)s)", { n: k + 1, suit: suitName(f.suit) });
  return `${name}: ${f.top ? cardName(f.top) : t("empty")}.`;
}

function wasteText(board) {
  const top = board.waste[board.waste.length - 1];
  return `${t("Waste")}: ${top ? cardName(top) : t("empty")}.`;
}

function stockText(board) {
  const n = board.stock === 1 ? t("1 card") : t("%(n)s cards", { n: board.stock });
  return `${t("Stock")}: ${n}.`;
}

/**
 * The whole board, in the order a player reads the table.
 * @param {import("./state.js").Game} game
 * @returns {string}
 */
export function describeBoard(game) {
  const board = game.board;
  return [
    ...board.columns.map(columnText),
    wasteText(board),
    stockText(board),
    ...board.foundations.map(foundationText),
    t("Score %(score)s, %(moves)s moves.", { score: game.score, moves: game.moves }),
  ].join(" ");
}

/**
 * A pile named in the notation, in words for the middle of a sentence ("column 3").
 * @param {string} pile
 * @param {import("./changes.js").Board} board
 * @returns {string}
 */
export function pileWords(pile, board) {
  if (pile === "w") return t("the waste");
  const n = Number(pile.slice(1));
  // Lower case: these names sit in the middle of a sentence.
  if (pile[0] === "t") return t("column %(n)s", { n });
  const f = board.foundations[n - 1];
  return t("foundation %(n)s (%(suit)s)", { n, suit: f ? suitName(f.suit) : "" });
}

/**
 * What one accepted action did, in a sentence, followed by the piles it changed.
 * `before` is the game just before the action (the moved card is read from it).
 * @param {string} action
 * @param {import("./state.js").Game} before
 * @param {import("./state.js").Game} after
 * @returns {string}
 */
export function describeAction(action, before, after) {
  const sentences = [];
  const move = parseMove(action);
  if (action === "s") {
    const top = after.board.waste[after.board.waste.length - 1];
    sentences.push(top ? t("Drew %(card)s.", { card: cardName(top) }) : t("Drew a card."));
  } else if (action === "r") {
    sentences.push(t("Turned the waste over as the stock."));
  } else if (action === "undo") {
    sentences.push(t("Took back the last action."));
  } else if (action === "resign") {
    sentences.push(t("Resigned."));
  } else if (move) {
    const cards = cardsAt(before.board, move.src, move.count);
    const src = pileWords(move.src, after.board);
    const dst = pileWords(move.dst, after.board);
    sentences.push(
      move.count > 1
        ? t("Moved %(n)s cards from %(src)s to %(dst)s.", { n: move.count, src, dst })
        : t("Moved %(card)s from %(src)s to %(dst)s.", { card: cards[0] ? cardName(cards[0]) : "?", src, dst }),
    );
    for (const pile of [move.src, move.dst]) {
      if (pile[0] === "t") {
        const i = Number(pile.slice(1)) - 1;
        sentences.push(columnText(after.board.columns[i], i));
      }
    }
    if (move.src === "w") sentences.push(wasteText(after.board));
  }
  if (action === "s" || action === "r") sentences.push(stockText(after.board));
  sentences.push(t("Score %(score)s, %(moves)s moves.", { score: after.score, moves: after.moves }));
  return sentences.join(" ");
}

/**
 * The top `count` cards of a pile named in the notation ("w", "t3", "f2").
 * @param {import("./changes.js").Board} board
 * @param {string} pile
 * @param {number} [count]
 * @returns {string[]}
 */
export function cardsAt(board, pile, count = 1) {
  if (pile === "w") return board.waste.slice(-1);
  const i = Number(pile.slice(1)) - 1;
  if (pile[0] === "f") {
    const f = board.foundations[i];
    return f && f.top ? [f.top] : [];
  }
  const column = board.columns[i];
  return column ? column.cards.slice(-count) : [];
}
