// Messages to the player: the reminder line (a refusal's reason, a hint), the live
// description for screen readers, the board in words on demand (for everyone to read),
// the connection status, the dead-end notice and the offer to finish.

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
    this.reminder = root.querySelector('[data-testid="reminder"]');
    this.description = root.querySelector('[data-testid="description"]');
    this.connectionEl = root.querySelector('[data-testid="connection"]');
    this.deadEndEl = root.querySelector('[data-testid="dead-end"]');
    this.describedEl = root.querySelector('[data-testid="described"]');
    this.finishEl = root.querySelector('[data-testid="finish"]');
    this.reminderTimer = null;
  }

  /** A short visible message that fades by itself. */
  remind(text) {
    this.reminder.textContent = text;
    this.reminder.classList.add("is-shown");
    clearTimeout(this.reminderTimer);
    this.reminderTimer = setTimeout(() => this.reminder.classList.remove("is-shown"), REMINDER_MS);
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
