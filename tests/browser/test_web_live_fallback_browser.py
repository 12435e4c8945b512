"""A scoreboard refused a live stream (the server has none to spare) still follows the game:
static/live.js falls back to polling the state. Waits are guards, nothing is timed."""
from __future__ import annotations

import http.client

from tests.browser.serving import serving
from tests.test_web_support import WIN_HAKU_TSUMO, new_session, post_event


def test_a_tv_refused_a_stream_polls_and_still_shows_the_hand(browser, tmp_path):
    from webui import create_app

    # one stream, which lasts the whole test however slow the machine
    app = create_app({"DATA_DIR": str(tmp_path), "SECRET_KEY": "browser-tests", "SSE_STREAMS": 1,
                      "SSE_LIFETIME": 3600.0})
    phone = app.test_client()
    session_id, _, token = new_session(phone)
    with serving(app, threads=8) as base:
        host, port = base.removeprefix("http://").split(":")
        taken = http.client.HTTPConnection(host, int(port), timeout=20)     # the one stream there is
        taken.request("GET", f"/live/{session_id}")
        held = taken.getresponse()
        assert held.status == 200
        context = browser.new_context()
        try:
            tv = context.new_page()
            refused = []
            tv.on("response", lambda r: refused.append(r.status) if "/live/" in r.url else None)
            tv.goto(f"{base}/s/{session_id}/tv")
            tv.wait_for_selector("[data-field=link].online", timeout=10_000)   # online by polling
            assert refused == [503]
            assert post_event(phone, session_id, token, {"type": "win", "winner": 0, "tsumo": True,
                                                          "hand": WIN_HAKU_TSUMO}).status_code == 201
            tv.wait_for_selector("[data-live][data-events='1']", state="attached", timeout=10_000)
            scores = tv.eval_on_selector_all("[data-field=score]", "els => els.map(e => Number(e.textContent))")
            assert scores[0] > 25000 and sum(scores) == 100000
        finally:
            context.close()
            held.close()
            taken.close()
