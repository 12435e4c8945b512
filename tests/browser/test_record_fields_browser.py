"""The record page's fields beyond the winner's tiles, driven as a player taps them on a phone
(390x844) and a desk screen (1920x1080): a three-player hand with two north tiles set aside,
scored as the scorer scores it, from a picker that offers only the tiles of a three-player set;
a classical Chinese hand whose losers' own counts are typed with the quick buttons or taken from
their tiles, paying what the text says under both settlement choices; han and fu that no hand
reaches refused in words. Screenshots in artifacts/browser/fields-*.png."""
from __future__ import annotations

from pathlib import Path

import pytest

from scorer import score

from tests.browser.steps import start_game
from tests.browser.test_web_browser import shown_scores, tap_tiles
from tests.browser.test_web_rulesets_browser import SCREENS


def _tag(screen: dict) -> str:
    return "phone" if screen["viewport"]["width"] < 500 else "desk"


def _shot(page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"fields-{name}.png"), full_page=True)


def _preview_lines(page) -> list[str]:
    return page.eval_on_selector_all("[data-test=preview] .pay-list li", "els => els.map(e => e.textContent)")


@pytest.mark.parametrize("screen", SCREENS)
def test_a_three_player_hand_with_two_north_tiles_set_aside(server, phone_or_desk, artifacts, screen):
    base, _ = server
    page, errors = phone_or_desk(screen)
    tag = _tag(screen)
    session_id = start_game(page, base, ["Aki", "Ben", "Chiyo"], {"rules": "riichi"})
    page.click("[data-test=record-hand]")
    # the picker holds the tiles a three-player set has: 1m and 9m of the characters, no red 5m
    offered = page.eval_on_selector_all("[data-pick]", "els => els.map(e => e.dataset.pick)")
    assert {"1m", "9m", "0p", "0s"} <= set(offered) and not {f"{n}m" for n in (0, *range(2, 9))} & set(offered)
    # Aki (East) self-draws white dragons, and has set two north tiles aside
    tap_tiles(page, "2p 3p 4p 4p 5p 6p 6s 7s 8s 2z 2z 5z 5z 5z")
    page.wait_for_selector("[data-test=preview] .pay-list li")
    before = page.inner_text("[data-test=preview] .preview-total")
    page.click("[data-test=nukidora2] + span")
    page.locator("[data-test=preview] .yaku-list", has_text="North dora").wait_for()
    _shot(page, artifacts, f"{tag}-north-01-preview")
    shown = page.inner_text("[data-test=preview] .preview-total")
    assert shown != before
    page.wait_for_selector("[data-test=confirm]:not([disabled])")
    page.click("[data-test=confirm]")
    page.wait_for_selector("text=Recorded.")
    event = page.request.get(f"{base}/api/sessions/{session_id}/events").json()[-1]["event"]
    request, result = event["request"], event["result"]
    assert request["nukidora"] == 2 and request["players"] == 3
    assert result == score(request)                                     # recorded as the scorer scores it
    assert {"id": "nukidora", "han": 2} in result["yaku"]
    assert f"{result['points']} points" in shown and f"{result['han']} han" in shown
    scores = shown_scores(page, "[data-seat] [data-field=score]")
    assert scores[0] - 35000 == result["points"] and len(scores) == 3
    _shot(page, artifacts, f"{tag}-north-02-recorded")
    assert errors == []


# Ben (South) self-draws 136 (all chows, fully concealed); Aki (East) counts 8 on the quick
# buttons; Chiyo (West) counts from her tiles: an exposed pung of red dragons (4), a concealed
# pung of 5 dots (4) and a pair of the prevailing wind (2) = 10; Dan leaves his empty (0).
WINNER = "1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 4s 8s 8s 3s"
COUNTS = {"E": 8, "W": 10, "N": 0}


def _who_pays(settlement: str, score: int) -> dict[tuple[str, str], int]:
    """The text: "The other players also calculate their scores, though they never get any
    doubles, and pay the difference to the one who went out. The current East player always
    pays and receives twice the appropriate amount." The common variant ("full"): every loser
    pays the whole score, and the losers settle the differences of their counts between them."""
    times = {w: 2 if w == "E" else 1 for w in "ESWN"}
    owed = {}
    for loser, count in COUNTS.items():
        due = score - count if settlement == "difference" else score
        if due > 0:
            owed[(loser, "S")] = due * times[loser]
    if settlement == "full":
        losers = list(COUNTS)
        for i, a in enumerate(losers):
            for b in losers[i + 1:]:
                low, high = sorted((a, b), key=COUNTS.get)
                if COUNTS[a] != COUNTS[b]:
                    owed[(low, high)] = (COUNTS[high] - COUNTS[low]) * max(times[a], times[b])
    return owed


