"""The lobby's cycling TV in a browser (issue 18): two live tables shown in turn, a hand recorded
on the shown one drawn at once, tables that start and end picked up, and the words while none
is live; the lobby page and the TV at 1920x1080 and 390x844, saved under the test's tmp_path."""
from __future__ import annotations

import time

from tests.browser.test_web_browser import PHONE, TV
from tests.test_web_support import new_session, post_event, state

RON = {"type": "win", "winner": 1, "discarder": 0, "hand": {"concealed": "234m456p678s22z555z", "win_tile": "2z"}}
BOARD = "[data-field=board]"
LIST_S = 20       # tv-cycle.js reads the table list again this often


def _played(phone, token: str, **form) -> str:
    """A new session with something recorded, as the lobby lists only tables being played: a
    correction to the scores it already has (nothing moves, the log has an entry)."""
    session_id, _, _ = new_session(phone, **form)
    scores = state(phone, session_id)["scores"]
    assert post_event(phone, session_id, token, {"type": "correction", "scores": scores}).status_code == 201
    return session_id


def _shown(page) -> str | None:
    return page.get_attribute(BOARD, "data-session")


def _watch(page, wanted: set[str], seconds: float) -> list[str]:
    """The tables the board shows, in order, until every one of `wanted` was seen (or time is up)."""
    seen: list[str] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not wanted <= set(seen):
        now = _shown(page)
        if now and (not seen or seen[-1] != now):
            seen.append(now)
        page.wait_for_timeout(200)
    return seen


def _open(browser, screen: dict, url: str):
    page = browser.new_context(**screen).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # CSP refusals are console errors; a failed load is told by its response (the favicon is none of ours)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400
            and not r.url.endswith("/favicon.ico") else None)
    page.goto(url)
    return page, errors


def _seated(page, screen: dict, seats: int) -> None:
    """The board on screen seats its players around the table as the one table's TV does: seat
    0's side at the bottom, the next to play on the right, across at the top, the one before on
    the left; three players sit bottom, right and left, with no empty box. All within the screen."""
    ring = page.locator(f"{BOARD} [data-test=table-ring]")
    assert ring.get_attribute("class").split() == ["table-ring", f"table-ring-{seats}"]
    places = ("bottom", "right", "top", "left") if seats == 4 else ("bottom", "right", "left")
    assert page.eval_on_selector_all(f"{BOARD} .seat", "els => els.map(e => e.dataset.at)") == list(places)
    # nothing in the ring but the seats and the middle: no empty seat box, and every seat named
    assert ring.evaluate("r => Array.from(r.children).map(c => c.className.split(' ')[0])") == ["seat"] * seats + ["table-centre"]
    assert all(name.strip() for name in page.locator(f"{BOARD} .seat .name").all_text_contents())
    box = {at: page.locator(f"{BOARD} [data-at={at}]").bounding_box() for at in places}
    middle = page.locator(f"{BOARD} .table-centre").bounding_box()
    centre = {at: (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2) for at, b in {**box, "centre": middle}.items()}
    assert centre["bottom"][1] > centre["left"][1] and centre["bottom"][1] > centre["right"][1]
    assert centre["right"][0] > centre["bottom"][0] > centre["left"][0]
    assert abs(centre["left"][1] - centre["right"][1]) < 2           # the two sides face each other
    assert centre["bottom"][1] > centre["centre"][1]                  # the round between the players, above the TV's side
    if seats == 4:
        assert centre["left"][1] > centre["top"][1] and centre["right"][0] > centre["top"][0] > centre["left"][0]
    size = screen["viewport"]
    for at, b in box.items():
        assert b["width"] > 0 and b["height"] > 0, (at, b)
        assert b["x"] >= 0 and b["x"] + b["width"] <= size["width"] and b["y"] + b["height"] <= size["height"], (at, b)
    for at, b in box.items():       # no seat over another
        for other, c in box.items():
            if at < other:
                apart = (b["x"] + b["width"] <= c["x"] or c["x"] + c["width"] <= b["x"]
                         or b["y"] + b["height"] <= c["y"] or c["y"] + c["height"] <= b["y"])
                assert apart, (at, b, other, c)


