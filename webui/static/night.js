// A club night's pages: the round timer counts down (on the TV, large), and at zero says to
// finish the hand in play; the page looks again when the night changes (a round drawn, a
// table started or finished, the timer set), so a TV or a player's phone needs no touch.
(function () {
  "use strict";

  function clock(seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  const started = Date.now();
  const timers = Array.from(document.querySelectorAll("[data-timer]"))
    .filter((el) => el.dataset.secondsLeft !== "");
  function tick() {
    timers.forEach((el) => {
      const left = Number(el.dataset.secondsLeft) - (Date.now() - started) / 1000;
      const done = left <= 0;
      el.textContent = done ? el.dataset.done : clock(left);
      el.classList.toggle("time-up", done);
      el.classList.toggle("time-short", !done && left <= 300);
    });
  }
  if (timers.length) {
    tick();
    setInterval(tick, 500);
  }

  const watched = document.querySelector("[data-night-state]");
  if (!watched || !window.fetch) return;
  let seen = null;
  function signature(state) {
    return JSON.stringify([state.rounds, state.tables, state.timer, state.finished]);
  }
  function look() {
    fetch(watched.dataset.nightState, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then((r) => (r.ok ? r.json() : null))
      .then((state) => {
        if (!state) return;
        const now = signature(state);
        if (seen === null) { seen = now; return; }
        const busy = document.activeElement && /^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement.tagName);
        if (now !== seen && !busy) window.location.reload();
      })
      .catch(() => {});
  }
  look();
  setInterval(look, 10000);
})();
