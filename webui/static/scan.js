// The camera pipeline's answer (`tenbou scan --json`) as the record page's rows of tiles.
// Pure: scan JSON in, rows out. A tile is {code, doubt, alts} (alts: the runner-up codes); doubtful tiles are marked on
// the first unmarked tile of the same kind, where the player sees it. Doubtful is the
// pipeline's own word (`doubtful`: named less than 90% surely, or renamed by the repair step),
// so the page outlines just the tiles `tenbou scan` lists under doubts.
(function () {
  "use strict";
  const doubtful = (t) => t.pose !== "face_down" && t.doubtful;

  function tileCode(t) { return t.red && t.tile[0] === "5" ? "0" + t.tile[1] : t.tile; }

  function splitTiles(text) {
    const out = []; let digits = [];
    for (const ch of text || "") {
      if (/[0-9]/.test(ch)) digits.push(ch);
      else if (/[mpszf]/.test(ch)) { digits.forEach((d) => out.push(d + ch)); digits = []; }
    }
    return out;
  }

  const plain = (code) => ({ code, doubt: false, alts: [] });

  function markDoubts(rows, tiles) {
    tiles.filter(doubtful).forEach((t) => {
      const code = tileCode(t);
      for (const row of rows) {
        const hit = row.find((x) => x.code === code && !x.doubt);
        // the camera's runner-up names, surest first: a tap on the tile offers them first
        if (hit) { hit.doubt = true; hit.alts = (t.alternatives || []).filter((a) => a && a.tile).map(tileCode); return; }
      }
    });
  }

  // {hand, melds, dora, flowers, loose}: the hand as read (winning tile last), or when the
  // photo held no complete hand, the tiles in the order seen (flowers and seasons apart);
  // `loose` is every face-up tile, for a photo of dora indicators.
  function rows(data) {
    const tiles = data.tiles || [];
    const loose = tiles.filter((t) => t.pose !== "face_down").map((t) => plain(tileCode(t)));
    markDoubts([loose], tiles);
    const h = data.hand;
    if (!h) {
      const seen = tiles.filter((t) => t.pose !== "face_down").map((t) => plain(tileCode(t)));
      const flower = (t) => t.code.endsWith("f");
      const out = { hand: seen.filter((t) => !flower(t)), melds: [], dora: [], flowers: seen.filter(flower), loose };
      markDoubts([out.hand, out.flowers], tiles);
      return out;
    }
    const concealed = splitTiles(h.concealed);
    const win = h.win_tile && h.win_tile.length === 2 ? h.win_tile : null;
    if (win) { const i = concealed.lastIndexOf(win); if (i >= 0) { concealed.splice(i, 1); concealed.push(win); } }
    const out = {
      hand: concealed.map(plain),
      melds: (h.melds || []).map((m) => ({ kind: m.kind, from: m.from || "left", tiles: splitTiles(m.tiles).map(plain) })),
      dora: splitTiles(h.dora_indicators).map(plain),
      flowers: splitTiles(h.flowers).map(plain),
      loose,
    };
    markDoubts([out.hand, ...out.melds.map((m) => m.tiles), out.dora, out.flowers], tiles);
    return out;
  }

  window.TenbouScan = { rows, splitTiles, tileCode };
})();
