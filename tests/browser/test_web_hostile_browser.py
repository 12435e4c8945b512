"""Hostile player names in a real browser: every name below would run script if a page or a
script wrote it as markup (as the record page's preview did, issue 16). Each sets
`window.pwned`; through the whole evening — the share page, the record page's preview and its
list of winners, the scoreboard updated live, the TV, the settlement — it stays undefined, the
names show as the text they are, and the Content-Security-Policy never has to refuse anything
(a refusal would mean markup with a player's text reached the page, stopped only by the policy).
"""
from __future__ import annotations

from tests.browser.test_web_browser import PHONE
from tests.browser.steps import enter_ron_by_han_and_fu

NAMES = ["<iframe onload=pwned=1>", "<svg onload=pwned=2>", "<img src onerror=pwned=3", "'\"><svg onload=pwned=4>"]
TITLE = '<img src=x onerror="window.pwned=5">'

# Runs before the page's own scripts (an init script is the browser's, not the page's): notes
# every refusal of the policy, so a test can say none happened.
WATCH = """document.addEventListener("securitypolicyviolation",
  (e) => { (window.__refused = window.__refused || []).push(e.violatedDirective + " " + e.blockedURI); });"""


def _safe(page, where: str) -> None:
    assert page.evaluate("typeof window.pwned") == "undefined", where
    assert page.evaluate("window.__refused || []") == [], where


def _phone(browser, errors: list[str]):
    context = browser.new_context(**PHONE)
    context.add_init_script(WATCH)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def test_hostile_names_never_run(browser, server, artifacts):
    base, _ = server
    errors: list[str] = []
    page = _phone(browser, errors)
    page.goto(base + "/new")
    for i, name in enumerate(NAMES):
        page.fill(f"[data-test=player{i}]", name)
    page.fill("input[name=title]", TITLE)
    page.fill("input[name=rate]", "1")
    page.click("[data-test=create]")
    page.wait_for_selector("[data-test=join-code]")
    _safe(page, "share")
    page.click("[data-test=to-scoreboard]")
    scoreboard = page.url
    tv = _phone(browser, errors)
    tv.goto(scoreboard + "/tv")
    _safe(page, "scoreboard")

    # the record page: a double ron by han and fu, so the preview and the winners' list name them
    enter_ron_by_han_and_fu(page, winner=1, discarder=0, han=3)
    page.wait_for_selector("[data-test=add-winner]:not([disabled])")
    preview = page.inner_text("[data-test=preview]")
    assert NAMES[0] in preview and NAMES[1] in preview                   # who pays whom, as text
    _safe(page, "record preview")
    page.click("[data-test=add-winner]")
    assert NAMES[1] in page.inner_text("[data-test=pending]")
    page.click("[data-test=winner2]")
    page.fill("[data-test=han]", "2")
    page.wait_for_selector("[data-test=confirm]:not([disabled])")
    assert NAMES[2] in page.inner_text("[data-test=preview]")
    page.screenshot(path=str(artifacts / "hostile-01-preview.png"), full_page=True)
    _safe(page, "record preview, two winners")
    page.click("[data-test=confirm]")
    page.wait_for_selector("[data-test=scoreboard]")

    # the scoreboard and the TV, redrawn from the live state (the last hand names the payers)
    for screen, where in ((page, "scoreboard"), (tv, "tv")):
        screen.locator("[data-field=last]", has_text=NAMES[0]).wait_for(state="attached", timeout=10000)
        _safe(screen, where)

    page.goto(scoreboard + "/settle")
    text = page.inner_text("[data-test=settlement]")
    assert all(name in text for name in NAMES) and TITLE in text
    page.screenshot(path=str(artifacts / "hostile-02-settle.png"), full_page=True)
    _safe(page, "settlement")
    assert not errors, errors
    page.context.close()
    tv.context.close()
