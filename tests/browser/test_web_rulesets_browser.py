"""Every rule set from the new-session form to the printed settlement, on a phone (390x844) and
a desk screen (1920x1080): classical Chinese, Fundamentals and three-player riichi (the book
preset, with its late pon). Each page is saved as a screenshot in artifacts/browser/."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.test_web_browser import PHONE, _read_photo, _scan_answer, READING, hand_codes, tap_tiles
from tests.browser.steps import arrived, enter_ron_by_han_and_fu

DESK = {"viewport": {"width": 1920, "height": 1080}}
SCREENS = [pytest.param(PHONE, id="phone"), pytest.param(DESK, id="desk")]


def _shot(page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"rules-{name}.png"), full_page=True)


def _visible(page, selector: str) -> bool:
    return page.locator(selector).first.is_visible()


def _start(page, base: str, artifacts: Path, tag: str, rules: str, names: list[str], preset: str | None = None) -> str:
    """A session from the new-session form, as a player fills it; returns its id."""
    page.goto(base + "/new")
    page.select_option("[data-test=rules]", rules)
    if preset:
        page.select_option("[data-test=preset]", preset)
    for i, name in enumerate(names):
        page.fill(f"[data-test=player{i}]", name)
    page.fill("input[name=rate]", "1")
    _shot(page, artifacts, f"{tag}-01-new")
    page.click("[data-test=create]")
    page.wait_for_selector("[data-test=join-code]")
    page.click("[data-test=to-scoreboard]")
    page.wait_for_selector("[data-test=scoreboard]")
    return re.search(r"/s/([^/]+)$", page.url).group(1)


def _end_game(page, artifacts: Path, tag: str, width: int) -> None:
    """End the game now: the scoreboard then offers the settlement in plain sight, not hands."""
    page.click("summary:has-text('End the game now')")
    page.click("[data-test=end-game]")              # the confirm dialog is accepted
    arrived(page, "[data-test=to-settle]")
    _shot(page, artifacts, f"{tag}-04-ended")
    assert not _visible(page, "[data-test=record-hand]") and not _visible(page, "summary:has-text('Exhaustive draw')")
    for link in ("[data-test=to-settle]", ".session-nav a:has-text('Settle')"):
        box = page.locator(link).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (link, box)
    page.click("[data-test=to-settle]")
    page.wait_for_selector("[data-test=settlement]")


def _settlement(page, artifacts: Path, tag: str, width: int) -> dict:
    """The settlement's columns, its log's lines and its chart's y labels; saved as shown and printed."""
    _shot(page, artifacts, f"{tag}-05-settle")
    heads = page.eval_on_selector_all(".standings th", "els => els.map(e => e.textContent.trim())")
    # the Result and Money columns fit the screen: nothing to scroll sideways to
    for column in ("Result", "Money"):
        index = next(i for i, h in enumerate(heads) if h.startswith(column))
        box = page.locator(f".standings th >> nth={index}").bounding_box()
        assert box["x"] + box["width"] <= width, (column, box)
    log = page.eval_on_selector_all(".log tbody td:nth-child(3)", "els => els.map(e => e.textContent.trim())")
    ticks = page.eval_on_selector_all("[data-test=chart] text.tick", "els => els.map(e => e.textContent)")
    page.emulate_media(media="print")
    _shot(page, artifacts, f"{tag}-06-settle-print")
    printed = page.pdf(path=str(artifacts / f"rules-{tag}-07-settle.pdf"), format="A4", print_background=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", printed)) == 1          # one A4 page
    page.emulate_media(media="screen")
    return {"heads": heads, "log": log, "ticks": ticks}


def _tv_shows_every_seat(browser, base: str, session_id: str, screen: dict, artifacts: Path, tag: str, seats: int):
    tv = browser.new_context(**screen).new_page()
    tv.goto(f"{base}/s/{session_id}/tv")
    tv.wait_for_selector("[data-field=link].online")
    _shot(tv, artifacts, f"{tag}-08-tv")
    size = screen["viewport"]
    boxes = [tv.locator(".seat").nth(i).bounding_box() for i in range(seats)]
    assert all(b["x"] >= 0 and b["x"] + b["width"] <= size["width"] for b in boxes), boxes
    scores = tv.locator("[data-field=score]")
    assert all(scores.nth(i).evaluate("e => e.scrollWidth <= e.clientWidth + 1") for i in range(seats))
    tv.context.close()


@pytest.mark.parametrize("screen", SCREENS)
def test_classical_chinese_from_the_form_to_the_settlement(browser, server, artifacts, phone_or_desk, screen):
    base, _ = server
    page, errors = phone_or_desk(screen)
    width = screen["viewport"]["width"]
    tag = f"chinese-{'phone' if width < 500 else 'desk'}"

    page.goto(base + "/new")
    page.select_option("[data-test=rules]", "chinese-classical")
    # the rule set's own fields: its limit and settlement, no preset, points, return points or uma
    assert _visible(page, "[data-test=limit]") and _visible(page, "[data-test=chinese-note]")
    for riichi_only in ("[data-test=preset]", "[data-test=starting-points]", "[data-test=return-points]", "[data-test=uma]"):
        assert not _visible(page, riichi_only), riichi_only
    session_id = _start(page, base, artifacts, tag, "chinese-classical", ["Aki", "Ben", "Chiyo", "Dan"])
    _shot(page, artifacts, f"{tag}-02-scoreboard")
    assert page.locator("[data-test^=riichi]").count() == 0
    assert not page.locator("[data-field=honba], [data-field=sticks]").count()

    # Ben wins on Aki's discard: the preview lists the points and the doubles line by line
    page.click("[data-test=record-hand]")
    page.click("[data-test=winner1]")
    page.click("[data-test=ron]")
    page.click("[data-test=discarder0]")
    tap_tiles(page, "1m 2m 3m 4m 5m 6m 7p 8p 9p 5s 5s 7z 7z 5s")
    page.wait_for_selector("[data-test=confirm]:not([disabled])")
    preview = page.inner_text("[data-test=preview]")
    _shot(page, artifacts, f"{tag}-03-preview")
    for line in ("Exposed pung", "Pair of dragons", "Going out", "All but last tile concealed", "×2", "48 points"):
        assert line in preview, (line, preview)
    page.click("[data-test=confirm]")
    page.wait_for_selector("[data-test=scoreboard]")

    page.click("summary:has-text('Exhaustive draw')")
    assert "Nobody pays" in page.inner_text("[data-test=scoreboard] ~ section.actions")
    page.click("[data-test=draw]")
    page.wait_for_selector("text=Recorded.")
    _end_game(page, artifacts, tag, width)
    sheet = _settlement(page, artifacts, tag, width)
    assert not any(h in ("Uma", "Oka") for h in sheet["heads"]), sheet["heads"]
    assert sheet["log"][:2] == ["Ben ron off Aki · 48 points", "Draw"], sheet["log"]
    values = [int(t.replace(",", "")) for t in sheet["ticks"] if re.fullmatch(r"-?[\d,]+", t)]
    assert values and max(abs(v) for v in values) < 1000, values        # points in hundreds, not riichi's thousands
    _tv_shows_every_seat(browser, base, session_id, screen, artifacts, tag, 4)
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("screen", SCREENS)
def test_fundamentals_from_the_form_to_the_settlement(browser, server, artifacts, phone_or_desk, screen):
    base, _ = server
    page, errors = phone_or_desk(screen)
    width = screen["viewport"]["width"]
    tag = f"fundamentals-{'phone' if width < 500 else 'desk'}"

    page.goto(base + "/new")
    page.select_option("[data-test=rules]", "fundamentals")
    assert _visible(page, "[data-test=fundamentals-note]")
    for riichi_only in ("[data-test=preset]", "[data-test=starting-points]", "[data-test=uma]", "[data-test=limit]"):
        assert not _visible(page, riichi_only), riichi_only
    session_id = _start(page, base, artifacts, tag, "fundamentals", ["Aki", "Ben", "Chiyo", "Dan"])
    assert page.locator("[data-test^=riichi]").count() == 0
    assert page.inner_text("[data-test=pool]").split()[-1] == "0"

    # a draw: the three not ready put 1 point each into the pool, shown as the pool
    page.click("summary:has-text('Exhaustive draw')")
    page.check("[data-test=tenpai0]")
    page.click("[data-test=draw]")
    page.wait_for_selector("[data-field=pool]:has-text('3')")
    _shot(page, artifacts, f"{tag}-02-scoreboard-pool")

    # Aki, still dealing, wins by tsumo and takes the pool; the record page asks no riichi questions
    page.click("[data-test=record-hand]")
    assert not page.locator("[data-flag=riichi], [data-test=row-dora]").count()
    assert page.eval_on_selector_all("[data-meld-kind] option", "els => els.map(e => e.value)") == ["pon"]
    tap_tiles(page, "1m 2m 3m 4m 5m 6m 7p 8p 9p 5s 5s 7z 7z 5s")
    page.wait_for_selector("[data-test=confirm]:not([disabled])")
    _shot(page, artifacts, f"{tag}-03-preview")
    page.click("[data-test=confirm]")
    page.wait_for_selector("[data-field=pool]:has-text('0')")

    _end_game(page, artifacts, tag, width)
    sheet = _settlement(page, artifacts, tag, width)
    assert not any(h in ("Uma", "Oka") for h in sheet["heads"]), sheet["heads"]
    assert sheet["log"][0] == "Draw · ready: Aki · 3 to the pool", sheet["log"]
    assert sheet["log"][1].startswith("Aki tsumo · takes the pool: 3"), sheet["log"]
    # the chart's scale fits scores near 20, not 0 to 1,000
    values = [int(t.replace(",", "")) for t in sheet["ticks"] if re.fullmatch(r"-?[\d,]+", t)]
    assert values and max(values) - min(values) <= 30 and min(values) >= 0, values

    # the settlement in Japanese says what happened in Japanese
    page.click("[data-test=lang-toggle]")
    page.wait_for_selector("text=精算")
    _shot(page, artifacts, f"{tag}-09-settle-ja")
    log = page.eval_on_selector_all(".log tbody td:nth-child(3)", "els => els.map(e => e.textContent.trim())")
    assert log[0] == "流局 · 聴牌: Aki · 場に3点", log
    _tv_shows_every_seat(browser, base, session_id, screen, artifacts, tag, 4)
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("screen", SCREENS)
def test_three_players_with_seat_four_empty_and_a_late_pon(browser, server, artifacts, phone_or_desk, screen):
    base, _ = server
    page, errors = phone_or_desk(screen)
    width = screen["viewport"]["width"]
    tag = f"three-{'phone' if width < 500 else 'desk'}"

    page.goto(base + "/new")
    page.select_option("[data-test=preset]", "book")
    assert page.input_value("[data-test=starting-points]") == "30000"        # the book starts at 30000
    for i, name in enumerate(["Aki", "Ben", "Chiyo"]):
        page.fill(f"[data-test=player{i}]", name)
    # seat 4 left empty: the form follows with the three-player points and uma
    assert page.input_value("[data-test=uma]") == "15,0,-15"
    assert page.input_value("[data-test=starting-points]") == "35000"
    session_id = _start(page, base, artifacts, tag, "riichi", ["Aki", "Ben", "Chiyo"], preset="book")
    _shot(page, artifacts, f"{tag}-02-scoreboard")
    assert page.locator(".seat").count() == 3 and page.locator("[data-test^=riichi]").count() == 3

    # Chiyo declares a pon too late: 1000 to the pot, as the book says
    page.click("summary:has-text('Late pon')")
    page.select_option("[data-test=late-pon-seat]", "2")
    page.click("[data-test=late-pon]")
    page.wait_for_selector("[data-field=sticks]:has-text('1')")
    # in riichi a player calls no pon: refused in the player's words, in Japanese on a Japanese page
    page.click("[data-test=riichi0]")
    page.wait_for_selector("[data-test=riichi0][disabled]")
    page.click("[data-test=lang-toggle]")
    page.wait_for_selector("text=遅いポン")
    page.click("summary:has-text('遅いポン')")
    page.select_option("[data-test=late-pon-seat]", "0")
    page.click("[data-test=late-pon]")
    page.wait_for_selector(".error-detail")
    _shot(page, artifacts, f"{tag}-03-refused-ja")
    assert page.inner_text(".error-detail") == "Akiはリーチ中なので、ポンはできません。"
    page.go_back()
    page.click("[data-test=lang-toggle]")
    page.wait_for_selector("text=Late pon")

    # Ben wins on Aki's discard by han and fu and takes the sticks
    enter_ron_by_han_and_fu(page, winner=1, discarder=0, han=3, fu=40)
    page.wait_for_selector("[data-test=confirm]:not([disabled])")
    page.click("[data-test=confirm]")
    page.wait_for_selector("[data-field=sticks]:has-text('0')")

    _end_game(page, artifacts, tag, width)
    sheet = _settlement(page, artifacts, tag, width)
    assert "Uma" in sheet["heads"] and "Oka" in sheet["heads"], sheet["heads"]
    assert sheet["log"][0] == "Ben ron off Aki · 3 han 40 fu · riichi: Aki · late pon: Chiyo", sheet["log"]
    _tv_shows_every_seat(browser, base, session_id, screen, artifacts, tag, 3)
    assert not errors, errors
    page.context.close()


def test_the_record_page_says_what_the_camera_doubted_and_offers_its_next_guesses(browser, server, artifacts, tmp_path):
    """After a photo the page lists the scan's doubts, and a tap on a doubtful tile offers the
    camera's runner-up names before the whole picker."""
    base, app = server
    reading = list(READING)
    reading[8] = ("9s", 0.42)                      # the camera is unsure, and wrong
    answer = _scan_answer(reading, {"concealed": "234m456p679s22z555z", "win_tile": "5z"}, "8s", lambda i, c: c < 0.9)
    answer["doubts"] = ["tile 9 (9s) is doubtful: 42% sure"]
    page = _read_photo(browser, base, app, artifacts, tmp_path, answer, "rules-doubts-")
    page.wait_for_selector("[data-test=doubts]")
    assert page.inner_text("[data-test=doubts] li") == "tile 9 (9s) is doubtful: 42% sure"
    assert not _visible(page, "[data-test=alternatives]")
    page.locator("[data-test=row-hand] .tile.doubt").click()
    page.wait_for_selector("[data-test=alternatives]")
    _shot(page, artifacts, "doubts-01-alternatives")
    assert page.eval_on_selector_all("[data-alternative]", "els => els.map(e => e.dataset.alternative)") == ["8s"]
    page.click("[data-alternative='8s']")
    assert hand_codes(page)[8] == "8s" and not _visible(page, "[data-test=alternatives]")
    page.wait_for_selector("[data-test=confirm]:not([disabled])")

    # in Japanese, the doubt is said in Japanese
    page.click("[data-test=lang-toggle]")
    page.wait_for_selector("text=和了を記録")
    page.click("[data-test=mode-photo]")
    photo = tmp_path / "hand.png"
    page.set_input_files("[data-test=photo-input]", str(photo))
    page.wait_for_selector("[data-test=doubts] li")
    _shot(page, artifacts, "doubts-02-ja")
    assert page.inner_text("[data-test=doubts] li") == "9枚目（9索）は自信がありません（確からしさ42%）。"
    page.context.close()


def test_a_hand_tile_row_that_wraps_keeps_the_star_on_the_winning_tile(browser, server, artifacts):
    """Fourteen tiles wrap on a phone: the star sits on the winning tile, clear of the row above."""
    base, _ = server
    page = browser.new_context(**PHONE).new_page()
    _start(page, base, artifacts, "star", "riichi", ["Aki", "Ben", "Chiyo", "Dan"])
    page.click("[data-test=record-hand]")
    tap_tiles(page, "2m 3m 4m 4p 5p 6p 6s 7s 8s 2z 2z 5z 5z 5z")
    win = page.locator("[data-test=row-hand] .tile.win")
    tiles = page.locator("[data-test=row-hand] .tile")
    box, first = win.bounding_box(), tiles.nth(0).bounding_box()
    assert box["y"] > first["y"] + first["height"] / 2            # the row wrapped: the winning tile is below
    star_top = win.evaluate("e => e.getBoundingClientRect().top + parseFloat(getComputedStyle(e, '::after').top)")
    above = [tiles.nth(i).bounding_box() for i in range(tiles.count() - 1)]
    bottom_of_row_above = max(b["y"] + b["height"] for b in above if b["y"] < box["y"] - 1)
    assert star_top >= bottom_of_row_above, (star_top, bottom_of_row_above)
    _shot(page, artifacts, "star-01-wrapped")
    page.context.close()
