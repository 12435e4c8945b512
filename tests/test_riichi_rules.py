"""Rule presets and options: names, values, and clear errors for unknown or bad ones."""
from __future__ import annotations

import pytest

from scorer.errors import HandError
from scorer.riichi import PRESETS, rules_for
from scorer.riichi.rules import OPTION_NAMES, Rules


def test_every_preset_of_the_issue_exists_and_tenhou_is_the_default():
    assert set(PRESETS) >= {"tenhou", "mahjongsoul", "wrc", "ema", "mleague", "book"}
    assert rules_for(None, None, 4) == PRESETS["tenhou"]


def test_tenhou_preset_matches_tenhou_rules():
    rules = PRESETS["tenhou"]
    assert (rules.aka, rules.open_tanyao, rules.double_yakuman, rules.stacked_yakuman) == (True, True, False, True)
    assert (rules.kazoe, rules.kiriage, rules.double_wind_pair_fu) == ("yakuman", False, 4)
    assert (rules.renhou, rules.pinfu_tsumo_fu, rules.open_pinfu_fu, rules.tsumo_loss) == ("off", False, True, True)


def test_contract_option_names_are_all_accepted():
    for name in ("aka", "open_tanyao", "double_yakuman", "stacked_yakuman", "kazoe", "kiriage",
                 "double_wind_pair_fu", "renhou", "pinfu_tsumo_fu", "open_pinfu_fu", "three_player"):
        assert name in OPTION_NAMES and hasattr(Rules(), name)


def test_options_override_the_preset():
    rules = rules_for("wrc", {"aka": True, "kazoe": "yakuman", "double_wind_pair_fu": 4}, 4)
    assert (rules.aka, rules.kazoe, rules.double_wind_pair_fu, rules.renhou) == (True, "yakuman", 4, "mangan")
    assert PRESETS["wrc"].aka is False      # the preset itself is untouched


def test_three_players():
    assert rules_for("tenhou", {}, 3).three_player
    assert rules_for("tenhou", {"three_player": True}, 4).three_player
    with pytest.raises(HandError) as error:
        rules_for("tenhou", {"three_player": False}, 3)
    assert error.value.code == "bad_option"


@pytest.mark.parametrize("preset, options, code, words", [
    ("tenhoo", {}, "unknown_preset", "tenhoo"),
    ("tenhou", {"kuitan": True}, "unknown_option", "kuitan"),
    ("tenhou", {"kiriage": "yes"}, "bad_option", "kiriage"),
    ("tenhou", {"double_wind_pair_fu": 3}, "bad_option", "2 or 4"),
    ("tenhou", {"double_wind_pair_fu": True}, "bad_option", "double_wind_pair_fu"),
    ("tenhou", {"kazoe": "baiman"}, "bad_option", "sanbaiman"),
    ("tenhou", {"renhou": True}, "bad_option", "mangan"),
    ("tenhou", [1, 2], "bad_option", "options"),
])
def test_bad_rules_name_what_is_wrong(preset, options, code, words):
    with pytest.raises(HandError) as error:
        rules_for(preset, options, 4)
    assert error.value.code == code and words in error.value.message


def test_the_documented_preset_table_is_the_code():
    """docs/riichi-rules.md's preset table states every preset's values; it must not drift."""
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "docs/riichi-rules.md").read_text(encoding="utf-8")
    table = text.split("## Presets", 1)[1].split("\n\n", 2)[1]
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in table.splitlines()]
    header, body = rows[0], rows[2:]
    names = header[1:]
    assert names == list(PRESETS)
    words = {"on": True, "off": False}
    checked = 0
    for row in body:
        options = re.findall(r"`(\w+)`", row[0])
        for option in options:
            for preset, cell in zip(names, row[1:]):
                actual = getattr(PRESETS[preset], option)
                if isinstance(actual, str):
                    expected = cell
                else:
                    expected = words[cell] if cell in words else int(cell)
                assert actual == expected, (option, preset)
                checked += 1
    assert checked >= len(PRESETS) * (len(OPTION_NAMES) - 1)
