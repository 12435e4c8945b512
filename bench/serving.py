"""What the web benchmarks share: a real `tenbou serve` on 127.0.0.1 in a fresh data folder, and
a phone that talks to its JSON API as the record page does."""
from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
import tempfile
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def start_server(clients: int, database: str | None = None) -> tuple[subprocess.Popen, str]:
    """`tenbou serve` on a free port with `clients` live streams: the process and its address."""
    # the bench's phones all connect from 127.0.0.1: as through a proxy, each says who it is
    # (`Phone`), so the creation and join-code throttles count each as its own phone
    argv = [sys.executable, "-m", "webui.cli", "serve", "--port", "0", "--clients", str(clients),
            "--data", tempfile.mkdtemp(prefix="tenbou-bench-"), "--trusted-proxy", "127.0.0.1"]
    if database:
        argv += ["--database", database]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for _ in range(4):     # the address, perhaps after a warning (a stale compiled scorer)
        match = re.search(r"running at (http://[\d.]+:\d+)/", proc.stdout.readline())
        if match:
            return proc, match.group(1)
    proc.kill()
    raise SystemExit("the server did not start")


class Phone:
    """The player who confirms hands: a cookie jar and the CSRF token, like the record page."""

    numbers = itertools.count()

    def __init__(self, base: str) -> None:
        self.base = base
        n = next(Phone.numbers)
        self.forwarded_for = f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"   # a header, never connected to
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.csrf = ""
        self.csrf = self.call("GET", "/api/csrf")["csrf_token"]

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(self.base + path, method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json", "X-CSRF-Token": self.csrf,
                                                  "X-Forwarded-For": self.forwarded_for})
        with self.opener.open(request, timeout=60) as response:
            return json.loads(response.read())
