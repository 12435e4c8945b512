"""The tile detector on screenshots of Tenbou's own pages: text, buttons and tables, no tile.
A reader that finds tiles in a page with none would fill a hand with them."""
from __future__ import annotations

import cv2
import numpy as np
import pytest


@pytest.mark.parametrize("viewport", [(390, 844), (1920, 1080)], ids=["phone", "desktop"])
def test_no_tile_is_found_in_a_screenshot_of_the_app(browser, server, artifacts, viewport):
    from vision.detect import TileFinder

    base, _ = server
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    page.goto(base + "/")
    png = page.screenshot(path=str(artifacts / f"screenshot-for-detector-{viewport[0]}.png"))
    page.close()
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert TileFinder().find(image) == []
