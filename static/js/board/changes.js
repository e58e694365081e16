// The one way to apply the server's "changes" to a player view, shared by the live board
// and the replay viewer. Pure: no DOM, no translation, so it is unit-tested in Node and
// Chromium (tests/js/changes.test.js; against the engine, tests/browser/test_js_units.py).
//
// It is the inverse of games.payloads.board_changes (leaderboards.replays.frames.apply_changes in
// Python): a pile list that kept its length comes as {index: pile} with only the piles that
// changed; any other key comes whole and replaces the old value.

/**
 * @typedef {object} Column
 * @property {number} down  face-down cards under the face-up ones
 * @property {string[]} cards  the face-up cards, bottom first ("KS", "TD")
 */

/**
 * @typedef {object} Foundation
 * @property {string} suit  "S", "H", "D" or "C"
 * @property {number} count
 * @property {string | null} top
 */

/**
 * A player's view of the board (the engine's GameState.view(), docs/protocol.md).
 * @typedef {object} Board
 * @property {string} [variant]
 * @property {Column[]} columns
 * @property {Foundation[]} foundations
 * @property {string[]} waste  bottom first: the last card is on top
 * @property {number} stock  cards left in it
 * @property {number} [redeals_left]
 * @property {number} [score]
 * @property {number} [moves]
 * @property {boolean} [won]
 * @property {boolean} [stuck]
 * @property {boolean} [can_undo]
 */

/**
 * The server's changes: a pile list as {index: pile} (the piles that changed) or whole;
 * any other key whole. With the board's piles come facts about the game itself.
 * @typedef {object} Changes
 * @property {string[]} [legal_moves]
 * @property {boolean} [dead_end]
 * @property {boolean} [can_finish]
 */

const PILE_LISTS = new Set(["columns", "foundations"]);

/**
 * `view` after `changes`, as a new object; `view` itself is left as it was.
 * @param {Board} view
 * @param {Changes | null | undefined} changes
 * @returns {Board}
 */
export function applyChanges(view, changes) {
  const next = { ...view };
  for (const [key, value] of Object.entries(changes || {})) {
    if (PILE_LISTS.has(key) && value && !Array.isArray(value)) {
      const piles = (view[key] || []).slice();
      for (const [index, pile] of Object.entries(value)) piles[Number(index)] = pile;
      next[key] = piles;
    } else {
      next[key] = value;
    }
  }
  return next;
}
