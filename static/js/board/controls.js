// The board's buttons and their keys: undo, resign (with its confirmation), the dead-end
// notice's resign, the hint button and `h`; for everyone, "Describe the board" and the
// four-colour deck (a checkbox of the table's settings), remembered in this browser; the
// finish; the deal code's Copy buttons.

import { t } from "./i18n.js";
import { storageGet, storageSet } from "./storage.js";

const FOUR_COLOUR_KEY = "ft-four-colour";

/**
 * The player's controls. Watchers get none of these handlers: the board is theirs to
 * look at only.
 * @param {Element} root  the board
 * @param {{undo(): void, resign(): void, askHint(): void, finish(): void}} actions
 */
export function wirePlayerControls(root, { undo, resign, askHint, finish }) {
  /** @type {HTMLDialogElement | null} */
  const confirmDialog = root.querySelector('[data-testid="confirm-resign"]');
  const confirmResign = () => {
    if (confirmDialog?.showModal) confirmDialog.showModal();
    else if (window.confirm(confirmDialog?.textContent.trim() || "Resign?")) resign();
  };
  root.querySelector('[data-action="undo"]')?.addEventListener("click", undo);
  root.querySelector('[data-action="resign"]')?.addEventListener("click", confirmResign);
  confirmDialog?.addEventListener("close", () => {
    if (confirmDialog.returnValue === "resign") resign();
  });
  root.querySelector('[data-testid="dead-end"] [data-action="end-game"]')?.addEventListener("click", () => {
    if (confirmDialog?.showModal) confirmDialog.showModal();
    else resign();
  });
  root.querySelector('[data-action="hint"]')?.addEventListener("click", askHint);
  root.querySelector('[data-action="finish"]')?.addEventListener("click", finish);
  document.addEventListener("keydown", (e) => {
    if (e.key === "h" && !e.ctrlKey && !e.metaKey && !e.altKey && !(e.target instanceof Element && e.target.closest("input, textarea"))) askHint();
  });
}

/**
 * Controls for player and watcher alike.
 * @param {Element} root  the board
 * @param {{describe(): void}} actions  describe() -> the board in words
 */
export function wireViewControls(root, { describe }) {
  root.querySelector('[data-action="describe"]')?.addEventListener("click", describe);
  wireDealCode(root);
  // The four-colour deck is a checkbox of the table's settings panel (settings.js).
  /** @type {HTMLInputElement | null} */
  const box = root.querySelector('input[name="four_colour"]');
  const set = (on) => {
    root.classList.toggle("four-colour", on);
    if (box) box.checked = on;
  };
  set(storageGet(FOUR_COLOUR_KEY) === "1");
  box?.addEventListener("change", () => {
    set(box.checked);
    storageSet(FOUR_COLOUR_KEY, box.checked ? "1" : "0");
  });
}

/** The deal code's Copy buttons: the code itself, and the link that opens the deal. */
function wireDealCode(root) {
  const block = root.querySelector('[data-testid="deal-code"]');
  if (!block) return;
  const status = block.querySelector('[data-code-part="copied"]');
  const copy = async (text) => {
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = t("Copied.");
    } catch {
      status.textContent = t("Copy failed: select the text and copy it.");
    }
  };
  block.querySelector('[data-action="copy-code"]')?.addEventListener("click", () => copy(block.dataset.code));
  block.querySelector('[data-action="copy-link"]')?.addEventListener("click", () => copy(block.dataset.link));
}
