// The lobby's TV: one live table's board at a time, the next every `data-every` seconds. The
// board on screen follows that table's server-sent events (polling its state when the server
// has no stream to spare); the list of tables is read again now and then, so tables that start
// or end come and go. Everything players typed goes in as textContent, never as markup.
(function () {
  "use strict";
  const root = document.querySelector("[data-lobby]");
  if (!root) return;
  // the board's words, as the scoreboard has them (_i18n_js.html), and the TV's own
  const T = Object.assign({}, JSON.parse(document.getElementById("tenbou-text").textContent),
                          JSON.parse(document.getElementById("tv-cycle-text").textContent));
  const board = root.querySelector("[data-field=board]");
  const empty = root.querySelector("[data-field=empty]");
  const EVERY_MS = Number(root.dataset.every) * 1000;
  const LIST_MS = 20000;      // a table that starts or ends shows or goes within this
  const POLL_MS = 3000;       // the shown board's refresh while it has no stream
  let tables = JSON.parse(document.getElementById("lobby-tables").textContent);
  let shown = null;           // the id of the table on screen
  let source = null, pollTimer = null, online = false;

  const fmt = (template, values) => template.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : ""));
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  // The board in the shape of _table_seats.html, so the one table's TV styles apply: the seats
  // around the table (seat 0's side at the bottom, the next to play on its right, across at the
  // top, the one before on its left; three players leave no side empty), the round in the middle.
  // The seats stay in seat order in the page; the grid puts each where it sits.
  const PLACES = { 4: ["bottom", "right", "top", "left"], 3: ["bottom", "right", "left"] };
  const SIDE = 0;
  function field(node, name) { node.dataset.field = name; return node; }

  function draw(s) {
    const head = el("p", "tv-cycle-head");
    head.append(el("span", "tv-cycle-title", s.title || s.players.join(" · ")));
    const at = tables.findIndex((t) => t.id === s.id);
    if (tables.length > 1 && at >= 0) {
      head.append(el("span", "tv-cycle-count", fmt(T.tableOf, { n: at + 1, count: tables.length })));
    }
    const status = el("div", "status-bar");
    status.append(field(el("span", "round", fmt(T.roundName, { wind: T.winds[s.round_wind], n: s.hand_number })), "round"));
    const pill = (label, value, name) => {
      const p = el("span", "pill", label + " ");
      p.append(field(el("b", "", value), name));
      status.append(p);
    };
    // each rule set shows what its table holds: riichi honba and sticks, the Fundamentals pool
    if (s.rules === "riichi") { pill(T.honba, s.honba, "honba"); pill(T.sticks, s.riichi_sticks, "sticks"); }
    else if (s.rules === "fundamentals") pill(T.pool, s.pool, "pool");
    if (s.finished) status.append(field(el("span", "pill finished-pill", T.finished), "finished"));
    status.append(field(el("span", "link-state"), "link"));

    const n = s.players.length;
    const places = PLACES[n] || PLACES[4];
    const ring = el("div", `table-ring table-ring-${n}`);
    ring.dataset.test = "table-ring";
    s.players.forEach((name, i) => {
      const place = places[(((i - SIDE) % n) + n) % n];
      const card = el("div", `seat at-${place}` + (s.dealer === i ? " dealer" : "") + (s.riichi[i] ? " in-riichi" : ""));
      card.dataset.seat = i;
      card.dataset.at = place;
      const top = el("div", "seat-head");
      top.append(field(el("span", "wind-badge", T.winds[s.seat_winds[i]]), "wind"), el("span", "name", name));
      if (s.rules === "riichi") {
        const stick = el("span", "riichi-stick", T.riichi);
        stick.title = T.riichi;
        top.append(stick);
      }
      const delta = s.last ? s.last.deltas[i] : 0;
      const allLast = field(el("div", "all-last"), "all-last");
      allLast.dataset.test = "all-last";
      allLast.hidden = true;
      card.append(top, field(el("div", "score", s.scores[i]), "score"),
                  field(el("div", "delta " + (delta > 0 ? "up" : delta < 0 ? "down" : ""), delta ? (delta > 0 ? "+" : "") + delta : ""), "delta"),
                  allLast);
      ring.append(card);
    });
    const centre = el("div", "table-centre");
    centre.append(status, field(el("p", "last-hand", s.last ? window.tenbouLastHand(s.last, s, T) : T.noHands), "last"));
    ring.append(centre);
    board.replaceChildren(head, ring);
    window.tenbouAllLast(board, s, T);      // the last hand of a riichi game: what each seat needs
    board.dataset.session = s.id;
    board.dataset.events = s.events;
    showLink(online);
  }

  function showLink(isOnline) {
    online = isOnline;
    const link = board.querySelector(".link-state");
    if (!link) return;
    link.textContent = (online ? "● " : "○ ") + (online ? T.live : T.offline);
    link.classList.toggle("online", online);
  }

  // A fresher state of a listed table; it keeps the links the list gave it.
  function update(s) {
    const i = tables.findIndex((t) => t.id === s.id);
    if (i < 0) return;
    tables[i] = Object.assign({}, tables[i], s);
    if (shown === s.id) draw(tables[i]);
  }

  function stop() {
    if (source) { source.close(); source = null; }
    if (pollTimer !== null) { clearInterval(pollTimer); pollTimer = null; }
  }

  function poll(table) {
    fetch(table.links.state, { cache: "no-store", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
      .then((s) => { showLink(true); update(s); })
      .catch(() => showLink(false));
  }

  // One stream at a time, the shown table's: a TV holds one of the server's streams, not one a table.
  function follow(table) {
    stop();
    if (!window.EventSource) { poll(table); pollTimer = setInterval(() => poll(table), POLL_MS); return; }
    const stream = new EventSource(table.links.live);
    source = stream;
    stream.onopen = () => showLink(true);
    stream.onerror = () => {
      if (stream.readyState === EventSource.CLOSED) {   // refused (busy, or gone): poll until the next table
        if (source === stream) { source = null; poll(table); pollTimer = setInterval(() => poll(table), POLL_MS); }
      } else {
        showLink(false);                                  // the browser is reconnecting
      }
    };
    stream.addEventListener("state", (e) => update(JSON.parse(e.data)));
  }

  function show(table) {
    empty.hidden = !!table;
    board.hidden = !table;
    if (!table) { stop(); shown = null; return; }
    // the same table again (the only one) stays on its stream; a polling board asks for one again
    const streaming = table.id === shown && source !== null;
    shown = table.id;
    draw(table);
    if (!streaming) follow(table);
  }

  function next() {
    if (!tables.length) return show(null);
    const at = tables.findIndex((t) => t.id === shown);
    show(tables[(at + 1) % tables.length]);
  }

  function readList() {
    fetch(root.dataset.lobby, { cache: "no-store", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
      .then((data) => {
        tables = data.tables;
        const still = tables.find((t) => t.id === shown);
        show(still || tables[0] || null);      // an ended table gives way at once
      })
      .catch(() => showLink(false));          // the list as it was, until the next read
  }

  show(tables[0] || null);
  setInterval(next, EVERY_MS);
  setInterval(readList, LIST_MS);
})();
