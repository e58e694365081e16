/**
 * The footer's language picker switches as soon as a language is chosen: the select
 * submits its form on change, so the "Change language" button is only for pages without
 * JavaScript, and is hidden here, where the script runs.
 */

const form = /** @type {HTMLFormElement | null} */ (document.querySelector(".lang-form"));
const select = form?.querySelector("select[name=language]");
const submit = /** @type {HTMLButtonElement | null | undefined} */ (
  form?.querySelector("button[type=submit]")
);

if (form && select) {
  if (submit) submit.hidden = true;
  select.addEventListener("change", () => {
    if (typeof form.requestSubmit === "function") form.requestSubmit();
    else form.submit();
  });
}

// A module of its own (loaded with type="module"), not a script sharing the page's names.
export {};
