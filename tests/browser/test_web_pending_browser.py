"""The winners of a double ron entered so far survive a reload of the record page (a phone that
locks and reloads the tab), are dropped once recorded or cancelled, and are never applied to
another hand; a refused confirm loses nothing. And pao by han/fu says how many yakuman it covers."""
from __future__ import annotations

from tests.browser.test_web_browser import record_page, shown_scores


def _add_by_numbers(page, winner: int, han: str) -> None:
    page.click(f"[data-test=winner{winner}]")
    page.click("[data-test=mode-hanfu]")
    page.fill("[data-test=han]", han)
    page.select_option("[data-test=fu]", "30")
    page.wait_for_selector("[data-test=add-winner]:not([disabled])")
    page.click("[data-test=add-winner]")


def _ron_off(page, winner: int, discarder: int) -> None:
    page.click(f"[data-test=winner{winner}]")
    page.click("[data-test=ron]")
    page.click(f"[data-test=discarder{discarder}]")


def _nothing_pending(page) -> None:
    """The record page, reloaded, shows no pending winners and keeps none in the tab."""
    page.wait_for_selector("[data-test=confirm]")
    assert page.locator("[data-test=pending]").is_hidden()
    assert page.locator("[data-test=tsumo]").is_enabled()
    assert page.evaluate("Object.keys(sessionStorage).filter(k => k.startsWith('tenbou.pending.'))") == []


def _post(page, base: str, session_id: str, event: dict) -> None:
    csrf = page.request.get(f"{base}/api/csrf").json()["csrf_token"]
    answer = page.request.post(f"{base}/api/sessions/{session_id}/events", data={"event": event},
                               headers={"X-CSRF-Token": csrf})
    assert answer.ok, answer.text()


def test_pending_winners_survive_a_reload_until_recorded(browser, server, artifacts):
    base, _ = server
    page, errors, session_id = record_page(browser, base, artifacts, "pending-")
    _ron_off(page, 1, 0)
    _add_by_numbers(page, 1, "2")                                   # Ben: 2 han 30 fu off Aki
    pending = page.locator("[data-test=pending]")
    assert "Ben · 2000 points" in pending.inner_text()

    page.reload()                                                   # the phone locked and reloaded the tab
    page.wait_for_selector("[data-test=pending-winner1]")
    assert "Ben · 2000 points" in pending.inner_text()
    assert page.locator("[data-test=pending-restored]").is_visible()
    # the discarder came back with the list, named once for every winner
    assert page.locator("[data-test=discarder0]").is_checked() and page.locator("[data-test=tsumo]").is_disabled()
    assert page.locator("[data-test=winner1]").is_disabled()
    page.screenshot(path=str(artifacts / "50-pending-after-reload.png"), full_page=True)

    page.click("[data-test=winner2]")                               # Chiyo: 3 han 30 fu, the last winner
    page.click("[data-test=mode-hanfu]")
    page.fill("[data-test=han]", "3")
    page.wait_for_selector("[data-test=confirm]:not([disabled])")
    page.click("[data-test=confirm]")
    page.wait_for_selector("[data-test=scoreboard]")
    assert shown_scores(page) == [25000 - 2000 - 3900, 25000 + 2000, 25000 + 3900, 25000]

    assert page.evaluate("Object.keys(sessionStorage).filter(k => k.startsWith('tenbou.pending.'))") == []
    # recorded, then undone: the table is back at that hand, but what was recorded is not kept
    csrf = page.request.get(f"{base}/api/csrf").json()["csrf_token"]
    assert page.request.post(f"{base}/api/sessions/{session_id}/undo", data={}, headers={"X-CSRF-Token": csrf}).ok
    page.goto(f"{base}/s/{session_id}/record")
    _nothing_pending(page)
    assert not errors, errors
    page.context.close()


def _ben_pending(page) -> None:
    """Ben (seat 1) added as the first winner, off Aki's discard, for 2 han 30 fu: one winner pending."""
    _ron_off(page, 1, 0)
    _add_by_numbers(page, 1, "2")


