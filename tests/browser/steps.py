"""Steps the browser tests take as a player would, written once."""
from __future__ import annotations


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
