// Reading the server's legal_moves. The board never decides a rule: "where may this
// card go" is always "which moves in legal_moves start at this pile". Choosing among
// the legal targets (a tap's best place) is presentation, not rules: place.js.

const PATTERN = /^(w|[tf]\d+)-([tf]\d+)(?:x(\d+))?$/;

/**
 * A card move: `count` cards from pile `src` to pile `dst` ("w", "t1".."t10", "f1".."f8").
 * @typedef {{src: string, dst: string, count: number}} Move
 */

/**
 * {src, dst, count} for a card move in the notation, null for s, r, undo...
 * @param {string | null | undefined} text
 * @returns {Move | null}
 */
export function parseMove(text) {
  const m = PATTERN.exec(text || "");
  if (!m) return null;
  return { src: m[1], dst: m[2], count: m[3] ? Number(m[3]) : 1 };
}

/**
 * The piles a move names, source first: "t3-f1" -> [t3, f1]; "s" and "r" -> [stock].
 * @param {string} text
 * @returns {string[]}
 */
export function movePiles(text) {
  if (text === "s" || text === "r") return ["stock"];
  const m = parseMove(text);
  return m ? [m.src, m.dst] : [];
}

/**
 * The move text for `count` cards from `src` to `dst` ("t3-t5x3" for a run).
 * @param {string} src
 * @param {string} dst
 * @param {number} [count]
 * @returns {string}
 */
export function formatMove(src, dst, count = 1) {
  return `${src}-${dst}${count > 1 ? `x${count}` : ""}`;
}

/**
 * The legal destinations of `count` cards from `src`, as pile names ("t4", "f2").
 * @param {string[]} legalMoves
 * @param {string} src
 * @param {number} [count]
 * @returns {string[]}
 */
export function legalTargets(legalMoves, src, count = 1) {
  const out = [];
  for (const text of legalMoves) {
    const m = parseMove(text);
    if (m && m.src === src && m.count === count) out.push(m.dst);
  }
  return out;
}

/**
 * Whether any move from `src` (of any count) is legal: the pile is worth picking up.
 * @param {string[]} legalMoves
 * @param {string} src
 * @returns {boolean}
 */
export function hasMovesFrom(legalMoves, src) {
  return legalMoves.some((text) => text.startsWith(`${src}-`));
}

/**
 * The legal run lengths from column `src` to `dst`, longest first.
 * @param {string[]} legalMoves
 * @param {string} src
 * @param {string} dst
 * @returns {number[]}
 */
export function legalCounts(legalMoves, src, dst) {
  const counts = [];
  for (const text of legalMoves) {
    const m = parseMove(text);
    if (m && m.src === src && m.dst === dst) counts.push(m.count);
  }
  return counts.sort((a, b) => b - a);
}

/**
 * What a tap on the stock sends: a draw, or with the stock empty and a redeal left, the
 * redeal (a draw goes even on an empty stock: the server says why not); null once over.
 * @param {import("./state.js").Game} game
 * @returns {"s" | "r" | null}
 */
export function drawMove(game) {
  if (game.status !== "active") return null;
  return game.board.stock === 0 && game.legal_moves.includes("r") ? "r" : "s";
}
