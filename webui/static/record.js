// The record page: pick or correct tiles, see the score preview, confirm; in riichi, more
// winners on the same discard (winners.js) and the liable player (pao).
// The server re-scores on confirm; the preview here only helps the player check.
(function () {
  "use strict";
  const root = document.querySelector("[data-record]");
  if (!root) return;
  // the page's data and words (a JSON block: the page runs no inline script)
  const cfg = JSON.parse(document.getElementById("tenbou-record").textContent);
  // Tile pictures drawn by the server, cloned as nodes: no markup is ever parsed here.
  const art = {};
  document.querySelector("template[data-tile-art]").content.querySelectorAll("[data-art]")
    .forEach((el) => { art[el.dataset.art] = el; });
  const tileArt = (code) => Array.from((art[code] || art.back).childNodes, (node) => node.cloneNode(true));

  // rows: hand (winning tile last), one per meld, dora, ura, and in classical Chinese the
  // flowers and seasons set aside. A tile is {code, doubt, alts}.
  const hand = { hand: [], dora: [], ura: [], melds: [], flowers: [] };
  // More rows the page may hold (classical Chinese: each loser's tiles, losers.js): by name.
  const extras = {};
  let target = { row: "hand", meld: -1 };
  let selected = null;           // {row, meld, index}: the tile a pick will replace
  let mode = "tiles";

  const $ = (sel, el) => (el || document).querySelector(sel);
  const $$ = (sel, el) => Array.from((el || document).querySelectorAll(sel));
  const radio = (name) => { const el = $(`input[type=radio][name=${name}]:checked`, root); return el ? el.value : null; };
  const val = (sel) => { const el = $(sel, root); return el ? el.value : ""; };

  $$("[data-extra-row]", root).forEach((block) => { extras[block.dataset.row] = []; });
  // Classical Chinese: each loser's own count, typed or from their tiles (losers.js).
  const losersBox = $("[data-losers]", root);
  const losers = losersBox ? window.TenbouLosers.attach(losersBox, cfg.winds, () => schedulePreview(),
    (row) => { target = { row, meld: -1 }; selected = null; draw(); }) : null;

  // Riichi: more winners on the same discard wait in `pending` until the one confirm; the tab
  // keeps them for this hand over a reload (pending.js).
  const pending = cfg.severalWinners ? window.TenbouWinners.list($("[data-pending]", root), cfg, pendingChanged) : null;
  const kept = window.TenbouPending;
  function pendingChanged() {
    kept.save(cfg.session, cfg.hand, pending.length ? Number(radio("discarder")) : null, pending.entries());
    if (!pending.length) $("[data-pending-restored]", root).hidden = true;
    syncWho();
  }
  const addWinner = $("[data-add-winner]", root);
  let lastResult = null;         // the last good preview's answer, for the pending list's line

  function rowTiles(row, meld) { return row === "meld" ? hand.melds[meld].tiles : row in extras ? extras[row] : hand[row]; }
  function rowLimit(row, meld) {
    if (row in extras) return 18;          // a loser's sets and flowers
    if (row === "hand") return 14 - 3 * hand.melds.length;
    if (row === "meld") return hand.melds[meld].kind.endsWith("kan") ? 4 : 3;
    if (row === "flowers") return 8;
    return 5;
  }

  function tileButton(tile, row, meld, index, isWin) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tile" + (tile.doubt ? " doubt" : "") + (isWin ? " win" : "");
    if (selected && selected.row === row && selected.meld === meld && selected.index === index) b.className += " selected";
    b.append(...tileArt(tile.code));
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
    container.replaceChildren();
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
    box.replaceChildren();
    hand.melds.forEach((m, i) => {
      const block = document.createElement("div");
      block.className = "tile-row-block meld-block";
      const head = document.createElement("h3");
      head.textContent = `${cfg.text.meld} ${i + 1}: ${cfg.text.kinds[m.kind] || m.kind}${m.kind === "ankan" ? "" : " · " + (cfg.text.kinds[m.from] || m.from)}`;
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
    // Dora and ura rows where the rules have dora, the flowers' row in classical Chinese.
    ["dora", "ura", "flowers"].forEach((row) => {
      const tiles = $(`[data-row=${row}] [data-tiles]`, root);
      if (tiles) drawRow(tiles, row, -1);
    });
    $$("[data-extra-row]", root).forEach((block) => drawRow($("[data-tiles]", block), block.dataset.row, -1));
    drawMelds();
    $("[data-row=hand] [data-count]", root).textContent = `${hand.hand.length}/${rowLimit("hand")}`;
    const names = { hand: cfg.text.hand, dora: cfg.text.dora, ura: cfg.text.ura, flowers: cfg.text.flowers };
    const extraRow = target.row in extras ? $(`[data-extra-row][data-row="${target.row}"]`, root) : null;
    $("[data-target-name]", root).textContent =
      target.row === "meld" ? `${cfg.text.meld} ${target.meld + 1}` : extraRow ? extraRow.dataset.rowName : names[target.row];
    const doubts = [...hand.hand, ...hand.dora, ...hand.flowers, ...hand.melds.flatMap((m) => m.tiles)].some((t) => t.doubt);
    $("[data-doubt-note]", root).hidden = !doubts;
    drawAlternatives();
    schedulePreview();
  }

  // A tapped doubtful tile: the camera's runner-up names come first, above the whole picker.
  function drawAlternatives() {
    const box = $("[data-alternatives]", root);
    const tile = selected ? rowTiles(selected.row, selected.meld)[selected.index] : null;
    const alts = tile && tile.doubt ? tile.alts.filter((code) => code !== tile.code && art[code]) : [];
    box.hidden = !alts.length;
    const row = $("[data-alternative-tiles]", box);
    row.replaceChildren(...alts.map((code) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "pick alternative";
      b.dataset.alternative = code;
      b.setAttribute("aria-label", code);
      b.append(...tileArt(code));
      b.addEventListener("click", () => pick(code));
      return b;
    }));
  }

  function pick(code) {
    if (selected) {
      const tiles = rowTiles(selected.row, selected.meld);
      tiles[selected.index] = { code, doubt: false, alts: [] };
      selected = null;
    } else {
      // A flower or season is never part of the hand: it goes where flowers are set aside.
      const flower = code.endsWith("f") && !(target.row in extras);   // a loser's flowers stay with their tiles
      const row = flower ? "flowers" : target.row;
      const meld = flower ? -1 : target.meld;
      const tiles = rowTiles(row, meld);
      if (tiles.length >= rowLimit(row, meld)) return;
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
    hand.hand = []; hand.dora = []; hand.ura = []; hand.melds = []; hand.flowers = [];
    Object.keys(extras).forEach((row) => { extras[row] = []; });
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
    const taken = pending ? pending.seats() : [];
    const locked = taken.length > 0;      // the discarder is named once for every winner
    if (locked) $("input[type=radio][name=how][value=ron]", root).checked = true;
    $$("input[type=radio][name=how]", root).forEach((el) => { el.disabled = locked && el.value === "tsumo"; });
    const ron = radio("how") === "ron";
    $(".discarder-row", root).hidden = !ron;
    const discarder = ron ? radio("discarder") : null;
    const winners = $$("input[type=radio][name=winner]", root);
    winners.forEach((el) => { el.disabled = taken.includes(Number(el.value)) || (locked && el.value === discarder); });
    const current = winners.find((el) => el.checked);
    if (!current || current.disabled) {
      const free = winners.find((el) => !el.disabled);
      if (free) free.checked = true;
    }
    const winner = radio("winner");
    $$("input[type=radio][name=discarder]", root).forEach((el) => {
      el.disabled = locked || el.value === winner;
      if (el.value === winner && el.checked) el.checked = false;
    });
    const pao = $("[data-pao]", root);
    if (pao) {
      $$("option", pao).forEach((o) => { o.disabled = o.value === winner; });
      if (pao.value === winner) pao.value = "";
    }
    const riichi = $("[data-flag=riichi]", root);
    if (riichi) riichi.checked = !!cfg.riichi[Number(winner)];
    if (losers) losers.setWinner(Number(winner));
    if (addWinner) addWinner.hidden = !(ron && radio("discarder") !== null && taken.length + 2 < cfg.players.length);
    schedulePreview();
  }
  $$("input[type=radio][name=winner], input[type=radio][name=how], input[type=radio][name=discarder]", root).forEach((el) => el.addEventListener("change", syncWho));
  $$("[data-flag], [data-han], [data-fu], [data-yakuman], [data-pao-yakuman], [data-points], [data-pao], [data-chips], [data-nukidora]", root).forEach((el) => {
    el.addEventListener("change", schedulePreview);
    el.addEventListener("input", schedulePreview);
  });

  // The yaku picker (riichi, by han and fu): the yaku picked and the dora counted, as the server
  // takes them ({} when none is picked); picking adds up the han, or the yakuman, for the player.
  function picked() {
    const ids = $$("[data-yaku-pick]:checked", root).map((el) => el.dataset.yakuPick);
    if (!ids.length) return {};
    const found = { yaku: ids.join(","), open: $("[data-open-hand]", root).checked ? "1" : "" };
    $$("[data-dora-count]", root).forEach((el) => { found[el.dataset.doraCount] = el.value || "0"; });
    return found;
  }
  function addUpPicks() {
    const open = $("[data-open-hand]", root).checked;
    const picks = $$("[data-yaku-pick]", root);
    picks.forEach((el) => { el.disabled = open && el.dataset.hanOpen === "0" && el.dataset.yakumanCount === "0"; if (el.disabled) el.checked = false; });
    const chosen = picks.filter((el) => el.checked);
    if (!chosen.length) { schedulePreview(); return; }
    const yakuman = chosen.reduce((sum, el) => sum + Number(el.dataset.yakumanCount), 0);
    const dora = $$("[data-dora-count]", root).reduce((sum, el) => sum + Number(el.value || 0), 0);
    const han = chosen.reduce((sum, el) => sum + Number(open ? el.dataset.hanOpen : el.dataset.hanClosed), 0) + dora;
    $("[data-yakuman]", root).value = String(yakuman);
    $("[data-han]", root).value = yakuman ? "" : String(han);
    schedulePreview();
  }
  $$("[data-yaku-pick], [data-open-hand], [data-dora-count]", root).forEach((el) => {
    el.addEventListener("change", addUpPicks);
    el.addEventListener("input", addUpPicks);
  });

  $$("[data-mode]", root).forEach((tab) => tab.addEventListener("click", () => setMode(tab.dataset.mode)));
  function setMode(next) {
    mode = next;
    $$("[data-mode]", root).forEach((tab) => tab.setAttribute("aria-selected", String(tab.dataset.mode === next)));
    $$("[data-panel]", root).forEach((p) => { p.hidden = !(p.dataset.panel === next || (next === "photo" && p.dataset.panel === "tiles" && hand.hand.length)); });
    if (losers) losers.setMode(next !== "hanfu");
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
    }, hand.flowers.length ? { flowers: codes(hand.flowers) } : {}, nukidora() ? { nukidora: nukidora() } : {},
    losers ? losers.forHand((row) => extras[row].map((t) => t.code)) : {}, flags);
  }

  // Three-player riichi: the north tiles the winner set aside (0 to 4).
  function nukidora() { return Number(radio("nukidora") || 0); }

  function who() {
    const tsumo = radio("how") === "tsumo";
    return { winner: Number(radio("winner")), tsumo, discarder: tsumo ? null : (radio("discarder") === null ? null : Number(radio("discarder"))) };
  }

  function paoSeat() { const v = val("[data-pao]"); return v === "" ? null : Number(v); }
  // By han/fu, how many of the yakuman the liable player covers (1 unless told: big four winds
  // as a double yakuman is 2); a hand by tiles says it itself.
  function paoYakuman() { return paoSeat() === null ? null : val("[data-pao-yakuman]") || "1"; }

  function ready() {
    const w = who();
    if (!w.tsumo && w.discarder === null) return false;
    if (mode === "hanfu") return !$("[data-han]", root) || Number(val("[data-han]")) >= 1 || Number(val("[data-yakuman]")) >= 1;
    return hand.hand.length === rowLimit("hand") && hand.melds.every((m, i) => m.tiles.length === rowLimit("meld", i));
  }

  // Nothing entered for the next winner yet: confirm records the pending winners alone.
  function blank() {
    if (!pending || !pending.length) return false;
    if (mode === "hanfu") return val("[data-han]") === "" && Number(val("[data-yakuman]") || 0) === 0;
    return hand.hand.length === 0 && hand.melds.length === 0;
  }

  // This winner takes the honba and sticks unless a pending winner sits earlier in turn.
  function takesPot() {
    const w = who();
    return !pending || w.discarder === null || window.TenbouWinners.takesPot(w.winner, pending.seats(), w.discarder, cfg.players.length);
  }

  // Confirm is enabled only while what is on screen is what the last good preview scored;
  // an event that changes nothing (a change-on-blur as the confirm button is tapped) keeps it.
  let timer = null, seq = 0, okKey = null;
  function currentKey() {
    const numbers = mode === "hanfu" ? [val("[data-han]"), val("[data-fu]"), val("[data-yakuman]"), val("[data-points]"), paoYakuman(), val("[data-chips]"), picked()] : null;
    return JSON.stringify([mode, who(), paoSeat(), pending ? pending.seats() : [], numbers || buildHand(), losers ? losers.key() : null]);
  }
  function enable(confirm, another) {
    $("[data-confirm]", root).disabled = !confirm;
    if (addWinner) addWinner.disabled = !another;
  }
  function schedulePreview() {
    const paoRow = $("[data-pao-yakuman-row]", root);
    if (paoRow) paoRow.hidden = paoSeat() === null;
    clearTimeout(timer);
    if (currentKey() !== okKey) enable(false, false);
    timer = setTimeout(preview, 200);
  }

  // An element of `tag` with `className` holding `children`: nodes, or strings as text.
  function el(tag, className, ...children) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    node.append(...children);
    return node;
  }
  function fmt(template, values) { return template.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : "")); }
  // "Dan pays Ben 5200"; the riichi sticks (the pool in Fundamentals) are taken, nobody pays them
  function payLine(t) {
    if (t.from === "pot") return fmt(cfg.text.takes, { payee: party(t.to), pot: party("pot"), points: t.points });
    return fmt(cfg.text.pays, { payer: party(t.from), payee: party(t.to), points: t.points });
  }
  function party(p) { return p === "pot" ? cfg.text.pot : cfg.players[cfg.winds.indexOf(p)] || p; }

  function showResult(result) {
    const body = $("[data-preview-body]", root);
    body.className = "";
    if (!result.ok) {
      body.className = "preview-error";
      const e = result.error;   // summary: the code's meaning in the page's language; message: the details
      // `said` is the scorer's message in the page's language (empty where it has none)
      const words = e && "said" in e ? [e.summary, e.said] : e ? [e.summary || e.message, e.detail] : ["?"];
      body.textContent = words.filter(Boolean).join(" — ");
      return false;
    }
    if (result.chinese) return showChinese(body, result);
    // Built as nodes with text, never as markup: the payers are the players' own names.
    const total = el("p", "preview-total", el("b", null, fmt(cfg.text.points, { points: result.points })));
    // Han and fu are riichi's; classical Chinese and Fundamentals answer with points alone.
    if (result.han !== undefined) total.append(` · ${fmt(cfg.text.hanFu, { han: result.han, fu: result.fu })}`);
    if (result.limit) total.append(" ", el("span", "limit", cfg.names.limit[result.limit] || result.limit));
    const yaku = el("ul", "yaku-list", ...(result.yaku || []).map((y) =>
      el("li", null, el("span", null, cfg.names.yaku[y.id] || y.id), el("b", null, String(y.han)))));
    const pays = el("ul", "pay-list", ...(result.transfers || []).map((t) =>
      el("li", null, payLine(t))));
    body.replaceChildren(total, yaku, ...ownCounts(result.other_counts), pays);   // a Chinese score: the losers' counts
    return true;
  }

  // Classical Chinese: each scoring item and its points, the doubles, then base × 2^doubles,
  // as riichi lists its yaku (the items are the scorer's; their names are the page's).
  function showChinese(body, result) {
    const c = result.chinese;
    const name = (item) => (cfg.names.chinese[item.reason] || item.reason.replace(/_/g, " "));
    const tile = (item) => (item.tile ? el("span", "item-tile", ...tileArt(item.tile)) : "");
    const total = el("p", "preview-total", el("b", null, fmt(cfg.text.points, { points: result.points })));
    if (c.limit_hand) total.append(" ", el("span", "limit", cfg.text.limitHand));
    else if (c.capped) total.append(" ", el("span", "limit", fmt(cfg.text.capped, { limit: c.limit })));
    const items = el("ul", "yaku-list", ...c.items.map((item) =>
      el("li", null, el("span", null, name(item), tile(item)), el("b", null, String(item.points)))));
    const base = el("p", "chinese-sum", fmt(cfg.text.base, { base: c.base }));
    const doubles = el("ul", "yaku-list doubles-list", ...c.doubles_items.map((item) =>
      el("li", null, el("span", null, name(item), tile(item)), el("b", null, "×" + 2 ** item.doubles))));
    const value = el("p", "chinese-sum", c.limit_hand
      ? `${cfg.text.limitHand}: ${(c.limit_hand || []).map((g) => cfg.names.chinese[g] || g.replace(/_/g, " ")).join(", ")}`
      : `${c.base} × ${2 ** c.doubles} = ${c.score}`);
    const pays = el("ul", "pay-list", ...(result.transfers || []).map((t) =>
      el("li", null, payLine(t))));
    const parts = c.limit_hand ? [total, value, ...ownCounts(c.other_counts), pays] : [total, items, base];
    if (!c.limit_hand && c.doubles_items.length) parts.push(doubles);
    if (!c.limit_hand) parts.push(value, ...ownCounts(c.other_counts), pays);
    if (losers) losers.showCounted(c.other_counts, cfg.text.counted);
    body.replaceChildren(...parts);
    return true;
  }

  // "Own counts: Ben 8 · Dan 4": what each loser paid less (classical Chinese), by seat wind.
  function ownCounts(byWind) {
    const named = Object.entries(byWind || {}).map(([wind, n]) => `${party(wind)} ${n}`);
    return named.length ? [el("p", "own-counts muted", `${cfg.text.ownCounts}: ${named.join(" · ")}`)] : [];
  }

  async function preview() {
    const body = $("[data-preview-body]", root);
    const mine = ++seq, key = currentKey();
    okKey = null; lastResult = null;
    if (blank()) { body.className = "muted"; body.textContent = cfg.text.pendingNote; okKey = key; enable(true, false); return; }
    if (!ready()) { body.className = "muted"; body.textContent = cfg.text.empty; enable(false, false); return; }
    // riichi han/fu, a classical Chinese score: the server pays it as the ledger will
    const numbers = mode === "hanfu" && ($("[data-han]", root) || (losers && $("[data-points]", root)));
    // Fundamentals without tiles: every win pays alike, so the winner and how are the preview
    if (mode === "hanfu" && !numbers && !cfg.byWinner) {
      body.className = "";
      body.textContent = $("[data-points]", root) ? fmt(cfg.text.points, { points: val("[data-points]") }) : "";
      okKey = key;
      enable(true, false);
      return;
    }
    if (numbers && paoSeat() !== null && !Number(val("[data-yakuman]") || 0)) {
      body.className = "preview-error"; body.textContent = cfg.text.paoNeedsYakuman; enable(false, false); return;
    }
    const entry = !numbers ? (mode === "hanfu" ? {} : { hand: buildHand() })
      : losers ? { points: val("[data-points]"), other_counts: losers.bySeat() }
      : { han: val("[data-han]"), fu: val("[data-fu]"), yakuman: val("[data-yakuman]"), pao_yakuman: paoYakuman(), chips: val("[data-chips]"), ...picked() };
    try {
      const res = await fetch(root.dataset.preview, {
        method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": root.dataset.csrf },
        body: JSON.stringify(Object.assign(entry, { pao: paoSeat(), takes_pot: takesPot() }, who())),
      });
      const data = await res.json();
      if (mine !== seq) return;
      const ok = data.result ? showResult(data.result) : showResult({ ok: false, error: data.error });
      if (ok) {
        okKey = key;
        const r = data.result;
        const value = r.yakuman ? `${r.yakuman} × ${cfg.names.limit.yakuman}` : r.han !== undefined ? fmt(cfg.text.hanFu, { han: r.han, fu: r.fu }) : "";
        lastResult = { label: [fmt(cfg.text.points, { points: r.points }), value].filter(Boolean).join(" · ") };
      }
      enable(ok, ok);
    } catch (err) {
      body.className = "preview-error"; body.textContent = String(err);
    }
  }

  // One winner as the server takes it in `winners`: the hand's tiles, or the numbers.
  function entryPost() {
    const post = { winner: Number(radio("winner")) };
    if (paoSeat() !== null) post.pao = paoSeat();
    if (mode === "hanfu") Object.assign(post, { han: val("[data-han]"), fu: val("[data-fu]"), yakuman: val("[data-yakuman]"), chips: val("[data-chips]") }, picked());
    else post.hand = buildHand();
    if (mode === "hanfu" && paoSeat() !== null) post.pao_yakuman = paoYakuman();
    return post;
  }

  // The next winner starts from an empty hand; the dora indicators stay (one wall, one discard).
  function resetEditor() {
    hand.hand = []; hand.melds = []; hand.flowers = [];
    target = { row: "hand", meld: -1 }; selected = null;
    $$("[data-flag]", root).forEach((el) => { el.checked = false; });
    const han = $("[data-han]", root);
    if (han) { han.value = ""; $("[data-yakuman]", root).value = "0"; $("[data-pao-yakuman]", root).value = "1"; }
    $$("[data-yaku-pick], [data-open-hand]", root).forEach((el) => { el.checked = false; el.disabled = false; });
    $$("[data-dora-count]", root).forEach((el) => { el.value = "0"; });
    const pao = $("[data-pao]", root);
    if (pao) pao.value = "";
    const chips = $("[data-chips]", root);
    if (chips) chips.value = "";
    const noNorth = $("[data-nukidora][value='0']", root);     // the next winner's own north tiles
    if (noNorth) noNorth.checked = true;
    draw();
  }

  if (addWinner) addWinner.addEventListener("click", () => {
    if (currentKey() !== okKey || blank() || !lastResult) return;
    const post = entryPost(), label = lastResult.label;
    resetEditor();
    pending.add(post, label);
  });

  $("[data-confirm-form]", root).addEventListener("submit", (ev) => {
    const form = ev.target, w = who();
    const others = pending ? pending.posts() : [];
    form.winners.value = "";
    form.pao.value = paoSeat() === null ? "" : paoSeat();
    form.pao_yakuman.value = mode === "hanfu" && paoSeat() !== null ? paoYakuman() : "";
    if (others.length) {
      // several winners: everything travels in `winners`, the discarder once beside them
      form.winners.value = JSON.stringify(blank() ? others : others.concat([entryPost()]));
      ["winner", "tsumo", "yaku", "open", "dora", "aka_dora", "ura_dora", "hand", "han", "fu", "yakuman", "points", "pao", "pao_yakuman", "chips", "other_counts"].forEach((name) => { form[name].value = ""; });
      kept.markSent(cfg.session);    // dropped once recorded; a refusal finds the list again
      form.discarder.value = w.discarder;
      $("[data-confirm]", root).disabled = true;
      return;
    }
    form.winner.value = w.winner;
    form.tsumo.value = w.tsumo ? "1" : "";
    form.discarder.value = w.discarder === null ? "" : w.discarder;
    if (mode === "hanfu") {
      form.hand.value = "";
      form.han.value = val("[data-han]");
      form.fu.value = val("[data-fu]");
      form.yakuman.value = val("[data-yakuman]");
      form.points.value = val("[data-points]");
      const picks = picked();
      ["yaku", "open", "dora", "aka_dora", "ura_dora"].forEach((name) => { form[name].value = picks[name] || ""; });
      form.chips.value = val("[data-chips]");
      form.other_counts.value = losers ? JSON.stringify(losers.bySeat()) : "";
    } else {
      form.hand.value = JSON.stringify(buildHand());
      form.chips.value = ""; form.other_counts.value = "";
    }
    $("[data-confirm]", root).disabled = true;   // one tap, one hand (the form token backs this up)
  });

  // Sent by the page itself, after the listener above filled the form in: a refused hand is said
  // beside the confirm button with the page as it was (nothing entered is lost); a recorded one
  // goes on to the scoreboard, whose message says so.
  $("[data-confirm-form]", root).addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const form = ev.target, said = $("[data-confirm-error]", root);
    said.hidden = true;
    let res = null, body = null;
    try {
      res = await fetch(form.action, { method: "POST", body: new FormData(form), redirect: "manual",
                                       headers: { Accept: "application/json" } });
    } catch (e) { res = null; }
    if (res && (res.type === "opaqueredirect" || res.ok)) { location.href = `/s/${cfg.session}`; return; }
    try { body = res ? await res.json() : null; } catch (e) { body = null; }
    const e = body && body.error;
    said.textContent = e ? [e.message, e.detail].filter(Boolean).join(" ") : cfg.text.notSent;
    said.hidden = false;
    $("[data-confirm]", root).disabled = false;
  });

  // photos: the server reads the tiles (scan.js turns its answer into rows, doubts marked)
  function loadScan(data, kind) {
    const rows = window.TenbouScan.rows(data);
    if (kind === "dora") { hand.dora = rows.loose; return; }
    hand.hand = rows.hand; hand.melds = rows.melds; hand.flowers = rows.flowers;
    if (rows.dora.length) hand.dora = rows.dora;
  }

  // What the camera doubted and why (the scan's `doubts`, in the page's language), kept in
  // view until the next photo: the orange tiles say where, these lines say why.
  function showDoubts(said) {
    const box = $("[data-doubts]", root);
    box.hidden = !said.length;
    $("[data-doubt-list]", box).replaceChildren(...said.map((line) => el("li", null, line)));
  }

  async function readPhoto(url, body, kind) {
    const status = $("[data-scan-status]", root);
    status.className = "scan-status muted"; status.textContent = cfg.text.scanning;
    try {
      const res = await fetch(url, { method: "POST", body, headers: { "X-CSRF-Token": root.dataset.csrf } });
      const data = await res.json();
      if (!res.ok) { status.className = "scan-status preview-error"; status.textContent = data.error.message + (data.error.detail ? " — " + data.error.detail : ""); return; }
      loadScan(data, kind);
      // Too few tiles for a hand come back named, to be completed here (a dora photo is just that).
      const said = data.doubts_said || data.doubts || [];
      const incomplete = kind === "hand" && !data.hand && said.length;
      status.className = incomplete ? "scan-status preview-error" : "scan-status muted";
      status.textContent = incomplete ? cfg.text.scanIncomplete : "";
      if (kind === "hand") showDoubts(said);
      target = { row: "hand", meld: -1 }; selected = null;
      $$("[data-panel=tiles]", root).forEach((p) => { p.hidden = false; });
      draw();
    } catch (err) {
      status.className = "scan-status preview-error"; status.textContent = String(err);
    }
  }
  $$("[data-photo]", root).forEach((input) => input.addEventListener("change", async () => {
    const file = input.files[0];
    if (!file) return;
    const form = new FormData(); form.append("photo", file);
    await readPhoto(root.dataset.scan, form, input.dataset.photo);
    input.value = "";
  }));
  $$("[data-webcam]", root).forEach((button) => button.addEventListener("click", () => readPhoto(button.dataset.webcam, null, "hand")));

  $$("[data-cancel-pending]", root).forEach((b) => b.addEventListener("click", () => pending.clear()));

  // The winners this tab kept for this hand before a reload: the discarder first (it is named
  // once for all of them), then each winner; a list that does not fit the table is dropped.
  function restorePending() {
    const found = kept.restore(cfg.session, cfg.hand);
    if (!found) return;
    const seats = cfg.players.length;
    const seat = (v) => Number.isInteger(v) && v >= 0 && v < seats;
    const winners = found.entries.map((e) => e && e.post && e.post.winner);
    const fits = seat(found.discarder) && winners.every(seat) && !winners.includes(found.discarder)
      && new Set(winners).size === winners.length && winners.length >= 1 && winners.length <= seats - 2;
    if (!fits) { kept.forget(cfg.session); return; }
    $("input[type=radio][name=how][value=ron]", root).checked = true;
    $(`input[type=radio][name=discarder][value="${found.discarder}"]`, root).checked = true;
    found.entries.forEach((e) => pending.add(e.post, e.label));
    $("[data-pending-restored]", root).hidden = false;
  }

  if (pending) restorePending();
  syncWho();
  draw();
})();
