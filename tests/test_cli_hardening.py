"""The command line under hostile input: `tenbou score --jsonl` answers every line in valid
UTF-8, exit statuses mean the same in every command, and a photo or port that cannot be used
is said in words, never a traceback. Each runs `tenbou` as a program, bytes in and bytes out."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = json.loads((ROOT / "docs/examples/hand.json").read_text())
DEADLINE = 60        # seconds: only a guard against a hang, never a measure


def tenbou(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "webui.cli", *args], cwd=ROOT, input=stdin,
                          capture_output=True, timeout=DEADLINE)


def answers(out: bytes) -> list[dict]:
    return [json.loads(line) for line in out.decode("utf-8").splitlines()]    # strict UTF-8


def test_jsonl_answers_every_hostile_line_and_keeps_going():
    good = json.dumps(EXAMPLE).encode()
    lines = [
        good,
        b"[" * 100_000,                                                  # RecursionError in the parser
        b'{"concealed": ' + b"[" * 900 + b"]" * 900 + b', "win_tile": "1m"}',   # deep, but parses
        b'{"concealed": "\\ud800", "win_tile": "1m"}',                      # a lone surrogate, echoed back
        b'{"concealed": "\xff", "win_tile": "1m"}',                        # not UTF-8
        b"\xff\xfe",
        b"",
        good,
    ]
    done = tenbou("score", "--jsonl", stdin=b"\n".join(lines) + b"\n")     # no file: standard input
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    got = answers(done.stdout)
    assert len(got) == len(lines)
    assert [r["ok"] for r in got] == [True, False, False, False, False, False, False, True]
    assert "nested too deep" in got[1]["error"]["message"]
    assert got[2]["error"]["code"] == "bad_tile"
    assert "\ud800" in got[3]["error"]["message"]           # written as the JSON escape \ud800
    assert b"\\ud800" in done.stdout.splitlines()[3]
    assert "not UTF-8" in got[4]["error"]["message"] and "not UTF-8" in got[5]["error"]["message"]
    assert got[7] == got[0]


def test_single_hand_exit_statuses_tell_unreadable_from_not_scoring(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_bytes(b"[" * 100_000)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{}")
    for path, words in ((deep, "nested too deep"), (binary, "not UTF-8")):
        done = tenbou("score", str(path))
        assert done.returncode == 2 and words in done.stderr.decode() and b"Traceback" not in done.stderr
    done = tenbou("score", "--json", stdin=b'{"concealed": "\\ud800", "win_tile": "1m"}')
    assert done.returncode == 1 and answers(done.stdout)[0]["error"]["code"] == "bad_tile"
    assert b"Traceback" not in done.stderr
    no_win = {**EXAMPLE, "concealed": "234m406p567p33s679s", "win_tile": "9s"}
    assert tenbou("score", stdin=json.dumps(no_win).encode()).returncode == 1
    assert tenbou("score", stdin=json.dumps(EXAMPLE).encode()).returncode == 0


def test_a_log_that_is_not_json_is_unreadable_in_settle_too(tmp_path):
    log = tmp_path / "log.json"
    log.write_text("{not json")
    done = tenbou("settle", str(log))
    assert done.returncode == 2 and b"not valid JSON" in done.stderr


def test_watching_a_port_that_does_not_exist_says_so_and_stops():
    done = tenbou("table", "watch", "--port", "/dev/does-not-exist")
    assert done.returncode == 2
    assert b"/dev/does-not-exist" in done.stderr and b"no such port" in done.stderr
    assert b"Traceback" not in done.stderr


def test_scanning_a_picture_one_pixel_high_is_refused_in_words(tmp_path):
    for width, height in ((4000, 1), (1, 4000)):
        path = tmp_path / f"thin-{width}x{height}.png"
        cv2.imwrite(str(path), np.full((height, width, 3), 128, np.uint8))
        done = tenbou("scan", str(path))
        assert done.returncode == 2, done.stderr
        assert b"too narrow to show a hand" in done.stderr and b"Traceback" not in done.stderr
