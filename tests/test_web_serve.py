"""`tenbou serve` as a real process: it answers, keeps serving with 50 live scoreboards open,
loses nothing when killed, and refuses a bad start with a clear message."""
from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def start_server(data: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "webui.cli", "serve", "--port", "0", "--data", str(data), *extra],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # The address is the first line but for a warning before it (the scorer's sources edited
    # since it was compiled: see scorer/_native.py).
    seen = ""
    for _ in range(4):
        line = proc.stdout.readline()
        seen += line
        match = re.search(r"running at (http://[\d.]+:\d+)/", line)
        if match:
            return proc, match.group(1)
    proc.kill()
    raise AssertionError(f"server did not start: {seen}{proc.stdout.read()}")


class Browser:
    """A cookie-keeping HTTP client, like one phone."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.csrf = self.json("GET", "/api/csrf")["csrf_token"]

    def json(self, method: str, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", "X-CSRF-Token": getattr(self, "csrf", "")})
        with self.opener.open(request, timeout=10) as response:
            return json.loads(response.read())


def test_killed_server_loses_nothing(tmp_path):
    proc, base = start_server(tmp_path)
    try:
        phone = Browser(base)
        created = phone.json("POST", "/api/sessions", {"players": ["A", "B", "C", "D"]})
        sid = created["id"]
        phone.json("POST", f"/api/sessions/{sid}/events", {"event": {"type": "riichi", "seat": 0}})
        phone.json("POST", f"/api/sessions/{sid}/events", {"event": {"type": "win", "winner": 0, "tsumo": True,
                   "hand": {"concealed": "234m456p678s22z555z", "win_tile": "5z"}}})
        before = phone.json("GET", f"/api/sessions/{sid}")
    finally:
        proc.send_signal(signal.SIGKILL)       # no clean shutdown: what was answered must be on disk
        proc.wait(5)
        proc.stdout.close()
    proc, base = start_server(tmp_path)
    try:
        after = Browser(base).json("GET", f"/api/sessions/{sid}")
        assert after == before and after["events"] == 2 and after["scores"][0] > 25000
    finally:
        proc.terminate()
        proc.wait(5)
        proc.stdout.close()


def test_fifty_live_scoreboards_do_not_starve_the_server(tmp_path):
    proc, base = start_server(tmp_path)
    streams = []
    try:
        phone = Browser(base)
        sid = phone.json("POST", "/api/sessions", {"players": ["A", "B", "C", "D"]})["id"]
        host, port = base.removeprefix("http://").split(":")
        for _ in range(50):
            conn = http.client.HTTPConnection(host, int(port), timeout=10)
            conn.request("GET", f"/live/{sid}")
            response = conn.getresponse()
            assert response.status == 200
            assert response.readline().startswith(b"retry:")
            streams.append((conn, response))
        result = phone.json("POST", f"/api/sessions/{sid}/events", {"event": {"type": "riichi", "seat": 1}})
        assert result["created"]
        for _, response in streams:             # every scoreboard got the change (or times out)
            while b'"events":1' not in response.readline():
                pass
        with urllib.request.urlopen(base + "/", timeout=10) as page:   # and pages still load
            assert page.status == 200
    finally:
        for conn, _ in streams:
            conn.close()
        proc.terminate()
        proc.wait(5)
        proc.stdout.close()


def test_port_in_use_is_a_clear_error(tmp_path):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    port = sock.getsockname()[1]
    try:
        done = subprocess.run([sys.executable, "-m", "webui.cli", "serve", "--port", str(port), "--data", str(tmp_path)],
                              cwd=ROOT, capture_output=True, text=True, timeout=30)
    finally:
        sock.close()
    assert done.returncode == 2 and "cannot listen" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="the demo's simulated table needs a pseudo-terminal")
def test_demo_prints_the_url_and_serves_a_session_with_a_table(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "webui.cli", "demo", "--port", "0", "--data", str(tmp_path), "--seed", "1"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = [proc.stdout.readline() for _ in range(5)]
        base = next(re.search(r"running at (http://[\d.]+:\d+)/", line).group(1) for line in lines
                    if "running at" in line)
        join = next(line for line in lines if "demo session" in line)
        sid = re.search(r"/s/([^/]+)/join", join).group(1)
        assert join.split()[2].startswith(base + "/s/")             # the printed link works as it is
        with urllib.request.urlopen(f"{base}/api/sessions/{sid}", timeout=10) as response:
            snap = json.loads(response.read())
        assert snap["events"] >= 2 and snap["players"] == ["Aki", "Ben", "Chiyo", "Dan"]
        with urllib.request.urlopen(f"{base}/api/table", timeout=10) as response:
            assert json.loads(response.read())["configured"] is True
    finally:
        proc.terminate()
        proc.wait(5)
        proc.stdout.close()
