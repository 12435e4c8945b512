"""Every command's bad input, as a player types it: one line on stderr, the documented exit
status (README: 2 the input cannot be used, 130 stopped by Ctrl-C), never a traceback, and
nothing left behind (no database made for a mistyped folder, no game imported twice)."""
from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from webui.cli import main

from tests.pty_support import raw_pty

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
DEADLINE = 60        # seconds: only a guard against a hang, never a measure


def tenbou(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "webui.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=DEADLINE, env={**os.environ, **(env or {})})


def one_line(done: subprocess.CompletedProcess | str, status: int | None = None, *words: str) -> str:
    """The refusal: exit `status`, one line naming `words`, no traceback."""
    err = done if isinstance(done, str) else done.stderr
    if status is not None and not isinstance(done, str):
        assert done.returncode == status, (done.returncode, err)
    lines = [line for line in err.splitlines() if line.strip() and "compiled" not in line]   # not the scorer's build warning
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


# --- the camera ----------------------------------------------------------------------------

@pytest.mark.parametrize("device", ["-1", "99999999999", "100"])
def test_a_camera_number_out_of_range_is_refused_before_opencv_sees_it(device):
    # -1 made OpenCV crash (segmentation fault), a huge number overflowed into a traceback
    done = tenbou("camera", "--device", device)
    one_line(done, 2, "--device", "0 to 99")


def test_ctrl_c_stops_the_camera_with_130(monkeypatch, capsys):
    import cv2

    class Interrupted:
        def isOpened(self):
            return True

        def read(self):
            raise KeyboardInterrupt

        def release(self):
            pass
    monkeypatch.setattr(cv2, "VideoCapture", lambda device: Interrupted())
    monkeypatch.setattr("vision.scan.pipeline_classifier", lambda: None)
    assert main(["camera"]) == 130


# --- serve and demo ------------------------------------------------------------------------

@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_a_port_out_of_range_is_refused(tmp_path, port):
    # 99999 listened on another port (99999 - 65536), -1 was a traceback
    one_line(tenbou("serve", "--port", port, "--data", str(tmp_path)), 2, "--port", "0 to 65535")


def test_a_table_port_that_is_not_there_is_refused_at_start(tmp_path):
    done = tenbou("serve", "--port", "0", "--data", str(tmp_path), "--table-port", "/dev/ttyUSB7-none")
    one_line(done, 2, "/dev/ttyUSB7-none", "no such port")


def test_a_table_port_that_is_a_file_is_refused_at_start(tmp_path):
    done = tenbou("serve", "--port", "0", "--data", str(tmp_path), "--table-port", "/etc/passwd")
    one_line(done, 2, "/etc/passwd", "not a serial port")


def test_demo_help_names_its_own_data_folder():
    done = tenbou("demo", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "a new temporary folder" in text and "~/.local/share/tenbou" not in text


def _started(proc: subprocess.Popen, ready: str) -> str:
    """Read the process's output until a line holding `ready`; return all it printed."""
    seen, end = "", time.monotonic() + DEADLINE
    while ready not in seen:
        assert time.monotonic() < end and proc.poll() is None, f"did not start: {seen}"
        if select.select([proc.stdout], [], [], 0.2)[0]:
            chunk = os.read(proc.stdout.fileno(), 65536).decode()
            seen += chunk
    return seen


@pytest.mark.parametrize("command, ready", [
    (["serve", "--port", "0"], "stop with Ctrl+C"),
    (["demo", "--port", "0", "--seed", "1"], "stop with Ctrl+C"),
    (["table", "simulate", "--pace", "5"], "/dev/"),
])
@pytest.mark.parametrize("ignored", [False, True], ids=["", "started-with-ctrl-c-ignored"])
def test_ctrl_c_ends_a_long_running_command_with_130(tmp_path, command, ready, ignored):
    # `ignored`: started as a shell starts a background job, SIGINT ignored, so only the
    # command's own handler stops it; it must be in place when the command says it can be
    # stopped (a Ctrl+C sent on that line was lost now and then, and the command ran on)
    if command[0] != "table":
        command = [*command, "--data", str(tmp_path)]
    if command[0] != "serve" and not hasattr(os, "openpty"):
        pytest.skip("the simulated table needs a pseudo-terminal")
    started = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignored else None
    proc = subprocess.Popen([sys.executable, "-m", "webui.cli", *command], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, preexec_fn=started)
    try:
        _started(proc, ready)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(DEADLINE) == 130
        rest = proc.stdout.read().decode()
        assert "Traceback" not in rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()


# --- table watch ---------------------------------------------------------------------------

def test_watching_a_file_says_it_is_no_table():
    one_line(tenbou("table", "watch", "--port", "/etc/passwd"), 2, "/etc/passwd", "not a serial port")


def test_watching_where_no_table_answers_ends_in_words():
    # nothing listens on port 1: the reader would wait for ever; with no frame within --wait
    # seconds the command says so and stops
    done = tenbou("table", "watch", "--port", "socket://127.0.0.1:1", "--wait", "1")
    one_line(done, 2, "no table answers on socket://127.0.0.1:1")


def test_watching_a_silent_port_ends_in_words():
    master, slave = raw_pty()
    try:
        done = tenbou("table", "watch", "--port", os.ttyname(slave), "--wait", "1")
    finally:
        os.close(master)
        os.close(slave)
    line = one_line(done, 2, "no table answers on /dev/")
    assert re.search(r"within 1 s", line)


def test_a_wait_out_of_range_is_refused():
    one_line(tenbou("table", "watch", "--port", "loop://", "--wait", "0"), 2, "--wait")


def test_ctrl_c_ends_table_watch_with_130():
    master, slave = raw_pty()
    proc = subprocess.Popen([sys.executable, "-m", "webui.cli", "table", "watch", "--port", os.ttyname(slave)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + DEADLINE
        while not select.select([master], [], [], 0.1)[0]:      # it asks "?" once the port is open
            assert time.monotonic() < end, "watch never opened the port"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(DEADLINE) == 130
        assert b"link stats" in proc.stdout.read()               # the statistics still print
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)


# --- clubs ---------------------------------------------------------------------------------

def test_a_mistyped_data_folder_is_said_not_made(tmp_path):
    typo = tmp_path / "tenbuo"
    for argv in (["club", "list"], ["club", "standings", "abc"], ["club", "seasons", "abc"]):
        one_line(tenbou(*argv, "--data", str(typo)), 2, "no Tenbou data", str(typo))
    assert not typo.exists()
    one_line(tenbou("club", "list", "--database", f"sqlite:///{tmp_path / 'nope.sqlite3'}"), 2, "no such database")
    assert not (tmp_path / "nope.sqlite3").exists()


def _club_with_members(tmp_path):
    from webui import create_app
    from webui.play import clubs
    app = create_app({"DATA_DIR": str(tmp_path)})
    with app.app_context():
        club = clubs.create_club("Thursday")
        clubs.add_member(club.id, "Ann")
        clubs.add_member(club.id, "Di")
        clubs.add_season(club.id, "Autumn", "2026-09-01")
        clubs.add_season(club.id, "Spring", "2026-03-01")
    return app, club


def test_importing_the_same_log_twice_is_refused_and_the_standings_stay(tmp_path, capsys):
    app, club = _club_with_members(tmp_path)
    data = ["--data", str(tmp_path)]
    log = str(EXAMPLES / "riichi-session.json")
    assert main(["club", "import", club.id, log, "--played-on", "2026-11-01", *data]) == 0
    capsys.readouterr()
    assert main(["club", "standings", club.id, "--season", "all", *data]) == 0
    before = capsys.readouterr().out
    # again, on another day: the same games, refused in one line
    assert main(["club", "import", club.id, log, "--played-on", "2026-11-08", *data]) == 2
    err = capsys.readouterr().err
    one_line(err, None, "already imported", "2026-11-01", "--again")
    assert main(["club", "standings", club.id, "--season", "all", *data]) == 0
    assert capsys.readouterr().out == before
    # the same log written differently (keys reordered, spaced) is the same log
    import json
    rewritten = tmp_path / "again.json"
    rewritten.write_text(json.dumps(json.loads(Path(log).read_text()), indent=4, sort_keys=True))
    assert main(["club", "import", club.id, str(rewritten), *data]) == 2
    capsys.readouterr()
    # --again means it
    assert main(["club", "import", club.id, log, "--played-on", "2026-11-08", "--again", *data]) == 0
    assert "Added 2 games to Thursday" in capsys.readouterr().out
    from webui.play import clubs
    with app.app_context():
        assert len(clubs.club_sessions(club.id)) == 4


def test_counts_are_said_in_the_singular_for_one(tmp_path, capsys):
    import json
    app, club = _club_with_members(tmp_path)
    data = ["--data", str(tmp_path)]
    one_game = tmp_path / "one.json"
    session = json.loads((EXAMPLES / "riichi-session.json").read_text())
    one_game.write_text(json.dumps({**session, "games": session["games"][:1]}))
    assert main(["club", "import", club.id, str(one_game), "--played-on", "2026-11-01", *data]) == 0
    assert "Added 1 game to Thursday" in capsys.readouterr().out
    assert main(["club", "standings", club.id, "--season", "all", *data]) == 0
    out = capsys.readouterr().out
    assert "1 game" in out and "1 games" not in out


def test_a_clubs_season_ids_are_listed(tmp_path, capsys):
    app, club = _club_with_members(tmp_path)
    data = ["--data", str(tmp_path)]
    assert main(["club", "seasons", club.id, *data]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.match(r"\w{11}  Autumn  from 2026-09-01$", lines[0])
    assert re.match(r"\w{11}  Spring  from 2026-03-01 to 2026-09-01$", lines[1])
    season = lines[1].split()[0]
    assert main(["club", "standings", club.id, "--season", season, *data]) == 0
    assert main(["club", "seasons", "nope", *data]) == 2
    one_line(capsys.readouterr().err, None, "no club nope")