def test_the_tv_cycles_through_live_tables_and_follows_them(browser, server, tmp_path):
    base, app = server
    shots = tmp_path / "shots"
    shots.mkdir()
    phone = app.test_client()
    four, _, token = new_session(phone, title="Table A")
    assert post_event(phone, four, token, {"type": "correction", "scores": [25000] * 4}).status_code == 201
    three = _played(phone, token, title="Table B <b>three</b>", player0="<b>Ben</b>", player3="", uma="")

    # the lobby page on both screens
    for name, screen in (("desk", TV), ("phone", PHONE)):
        page, errors = _open(browser, screen, base + "/lobby")
        assert page.locator("[data-test=lobby-table]").count() == 2
        page.screenshot(path=str(shots / f"lobby-{name}.png"), full_page=True)
        assert not errors, errors
        page.context.close()

    # the cycling TV: both tables within one switch and a bit (5 s a table)
    desk, desk_errors = _open(browser, TV, base + "/lobby/tv?every=5")
    seen = _watch(desk, {four, three}, 12)
    assert {four, three} <= set(seen), seen
    assert seen[0] == three                     # the newest first
    desk.wait_for_selector(f"{BOARD}[data-session='{three}']", timeout=8000)
    assert desk.locator(".seat .name").first.text_content() == "<b>Ben</b>"      # typed text, not markup
    assert desk.locator(".seat .name b").count() == 0 and desk.locator(".seat").count() == 3
    _seated(desk, TV, 3)
    desk.screenshot(path=str(shots / "tv-desk-three.png"))
    desk.wait_for_selector(f"{BOARD}[data-session='{four}']", timeout=8000)
    assert desk.locator(".seat").count() == 4
    _seated(desk, TV, 4)
    desk.screenshot(path=str(shots / "tv-desk-four.png"))

    # a phone TV that stays on one table: a hand recorded there is drawn while it is shown
    tv, tv_errors = _open(browser, PHONE, base + "/lobby/tv?every=300")
    tv.wait_for_selector(f"{BOARD} .link-state.online", timeout=10_000)
    assert _shown(tv) == three
    post_event(phone, three, token, {"type": "riichi", "seat": 1})
    tv.wait_for_selector(f"{BOARD}[data-events='2'] .seat.in-riichi", timeout=10_000)
    assert _shown(tv) == three
    _seated(tv, PHONE, 3)
    tv.screenshot(path=str(shots / "tv-phone.png"))
    # a phone TV that comes round to the four-seat table seats it around the table too
    turn, turn_errors = _open(browser, PHONE, base + "/lobby/tv?every=5")
    turn.wait_for_selector(f"{BOARD}[data-session='{four}']", timeout=12_000)
    _seated(turn, PHONE, 4)
    turn.screenshot(path=str(shots / "tv-phone-four.png"))
    assert not turn_errors, turn_errors
    turn.context.close()
    # and the desk's board of the four-seat table follows its hand while that table is shown
    desk.wait_for_selector(f"{BOARD}[data-session='{four}']", timeout=12_000)
    assert post_event(phone, four, token, RON).status_code == 201
    desk.wait_for_selector(f"{BOARD}[data-session='{four}'][data-events='2']", timeout=4000)
    scores = desk.eval_on_selector_all(".seat .score", "els => els.map(e => Number(e.textContent))")
    assert scores == [23400, 26600, 25000, 25000]
    assert desk.locator(".seat .delta.up").text_content() == "+1600"
    # the hand in words in the table's middle, as the one table's TV (live.js) writes it: both
    # boards write it with board-text.js
    board_of = "() => { const b = document.querySelector('[data-field=board]'); return [b.dataset.session, b.dataset.events, b.querySelector('[data-field=last]').textContent]; }"
    desk.wait_for_selector(f"{BOARD}[data-session='{four}'][data-events='2']", timeout=12_000)
    shown_at, events_at, cycled = desk.evaluate(board_of)     # one look, so a switch cannot come between
    assert (shown_at, events_at) == (four, "2") and "Aki → Ben 1600" in cycled, (shown_at, cycled)
    one, one_errors = _open(browser, TV, f"{base}/s/{four}/tv")
    one.wait_for_selector("[data-field=link].online", timeout=10_000)
    one.wait_for_function("t => document.querySelector('[data-field=last]').textContent === t", arg=cycled, timeout=10_000)
    assert not one_errors, one_errors
    one.context.close()

    # a table that starts comes into the cycle, one that ends leaves it
    late = _played(phone, token, title="Table C")
    assert post_event(phone, three, token, {"type": "end"}).status_code == 201
    seen = _watch(desk, {late}, LIST_S + 12)
    assert late in seen, seen
    desk.wait_for_selector(".tv-cycle-count:has-text('of 2')", timeout=12_000)     # A and C

    # no table live: the TV says so, and keeps looking
    for session_id in (four, late):
        assert post_event(phone, session_id, token, {"type": "end"}).status_code == 201
    desk.wait_for_selector("[data-test=tv-empty]", state="visible", timeout=(LIST_S + 5) * 1000)
    assert desk.locator(BOARD).is_hidden()
    desk.screenshot(path=str(shots / "tv-desk-empty.png"))
    again = _played(phone, token, title="Table D")
    desk.wait_for_selector(f"{BOARD}[data-session='{again}']", timeout=(LIST_S + 5) * 1000)
    assert not desk_errors and not tv_errors, (desk_errors, tv_errors)
    print("screenshots:", shots)
    desk.context.close()
    tv.context.close()

