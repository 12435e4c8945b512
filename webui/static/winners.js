// The winners already entered for one discard (double / triple ron), shown on the record page
// until the player confirms. Each entry is what the server is sent ({winner, hand | han, fu,
// yakuman, pao?, pao_yakuman?}) plus a line to show; the server scores every hand again.
// pending.js keeps them over a reload.
(function () {
  "use strict";

  function list(box, cfg, onChange) {
    const entries = [];
    const items = box.querySelector("[data-pending-list]");

    function render() {
      box.hidden = entries.length === 0;
      items.replaceChildren();
      entries.forEach((entry, i) => {
        const li = document.createElement("li");
        li.dataset.test = "pending-winner" + entry.post.winner;
        const name = document.createElement("span");
        name.textContent = `${cfg.players[entry.post.winner]} · ${entry.label}`;
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "secondary small";
        remove.textContent = "× " + cfg.text.removeWinner;
        remove.dataset.test = "remove-winner" + entry.post.winner;
        remove.addEventListener("click", () => { entries.splice(i, 1); render(); onChange(); });
        li.append(name, remove);
        items.appendChild(li);
      });
    }

    return {
      add(post, label) { entries.push({ post, label }); render(); onChange(); },
      clear() { entries.length = 0; render(); onChange(); },
      entries() { return entries.map((e) => ({ post: e.post, label: e.label })); },
      seats() { return entries.map((e) => e.post.winner); },
      posts() { return entries.map((e) => e.post); },
      get length() { return entries.length; },
    };
  }

  // The first winner in turn from the discarder takes the honba and the riichi sticks.
  function takesPot(winner, others, discarder, players) {
    const turn = (seat) => (seat - discarder + players) % players;
    return others.every((other) => turn(winner) < turn(other));
  }

  window.TenbouWinners = { list, takesPot };
})();
