/**
 * Copy buttons: `<button data-copy-from="ID">` copies the text of the element with that id
 * (a field's value, else its text), and says so in the element named by its
 * `data-copy-status` (a role="status" region). The button is hidden in the page and shown
 * here, so without the script nobody meets a button that does nothing; the value itself
 * is always there to select.
 *
 * The Clipboard API needs a secure context and the page's focus; where it is missing or
 * refused, the old copy command on a selection is tried, and failing that the text is
 * left selected with a word on how to copy it by hand. Strings come from the JavaScript
 * catalog (board/i18n.js), as the board's do.
 */

import { t } from "./board/i18n.js";

/** @param {HTMLElement} source */
function textOf(source) {
  if (source instanceof HTMLInputElement || source instanceof HTMLTextAreaElement) return source.value;
  return (source.textContent || "").trim();
}

/** Select the whole of `source`, so a person can copy it with the keyboard or the menu. */
function selectAll(source) {
  if (source instanceof HTMLInputElement || source instanceof HTMLTextAreaElement) {
    source.focus();
    source.select();
    return;
  }
  const range = document.createRange();
  range.selectNodeContents(source);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/**
 * Copy `text` to the clipboard: true when it was copied.
 * @param {string} text
 * @param {HTMLElement} source  What to select for the fallback.
 * @returns {Promise<boolean>}
 */
export async function copyText(text, source) {
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    selectAll(source);
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

/** @param {HTMLButtonElement} button */
function wire(button) {
  const source = document.getElementById(button.dataset.copyFrom || "");
  if (!source) return;
  const status = document.getElementById(button.dataset.copyStatus || "");
  button.hidden = false;
  button.addEventListener("click", async () => {
    const copied = await copyText(textOf(source), source);
    if (!copied) selectAll(source);
    if (status) status.textContent = copied ? t("Copied.") : t("Copy failed: select the text and copy it.");
  });
}

for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button[data-copy-from]"))) {
  wire(button);
}
