"""The reader over real pseudo-terminals (and socat's named links): the issue's list of faults."""
from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import time
import tty

import pytest

from device.events import HelloEvent, LinkEvent, RestartEvent, StateEvent, to_json
from device.faults import bad_crc
from device.frames import Hello, Snapshot, State, encode, encode_frame
from device.link import LinkTimings
from device.reader import TableReader

START = Snapshot((25000, 25000, 25000, 25000), "E1", 0, 0, 1, (False,) * 4)
DEADLINE = 8.0  # generous: the machine is shared; this bounds a wait, it measures nothing


class Pty:
    """A pseudo-terminal standing in for the table's USB serial port."""

    def __init__(self) -> None:
        try:
            self.master, self.slave = os.openpty()
        except OSError as error:
            pytest.skip(f"this machine has no pseudo-terminals ({error})")
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.seq = 0

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.master, view):]

    def frame(self, snapshot: Snapshot = START) -> bytes:
        self.seq += 1
        return encode(State(self.seq, 10_000 + self.seq * 10, snapshot))

    def hello(self) -> bytes:
        self.seq += 1
        return encode(Hello(self.seq, 10_000 + self.seq * 10, "1.0.0", "pty", 4, 100_000))

    def wait_opened(self) -> None:
        """The reader opened the port once it asks for a hello (writing earlier would be flushed)."""
        os.set_blocking(self.master, False)
        heard = b""
        end = time.monotonic() + DEADLINE
        try:
            while b"?\r\n" not in heard:
                if time.monotonic() > end:
                    pytest.fail(f"the reader never opened {self.path}")
                time.sleep(0.01)
                try:
                    heard += os.read(self.master, 100)
                except BlockingIOError:
                    pass
        finally:
            os.set_blocking(self.master, True)

    def close(self) -> None:
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


class Watch:
    """A reader on a port, collecting its events."""

    def __init__(self, url: str, timings: LinkTimings = LinkTimings()) -> None:
        self.events: queue.Queue = queue.Queue()
        self.seen: list = []
        self.reader = TableReader(url, self.events.put, timings=timings).start()

    def wait_for(self, predicate, what: str, deadline: float = DEADLINE, poke=None):
        """Wait for an event; `poke` (a table sending frames) is called every 0.2 s meanwhile."""
        end = time.monotonic() + deadline
        next_poke = 0.0
        while time.monotonic() < end:
            if poke is not None and time.monotonic() >= next_poke:
                poke()
                next_poke = time.monotonic() + 0.2
            try:
                event = self.events.get(timeout=0.05)
            except queue.Empty:
                continue
            self.seen.append(event)
            if predicate(event):
                return event
        pytest.fail(f"no {what} within {deadline} s; saw {[to_json(e) for e in self.seen]}")

    def wait_stats(self, predicate, what: str, deadline: float = DEADLINE) -> dict:
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            stats = self.reader.stats()
            if predicate(stats):
                return stats
            time.sleep(0.02)
        pytest.fail(f"stats never showed {what}: {self.reader.stats()}")

    def link(self, state: str, deadline: float = DEADLINE):
        return self.wait_for(lambda e: isinstance(e, LinkEvent) and e.state == state, f"link {state}", deadline)

    def state_with(self, points: tuple[int, ...]):
        return self.wait_for(lambda e: isinstance(e, StateEvent) and e.snapshot.points == points, f"state {points}")

    def drain(self) -> list:
        while True:
            try:
                self.seen.append(self.events.get_nowait())
            except queue.Empty:
                return self.seen


@pytest.fixture
def pty():
    port = Pty()
    yield port
    port.close()


@pytest.fixture
def watch_of():
    watches = []

    def make(url: str, timings: LinkTimings = LinkTimings()) -> Watch:
        watches.append(Watch(url, timings))
        return watches[-1]

    yield make
    for w in watches:
        w.reader.stop()


