"""The automatic table as the web app sees it: the newest link state, settled snapshot and
payment, kept by the device reader's thread and pushed to every scoreboard on topic "table"."""
from __future__ import annotations

import json
import logging
import threading
from typing import Callable

log = logging.getLogger("tenbou.table")


class TableMonitor:
    """Folds the reader's events into one JSON-able view; `publish` gets that view on change."""

    def __init__(self, url: str, publish: Callable[[dict], None],
                 match_payment: Callable[[dict], dict | None] = lambda payment: None) -> None:
        self.url = url
        self._publish = publish
        self._match_payment = match_payment
        self._lock = threading.Lock()
        self._view: dict = {"configured": True, "link": "unknown", "reason": None, "points": None,
                            "settled": False, "round": None, "honba": None, "sticks": None,
                            "dealer": None, "riichi": None, "payment": None, "diagnostic": None}
        self._reader = None

    def view(self) -> dict:
        with self._lock:
            return json.loads(json.dumps(self._view))

    def on_event(self, event) -> None:
        """Called on the reader's thread for every event it reports."""
        from device.events import to_json

        try:
            data = to_json(event)
        except Exception:   # an event kind this version does not know: ignore, keep reading
            log.exception("table event not understood")
            return
        kind = data.pop("event", None)
        changed = self._fold(kind, data)
        if changed:
            self._publish(self.view())

    def _fold(self, kind: str | None, data: dict) -> bool:
        with self._lock:
            view = self._view
            if kind == "link":
                view["link"], view["reason"] = data["state"], data.get("reason")
                return True
            if kind == "state":
                before = (view["points"], view["settled"])
                view.update({k: data.get(k) for k in ("points", "round", "honba", "sticks", "dealer", "riichi")})
                view["settled"] = bool(data.get("settled"))
                if view["link"] in ("unknown", "disconnected"):
                    view["link"] = "live"
                return before != (view["points"], view["settled"])
            if kind == "diagnostic":
                view["diagnostic"] = data
                return True
        if kind == "payment":
            matched = None
            try:
                matched = self._match_payment(data)
            except Exception:
                log.exception("could not compare the table's payment with the last hand")
            with self._lock:
                self._view["payment"] = {**data, "match": matched}
            return True
        return False

    def start(self, total: int | None = None) -> "TableMonitor":
        from device.reader import TableReader

        self._reader = TableReader(self.url, self.on_event, total=total).start()
        return self

    def stop(self) -> None:
        if self._reader is not None:
            self._reader.stop()
            self._reader = None
