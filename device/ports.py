"""Where the simulated table writes: a new pseudo-terminal, or any pyserial URL; and its run loop.

Writing behaves like a UART: it waits while the host drains the line (so a flood loses
nothing), but when nobody is reading at all it drops frames instead of hanging the game.
"""
from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections.abc import Callable

import serial

from device.simulator import SimOptions, SimulatedTable

WRITE_WAIT = 1.0   # seconds a write waits for the host to drain the line
POLL = 0.02        # seconds between looks at the host's input


class PtyLink:
    """A fresh pseudo-terminal: the simulator holds the master, the host opens `path`."""

    def __init__(self) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing: bytes pass as sent
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)
        self.dropped = 0
        self._deaf = False  # nobody read the last write: do not wait again until someone does

    def read(self) -> bytes:
        try:
            return os.read(self._master, 1024)
        except (BlockingIOError, OSError):
            return b""

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._master, view):]
                self._deaf = False
                continue
            except BlockingIOError:
                pass
            if self._deaf or not select.select([], [self._master], [], WRITE_WAIT)[1]:
                self._deaf = True
                self.dropped += len(view)
                return

    def close(self) -> None:
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass


class SerialLink:
    """An existing port by pyserial URL (a socat pty, a USB serial adapter, `socket://`)."""

    def __init__(self, url: str) -> None:
        self.path = url
        self.dropped = 0
        self._port = serial.serial_for_url(url, baudrate=115200, timeout=0, write_timeout=WRITE_WAIT)

    def read(self) -> bytes:
        return self._port.read(self._port.in_waiting or 1)

    def write(self, data: bytes) -> None:
        try:
            self._port.write(data)
        except serial.SerialTimeoutException:
            self.dropped += len(data)

    def close(self) -> None:
        self._port.close()


def run_simulator(link: PtyLink | SerialLink, table: SimulatedTable, stop: threading.Event,
                  clock: Callable[[], float] = time.monotonic) -> None:
    """Play the table on the link until `stop` is set. Raises SerialException if the port goes."""
    while not stop.is_set():
        out = table.step(clock(), link.read())
        if out:
            link.write(out)
        stop.wait(min(POLL, max(0.0, table.next_due() - clock())))


def start_simulated_table(options: SimOptions | None = None,
                          table: SimulatedTable | None = None) -> tuple[str, Callable[[], None]]:
    """A simulated table on a new pty, played on a background thread: (port path, stop).

    For the app's run command when no port is given, so a newcomer sees a live table at once.
    Pass `table` to keep a handle on it (a following table, told states by its `follow`).
    """
    link = PtyLink()
    table = table or SimulatedTable(options or SimOptions(), time.monotonic())
    stop = threading.Event()
    thread = threading.Thread(target=run_simulator, args=(link, table, stop), name="simulated table", daemon=True)
    thread.start()

    def halt() -> None:
        stop.set()
        thread.join(2.0)
        link.close()

    return link.path, halt
