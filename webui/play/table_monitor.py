"""The automatic table as the web app sees it: the newest link state, settled snapshot and
payment, kept by the device reader's thread and pushed to every scoreboard on topic "table".

The last settled snapshot is also kept in the database (`SettledMemory`): after a restart of the
app or of the table's bridge, the reader starts without one and would take the first settled
reading as a fresh start, so the monitor compares that reading with the kept one and reports
the sticks that moved meanwhile as a payment (`across_restart`), or, when the drawers were set
out for a new game at whatever starting points, a new game (`new_game`), next to the starting
points of the session at the table so the players see whether the two agree.
"""
from __future__ import annotations

import json
import logging
import threading
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from device.frames import Snapshot
    from device.settle import Payment

    from webui.storage.table_settled import SettledMemory

log = logging.getLogger("tenbou.table")


def payment_across_restart(before: Snapshot | None, after: Snapshot, total: int | None) -> Payment | None:
    """What the sticks did between the reading kept before a restart and the first one after
    it; None when nothing moved, the table does not add up the same, or a new game was set out."""
    from device.settle import Payment, adds_up, infer_transfers, set_out, table_points

    if before is None or before.seats != after.seats or set_out(after):
        return None
    total = total or table_points(after)
    if total is None or not (adds_up(before, total) and adds_up(after, total)):
        return None
    transfers = infer_transfers(before, after, total)
    return Payment(before, after, transfers) if transfers else None


def set_out_across_restart(before: Snapshot | None, after: Snapshot) -> bool:
    """The table came back from a restart set out for a new game in place of the kept reading."""
    from device.settle import set_out

    return before is not None and before != after and set_out(after)


class TableMonitor:
    """Folds the reader's events into one JSON-able view; `publish` gets that view on change."""

    def __init__(self, url: str, publish: Callable[[dict], None],
                 match_payment: Callable[[dict], dict | None] = lambda payment: None,
                 memory: SettledMemory | None = None,
                 session_start: Callable[[], int | None] = lambda: None) -> None:
        self.url = url
        self._publish = publish
        self._match_payment = match_payment
        self._memory = memory
        self._session_start = session_start     # the starting points of the session at the table
        self._lock = threading.Lock()
        self._view: dict = {"configured": True, "link": "unknown", "reason": None, "points": None,
                            "settled": False, "round": None, "honba": None, "sticks": None,
                            "dealer": None, "riichi": None, "payment": None, "new_game": None,
                            "diagnostic": None}
        self._reader = None
        self._fixed_total: int | None = None    # --table-total beats the table's hello
        self._hello_total: int | None = None
        self._fresh = True                      # the reader has no settled reading to compare with
        self._kept: Snapshot | None = None      # the settled reading last written to the memory

    def view(self) -> dict:
        with self._lock:
            return json.loads(json.dumps(self._view))

    def stats(self) -> dict[str, int]:
        """What the reader has counted on the line (faults, bridge restarts, reconnects); empty
        while it is not reading."""
        reader = self._reader
        return reader.stats() if reader is not None else {}

    def on_event(self, event) -> None:
        """Called on the reader's thread for every event it reports."""
        from device.events import RestartEvent, StateEvent, to_json

        try:
            data = to_json(event)
        except Exception:   # an event kind this version does not know: ignore, keep reading
            log.exception("table event not understood")
            return
        if isinstance(event, RestartEvent):
            self._fresh = True      # the tracker forgot its settled reading: the memory has it
        kind = data.pop("event", None)
        changed = self._fold(kind, data)
        if changed:
            self._publish(self.view())
        if isinstance(event, StateEvent) and event.settled:
            self._settled(event.snapshot)

    def _settled(self, snap: Snapshot) -> None:
        """A settled reading: after a restart, report what moved since the kept one; keep it."""
        from device.events import PaymentEvent, to_json

        if self._memory is None:
            return
        if self._fresh:
            self._fresh = False
            kept = self._memory.load()
            payment = payment_across_restart(kept, snap, self._fixed_total or self._hello_total)
            if payment is not None:
                data = to_json(PaymentEvent(payment))
                data.pop("event")
                self._fold("payment", {**data, "across_restart": True})
                self._publish(self.view())
            elif set_out_across_restart(kept, snap):
                self._fold("new_game", {"points": list(snap.points), "across_restart": True})
                self._publish(self.view())
        if snap != self._kept:
            self._memory.save(snap)
            self._kept = snap

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
            if kind == "hello":
                self._hello_total = data.get("total")
                return False
        if kind == "new_game":
            start = self._starting_points()
            with self._lock:
                self._view["payment"] = None
                self._view["new_game"] = {"points": data["points"], "across_restart": bool(data.get("across_restart")),
                                          "session_start": start}
            return True
        if kind == "payment":
            matched = None
            try:
                matched = self._match_payment(data)
            except Exception:
                log.exception("could not compare the table's payment with the last hand")
            with self._lock:
                self._view["payment"] = {**data, "match": matched}
                self._view["new_game"] = None
            return True
        return False

    def _starting_points(self) -> int | None:
        try:
            return self._session_start()
        except Exception:   # the session's rules only add to the message: never lose the event
            log.exception("could not read the starting points of the session at the table")
            return None

    def start(self, total: int | None = None) -> "TableMonitor":
        from device.reader import TableReader

        self._fixed_total = total
        self._reader = TableReader(self.url, self.on_event, total=total).start()
        return self

    def stop(self) -> None:
        if self._reader is not None:
            self._reader.stop()
            self._reader = None
