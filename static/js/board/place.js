// Where a tap sends a card (pure: no DOM). The engine decides what is legal: every place
// chosen here is one of the server's legal_moves for those cards (moves.js reads them),
// and nothing here knows a rule. Choosing among the legal places is presentation: a
// foundation first, then a column that takes the cards on a card (one of their own suit
// first, then the longest: the short ones are nearer to being emptied), and an empty
// column last, the most precious space on the table.
//
// The table's setting `tap` (settings-state.js) says what a single tap does: "best", the
// best place as above; "home", a foundation only (the waste's card, failing that, a
// column), with a double-tap for the rest, as the table first did.

import { suitOf } from "./cards.js";
import { cardsAt } from "./describe.js";
import { t } from "./i18n.js";
import { legalTargets } from "./moves.js";
import { cannotMoveNote, sentence, theCard } from "./reminders.js";

export const TAP_MODES = ["best", "home"];

/**
 * The suit of the card that would land: the lowest card of the run of `count` from `src`.
 * @param {import("./changes.js").Board} board
 * @param {string} src
 * @param {number} count
 * @returns {string | null}
 */
function landingSuit(board, src, count) {
  let card;
  if (src === "w") card = board.waste[board.waste.length - 1];
  else if (src[0] === "f") card = board.foundations[Number(src.slice(1)) - 1]?.top;
  else {
    const cards = board.columns[Number(src.slice(1)) - 1]?.cards || [];
    card = cards[cards.length - count];
  }
  return card ? card[1] : null;
}

/**
 * The best legal place for the top `count` cards of `src`, as a pile name, or null when
 * no move of them is legal.
 * @param {import("./state.js").Game} game
 * @param {string} src
 * @param {number} count
 * @returns {string | null}
 */
export function bestPlace(game, src, count) {
  const targets = legalTargets(game.legal_moves, src, count);
  const foundation = targets.find((p) => p[0] === "f");
  if (foundation) return foundation;
  const suit = landingSuit(game.board, src, count);
  let best = null;
  let bestRank = -Infinity;
  for (const p of targets) {
    if (p[0] !== "t") continue;
    const column = game.board.columns[Number(p.slice(1)) - 1];
    const length = column.down + column.cards.length;
    const top = column.cards[column.cards.length - 1];
    // 1000: more than any column's length, so a card of the same suit comes first.
    const rank = length === 0 ? -1 : length + (top && top[1] === suit ? 1000 : 0);
    if (rank > bestRank) {
      best = p;
      bestRank = rank;
    }
  }
  return best;
}

/**
 * Where a tap or double-click sends the top `count` cards of `src`: a foundation first;
 * then, if `columns` (a double-tap, a tap on the waste, or any tap in "best"), the best
 * column (bestPlace). Null when nothing is legal.
 * @param {import("./state.js").Game} game
 * @param {string} src
 * @param {number} count
 * @param {{columns: boolean}} options  columns: a column may take it (else foundations only)
 * @returns {string | null}
 */
export function smartTarget(game, src, count, { columns }) {
  if (columns) return bestPlace(game, src, count);
  return legalTargets(game.legal_moves, src, count).find((p) => p[0] === "f") || null;
}

/**
 * Where a press sends the top `count` cards of `src` under the table's setting `tap`.
 * @param {import("./state.js").Game} game
 * @param {string} src
 * @param {number} count
 * @param {{tap?: string, double?: boolean}} [options]
 * @returns {string | null}
 */
export function tapTarget(game, src, count, { tap = "best", double = false } = {}) {
  return smartTarget(game, src, count, { columns: tap !== "home" || double || src === "w" });
}

/**
 * What to tell the player after a single tap that moved nothing (`tap`: {pile, card,
 * count}): that the card cannot move now; under "home", a card only a column takes, that
 * a double-tap places it. Null when there is nothing to say.
 * @param {import("./state.js").Game} game
 * @param {{pile: string, card: string | null, count?: number}} press
 * @param {{tap?: string}} [options]
 * @returns {string | null}
 */
export function tapNote(game, press, { tap = "best" } = {}) {
  const cannot = cannotMoveNote(game, press);
  if (cannot || tap !== "home" || !press.card || game.status !== "active") return cannot;
  const columns = legalTargets(game.legal_moves, press.pile, press.count || 1).some((p) => p[0] === "t");
  return columns ? sentence(t("Double-tap to place %(card)s on a column.", { card: theCard(press.card) })) : null;
}

/**
 * The foundation of the top card of `pile`'s suit that is furthest along, its likeliest
 * home, whether or not it takes the card now: a move there is asked anyway when nothing
 * is legal, so that the server says why not. Null for an empty pile.
 * @param {import("./changes.js").Board} board
 * @param {string} pile
 * @returns {string | null}
 */
export function ownFoundation(board, pile) {
  const [card] = cardsAt(board, pile, 1);
  if (!card) return null;
  let best = null;
  board.foundations.forEach((f, k) => {
    if (f.suit === suitOf(card) && `f${k + 1}` !== pile && (!best || f.count > best.count)) {
      best = { name: `f${k + 1}`, count: f.count };
    }
  });
  return best?.name ?? null;
}
