"""Settlement page and PDF, the PDF writer, the chart geometry and the tile pictures."""
from __future__ import annotations

import re
import zlib

import pytest

from webui.chart import score_chart
from webui.pdf import Page, render, runs, text_width
from webui.tileart import ALL_KINDS, BONUS_KINDS, face, tile_svg

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


def _pdf_objects(data: bytes) -> dict[int, int]:
    xref = int(re.search(rb"startxref\n(\d+)\n%%EOF", data).group(1))
    assert data[xref:xref + 4] == b"xref"
    count = int(re.match(rb"xref\n0 (\d+)\n", data[xref:]).group(1))
    offsets = re.findall(rb"(\d{10}) 00000 n ", data[xref:])
    assert len(offsets) == count - 1
    return {i + 1: int(o) for i, o in enumerate(offsets)}


def _page_text(data: bytes) -> bytes:
    streams = re.findall(rb"stream\n(.*?)\nendstream", data, re.S)
    return b"\n".join(zlib.decompress(s) for s in streams)


def test_settlement_pdf_is_one_valid_a4_page(client):
    session_id, _, token = new_session(client, player0="山田")
    _play(client, token, session_id)
    response = client.get(f"/s/{session_id}/settle.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert "attachment" in response.headers["Content-Disposition"]
    data = response.data
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    for number, offset in _pdf_objects(data).items():
        assert data[offset:].startswith(f"{number} 0 obj".encode())
    assert data.count(b"/Type /Page ") == 1 and b"/MediaBox [0 0 595.28 841.89]" in data
    text = _page_text(data)
    assert b"(Ben)" in text and b"(Who pays whom)" in text
    assert "山田" in _shown_text(data)                                    # the CJK name
    assert text.count(b" l ") >= 8                                       # the chart's vector lines


def _objects(data: bytes) -> dict[int, bytes]:
    return {int(n): body for n, body in re.findall(rb"(\d+) 0 obj\n(.*?)\nendobj\n", data, re.S)}


def _stream(body: bytes) -> bytes:
    return zlib.decompress(re.search(rb"stream\n(.*)\nendstream", body, re.S).group(1))


def _wide_font(data: bytes) -> tuple[dict[int, bytes], bytes]:
    """(all objects, the Type 0 font the page's /F3 names)."""
    objects = _objects(data)
    page = next(body for body in objects.values() if b"/Type /Page " in body)
    return objects, objects[int(re.search(rb"/F3 (\d+) 0 R", page).group(1))]


def _wide_runs(data: bytes) -> list[str]:
    """The hex strings shown in the CJK font (bold ones are stroked as well: `2 Tr`)."""
    found = re.findall(rb"/F3 [\d.]+ Tf (?:2 Tr [\d.]+ w )?<([0-9A-F]+)>", _page_text(data))
    return [run.decode() for run in found]


def _glyph_codes(run: str) -> list[int]:
    return [int(run[i:i + 4], 16) for i in range(0, len(run), 4)]


def _shown_text(data: bytes) -> str:
    """The CJK text the page shows, read back as a viewer would: through the font's ToUnicode
    map when it is embedded, as UCS-2 when it is the font by reference."""
    objects, font = _wide_font(data)
    if b"/Identity-H" not in font:
        return " ".join(bytes.fromhex(run).decode("utf-16-be") for run in _wide_runs(data))
    cmap = _stream(objects[int(re.search(rb"/ToUnicode (\d+) 0 R", font).group(1))]).decode("latin-1")
    back = {int(glyph, 16): bytes.fromhex(text).decode("utf-16-be")
            for glyph, text in re.findall(r"<([0-9A-F]{4})> <([0-9A-F]+)>", cmap)}
    return " ".join("".join(back[code] for code in _glyph_codes(run)) for run in _wide_runs(data))


def test_japanese_pdf_embeds_the_glyphs_it_shows(client, tmp_path):
    """With the Japanese UI, names and labels show in any PDF viewer: the CJK font is embedded
    (a subset: only the glyphs used are drawn), every glyph shown is in it, none is the font's
    missing-glyph box, and the text reads back (copy, search) through its ToUnicode map."""
    from webui import truetype
    from webui.pdf_fonts import cjk_font

    if cjk_font() is None:
        pytest.skip("no CJK TrueType font on this machine (apt-get install fonts-ipafont-gothic)")
    session_id, _, token = new_session(client, player0="山田", player1="鈴木花子")
    _play(client, token, session_id)
    client.set_cookie("lang", "ja")
    data = client.get(f"/s/{session_id}/settle.pdf").data
    objects, font = _wide_font(data)
    assert b"/Subtype /Type0" in font and b"/Encoding /Identity-H" in font and b"/ToUnicode" in font
    cid = objects[int(re.search(rb"/DescendantFonts \[(\d+) 0 R\]", font).group(1))]
    assert b"/Subtype /CIDFontType2" in cid and b"/CIDToGIDMap /Identity" in cid
    descriptor = objects[int(re.search(rb"/FontDescriptor (\d+) 0 R", cid).group(1))]
    program = _stream(objects[int(re.search(rb"/FontFile2 (\d+) 0 R", descriptor).group(1))])
    assert re.search(rb"/FontName /[A-Z]{6}\+", descriptor)                    # marked as a subset
    (tmp_path / "subset.ttf").write_bytes(program)
    subset = truetype.load(str(tmp_path / "subset.ttf"))
    shown = {code for run in _wide_runs(data) for code in _glyph_codes(run)}
    assert shown and 0 not in shown
    assert all(subset._glyph_data(g) for g in shown)                            # drawn, not blank
    assert len(program) < len(open(cjk_font().path, "rb").read()) / 10          # a subset, not the font
    text = _shown_text(data)
    for words in ("山田", "鈴木花子", "精算", "最終結果", "支払い", "対局ログ"):
        assert words in text, words


def test_the_subset_keeps_glyph_numbers_and_a_valid_checksum(tmp_path):
    import struct

    from webui import truetype
    from webui.pdf_fonts import cjk_font

    font = cjk_font()
    if font is None:
        pytest.skip("no CJK TrueType font on this machine (apt-get install fonts-ipafont-gothic)")
    chars = {font.glyph(c): c for c in "点棒"}
    program = font.subset(chars, chars)
    (tmp_path / "s.ttf").write_bytes(program)
    subset = truetype.load(str(tmp_path / "s.ttf"))
    assert len(subset.advances) == len(font.advances)                           # same numbering
    assert {subset.glyph(c) for c in "点棒"} == set(chars) and subset.glyph("麻") == 0
    assert all(subset._glyph_data(g).rstrip(b"\0") == font._glyph_data(g).rstrip(b"\0") for g in chars)
    assert not subset._glyph_data(font.glyph("麻"))                              # not used: emptied
    padded = program + b"\0" * (-len(program) % 4)
    assert sum(struct.unpack(f">{len(padded) // 4}I", padded)) & 0xFFFFFFFF == 0xB1B0AFBA


def test_without_a_cjk_font_the_pdf_refers_to_one_and_the_log_says_what_to_install(monkeypatch, caplog):
    from webui import pdf_fonts

    assert pdf_fonts.find_cjk_font([("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0),
                                    ("/nowhere/font.ttf", 0)]) is None          # no kana there
    monkeypatch.setattr(pdf_fonts, "search_places", lambda: [])
    monkeypatch.setenv(pdf_fonts.ENV, "/nowhere/at/all.ttf")                    # a new cache key
    with caplog.at_level("WARNING", logger="tenbou.pdf"):
        assert pdf_fonts.cjk_font() is None
    assert "apt-get install fonts-ipafont-gothic" in caplog.text
    page = Page(cjk=None)
    page.text(10, 20, "山田 +1,000", 10, bold=True)
    data = render([page])
    assert b"/BaseFont /HeiseiKakuGo-W5 /Encoding /UniJIS-UCS2-H" in data and b"/FontFile2" not in data
    assert _shown_text(data) == "山田"
    pdf_fonts._cached.cache_clear()


def test_pdf_writer_escapes_and_splits_runs():
    page = Page()
    page.text(10, 20, "a (tricky) \\ line — 5·2", 10)
    page.text(10, 40, "Aki 東 1", 10, align="right")
    page.line(0, 0, 10, 10)
    page.rect(1, 1, 5, 5, fill="#ff0000", stroke="#000000")
    data = render([page, Page()], "テスト")
    assert data.count(b"/Type /Page ") == 2
    text = _page_text(data)
    assert rb"(a \(tricky\) \\ line \227 5\2672)" in text
    assert runs("Aki 東 1") == [(True, "Aki "), (False, "東"), (True, " 1")]
    assert text_width("10", 10) == pytest.approx(11.12)


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
