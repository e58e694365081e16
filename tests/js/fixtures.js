// Shared data for the test files (not a test file itself): a board view and a game in the
// shapes the server sends (the engine's view, the page's embedded state), an accepted
// action, a press on the table, and plain() for comparing a result as JSON carries it.

/** A small board view in the engine's shape (two columns, two foundations). */
export function boardView(overrides = {}) {
  const view = {
    variant: "forty-thieves",
    columns: [
      { down: 0, cards: ["KS", "QS"] },
      { down: 1, cards: ["5H"] },
    ],
    foundations: [
      { suit: "S", count: 0, top: null },
      { suit: "H", count: 1, top: "AH" },
    ],
    waste: ["7D"],
    stock: 20,
    redeals_left: 0,
    score: 10,
    moves: 3,
    won: false,
    stuck: false,
    can_undo: true,
  };
  return { ...view, ...overrides };
}

/** A game as the page embeds it (the fields the reducer reads). */
export function gameState(overrides = {}) {
  const game = {
    id: "g1",
    role: "player",
    mode: "practice",
    status: "active",
    version: 3,
    score: 10,
    moves: 3,
    board: boardView(),
    legal_moves: ["s", "t2-f2"],
    can_undo: true,
    hints: 0,
    solver_help: true,
    dead_end: false,
    first_action_at: "2026-01-01T10:00:00+00:00",
    finished_at: null,
  };
  return { ...game, ...overrides };
}

/** An accepted action at `version` bringing `changes` (docs/protocol.md). */
export function action(version, changes, overrides = {}) {
  const msg = { type: "action", version, action: "t2-f2", changes };
  return { ...msg, score: 20, moves: 4, status: "active", ...overrides };
}

export const NOW = "2026-01-01T10:05:00.000Z";

/** A press on the table (gestures.js): on the ace of hearts of column 7 by default. */
export function press(pile = "t7", card = "AH", index = 1, more = {}) {
  return { pile, card, index, count: 1, x: 100, y: 200, ...more };
}

/** A card's box on the page, as getBoundingClientRect() gives one. */
export function box(left, top, width = 50, height = 70) {
  return { left, top, width, height };
}

/** `value` as JSON would carry it (no undefined fields, no shared objects). */
export function plain(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
