"""Pages as a player meets them on a phone (390x844) and a desk (1920x1080): no request ends in
a 404 (the tab's icon), no choice is cut short, a refused form is said beside its field with
what was typed kept, the invite QR sits in the middle, Japanese pages name the presets in
Japanese, a refused hand is said beside the confirm button with everything entered kept, the
undo asks about what it undoes, and the record page asks for the join code where it is needed.
Screenshots land in artifacts/browser/said-*.png."""
from __future__ import annotations


import pytest

from tests.browser.steps import arrived, enter_ron_by_han_and_fu, start_game

SCREENS = {"phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
           "desk": {"viewport": {"width": 1920, "height": 1080}}}

# The width the selected text of a <select> needs against the room it has (its box less padding
# and the arrow), measured in the page with the select's own font.
FITS = """(sel) => {
  const style = getComputedStyle(sel);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${style.fontSize} ${style.fontFamily}`;
  const text = sel.options[sel.selectedIndex].text;
  const room = sel.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
  return {text, need: ctx.measureText(text).width, room};
}"""


def _failed_requests(page) -> list[str]:
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return failed


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_the_new_session_form_fits_says_where_it_is_wrong_and_invites(browser, server, artifacts, screen):
    base, _ = server
    context = browser.new_context(**SCREENS[screen])
    page = context.new_page()
    failed = _failed_requests(page)
    page.goto(base + "/new")
    for name in ("rules", "preset", "length", "seat-draw"):
        got = page.eval_on_selector(f"[data-test={name}]", FITS)
        assert got["need"] <= got["room"], (name, got)                      # "East + South (ha" no more
    for i, name in enumerate(["Aki", "Ben", "Chiyo", "Dan"]):
        page.fill(f"[data-test=player{i}]", name)
    page.fill("[data-test=uma]", "20,10,-10")
    page.fill("input[name=title]", "Friday")
    page.click("[data-test=create]")
    arrived(page, "[data-test=form-error]")
    page.screenshot(path=str(artifacts / f"said-new-refused-{screen}.png"), full_page=True)
    error = page.locator("[data-test=form-error]")
    assert error.inner_text() == "uma: 4 numbers are needed, got 3"
    uma_box, error_box = page.locator("[data-test=uma]").bounding_box(), error.bounding_box()
    assert 0 <= error_box["y"] - (uma_box["y"] + uma_box["height"]) < 40      # just under the uma field
    assert page.input_value("[data-test=uma]") == "20,10,-10" and page.input_value("[data-test=player3]") == "Dan"
    assert page.input_value("input[name=title]") == "Friday"
    page.fill("[data-test=uma]", "10-20")                                      # as logs write it
    page.click("[data-test=create]")
    page.wait_for_selector("[data-test=join-code]")
    page.screenshot(path=str(artifacts / f"said-share-{screen}.png"), full_page=True)
    qr, card = page.locator(".qr-box svg").bounding_box(), page.locator(".share").bounding_box()
    assert abs((qr["x"] + qr["width"] / 2) - (card["x"] + card["width"] / 2)) < 2
    assert qr["width"] >= 200
    assert failed == ["400 " + base + "/new"]                                  # the refusal alone: no 404
    context.close()


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_a_japanese_page_names_the_presets_in_japanese(browser, server, artifacts, screen):
    base, _ = server
    context = browser.new_context(**SCREENS[screen], locale="ja-JP")
    page = context.new_page()
    page.goto(base + "/new")
    options = page.eval_on_selector("[data-test=preset]", "(s) => [...s.options].map((o) => o.text)")
    assert options[:2] == ["天鳳", "雀魂"] and "Mリーグ" in options
    page.select_option("[data-test=preset]", "mleague")                        # chosen by its id still
    page.screenshot(path=str(artifacts / f"said-new-ja-{screen}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_a_refused_hand_is_said_beside_confirm_and_the_undo_says_what(browser, server, artifacts, screen):
    base, _ = server
    context = browser.new_context(**SCREENS[screen])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    session_id = start_game(page, base, ["Aki", "Ben", "Chiyo", "Dan"])
    page.goto(f"{base}/s/{session_id}/share")
    code = page.inner_text("[data-test=join-code]")
    page.goto(f"{base}/s/{session_id}")
    enter_ron_by_han_and_fu(page, winner=1, discarder=3, han=3, fu=40)
    page.wait_for_selector("[data-test=confirm]:not([disabled])")
    # meanwhile another phone ends the game: this hand can no longer be recorded
    other = browser.new_context(**SCREENS[screen]).new_page()
    other.goto(f"{base}/s/{session_id}/record")
    assert other.locator("[data-test=join-first]").is_visible()                # where the code goes
    other.screenshot(path=str(artifacts / f"said-join-first-{screen}.png"), full_page=True)
    other.fill("[data-test=join-code]", code)
    other.click("[data-test=join-go]")
    other.wait_for_url(f"**/s/{session_id}/record")                            # back where it was asked
    other.goto(f"{base}/s/{session_id}")
    with other.expect_navigation():     # the end form, sent as its button would after the question
        other.evaluate("document.querySelector('[data-test=end-game]').closest('form').submit()")
    page.click("[data-test=confirm]")
    said = page.locator("[data-test=confirm-error]")
    said.wait_for(state="visible")
    page.screenshot(path=str(artifacts / f"said-confirm-refused-{screen}.png"), full_page=True)
    assert "over" in said.inner_text()
    assert page.url.endswith(f"/s/{session_id}/record")                        # still here, nothing lost
    assert page.input_value("[data-test=han]") == "3"
    # the undo asks about what it takes back: the end of the game, by the other phone
    page.goto(f"{base}/s/{session_id}")
    with page.expect_event("dialog") as asked:
        # the question comes after a fetch, while the click would wait on: it must not
        page.click("[data-test=undo]", no_wait_after=True)
    assert asked.value.message == "Undo the last entry, the end of the game?"
    asked.value.dismiss()
    assert errors == []
    context.close()
