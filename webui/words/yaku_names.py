"""Yaku ids of the hand contract in players' words: id -> (English, Japanese)."""

YAKU_NAMES: dict[str, tuple[str, str]] = {
    "riichi": ("Riichi", "立直"), "double_riichi": ("Double riichi", "ダブル立直"), "ippatsu": ("Ippatsu", "一発"),
    "menzen_tsumo": ("Concealed tsumo", "門前清自摸和"), "pinfu": ("Pinfu", "平和"), "iipeikou": ("Iipeikou", "一盃口"),
    "tanyao": ("All simples", "断么九"), "haitei": ("Last tile draw", "海底摸月"), "houtei": ("Last discard", "河底撈魚"),
    "rinshan": ("After a kan", "嶺上開花"), "chankan": ("Robbing a kan", "槍槓"),
    "yakuhai_haku": ("White dragon", "役牌 白"), "yakuhai_hatsu": ("Green dragon", "役牌 發"),
    "yakuhai_chun": ("Red dragon", "役牌 中"), "seat_wind": ("Seat wind", "自風牌"), "round_wind": ("Round wind", "場風牌"),
    "sanshoku": ("Three colour straight", "三色同順"), "sanshoku_doukou": ("Three colour triplets", "三色同刻"),
    "ittsu": ("Pure straight", "一気通貫"), "chanta": ("Outside hand", "混全帯么九"), "junchan": ("Pure outside hand", "純全帯么九"),
    "honroutou": ("All terminals and honours", "混老頭"), "toitoi": ("All triplets", "対々和"),
    "sanankou": ("Three concealed triplets", "三暗刻"), "sankantsu": ("Three kans", "三槓子"),
    "chiitoitsu": ("Seven pairs", "七対子"), "shousangen": ("Little three dragons", "小三元"),
    "honitsu": ("Half flush", "混一色"), "chinitsu": ("Full flush", "清一色"), "ryanpeikou": ("Twice pure double", "二盃口"),
    "nagashi_mangan": ("Nagashi mangan", "流し満貫"), "renhou": ("Blessing of man", "人和"),
    "dora": ("Dora", "ドラ"), "aka_dora": ("Red fives", "赤ドラ"), "ura_dora": ("Ura dora", "裏ドラ"),
    "nukidora": ("North dora", "抜きドラ"),
    "kokushi": ("Thirteen orphans", "国士無双"), "kokushi_13": ("Thirteen orphans, 13-wait", "国士無双十三面待ち"),
    "suuankou": ("Four concealed triplets", "四暗刻"), "suuankou_tanki": ("Four concealed triplets, pair wait", "四暗刻単騎"),
    "daisangen": ("Big three dragons", "大三元"), "shousuushii": ("Little four winds", "小四喜"),
    "daisuushii": ("Big four winds", "大四喜"), "tsuuiisou": ("All honours", "字一色"), "ryuuiisou": ("All green", "緑一色"),
    "chinroutou": ("All terminals", "清老頭"), "chuuren": ("Nine gates", "九蓮宝燈"),
    "junsei_chuuren": ("True nine gates", "純正九蓮宝燈"), "suukantsu": ("Four kans", "四槓子"),
    "tenhou": ("Blessing of heaven", "天和"), "chiihou": ("Blessing of earth", "地和"),
    "renhou_yakuman": ("Blessing of man (yakuman)", "人和（役満）"),
}
LIMIT_NAMES: dict[str, tuple[str, str]] = {
    "mangan": ("Mangan", "満貫"), "haneman": ("Haneman", "跳満"), "baiman": ("Baiman", "倍満"),
    "sanbaiman": ("Sanbaiman", "三倍満"), "yakuman": ("Yakuman", "役満"), "kazoe_yakuman": ("Counted yakuman", "数え役満"),
    "double_yakuman": ("Double yakuman", "ダブル役満"), "triple_yakuman": ("Triple yakuman", "トリプル役満"),
    "kiriage_mangan": ("Mangan (rounded up)", "切り上げ満貫"),
}


def names_for(language: str) -> dict:
    index = 1 if language == "ja" else 0
    return {"yaku": {k: v[index] for k, v in YAKU_NAMES.items()},
            "limit": {k: v[index] for k, v in LIMIT_NAMES.items()}}