def test_garbage_between_frames_is_skipped(pty, watch_of):
    watch = watch_of(pty.path)
    pty.wait_opened()
    pty.write(b"\x00\xff\xfe noise" + pty.hello() + b"~~~\r\n" + pty.frame())
    watch.link("live")
    watch.state_with(START.points)
    stats = watch.wait_stats(lambda s: s["frames"] == 2, "2 frames")
    assert stats["garbage_bytes"] == len(b"\x00\xff\xfe noise") + len(b"~~~\r\n")


def test_a_bad_crc_frame_carrying_wrong_points_is_never_shown(pty, watch_of):
    watch = watch_of(pty.path)
    pty.wait_opened()
    wrong = Snapshot((99900, 25000, 25000, 25000), "E1", 0, 0, 1, (False,) * 4)
    after = Snapshot((24000, 26000, 25000, 25000), "E1", 0, 0, 1, (False,) * 4)
    pty.write(pty.hello() + pty.frame() + bad_crc(pty.frame(wrong)) + pty.frame(after))
    watch.state_with((24000, 26000, 25000, 25000))
    assert watch.reader.stats()["bad_crc"] == 1
    shown = [to_json(e) for e in watch.drain()]
    assert all(99900 not in e.get("points", []) for e in shown)


def test_cut_frames_and_overlong_lines_are_dropped_and_the_link_recovers(pty, watch_of):
    watch = watch_of(pty.path)
    pty.wait_opened()
    cut = pty.frame()[:25]
    overlong = encode_frame(99, 1, "S", ["4", "1", "2", "3", "4", "E1", "0", "0", "1", "0000", "x" * 300])
    after = Snapshot((26000, 24000, 25000, 25000), "E1", 0, 0, 1, (False,) * 4)
    pty.write(pty.hello() + cut + overlong + pty.frame(after))
    watch.state_with(after.points)
    stats = watch.wait_stats(lambda s: s["overlong"] == 1, "an overlong line")
    assert stats["malformed"] == 1 and stats["frames"] == 2


def test_a_flood_of_2000_frames_loses_none_and_the_reader_keeps_up(pty, watch_of):
    watch = watch_of(pty.path)
    pty.wait_opened()
    pty.write(pty.hello())
    watch.link("live")
    pty.write(b"".join(pty.frame() for _ in range(2000)))
    last = Snapshot((25000, 25000, 23000, 27000), "E1", 0, 0, 1, (False,) * 4)
    pty.write(pty.frame(last))
    watch.state_with(last.points)  # still responsive: the frame after the flood comes through
    stats = watch.wait_stats(lambda s: s["frames"] >= 2002, "all 2002 frames")
    assert stats["frames"] == 2002 and stats["seq_gaps"] == 0
    assert stats["bad_crc"] == stats["malformed"] == stats["overlong"] == 0


def test_silence_makes_the_link_stale(pty, watch_of):
    watch = watch_of(pty.path)
    pty.wait_opened()
    pty.write(pty.hello() + pty.frame())
    watch.link("live")
    watch.link("stale")  # nothing more is written: 3 s later the link is stale
    pty.write(pty.frame())
    watch.link("live")


def test_bytes_of_another_baud_rate_make_the_link_garbled(pty, watch_of):
    watch = watch_of(pty.path, LinkTimings(stale_after=3.0, garbled_after=0.5))  # shorter, to keep tests quick
    pty.wait_opened()
    pty.write(pty.hello())
    watch.link("live")
    noise = bytes(range(0x80, 0x100))  # what 115200 baud looks like read at 9600
    watch.wait_for(lambda e: isinstance(e, LinkEvent) and e.state == "garbled", "link garbled",
                   poke=lambda: pty.write(noise))
    assert watch.reader.stats()["frames"] == 1


