"""Settlement page and PDF, the PDF page, the chart geometry and the tile pictures."""
from __future__ import annotations

import os
import re

import pytest

from webui.printing.chart import SEAT_COLOURS, score_chart
from webui.printing.fonts import cjk_font
from webui.printing.tile_art import ALL_KINDS, BONUS_KINDS, face, tile_svg

from tests import pdf_text
from tests.test_web_support import WIN_HAKU_TSUMO, app, client, new_session, post_event  # noqa: F401


def _play(client, token, session_id):
    post_event(client, session_id, token, {"type": "riichi", "seat": 1})
    post_event(client, session_id, token, {"type": "win", "winner": 1, "discarder": 3, "han": 2, "fu": 40})
    post_event(client, session_id, token, {"type": "win", "winner": 2, "tsumo": True, "hand": WIN_HAKU_TSUMO})


def test_settle_page_shows_table_payments_log_and_chart(client):
    session_id, _, token = new_session(client)
    _play(client, token, session_id)
    page = client.get(f"/s/{session_id}/settle").get_data(as_text=True)
    for text in ("Final table", "Who pays whom", "Dan pays", "<polyline", "Ben ron off Dan", "Chiyo tsumo",
                 "+20,000", "settle.pdf"):
        assert text in page, text
    assert page.count("<polyline") == 4


