"""A character the settlement PDF's chosen CJK font lacks (a simplified Chinese or Korean name
with a Japanese font chosen) is drawn by another CJK font of the machine, embedded beside it,
never as the missing-glyph box."""
from __future__ import annotations

import os
import re

import pytest

from webui import pdf, pdf_fonts
from webui.pdf import Page, render

from tests.test_web_settle import _objects, _play, _stream
from tests.test_web_support import app, client, new_session  # noqa: F401

TRADITIONAL = "/usr/share/fonts/truetype/arphic-bkai00mp/bkai00mp.ttf"   # Big5: 張, no 张, no Hangul
SIMPLIFIED = "/usr/share/fonts/truetype/arphic-gkai00mp/gkai00mp.ttf"    # GB 2312: 张, no 張, no Hangul
BROAD = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"                   # Hangul too


def _shown(data: bytes) -> list[tuple[str, str]]:
    """(base font name, text) for every wide run the pages show, read back through each
    embedded font's ToUnicode map, as a viewer copies text."""
    objects = _objects(data)
    page = next(body for body in objects.values() if b"/Type /Page " in body)
    resources = {name.decode(): objects[int(number)]
                 for name, number in re.findall(rb"/(F\d+) (\d+) 0 R", page) if name not in (b"F1", b"F2")}
    text = b"\n".join(_stream(body) for body in objects.values() if b"stream\n" in body and b"/Length1" not in body
                      and b"/Type /Font" not in body).decode("latin-1")
    out = []
    for name, run in re.findall(r"/(F\d+) [\d.]+ Tf (?:2 Tr [\d.]+ w )?<([0-9A-F]+)>", text):
        font = resources[name]
        cmap = _stream(objects[int(re.search(rb"/ToUnicode (\d+) 0 R", font).group(1))]).decode("latin-1")
        back = {int(g, 16): bytes.fromhex(t).decode("utf-16-be") for g, t in re.findall(r"<([0-9A-F]{4})> <([0-9A-F]+)>", cmap)}
        codes = [int(run[i:i + 4], 16) for i in range(0, len(run), 4)]
        assert 0 not in codes, f"{name} shows the missing-glyph box"
        base = re.search(rb"/BaseFont /[A-Z]{6}\+(\S+)", font).group(1).decode()
        out.append((base, "".join(back[c] for c in codes)))
    return out


def test_each_character_is_drawn_by_the_first_font_that_has_it(monkeypatch):
    if not all(os.path.isfile(p) for p in (TRADITIONAL, SIMPLIFIED, BROAD)):
        pytest.skip("needs the Debian fonts fonts-arphic-bkai00mp, fonts-arphic-gkai00mp and fonts-wqy-zenhei")
    traditional = pdf_fonts.usable_font(TRADITIONAL, 0, "張")
    chain = pdf_fonts.Fallbacks([(TRADITIONAL, 0), ("/nowhere.ttf", 0), (SIMPLIFIED, 0), (BROAD, 0)])
    monkeypatch.setattr(pdf, "fallbacks", lambda: chain)
    page = Page(cjk=traditional)
    page.text(10, 20, "張 张伟 김민준 +1,000", 10, bold=True)
    page.text(10, 40, "张", 10, align="right")
    shown = _shown(render([page]))
    fonts = [base for base, _ in shown]
    assert [text for _, text in shown] == ["張", "张伟", "김민준", "张"]
    assert fonts[0] == traditional.name and fonts[1] == fonts[3] != fonts[0] and fonts[2] not in fonts[:2]
    assert page.font_for("张").path == SIMPLIFIED and page.font_for("김").path == BROAD
    assert page.font_for("😀") is traditional        # no font has it: the chosen one's box, not a crash


def test_a_character_no_font_has_does_not_lose_the_fonts_for_the_next(monkeypatch):
    if not all(os.path.isfile(p) for p in (TRADITIONAL, SIMPLIFIED)):
        pytest.skip("needs the Debian fonts fonts-arphic-bkai00mp and fonts-arphic-gkai00mp")
    traditional = pdf_fonts.usable_font(TRADITIONAL, 0, "張")
    chain = pdf_fonts.Fallbacks([(SIMPLIFIED, 0)])
    assert chain.font_for("😀", traditional) is None       # every place tried for it...
    assert chain.font_for("张", traditional).path == SIMPLIFIED   # ...and still there for 张


def test_settlement_pdf_shows_simplified_chinese_and_korean_names(client):
    if pdf_fonts.cjk_font() is None:
        pytest.skip("no CJK TrueType font on this machine (apt-get install fonts-ipafont-gothic)")
    if not any(pdf_fonts.usable_font(path, face, "张김") for path, face in pdf_fonts.fallback_places()):
        pytest.skip("no font on this machine has both simplified Chinese and Hangul (apt-get install fonts-wqy-zenhei)")
    session_id, _, token = new_session(client, player0="张伟", player1="김민준")
    _play(client, token, session_id)
    shown = "".join(text for _, text in _shown(client.get(f"/s/{session_id}/settle.pdf").data))
    assert "张伟" in shown and "김민준" in shown
