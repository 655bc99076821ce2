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

  // The menu button of a phone's screen opens and closes the navigation; aria-expanded is the state, and the CSS
  // shows the menu from it. Escape closes an open menu and gives the focus back to its button.
  document.addEventListener("click", function (event) {
    const toggle = event.target.closest("[data-menu-toggle]");
    if (toggle) {
      toggle.setAttribute("aria-expanded", String(toggle.getAttribute("aria-expanded") !== "true"));
    }
  });
  document.addEventListener("keydown", function (event) {
    const toggle = document.querySelector("[data-menu-toggle][aria-expanded=true]");
    if (event.key === "Escape" && toggle && document.getElementById(toggle.getAttribute("aria-controls"))
        .contains(document.activeElement)) {
      toggle.setAttribute("aria-expanded", "false");
      toggle.focus();
    }
  });

  // While htmx loads a part of the page, that part is aria-busy; once swapped in, the live region of the layout says
  // what changed (the new part's data-announce, else the page's title after a boosted navigation).
  function announce(text) {
    const region = document.querySelector("[data-announcer]");
    if (region && text) {
      region.textContent = "";
      window.setTimeout(function () { region.textContent = text; }, 50);  // a change screen readers notice
    }
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    event.detail.target.setAttribute("aria-busy", "true");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    event.detail.target.removeAttribute("aria-busy");  // when nothing replaced it (an error, a redirect)
  });
  // htmx sends afterSettle from each element it swapped in: a boosted page's is the one that holds <main>.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!(event.target instanceof Element)) {
      return;
    }
    const main = document.getElementById("main");
    if (event.detail.boosted) {
      if (main && event.target.contains(main)) {
        main.focus({preventScroll: true});
        announce(document.title);
      }
      return;
    }
    const updated = event.target.closest("[data-announce]");
    announce(updated ? updated.dataset.announce : "Updated");
  });

  // An element marked data-takes-focus that htmx swapped in (the first of the older interactions that a "Show older"
  // link loaded in its own place) takes the focus the link had, so that the keyboard goes on where the list grew.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target instanceof Element && event.target.matches("[data-takes-focus]")) {
      event.target.focus();
    }
  });

  // A help tip ("?" beside a label, templates/_help.html) shows on hover and focus by CSS alone; here it is kept
  // inside the screen and out of the boxes that would cut it (tables that scroll, cards), and Escape hides it.
  function placeTip(holder) {
    const tip = holder.querySelector(".tip-text");
    const anchor = holder.querySelector(".tip-button").getBoundingClientRect();
    tip.classList.add("is-placed");
    const width = tip.offsetWidth;
    const height = tip.offsetHeight;
    const left = Math.min(Math.max(8, anchor.left + anchor.width / 2 - width / 2), window.innerWidth - width - 8);
    const above = anchor.top - height - 8;
    tip.style.left = left + "px";
    tip.style.top = (above >= 8 ? above : anchor.bottom + 8) + "px";
  }
  ["mouseover", "focusin"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      const holder = event.target.closest && event.target.closest("[data-tip]");
      if (holder) {
        holder.classList.remove("is-dismissed");
        placeTip(holder);
      }
    });
  });
  document.addEventListener("keydown", function (event) {
    const holder = event.key === "Escape" && document.activeElement.closest("[data-tip]");
    if (holder) {
      holder.classList.add("is-dismissed");
    }
  });
  // A tip in view follows its button when the page or a box scrolls.
  document.addEventListener("scroll", function () {
    document.querySelectorAll(".tip-text.is-placed").forEach(function (tip) {
      if (tip.checkVisibility()) {
        placeTip(tip.closest("[data-tip]"));
      }
    });
  }, {capture: true, passive: true});
})();
