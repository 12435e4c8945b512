// Scoreboard: keeps the page's numbers current from server-sent events.
(function () {
  "use strict";
  const board = document.querySelector("[data-live]");
  if (!board) return;
  const T = JSON.parse(document.getElementById("tenbou-text").textContent);
  let snap = null, table = null;

  const field = (name, el) => (el || board).querySelector(`[data-field=${name}]`);
  const fmt = (template, values) => template.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : ""));
  const signed = (n) => (n > 0 ? "+" + n : String(n));

  function render(s) {
    snap = s;
    field("round").textContent = fmt(T.roundName, { wind: T.winds[s.round_wind], n: s.hand_number });
    // each rule set shows what its table holds: riichi honba and sticks, the Fundamentals pool
    const put = (name, value) => { const el = field(name); if (el) el.textContent = value; };
    put("honba", s.honba);
    put("sticks", s.riichi_sticks);
    put("pool", s.pool);
    field("finished").hidden = !s.finished;
    // an ended game offers the settlement, not hands that would be refused
    document.querySelectorAll("[data-actions]").forEach((el) => { el.hidden = s.finished; });
    document.querySelectorAll("[data-ended]").forEach((el) => { el.hidden = !s.finished; });
    board.querySelectorAll("[data-seat]").forEach((card) => {
      const i = Number(card.dataset.seat);
      card.classList.toggle("dealer", s.dealer === i);
      card.classList.toggle("in-riichi", !!s.riichi[i]);
      field("wind", card).textContent = T.winds[s.seat_winds[i]];
      field("score", card).textContent = s.scores[i];
      const delta = s.last ? s.last.deltas[i] : 0;
      const d = field("delta", card);
      d.textContent = delta ? signed(delta) : "";
      d.className = "delta " + (delta > 0 ? "up" : delta < 0 ? "down" : "");
    });
    const last = field("last");
    if (last && s.last) last.textContent = lastText(s.last);
    if (T.allLast) allLast(s);
    board.dataset.events = s.events;
    // the riichi buttons follow the state without a reload
    document.querySelectorAll("[data-test^=riichi]").forEach((b) => {
      const i = Number(b.dataset.test.slice(6));
      if (!Number.isNaN(i)) b.disabled = !!s.riichi[i] || s.finished;
    });
    renderTable();
  }

  // All-last conditions and the last hand in words: board-text.js, shared with the lobby's TV.
  const allLast = (s) => window.tenbouAllLast(board, s, T);
  const lastText = (h) => window.tenbouLastHand(h, snap, T);

  function renderTable() {
    const panel = document.querySelector("[data-table-panel]");
    if (!panel || !table) return;
    const badge = panel.querySelector("[data-table-field=link]");
    badge.textContent = T.link[table.link] || table.link;
    badge.dataset.state = table.link;
    panel.querySelectorAll("[data-table-seat]").forEach((el) => {
      const i = Number(el.dataset.tableSeat);
      el.textContent = table.points ? table.points[i] : "—";
    });
    const verdict = panel.querySelector("[data-table-field=verdict]");
    const accept = panel.querySelector("[data-table-accept]");
    let agree = null;
    if (table.points && snap && table.points.length === snap.scores.length) {
      agree = table.points.every((p, i) => p === snap.scores[i]);
    }
    if (!table.settled && table.points) verdict.textContent = T.settling;
    else if (agree === null) verdict.textContent = "";
    else verdict.textContent = agree ? T.agree : T.disagree;
    verdict.className = "table-verdict " + (agree === false && table.settled ? "warn-text" : "");
    if (accept) accept.hidden = !(agree === false && table.settled);
    const paid = panel.querySelector("[data-table-field=payment]");
    const match = table.payment && table.payment.match;
    if (paid) {
      paid.hidden = !(match && snap && match.session === snap.id);
      if (!paid.hidden) {
        paid.textContent = match.matched ? T.paymentOk : fmt(T.paymentBad, { detail: match.differences.map((d) =>
          `${d.seat === "pot" ? T.pot : snap.players[d.seat - 1]} ${signed(d.expected)} / ${signed(d.observed)}`).join(", ") });
        if (table.payment.across_restart) paid.textContent += " " + T.paymentRestart;
        paid.className = match.matched ? "ok-text" : "warn-text";
      }
    }
    const setOut = panel.querySelector("[data-table-field=new-game]");
    const fresh = table.new_game;
    if (setOut) {
      setOut.hidden = !fresh;
      if (fresh) {
        // "35000 each" for three players at a four-seat table: the empty seat shows 0
        const each = Math.max(...fresh.points);
        const start = fresh.session_start;
        // the session's other starting points matter only while the ledger and table disagree;
        // at the session's own starting points, a disagreeing ledger may instead hold hands the
        // players took back at the table (its layout cannot tell the two apart)
        const other = !!start && start !== each && agree === false;
        const takenBack = !!start && start === each && agree === false;
        setOut.textContent = fmt(T.newGame, { points: each }) + (other ? " " + fmt(T.newGameStart, { start }) : "")
          + (takenBack ? " " + T.newGameUndo : "");
        setOut.className = other || takenBack ? "warn-text" : "";
      }
    }
  }

  // Live updates come by a server-sent event stream. A server with no stream to spare answers
  // 503 at once, which closes the EventSource for good: the page then polls the same state
  // every few seconds and asks for a stream again later. A stream the server ends (it lasts
  // about a minute) is reopened by the browser itself.
  const stateUrl = board.dataset.live.replace("/live/", "/api/sessions/");
  const POLL_MS = 3000;
  const STREAM_AGAIN_MS = [15000, 30000];
  const between = ([low, high]) => low + Math.random() * (high - low);
  let pollTimer = null;

  function showLink(online) {
    const link = field("link");
    link.textContent = (online ? "● " : "○ ") + (online ? link.dataset.online : link.dataset.offline);
    link.classList.toggle("online", online);
  }

  function poll() {
    fetch(stateUrl, { cache: "no-store", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
      .then((s) => { render(s); showLink(true); })
      .catch(() => showLink(false));
    if (table) {
      fetch("/api/table", { cache: "no-store" }).then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
        .then((t) => { if (t.configured) { table = t; renderTable(); } }).catch(() => {});
    }
  }

  function startPolling() {
    if (pollTimer !== null) return;
    poll();
    pollTimer = setInterval(poll, POLL_MS + Math.random() * 500);
    if (window.EventSource) {
      setTimeout(() => { clearInterval(pollTimer); pollTimer = null; connect(); }, between(STREAM_AGAIN_MS));
    }
  }

  function connect() {
    if (!window.EventSource) { startPolling(); return; }
    const source = new EventSource(board.dataset.live);
    source.onopen = () => showLink(true);
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) {   // refused (busy, or gone): poll instead
        source.close();
        startPolling();
      } else {
        showLink(false);                                  // the browser is reconnecting
      }
    };
    source.addEventListener("state", (e) => render(JSON.parse(e.data)));
    source.addEventListener("table", (e) => { table = JSON.parse(e.data); renderTable(); });
  }

  // the stream opens with the table too: this first look only fills the panel sooner, and never
  // puts back an older view over one the stream has already brought
  fetch("/api/table").then((r) => r.json())
    .then((t) => { if (t.configured && table === null) { table = t; renderTable(); } }).catch(() => {});
  connect();
})();
