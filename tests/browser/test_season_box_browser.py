"""A club's new-season form on a phone (390x844) and a desk screen (1920x1080): the season's
name box is wide enough to read what is typed (on a phone it was about 20 px, squeezed beside the
date), and the date and the button stay on the screen. Screenshots in artifacts/browser/."""
from __future__ import annotations

import pytest

from tests.browser.test_web_rulesets_browser import SCREENS

NAME = "Autumn league 2026"


@pytest.mark.parametrize("screen", SCREENS)
def test_the_season_name_box_is_readable(server, phone_or_desk, artifacts, screen):
    base, _ = server
    page, errors = phone_or_desk(screen)
    width = screen["viewport"]["width"]
    tag = "phone" if width < 500 else "desk"
    page.goto(base + "/clubs")
    page.fill("[data-test=new-club] input[name=name]", "Thursday club")
    page.click("[data-test=new-club] button")
    page.wait_for_selector("[data-test=add-season]")
    # the form is in the page before the club page's stylesheet is applied: measured then, the box
    # has the browser's own width (177 px, seen once on a loaded machine)
    page.wait_for_load_state("load")
    name = page.locator("[data-test=add-season] input[name=name]")
    name.fill(NAME)
    box = name.bounding_box()
    # what was typed fits the box: its text is no wider than the box's inside
    text_width, inside = name.evaluate("e => [e.scrollWidth, e.clientWidth]")
    page.locator("[data-test=add-season]").screenshot(path=str(artifacts / f"season-box-{tag}.png"))
    page.screenshot(path=str(artifacts / f"season-box-{tag}-page.png"), full_page=True)
    assert box["width"] >= (280 if tag == "phone" else 300), box
    assert text_width <= inside, (text_width, inside)
    for part in ("input[name=name]", "input[name=starts]", "button"):
        found = page.locator(f"[data-test=add-season] {part}").bounding_box()
        assert found["x"] >= 0 and found["x"] + found["width"] <= width, (part, found)
    # nor does the page scroll sideways (the club's many links scroll inside their own line)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    page.click("[data-test=add-season] button")
    page.wait_for_selector(f"[data-test=seasons] a:has-text('{NAME}')")
    assert errors == []
