// Reading the server's legal_moves. The board never decides a rule: "where may this
// card go" is always "which moves in legal_moves start at this pile". Choosing among
// the legal targets (longest column first, ...) is presentation, not rules.

const PATTERN = /^(w|[tf]\d+)-([tf]\d+)(?:x(\d+))?$/;

/** {src, dst, count} for a card move in the notation, null for s, r, undo... */
export function parseMove(text) {
  const m = PATTERN.exec(text || "");
  if (!m) return null;
  return { src: m[1], dst: m[2], count: m[3] ? Number(m[3]) : 1 };
}

/** The piles a move names, source first: "t3-f1" -> [t3, f1]; "s" and "r" -> [stock]. */
export function movePiles(text) {
  if (text === "s" || text === "r") return ["stock"];
  const m = parseMove(text);
  return m ? [m.src, m.dst] : [];
}

/** The move text for `count` cards from `src` to `dst` ("t3-t5x3" for a run). */
export function formatMove(src, dst, count = 1) {
  return `${src}-${dst}${count > 1 ? `x${count}` : ""}`;
}

/** The legal destinations of `count` cards from `src`, as pile names ("t4", "f2"). */
export function legalTargets(legalMoves, src, count = 1) {
  const out = [];
  for (const text of legalMoves) {
    const m = parseMove(text);
    if (m && m.src === src && m.count === count) out.push(m.dst);
  }
  return out;
}

/** Whether any move from `src` (of any count) is legal: the pile is worth picking up. */
export function hasMovesFrom(legalMoves, src) {
  return legalMoves.some((text) => text.startsWith(`${src}-`));
}

/** The legal run lengths from column `src` to `dst`, longest first. */
export function legalCounts(legalMoves, src, dst) {
  const counts = [];
  for (const text of legalMoves) {
    const m = parseMove(text);
    if (m && m.src === src && m.dst === dst) counts.push(m.count);
  }
  return counts.sort((a, b) => b - a);
}

/**
 * Where a tap or double-click sends the top `count` cards of `src`, as in the
 * reference app: a foundation first; then (double-click, or a tap on the waste) the
 * longest column that accepts it, then an empty one. Null when nothing is legal.
 */
export function smartTarget(game, src, count, { columns }) {
  const targets = legalTargets(game.legal_moves, src, count);
  const foundation = targets.find((p) => p[0] === "f");
  if (foundation || !columns) return foundation || null;
  let best = null;
  let bestLength = -1;
  for (const p of targets) {
    if (p[0] !== "t") continue;
    const c = game.board.columns[Number(p.slice(1)) - 1];
    const length = c.down + c.cards.length;
    // An empty column is the last resort: it is the most precious space on the table.
    const rank = length === 0 ? -0.5 : length;
    if (rank > bestLength) {
      best = p;
      bestLength = rank;
    }
  }
  return best;
}

/**
 * What a tap on the stock sends: a draw, or with the stock empty and a redeal left, the
 * redeal (a draw goes even on an empty stock: the server says why not); null once over.
 */
export function drawMove(game) {
  if (game.status !== "active") return null;
  return game.board.stock === 0 && game.legal_moves.includes("r") ? "r" : "s";
}
