"""The tile detector on screenshots of Tenbou's own pages: text, buttons, forms and tables. A
reader that finds tiles in a page would fill a hand with them; the only tiles it may find are
the tile pictures the page really draws (the brand's white dragon)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest


@pytest.mark.parametrize("viewport", [(390, 844), (1920, 1080)], ids=["phone", "desktop"])
def test_no_tile_is_found_in_a_screenshot_of_the_app_but_its_tile_pictures(browser, server, artifacts, viewport):
    from vision.detect import TileFinder

    base, _ = server
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    page.goto(base + "/")
    png = page.screenshot(path=str(artifacts / f"screenshot-for-detector-{viewport[0]}.png"))
    pictures = [box for box in (el.bounding_box() for el in page.locator(".tile-svg").all()) if box]
    page.close()
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    for tile in TileFinder().find(image):
        cx, cy = (tile.box[0] + tile.box[2]) / 2, (tile.box[1] + tile.box[3]) / 2
        assert any(p["x"] <= cx <= p["x"] + p["width"] and p["y"] <= cy <= p["y"] + p["height"] for p in pictures), \
            f"a tile found at {tile.box}, where the page draws no tile"
