"""`tenbou score`: the explanation for people, `--json`, `--jsonl`, and exit statuses — every
error code through the command line too, with its message on stderr and never a traceback."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_contract import ERRORS, EXAMPLE
from webui.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_FILE = ROOT / "docs/examples/hand.json"


def run(capsys, monkeypatch, args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(["score", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_example_is_explained_for_the_table(capsys, monkeypatch):
    status, out, err = run(capsys, monkeypatch, [str(EXAMPLE_FILE)])
    assert status == 0 and err == ""
    assert "Hand      234m 405667p 33678s" in out
    assert "8s by ron off West" in out
    assert "Riichi       1 han" in out and "Pinfu" in out and "All simples" in out and "Red fives" in out
    assert "base 20, closed ron 10 = 30" in out
    assert "4 han 30 fu: 7700 points" in out
    assert "West pays South 8000 (7700 + 300 for 1 honba)" in out
    assert "South takes the riichi sticks on the table: 2000" in out


def test_a_tsumo_names_every_payer_and_the_rounding_of_fu(capsys, monkeypatch):
    request = {"concealed": "234m99s555z", "win_tile": "4m", "tsumo": True, "seat_wind": "W",
               "melds": [{"kind": "pon", "tiles": "777z", "from": "across"}, {"kind": "ankan", "tiles": "1111p"}]}
    status, out, _ = run(capsys, monkeypatch, ["-"], json.dumps(request))
    assert status == 0
    assert "pon 777z from across + concealed kan 1111p" in out
    assert "closed kan of terminals 32" in out and "= 66, rounded up to 70" in out
    assert "2 han 70 fu: 4700 points" in out
    # Non-dealer tsumo: the dealer pays 2300, the others 1200 each (rounded up per payer).
    assert "East pays West 2300" in out and "South pays West 1200" in out and "North pays West 1200" in out


def test_json_prints_the_contract(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, ["--json", str(EXAMPLE_FILE)])
    from scorer import score
    assert status == 0 and json.loads(out) == score(EXAMPLE)


def test_jsonl_answers_each_line_in_order_and_survives_bad_lines(capsys, monkeypatch):
    lines = [json.dumps(EXAMPLE), "{not json", "", json.dumps(ERRORS[0][0]), json.dumps({**EXAMPLE, "honba": 0})]
    status, out, err = run(capsys, monkeypatch, ["--jsonl", "-"], "\n".join(lines) + "\n")
    responses = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and err == ""
    assert [r["ok"] for r in responses] == [True, False, False, False, True]
    assert [r.get("error", {}).get("code") for r in responses] == [None, "bad_request", "bad_request", "bad_tile", None]
    assert "line 2 is not valid JSON" in responses[1]["error"]["message"]
    assert sum(t["points"] for t in responses[4]["transfers"]) == 9700


@pytest.mark.parametrize("request_, code, words", ERRORS, ids=[f"{c}-{i}" for i, (_, c, _) in enumerate(ERRORS)])
def test_every_error_exits_non_zero_with_the_message_on_stderr(capsys, monkeypatch, request_, code, words):
    status, out, err = run(capsys, monkeypatch, ["-"], json.dumps(request_))
    assert status == 1 and out == ""
    assert err.startswith("tenbou score: ") and err.rstrip().endswith(f"({code})")
    assert "Traceback" not in err
    if words:
        assert words in err


@pytest.mark.parametrize("code, request_", [
    ("not_a_winning_hand", {**EXAMPLE, "concealed": "234m406p567p33s679s", "win_tile": "9s"}),
    ("no_yaku", {**EXAMPLE, "riichi": False, "ura_indicators": "", "concealed": "234m406p567p33s789s",
                 "win_tile": "8s"}),
])
def test_engine_errors_exit_non_zero_too(capsys, monkeypatch, code, request_):
    status, out, err = run(capsys, monkeypatch, ["--json", "-"], json.dumps(request_))
    assert status == 1
    assert json.loads(out)["error"]["code"] == code
    assert err.rstrip().endswith(f"({code})")


def test_a_file_that_is_not_json_or_not_there(capsys, monkeypatch, tmp_path):
    broken = tmp_path / "hand.json"
    broken.write_text('{"concealed": ')
    status, _, err = run(capsys, monkeypatch, [str(broken)])
    assert status == 2 and "is not valid JSON" in err     # unreadable input, as in every command
    status, _, err = run(capsys, monkeypatch, [str(tmp_path / "missing.json")])
    assert status == 2 and "cannot read" in err and "Traceback" not in err


def test_the_installed_command_line_runs_as_a_program():
    done = subprocess.run([sys.executable, "-m", "webui.cli", "score", "-"], input='{"concealed": "1m"}',
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "(bad_request)" in done.stderr


def test_the_other_rule_sets_are_explained_too(capsys, monkeypatch):
    hand = {"concealed": "234m456p99s123s555z", "win_tile": "4p", "discarder": "E", "seat_wind": "S"}
    status, out, err = run(capsys, monkeypatch, ["-"], json.dumps({**hand, "rules": "chinese-classical",
                                                                   "flowers": "2f"}))
    assert status == 0 and err == "", err
    assert "Flowers   2f" in out and "Scores    " in out and "Doubles   " in out
    assert "East pays South" in out and "West pays South" in out
    status, out, err = run(capsys, monkeypatch, ["-"], json.dumps({**hand, "rules": "fundamentals", "pool": 2}))
    assert status == 0 and err == "", err
    assert "Value     4 points" in out and "East pays South 4" in out and "South takes the draw pool: 2" in out


def test_a_result_the_explanation_does_not_know_is_shown_whole(capsys, monkeypatch):
    import webui.commands.score as command
    monkeypatch.setattr(command, "score", lambda request: {"ok": True, "mystery": 1})
    status, out, err = run(capsys, monkeypatch, [str(EXAMPLE_FILE)])
    assert status == 0 and json.loads(out[out.index("{"):]) == {"ok": True, "mystery": 1}
    assert "cannot be put in words" in err
