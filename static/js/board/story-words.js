// The result's story in words and figures, without the DOM (story.js draws it): how many
// cards went home, the outcome in plain words, the place among the players so far, the
// day's spread of results in a few bands, the streak and the countdown to the next deal.
// Pure functions of plain objects and the page's language, so they are unit-tested in
// Node and Chromium (tests/js/story.test.js).

import { t, tn } from "./i18n.js";

/** At most this many bands of lost results in the spread (and one of the wins above). */
export const MAX_BANDS = 5;
/** Band widths in points, the narrowest that fits MAX_BANDS chosen (scores go by 5). */
const WIDTHS = [50, 100, 200, 250, 500, 1000, 2000];

/**
 * The story of a ranked result, as the server tells it (GET story_url; leaderboards/story.py).
 * @typedef {object} Story
 * @property {"daily" | "weekly"} kind
 * @property {string} day
 * @property {boolean} open  the board still takes results: the place is "so far"
 * @property {boolean} won
 * @property {number} score
 * @property {string} time  the verified time ("7:05")
 * @property {string | null} text  the share text (daily results)
 * @property {number | null} rank
 * @property {number | null} size
 * @property {{state: string, title?: string, why?: string[], next?: string} | null} review
 * @property {Array<[number, boolean, number]>} spread  [score, won, count], best first
 * @property {number} players
 * @property {{current: number, best: number} | null} streak
 * @property {string | null} next_deal_at
 * @property {string} server_now
 * @property {{board: string, replay: string}} links
 * @property {{deal: boolean, method: string, url: string, fields?: Record<string, string>, variant?: string}} practice
 * @property {{kind: string, url: string} | null} next_ranked
 */

/**
 * The cards home and the deck's size, from a board's foundations (13 cards each).
 * @param {{foundations?: Array<{count: number}>} | null | undefined} board
 * @returns {{home: number, total: number}}
 */
export function cardsHome(board) {
  const foundations = board?.foundations || [];
  const home = foundations.reduce((sum, pile) => sum + (Number(pile.count) || 0), 0);
  return { home, total: foundations.length * 13 };
}

/**
 * The dialog's title and first line: won or not, in plain words, and the cards home.
 * `mine`: the viewer played it; else `player` names who did.
 * @param {{status: string, player?: string, board?: any}} game
 * @param {boolean} mine
 * @returns {{title: string, line: string}}
 */
export function outcomeWords(game, mine) {
  const { home, total } = cardsHome(game.board);
  if (game.status === "won") {
    return {
      title: mine ? t("You won!") : t("%(player)s won", { player: game.player }),
      line: t("All %(total)s cards home.", { total }),
    };
  }
  if (game.status === "resigned") {
    return {
      title: mine ? t("You resigned") : t("Game over"),
      line: mine
        ? t("%(home)s of %(total)s cards home when you resigned.", { home, total })
        : t("%(home)s of %(total)s cards home: resigned.", { home, total }),
    };
  }
  return {
    title: mine ? t("Not won this time") : t("Game over"),
    line: t("%(home)s of %(total)s cards home: no more moves.", { home, total }),
  };
}

/**
 * `n` as an ordinal in the page's language: 1st, 2nd, 3rd, 4th, 11th, 21st in English;
 * the other languages write theirs in the catalog ("3º", "3e", "3."). The language's own
 * ordinal categories (Intl.PluralRules) pick the form, so English's one/two/few/other
 * each have a string, and a language without them uses the "other" one.
 * @param {number} n
 * @param {string} lang  the page's language (<html lang>)
 * @returns {string}
 */
export function ordinal(n, lang) {
  let category = "other";
  try {
    category = new Intl.PluralRules(lang || "en", { type: "ordinal" }).select(n);
  } catch {
    // An unknown language tag: the "other" form.
  }
  // Translators: an English ordinal's forms; write the ordinal of your language in each
  // (the same in all four if it has one form, e.g. "%(n)sº").
  if (category === "one") return t("%(n)sst", { n });
  if (category === "two") return t("%(n)snd", { n });
  if (category === "few") return t("%(n)srd", { n });
  return t("%(n)sth", { n });
}

/**
 * The player's place: "3rd of 41 players so far" while the board is open, "3rd of 41
 * players" once closed; "" while the result has no place (not ranked yet, or held).
 * @param {{rank: number | null, size: number | null, open: boolean} | null} story
 * @param {string} lang
 * @returns {string}
 */
export function placeText(story, lang) {
  if (!story || !story.rank || !story.size) return "";
  const vars = { place: ordinal(story.rank, lang), size: story.size };
  return story.open
    ? tn("%(place)s of %(size)s player so far", "%(place)s of %(size)s players so far", story.size, vars)
    : tn("%(place)s of %(size)s player", "%(place)s of %(size)s players", story.size, vars);
}

/**
 * One bar of the spread.
 * @typedef {object} Band
 * @property {boolean} won  the wins' bar, or a band of lost results
 * @property {number} from  lowest score of the band (inclusive)
 * @property {number} to  highest score of the band (inclusive)
 * @property {number} count
 * @property {boolean} mine  the player's result is in it
 * @property {number} share  count / the largest count, 0 to 1 (the bar's length)
 */

