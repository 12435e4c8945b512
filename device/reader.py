"""The reader: owns the port and the clock, on a background thread, and reports events.

It opens any pyserial URL (a device path, a pty, `socket://`, `loop://`) exclusively where the
port supports it, reopens a vanished port by itself with a doubling delay capped at 2 s, and
writes nothing but a `?` line when it needs the table's hello.
"""
from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Callable

import serial

from device.events import Event
from device.link import LinkTimings
from device.tracker import TableTracker

READ_TIMEOUT = 0.05   # seconds a read waits; also how often time-based rules are checked
FIRST_BACKOFF = 0.1
MAX_BACKOFF = 2.0
ASK_HELLO_EVERY = 5.0
BAUD = 115200


def open_port(url: str, timeout: float = READ_TIMEOUT) -> serial.SerialBase:
    """Open a pyserial URL for reading; raises serial.SerialException / OSError / ValueError."""
    return serial.serial_for_url(url, baudrate=BAUD, timeout=timeout, write_timeout=0.5, exclusive=True)


def why_closed(error: BaseException) -> str:
    """A player's words for a port that is missing or went away."""
    text = str(error)
    if isinstance(error, FileNotFoundError) or "No such file" in text or "[Errno 2]" in text:
        return "the port is not there (is the table's cable plugged in?)"
    if "exclusively lock" in text or "[Errno 11]" in text or "Resource temporarily unavailable" in text:
        return "another program has the port open"
    if "Permission denied" in text or "[Errno 13]" in text:
        return "no permission to open the port (join the dialout group?)"
    if "returned no data" in text or "Input/output error" in text or "[Errno 5]" in text:
        return "the port went away (unplugged?)"
    return f"the port failed: {text}"


def port_problem(port: str) -> str | None:
    """Why a device path cannot be a table's port at all, in words; None for a URL
    (`socket://`, `loop://`) or a device that is there. Only looked at, never opened: opening a
    serial port may reset the table's bridge, and once watching, a cable pulled out is waited
    for, not an error."""
    if "://" in port or os.name != "posix":
        return None
    try:
        mode = os.stat(port).st_mode
    except FileNotFoundError:
        return "there is no such port (is the table's cable plugged in? `tenbou table simulate` prints a port to try)"
    except OSError as error:
        return why_closed(error)
    if stat.S_ISDIR(mode):
        return "that is a folder, not a serial port"
    if not stat.S_ISCHR(mode):
        return "that is a file, not a serial port (a table's port is a device such as /dev/ttyUSB0)"
    if not os.access(port, os.R_OK | os.W_OK):
        return "no permission to open the port (join the dialout group?)"
    return None


class TableReader:
    """Reads a table on a background thread; `on_event` is called from that thread."""

    def __init__(self, url: str, on_event: Callable[[Event], None], total: int | None = None,
                 timings: LinkTimings = LinkTimings(), hold: float = 1.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        serial.serial_for_url(url, do_not_open=True)  # a bad URL is the caller's error, at once
        self.url = url
        self.on_event = on_event
        self.tracker = TableTracker(total, timings, hold)
        self._clock = clock
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name=f"table-reader {url}", daemon=True)

    def start(self) -> TableReader:
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    def stats(self) -> dict[str, int]:
        with self._lock:
            return self.tracker.stats()

    def _emit(self, events: list[Event]) -> None:
        for event in events:
            self.on_event(event)

    def _run(self) -> None:
        backoff = FIRST_BACKOFF
        said_missing = False
        while not self._stop.is_set():
            try:
                port = open_port(self.url)
            except (serial.SerialException, OSError) as error:
                if not said_missing:
                    with self._lock:
                        events = self.tracker.announce_disconnected(why_closed(error))
                    self._emit(events)
                    said_missing = True
                self._stop.wait(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF)
                continue
            said_missing = False
            frames_before = self.tracker.decoder.stats.frames
            reason = self._read_until_gone(port)
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass
            if reason is None:
                return
            with self._lock:
                events = self.tracker.disconnected(self._clock(), reason)
                worked = self.tracker.decoder.stats.frames > frames_before
            self._emit(events)
            said_missing = True
            # a port that opens but fails at once must not be retried in a tight loop
            backoff = FIRST_BACKOFF if worked else min(backoff * 2, MAX_BACKOFF)
            self._stop.wait(backoff)

    def _read_until_gone(self, port: serial.SerialBase) -> str | None:
        """Read until the port fails (the reason) or stop() (None)."""
        with self._lock:
            self.tracker.connected(self._clock())
        last_ask = -ASK_HELLO_EVERY
        try:
            while not self._stop.is_set():
                data = port.read(max(1, port.in_waiting))
                now = self._clock()
                with self._lock:
                    events = self.tracker.feed(data, now)
                    ask = self.tracker.needs_hello and now - last_ask >= ASK_HELLO_EVERY
                self._emit(events)
                if ask:
                    self._ask_hello(port)
                    last_ask = now
        except (serial.SerialException, OSError) as error:
            return why_closed(error)
        return None

    @staticmethod
    def _ask_hello(port: serial.SerialBase) -> None:
        try:
            port.write(b"?\r\n")
        except serial.SerialTimeoutException:
            pass  # nobody is draining the line; the table says hello every 10 s anyway
