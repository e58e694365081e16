// The replay page (the viewer and, for a game, its post-game analysis) and the share
// text's "Copy" buttons (the scorecard page). Plain ES module: no build step, no CDN. The
// viewer's modules load only on a page that has one.

async function startReplay(section) {
  // A duel's page holds two viewers, each with its frames named by its side's holder.
  const holder = section.closest("[data-frames-id]");
  const source = document.getElementById(holder instanceof HTMLElement ? holder.dataset.framesId || "" : "replay-data");
  if (!source) return;
  const panel = document.querySelector("[data-analysis]");
  const initial = document.getElementById("analysis-data");
  const analysed = panel && initial && panel.querySelector("[data-analysis-result]");
  const [{ ReplayViewer }, analysis] = await Promise.all([
    import("./replay/viewer.js"),
    analysed ? import("./replay/analysis.js") : null,
  ]);
  const viewer = new ReplayViewer(section, JSON.parse(source.textContent));
  viewer.start();
  if (analysis) new analysis.AnalysisPanel(panel, viewer, JSON.parse(initial.textContent)).start();
}

// Share text: copy with the Clipboard API; where that is missing or refused
// (no HTTPS, permissions), select the text and say how to copy it by hand.
function startCopyButtons() {
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("[data-copy]"))) {
    const field = /** @type {HTMLTextAreaElement | HTMLInputElement | null} */ (document.getElementById(button.dataset.copy));
    const status = button.parentElement.querySelector("[role=status]");
    if (!field) continue;
    button.hidden = false;
    button.addEventListener("click", async () => {
      try {
        if (!navigator.clipboard) throw new Error("no clipboard");
        await navigator.clipboard.writeText(field.value);
        if (status) status.textContent = button.dataset.copied;
      } catch {
        field.focus();
        field.select();
        if (status) status.textContent = button.dataset.copyFailed;
      }
    });
  }
}

for (const viewer of document.querySelectorAll("[data-replay]")) startReplay(viewer);
startCopyButtons();
