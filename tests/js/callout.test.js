// callout.js: a refusal's, a hint's or a tap's callout stands beside its card, in view.
import { test } from "node:test";
import assert from "node:assert/strict";

import { box } from "./fixtures.js";
import { calloutPlace, relativeBox } from "../../static/js/board/callout.js";

const SIZE = { width: 200, height: 40 };
const AREA = { width: 1000, top: 0, bottom: 800 };

test("it stands under the card, centred on it, its arrow at the card's middle", () => {
  const card = box(400, 100, 50, 70);
  const spot = calloutPlace(card, SIZE, AREA);
  assert.equal(spot.side, "below");
  assert.equal(spot.top, 180); // the card's foot and the arrow's 10 px
  assert.equal(spot.left, 325); // 425 - 100
  assert.equal(spot.arrow, 100);
});

test("it stands over a card at the window's foot", () => {
  const card = box(400, 730, 50, 70);
  const spot = calloutPlace(card, SIZE, AREA);
  assert.equal(spot.side, "above");
  assert.equal(spot.top, 680);
  // Scrolled: the part of the board in view decides, not the board's own height.
  const scrolled = calloutPlace(box(400, 1330, 50, 70), SIZE, { width: 1000, top: 600, bottom: 1400 });
  assert.equal(scrolled.side, "above");
});

test("it keeps inside the board's sides, its arrow still on the card", () => {
  const left = calloutPlace(box(0, 100, 50, 70), SIZE, AREA);
  assert.equal(left.left, 6);
  assert.equal(left.arrow, 19); // the card's middle, 25, less the 6 px kept from the side
  const right = calloutPlace(box(960, 100, 40, 70), SIZE, AREA);
  assert.equal(right.left, 794);
  assert.equal(right.arrow, 186); // the arrow keeps 14 px from the corner
});

test("with room on neither side it takes the roomier one", () => {
  const tall = { width: 200, height: 700 };
  assert.equal(calloutPlace(box(400, 100, 50, 70), tall, AREA).side, "below");
  assert.equal(calloutPlace(box(400, 600, 50, 70), tall, AREA).side, "above");
});

test("boxes are read in the board's coordinates", () => {
  assert.deepEqual(relativeBox(box(150, 300, 50, 70), { left: 100, top: 250 }), box(50, 50, 50, 70));
});