def test_settle_page_in_japanese(client):
    session_id, _, token = new_session(client, player0="山田")
    _play(client, token, session_id)
    page = client.get(f"/s/{session_id}/settle", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert "精算" in page and "支払い" in page and "山田" in page


def test_settlement_pdf_is_one_a4_page_with_table_payments_chart_and_log(client):
    session_id, _, token = new_session(client, player0="山田")
    _play(client, token, session_id)
    response = client.get(f"/s/{session_id}/settle.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert "attachment" in response.headers["Content-Disposition"]
    data = response.data
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert len(pdf_text.pages(data)) == 1 and b"/MediaBox [0 0 595.28 841.89]" in data
    lines = pdf_text.text(data).splitlines()
    for line in ("Settlement — Friday", "Final table", "Ben", "Dan", "Who pays whom", "Score chart",
                 "Hand log", "Ben ron off Dan · 2 han 40 fu · riichi: Ben", "Chiyo tsumo · 2 han 40 fu", "Tenbou"):
        assert line in lines, line
    assert any(line.startswith("Dan pays ") for line in lines)
    standings = lines[lines.index("Final table"):lines.index("Who pays whom")]
    assert {"Ben", "Chiyo", "Dan"} <= set(standings)
    first = standings.index("Chiyo") - 1                                  # place, name, points... money
    assert standings[first:first + 7] == ["1", "Chiyo", "27,700", "+15,000", "+20,000", "+32,700", "+32.70"]
    if cjk_font() is not None:
        assert "山田" in standings
    seats = [(stroke, points) for stroke, width, _, points in pdf_text.strokes(data) if width == 1.6]
    assert [stroke for stroke, _ in seats] == list(SEAT_COLOURS)        # a line per seat...
    assert all(len(points) == 3 for _, points in seats)                  # ...from the start through each hand
    ben, dan = seats[1][1], seats[3][1]
    assert ben[1][1] < ben[0][1] and dan[1][1] > dan[0][1]               # Ben's ron off Dan: up, down


def _cjk_fonts(data: bytes) -> list[tuple[bytes, dict[int, bytes]]]:
    found = pdf_text.objects(data)
    return [(font, found) for font in pdf_text.fonts(data).values() if b"/Subtype /Type0" in font]


def test_pdf_draws_uma_and_oka_only_where_the_rules_have_them(client):
    """The Fundamentals settle the points alone: the PDF's table, like the page's, has no uma
    or oka columns; riichi's has both."""
    session_id, _, token = new_session(client, rules="fundamentals", rate="0.5")
    assert post_event(client, session_id, token, {"type": "win", "winner": 0, "tsumo": True}).status_code == 201
    lines = pdf_text.text(client.get(f"/s/{session_id}/settle.pdf").data).splitlines()
    heads = lines[lines.index("Final table"):lines.index("Final table") + 8]
    assert "Uma" not in heads and "Oka" not in heads and "Result" in heads
    riichi, _, token = new_session(client)
    _play(client, token, riichi)
    lines = pdf_text.text(client.get(f"/s/{riichi}/settle.pdf").data).splitlines()
    assert {"Uma", "Oka"} <= set(lines[lines.index("Final table"):lines.index("Final table") + 8])


def test_japanese_pdf_embeds_the_glyphs_it_shows(client, tmp_path):
    """With the Japanese UI, names and labels show in any PDF viewer: the CJK font is embedded
    (a subset: only the glyphs used are kept), every character shown has an outline in it, and
    the text reads back (copy, search) through its ToUnicode map."""
    from fontTools.ttLib import TTFont

    if cjk_font() is None:
        pytest.skip("no CJK TrueType font on this machine (apt-get install fonts-ipafont-gothic)")
    session_id, _, token = new_session(client, player0="山田", player1="鈴木花子")
    _play(client, token, session_id)
    client.set_cookie("lang", "ja")
    data = client.get(f"/s/{session_id}/settle.pdf").data
    ((font, found),) = _cjk_fonts(data)
    assert b"/Encoding /Identity-H" in font and b"/ToUnicode" in font
    cid = found[int(re.search(rb"/DescendantFonts \[(\d+) 0 R\]", font).group(1))]
    assert b"/Subtype /CIDFontType2" in cid
    descriptor = found[int(re.search(rb"/FontDescriptor (\d+) 0 R", cid).group(1))]
    assert re.search(rb"/FontName /[A-Z]{6}\+", descriptor)                    # marked as a subset
    program = pdf_text.stream(found[int(re.search(rb"/FontFile2 (\d+) 0 R", descriptor).group(1))])
    assert len(program) < os.path.getsize(cjk_font().path) / 10               # a subset, not the font
    (tmp_path / "subset.ttf").write_bytes(program)
    subset = TTFont(str(tmp_path / "subset.ttf"))
    drawn = {chr(code) for code, name in subset.getBestCmap().items()
             if subset["glyf"][name].numberOfContours}                          # has an outline
    lines = pdf_text.text(data).splitlines()
    for words in ("山田", "鈴木花子", "精算", "最終結果", "支払い", "点数推移", "対局ログ"):
        assert words in lines, words
        assert set(words) <= drawn, words
    assert {"山田", "鈴木花子"} <= set(lines[lines.index("最終結果"):lines.index("支払い")])


def test_without_a_cjk_font_the_pdf_is_still_made_and_the_log_says_what_to_install(client, monkeypatch, caplog):
    from webui.printing import fonts

    dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    if os.path.isfile(dejavu):
        assert fonts.usable_font(dejavu, 0, "") is not None
        assert fonts.find_cjk_font([(dejavu, 0), ("/nowhere/font.ttf", 0)]) is None   # no kana there
    monkeypatch.setattr(fonts, "search_places", lambda: [])
    monkeypatch.setenv(fonts.ENV, "/nowhere/at/all.ttf")                    # a new cache key
    session_id, _, token = new_session(client, player0="山田")
    _play(client, token, session_id)
    try:
        with caplog.at_level("WARNING", logger="tenbou.pdf"):
            response = client.get(f"/s/{session_id}/settle.pdf")
    finally:
        fonts._cached.cache_clear()
    assert response.status_code == 200 and b"/FontFile2" not in response.data
    assert {base for base, _ in pdf_text.shown(response.data)} <= {"Helvetica", "Helvetica-Bold"}
    lines = pdf_text.text(response.data).splitlines()
    assert "??" in lines and "Ben" in lines                                   # 山田, printed as '?'
    assert "apt-get install fonts-ipafont-gothic" in caplog.text and "printed as '?'" in caplog.text


def test_page_sets_latin_in_helvetica_and_the_rest_in_the_cjk_font():
    from webui.printing.pdf import Page, latin_only, runs

    assert runs("Aki 東 1") == ["Aki ", "東", " 1"]
    assert latin_only("山田 — 5·2") == "?? — 5·2"
    font = cjk_font()
    if font is None:
        pytest.skip("no CJK TrueType font on this machine (apt-get install fonts-ipafont-gothic)")
    page = Page(font)
    page.text(10, 20, "a (tricky) \\ line — 5·2", 10)
    page.text(300, 40, "Aki 東 1", 10, bold=True, align="right")
    page.text(10, 900, "past the bottom", 10)                                # not a second page
    data = page.render("テスト")
    assert len(pdf_text.pages(data)) == 1
    shown = pdf_text.shown(data)
    assert shown[0] == ("Helvetica", "a (tricky) \\ line — 5·2")
    assert [base for base, _ in shown[1:4]] == ["Helvetica-Bold", shown[2][0], "Helvetica-Bold"]
    assert re.fullmatch(r"[A-Z]{6}\+\S+", shown[2][0])                        # the embedded subset
    assert [text for _, text in shown[1:4]] == ["Aki ", "東", " 1"]


def test_chart_scales_every_seat_inside_the_box():
    hands = [{"scores": [33000, 25000, 17000, 25000], "label": "East 1"},
             {"scores": [30000, 30000, 15000, 25000], "label": "East 2"}]
    chart = score_chart([25000] * 4, hands, width=300, height=120)
    assert len(chart.lines) == 4 and all(len(points) == 3 for _, points in chart.lines)
    ys = [y for _, points in chart.lines for _, y in points]
    xs = [x for _, points in chart.lines for x, _ in points]
    assert min(ys) >= 0 and max(ys) <= 120 and min(xs) >= 0 and max(xs) <= 300
    first = chart.lines[0][1]
    assert first[1][1] < first[0][1]                 # 33000 is drawn above 25000
    assert chart.baseline is not None and [label for _, label in chart.x_ticks] == ["East 1", "East 2"]
    assert score_chart([25000] * 4, []).lines[0][1] == [(44, score_chart([25000] * 4, []).lines[0][1][0][1])]


def test_every_tile_has_a_picture():
    for code in ALL_KINDS + BONUS_KINDS + ["back"]:
        svg = str(tile_svg(code))
        assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "#c8102e" in face("0p") and "#c8102e" not in face("5p").split("r=")[0]
    with pytest.raises(ValueError):
        face("8z")
