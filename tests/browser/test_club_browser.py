"""A club from its first page to the season's printed standings, on a phone (390x844) and a
desk screen (1920x1080): members added, a season, a game started from the club with members
and a guest, played and ended, the standings sorted and printed on one page, a player's page
with the season chart, and a member renamed everywhere. Screenshots in artifacts/browser/."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.steps import arrived, enter_ron_by_han_and_fu, start_club, start_game
from tests.browser.test_web_rulesets_browser import SCREENS, _end_game, _shot


@pytest.mark.parametrize("screen", SCREENS)
def test_a_club_season_from_members_to_printed_standings(browser, server, artifacts: Path, phone_or_desk, screen):
    base, _ = server
    page, errors = phone_or_desk(screen)
    width = screen["viewport"]["width"]
    tag = f"club-{'phone' if width < 500 else 'desk'}"

    page.goto(base + "/")
    page.click("[data-test=clubs-link]")
    start_club(page, "Thursday <club>", ("Aki", "Ben", "Chiyo"))
    page.fill("[data-test=add-season] input[name=name]", "Autumn")
    page.fill("[data-test=add-season] input[name=starts]", "2026-09-01")
    page.click("[data-test=add-season] button")
    page.wait_for_selector("[data-test=seasons] a:has-text('Autumn')")
    _shot(page, artifacts, f"{tag}-01-club")
    assert page.inner_text("[data-test=club-name]") == "Thursday <club>"

    # a game of the club: three members picked from the list, a guest typed in
    page.click("[data-test=club-new-session]")
    page.wait_for_selector("[data-test=new-club-note]")
    assert page.locator("#club-members option").count() == 3
    start_game(page, None, ["Aki", "Ben", "Chiyo", "Guest Eve"], {"length": "east"})
    for winner, discarder, han in ((0, 1, 3), (2, 1, 2)):
        enter_ron_by_han_and_fu(page, winner=winner, discarder=discarder, han=han, fu=30)
        page.wait_for_selector("[data-test=confirm]:not([disabled])")
        page.click("[data-test=confirm]")
        page.wait_for_selector("[data-test=scoreboard]")
    _end_game(page, artifacts, tag, width)
    club_url = re.sub(r"/standings.*|/s/.*", "", page.url)

    # the standings: the members, not the guest, best first; sorted by deal-ins, printed on one page
    page.goto(base + "/clubs")
    page.click("[data-test=club-list] a")
    page.click("[data-test=standings-link]")
    arrived(page, "[data-test=standings]")
    names = page.eval_on_selector_all("[data-test=standing-row] td:nth-child(2)", "els => els.map(e => e.textContent.trim())")
    assert names == ["Aki", "Chiyo", "Ben"], names
    _shot(page, artifacts, f"{tag}-02-standings")
    box = page.locator("[data-test=sort-deal_in_rate]").bounding_box()
    assert box and box["x"] >= 0
    page.click("[data-test=sort-deal_in_rate]")
    page.wait_for_selector("th.sorted [data-test=sort-deal_in_rate]")
    names = page.eval_on_selector_all("[data-test=standing-row] td:nth-child(2)", "els => els.map(e => e.textContent.trim())")
    assert names[-1] == "Ben", names
    page.emulate_media(media="print")
    _shot(page, artifacts, f"{tag}-03-standings-print")
    printed = page.pdf(path=str(artifacts / f"{tag}-04-standings.pdf"), format="A4", print_background=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", printed)) == 1
    page.emulate_media(media="screen")
    tv_url = page.get_attribute("[data-test=tv-link]", "href")

    # the standings on a TV across the room: every column on the screen, large type, no forms
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(base + tv_url)
    tv.wait_for_selector("[data-test=standings]")
    _shot(tv, artifacts, f"{tag}-03-standings-tv")
    table = tv.locator(".club-standings").bounding_box()
    assert table["x"] >= 0 and table["x"] + table["width"] <= 1920, table
    size = tv.eval_on_selector(".club-standings td", "e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 24, size
    assert tv.locator("[data-test=season-pick]").count() == 0
    tv.context.close()

    # a player's page: the season's chart and the game; then renamed everywhere
    page.click("[data-test=standing-row] a:has-text('Aki')")
    page.wait_for_selector("[data-test=player] [data-test=player-name]")
    assert page.locator("[data-test=chart] polyline").count() == 2          # the season's result, the rating
    assert page.locator("[data-test=rating-chart] [data-test=chart] polyline").count() == 1
    assert page.locator("[data-test=player-games] tbody tr").count() == 1
    _shot(page, artifacts, f"{tag}-05-player")
    page.fill("[data-test=rename] input[name=name]", "Akiko")
    page.click("[data-test=rename] button")
    page.wait_for_selector("[data-test=player-name]:has-text('Akiko')")
    page.click("[data-test=player-games] a")
    page.wait_for_selector("[data-test=settlement]")
    assert "Akiko" in page.inner_text("[data-test=settlement]")
    assert club_url.startswith(base)
    assert not errors, errors
    page.context.close()
