// The result dialog: the outcome in words, the score, moves, time and hints, and for a
// daily game the spoiler-free share text with its Copy button.

import { t } from "./i18n.js";
import { clock } from "./state.js";

export class ResultDialog {
  /**
   * @param {Element} root  the board
   * @param {object} options  mine: the viewer is the player; shareUrl: where the share
   *                          text is (daily games only), or null
   */
  constructor(root, { mine, shareUrl }) {
    this.dialog = root.querySelector('[data-testid="result"]');
    this.mine = mine;
    this.shareUrl = shareUrl;
    this.shareLoaded = false;
    this.dialog?.querySelector('[data-action="copy-share"]')?.addEventListener("click", () => this.copy());
  }

  field(name) {
    return this.dialog.querySelector(`[data-result="${name}"]`);
  }

  /** Open the dialog on `game`'s outcome; `seconds` is the game's clock. */
  show(game, seconds) {
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
    if (!this.dialog.open) this.dialog.showModal?.();
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
    try {
      const response = await fetch(this.shareUrl, { credentials: "same-origin", headers: { Accept: "text/plain" } });
      // 404 (not built yet, or no share text for this game): no share block at all.
      if (!response.ok) return;
      this.field("share-text").textContent = (await response.text()).trim();
      this.field("share").hidden = false;
    } catch {
      /* offline: the result stands without its share text */
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
