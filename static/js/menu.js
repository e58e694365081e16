/**
 * The site's menu on narrow and short screens: one button shows and hides every link of
 * the header (a disclosure: aria-expanded on the button, Escape closes it and gives the
 * focus back). The folding itself is CSS (base.css, `.has-menu`): the script only marks
 * that it is here, so without it the links stay in plain view.
 */

/** @type {HTMLElement | null} */
const header = document.querySelector(".site-header");
/** @type {HTMLButtonElement | null | undefined} */
const button = header?.querySelector(".site-menu-button");
const nav = header?.querySelector(".site-nav");

function setOpen(open, { focusButton = false } = {}) {
  button.setAttribute("aria-expanded", String(open));
  nav.classList.toggle("is-open", open);
  if (!open && focusButton) button.focus();
}

if (header && button && nav) {
  button.hidden = false;
  header.classList.add("has-menu");
  button.addEventListener("click", () => {
    setOpen(button.getAttribute("aria-expanded") !== "true");
  });
  header.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && nav.classList.contains("is-open")) {
      event.preventDefault();
      setOpen(false, { focusButton: true });
    }
  });
  // A tap or a focus outside the header closes the menu (it lies over the page).
  document.addEventListener("pointerdown", (event) => {
    if (nav.classList.contains("is-open") && !header.contains(/** @type {Node} */ (event.target))) setOpen(false);
  });
  document.addEventListener("focusin", (event) => {
    if (nav.classList.contains("is-open") && !header.contains(/** @type {Node} */ (event.target))) setOpen(false);
  });
}
