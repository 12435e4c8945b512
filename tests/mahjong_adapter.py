"""A hand JSON request scored by the PyPI `mahjong` library, and both answers in one comparable shape.

Used by the differential test (`tests/test_vs_mahjong.py`) and the benchmark (`bench/scoring.py`).
`mahjong` is a test-only dependency; nothing in Tenbou's own packages imports it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.yaku_config import YakuConfig
from mahjong.meld import Meld as MahjongMeld

from scorer.tiles import Tile, parse_tiles

WINDS = "ESWN"
RED_FIVE_IDS = {4: 16, 13: 52, 22: 88}      # kind of 5m, 5p, 5s -> the red tile's 136-id

# `mahjong`'s yaku (by its attribute name in YakuConfig) -> the contract's yaku id.
MAHJONG_YAKU = {
    "tsumo": "menzen_tsumo", "riichi": "riichi", "ippatsu": "ippatsu", "chankan": "chankan",
    "rinshan": "rinshan", "haitei": "haitei", "houtei": "houtei", "daburu_riichi": "double_riichi",
    "nagashi_mangan": "nagashi_mangan", "renhou": "renhou", "pinfu": "pinfu", "tanyao": "tanyao",
    "iipeiko": "iipeikou", "haku": "yakuhai_haku", "hatsu": "yakuhai_hatsu", "chun": "yakuhai_chun",
    "seat_wind_east": "seat_wind", "seat_wind_south": "seat_wind", "seat_wind_west": "seat_wind",
    "seat_wind_north": "seat_wind", "round_wind_east": "round_wind", "round_wind_south": "round_wind",
    "round_wind_west": "round_wind", "round_wind_north": "round_wind", "sanshoku": "sanshoku",
    "ittsu": "ittsu", "chantai": "chanta", "honroto": "honroutou", "toitoi": "toitoi",
    "sanankou": "sanankou", "sankantsu": "sankantsu", "sanshoku_douko": "sanshoku_doukou",
    "chiitoitsu": "chiitoitsu", "shosangen": "shousangen", "honitsu": "honitsu", "junchan": "junchan",
    "ryanpeiko": "ryanpeikou", "chinitsu": "chinitsu", "kokushi": "kokushi",
    "chuuren_poutou": "chuuren", "suuankou": "suuankou", "daisangen": "daisangen",
    "shosuushi": "shousuushii", "ryuisou": "ryuuiisou", "suukantsu": "suukantsu", "tsuisou": "tsuuiisou",
    "chinroto": "chinroutou", "daisuushi": "daisuushii", "daburu_kokushi": "kokushi_13",
    "suuankou_tanki": "suuankou_tanki", "daburu_chuuren_poutou": "junsei_chuuren", "tenhou": "tenhou",
    "chiihou": "chiihou", "renhou_yakuman": "renhou_yakuman", "dora": "dora", "aka_dora": "aka_dora",
    "ura_dora": "ura_dora",
}
_CONFIG = YakuConfig()
YAKU_BY_NUMBER = {getattr(_CONFIG, name).yaku_id: contract for name, contract in MAHJONG_YAKU.items()}


@dataclass(frozen=True)
class Compared:
    """What both scorers must agree on. `fu` is None on yakuman hands (it pays nothing there)."""
    error: str | None = None
    han: int = 0
    fu: int | None = None
    points: int = 0
    yaku: dict[str, int] = field(default_factory=dict)
    winner_takes: int = 0


def tenbou_result(response: dict, request: dict) -> Compared:
    if not response["ok"]:
        return Compared(error=response["error"]["code"])
    winner = request.get("seat_wind", "E")
    takes = sum(t["points"] for t in response["transfers"] if t["to"] == winner) \
        - sum(t["points"] for t in response["transfers"] if t["from"] == winner)
    yaku = {y["id"]: y["han"] for y in response["yaku"]}
    if "nukidora" in yaku:
        # `mahjong` counts the north tiles set aside inside its dora; the contract lists them apart.
        yaku["dora"] = yaku.get("dora", 0) + yaku.pop("nukidora")
    return Compared(han=response["han"], fu=None if response["yakuman"] else response["fu"],
                    points=response["points"], yaku=yaku, winner_takes=takes)


@dataclass(frozen=True)
class MahjongHand:
    """A request in `mahjong`'s terms: 136-ids for every tile, melds, config."""
    tiles: list[int]
    win_tile: int
    melds: list[MahjongMeld]
    dora_indicators: list[int]
    ura_indicators: list[int]
    config_args: dict


