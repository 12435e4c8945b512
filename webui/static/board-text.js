// A board's words that the scoreboard (live.js) and the lobby's TV (tv-cycle.js) both write:
// the last hand's payments and the all-last conditions. `T` holds the words of _i18n_js.html;
// `s` is the board (its players and rule set). Text only: everything goes in as textContent.
(function () {
  "use strict";
  const fmt = (template, values) => template.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : ""));

  // "East 2 (ron): Dan → Ben 5200 · sticks → Ben 1000"
  window.tenbouLastHand = function (h, s, T) {
    const who = (p) => (p === "pot" ? (s.rules === "fundamentals" ? T.pool : T.pot) : s.players[p]);
    const round = fmt(T.roundName, { wind: T.winds[h.round_wind], n: h.hand });
    const named = h.honba ? fmt(T.handName, { round, honba: h.honba }) : round;   // "East 1, 1 honba"
    const head = named + (T.kinds[h.kind] ? ` ${T.kinds[h.kind]}` : "");
    const sums = new Map();
    (h.transfers || []).forEach((t) => {
      const key = `${t.from}>${t.to}`;
      sums.set(key, (sums.get(key) || 0) + t.points);
    });
    const pays = Array.from(sums, ([key, points]) => {
      const [from, to] = key.split(">");
      return `${who(from === "pot" ? "pot" : Number(from))} → ${who(to === "pot" ? "pot" : Number(to))} ${points}`;
    });
    return pays.length ? `${head}: ${pays.join(" · ")}` : head;
  };

  // All-last conditions (webui/play/all_last.py): under each seat card in `board`, what moves it up a place.
  function handText(h, T) {
    if (!h) return T.allLast.none;
    if (h.limit) return T.allLast.limits[h.limit] || h.limit;
    return fmt(T.allLast.hanFu, { han: h.han, fu: h.fu });
  }
  window.tenbouAllLast = function (board, s, T) {
    const view = s.all_last;
    board.querySelectorAll("[data-seat]").forEach((card) => {
      const box = card.querySelector("[data-field=all-last]");
      if (!box) return;
      const mine = view && view.seats[Number(card.dataset.seat)];
      box.hidden = !mine;
      if (!mine) { box.replaceChildren(); return; }
      const lines = [];
      if (!mine.next) lines.push(T.allLast.leading);
      else {
        lines.push(fmt(T.allLast.to, { place: T.allLast.places[mine.next.place - 1] }));
        mine.next.ron.forEach((r) => lines.push(fmt(T.allLast.ron, { who: s.players[r.from], hand: handText(r.hand, T) })));
        lines.push(fmt(T.allLast.tsumo, { hand: handText(mine.next.tsumo, T) }));
        lines.push(T.allLast.draw[mine.draw]);
      }
      box.replaceChildren(...lines.map((text, k) => {
        const el = document.createElement(k ? "span" : "b");
        el.textContent = text;
        return el;
      }));
    });
  };
})();
