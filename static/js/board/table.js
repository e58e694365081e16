// New game and Restart on a practice or archive table: plain forms (they work without
// JavaScript); while a game is in progress this asks first, in the table's own dialog.

/**
 * Whether leaving ``game`` for a new one needs a confirmation: an active game with a move
 * made (a finished game, or one not yet touched, loses nothing). Pure.
 * @param {{status: string, moves: number}} game
 */
export function needsConfirm(game) {
  return game.status === "active" && game.moves > 0;
}

/** Wire the table's forms; ``game()`` is the board's current state. */
export function wireTableActions(root, { game }) {
  const dialog = root.querySelector('[data-testid="confirm-table"]');
  let pending = null;
  for (const form of root.querySelectorAll("[data-table-action]")) {
    form.addEventListener("submit", (event) => {
      if (!needsConfirm(game()) || !dialog?.showModal) return;
      event.preventDefault();
      pending = form;
      for (const question of dialog.querySelectorAll("[data-table-question]")) {
        question.hidden = question.dataset.tableQuestion !== form.dataset.tableAction;
      }
      dialog.showModal();
    });
  }
  dialog?.addEventListener("close", () => {
    if (dialog.returnValue === "go" && pending) pending.submit();
    pending = null;
  });
}
