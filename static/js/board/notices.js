// Messages to the player: the reminder (a refusal's reason, a hint, a tap's note: a
// callout beside the card concerned, a live region for screen readers too), the live
// description for screen readers, the board in words on demand (for everyone to read),
// the connection status, the dead-end notice and the offer to finish.

import { calloutPlace, relativeBox } from "./callout.js";
import { t } from "./i18n.js";

const REMINDER_MS = 4000;

// Literal t() calls, so makemessages (--keyword=t) finds every word.
const STATUS_WORDS = {
  connecting: () => t("Connecting…"),
  connected: () => t("Connected"),
  reconnecting: () => t("Reconnecting…"),
  offline: () => t("Offline"),
};

export class Notices {
  constructor(root) {
    this.root = root;
    this.reminder = root.querySelector('[data-testid="reminder"]');
    this.description = root.querySelector('[data-testid="description"]');
    this.connectionEl = root.querySelector('[data-testid="connection"]');
    this.deadEndEl = root.querySelector('[data-testid="dead-end"]');
    this.describedEl = root.querySelector('[data-testid="described"]');
    this.finishEl = root.querySelector('[data-testid="finish"]');
    this.reminderTimer = null;
  }

  /**
   * A short visible message that fades by itself, beside `near` (a card, a pile, a
   * button, or a box as getBoundingClientRect gives one); without it, at the table's top.
   * @param {string} text
   * @param {Element | import("./callout.js").Box | null} [near]
   */
  remind(text, near = null) {
    this.reminder.textContent = text;
    this.place(near);
    this.reminder.classList.add("is-shown");
    clearTimeout(this.reminderTimer);
    this.reminderTimer = setTimeout(() => this.reminder.classList.remove("is-shown"), REMINDER_MS);
  }

  /** Stand the reminder beside `near` (callout.js), in the board's coordinates. */
  place(near) {
    const el = this.reminder;
    const board = this.root.getBoundingClientRect();
    const target = near instanceof Element ? (near.isConnected ? near.getBoundingClientRect() : null) : near;
    const table = this.root.querySelector(".ft-table")?.getBoundingClientRect();
    // No card to point at: centred over the table's top, just under the bar.
    const anchor = target ?? { left: board.left, top: table ? table.top - 10 : board.top, width: board.width, height: 0 };
    const area = { width: board.width, top: -board.top, bottom: window.innerHeight - board.top };
    const spot = calloutPlace(relativeBox(anchor, board), { width: el.offsetWidth, height: el.offsetHeight }, area);
    el.style.left = `${spot.left}px`;
    el.style.top = `${spot.top}px`;
    el.style.setProperty("--arrow", `${spot.arrow}px`);
    el.dataset.side = target ? spot.side : "none";
  }

  /** Say `text` to a screen reader (the description is a live region). */
  announce(text) {
    // Re-setting the same text would not be read again; a blank first makes it news.
    this.description.textContent = "";
    requestAnimationFrame(() => {
      this.description.textContent = text;
    });
  }

  /** The whole board in words, shown in a dialog: read by sighted players and screen readers alike. */
  describe(text) {
    const dialog = this.describedEl;
    if (!dialog?.showModal) {
      this.announce(text);
      return;
    }
    dialog.querySelector('[data-described="text"]').textContent = text;
    if (!dialog.open) dialog.showModal();
  }

  /** The socket's status; a fatal close code says why the board will not reconnect. */
  connection(status, code) {
    this.connectionEl.dataset.state = status;
    let text = (STATUS_WORDS[status] || STATUS_WORDS.offline)();
    if (code === 4404) text = `${t("Offline")}: ${t("This game no longer exists.")}`;
    else if (code === 4401 || code === 4403) text = `${t("Offline")}: ${t("You cannot open this game here.")}`;
    this.connectionEl.textContent = text;
  }

  /** The offer to finish (every card left can go home): shown or hidden; said when new. */
  finish(offered) {
    if (!this.finishEl) return;
    const wasHidden = this.finishEl.hidden;
    this.finishEl.hidden = !offered;
    if (offered && wasHidden) this.announce(t("Every card left can go home: Finish sends them."));
  }

  /** Shown once the server proved no win is left (it offers to resign); said when new. */
  deadEnd(game) {
    if (!this.deadEndEl) return;
    const shown = Boolean(game.dead_end) && game.status === "active";
    const wasHidden = this.deadEndEl.hidden;
    this.deadEndEl.hidden = !shown;
    if (shown && wasHidden) this.announce(t("No win is possible any more from here."));
  }
}
