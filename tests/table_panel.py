"""Waiting for the web app's table panel (`/api/table`) to reach a state, for the tests that
run a simulated table behind the app."""
from __future__ import annotations

import time


def wait_table(client, done, seconds: float = 15.0) -> dict:
    """The panel's view once `done(view)` holds; fails with the last view seen after `seconds`."""
    deadline, view = time.monotonic() + seconds, {}
    while time.monotonic() < deadline:
        view = client.get("/api/table").get_json()
        if done(view):
            return view
        time.sleep(0.1)
    raise AssertionError(f"the table panel never got there: {view}")
