"""Issue 25, the club server under attack: join-code guessing that never locks the right code
out (several addresses, behind a proxy, on both databases), floods of new sessions and clubs,
a phone with 80 sessions, text no database can keep, and pages with codes kept by no cache."""
from __future__ import annotations

import logging

import pytest

from webui import create_app
from webui.guard.client_address import counted_as, forwarded_for, proxy_network
from webui.storage.throttle import JoinThrottle, TokenBuckets

from tests.test_web_support import csrf_of, new_session, session_form

EVENT = {"event": {"type": "riichi", "seat": 0}}


@pytest.fixture
def served(database_url, tmp_path):
    """An app on SQLite, then on PostgreSQL (shared throttle tables) where installed."""
    made = create_app({"DATA_DIR": str(tmp_path / "data"), "DATABASE_URL": database_url, "TESTING": True,
                       "SECRET_KEY": "test"})
    yield made
    made.extensions["tenbou.broker"].close()
    made.extensions["tenbou.db"].dispose()


def at(address: str) -> dict:
    return {"REMOTE_ADDR": address}


def join(client, session_id: str, code: str, address: str) -> int:
    return client.get(f"/s/{session_id}/join", query_string={"code": code}, environ_base=at(address)).status_code


# --- join codes -------------------------------------------------------------------------------

def test_a_guesser_is_slowed_at_its_target_only(served):
    first, first_code, _ = new_session(served.test_client())
    second, second_code, _ = new_session(served.test_client())
    guesser = served.test_client()
    assert [join(guesser, first, "WRONG1", "10.0.0.7") for _ in range(10)] == [403] * 10
    assert join(guesser, first, first_code, "10.0.0.7") == 429          # its own doing, at this target
    assert join(guesser, second, second_code, "10.0.0.7") == 302        # never another target's right code
    assert join(served.test_client(), first, first_code, "10.0.0.8") == 302   # nor a newcomer's


def test_four_guessing_addresses_never_keep_a_phone_with_the_right_code_out(served):
    session_id, code, _ = new_session(served.test_client())
    guessers = [f"192.168.1.{n}" for n in range(10, 14)]
    answered = refused = admitted = 0
    for round_ in range(15):
        for address in guessers:
            status = join(served.test_client(), session_id, f"WRNG{round_:02d}", address)
            answered += status == 403
            refused += status == 429
        admitted += join(served.test_client(), session_id, code, f"192.168.1.{100 + round_}") == 302
    assert admitted == 15                   # every newcomer, on the first try
    # the guessers together: the session's 30, and at most each address's first try besides
    assert 30 <= answered <= 30 + len(guessers) and refused == 60 - answered


def test_behind_a_trusted_proxy_each_phone_is_counted_by_its_own_address(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "SECRET_KEY": "t",
                      "TRUSTED_PROXIES": ["127.0.0.1"]})
    session_id, code, _ = new_session(app.test_client())
    through_proxy = app.test_client()               # the test client's peer is 127.0.0.1

    def via(forwarded: str, sent: str, peer: str = "127.0.0.1") -> int:
        return through_proxy.get(f"/s/{session_id}/join", query_string={"code": sent},
                                 headers={"X-Forwarded-For": forwarded}, environ_base=at(peer)).status_code
    assert [via("198.51.100.7", "WRONG1") for _ in range(10)] == [403] * 10
    assert via("198.51.100.7", code) == 429
    # what the client wrote to the left of what the proxy added is never read
    assert via("1.2.3.4, 198.51.100.7", code) == 429
    assert via("198.51.100.8", code) == 302         # another phone behind the same proxy
    # from a peer that is no proxy of ours the header is ignored: the peer is counted
    assert [via(f"203.0.113.{n}", "WRONG2", peer="10.0.0.5") for n in range(11)] == [403] * 10 + [429]


