// Reminders in the player's language and words: the server refuses a move with a stable
// rule and its parameters (docs/protocol.md, "The rule"), and this turns them into a
// sentence through the catalog ("The spades foundation takes only spades, not the king
// of clubs."). A rule this page does not know yet falls back to the server's English
// reason. Pure functions of plain data (no DOM), unit-tested in tests/js/finish.test.js and,
// on the engine's real refusals, tests/browser/test_js_reminders.py.

import { rankLabel, suitName } from "./cards.js";
import { t } from "./i18n.js";
import { legalTargets } from "./moves.js";

/**
 * A card with its article, for the middle of a sentence: "the 7 of hearts". Italian's
 * article depends on the rank ("il 7", "l'8", "l'asso", "la regina"), so each kind of
 * rank is its own string.
 * @param {string} card
 * @returns {string}
 */
export function theCard(card) {
  const suit = suitName(card[1]);
  switch (card[0]) {
    case "A":
      return t("the ace of %(suit)s", { suit });
    case "8":
      return t("the 8 of %(suit)s", { suit });
    case "J":
      return t("the jack of %(suit)s", { suit });
    case "Q":
      return t("the queen of %(suit)s", { suit });
    case "K":
      return t("the king of %(suit)s", { suit });
    default:
      return t("the %(rank)s of %(suit)s", { rank: rankLabel(card), suit });
  }
}

/**
 * A foundation as players know it, by its suit: "the spades foundation".
 * @param {{suit: string}} foundation
 * @returns {string}
 */
export function theFoundation(foundation) {
  return t("the %(suit)s foundation", { suit: suitName(foundation.suit) });
}

/**
 * The first letter in upper case: the phrases above may open a sentence.
 * @param {string} text
 * @returns {string}
 */
export function sentence(text) {
  return text ? text[0].toLocaleUpperCase() + text.slice(1) : text;
}

const BUILDS = {
  "same-suit": (vars) => t("%(card)s cannot go on %(onto)s: a column builds down in the same suit.", vars),
  "other-suit": (vars) => t("%(card)s cannot go on %(onto)s: a column builds down in a different suit.", vars),
  "alternate-colour": (vars) => t("%(card)s cannot go on %(onto)s: a column builds down in the other colour.", vars),
};

// One sentence per rule; `p` is the refusal's params with its cards and piles in words.
// Literal t() calls, so makemessages (--keyword=t) finds every sentence (see i18n.js).
const RULES = {
  foundation_suit: (p) =>
    t("%(foundation)s takes only %(suit)s, not %(card)s.", {
      foundation: p.foundation,
      suit: p.suit,
      card: p.card,
    }),
  foundation_ace: (p) => t("%(foundation)s starts with an ace, not %(card)s.", p),
  foundation_next: (p) => t("%(card)s cannot go home yet: %(foundation)s takes %(want)s next.", p),
  foundation_complete: (p) => t("%(foundation)s is complete.", p),
  foundation_one_card: () => t("A foundation takes one card at a time."),
  foundation_empty: (p) => t("%(foundation)s is empty.", p),
  pile_empty: (p) => (p.pileKind === "waste" ? t("The waste is empty.") : t("Column %(n)s is empty.", p)),
  build: (p) => (BUILDS[p.build] ? BUILDS[p.build](p) : null),
  onto_ace: () => t("Nothing goes on an ace."),
  own_column: () => t("A card cannot move onto its own column."),
  space_kings: () => t("Only a king may fill an empty column."),
  space_kings_run: () => t("Only a run led by a king may fill an empty column."),
  space_whole_column: () => t("Moving a whole column to an empty one changes nothing."),
  waste_top_only: () => t("Only the top card of the waste may move."),
  no_runs: (p) => t("In %(variant)s cards move one at a time.", p),
  run_face_down: (p) => t("Column %(n)s has only %(face_up)s face-up cards.", p),
  run_broken: (p) => t("Only a run in order moves together: %(card)s does not follow %(onto)s.", p),
  no_takeback: (p) => t("In %(variant)s cards on a foundation stay there.", p),
  takeback_to_column: () => t("A card taken back from a foundation may only go to a column."),
  stock_empty: () => t("The stock is empty, and it is turned only once."),
  stock_empty_redeal: () => t("The stock is empty: tap it to turn the waste over."),
  stock_empty_no_redeals: () => t("The stock is empty and no redeals are left."),
  no_redeal: (p) => t("%(variant)s has no redeal: the stock is turned only once.", p),
  redeals_used: () => t("No redeals are left."),
  redeal_stock_left: () => t("The waste is turned over only once the stock is empty."),
  redeal_waste_empty: () => t("The waste is empty: there is nothing to turn over."),
  nothing_to_undo: () => t("There is nothing to undo."),
  no_undo: () => t("This game has no undo."),
  ranked_no_undo: () => t("Ranked games have no undo."),
  notation: (p) =>
    t("“%(text)s” is not a move: write s to turn a card, r to redeal, or from-to such as t3-f1, w-t10 or t3-t5x3.", p),
  no_such_pile: (p) =>
    t("“%(text)s” names a pile this game lacks: columns are t1 to t%(columns)s, foundations f1 to f%(foundations)s.", p),
};