def test_a_device_restart_is_not_a_gap(pty, watch_of):
    watch = watch_of(pty.path)
    pty.wait_opened()
    pty.seq = 500
    pty.write(pty.hello() + pty.frame())
    watch.link("live")
    pty.write(encode(Hello(0, 812, "1.0.0", "pty", 4, 100_000)))
    watch.wait_for(lambda e: isinstance(e, RestartEvent), "restart")
    watch.wait_for(lambda e: isinstance(e, HelloEvent) and e.hello.seq == 0, "hello after the restart")
    pty.write(encode(State(1, 900, START)))
    stats = watch.wait_stats(lambda s: s["frames"] == 4, "4 frames")
    assert stats["seq_gaps"] == 0 and stats["restarts"] == 1


def test_the_reader_asks_for_a_hello_and_writes_nothing_else(pty, watch_of):
    watch_of(pty.path)
    pty.wait_opened()  # it asked "?"
    pty.write(pty.hello() + b"garbage \x00\xff\r\n" + pty.frame())
    time.sleep(0.5)
    os.set_blocking(pty.master, False)
    with pytest.raises(BlockingIOError):
        os.read(pty.master, 100)  # no answer to garbage, nothing after the hello


def test_a_second_reader_cannot_take_the_port(pty, watch_of):
    first = watch_of(pty.path)
    pty.wait_opened()
    pty.write(pty.hello())
    first.link("live")
    second = watch_of(pty.path)
    event = second.link("disconnected")
    assert "another program" in event.reason


def test_unplug_and_replug_on_a_named_link(tmp_path, watch_of):
    """A named link that vanishes and comes back (as /dev/serial/by-id/... does)."""
    name = tmp_path / "table"
    first = Pty()
    os.symlink(first.path, name)
    watch = watch_of(str(name))
    first.wait_opened()
    first.write(first.hello() + first.frame())
    watch.link("live")
    first.close()  # unplugged
    name.unlink()
    event = watch.link("disconnected")
    assert event.reason
    second = Pty()
    try:
        os.symlink(second.path, name)  # plugged in again
        replugged = time.monotonic()
        watch.wait_for(lambda e: isinstance(e, LinkEvent) and e.state == "live", "live again", deadline=5.0,
                       poke=lambda: second.write(second.frame()))
        assert time.monotonic() - replugged < 5.0
    finally:
        second.close()


@pytest.fixture
def socat_link(tmp_path):
    if shutil.which("socat") is None:
        pytest.skip("socat is not installed (apt-get install -y socat)")
    table, bridge = tmp_path / "table", tmp_path / "bridge"

    def start() -> subprocess.Popen:
        proc = subprocess.Popen(["socat", f"pty,raw,echo=0,link={table}", f"pty,raw,echo=0,link={bridge}"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + DEADLINE
        while not (table.exists() and bridge.exists()) and time.monotonic() < end:
            time.sleep(0.02)
        return proc

    procs: list[subprocess.Popen] = []

    def plug() -> int:
        procs.append(start())
        return os.open(bridge, os.O_RDWR | os.O_NOCTTY)

    yield table, plug, procs
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(5)


def test_unplug_and_replug_through_socat(socat_link, watch_of):
    table, plug, procs = socat_link
    fd = plug()
    watch = watch_of(str(table))
    state = encode_frame(1, 100, "S", ["4", "25000", "25000", "25000", "25000", "E1", "0", "0", "1", "0000"])
    watch.wait_for(lambda e: isinstance(e, LinkEvent) and e.state == "live", "live", poke=lambda: os.write(fd, state))
    procs[-1].send_signal(signal.SIGTERM)  # the cable is pulled
    procs[-1].wait(5)
    os.close(fd)
    watch.link("disconnected")
    fd = plug()
    try:
        watch.wait_for(lambda e: isinstance(e, LinkEvent) and e.state == "live", "live again", deadline=5.0,
                       poke=lambda: os.write(fd, encode_frame(2, 200, "H", ["seats=4"])))
    finally:
        os.close(fd)
    assert watch.reader.stats()["reconnects"] == 1
