// The new-session form follows the player's choices: each rule set shows only its own fields
// (hidden ones are disabled, so they are not sent), and the riichi points and uma follow the
// preset and the number of players until the player types their own.
(function () {
  "use strict";
  const form = document.querySelector("[data-new-session]");
  if (!form) return;
  const defaults = JSON.parse(document.getElementById("tenbou-new").textContent);
  const rules = form.querySelector("select[name=rules]");
  const preset = form.querySelector("select[name=preset]");
  const fourth = form.querySelector("input[name=player3]");
  const edited = new Set();
  // a club's kept points and uma (data-kept, for four players) hold until another preset is chosen
  let kept = true;

  form.querySelectorAll("[data-default]").forEach((input) =>
    input.addEventListener("input", () => edited.add(input.dataset.default)));
  // a refused form comes back with what was sent: every value in it is the player's own
  if (form.hasAttribute("data-refilled")) form.querySelectorAll("[data-default]").forEach((input) => edited.add(input.dataset.default));

  function players() {
    const named = Array.from(form.querySelectorAll("input[name^=player]")).filter((i) => i.value.trim()).length;
    return named === 3 && !fourth.value.trim() ? 3 : 4;
  }

  function sync() {
    const chosen = rules.value;
    form.querySelectorAll("[data-rules]").forEach((el) => {
      const mine = el.dataset.rules.split(" ").includes(chosen);
      el.hidden = !mine;
      el.querySelectorAll("input, select").forEach((input) => { input.disabled = !mine; });
    });
    // classical Chinese is a four-player game
    fourth.required = (defaults.players[chosen] || [3, 4]).indexOf(3) < 0;
    if (chosen !== "riichi") return;
    const n = players();
    const scoring = defaults.riichi[preset.value][String(n)];
    form.querySelectorAll("[data-default]").forEach((input) => {
      if (edited.has(input.dataset.default)) return;
      const own = kept && n === 4 ? input.dataset.kept : undefined;
      input.value = own !== undefined ? own : scoring[input.dataset.default];
    });
    const label = form.querySelector("[data-uma-label]");
    label.textContent = n === 3 ? label.dataset.three : label.dataset.four;
  }

  rules.addEventListener("change", sync);
  preset.addEventListener("change", () => { edited.clear(); kept = false; sync(); });
  form.querySelectorAll("input[name^=player]").forEach((input) => input.addEventListener("input", sync));
  sync();
})();
