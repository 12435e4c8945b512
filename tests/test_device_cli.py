"""`tenbou table simulate` and `tenbou table watch` as a player runs them, in separate processes."""
from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device.frames import Hello, Snapshot, State, encode

from tests.pty_support import raw_pty

ROOT = Path(__file__).resolve().parents[1]
DEADLINE = 15.0  # bounds a wait on a shared machine; nothing is timed


def tenbou(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "webui.cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})


class Lines:
    """The lines a process prints, read with a deadline."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc, self.lines, self._rest = proc, [], b""

    def until(self, predicate, what: str, deadline: float = DEADLINE) -> str:
        end = time.monotonic() + deadline
        checked = 0
        while True:
            for line in self.lines[checked:]:
                if predicate(line):
                    return line
            checked = len(self.lines)
            if time.monotonic() > end or self.proc.poll() is not None and not self._read(0):
                pytest.fail(f"no {what} within {deadline} s; printed: {self.lines}")
            self._read(0.1)

    def _read(self, wait: float) -> bool:
        if not select.select([self.proc.stdout], [], [], wait)[0]:
            return False
        chunk = os.read(self.proc.stdout.fileno(), 65536)
        parts = (self._rest + chunk).split(b"\n")
        self._rest = parts.pop()
        self.lines += [p.decode() for p in parts]
        return bool(chunk)

    def finish(self) -> list[str]:
        out, _ = self.proc.communicate(timeout=DEADLINE)
        self.lines += [line for line in (self._rest + out).decode().split("\n") if line]
        return self.lines


def stop(proc: subprocess.Popen, sig=signal.SIGINT) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)


@pytest.fixture
def procs():
    started: list[subprocess.Popen] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_simulate_and_watch_in_two_processes(procs):
    sim = tenbou("table", "simulate", "--pace", "1", "--seed", "3", "--faults", "garbage,badcrc,cut,overlong",
                 "--fault-every", "0.5")
    procs.append(sim)
    path = Lines(sim).until(lambda line: line.startswith("/dev/"), "pty path")
    watch = tenbou("table", "watch", "--port", path, "--json")
    procs.append(watch)
    out = Lines(watch)
    out.until(lambda line: '"event": "payment"' in line, "a payment")
    stop(watch, signal.SIGINT)
    events = [json.loads(line) for line in out.finish()]
    assert watch.returncode == 130          # README: stopped by Ctrl-C; the stats still print
    kinds = [e["event"] for e in events]
    assert kinds[0] == "link" and events[0]["state"] == "live"
    assert kinds[-1] == "stats"
    stats = events[-1]
    assert set(stats) >= {"frames", "bad_crc", "malformed", "overlong", "garbage_bytes", "seq_gaps"}
    assert stats["frames"] > 0 and stats["bad_crc"] + stats["malformed"] + stats["overlong"] > 0
    settled = [e for e in events if e["event"] == "state" and e["settled"]]
    assert settled and all(sum(e["points"]) + 1000 * e["sticks"] == 100_000 for e in settled)
    payment = next(e for e in events if e["event"] == "payment")
    assert payment["transfers"] and all(t["points"] > 0 for t in payment["transfers"])
    assert all(t["from"] in (1, 2, 3, 4, "pot") and t["to"] in (1, 2, 3, 4, "pot") for t in payment["transfers"])
    stop(sim, signal.SIGTERM)
    sim.wait(DEADLINE)
    assert sim.returncode == 0


def test_watch_prints_stats_on_sigterm_and_reads_for_a_person(procs):
    master, slave = raw_pty()
    try:
        watch = tenbou("table", "watch", "--port", os.ttyname(slave))
        procs.append(watch)
        deadline = time.monotonic() + DEADLINE
        while not select.select([master], [], [], 0.1)[0]:  # it asks "?" once the port is open
            assert time.monotonic() < deadline, "watch never opened the port"
        os.read(master, 100)
        snap = Snapshot((25000, 24000, 25000, 25000), "E2", 1, 1, 2, (False, True, False, False))
        os.write(master, encode(Hello(0, 5, "1.0.0", "DIY", 4, 100_000)) + encode(State(1, 9, snap)))
        out = Lines(watch)
        out.until(lambda line: "settled" in line, "a settled state")
        stop(watch, signal.SIGTERM)
        text = "\n".join(out.finish())
    finally:
        os.close(master)
        os.close(slave)
    assert watch.returncode == 0
    assert "link live" in text and "E2, honba 1, riichi sticks 1" in text
    assert "seat 2 (dealer, riichi) 24000" in text
    assert "link stats: frames 2" in text


def test_a_bad_port_url_is_an_error_in_words():
    result = subprocess.run([sys.executable, "-m", "webui.cli", "table", "watch", "--port", "nosuch://x"],
                            cwd=ROOT, capture_output=True, text=True, timeout=DEADLINE)
    assert result.returncode == 2
    assert "is not a port I can open" in result.stderr and "Traceback" not in result.stderr


def test_simulating_onto_a_missing_port_is_an_error_in_words(tmp_path):
    result = subprocess.run([sys.executable, "-m", "webui.cli", "table", "simulate", "--port", str(tmp_path / "none")],
                            cwd=ROOT, capture_output=True, text=True, timeout=DEADLINE)
    assert result.returncode == 2
    assert "the port is not there" in result.stderr and "Traceback" not in result.stderr


def test_an_unknown_fault_is_refused_by_the_command_line():
    result = subprocess.run([sys.executable, "-m", "webui.cli", "table", "simulate", "--faults", "fire"],
                            cwd=ROOT, capture_output=True, text=True, timeout=DEADLINE)
    assert result.returncode == 2 and "unknown fault 'fire'" in result.stderr


def test_a_signal_caught_while_the_wait_holds_its_lock_still_stops_the_command():
    """The table commands stop on SIGINT or SIGTERM through an event their loop waits on. The
    handler runs on the main thread, which may be inside that wait holding the event's lock:
    setting the event right there waited for ever on that lock, and a Ctrl+C now and then left
    `tenbou table simulate` running. Here the handler runs on a thread that holds the lock (the
    event's Condition, as CPython's Event keeps it) and must return, and the event be set."""
    import threading

    from webui.commands.table import INTERRUPTED, _StopOnSignal

    stopping = _StopOnSignal()

    def caught_inside_the_wait():
        with stopping.stop._cond:
            stopping._handle(signal.SIGINT, None)

    handler = threading.Thread(target=caught_inside_the_wait, daemon=True)
    handler.start()
    handler.join(5)
    assert not handler.is_alive(), "the signal handler hung on the event's lock"
    assert stopping.stop.wait(5) and stopping.status == INTERRUPTED
