// What every page's buttons do without inline script (the Content-Security-Policy allows none):
// print, go back, and ask before a form that ends the game or undoes a hand is sent.
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach((b) => b.addEventListener("click", () => window.print()));
  document.querySelectorAll("[data-back]").forEach((b) => b.addEventListener("click", () => window.history.back()));
  document.querySelectorAll("form[data-confirm-first]").forEach((form) => form.addEventListener("submit", (ev) => {
    if (!window.confirm(form.dataset.confirmFirst)) ev.preventDefault();
  }));
})();
