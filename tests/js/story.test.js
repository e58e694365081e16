// story-words.js: the result story's words and figures (cards home, the outcome, the
// place "so far", the spread's bands, the streak, the countdown), in English here and, for
// the language-dependent choices, through a stand-in catalog; the real catalogs are
// tested in Chromium (tests/browser/test_result_story.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import { boardView } from "./fixtures.js";
import {
  MAX_BANDS,
  bandLabel,
  bandWidth,
  bands,
  cardsHome,
  countdown,
  nextDealText,
  nextRankedText,
  ordinal,
  outcomeWords,
  placeText,
  practiceText,
  spreadCaption,
  spreadHeading,
  streakDays,
  streakNote,
} from "../../static/js/board/story-words.js";

/** Eight foundations holding `counts` cards (a two-deck game: 104 in all). */
function board(...counts) {
  const foundations = Array.from({ length: 8 }, (_, k) => ({ suit: "SHDC"[k % 4], count: counts[k] ?? 0 }));
  return boardView({ foundations });
}

test("the cards home are counted from the foundations, out of the deck", () => {
  assert.deepEqual(cardsHome(board(13, 13, 13, 13, 13, 13, 13, 13)), { home: 104, total: 104 });
  assert.deepEqual(cardsHome(board(5, 0, 2)), { home: 7, total: 104 });
  assert.deepEqual(cardsHome(boardView()), { home: 1, total: 26 });
  assert.deepEqual(cardsHome(null), { home: 0, total: 0 });
});

test("the outcome is said in plain words, with the cards home", () => {
  const won = outcomeWords({ status: "won", board: board(13, 13, 13, 13, 13, 13, 13, 13) }, true);
  assert.deepEqual(won, { title: "You won!", line: "All 104 cards home." });
  const resigned = outcomeWords({ status: "resigned", board: board(10, 3) }, true);
  assert.deepEqual(resigned, { title: "You resigned", line: "13 of 104 cards home when you resigned." });
  const lost = outcomeWords({ status: "lost", board: board(5, 5, 5, 5, 5, 5, 5, 5) }, true);
  assert.deepEqual(lost, { title: "Not won this time", line: "40 of 104 cards home: no more moves." });
  // A watcher reads the player's name, and never "you".
  const theirs = outcomeWords({ status: "won", player: "Ada", board: board(13, 13, 13, 13, 13, 13, 13, 13) }, false);
  assert.equal(theirs.title, "Ada won");
  const gaveUp = outcomeWords({ status: "resigned", player: "Ada", board: board(2) }, false);
  assert.deepEqual(gaveUp, { title: "Game over", line: "2 of 104 cards home: resigned." });
});

test("english ordinals follow the language's ordinal rule, teens included", () => {
  const got = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map((n) => ordinal(n, "en"));
  assert.deepEqual(got, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]);
  assert.equal(ordinal(2, "no-such-language-tag-!"), "2th"); // an unusable tag: the "other" form
});

test("a language with one ordinal form uses its 'other' string for every number", () => {
  const catalog = { "%(n)sst": "%(n)sST", "%(n)snd": "%(n)sND", "%(n)srd": "%(n)sRD", "%(n)sth": "%(n)se" };
  globalThis.gettext = (msgid) => catalog[msgid] ?? msgid;
  try {
    // Dutch has no one/two/few ordinal categories: 1e, 2e, 3e, 21e.
    assert.deepEqual([1, 2, 3, 21].map((n) => ordinal(n, "nl")), ["1e", "2e", "3e", "21e"]);
    assert.deepEqual([1, 2, 3].map((n) => ordinal(n, "en")), ["1ST", "2ND", "3RD"]);
  } finally {
    delete globalThis.gettext;
  }
});

test("the place is 'so far' while the board is open, and waits for a rank", () => {
  assert.equal(placeText({ rank: 3, size: 41, open: true }, "en"), "3rd of 41 players so far");
  assert.equal(placeText({ rank: 1, size: 1, open: true }, "en"), "1st of 1 player so far");
  assert.equal(placeText({ rank: 12, size: 40, open: false }, "en"), "12th of 40 players");
  assert.equal(placeText({ rank: null, size: null, open: true }, "en"), "");
  assert.equal(placeText(null, "en"), "");
});

test("the plural forms come from the catalog's ngettext with the count", () => {
  const asked = [];
  globalThis.ngettext = (one, many, n) => {
    asked.push([one, n]);
    return n === 1 ? `[1] ${one}` : `[n] ${many}`;
  };
  try {
    assert.equal(streakDays(1), "[1] 1 day");
    assert.equal(streakDays(5), "[n] 5 days");
    assert.equal(placeText({ rank: 2, size: 7, open: true }, "en"), "[n] 2nd of 7 players so far");
    assert.deepEqual(asked.at(-1), ["%(place)s of %(size)s player so far", 7]);
  } finally {
    delete globalThis.ngettext;
  }
});

