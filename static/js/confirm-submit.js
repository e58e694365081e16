// A form with data-confirm="ID" asks first: its submit opens the <dialog id=ID>, whose
// "confirm" button sends the form and "cancel" closes the dialog. Without JavaScript the
// form sends at once, and the words beside its button say what it starts.

function wire(form) {
  const dialog = document.getElementById(form.dataset.confirm);
  if (!(dialog instanceof HTMLDialogElement)) return;
  let confirmed = false;
  form.addEventListener("submit", (event) => {
    if (confirmed) return;
    event.preventDefault();
    dialog.showModal();
  });
  dialog.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("button") : null;
    if (!button) return;
    if (button.value === "confirm") {
      confirmed = true;
      dialog.close();
      form.requestSubmit();
    } else if (button.value === "cancel") {
      dialog.close();
    }
  });
}

for (const form of document.querySelectorAll("form[data-confirm]")) wire(form);
