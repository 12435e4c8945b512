"""A double ron recorded through the record page in a real browser: one winner by tapped tiles,
one by han and fu, a third added by mistake and removed, one confirm."""
from __future__ import annotations

from tests.browser.test_web_browser import record_page, shown_scores, tap_tiles

BEN_TAPS = "2m 3m 4m 4p 6p 6s 7s 8s 3z 3z 5z 5z 5z 5p".split()    # haku, wins on Aki's 5p: 1300


def test_a_double_ron_through_the_record_page(browser, server, artifacts):
    base, _ = server
    page, errors, session_id = record_page(browser, base, artifacts, "double-ron-")
    assert page.locator("[data-test=add-winner]").is_hidden()         # a tsumo has one winner

    page.click("[data-test=winner1]")
    page.click("[data-test=ron]")
    page.click("[data-test=discarder0]")
    tap_tiles(page, BEN_TAPS)
    page.wait_for_selector("[data-test=add-winner]:not([disabled])")
    assert "1300" in page.inner_text("[data-test=preview]")
    page.click("[data-test=add-winner]")
    pending = page.locator("[data-test=pending]")
    assert "Ben" in pending.inner_text() and "1300" in pending.inner_text()
    # the discarder is named once, and Ben cannot win twice
    assert page.locator("[data-test=tsumo]").is_disabled() and page.locator("[data-test=discarder3]").is_disabled()
    assert page.locator("[data-test=winner1]").is_disabled() and page.locator("[data-test=winner0]").is_disabled()

    page.click("[data-test=winner3]")                                  # a slip: Dan did not win
    page.click("[data-test=mode-hanfu]")
    page.fill("[data-test=han]", "2")
    page.wait_for_selector("[data-test=add-winner]:not([disabled])")
    page.click("[data-test=add-winner]")
    assert "Dan · 2000 points" in pending.inner_text()                 # han/fu priced by the server too
    assert page.locator("[data-test=add-winner]").is_hidden()          # three winners at most
    page.click("[data-test=remove-winner3]")
    assert "Dan" not in pending.inner_text()

    page.click("[data-test=winner2]")
    page.fill("[data-test=han]", "3")
    page.select_option("[data-test=fu]", "30")
    page.wait_for_selector("[data-test=confirm]:not([disabled])")
    assert "3900 points" in page.inner_text("[data-test=preview]")
    page.screenshot(path=str(artifacts / "40-double-ron.png"), full_page=True)
    page.click("[data-test=confirm]")
    page.wait_for_selector("[data-test=scoreboard]")
    assert shown_scores(page) == [25000 - 1300 - 3900, 25000 + 1300, 25000 + 3900, 25000]
    events = page.request.get(f"{base}/api/sessions/{session_id}/events").json()
    assert len(events) == 1 and sorted(w["winner"] for w in events[0]["event"]["winners"]) == [1, 2]
    assert not errors, errors
    page.context.close()