@pytest.mark.parametrize("settlement", ["difference", "full"])
@pytest.mark.parametrize("screen", SCREENS)
def test_a_chinese_hand_whose_losers_pay_less_their_own_counts(server, phone_or_desk, artifacts, screen, settlement):
    base, _ = server
    page, errors = phone_or_desk(screen)
    tag = f"{_tag(screen)}-{settlement}"
    names = {"E": "Aki", "S": "Ben", "W": "Chiyo", "N": "Dan"}
    session_id = start_game(page, base, list(names.values()), {"rules": "chinese-classical", "settlement": settlement})
    page.click("[data-test=record-hand]")
    offered = page.eval_on_selector_all("[data-pick]", "els => els.map(e => e.dataset.pick)")
    assert not {"0m", "0p", "0s"} & set(offered) and "1f" in offered        # no red fives; flowers
    page.click("[data-test=winner1] + span")
    tap_tiles(page, WINNER)
    assert not page.locator("[data-test=loser1]").is_visible()            # the winner counts no loser's count
    page.click("[data-test=loser0-add4]")
    page.click("[data-test=loser0-add4]")
    assert page.input_value("[data-test=loser-count0]") == "8"
    page.click("[data-test=loser2-tiles]")                                # Chiyo: from her tiles
    tap_tiles(page, "7z 7z 7z")                                           # the picker now fills her sets shown
    page.click("[data-test=row-loser2-hand] .tile-slot")
    tap_tiles(page, "5p 5p 5p 1z 1z 9s")
    page.locator("[data-test=loser-counted2]", has_text="counted 10").wait_for()
    request = {"rules": "chinese-classical", "concealed": "".join(WINNER.split()), "win_tile": "3s",
               "seat_wind": "S", "round_wind": "E", "tsumo": True, "options": {"limit": 1000, "settlement": settlement}}
    value = score(request)["points"]
    owed = _who_pays(settlement, value)
    expected = sorted(f"{names[a]} pays {names[b]} {p}" for (a, b), p in owed.items())
    page.wait_for_selector("[data-test=confirm]:not([disabled])")
    assert sorted(_preview_lines(page)) == expected
    assert "Own counts: Aki 8 · Chiyo 10" in page.inner_text("[data-test=preview]")
    _shot(page, artifacts, f"{tag}-chinese-01-preview")
    page.click("[data-test=confirm]")
    page.wait_for_selector("text=Recorded.")
    change = {w: 0 for w in "ESWN"}
    for (payer, payee), points in owed.items():
        change[payer] -= points
        change[payee] += points
    assert shown_scores(page, "[data-seat] [data-field=score]") == [change[w] for w in "ESWN"]
    page.goto(f"{base}/s/{session_id}/settle")
    log = page.inner_text(".log")
    assert f"Ben tsumo · {value} points · own counts: Aki 8, Chiyo 10" in log
    _shot(page, artifacts, f"{tag}-chinese-02-settle")
    assert errors == []


@pytest.mark.parametrize("screen", SCREENS)
def test_han_and_fu_no_hand_reaches_are_refused_in_words(server, phone_or_desk, artifacts, screen):
    base, _ = server
    page, errors = phone_or_desk(screen)
    start_game(page, base, ["Aki", "Ben", "Chiyo", "Dan"], {"rules": "riichi"})
    page.click("[data-test=record-hand]")
    page.click("[data-test=winner1] + span")
    page.click("[data-test=ron] + span")
    page.click("[data-test=discarder2] + span")
    page.click("[data-test=mode-hanfu]")
    page.fill("[data-test=han]", "1")
    page.select_option("[data-test=fu]", "20")
    page.locator("[data-test=preview] .preview-error", has_text="a ron is at least 30 fu").wait_for()
    assert page.locator("[data-test=confirm]").is_disabled()
    _shot(page, artifacts, f"{_tag(screen)}-hanfu-refused")
    page.fill("[data-test=han]", "99")
    page.select_option("[data-test=fu]", "30")
    page.locator("[data-test=preview] .preview-error", has_text="paid as a counted yakuman").wait_for()
    page.fill("[data-test=han]", "2")
    page.wait_for_selector("[data-test=confirm]:not([disabled])")
    assert "2000 points" in page.inner_text("[data-test=preview]")
    assert errors == []
