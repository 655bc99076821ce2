/* The dashboard's behaviour, kept out of the templates: the Content-Security-Policy runs no inline script and no
   eval (so neither onclick= nor hx-on nor htmx trigger filters). Loaded once with defer; the listeners sit on the
   document, so they also serve content that htmx swaps in later. */
(function () {
  "use strict";

  // <button data-opens-dialog="erase-dialog"> opens that dialog; <button data-closes-dialog> closes its own.
  document.addEventListener("click", function (event) {
    const opener = event.target.closest("[data-opens-dialog]");
    if (opener) {
      document.getElementById(opener.dataset.opensDialog).showModal();
    }
    const closer = event.target.closest("[data-closes-dialog]");
    if (closer) {
      closer.closest("dialog").close();
    }
  });

  // A form marked data-live-filters asks for its results (htmx event "filters-changed") as soon as a box, button,
  // list or date changes; its text fields ask as they are typed in (hx-trigger), not again when they lose focus.
  document.addEventListener("change", function (event) {
    const form = event.target.closest("form[data-live-filters]");
    if (form && event.target.type !== "text") {
      htmx.trigger(form, "filters-changed");
    }
  });

  // Inside data-drop-empty-fields, empty fields are left out of htmx requests, so that the address bar only holds
  // the filters in use.
  document.addEventListener("htmx:configRequest", function (event) {
    if (!event.target.closest("[data-drop-empty-fields]")) {
      return;
    }
    const data = event.detail.formData;
    for (const name of new Set(data.keys())) {
      const kept = data.getAll(name).filter(function (value) { return value !== ""; });
      data.delete(name);
      kept.forEach(function (value) { data.append(name, value); });
    }
  });
})();
