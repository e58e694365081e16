// Where a callout stands beside the card it is about (pure: boxes in, a place out). A
// refusal's reason, a hint or a tap's note shows next to its card, not at the screen's
// foot (notices.js measures and applies; board-finish.css draws it and its arrow).

/** @typedef {{left: number, top: number, width: number, height: number}} Box */

const EDGE = 6; // px kept from the board's sides
const ARROW_ROOM = 14; // px from the callout's corners that its arrow keeps

/**
 * The callout's place: its left and top in the board's coordinates, on which side of
 * the anchor it stands ("below" or "above": the arrow points at the anchor from there),
 * and its arrow's x inside it. Below the anchor when it fits in the window's view, else
 * above when that fits, else on the side with more room; centred on the anchor, inside
 * the board's width.
 * @param {Box} anchor  the card (or pile, button) in the board's coordinates
 * @param {{width: number, height: number}} size  the callout's size
 * @param {{width: number, top: number, bottom: number}} area  the board's width, and the
 *   part of it in the window's view (its top and bottom, in the board's coordinates)
 * @param {number} [gap]  px between the anchor and the callout (its arrow's room)
 * @returns {{left: number, top: number, side: "below" | "above", arrow: number}}
 */
export function calloutPlace(anchor, size, area, gap = 10) {
  const below = anchor.top + anchor.height + gap;
  const above = anchor.top - gap - size.height;
  const fitsBelow = below + size.height <= area.bottom;
  const fitsAbove = above >= area.top;
  let side = /** @type {"below" | "above"} */ ("below");
  if (!fitsBelow && (fitsAbove || anchor.top - area.top > area.bottom - (anchor.top + anchor.height))) {
    side = "above";
  }
  const centre = anchor.left + anchor.width / 2;
  const widest = Math.max(EDGE, area.width - size.width - EDGE);
  const left = Math.min(Math.max(centre - size.width / 2, EDGE), widest);
  const arrow = Math.min(Math.max(centre - left, ARROW_ROOM), Math.max(ARROW_ROOM, size.width - ARROW_ROOM));
  return { left, top: side === "below" ? below : above, side, arrow };
}

/**
 * A box relative to another (both as getBoundingClientRect gives them): `box` in the
 * coordinates of `origin`'s top left corner.
 * @param {Box} box
 * @param {{left: number, top: number}} origin
 * @returns {Box}
 */
export function relativeBox(box, origin) {
  return { left: box.left - origin.left, top: box.top - origin.top, width: box.width, height: box.height };
}
