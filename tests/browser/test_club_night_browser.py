"""A club night of 16 members and 4 rounds, driven through the pages on the organiser's phone
(390x844): the club's rules set, the night planned, each round's tables drawn with no repeat
meeting (the page prints the figure, checked against the fewest possible), every table started
in one tap and its game played (a ron entered by han and fu, then the game ended), the
standings and the club's ratings after each round, a player's own view of their table and wind, the round timer on the
TV running out to "finish the hand in play", and one table's TV with the players around the
table. The night's page is also shown on a desk screen (1920x1080). Screenshots in
artifacts/browser/night-*.png."""
from __future__ import annotations

import re
from pathlib import Path

from tests.browser.steps import enter_ron_by_han_and_fu, start_club
from tests.browser.test_web_browser import PHONE

DESK = {"viewport": {"width": 1920, "height": 1080}}
MEMBERS = ["Aki", "Ben", "Chiyo", "Dan", "Emi", "Fumio", "Gen", "Hana",
           "Isamu", "Jun", "Kei", "Long Name Takahashi", "Mei", "Nao", "Osamu", "Rin"]


def _shot(page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"night-{name}.png"), full_page=True)


def _fits(page, width: int) -> None:
    """Nothing of the night's page reaches past the screen's right edge (no sideways scrolling)."""
    wide = page.evaluate("() => Math.max(...Array.from(document.querySelectorAll('main, main *'), "
                         "e => e.getBoundingClientRect().right))")
    assert wide <= width, wide


def _figure(page) -> tuple[int, int]:
    repeats = int(page.inner_text("[data-test=repeats]"))
    fewest = int(re.search(r"fewest possible: (\d+)", page.inner_text("[data-test=repeat-figure]")).group(1))
    return repeats, fewest


def _play_table(page, artifacts: Path, night_url: str, round_number: int, table: int) -> None:
    """From the night's page: the table's scoreboard, one ron by han and fu, the game ended."""
    page.goto(night_url)
    seated = page.eval_on_selector_all(f"[data-round='{round_number}'][data-table='{table}'] .night-seats .name",
                                       "els => els.map(e => e.textContent.trim())")
    page.click(f"[data-round='{round_number}'][data-table='{table}'] [data-test=table-scoreboard]")
    page.wait_for_selector("[data-test=scoreboard]")
    # the scoreboard seats the table as drawn, East first, and says how the winds were drawn
    assert page.eval_on_selector_all("[data-seat] .name", "els => els.map(e => e.textContent.trim())") == seated
    assert page.inner_text("[data-test=seat-draw-shown] summary").startswith("The seats were drawn with wind tiles")
    if round_number == 1 and table == 1:
        _shot(page, artifacts, "phone-10-table-scoreboard")
    _fits(page, 390)                                    # a long name does not widen the board
    # a different winner at each table, so the standings have something to sort
    winner = (table + round_number) % 4
    enter_ron_by_han_and_fu(page, winner=winner, discarder=(winner + 1) % 4, han=1 + table % 3, fu=30)
    page.wait_for_selector("[data-test=confirm]:not([disabled])")
    page.click("[data-test=confirm]")
    page.wait_for_selector("[data-test=scoreboard]")
    page.click("summary:has-text('End the game now')")
    page.click("[data-test=end-game]")                 # the confirm dialog is accepted
    page.wait_for_selector("[data-test=to-settle]")


