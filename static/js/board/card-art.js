// Draws a card's face (card-face.js's data) as an SVG element: the pips of an ace to a 10,
// or a court figure in its frame, mirrored below the middle. The corner index stays HTML
// (render.js), readable at every card size; this face shows once a card is wide enough
// (board.css), smaller cards keep one big pip.

import {
  CARD_H,
  CARD_W,
  COURT_FRAME,
  SUIT_PATHS,
  courtParts,
  isCourt,
  pipLayout,
  pipSize,
} from "./card-face.js";

const SVG = "http://www.w3.org/2000/svg";

function node(name, attributes) {
  const el = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  return el;
}

/** One suit shape of side `size` centred on (x, y), upside down when `flip`. */
function suitShape(suit, x, y, size, flip) {
  const scale = size / 100;
  const turn = flip ? ` rotate(180 ${x} ${y})` : "";
  return node("path", {
    d: SUIT_PATHS[suit],
    class: "ft-face__pip",
    transform: `${turn} translate(${x - size / 2} ${y - size / 2}) scale(${scale})`.trim(),
  });
}

function courtFigure(rank, suit) {
  const group = node("g", { class: "ft-face__court" });
  const { x, y, width, height } = COURT_FRAME;
  group.append(node("rect", { x, y, width, height, rx: 3, class: "ft-face__frame" }));
  const half = node("g", {});
  for (const part of courtParts(rank)) {
    half.append(node("path", { d: part.d, class: `ft-face__${part.role}` }));
  }
  // The suit beside the figure's head, as a real court card shows it.
  half.append(suitShape(suit, x + 9, y + 10, 12, false));
  const lower = half.cloneNode(true);
  lower.setAttribute("transform", `rotate(180 ${CARD_W / 2} ${CARD_H / 2})`);
  group.append(half, lower);
  group.append(
    node("line", { x1: x, y1: CARD_H / 2, x2: x + width, y2: CARD_H / 2, class: "ft-face__line" }),
  );
  return group;
}

/** The face of `code` ("7H", "QS"...) as an <svg> that fills its card. */
export function drawFace(code) {
  const rank = code[0];
  const suit = code[1];
  const svg = node("svg", {
    viewBox: `0 0 ${CARD_W} ${CARD_H}`,
    class: "ft-card__face",
    "aria-hidden": "true",
    focusable: "false",
  });
  if (isCourt(rank)) {
    svg.append(courtFigure(rank, suit));
  } else {
    const size = pipSize(rank);
    for (const spot of pipLayout(rank)) svg.append(suitShape(suit, spot.x, spot.y, size, spot.flip));
  }
  return svg;
}
