// The result dialog: the outcome in words, the score, moves, time and hints; a win is
// celebrated (confetti, unless the player asks for reduced motion); the share text with its
// Copy button (a daily game's from the server, spoiler-free, with the player's rank once
// it is known; a practice game's from here, with a link to the same deal).

import { confettiCount, practiceShareText, rankLine, reviewText } from "./finish.js";
import { t } from "./i18n.js";
import { clock } from "./state.js";

const SHARE_TRIES = 6; // a daily result is verified, then ranked, just after the last move
const SHARE_RETRY_MS = 1000;
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

export class ResultDialog {
  /**
   * @param {Element} root  the board
   * @param {object} options  mine: the viewer is the player; shareUrl: where the share
   *                          text is (daily games only), or null; practice: {code, link,
   *                          variant} of a practice deal, or null
   */
  constructor(root, { mine, shareUrl, practice = null }) {
    this.dialog = root.querySelector('[data-testid="result"]');
    this.afterGame = root.querySelector('[data-testid="board-analysis-link"]');
    this.mine = mine;
    this.shareUrl = shareUrl;
    this.practice = practice;
    this.shareLoaded = false;
    this.dialog?.querySelector('[data-action="copy-share"]')?.addEventListener("click", () => this.copy());
  }

  field(name) {
    return this.dialog.querySelector(`[data-result="${name}"]`);
  }

  /** Open the dialog on `game`'s outcome; `seconds` is the game's clock. */
  show(game, seconds) {
    if (this.afterGame) this.afterGame.hidden = false; // the replay and analysis, on the board too
    if (!this.dialog) return;
    this.field("title").textContent = this.title(game);
    this.field("line").textContent = this.line(game);
    this.field("score").textContent = String(game.score);
    this.field("moves").textContent = String(game.moves);
    this.field("time").textContent = clock(seconds);
    const hints = this.field("hints");
    if (hints) hints.textContent = String(game.hints ?? 0);
    this.dialog.dataset.status = game.status;
    if (this.shareUrl && this.mine && !this.shareLoaded) this.loadShare();
    else if (this.practice && this.mine) this.showShare(this.practiceText(game, seconds));
    if (!this.dialog.open) this.dialog.showModal?.();
    if (game.status === "won" && this.mine) this.celebrate();
  }

  practiceText(game, seconds) {
    const { code, link, variant } = this.practice;
    return practiceShareText({ ...game, time: clock(seconds), code, link, variant });
  }

  showShare(text) {
    this.field("share-text").textContent = text;
    this.field("share").hidden = false;
  }

  /** Confetti over the dialog, once; none at all with reduced motion. */
  celebrate() {
    this.dialog.classList.add("is-won");
    const layer = this.field("confetti");
    if (!layer || layer.childElementCount) return;
    const count = confettiCount(reducedMotion.matches);
    for (let i = 0; i < count; i += 1) {
      const bit = document.createElement("span");
      bit.className = "ft-confetti__bit";
      // Custom properties through the CSSOM (the page's CSP allows no inline styles).
      bit.style.setProperty("--x", `${(i * 37) % 100}%`);
      bit.style.setProperty("--delay", `${(i % 9) * 90}ms`);
      bit.style.setProperty("--turn", `${(i * 53) % 360}deg`);
      layer.append(bit);
    }
  }

  /** A resigned game is a lost game, and says so the same way (the line says why). */
  title(game) {
    if (game.status !== "won") return t("Game over");
    return this.mine ? t("You won!") : t("%(player)s won", { player: game.player });
  }

  line(game) {
    if (game.status === "lost") return t("No more moves: the game is lost.");
    if (game.status === "resigned") return t("Resigned: the game is lost.");
    return "";
  }

  async loadShare() {
    this.shareLoaded = true;
    for (let tries = 1; tries <= SHARE_TRIES; tries += 1) {
      const share = await this.fetchShare();
      if (share?.text) this.showShare(share.text);
      const line = reviewText(share) || rankLine(share);
      if (line) this.field("rank").textContent = line;
      // Not verified yet (409), or verified but not on the board (nor held) yet: ask again.
      const waiting = share === "pending" || (share?.text && !share.rank && !share?.review);
      if (!waiting) return;
      await new Promise((resolve) => setTimeout(resolve, SHARE_RETRY_MS));
    }
  }

  /** The share text and rank ({text, rank, size}), "pending", or null (none: 404, offline). */
  async fetchShare() {
    try {
      const response = await fetch(this.shareUrl, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (response.status === 409) return "pending";
      return response.ok ? await response.json() : null;
    } catch {
      return null; // offline: the result stands without its share text
    }
  }

  async copy() {
    const status = this.field("copied");
    try {
      await navigator.clipboard.writeText(this.field("share-text").textContent);
      status.textContent = t("Copied.");
    } catch {
      status.textContent = t("Copy failed: select the text and copy it.");
    }
  }
}
