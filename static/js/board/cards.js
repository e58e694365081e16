// Cards as the engine writes them: a rank from "A23456789TJQK" then a suit from "SHDC"
// ("TH" is the 10 of hearts). Only naming and drawing live here, never a rule.

import { t } from "./i18n.js";

export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
// Literal t() calls, so makemessages (--keyword=t) finds every name (see i18n.js).
const SUIT_NAMES = { S: () => t("spades"), H: () => t("hearts"), D: () => t("diamonds"), C: () => t("clubs") };
const RANK_NAMES = { A: () => t("ace"), J: () => t("jack"), Q: () => t("queen"), K: () => t("king") };

/** @param {string} card  @returns {string} */
export function rankOf(card) {
  return card[0];
}

/** @param {string} card  @returns {string} */
export function suitOf(card) {
  return card[1];
}

/**
 * What the corner shows: "10" rather than the notation's "T".
 * @param {string} card
 * @returns {string}
 */
export function rankLabel(card) {
  const r = rankOf(card);
  return r === "T" ? "10" : r;
}

/**
 * "spades" for "S", in the page's language.
 * @param {string} suit
 * @returns {string}
 */
export function suitName(suit) {
  return SUIT_NAMES[suit] ? SUIT_NAMES[suit]() : suit;
}

/**
 * "ace of diamonds", "3 of spades", "10 of hearts".
 * @param {string} card
 * @returns {string}
 */
export function cardName(card) {
  const r = rankOf(card);
  const rank = RANK_NAMES[r] ? RANK_NAMES[r]() : rankLabel(card);
  return t("%(rank)s of %(suit)s", { rank, suit: suitName(suitOf(card)) });
}
