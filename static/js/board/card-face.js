// The faces of the cards, as data: where each pip of a 2-10 stands, the suits' shapes and the
// court figures' parts, in a card of 100 x 140 units (the 5:7 of a real card). Pure: no DOM
// here (card-art.js draws it). The layouts are those of French-suited cards: pips in two
// columns and a middle one, the lower half turned upside down so the card reads both ways.

export const CARD_W = 100;
export const CARD_H = 140;

// Each suit's outline in a 100 x 100 box (drawn here, not taken from a font, so every
// browser shows the same shape).
export const SUIT_PATHS = {
  S:
    "M50 4C38 22 8 38 8 62c0 15 12 25 25 25 7 0 12-3 15-7-1 8-4 14-10 16h24" +
    "c-6-2-9-8-10-16 3 4 8 7 15 7 13 0 25-10 25-25C92 38 62 22 50 4z",
  H: "M50 94C22 70 4 54 4 32 4 16 16 6 29 6c9 0 17 5 21 13 4-8 12-13 21-13 13 0 25 10 25 26 0 22-18 38-46 62z",
  D: "M50 3 88 50 50 97 12 50z",
  C:
    "M50 6a21 21 0 0 0-19 30 21 21 0 1 0 13 33c-1 10-4 17-11 21h34c-7-4-10-11-11-21" +
    "a21 21 0 1 0 13-33A21 21 0 0 0 50 6z",
};

const LEFT = 34;
const MIDDLE = 50;
const RIGHT = 66;
// Four rows from top to bottom, as on a 9 or a 10; the middle of the card at 70.
const ROWS = [32, 58, 82, 108];
const TOP = ROWS[0];
const BOTTOM = ROWS[3];
const CENTRE = 70;

/** A pip at (x, y), turned upside down below the middle. */
function pip(x, y) {
  return { x, y, flip: y > CENTRE };
}

const PAIRS = (ys) => ys.flatMap((y) => [pip(LEFT, y), pip(RIGHT, y)]);

const LAYOUTS = {
  A: [pip(MIDDLE, CENTRE)],
  2: [pip(MIDDLE, TOP), pip(MIDDLE, BOTTOM)],
  3: [pip(MIDDLE, TOP), pip(MIDDLE, CENTRE), pip(MIDDLE, BOTTOM)],
  4: PAIRS([TOP, BOTTOM]),
  5: [...PAIRS([TOP, BOTTOM]), pip(MIDDLE, CENTRE)],
  6: PAIRS([TOP, CENTRE, BOTTOM]),
  7: [...PAIRS([TOP, CENTRE, BOTTOM]), pip(MIDDLE, 51)],
  8: [...PAIRS([TOP, CENTRE, BOTTOM]), pip(MIDDLE, 51), pip(MIDDLE, 89)],
  9: [...PAIRS(ROWS), pip(MIDDLE, CENTRE)],
  T: [...PAIRS(ROWS), pip(MIDDLE, 45), pip(MIDDLE, 95)],
};

/** The pips of a card of rank `rank` ("A", "2".."9", "T"); [] for a court card. */
export function pipLayout(rank) {
  return LAYOUTS[rank] ?? [];
}

/** How big a pip is drawn (its box's side): the ace's one pip is the big one. */
export function pipSize(rank) {
  if (rank === "A") return 46;
  return rank === "9" || rank === "T" ? 17 : 20;
}

export function isCourt(rank) {
  return rank === "J" || rank === "Q" || rank === "K";
}

// The court figures: a half-figure in a frame, mirrored in the lower half as on real cards.
// Each part is a path in the frame's upper half (x 20-80, y 16-70), with the role that gives
// its colour (card-art.js: the suit's colour, gold, the face's tone, or the line colour).
const HEAD = "M50 31a9 10 0 1 0 0.1 0z";
const SHOULDERS = "M24 70c0-15 10-22 26-22s26 7 26 22z";
const COURT_PARTS = {
  K: [
    { role: "robe", d: SHOULDERS },
    { role: "trim", d: "M44 48h12l-6 22z" },
    { role: "face", d: HEAD },
    { role: "beard", d: "M41 42c2 8 16 8 18 0-2 6-16 6-18 0z" },
    { role: "gold", d: "M38 32l3-11 5 7 4-9 4 9 5-7 3 11z" },
    { role: "gold", d: "M66 70V36l4-3 4 3v34z" },
  ],
  Q: [
    { role: "robe", d: SHOULDERS },
    { role: "trim", d: "M36 52c8 6 20 6 28 0l-2 6c-8 5-16 5-24 0z" },
    { role: "hair", d: "M39 44c-3-10 1-20 11-21s14 11 11 21c-2-7-5-12-11-12s-9 5-11 12z" },
    { role: "face", d: HEAD },
    { role: "gold", d: "M41 30l4-7 5 4 5-4 4 7z" },
    { role: "gold", d: "M28 70c0-8 3-13 8-15l3 15z" },
  ],
  J: [
    { role: "robe", d: SHOULDERS },
    { role: "trim", d: "M30 58h40v4H30z" },
    { role: "face", d: HEAD },
    { role: "hair", d: "M40 33c0-8 5-11 10-11s10 3 10 11c-3-4-6-5-10-5s-7 1-10 5z" },
    { role: "robe", d: "M36 26c4-7 24-7 28 0l6-3-2 6H34l-4-6z" },
    { role: "gold", d: "M70 22l3 1-3 47h-2z" },
  ],
};

/** The drawn parts of a court card's upper half; [] for any other rank. */
export function courtParts(rank) {
  return COURT_PARTS[rank] ?? [];
}

/** The frame a court figure stands in (x, y, width, height). */
export const COURT_FRAME = { x: 20, y: 16, width: 60, height: 108 };