def test_the_client_address_is_read_from_trusted_proxies_only():
    proxies = (proxy_network("10.0.0.0/24"), proxy_network("127.0.0.1"))
    assert forwarded_for("127.0.0.1", "198.51.100.1", proxies) == "198.51.100.1"
    assert forwarded_for("127.0.0.1", "6.6.6.6, 198.51.100.1, 10.0.0.3", proxies) == "198.51.100.1"
    assert forwarded_for("192.0.2.1", "198.51.100.1", proxies) == "192.0.2.1"
    assert forwarded_for("127.0.0.1", None, proxies) == "127.0.0.1"
    assert counted_as("2001:db8:1:2:3:4:5:6") == counted_as("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    assert counted_as("::ffff:192.0.2.9") == "192.0.2.9" and counted_as("unknown") == "unknown"
    with pytest.raises(ValueError):
        proxy_network("a proxy")


def test_a_day_of_guessing_finds_no_code():
    """The arithmetic of docs/web.md: four addresses guessing at one table as fast as they are
    answered for a day are answered 5,796 times (ten each, then one a minute each): the code is
    found with a chance of 1 in 150,000, while a newcomer is answered at once all along."""
    now = [0.0]
    throttle = JoinThrottle(TokenBuckets(10, 60.0, clock=lambda: now[0]), TokenBuckets(30, 2.0, clock=lambda: now[0]))
    answered = 0
    for second in range(24 * 3600):
        now[0] = float(second)
        for guesser in ("a", "b", "c", "d"):
            if throttle.retry_after(guesser, "table") == 0:
                answered += 1
                throttle.wrong(guesser, "table")
        if second % 3600 == 0:
            assert throttle.retry_after(f"newcomer {second}", "table") == 0
    assert answered <= 4 * (10 + 24 * 60)
    assert answered / 31 ** 6 < 1e-5


# --- floods -----------------------------------------------------------------------------------

def test_one_address_starts_twenty_sessions_then_one_a_minute(served):
    flooder = served.test_client()
    token = csrf_of(flooder)
    made = [flooder.post("/api/sessions", json={"players": ["A", "B", "C"]}, headers={"X-CSRF-Token": token},
                         environ_base=at("10.9.0.1")).status_code for _ in range(20)]
    assert made == [201] * 20
    refused = flooder.post("/api/sessions", json={"players": ["A", "B", "C"]}, headers={"X-CSRF-Token": token},
                           environ_base=at("10.9.0.1"))
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert refused.get_json()["error"]["code"] == "creation_throttled"
    page = flooder.post("/new", data={"csrf_token": token, **session_form()}, environ_base=at("10.9.0.1"))
    assert page.status_code == 429 and "wait" in page.get_data(as_text=True)
    assert flooder.post("/new", data={"csrf_token": token, **session_form()},
                        environ_base=at("10.9.0.2")).status_code == 302


def test_one_address_starts_five_clubs_then_waits(served):
    flooder = served.test_client()
    token = csrf_of(flooder)
    answers = [flooder.post("/clubs", data={"csrf_token": token, "name": f"Club {n}"},
                            environ_base=at("10.9.1.1")).status_code for n in range(6)]
    assert answers == [302] * 5 + [429]


# --- the cookie ---------------------------------------------------------------------------------

def test_a_phone_with_eighty_sessions_keeps_the_newest_fifty_and_its_club(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "SECRET_KEY": "t"})
    phone = app.test_client()
    token = csrf_of(phone)
    club = phone.post("/clubs", data={"csrf_token": token, "name": "Home"}).headers["Location"].split("/")[-1]
    started = []
    for n in range(80):                 # from one address a minute apart, say: each its own here
        made = phone.post("/api/sessions", json={"players": ["A", "B", "C"]}, headers={"X-CSRF-Token": token},
                          environ_base=at(f"10.3.{n // 250}.{n % 250}"))
        started.append(made.get_json()["id"])
    shares = [phone.get(f"/s/{session_id}/share").status_code for session_id in started]
    assert shares == [403] * 30 + [200] * 50          # the newest fifty, whatever their ids
    assert 'data-test="club-code"' in phone.get(f"/c/{club}").get_data(as_text=True)


def test_a_phone_keeps_its_twenty_newest_clubs(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "SECRET_KEY": "t"})
    phone = app.test_client()
    token = csrf_of(phone)
    clubs = [phone.post("/clubs", data={"csrf_token": token, "name": f"Club {n}"},
                        environ_base=at(f"10.4.0.{n}")).headers["Location"].split("/")[-1] for n in range(25)]
    managed = ['data-test="club-code"' in phone.get(f"/c/{club}").get_data(as_text=True) for club in clubs]
    assert managed == [False] * 5 + [True] * 20


