// "Play someone now" (templates/games/duel_queue.html): ask the queue every 2 s (each ask
// keeps the place and tries a pairing, games.services.duel_queue) and open the duel once
// paired; "Stop looking" leaves the queue. The pace is state.js's (nextAskMs).

import { t } from "../board/i18n.js";
import { nextAskMs } from "./state.js";

const form = document.querySelector("[data-duel-queue]");
if (form instanceof HTMLFormElement) start(form);

/** @param {HTMLFormElement} form */
function start(form) {
  const status = form.querySelector("[data-duel-queue-status]");
  const began = Date.now();
  let stopped = false;

  async function ask(extra = {}) {
    const body = new FormData(form);
    for (const [key, value] of Object.entries(extra)) body.set(key, value);
    const response = await fetch(form.action, { method: "POST", body, credentials: "same-origin" });
    const retry = Number(response.headers.get("Retry-After")) || null;
    return { answer: await response.json(), retry };
  }

  async function loop() {
    if (stopped) return;
    let wait = 2000;
    try {
      const { answer, retry } = await ask();
      if (answer.duel) {
        location.assign(answer.duel);
        return;
      }
      const next = nextAskMs(answer, retry);
      if (next === null) {
        if (status) status.textContent = answer.reason || t("The queue refused: try again later.");
        return;
      }
      wait = next;
      const seconds = Math.round((Date.now() - began) / 1000);
      if (status) status.textContent = t("Looking for an opponent… %(seconds)s s", { seconds });
    } catch {
      if (status) status.textContent = t("Connection lost; trying again…");
    }
    setTimeout(loop, wait);
  }

  form.querySelector("[data-duel-queue-stop]")?.addEventListener("click", async () => {
    stopped = true;
    try {
      await ask({ leave: "1" });
    } finally {
      location.assign(form.dataset.duelsUrl || "/duels/");
    }
  });
  // A page closed without "Stop looking" leaves its entry to lapse (FT_DUEL_QUEUE_SECONDS).
  loop();
}