test("the band width is the narrowest that fits the lost scores in a few bands", () => {
  assert.equal(bandWidth(0), 50);
  assert.equal(bandWidth(249), 50); // 0-49 ... 200-249: five bands
  assert.equal(bandWidth(250), 100);
  assert.equal(bandWidth(499), 100);
  assert.equal(bandWidth(999), 200);
  assert.equal(bandWidth(1035), 250);
  assert.equal(bandWidth(2400), 500);
  for (const top of [0, 45, 260, 730, 1035, 1995, 4800]) {
    assert.ok(Math.floor(top / bandWidth(top)) + 1 <= MAX_BANDS, `top ${top}`);
  }
});

test("the spread's bars: the wins first, then every band from the best lost one to 0", () => {
  const spread = [
    [1310, true, 2],
    [1200, true, 1],
    [720, false, 1],
    [455, false, 3],
    [400, false, 1],
    [35, false, 4],
  ];
  const bars = bands(spread, { score: 455, won: false });
  assert.deepEqual(
    bars.map((bar) => [bandLabel(bar), bar.count, bar.mine]),
    [
      ["Won", 3, false],
      ["600–799", 1, false],
      ["400–599", 4, true],
      ["200–399", 0, false],
      ["0–199", 4, false],
    ],
  );
  // Bar lengths are shares of the longest bar; an empty band's is 0.
  assert.deepEqual(
    bars.map((bar) => bar.share),
    [0.75, 0.25, 1, 0, 1],
  );
  // A winner's bar is the wins'; a result not counted (held: no rank) marks none.
  assert.deepEqual(
    bands(spread, { score: 1310, won: true }).map((bar) => bar.mine),
    [true, false, false, false, false],
  );
  assert.ok(bands(spread, null).every((bar) => !bar.mine));
});

test("a spread of wins alone is one bar, and an empty one draws no band", () => {
  assert.deepEqual(
    bands([[1300, true, 5]], { score: 1300, won: true }).map((b) => [b.won, b.count, b.share]),
    [[true, 5, 1]],
  );
  const lonely = bands([[0, false, 1]], { score: 0, won: false });
  assert.deepEqual(
    lonely.map((b) => [bandLabel(b), b.count, b.mine]),
    [
      ["Won", 0, false],
      ["0–49", 1, true],
    ],
  );
  assert.deepEqual(bands([], null).map((b) => b.count), [0]);
});

test("the spread's heading says whose results and whether they are final", () => {
  assert.equal(spreadHeading({ kind: "daily", open: true }), "Today's results so far");
  assert.equal(spreadHeading({ kind: "daily", open: false }), "The day's results");
  assert.equal(spreadHeading({ kind: "weekly", open: true }), "This week's results so far");
  assert.equal(spreadHeading({ kind: "weekly", open: false }), "The week's results");
  assert.equal(spreadCaption(1), "1 player, by score");
  assert.equal(spreadCaption(41), "41 players, by score");
});

test("the streak's note: a loss starts over, a new best is said", () => {
  assert.equal(streakNote({ current: 0, best: 4 }, false), "Win tomorrow's deal to start a new streak.");
  assert.equal(streakNote({ current: 5, best: 5 }, true), "Your best streak yet.");
  assert.equal(streakNote({ current: 1, best: 1 }, true), "");
  assert.equal(streakNote({ current: 2, best: 6 }, true), "");
});

test("the countdown counts hours, minutes and seconds, with days in front past one", () => {
  const second = 1000;
  const hour = 3600 * second;
  assert.equal(countdown(5 * hour + 12 * 60 * second + 33 * second + 999), "05:12:33");
  assert.equal(countdown(0), "00:00:00");
  assert.equal(countdown(-5000), "00:00:00");
  assert.equal(countdown(24 * hour + 61 * second), "1 day 00:01:01");
  assert.equal(countdown(3 * 24 * hour + 2 * hour), "3 days 02:00:00");
  assert.equal(nextDealText("daily", 2 * hour), "Tomorrow's deal in 02:00:00");
  assert.equal(nextDealText("weekly", 50 * hour), "Next week's challenge in 2 days 02:00:00");
  assert.equal(nextDealText("daily", 0), "The next daily deal is out.");
  assert.equal(nextDealText("weekly", -1), "The next weekly challenge is out.");
});

test("the next steps name this deal once it is out, else a deal of its variant", () => {
  assert.equal(practiceText({ deal: true }), "Practise this deal");
  assert.equal(practiceText({ deal: false, variant: "Forty Thieves" }), "Practise a Forty Thieves deal");
  assert.equal(nextRankedText({ kind: "weekly" }), "Play this week's challenge");
  assert.equal(nextRankedText({ kind: "daily" }), "Play today's deal");
});
