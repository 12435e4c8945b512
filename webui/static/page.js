// What every page's buttons do without inline script (the Content-Security-Policy allows none):
// print, go back, and ask before a form that ends the game or undoes a hand is sent.
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach((b) => b.addEventListener("click", () => window.print()));
  document.querySelectorAll("[data-back]").forEach((b) => b.addEventListener("click", () => window.history.back()));
  // `data-confirm-from`: the question asked afresh (what an undo takes back may have changed since
  // the page was drawn: another phone recorded); the page's own words when it cannot be asked
  document.querySelectorAll("form[data-confirm-first]").forEach((form) => form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    let ask = form.dataset.confirmFirst;
    if (form.dataset.confirmFrom) {
      try {
        const res = await fetch(form.dataset.confirmFrom, { headers: { Accept: "application/json" } });
        if (res.ok) ask = (await res.json()).ask || ask;
      } catch (e) { /* offline: the page's words */ }
    }
    if (window.confirm(ask)) form.submit();
  }));
})();
