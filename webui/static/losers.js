// Classical Chinese: each loser's own count, which the text has them pay less ("pay the
// difference"). A count is typed (most are small: quick +2 / +4 / +8 / +16 buttons add up what
// a player holds) or, with the hand entered by tiles, taken from that loser's tiles: the sets
// shown on the table and the tiles in the hand (the server counts them: pungs and kongs, one
// pair, flowers). record.js draws the tile rows and the picker; this keeps who counts how.
(function () {
  "use strict";

  // box: the [data-losers] card; winds: seat winds by seat; changed: called on every change;
  // useTiles(row): the picker's target moves to that tile row.
  function attach(box, winds, changed, useTiles) {
    const seats = Array.from(box.querySelectorAll("[data-loser]"));
    const fromTiles = new Set();     // seats counted from their tiles
    let winner = 0, byTiles = true;

    const seatOf = (el) => Number(el.dataset.loser);
    const input = (el) => el.querySelector("[data-loser-count]");
    const rowName = (seat, part) => `loser${seat}-${part}`;

    function render() {
      seats.forEach((el) => {
        const seat = seatOf(el), tiles = byTiles && fromTiles.has(seat);
        el.hidden = seat === winner;
        input(el).disabled = tiles;
        el.querySelector("[data-loser-rows]").hidden = !tiles;
        el.querySelectorAll("[data-add-count]").forEach((b) => { b.disabled = tiles; });
        const toggle = el.querySelector("[data-loser-tiles-toggle]");
        toggle.hidden = !byTiles;                   // the picker is the tiles' panel
        toggle.setAttribute("aria-pressed", String(tiles));
        if (!tiles) el.querySelector("[data-loser-counted]").hidden = true;
      });
    }

    seats.forEach((el) => {
      const seat = seatOf(el), field = input(el);
      field.addEventListener("input", changed);
      field.addEventListener("change", changed);
      el.querySelectorAll("[data-add-count]").forEach((b) => b.addEventListener("click", () => {
        const add = Number(b.dataset.addCount);
        field.value = add === 0 ? "0" : String((Number(field.value) || 0) + add);
        changed();
      }));
      el.querySelector("[data-loser-tiles-toggle]").addEventListener("click", () => {
        if (fromTiles.has(seat)) fromTiles.delete(seat);
        else { fromTiles.add(seat); useTiles(rowName(seat, "shown")); }
        render();
        changed();
      });
      el.querySelectorAll("[data-row]").forEach((row) => row.addEventListener("click", (ev) => {
        if (ev.target === row || ev.target.tagName === "H3") useTiles(row.dataset.row);
      }));
    });

    // A typed count: a whole number from 0, or nothing (the loser counts 0).
    function typed(el) {
      const text = input(el).value.trim();
      return text === "" ? null : text;
    }
    const losers = () => seats.filter((el) => seatOf(el) !== winner);

    return {
      setWinner(seat) { winner = seat; render(); },
      setMode(tilesMode) { byTiles = tilesMode; render(); },
      // The rows record.js keeps tiles in (two for each loser: shown sets, the hand).
      rows() { return seats.flatMap((el) => [rowName(seatOf(el), "shown"), rowName(seatOf(el), "hand")]); },
      // For the scorer's request (by tiles): other_counts and other_hands by seat wind.
      forHand(tiles) {
        const counts = {}, hands = {};
        losers().forEach((el) => {
          const seat = seatOf(el), wind = winds[seat];
          if (fromTiles.has(seat)) {
            hands[wind] = handOf(tiles(rowName(seat, "shown")), tiles(rowName(seat, "hand")));
          } else if (typed(el) !== null) {
            const n = Number(typed(el));
            counts[wind] = Number.isInteger(n) ? n : typed(el);     // the scorer says why another is refused
          }
        });
        return Object.assign(Object.keys(counts).length ? { other_counts: counts } : {},
                             Object.keys(hands).length ? { other_hands: hands } : {});
      },
      // For a win by points: the typed counts by seat number.
      bySeat() {
        const counts = {};
        losers().forEach((el) => { if (typed(el) !== null) counts[seatOf(el)] = typed(el); });
        return counts;
      },
      // What the scorer counted from tiles, shown beside those losers.
      showCounted(byWind, words) {
        losers().forEach((el) => {
          const seat = seatOf(el), out = el.querySelector("[data-loser-counted]");
          const value = byWind ? byWind[winds[seat]] : undefined;
          out.hidden = !(fromTiles.has(seat) && byTiles && value !== undefined);
          if (!out.hidden) out.textContent = words.replace("{count}", value);
        });
      },
      key() { return [winner, byTiles, Array.from(fromTiles).sort(), seats.map(typed)]; },
    };
  }

  // A loser's tiles as the scorer takes them: on the table, three alike are a pung and four a
  // kong (anything else there scores nothing: a chow); in the hand, four alike were shown as a
  // concealed kong, the rest stay concealed; flowers and seasons go aside wherever they were put.
  function handOf(shown, inHand) {
    const flowers = [...shown, ...inHand].filter((c) => c.endsWith("f"));
    const melds = [];
    groups(shown.filter((c) => !c.endsWith("f"))).forEach(([code, n]) => {
      if (n >= 4) melds.push({ kind: "minkan", tiles: code.repeat(4) });
      else if (n === 3) melds.push({ kind: "pon", tiles: code.repeat(3) });
    });
    let concealed = "";
    groups(inHand.filter((c) => !c.endsWith("f"))).forEach(([code, n]) => {
      if (n >= 4) melds.push({ kind: "ankan", tiles: code.repeat(4) });
      else concealed += code.repeat(n);
    });
    return Object.assign({ concealed, melds }, flowers.length ? { flowers: flowers.join("") } : {});
  }

  function groups(codes) {
    const seen = new Map();
    codes.forEach((c) => seen.set(c, (seen.get(c) || 0) + 1));
    return Array.from(seen);
  }

  window.TenbouLosers = { attach, handOf };
})();
