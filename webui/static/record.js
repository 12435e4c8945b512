// The record page: pick or correct tiles, see the score preview, confirm.
// The server re-scores on confirm; the preview here only helps the player check.
(function () {
  "use strict";
  const root = document.querySelector("[data-record]");
  if (!root) return;
  const cfg = window.TENBOU_RECORD;
  const art = {};
  document.querySelector("template[data-tile-art]").content.querySelectorAll("[data-art]")
    .forEach((el) => { art[el.dataset.art] = el.innerHTML; });

  // rows: hand (winning tile last), one per meld, dora, ura. A tile is {code, doubt, alts}.
  const hand = { hand: [], dora: [], ura: [], melds: [] };
  let target = { row: "hand", meld: -1 };
  let selected = null;           // {row, meld, index}: the tile a pick will replace
  let mode = "tiles";

  const $ = (sel, el) => (el || document).querySelector(sel);
  const $$ = (sel, el) => Array.from((el || document).querySelectorAll(sel));
  const radio = (name) => { const el = $(`input[name=${name}]:checked`, root); return el ? el.value : null; };

  function rowTiles(row, meld) { return row === "meld" ? hand.melds[meld].tiles : hand[row]; }
  function rowLimit(row, meld) {
    if (row === "hand") return 14 - 3 * hand.melds.length;
    if (row === "meld") return hand.melds[meld].kind.endsWith("kan") ? 4 : 3;
    return 5;
  }

  function tileButton(tile, row, meld, index, isWin) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tile" + (tile.doubt ? " doubt" : "") + (isWin ? " win" : "");
    if (selected && selected.row === row && selected.meld === meld && selected.index === index) b.className += " selected";
    b.innerHTML = art[tile.code] || art.back;
    b.dataset.code = tile.code;
    b.setAttribute("aria-label", tile.code + (tile.doubt ? " ?" : ""));
    b.addEventListener("click", () => {
      const same = selected && selected.row === row && selected.meld === meld && selected.index === index;
      selected = same ? null : { row, meld, index };
      target = { row, meld };
      draw();
    });
    return b;
  }

  function drawRow(container, row, meld) {
    container.innerHTML = "";
    const tiles = rowTiles(row, meld);
    tiles.forEach((tile, i) => container.appendChild(
      tileButton(tile, row, meld, i, row === "hand" && i === tiles.length - 1 && tiles.length === rowLimit("hand"))));
    const slot = document.createElement("button");
    slot.type = "button";
    slot.className = "tile-slot" + (target.row === row && target.meld === meld && !selected ? " active" : "");
    slot.textContent = "+";
    slot.addEventListener("click", () => { target = { row, meld }; selected = null; draw(); });
    if (tiles.length < rowLimit(row, meld)) container.appendChild(slot);
  }

  function drawMelds() {
    const box = $("[data-melds]", root);
    box.innerHTML = "";
    hand.melds.forEach((m, i) => {
      const block = document.createElement("div");
      block.className = "tile-row-block meld-block";
      const head = document.createElement("h3");
      head.textContent = `${cfg.text.meld} ${i + 1}: ${m.kind}${m.kind === "ankan" ? "" : " " + ({left: "←", across: "↑", right: "→"})[m.from]}`;
      const del = document.createElement("button");
      del.type = "button"; del.className = "secondary small"; del.textContent = "×";
      del.addEventListener("click", () => { hand.melds.splice(i, 1); target = { row: "hand", meld: -1 }; selected = null; draw(); });
      head.appendChild(del);
      const row = document.createElement("div");
      row.className = "tile-row";
      block.append(head, row);
      box.appendChild(block);
      drawRow(row, "meld", i);
    });
  }

  function draw() {
    drawRow($("[data-row=hand] [data-tiles]", root), "hand", -1);
    drawRow($("[data-row=dora] [data-tiles]", root), "dora", -1);
    drawRow($("[data-row=ura] [data-tiles]", root), "ura", -1);
    drawMelds();
    $("[data-row=hand] [data-count]", root).textContent = `${hand.hand.length}/${rowLimit("hand")}`;
    const names = { hand: cfg.text.hand, dora: cfg.text.dora, ura: cfg.text.ura };
    $("[data-target-name]", root).textContent =
      target.row === "meld" ? `${cfg.text.meld} ${target.meld + 1}` : names[target.row];
    const doubts = [...hand.hand, ...hand.dora, ...hand.melds.flatMap((m) => m.tiles)].some((t) => t.doubt);
    $("[data-doubt-note]", root).hidden = !doubts;
    schedulePreview();
  }

  function pick(code) {
    if (selected) {
      const tiles = rowTiles(selected.row, selected.meld);
      tiles[selected.index] = { code, doubt: false, alts: [] };
      selected = null;
    } else {
      const tiles = rowTiles(target.row, target.meld);
      if (tiles.length >= rowLimit(target.row, target.meld)) return;
      tiles.push({ code, doubt: false, alts: [] });
    }
    draw();
  }

  $$("[data-pick]", root).forEach((b) => b.addEventListener("click", () => pick(b.dataset.pick)));
  $("[data-backspace]", root).addEventListener("click", () => {
    if (selected) { rowTiles(selected.row, selected.meld).splice(selected.index, 1); selected = null; }
    else rowTiles(target.row, target.meld).pop();
    draw();
  });
  $("[data-clear]", root).addEventListener("click", () => {
    hand.hand = []; hand.dora = []; hand.ura = []; hand.melds = [];
    target = { row: "hand", meld: -1 }; selected = null; draw();
  });
  $("[data-add-meld]", root).addEventListener("click", () => {
    if (hand.melds.length >= 4) return;
    const kind = $("[data-meld-kind]", root).value;
    hand.melds.push({ kind, from: $("[data-meld-from]", root).value, tiles: [] });
    hand.hand.length = Math.min(hand.hand.length, rowLimit("hand"));
    target = { row: "meld", meld: hand.melds.length - 1 }; selected = null; draw();
  });

  // winner / tsumo / ron / discarder
  function syncWho() {
    const ron = radio("how") === "ron";
    $(".discarder-row", root).hidden = !ron;
    const winner = radio("winner");
    $$("input[name=discarder]", root).forEach((el) => {
      el.disabled = el.value === winner;
      if (el.disabled && el.checked) el.checked = false;
    });
    const riichi = $("[data-flag=riichi]", root);
    riichi.checked = !!cfg.riichi[Number(winner)];
    schedulePreview();
  }
  $$("input[name=winner], input[name=how], input[name=discarder]", root).forEach((el) => el.addEventListener("change", syncWho));
  $$("[data-flag], [data-han], [data-fu], [data-yakuman]", root).forEach((el) => el.addEventListener("change", schedulePreview));

  $$("[data-mode]", root).forEach((tab) => tab.addEventListener("click", () => setMode(tab.dataset.mode)));
  function setMode(next) {
    mode = next;
    $$("[data-mode]", root).forEach((tab) => tab.setAttribute("aria-selected", String(tab.dataset.mode === next)));
    $$("[data-panel]", root).forEach((p) => { p.hidden = !(p.dataset.panel === next || (next === "photo" && p.dataset.panel === "tiles" && hand.hand.length)); });
    schedulePreview();
  }

  function codes(tiles) { return tiles.map((t) => t.code).join(""); }

  function buildHand() {
    const flags = {};
    $$("[data-flag]", root).forEach((el) => { if (el.checked) flags[el.dataset.flag] = true; });
    const tsumo = radio("how") === "tsumo";
    if (flags.last_tile) { flags[tsumo ? "haitei" : "houtei"] = true; }
    delete flags.last_tile;
    const concealed = hand.hand;
    return Object.assign({
      concealed: codes(concealed),
      win_tile: concealed.length ? concealed[concealed.length - 1].code : "",
      melds: hand.melds.map((m) => (m.kind === "ankan" ? { kind: m.kind, tiles: codes(m.tiles) }
                                                     : { kind: m.kind, tiles: codes(m.tiles), from: m.from })),
      dora_indicators: codes(hand.dora),
      ura_indicators: codes(hand.ura),
    }, flags);
  }

  function who() {
    const tsumo = radio("how") === "tsumo";
    return { winner: Number(radio("winner")), tsumo, discarder: tsumo ? null : (radio("discarder") === null ? null : Number(radio("discarder"))) };
  }

  function ready() {
    const w = who();
    if (!w.tsumo && w.discarder === null) return false;
    if (mode === "hanfu") return true;
    return hand.hand.length === rowLimit("hand") && hand.melds.every((m, i) => m.tiles.length === rowLimit("meld", i));
  }

  let timer = null, seq = 0;
  function schedulePreview() {
    clearTimeout(timer);
    $("[data-confirm]", root).disabled = true;
    timer = setTimeout(preview, 200);
  }

  function fmt(template, values) { return template.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : "")); }
  function party(p) { return p === "pot" ? cfg.text.pot : cfg.players[cfg.winds.indexOf(p)] || p; }

  function showResult(result) {
    const body = $("[data-preview-body]", root);
    body.className = "";
    if (!result.ok) {
      body.className = "preview-error";
      body.textContent = result.error ? result.error.message : "?";
      return false;
    }
    const yaku = (result.yaku || []).map((y) => `<li><span>${cfg.names.yaku[y.id] || y.id}</span><b>${y.han}</b></li>`).join("");
    const limit = result.limit ? `<span class="limit">${cfg.names.limit[result.limit] || result.limit}</span>` : "";
    const pays = (result.transfers || []).map((t) => `<li>${fmt(cfg.text.pays, { payer: party(t.from), payee: party(t.to), points: t.points })}</li>`).join("");
    body.innerHTML = `<p class="preview-total"><b>${fmt(cfg.text.points, { points: result.points })}</b> · ${fmt(cfg.text.hanFu, { han: result.han, fu: result.fu })} ${limit}</p>
      <ul class="yaku-list">${yaku}</ul><ul class="pay-list">${pays}</ul>`;
    return true;
  }

  async function preview() {
    const body = $("[data-preview-body]", root);
    const mine = ++seq;
    if (!ready()) { body.className = "muted"; body.textContent = cfg.text.empty; return; }
    if (mode === "hanfu") {
      body.className = "";
      const yakuman = Number($("[data-yakuman]", root).value || 0);
      body.textContent = yakuman ? `${yakuman} × ${cfg.names.limit.yakuman}` :
        fmt(cfg.text.hanFu, { han: $("[data-han]", root).value, fu: $("[data-fu]", root).value });
      $("[data-confirm]", root).disabled = false;
      return;
    }
    try {
      const res = await fetch(root.dataset.preview, {
        method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": root.dataset.csrf },
        body: JSON.stringify(Object.assign({ hand: buildHand() }, who())),
      });
      const data = await res.json();
      if (mine !== seq) return;
      const ok = data.result ? showResult(data.result) : showResult({ ok: false, error: data.error });
      $("[data-confirm]", root).disabled = !ok;
    } catch (err) {
      body.className = "preview-error"; body.textContent = String(err);
    }
  }

  $("[data-confirm-form]", root).addEventListener("submit", (ev) => {
    const form = ev.target, w = who();
    form.winner.value = w.winner;
    form.tsumo.value = w.tsumo ? "1" : "";
    form.discarder.value = w.discarder === null ? "" : w.discarder;
    if (mode === "hanfu") {
      form.hand.value = "";
      form.han.value = $("[data-han]", root).value;
      form.fu.value = $("[data-fu]", root).value;
      form.yakuman.value = $("[data-yakuman]", root).value;
    } else {
      form.hand.value = JSON.stringify(buildHand());
    }
    $("[data-confirm]", root).disabled = true;   // one tap, one hand (the form token backs this up)
  });

  // photos: the server reads the tiles; doubtful ones are marked for the player to check
  function tileCode(t) { return t.red && t.tile[0] === "5" ? "0" + t.tile[1] : t.tile; }
  function splitTiles(text) {
    const out = []; let digits = [];
    for (const ch of text || "") {
      if (/[0-9]/.test(ch)) digits.push(ch);
      else if (/[mpszf]/.test(ch)) { digits.forEach((d) => out.push(d + ch)); digits = []; }
    }
    return out;
  }
  function markDoubts(rows, tiles) {
    const doubtful = tiles.filter((t) => t.pose !== "face_down" && (t.confidence < 0.8 || t.doubtful));
    doubtful.forEach((t) => {
      const code = tileCode(t);
      for (const row of rows) {
        const hit = row.find((x) => x.code === code && !x.doubt);
        if (hit) { hit.doubt = true; hit.alts = t.alternatives || []; return; }
      }
    });
  }
  function loadScan(data, kind) {
    const tiles = data.tiles || [];
    if (kind === "dora") {
      hand.dora = tiles.filter((t) => t.pose !== "face_down").map((t) => ({ code: tileCode(t), doubt: false, alts: [] }));
      markDoubts([hand.dora], tiles);
      return;
    }
    const h = data.hand;
    if (h) {
      const concealed = splitTiles(h.concealed);
      const win = h.win_tile && h.win_tile.length === 2 ? h.win_tile : null;
      if (win) { const i = concealed.lastIndexOf(win); if (i >= 0) { concealed.splice(i, 1); concealed.push(win); } }
      hand.hand = concealed.map((code) => ({ code, doubt: false, alts: [] }));
      hand.melds = (h.melds || []).map((m) => ({ kind: m.kind, from: m.from || "left",
        tiles: splitTiles(m.tiles).map((code) => ({ code, doubt: false, alts: [] })) }));
      hand.dora = splitTiles(h.dora_indicators).map((code) => ({ code, doubt: false, alts: [] }));
    } else {
      hand.hand = tiles.filter((t) => t.pose !== "face_down").map((t) => ({ code: tileCode(t), doubt: false, alts: [] }));
      hand.melds = [];
    }
    markDoubts([hand.hand, ...hand.melds.map((m) => m.tiles), hand.dora], tiles);
  }

  $$("[data-photo]", root).forEach((input) => input.addEventListener("change", async () => {
    const file = input.files[0];
    if (!file) return;
    const status = $("[data-scan-status]", root);
    status.className = "scan-status muted"; status.textContent = cfg.text.scanning;
    const form = new FormData(); form.append("photo", file);
    try {
      const res = await fetch(root.dataset.scan, { method: "POST", body: form, headers: { "X-CSRF-Token": root.dataset.csrf } });
      const data = await res.json();
      if (!res.ok) { status.className = "scan-status preview-error"; status.textContent = data.error.message + (data.error.detail ? " — " + data.error.detail : ""); return; }
      loadScan(data, input.dataset.photo);
      status.textContent = "";
      target = { row: "hand", meld: -1 }; selected = null;
      $$("[data-panel=tiles]", root).forEach((p) => { p.hidden = false; });
      draw();
    } catch (err) {
      status.className = "scan-status preview-error"; status.textContent = String(err);
    } finally { input.value = ""; }
  }));

  syncWho();
  draw();
})();
