"""The automatic table's panel in a browser, on a phone (390x844) and a desk screen (1920x1080),
with the table's monitor fed as its reader feeds it (no table attached): a session started
without following the table never shows it, the one that follows it does, and taking the
table's numbers first shows each seat's score now and the table's, recording only once the
player confirms. Classical Chinese and Fundamentals do not offer to follow a table at all.
Screenshots in artifacts/browser/table-follow-*.png."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.serving import serving
from tests.browser.steps import start_game
from tests.browser.test_web_browser import shown_scores
from tests.browser.test_web_rulesets_browser import SCREENS

# another game's sticks, as the demo's table showed them (issue 24)
TABLE = [24000, 25600, 29000, 21400]


@pytest.fixture
def fed_table(tmp_path):
    """(base URL, set_table(points)): the app with a table monitor fed by hand."""
    from device.events import LinkEvent, StateEvent
    from device.frames import Snapshot

    from webui import create_app

    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "t", "TABLE_PORT": "loop://", "TABLE_START": False,
                      "SSE_HEARTBEAT": 2.0})
    monitor = app.extensions["tenbou.table"]

    def set_table(points: list[int]) -> None:
        monitor.on_event(LinkEvent("live"))
        monitor.on_event(StateEvent(Snapshot(tuple(points), "E2", 0, 0, 2, (False,) * 4), settled=True))

    with serving(app, threads=8) as base:
        yield base, set_table


def _new_session(page, base: str, follow: bool, rules: str = "riichi") -> str:
    return start_game(page, base, ["Aki", "Ben", "Chiyo", "Dan"], {"rules": rules}, follow_table=follow)


def _shot(page, artifacts: Path, tag: str, name: str) -> None:
    page.screenshot(path=str(artifacts / f"table-follow-{tag}-{name}.png"), full_page=True)


@pytest.mark.parametrize("screen", SCREENS)
def test_only_the_session_at_the_table_offers_its_numbers_and_asks_first(fed_table, phone_or_desk, artifacts, screen):
    base, set_table = fed_table
    page, errors = phone_or_desk(screen)
    tag = "phone" if screen["viewport"]["width"] < 500 else "desk"
    set_table(TABLE)

    # a session started without "follow the automatic table": no panel, no way to its numbers
    plain = _new_session(page, base, follow=False)
    page.wait_for_selector("[data-field=link].online")
    assert page.locator("[data-test=table-panel]").count() == 0
    assert page.locator("[data-test=accept-table]").count() == 0
    assert shown_scores(page, "[data-seat] [data-field=score]") == [25000] * 4
    _shot(page, artifacts, tag, "01-plain-session")

    # the session that follows the table: the panel, its disagreement, and the button
    followed = _new_session(page, base, follow=True)
    page.wait_for_selector("[data-test=table-panel]")
    page.wait_for_selector("[data-test=accept-table]:visible", timeout=10000)
    assert "disagree" in page.inner_text("[data-test=table-verdict]")
    _shot(page, artifacts, tag, "02-following-session")

    # one tap asks first: each seat's score now and the table's, nothing recorded yet
    page.click("[data-test=accept-table]")
    page.wait_for_selector("[data-test=table-confirm]")
    rows = [page.inner_text(f"[data-test=table-change{i}]").split() for i in range(4)]
    assert rows == [["Aki", "25000", "24000", "-1000"], ["Ben", "25000", "25600", "+600"],
                    ["Chiyo", "25000", "29000", "+4000"], ["Dan", "25000", "21400", "-3600"]]
    width = screen["viewport"]["width"]
    for button in ("[data-test=confirm-table]", "[data-test=keep-scores]"):
        box = page.locator(button).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (button, box)
    _shot(page, artifacts, tag, "03-confirmation")
    events = page.request.get(f"{base}/api/sessions/{followed}/events").json()
    assert events == []

    # keeping the recorded scores changes nothing; confirming takes the table's numbers
    page.click("[data-test=keep-scores]")
    page.wait_for_selector("[data-test=scoreboard]")
    assert shown_scores(page, "[data-seat] [data-field=score]") == [25000] * 4
    page.click("[data-test=accept-table]")
    page.click("[data-test=confirm-table]")
    page.wait_for_selector("text=Recorded.")
    assert shown_scores(page, "[data-seat] [data-field=score]") == TABLE
    page.locator("[data-test=table-verdict]", has_text=re.compile(r"agree\.")).wait_for()
    _shot(page, artifacts, tag, "04-taken")

    # the first session still knows nothing of the table
    page.goto(f"{base}/s/{plain}")
    page.wait_for_selector("[data-field=link].online")
    assert page.locator("[data-test=table-panel]").count() == 0
    assert shown_scores(page, "[data-seat] [data-field=score]") == [25000] * 4

    # classical Chinese (starting at 0) and Fundamentals (at 20) are not offered the table
    page.goto(base + "/new")
    assert page.locator("[data-test=uses-table]").is_visible()
    for rules in ("chinese-classical", "fundamentals"):
        page.select_option("[data-test=rules]", rules)
        assert not page.locator("[data-test=uses-table]").is_visible()
    _shot(page, artifacts, tag, "05-new-fundamentals")
    chinese = _new_session(page, base, follow=False, rules="chinese-classical")
    page.wait_for_selector("[data-field=link].online")
    assert page.locator("[data-test=table-panel]").count() == 0
    assert chinese and errors == []