# --- text no database can keep -------------------------------------------------------------------

def test_nul_and_lone_surrogates_are_a_404_or_a_refusal_never_a_500(served, caplog):
    owner = served.test_client()
    session_id, code, token = new_session(owner)
    club = owner.post("/clubs", data={"csrf_token": token, "name": "Nul club"}).headers["Location"].split("/")[-1]
    caplog.set_level(logging.ERROR, logger="tenbou.web")
    for bad in ("%00", "a%00b", "%ED%A0%80"):
        for path in (f"/s/{bad}", f"/s/{bad}/settle", f"/s/{bad}/tv", f"/c/{bad}", f"/c/{bad}/standings",
                     f"/api/sessions/{bad}", f"/live/{bad}", f"/api/clubs/{bad}/lobby", f"/c/{club}/p/{bad}",
                     f"/s/{bad}/join?code={code}"):
            assert owner.get(path).status_code == 404, path
    assert owner.get(f"/c/{club}/standings?season=%00").status_code == 400
    assert owner.post("/join", data={"csrf_token": token, "session": "\x00", "code": code}).status_code == 400
    assert owner.post(f"/s/{session_id}/event", data={"csrf_token": token, "type": "riichi", "seat": "0",
                                                      "form_token": "abc\x00defgh"}).status_code == 400
    for form_token in ("abc\x00defgh", "abc\ud800defgh"):
        refused = owner.post(f"/api/sessions/{session_id}/events", json={**EVENT, "form_token": form_token},
                             headers={"X-CSRF-Token": token})
        assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "bad_field"
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


# --- caching ------------------------------------------------------------------------------------

def test_pages_that_show_a_code_are_kept_by_no_cache(app_with_club):
    app, phone, session_id, club = app_with_club
    for path in (f"/s/{session_id}/share", f"/s/{session_id}/qr.svg", f"/c/{club}"):
        response = phone.get(path)
        assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store", path
    made = phone.post("/api/sessions", json={"players": ["A", "B", "C"]}, headers={"X-CSRF-Token": csrf_of(phone)})
    assert made.headers["Cache-Control"] == "no-store"
    stranger = app.test_client()
    for path in (f"/c/{club}", f"/s/{session_id}", "/lobby"):
        assert "no-store" not in stranger.get(path).headers.get("Cache-Control", ""), path


@pytest.fixture
def app_with_club(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "SECRET_KEY": "t"})
    phone = app.test_client()
    session_id, _, token = new_session(phone)
    club = phone.post("/clubs", data={"csrf_token": token, "name": "Cached"}).headers["Location"].split("/")[-1]
    return app, phone, session_id, club


# --- through `tenbou serve` ------------------------------------------------------------------

def test_serve_counts_phones_behind_a_trusted_proxy_by_their_own_address(tmp_path):
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    from tests.test_web_serve import ROOT, Browser, start_server

    refused = subprocess.run([sys.executable, "-m", "webui.cli", "serve", "--trusted-proxy", "my proxy"],
                             cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "not an IP address or network" in refused.stderr
    assert "Traceback" not in refused.stderr
    proc, base = start_server(tmp_path, "--trusted-proxy", "127.0.0.1")
    try:
        made = Browser(base).json("POST", "/api/sessions", {"players": ["A", "B", "C"]})

        def undo(code: str, phone: str) -> int:
            """A program's undo with `X-Join-Code`, from `phone` as the proxy names it."""
            request = urllib.request.Request(f"{base}/api/sessions/{made['id']}/undo", method="POST", data=b"{}",
                                             headers={"Content-Type": "application/json", "X-Join-Code": code,
                                                      "X-Forwarded-For": phone})
            try:
                with urllib.request.urlopen(request, timeout=20) as answer:
                    return answer.status
            except urllib.error.HTTPError as error:
                return error.code
        assert [undo("WRONG1", "198.51.100.7") for _ in range(10)] == [403] * 10
        assert undo(made["join_code"], "198.51.100.7") == 429
        assert undo(made["join_code"], "198.51.100.8") == 200         # another phone behind the proxy
    finally:
        proc.terminate()
        proc.wait(5)
        proc.stdout.close()
