"""Steps the browser tests take as a player would, written once."""
from __future__ import annotations

import re


def enter_ron_by_han_and_fu(page, winner: int, discarder: int, han: int, fu: int | None = None) -> None:
    """From the scoreboard: record a ron by seat numbers, entered as han (and fu) rather than tiles."""
    page.click("[data-test=record-hand]")
    page.click(f"[data-test=winner{winner}]")
    page.click("[data-test=ron]")
    page.click(f"[data-test=discarder{discarder}]")
    page.click("[data-test=mode-hanfu]")
    page.fill("[data-test=han]", str(han))
    if fu is not None:
        page.select_option("[data-test=fu]", str(fu))


def start_game(page, base: str | None, names, choices: dict[str, str] | None = None,
               follow_table: bool = False) -> str:
    """A session started from the new-session form as a player starts one: the form opened (at
    `base`; None: it is open already), `choices` picked (data-test -> option, in order: the rules
    first, as they change the seats), the players' names typed, the automatic table followed
    where asked; then the share page and the scoreboard. Returns the session's id."""
    if base is not None:
        page.goto(base + "/new")
    for field, option in (choices or {}).items():
        page.select_option(f"[data-test={field}]", option)
    for i, name in enumerate(names):
        page.fill(f"[data-test=player{i}]", name)
    if follow_table:
        page.check("[data-test=uses-table]")
    page.click("[data-test=create]")
    page.wait_for_selector("[data-test=join-code]")
    page.click("[data-test=to-scoreboard]")
    page.wait_for_selector("[data-test=scoreboard]")
    return re.search(r"/s/([^/]+)$", page.url).group(1)


def arrived(page, selector: str) -> None:
    """Wait for the page a click opened: its `selector`, then its load event, so its stylesheet
    is applied before anything is measured. A click that navigates returns when the new page has
    begun, and an element can be found before the stylesheet that places it has loaded."""
    page.wait_for_selector(selector)
    page.wait_for_load_state("load")


def assert_fits(page, screen: dict, what: str) -> None:
    """The page is no wider than the screen (a pixel for rounding): nothing to scroll sideways.
    Measured once the page's stylesheet has loaded (an unstyled page is as wide as its widest
    line)."""
    page.wait_for_load_state("load")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= screen["viewport"]["width"] + 1, f"{what} runs {width}px wide"


def start_club(page, name: str, members) -> str:
    """From the clubs page: a club started and its members added one by one, as a manager types
    them; the page stays on the club. Returns the club page's address."""
    page.fill("[data-test=new-club] input[name=name]", name)
    page.click("[data-test=new-club] button")
    page.wait_for_selector("[data-test=club-code]")
    club_url = page.url
    for member in members:
        page.fill("[data-test=add-member] input[name=name]", member)
        page.click("[data-test=add-member] button")
        page.wait_for_selector(f"[data-test=members] a:has-text('{member}')")
    return club_url
