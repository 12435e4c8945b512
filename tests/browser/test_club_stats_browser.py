"""A club's ratings and statistics as its members see them, on a phone (390x844) and a desk
screen (1920x1080): a season of games kept, a hand entered by han and fu with its yaku picked
(the han added up by the picker), the all-last conditions under each seat in the last hand, the
player's page (rating over time, placements as bars, statistics with their samples) and the
club's statistics page. Screenshots in artifacts/browser/ (club-stats-*.png)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.steps import assert_fits, enter_ron_by_han_and_fu, start_game
from tests.browser.test_web_rulesets_browser import SCREENS


def _shot(page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"club-stats-{name}.png"), full_page=True)


@pytest.mark.parametrize("screen", SCREENS)
def test_ratings_and_statistics_pages_on_phone_and_desk(browser, server, artifacts: Path, phone_or_desk, screen):
    from bench.club_standings import build_club
    from webui.play import clubs

    base, app = server
    club_id, season_id = build_club(app, games=60, members=8, seed=26, detail=True)
    with app.app_context():
        member = next(m for m in clubs.members(club_id) if m.name == "Aki")
    page, errors = phone_or_desk(screen)
    tag = "phone" if screen["viewport"]["width"] < 500 else "desk"

    # a game of four: three hands by han and fu, the first with its yaku picked
    start_game(page, base, ["Aki", "Bo", "Chie", "Dai"], {"length": "east"})
    page.click("[data-test=record-hand]")
    page.click("[data-test=winner1]")
    page.click("[data-test=ron]")
    page.click("[data-test=discarder0]")
    page.click("[data-test=mode-hanfu]")
    page.click("[data-test=yaku-picker] summary")
    page.check("[data-test=yaku-riichi]")
    page.check("[data-test=yaku-tanyao]")
    page.fill("[data-test=count-dora]", "1")
    page.wait_for_function("document.querySelector('[data-test=han]').value === '3'")
    page.select_option("[data-test=fu]", "40")
    page.wait_for_selector("[data-test=confirm]:not([disabled])")
    _shot(page, artifacts, f"{tag}-01-yaku-picker")
    page.click("[data-test=confirm]")
    page.wait_for_selector("[data-test=scoreboard]")
    for winner, discarder in ((3, 2), (1, 0)):      # non-dealers: East 2, East 3, then East 4
        enter_ron_by_han_and_fu(page, winner=winner, discarder=discarder, han=2, fu=30)
        page.wait_for_selector("[data-test=confirm]:not([disabled])")
        page.click("[data-test=confirm]")
        page.wait_for_selector("[data-test=scoreboard]")
    # East 4 of an East-only game: the last hand, each seat's conditions under it
    page.wait_for_selector("[data-test=all-last]:not([hidden])")
    texts = page.locator("[data-test=all-last]").all_inner_texts()
    assert len(texts) == 4 and sum("ron" in t for t in texts) == 3 and sum("lead" in t for t in texts) == 1
    _shot(page, artifacts, f"{tag}-02-all-last")

    # the player's page: rating over time, placements, statistics with samples
    page.goto(f"{base}/c/{club_id}/p/{member.id}?season={season_id}")
    page.wait_for_selector("[data-test=rating-chart] svg polyline")
    assert page.locator("[data-test=place-bars] rect.bar").count() == 4
    stats = page.inner_text("[data-test=player-stats]")
    assert " of " in stats and "%" in stats
    _shot(page, artifacts, f"{tag}-03-player")
    assert_fits(page, screen, "the player page")

    # the club's statistics, and its ratings
    page.click("[data-test=stats-link]")
    page.wait_for_selector("[data-test=club-stats] [data-test=stats-row]")
    assert page.locator("[data-test=stats-row]").count() == 8
    _shot(page, artifacts, f"{tag}-04-stats")
    assert_fits(page, screen, "the statistics page")
    page.click("[data-test=ratings-link]")
    page.wait_for_selector("[data-test=rating-row]")
    assert page.locator("[data-test=rating-row]").count() == 8
    _shot(page, artifacts, f"{tag}-05-ratings")
    assert not errors, errors