def test_a_club_night_of_sixteen_members_and_four_rounds(browser, server, artifacts: Path, phone_or_desk):
    base, _ = server
    page, errors = phone_or_desk(PHONE)
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None)

    # the club, its sixteen members and its rules
    page.goto(base + "/clubs")
    club_url = start_club(page, "Thursday club", MEMBERS)
    page.click("[data-test=club-rules-edit] summary")
    page.select_option("[data-test=club-rules-length]", "east")
    page.fill("[data-test=club-rules-rate]", "1")
    page.click("[data-test=club-rules-save]")
    page.wait_for_selector("[data-test=club-rules-line]:has-text('East only')")
    _shot(page, artifacts, "phone-01-club")

    # the night: all sixteen play, four rounds, Swiss by standing, winds drawn with tiles
    page.click("[data-test=plan-night]")
    page.fill("[data-test=night-name]", "November night")
    assert page.locator("[data-test=night-members] input:checked").count() == 16
    page.fill("[data-test=night-rounds]", "4")
    page.select_option("[data-test=night-style]", "swiss")
    page.select_option("[data-test=night-winds]", "tiles")
    _shot(page, artifacts, "phone-02-plan")
    page.click("[data-test=create-night]")
    page.wait_for_selector("[data-test=no-rounds]")
    night_url = page.url

    for round_number in range(1, 5):
        page.goto(night_url)
        page.click("[data-test=draw-round]")
        page.wait_for_selector(f"[data-test=round][data-round='{round_number}']")
        tables = page.locator(f"[data-test=round][data-round='{round_number}'] [data-test=night-table]")
        assert tables.count() == 4
        # the fewest repeat meetings: 16 players meet nobody twice in 4 rounds
        assert _figure(page) == (0, 0), page.inner_text("[data-test=repeat-figure]")
        for table in range(1, 5):
            page.click(f"[data-round='{round_number}'][data-table='{table}'] [data-test=start-table]")
            page.wait_for_selector(f"[data-round='{round_number}'][data-table='{table}'] [data-test=table-scoreboard]")
        assert page.locator("[data-test=draw-round]").count() == 0          # waits for the games
        if round_number == 1:
            _shot(page, artifacts, "phone-03-round1-started")
            _fits(page, 390)
        if round_number == 2:
            _timer_on_the_tv(browser, page, artifacts, night_url)
            _table_tv_seats_around(browser, page, artifacts)
        for table in range(1, 5):
            _play_table(page, artifacts, night_url, round_number, table)
        page.goto(night_url)
        assert page.inner_text("[data-test=night-standings-card] h2") == f"Standings after round {round_number}"
        rows = page.locator("[data-test=night-standing-row]")
        assert rows.count() == 16
        totals = [float(t) for t in page.eval_on_selector_all("[data-test=night-total]", "els => els.map(e => e.textContent)")]
        assert totals == sorted(totals, reverse=True) and any(totals), totals
        heads = page.eval_on_selector_all("[data-test=night-standings] th", "els => els.map(e => e.textContent.trim())")
        assert heads[-1] == f"R{round_number}", heads
        assert page.locator(f"[data-test=round][data-round='{round_number}'] .done-pill").count() == 1
        if round_number == 1:
            _player_view(page, artifacts)
        # the club's ratings follow each round's games: all sixteen rated, not all alike
        page.click("[data-test=ratings-link]")
        page.wait_for_selector("[data-test=ratings]")
        ratings = page.eval_on_selector_all("[data-test=rating-value]", "els => els.map(e => Number(e.textContent))")
        assert len(ratings) == 16 and len(set(ratings)) > 1, ratings

    page.goto(night_url)
    assert _figure(page) == (0, 0)
    assert page.locator("[data-test=night-done]").count() == 1
    _shot(page, artifacts, "phone-04-night-done")
    _fits(page, 390)
    # the night's page on a desk screen, read by anyone
    desk = browser.new_context(**DESK).new_page()
    desk.goto(night_url)
    assert desk.locator("[data-test=night-standing-row]").count() == 16
    assert desk.locator("[data-test=draw-round], [data-test=start-table]").count() == 0
    _shot(desk, artifacts, "desk-05-night")
    _fits(desk, 1920)
    desk.context.close()
    assert not errors, errors
    assert not blocked, blocked
    page.context.close()
    assert club_url


def _player_view(page, artifacts: Path) -> None:
    """A player picks their name on the night's page and sees their round, table and wind."""
    page.select_option("[data-test=find-me-member]", label="Long Name Takahashi")
    page.click("[data-test=find-me] button")
    page.wait_for_selector("[data-test=night-player]")
    assert page.inner_text("h1") == "Long Name Takahashi"
    assert re.fullmatch(r"Table [1-4]", page.inner_text("[data-test=my-table]"))
    assert page.inner_text("[data-test=my-wind]") in ("East", "South", "West", "North")
    assert page.locator("[data-test=my-seat] .night-seats li").count() == 3     # the other three, with winds
    assert page.locator("[data-test=my-rounds] li").count() == 1
    assert page.locator("[data-test=my-standing]").is_visible()
    _shot(page, artifacts, "phone-06-player")
    _fits(page, 390)


def _timer_on_the_tv(browser, page, artifacts: Path, night_url: str) -> None:
    """The organiser sets a one-minute round timer; the TV counts it down, then says to finish
    the hand in play. The TV's clock is the browser's, moved on rather than waited for."""
    page.fill("[data-test=timer-minutes]", "1")
    page.click("[data-test=timer-start]")
    page.wait_for_selector("[data-test=timer-stop]")
    tv = browser.new_context(**DESK).new_page()
    tv.clock.install()
    tv.goto(night_url + "/tv")
    timer = tv.locator("[data-test=night-timer]")
    assert timer.is_visible()
    assert re.fullmatch(r"[01]:\d\d", timer.inner_text().strip()), timer.inner_text()
    assert tv.locator("[data-test=tv-table]").count() == 4
    _shot(tv, artifacts, "tv-07-timer")
    tv.clock.fast_forward("01:05")
    tv.wait_for_selector("[data-test=night-timer].time-up")
    assert timer.inner_text().strip() == "Time: finish the hand in play"
    _shot(tv, artifacts, "tv-08-time-up")
    box = timer.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 1920 and box["height"] > 60, box
    tv.context.close()


def _table_tv_seats_around(browser, page, artifacts: Path) -> None:
    """One table's TV: the seats around the table, seat 1 (East) at the bottom, the next to play
    on the right, across at the top, the one before on the left."""
    href = page.get_attribute("[data-round='2'][data-table='1'] [data-test=table-scoreboard]", "href")
    tv = browser.new_context(**DESK).new_page()
    tv.goto(page.url.split("/c/")[0] + href + "/tv")
    tv.wait_for_selector("[data-field=link].online")
    box = {at: tv.locator(f"[data-at={at}]").bounding_box() for at in ("bottom", "right", "top", "left")}
    centre = {at: (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2) for at, b in box.items()}
    assert centre["bottom"][1] > centre["left"][1] > centre["top"][1]
    assert centre["right"][0] > centre["bottom"][0] > centre["left"][0]
    assert all(b["x"] >= 0 and b["x"] + b["width"] <= 1920 and b["y"] + b["height"] <= 1080 for b in box.values()), box
    assert tv.locator("[data-seat='0']").get_attribute("data-at") == "bottom"
    _shot(tv, artifacts, "tv-09-table")
    tv.context.close()
