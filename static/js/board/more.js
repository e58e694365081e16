// "More" in a phone's bar: the actions that do not fit its one row, in a box that opens
// under it (board-bar.css shows the button and the box on a phone only; elsewhere the
// same buttons stand in the bar and this has nothing to do). A disclosure: the button
// says whether the box is open (aria-expanded) and which it is (aria-controls); Escape,
// a press outside, or a choice made closes it; Escape gives the focus back to "More".

/**
 * @param {Element} root  the board
 */
export function wireMore(root) {
  /** @type {HTMLButtonElement | null} */
  const button = root.querySelector('[data-action="more"]');
  const box = button ? document.getElementById(button.getAttribute("aria-controls") || "") : null;
  if (!button || !box) return;
  const isOpen = () => button.getAttribute("aria-expanded") === "true";
  const set = (open) => {
    button.setAttribute("aria-expanded", String(open));
    box.classList.toggle("is-open", open);
  };
  button.addEventListener("click", () => {
    set(!isOpen());
    /** @type {HTMLButtonElement | null} */
    const first = box.querySelector("button:not(:disabled)");
    if (isOpen()) first?.focus({ preventScroll: true });
  });
  // A choice made: its own action goes on (a dialog opens, a form asks), the box closes.
  box.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("button")) set(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !isOpen()) return;
    set(false);
    button.focus();
    // The board's own Escape (cancel a selection) is for another press.
    event.stopImmediatePropagation();
  }, true);
  // A window turned or resized may put every button back in the bar (board-bar.css hides
  // "More" then): the box closes.
  window.addEventListener("resize", () => {
    if (isOpen() && !button.getClientRects().length) set(false);
  });
  document.addEventListener("pointerdown", (event) => {
    if (!isOpen() || !(event.target instanceof Node)) return;
    if (button.contains(event.target) || box.contains(event.target)) return;
    set(false);
  });
}