def mahjong_hand(request: dict) -> MahjongHand:
    ids = _TileIds()
    concealed = [ids.take(t) for t in parse_tiles(request["concealed"])]
    win = next(i for i, t in zip(concealed, parse_tiles(request["concealed"]))
               if t == parse_tiles(request["win_tile"])[0])
    melds, meld_ids = [], []
    for meld in request.get("melds") or []:
        tiles = [ids.take(t) for t in parse_tiles(meld["tiles"])]
        meld_ids += tiles
        melds.append(MahjongMeld(meld_type=_MELD_TYPES[meld["kind"]], tiles=tiles, opened=meld["kind"] != "ankan"))
    dora = [ids.take(t) for t in parse_tiles(request.get("dora_indicators", ""))]
    ura = [ids.take(t) for t in parse_tiles(request.get("ura_indicators", ""))]
    return MahjongHand(concealed + meld_ids, win, melds, dora, ura, _config_args(request))


def mahjong_result(request: dict) -> Compared:
    hand = mahjong_hand(request)
    return compare_form(request, score_with_mahjong(hand))


def score_with_mahjong(hand: MahjongHand):
    config = _config(hand.config_args)     # fresh: `mahjong` writes dora counts into its config
    return HandCalculator.estimate_hand_value(hand.tiles, hand.win_tile, melds=hand.melds,
                                              dora_indicators=hand.dora_indicators, config=config,
                                              ura_dora_indicators=hand.ura_indicators)


def compare_form(request: dict, result) -> Compared:
    if result.error:
        return Compared(error=result.error)
    yaku: dict[str, int] = {}
    for item in result.yaku:
        han = item.han_open if result.is_open_hand and item.han_open else item.han_closed
        name = YAKU_BY_NUMBER[item.yaku_id]
        yaku[name] = yaku.get(name, 0) + han
    cost = result.cost
    payers_besides_main = request.get("players", 4) - 2
    points = cost["main"] + (payers_besides_main * cost["additional"] if request.get("tsumo") else 0)
    is_yakuman = any(item.is_yakuman for item in result.yaku)
    return Compared(han=result.han, fu=None if is_yakuman else result.fu, points=points, yaku=yaku,
                    winner_takes=cost["total"])


_MELD_TYPES = {"chi": MahjongMeld.CHI, "pon": MahjongMeld.PON, "minkan": MahjongMeld.KAN,
               "ankan": MahjongMeld.KAN, "kakan": MahjongMeld.SHOUMINKAN}


class _TileIds:
    """Hands out distinct 136-ids: the red five gets its own id, the plain fives the other three."""

    def __init__(self) -> None:
        self.used: dict[int, int] = {}

    def take(self, tile: Tile) -> int:
        if tile.red:
            return RED_FIVE_IDS[tile.kind]
        first = 1 if tile.kind in RED_FIVE_IDS else 0
        n = self.used.get(tile.kind, first)
        self.used[tile.kind] = n + 1
        if n == 4:      # a fourth plain five: only where red fives are not in play
            return RED_FIVE_IDS[tile.kind]
        return tile.kind * 4 + n


def _config_args(request: dict) -> dict:
    options = request.get("options", {})
    double = request.get("double_riichi", False)
    return {
        "is_tsumo": request.get("tsumo", False),
        "is_riichi": request.get("riichi", False) and not double,
        "is_daburu_riichi": double,
        "is_ippatsu": request.get("ippatsu", False),
        "is_rinshan": request.get("rinshan", False),
        "is_chankan": request.get("chankan", False),
        "is_haitei": request.get("haitei", False),
        "is_houtei": request.get("houtei", False),
        "is_tenhou": request.get("tenhou", False),
        "is_chiihou": request.get("chiihou", False),
        "is_renhou": request.get("renhou", False),
        "player_wind": EAST + WINDS.index(request.get("seat_wind", "E")),
        "round_wind": EAST + WINDS.index(request.get("round_wind", "E")),
        "tsumi_number": request.get("honba", 0),
        "kyoutaku_number": request.get("riichi_sticks", 0),
        "num_nuki_dora": request.get("nukidora", 0),
        "options": {
            "has_open_tanyao": options.get("open_tanyao", True),
            "has_aka_dora": options.get("aka", True),
            "has_double_yakuman": options.get("double_yakuman", False),
            "kazoe_limit": HandConstants.KAZOE_SANBAIMAN if options.get("kazoe") == "sanbaiman"
            else HandConstants.KAZOE_LIMITED,
            "kiriage": options.get("kiriage", False),
            "fu_for_open_pinfu": options.get("open_pinfu_fu", True),
            "fu_for_pinfu_tsumo": options.get("pinfu_tsumo_fu", False),
            "renhou_as_yakuman": options.get("renhou") == "yakuman",
            "is_three_player": request.get("players", 4) == 3,
        },
    }


def _config(args: dict) -> HandConfig:
    return HandConfig(**{**args, "options": OptionalRules(**args["options"])})
