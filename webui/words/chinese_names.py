"""Classical Chinese scoring items of the hand contract (`chinese.items`, `doubles_items`,
`limit_hand`) in players' words: reason id -> (English, Japanese). The words follow the
text's table (rule text 003); the record page lists them as riichi lists its yaku."""

ITEM_NAMES: dict[str, tuple[str, str]] = {
    # points
    "exposed_pung": ("Exposed pung", "明刻"), "concealed_pung": ("Concealed pung", "暗刻"),
    "exposed_kong": ("Exposed kong", "明槓"), "concealed_kong": ("Concealed kong", "暗槓"),
    "pair_dragon": ("Pair of dragons", "三元牌の対子"), "pair_own_wind": ("Pair of own wind", "自風の対子"),
    "pair_prevailing_wind": ("Pair of prevailing wind", "場風の対子"),
    "flower": ("Flower", "花"), "season": ("Season", "季節"),
    "winning": ("Going out", "和了"), "self_drawn": ("Self-drawn", "自摸"),
    "only_tile": ("Only possible tile", "唯一の和了牌"),
    "no_scoring_combinations": ("No scoring combinations", "無得点の組"),
    # doubles
    "pung_dragon": ("Pung of dragons", "三元牌の刻子"), "pung_own_wind": ("Pung of own wind", "自風の刻子"),
    "pung_prevailing_wind": ("Pung of prevailing wind", "場風の刻子"),
    "fully_concealed": ("Fully concealed", "門前清自摸"),
    "all_but_last_concealed": ("All but last tile concealed", "最後の一枚以外門前"),
    "no_chows": ("No chows", "順子なし"), "one_suit": ("One suit", "清一色"),
    "only_honors": ("Only honours", "字一色"), "only_terminals": ("Only terminals", "清老頭"),
    "one_suit_and_honors": ("One suit and honours", "混一色"), "only_major": ("Only major tiles", "混老頭"),
    "only_minor": ("Only minor tiles", "断么九"),
    "all_four_flowers": ("All four flowers", "花四枚"), "all_four_seasons": ("All four seasons", "季節四枚"),
    "own_flower": ("Own flower", "自分の花"), "own_season": ("Own season", "自分の季節"),
    "prevailing_flower": ("Prevailing flower", "場の花"), "prevailing_season": ("Prevailing season", "場の季節"),
    "loose_tile": ("Out on a loose tile", "嶺上開花"), "last_tile": ("Out on the last tile", "海底"),
    "robbing_kong": ("Robbing a kong", "搶槓"),
    # limit hands (the text's groups)
    "four_identical_chows": ("Four identical chows", "四つの同じ順子"),
    "one_one_to_nine_nine": ("1-1 to 9-9 of one suit", "一色の一一から九九"),
    "one_to_nine": ("1 to 9 of one suit", "一色の一から九"), "two_to_eight": ("2 to 8 of one suit", "一色の二から八"),
    "three_chows_same_sequence": ("Three chows of one sequence", "三色同順"),
    "three_chows_one_to_nine": ("Three chows 1 to 9", "三つの順子で一から九"),
    "pair_of_each_wind": ("A pair of each wind", "各風牌の対子"),
    "each_wind_and_dragon": ("Each wind and dragon", "各風牌と三元牌"),
    "each_terminal": ("Each terminal", "各么九牌"), "each_wind": ("Each wind", "各風牌"),
    "each_dragon": ("Each dragon", "各三元牌"), "pung_of_major_tiles": ("Pung of major tiles", "么九牌の刻子"),
    "pair_of_major_tiles": ("Pair of major tiles", "么九牌の対子"),
    "seven_pairs": ("Seven pairs", "七対子"), "seven_major_pairs": ("Seven major pairs", "么九牌の七対子"),
    "seven_minor_pairs": ("Seven minor pairs", "中張牌の七対子"),
}


def chinese_names_for(language: str) -> dict[str, str]:
    index = 1 if language == "ja" else 0
    return {reason: words[index] for reason, words in ITEM_NAMES.items()}