// The params each rule's sentence needs: without them, the server's reason stands.
const NEEDS = {
  foundation_suit: ["foundation", "card"],
  foundation_ace: ["foundation", "card"],
  foundation_next: ["foundation", "card", "want"],
  foundation_complete: ["foundation"],
  foundation_empty: ["foundation"],
  pile_empty: ["pile"],
  build: ["build", "card", "onto"],
  no_runs: ["variant"],
  run_face_down: ["pile", "face_up"],
  run_broken: ["card", "onto"],
  no_takeback: ["variant"],
  no_redeal: ["variant"],
  notation: ["text"],
  no_such_pile: ["text", "columns", "foundations"],
};

const CARD = /^[A2-9TJQK][SHDC]$/;
const SUIT = /^[SHDC]$/;

/**
 * The refusal's params with cards and piles in words (and the raw pile kind and number);
 * null when a param this page needs is missing or not what it expects.
 */
function inWords(rule, params) {
  if (!(NEEDS[rule] || []).every((key) => params[key] !== undefined && params[key] !== null)) return null;
  const p = { ...params };
  for (const key of ["card", "onto", "want"]) {
    if (key in params && !CARD.test(String(params[key]))) return null;
    if (key in params) p[key] = theCard(params[key]);
  }
  if ("foundation" in params) {
    if (!SUIT.test(String(params.foundation?.suit))) return null;
    p.foundation = theFoundation(params.foundation);
    p.suit = suitName(params.foundation.suit);
  }
  if ("pile" in params) {
    if (params.pile?.kind !== "waste" && !Number.isInteger(params.pile?.n)) return null;
    p.pileKind = params.pile.kind;
    p.n = params.pile.n;
  }
  return p;
}

/**
 * What to tell the player about a refusal (`{code, reason, rule, params}`): the rule in
 * their language when this page knows it, else the server's reason as it came.
 * @param {{code?: string, reason?: string, rule?: string, params?: object} | null} refusal
 * @returns {string}
 */
export function reminderText(refusal) {
  const make = refusal && RULES[refusal.rule];
  const params = make && inWords(refusal.rule, refusal.params || {});
  const text = params && make(params);
  // A rule or params this page does not understand: the server's own words stand.
  return text ? sentence(text) : refusal?.reason || "";
}

/**
 * The short note for a single tap on a card that cannot move anywhere now (`tap`:
 * {pile, card, count}), or null when it can (a tap that only has columns to go to is a
 * double-tap away from moving, and says nothing).
 * @param {import("./state.js").Game} game
 * @param {{pile: string, card: string | null, count?: number}} tap
 * @returns {string | null}
 */
export function cannotMoveNote(game, tap) {
  if (!tap.card || tap.pile === "stock" || game.status !== "active") return null;
  const count = tap.count || 1;
  if (legalTargets(game.legal_moves, tap.pile, count).length) return null;
  return sentence(t("%(card)s cannot move now.", { card: theCard(tap.card) }));
}
