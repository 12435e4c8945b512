"""The yaku a riichi win entered by han and fu names: the record page's picker, grouped as the
rule book lists them (riichi and the way the hand was won first, then by han, then yakuman),
each with its han on a closed and on an open hand; and the named yaku checked and stored.

A win entered by tiles keeps the scorer's answer (`result`, with `yaku: [{id, han}]`) in its
event; a win entered by han and fu that names its yaku keeps the same shape, so the club's
records, best hands and statistics read every hand's yaku one way. The ledger pays such a
`result` by its han, fu and yakuman, as it pays the numbers typed.
"""
from __future__ import annotations

from dataclasses import dataclass

from scorer.riichi.yaku import TILE_YAKU, TILE_YAKUMAN, WIN_YAKU, WIN_YAKUMAN

from webui.guard.errors import PlayerError
from webui.guard.forms import integer

# The rule book lists riichi first, then what goes with it.
RIICHI_FIRST = ("riichi", "double_riichi", "ippatsu")
# Dora are counted, not picked: each is 1 han a tile, closed or open.
DORA = ("dora", "aka_dora", "ura_dora")
MOST_DORA = 35          # every dora indicator and red five of a hand with four kans, and more
# The refusals of named yaku, which the record page's preview shows as it shows a hand that cannot be.
REFUSALS = ("unknown_yaku", "closed_only_yaku", "yaku_mismatch")


@dataclass(frozen=True)
class Pick:
    id: str
    han_closed: int         # 0: not on a closed hand (none such) ...
    han_open: int           # 0: a closed hand's only
    yakuman: int = 0        # yakuman it is worth (han not counted then)


def groups() -> list[tuple[str, list[Pick]]]:
    """(group key, its yaku) in the rule book's order: riichi first."""
    won = sorted((Pick(y.id, y.han_closed, y.han_open) for y in WIN_YAKU if y.id != "renhou"),
                 key=lambda p: RIICHI_FIRST.index(p.id) if p.id in RIICHI_FIRST else len(RIICHI_FIRST))
    by_han: dict[int, list[Pick]] = {}
    for y in TILE_YAKU:
        by_han.setdefault(y.han_closed, []).append(Pick(y.id, y.han_closed, y.han_open))
    found = [("won", won)] + [(f"han{han}", picks) for han, picks in sorted(by_han.items())]
    yakuman = [Pick(y.id, 13, 13, y.count) for y in (*WIN_YAKUMAN, *TILE_YAKUMAN) if y.id != "renhou_yakuman"]
    return found + [("yakuman", yakuman)]


_BY_ID = {pick.id: pick for _, picks in groups() for pick in picks}


def _ids(value) -> list[str]:
    """The picked ids of a form (comma-separated) or a JSON body (a list)."""
    if value is None:
        return []
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PlayerError(400, "bad_field", "yaku: a list of yaku names, like [\"riichi\", \"tanyao\"]")
    if len(value) > len(_BY_ID):
        raise PlayerError(400, "bad_field", "yaku: each yaku once")
    return [v.strip() for v in value]


def named(data, numbers: dict) -> dict:
    """The fields a riichi win by han and fu adds when the players name its yaku (`yaku`, the
    dora counts `dora`, `aka_dora`, `ura_dora`, and `open`: the hand had calls): `result` in the
    scorer's shape (han, fu, yakuman and `yaku: [{id, han}]`, dora among them) and `open`; {}
    when no yaku is named. The yaku must add up to the han given (or the yakuman to the yakuman), so the records never
    say a hand was worth what its yaku were not."""
    ids = _ids(data.get("yaku"))
    dora = {d: integer(data.get(d) or 0, d, 0, MOST_DORA) for d in DORA}
    if not ids:
        return {}
    called = str(data.get("open", "")).lower() in ("1", "true", "on", "open")
    listed = []
    for yaku_id in ids:
        pick = _BY_ID.get(yaku_id)
        if pick is None:
            raise PlayerError(400, "bad_field", f"yaku: no yaku is called {yaku_id[:40]}", code="unknown_yaku")
        if ids.count(yaku_id) > 1:
            raise PlayerError(400, "bad_field", f"yaku: {yaku_id} is named twice")
        han = pick.han_open if called else pick.han_closed
        if not han and not pick.yakuman:
            raise PlayerError(400, "bad_field", f"yaku: {yaku_id} needs a closed hand (no calls)",
                              code="closed_only_yaku")
        listed.append({"id": yaku_id, "han": 13 * pick.yakuman if pick.yakuman else han})
    yakuman = sum(_BY_ID[y["id"]].yakuman for y in listed)
    if yakuman:
        if yakuman != numbers.get("yakuman", 0):
            raise PlayerError(400, "bad_field", f"yaku: the yakuman named are worth {yakuman}, but "
                                                f"{numbers.get('yakuman', 0)} were given", code="yaku_mismatch")
        listed = [y for y in listed if _BY_ID[y["id"]].yakuman]     # other yaku are not paid beside a yakuman
    else:
        listed += [{"id": d, "han": count} for d, count in dora.items() if count]
        total = sum(y["han"] for y in listed)
        if numbers.get("yakuman"):
            raise PlayerError(400, "bad_field", "yaku: a yakuman was given; name it among the yaku",
                              code="yaku_mismatch")
        if total != numbers["han"]:
            raise PlayerError(400, "bad_field", f"yaku: the yaku and dora named add up to {total} han, not "
                                                f"{numbers['han']}: name them all, or none", code="yaku_mismatch")
        if all(y["id"] in DORA for y in listed):
            raise PlayerError(400, "bad_field", "yaku: dora alone are no yaku", code="yaku_mismatch")
    result = {"ok": True, "han": numbers.get("han", 0), "fu": numbers.get("fu", 0),
              "yakuman": numbers.get("yakuman", 0), "yaku": listed}
    return {"result": result, "open": called}
