// finish.js: the finish's next move, the finisher, and the result dialog's words; and
// reminders.js's words for a refusal or a card that cannot move (in English: the Italian,
// through Django's catalog, and the engine's real refusals are tested in Chromium,
// tests/browser/test_js_reminders.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import { gameState } from "./fixtures.js";
import {
  Finisher,
  confettiCount,
  nextHomeMove,
  offersFinish,
  practiceShareText,
  reviewText,
} from "../../static/js/board/finish.js";
import { cannotMoveNote, reminderText } from "../../static/js/board/reminders.js";

test("the finish sends a card home from the waste or a column only", () => {
  const game = gameState({ legal_moves: ["f1-t2", "t1-t2", "w-f3", "t2-f2"], can_finish: true });
  assert.equal(nextHomeMove(game), "w-f3");
  assert.equal(offersFinish(game), true);
  assert.equal(offersFinish({ ...game, can_finish: false }), false);
  assert.equal(nextHomeMove({ ...game, status: "won" }), null);
  assert.equal(nextHomeMove(gameState({ legal_moves: ["s", "t1-t2"] })), null);
});

test("the finisher sends one move at a time on the board each answer brings", async () => {
  // Each accepted move brings the next position, as the server's answers do.
  const positions = [["w-f1", "t1-t2"], ["t1-f2", "f1-t3"], ["t2-f1"]];
  let game = { status: "active", can_finish: true, legal_moves: positions[0] };
  const sent = [];
  let stopped = 0;
  await new Promise((done) => {
    const finisher = new Finisher({
      game: () => game,
      play: (choose, callbacks) => {
        const move = choose(); // chosen at its turn, as the action queue does
        sent.push(move);
        setTimeout(() => {
          callbacks.onAccepted(); // main.js hears the answer before it draws it
          const next = positions[sent.length];
          const over = { ...game, status: "won", legal_moves: [] };
          game = next ? { ...game, legal_moves: next } : over;
        }, 5);
      },
      onStop: () => {
        stopped += 1;
        done();
      },
      pauseMs: 10,
    });
    finisher.start();
  });
  assert.deepEqual(sent, ["w-f1", "t1-f2", "t2-f1"]);
  assert.equal(stopped, 1);
});

test("the result has a practice share text", () => {
  const result = {
    status: "won",
    score: 1234,
    moves: 280,
    time: "7:05",
    variant: "Josephine",
    code: "FT1-J-0000002",
    link: "https://example.test/practice/?code=FT1-J-0000002",
  };
  assert.equal(
    practiceShareText(result),
    "Josephine FT1-J-0000002 — won ✅ · 1234 pts · 280 moves · 7:05\n" +
      "https://example.test/practice/?code=FT1-J-0000002",
  );
  const gaveUp = practiceShareText({ ...result, status: "resigned", moves: 1 });
  assert.ok(gaveUp.startsWith("Josephine FT1-J-0000002 — resigned 🏳️ · 1234 pts · 1 move · "), gaveUp);
  assert.ok(practiceShareText({ ...result, status: "lost" }).includes("— lost ❌ ·"));
  assert.equal(confettiCount(true), 0);
  assert.ok(confettiCount(false) > 0);
});

test("the result dialog says a held result is being checked, and why", () => {
  const held = {
    text: "Forty Thieves …",
    rank: null,
    review: {
      state: "held",
      title: "Your result is being checked",
      why: ["Another account had turned this deal's cards."],
      next: "A reviewer looks at it.",
    },
  };
  assert.equal(
    reviewText(held),
    "Your result is being checked Another account had turned this deal's cards. A reviewer looks at it.",
  );
  assert.equal(reviewText({ text: "x", rank: 3, review: null }), "");
  assert.equal(reviewText(null), "");
});

test("a move outside the notation or naming a missing pile is worded", () => {
  const notation = { code: "invalid_move", rule: "notation", params: { text: "zz" }, reason: "r" };
  assert.match(reminderText(notation), /^“zz” is not a move: write s to turn a card/);
  const pile = { rule: "no_such_pile", params: { text: "t11-t1", columns: 10, foundations: 8 } };
  assert.equal(
    reminderText(pile),
    "“t11-t1” names a pile this game lacks: columns are t1 to t10, foundations f1 to f8.",
  );
  assert.equal(reminderText({ rule: "notation", params: {}, reason: "r" }), "r");
});

test("an unknown rule or odd params fall back to the server's reason", () => {
  const reason = "a rule from a newer server";
  assert.equal(reminderText({ rule: "brand_new", reason }), reason);
  const odd = { rule: "foundation_suit", params: { foundation: null }, reason };
  assert.equal(reminderText(odd), reason);
  assert.equal(reminderText({ code: "game_over", reason: "over" }), "over");
});

test("a tap on a card that cannot move says so briefly", () => {
  const game = gameState({ legal_moves: ["s", "t2-f2"] });
  const stuck = { pile: "t1", card: "QS", count: 1 };
  assert.equal(cannotMoveNote(game, stuck), "The queen of spades cannot move now.");
  // A card with somewhere to go (a foundation, or only a column) gets no note.
  assert.equal(cannotMoveNote(game, { pile: "t2", card: "5H" }), null);
  const columnsOnly = gameState({ legal_moves: ["s", "t1-t2"] });
  assert.equal(cannotMoveNote(columnsOnly, stuck), null);
});
