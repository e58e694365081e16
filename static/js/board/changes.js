// The one way to apply the server's "changes" to a player view, shared by the live board
// and the replay viewer. Pure: no DOM, no translation, so it is unit-tested in Chromium
// (tests/browser/test_js_units.py).
//
// It is the inverse of games.payloads.board_changes (leaderboards.replays.frames.apply_changes in
// Python): a pile list that kept its length comes as {index: pile} with only the piles that
// changed; any other key comes whole and replaces the old value.

const PILE_LISTS = new Set(["columns", "foundations"]);

/** `view` after `changes`, as a new object; `view` itself is left as it was. */
export function applyChanges(view, changes) {
  const next = { ...view };
  for (const [key, value] of Object.entries(changes || {})) {
    if (PILE_LISTS.has(key) && value && !Array.isArray(value)) {
      const piles = (view[key] || []).slice();
      for (const [index, pile] of Object.entries(value)) piles[Number(index)] = pile;
      next[key] = piles;
    } else {
      next[key] = value;
    }
  }
  return next;
}
