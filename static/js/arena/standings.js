// The arena socket's `standings` as the page's table rows, pure (tests/js/arena.test.js).

/**
 * @typedef {{entry: number, rank: number, name: string, points: number, rounds_played: number, left: boolean}} Row
 * @typedef {{type: "standings", state: string, rounds: number, entrants: number, top: number, rows: Row[]}} Standings
 * @typedef {Row & {viewer: boolean}} Line
 */

/**
 * The rows to draw, in the message's order (the top rows, then the viewer's own when it
 * is further down: the server adds it), each marked as the viewer's or not.
 * @param {Standings} message
 * @param {number | null} viewer  the viewer's entry, or null
 * @returns {Line[]}
 */
export function tableRows(message, viewer) {
  const rows = Array.isArray(message.rows) ? message.rows : [];
  return rows.map((row) => ({ ...row, viewer: viewer !== null && row.entry === viewer }));
}
