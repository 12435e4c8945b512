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
    assert "山田".encode("utf-16-be").hex().upper().encode() in text     # the CJK name, as UTF-16 hex
    assert text.count(b" l ") >= 8                                       # the chart's vector lines


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
