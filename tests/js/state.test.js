// state.js: the board's game state and its versions, applied in order, nothing guessed.
import { test } from "node:test";
import assert from "node:assert/strict";

import { NOW, action, gameState, plain } from "./fixtures.js";
import {
  applyAction,
  clock,
  elapsedSeconds,
  justFinished,
  normalise,
  replaceState,
  withDeadEnd,
} from "../../static/js/board/state.js";

test("it applies the next version and merges only the changed piles", () => {
  const game = gameState();
  const changes = {
    columns: { 1: { down: 0, cards: ["9C"] } },
    foundations: { 1: { suit: "H", count: 2, top: "2H" } },
    legal_moves: ["s"],
    dead_end: true,
  };
  const result = applyAction(game, action(4, changes), NOW);
  assert.equal(result.kind, "applied");
  const after = result.game;
  assert.deepEqual([after.version, after.score, after.moves], [4, 20, 4]);
  assert.deepEqual(plain(after.board.columns), [game.board.columns[0], { down: 0, cards: ["9C"] }]);
  assert.deepEqual(plain(after.board.foundations[1]), { suit: "H", count: 2, top: "2H" });
  assert.deepEqual(plain(after.board.foundations[0]), game.board.foundations[0]);
  assert.deepEqual([after.board.score, after.board.moves], [20, 4]);
  // The game's own facts go on the game, not on the board view.
  assert.deepEqual(after.legal_moves, ["s"]);
  assert.equal(after.dead_end, true);
  assert.ok(!("legal_moves" in after.board) && !("dead_end" in after.board));
  assert.equal(after.role, "player");
  assert.deepEqual(after.board.waste, ["7D"]);
});

test("a dead-end notice marks only the position it was proved for", () => {
  const game = gameState(); // at version 3
  const marked = withDeadEnd(game, { type: "dead_end", version: 3 });
  assert.equal(marked.dead_end, true);
  assert.equal(marked.version, 3);
  // The player moved on before the solver answered: the notice is about the past.
  assert.deepEqual(plain(withDeadEnd(game, { type: "dead_end", version: 2 })), game);
  const over = gameState({ status: "won" });
  assert.deepEqual(plain(withDeadEnd(over, { type: "dead_end", version: 3 })), over);
});

test("it ignores a version it already holds", () => {
  const game = gameState();
  for (const version of [3, 2, null]) {
    const result = applyAction(game, action(version, { stock: 1 }), NOW);
    assert.deepEqual(plain(result), { kind: "stale", game });
  }
});

test("it reports a gap when a version was missed or carries no changes", () => {
  const game = gameState();
  assert.equal(applyAction(game, action(5, { stock: 1 }), NOW).kind, "gap");
  assert.equal(applyAction(game, action(4, null), NOW).kind, "gap");
  assert.deepEqual(plain(applyAction(game, action(4, null), NOW).game), game);
});

test("it keeps legal moves when absent and takes no dead end for undecided", () => {
  const game = gameState({ dead_end: true });
  const after = applyAction(game, action(4, { stock: 19 }), NOW).game;
  assert.deepEqual(after.legal_moves, game.legal_moves);
  assert.equal(after.dead_end, false); // proved by the server only, never carried over
  assert.equal(after.board.stock, 19);
});

test("it starts the clock at the first action and stops it at the finish", () => {
  const fresh = gameState({ version: 0, first_action_at: null });
  const started = applyAction(fresh, action(1, { stock: 19 }), NOW).game;
  assert.equal(started.first_action_at, NOW);
  assert.equal(started.finished_at, null);
  const won = action(4, { won: true, legal_moves: [] }, { status: "won" });
  const finished = applyAction(gameState(), won, NOW).game;
  assert.equal(finished.first_action_at, "2026-01-01T10:00:00+00:00");
  assert.equal(finished.finished_at, NOW);
  assert.equal(finished.status, "won");
  assert.equal(elapsedSeconds(finished, 0), 300);
  assert.equal(elapsedSeconds(fresh, 10 ** 13), 0); // no action yet
});

test("it normalises a finished game to no legal moves and no undo", () => {
  const lost = normalise(gameState({ status: "lost" }));
  assert.deepEqual(lost.legal_moves, []);
  assert.equal(lost.can_undo, false);
  const ranked = normalise(gameState({ mode: "daily" }));
  assert.equal(ranked.can_undo, false);
  assert.deepEqual(ranked.legal_moves, ["s", "t2-f2"]);
  const practice = normalise(gameState({ legal_moves: null }));
  assert.equal(practice.can_undo, true);
  assert.deepEqual(practice.legal_moves, []);
});

test("an archive game keeps its undo like practice", () => {
  assert.equal(normalise(gameState({ mode: "archive" })).can_undo, true);
  assert.equal(normalise(gameState({ mode: "ranked" })).can_undo, false);
});

test("it keeps the role when a whole state replaces the game", () => {
  const watcher = gameState({ role: "watcher" });
  const server = gameState({ version: 9, role: "player", status: "resigned" });
  const replaced = replaceState(watcher, server);
  assert.equal(replaced.role, "watcher");
  assert.equal(replaced.version, 9);
  assert.deepEqual(replaced.legal_moves, []);
  assert.equal(justFinished(watcher, replaced), true);
  assert.equal(justFinished(replaced, replaced), false);
});

test("it writes the clock in minutes and hours", () => {
  const cases = { 0: "0:00", 9: "0:09", 75: "1:15", 600: "10:00", 3725: "1:02:05" };
  for (const [seconds, text] of Object.entries(cases)) assert.equal(clock(Number(seconds)), text);
});

// The server's automatic moves (safe cards sent home after an action) ---------------------

test("an action with automatic moves moves the version by each", () => {
  const game = gameState(); // at version 3
  const msg = action(6, { stock: 19 }, { action: "s", automatic: ["t7-f2", "t7-f6"] });
  const result = applyAction(game, msg, NOW);
  assert.equal(result.kind, "applied");
  assert.equal(result.game.version, 6);
  // Without them, the same version jump is a missed action: a gap.
  assert.equal(applyAction(game, action(6, { stock: 19 }), NOW).kind, "gap");
  const short = action(5, { stock: 19 }, { automatic: ["t7-f2", "t7-f6"] });
  assert.equal(applyAction(game, short, NOW).kind, "gap");
});

test("the server's can_finish reaches the state with an accepted action and stops there", () => {
  const changes = { legal_moves: ["t2-f2"], can_finish: true, stock: 0 };
  const applied = applyAction(gameState(), action(4, changes), NOW);
  assert.equal(applied.game.can_finish, true);
  assert.ok(!("can_finish" in applied.game.board));
  assert.equal(normalise(gameState({ status: "won", can_finish: true })).can_finish, false);
});

test("it leaves the game it was given untouched", () => {
  const game = gameState();
  const before = JSON.stringify(game);
  applyAction(game, action(4, { columns: { 0: { down: 0, cards: [] } }, stock: 3 }), NOW);
  normalise(game);
  assert.equal(JSON.stringify(game), before);
});
