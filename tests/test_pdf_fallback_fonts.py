"""A character the settlement PDF's chosen CJK font lacks (a simplified Chinese or Korean name
with a Japanese font chosen) is drawn by another CJK font of the machine, embedded beside it,
never as the missing-glyph box."""
from __future__ import annotations

import os

import pytest

from webui.printing import fonts
from webui.printing.pdf import Page

from tests import pdf_text
from tests.test_web_settle import _play
from tests.test_web_support import app, client, new_session  # noqa: F401

TRADITIONAL = "/usr/share/fonts/truetype/arphic-bkai00mp/bkai00mp.ttf"   # Big5: 張, no 张, no Hangul
SIMPLIFIED = "/usr/share/fonts/truetype/arphic-gkai00mp/gkai00mp.ttf"    # GB 2312: 张, no 張, no Hangul
BROAD = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"                   # 张 and Hangul too


def test_each_character_is_drawn_by_the_first_font_that_has_it():
    if not all(os.path.isfile(p) for p in (TRADITIONAL, SIMPLIFIED, BROAD)):
        pytest.skip("needs the Debian fonts fonts-arphic-bkai00mp, fonts-arphic-gkai00mp and fonts-wqy-zenhei")
    traditional = fonts.usable_font(TRADITIONAL, 0, "張")
    chain = fonts.Fallbacks([(TRADITIONAL, 0), ("/nowhere.ttf", 0), (SIMPLIFIED, 0), (BROAD, 0)])
    page = Page(traditional, chain)
    # Hangul first: the broad font is added before the simplified one, yet 张 is still drawn
    # by the simplified font, which comes first in the search
    page.text(10, 20, "김민준 張 张伟 +1,000", 10, bold=True)
    page.text(300, 40, "张", 10, align="right")
    shown = [(base.split("+")[-1], text) for base, text in pdf_text.shown(page.render())]
    assert [text for _, text in shown] == ["김민준", " ", "張", " ", "张伟", " +1,000", "张"]
    used = [base for base, _ in shown]
    assert used[5] == "Helvetica-Bold"
    assert used[4] == used[6] not in (used[0], used[2]) and used[0] != used[2]
    assert chain.font_for("张", traditional).path == SIMPLIFIED
    assert chain.font_for("김", traditional).path == BROAD
    assert chain.font_for("😀", traditional) is None      # no font has it...
    page = Page(traditional, chain)
    page.text(10, 60, "😀 張", 10)                         # ...and the page is still made
    assert "張" in pdf_text.text(page.render()).splitlines()


def test_a_character_no_font_has_does_not_lose_the_fonts_for_the_next():
    if not all(os.path.isfile(p) for p in (TRADITIONAL, SIMPLIFIED)):
        pytest.skip("needs the Debian fonts fonts-arphic-bkai00mp and fonts-arphic-gkai00mp")
    traditional = fonts.usable_font(TRADITIONAL, 0, "張")
    chain = fonts.Fallbacks([(SIMPLIFIED, 0)])
    assert chain.font_for("😀", traditional) is None       # every place tried for it...
    assert chain.font_for("张", traditional).path == SIMPLIFIED   # ...and still there for 张


def test_settlement_pdf_shows_simplified_chinese_and_korean_names(client):
    if fonts.cjk_font() is None:
        pytest.skip("no CJK TrueType font on this machine (apt-get install fonts-ipafont-gothic)")
    if not any(fonts.usable_font(path, face, "张김") for path, face in fonts.fallback_places()):
        pytest.skip("no font on this machine has both simplified Chinese and Hangul (apt-get install fonts-wqy-zenhei)")
    session_id, _, token = new_session(client, player0="张伟", player1="김민준", player2="佐藤")
    _play(client, token, session_id)
    lines = pdf_text.text(client.get(f"/s/{session_id}/settle.pdf").data).splitlines()
    assert {"张伟", "김민준", "佐藤"} <= set(lines[lines.index("Final table"):lines.index("Who pays whom")])
