// card-face.js: the pips of every 2-10 as on real cards (as many as the rank, inside the
// card, clear of each other, the lower half turned), and no pips on a court card.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  CARD_H,
  CARD_W,
  courtParts,
  isCourt,
  pipLayout,
  pipSize,
} from "../../static/js/board/card-face.js";

const VALUES = { A: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10 };

test("every pip card shows as many pips as its rank", () => {
  for (const [rank, value] of Object.entries(VALUES)) {
    assert.equal(pipLayout(rank).length, value, rank);
  }
});

test("pips stand inside the card and clear of each other", () => {
  for (const rank of Object.keys(VALUES)) {
    const size = pipSize(rank);
    const pips = pipLayout(rank);
    for (const spot of pips) {
      assert.ok(spot.x >= size / 2 && spot.x <= CARD_W - size / 2, `${rank} x ${spot.x}`);
      assert.ok(spot.y >= size / 2 && spot.y <= CARD_H - size / 2, `${rank} y ${spot.y}`);
    }
    for (let i = 0; i < pips.length; i += 1) {
      for (let j = i + 1; j < pips.length; j += 1) {
        const gap = Math.hypot(pips[i].x - pips[j].x, pips[i].y - pips[j].y);
        // Suit shapes fill most of their box: centres most of a box apart never touch.
        assert.ok(gap >= size * 0.9, `${rank}: pips ${i} and ${j} are ${gap} apart`);
      }
    }
  }
});

test("the lower half reads upside down and the card reads both ways", () => {
  for (const rank of Object.keys(VALUES)) {
    const pips = pipLayout(rank);
    for (const spot of pips) assert.equal(spot.flip, spot.y > CARD_H / 2, `${rank} ${spot.y}`);
    if (rank === "7") continue; // its odd pip stands in the upper half, as on real sevens
    const places = pips.map((p) => `${p.x},${p.y}`).sort();
    const turned = pips.map((p) => `${CARD_W - p.x},${CARD_H - p.y}`).sort();
    assert.deepEqual(places, turned, rank);
  }
});

test("a court card has a figure and no pips", () => {
  for (const rank of ["J", "Q", "K"]) {
    assert.ok(isCourt(rank));
    assert.deepEqual(pipLayout(rank), []);
    assert.ok(courtParts(rank).length >= 5, rank);
  }
  assert.ok(!isCourt("T"));
  assert.deepEqual(courtParts("T"), []);
});
