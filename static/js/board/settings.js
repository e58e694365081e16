// The table's settings panel (the DOM side of settings-state.js): opens from the board's
// toolbar, applies a choice at once (the board's data-card-size and data-card-back, read
// by css/board-settings.css), keeps it in this browser, and for a signed-in player saves
// it on the account too (PUT /api/v1/settings, once the choices have settled). "Send safe
// cards home" is the server's to play: it applies to games started from then on; what a
// tap does is the board's (place.js), read at each tap.

import { t } from "./i18n.js";
import { storageGet, storageSet } from "./storage.js";
import { STORAGE_KEY, boardData, changedFields, initialSettings, withChoice } from "./settings-state.js";

const SAVE_AFTER_MS = 800;

/**
 * Wire the panel; returns the current settings' reader.
 * @param {HTMLElement} root  the board
 * @param {{table_settings?: object | null, settings_url?: string | null}} config
 * @returns {() => import("./settings-state.js").Settings}
 */
export function wireSettings(root, config) {
  /** @type {HTMLDialogElement | null} */
  const dialog = root.querySelector('[data-testid="table-settings"]');
  const button = root.querySelector('[data-action="settings"]');
  let settings = initialSettings(storageGet(STORAGE_KEY), config.table_settings);
  let saved = config.table_settings ? { ...settings } : null;
  let timer = null;
  apply(root, settings);
  storageSet(STORAGE_KEY, JSON.stringify(settings)); // the account's copy becomes this browser's too
  const current = () => settings;
  if (!dialog || !button) return current;
  const form = dialog.querySelector("form");
  const status = dialog.querySelector("[data-settings-status]");
  button.addEventListener("click", () => {
    show(form, settings);
    status.textContent = "";
    dialog.showModal?.();
  });
  form.addEventListener("change", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !(input.name in settings)) return;
    const value = input.type === "checkbox" ? input.checked : input.value;
    settings = withChoice(settings, input.name, value);
    apply(root, settings);
    storageSet(STORAGE_KEY, JSON.stringify(settings));
    if (!config.settings_url) return;
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const changes = changedFields(saved, settings);
      if (!changes) return;
      const ok = await save(config.settings_url, form, changes);
      if (ok) saved = { ...saved, ...changes };
      status.textContent = ok
        ? t("Saved to your account.")
        : t("Not saved to your account; kept in this browser.");
    }, SAVE_AFTER_MS);
  });
  return current;
}

function apply(root, settings) {
  const { cardSize, cardBack } = boardData(settings);
  root.dataset.cardSize = cardSize;
  root.dataset.cardBack = cardBack;
  root.dataset.tap = settings.tap; // which help sentence shows (board-bar.css)
  // Card sizes change the columns' room: let the board refit them.
  window.dispatchEvent(new Event("resize"));
}

function show(form, settings) {
  for (const input of form.querySelectorAll("input[name]")) {
    if (!(input.name in settings)) continue; // the four colours are controls.js's
    if (input.type === "checkbox") input.checked = settings[input.name] === true;
    else input.checked = settings[input.name] === input.value;
  }
}

async function save(url, form, changes) {
  const token = form.querySelector("[name=csrfmiddlewaretoken]")?.value || "";
  try {
    const response = await fetch(url, {
      method: "PUT",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": token },
      body: JSON.stringify(changes),
    });
    return response.ok;
  } catch {
    return false;
  }
}