def test_pending_winners_are_never_applied_to_another_hand(browser, server, artifacts):
    base, _ = server
    page, errors, session_id = record_page(browser, base, artifacts, "pending-other-")
    _ben_pending(page)
    page.reload()
    page.wait_for_selector("[data-test=pending-winner1]")

    # meanwhile another phone records a draw: the table moved on to the next hand
    _post(page, base, session_id, {"type": "draw", "tenpai": [0]})
    page.reload()
    _nothing_pending(page)
    assert not errors, errors
    page.context.close()


def test_pending_winners_survive_a_correction_of_the_scores(browser, server, artifacts):
    base, _ = server
    page, errors, session_id = record_page(browser, base, artifacts, "pending-corrected-")
    _ben_pending(page)
    # another phone takes the automatic table's numbers over: a correction, not a hand
    _post(page, base, session_id, {"type": "correction", "scores": [26000, 24000, 25000, 25000]})
    page.reload()
    page.wait_for_selector("[data-test=pending-winner1]")
    assert "Ben · 2000 points" in page.inner_text("[data-test=pending]")
    assert page.locator("[data-test=discarder0]").is_checked()
    assert not errors, errors
    page.context.close()


def test_cancelled_winners_stay_cancelled_and_a_refusal_loses_nothing(browser, server, artifacts):
    base, _ = server
    page, errors, session_id = record_page(browser, base, artifacts, "pending-cancel-")
    _ron_off(page, 1, 0)
    _add_by_numbers(page, 1, "2")
    page.click("[data-test=cancel-pending]")
    assert page.locator("[data-test=pending]").is_hidden() and page.locator("[data-test=tsumo]").is_enabled()
    page.reload()
    page.wait_for_selector("[data-test=confirm]")
    assert page.locator("[data-test=pending]").is_hidden()

    _ron_off(page, 1, 0)
    _add_by_numbers(page, 1, "2")
    _post(page, base, session_id, {"type": "end"})                 # another phone ends the game first
    page.wait_for_selector("[data-test=confirm]:not([disabled])")   # confirm records Ben alone
    page.click("[data-test=confirm]")
    refused = page.locator("[data-test=confirm-error]")             # refused, in words, beside confirm
    refused.wait_for(state="visible")
    assert "The game is over" in refused.inner_text()
    page.wait_for_selector("[data-test=pending-winner1]")           # nothing lost: the page stays
    assert "Ben · 2000 points" in page.inner_text("[data-test=pending]")
    page.reload()                                                   # nor when it is opened again
    page.wait_for_selector("[data-test=pending-winner1]")
    assert not errors, errors
    page.context.close()


def test_pao_by_numbers_covers_the_yakuman_the_player_says(browser, server, artifacts):
    base, _ = server
    page, errors, session_id = record_page(browser, base, artifacts, "pao-count-")
    page.click("[data-test=winner1]")                               # Ben's tsumo, two yakuman
    page.click("[data-test=mode-hanfu]")
    assert page.locator("[data-test=pao-yakuman]").is_hidden()      # asked only when someone is liable
    page.fill("[data-test=yakuman]", "2")
    page.select_option("[data-test=pao]", "2")                      # Chiyo fed the big winds
    page.fill("[data-test=pao-yakuman]", "3")
    page.wait_for_selector("[data-test=preview] .preview-error")
    assert "1 to as many yakuman as the hand has" in page.inner_text("[data-test=preview]")
    assert page.locator("[data-test=confirm]").is_disabled()
    page.fill("[data-test=pao-yakuman]", "2")
    page.wait_for_selector("[data-test=confirm]:not([disabled])")
    assert "64000" in page.inner_text("[data-test=preview]")
    page.screenshot(path=str(artifacts / "51-pao-two-yakuman.png"), full_page=True)
    page.click("[data-test=confirm]")
    page.wait_for_selector("[data-test=scoreboard]")
    assert shown_scores(page) == [25000, 25000 + 64000, 25000 - 64000, 25000]
    events = page.request.get(f"{base}/api/sessions/{session_id}/events").json()
    assert events[-1]["event"]["pao"] == 2 and events[-1]["event"]["pao_yakuman"] == 2
    assert not errors, errors
    page.context.close()