/**
 * The width of the lost results' bands: the narrowest of WIDTHS with which scores 0 to
 * `top` fit in MAX_BANDS bands.
 * @param {number} top
 * @returns {number}
 */
export function bandWidth(top) {
  return WIDTHS.find((width) => Math.floor(top / width) + 1 <= MAX_BANDS) ?? WIDTHS[WIDTHS.length - 1];
}

/**
 * The spread in bars, best first: the wins, then bands of equal width from the best lost
 * score's band down to 0 (empty bands kept, so the bars read as a scale). `mine`: the
 * player's result when it is counted in the spread (on the board), else null.
 * @param {Array<[number, boolean, number]>} spread  [score, won, count]
 * @param {{score: number, won: boolean} | null} mine
 * @returns {Band[]}
 */
export function bands(spread, mine) {
  const lost = spread.filter(([, won]) => !won);
  const wins = spread.filter(([, won]) => won).reduce((sum, [, , count]) => sum + count, 0);
  const top = lost.reduce((max, [score]) => Math.max(max, score), 0);
  const width = bandWidth(top);
  const count = lost.length ? Math.floor(top / width) + 1 : 0;
  const counts = new Array(count).fill(0);
  for (const [score, , n] of lost) counts[Math.floor(score / width)] += n;
  /** @type {Band[]} */
  const bars = [{ won: true, from: 0, to: 0, count: wins, mine: Boolean(mine?.won), share: 0 }];
  for (let index = count - 1; index >= 0; index -= 1) {
    const from = index * width;
    const to = from + width - 1;
    const isMine = Boolean(mine) && !mine.won && mine.score >= from && mine.score <= to;
    bars.push({ won: false, from, to, count: counts[index], mine: isMine, share: 0 });
  }
  const most = Math.max(1, ...bars.map((bar) => bar.count));
  return bars.map((bar) => ({ ...bar, share: bar.count / most }));
}

/**
 * A bar's label: "Won", or the band's scores ("200–399").
 * @param {Band} band
 * @returns {string}
 */
export function bandLabel(band) {
  return band.won ? t("Won") : `${band.from}–${band.to}`;
}

/**
 * The spread's heading: the day's or the week's, "so far" while it is open.
 * @param {{kind: string, open: boolean}} story
 * @returns {string}
 */
export function spreadHeading(story) {
  if (story.kind === "weekly") return story.open ? t("This week's results so far") : t("The week's results");
  return story.open ? t("Today's results so far") : t("The day's results");
}

/**
 * The spread's caption: how many results it counts.
 * @param {number} players
 * @returns {string}
 */
export function spreadCaption(players) {
  return tn("%(n)s player, by score", "%(n)s players, by score", players, { n: players });
}

/**
 * A streak's length in days ("1 day", "3 days").
 * @param {number} days
 * @returns {string}
 */
export function streakDays(days) {
  return tn("%(n)s day", "%(n)s days", days, { n: days });
}

/**
 * What the streak line says after the numbers: a lost day ends the run.
 * @param {{current: number, best: number}} streak
 * @param {boolean} won
 * @returns {string}
 */
export function streakNote(streak, won) {
  if (!won || streak.current === 0) return t("Win tomorrow's deal to start a new streak.");
  if (streak.current >= streak.best && streak.current > 1) return t("Your best streak yet.");
  return "";
}

const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");

/**
 * Milliseconds left as "05:12:33", with the days in front past one ("2 days 05:12:33").
 * @param {number} ms
 * @returns {string}
 */
export function countdown(ms) {
  const left = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(left / 86400);
  const time = `${pad(Math.floor(left / 3600) % 24)}:${pad(Math.floor(left / 60) % 60)}:${pad(left % 60)}`;
  if (!days) return time;
  return tn("%(n)s day %(time)s", "%(n)s days %(time)s", days, { n: days, time });
}

/**
 * The line under the next steps: when the next deal of the kind opens.
 * @param {string} kind  "daily" or "weekly"
 * @param {number} ms  left until it opens
 * @returns {string}
 */
export function nextDealText(kind, ms) {
  if (ms <= 0) return kind === "weekly" ? t("The next weekly challenge is out.") : t("The next daily deal is out.");
  const time = countdown(ms);
  return kind === "weekly"
    ? t("Next week's challenge in %(time)s", { time })
    : t("Tomorrow's deal in %(time)s", { time });
}

/**
 * The practice step's words: this very deal once its code is out, else a deal of the
 * same variant.
 * @param {{deal: boolean, variant?: string}} practice
 * @returns {string}
 */
export function practiceText(practice) {
  return practice.deal ? t("Practise this deal") : t("Practise a %(variant)s deal", { variant: practice.variant });
}

/**
 * The other ranked game's step: today's deal after the weekly, the weekly after a daily.
 * @param {{kind: string}} next
 * @returns {string}
 */
export function nextRankedText(next) {
  return next.kind === "weekly" ? t("Play this week's challenge") : t("Play today's deal");
}
