"""The scorer runs compiled only while its compiled modules match their sources (`scorer._native`):
TENBOU_PURE_PYTHON runs the sources, an edited source is never shadowed by a stale compiled
module, and both give the same answers."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import scorer
from scorer import _native

ROOT = Path(__file__).resolve().parents[1]
HANDS = [
    {"concealed": "123m456p789s11z222z", "win_tile": "2z", "tsumo": True, "riichi": True, "dora_indicators": "1z"},
    {"concealed": "234m406p345678s11z", "win_tile": "8s", "discarder": "S", "seat_wind": "E", "riichi": True,
     "dora_indicators": "9m", "ura_indicators": "4p"},
    {"concealed": "22m456678p", "win_tile": "2m", "tsumo": True, "seat_wind": "S", "honba": 2,
     "melds": [{"kind": "pon", "tiles": "777z", "from": "across"}, {"kind": "chi", "tiles": "123s", "from": "left"}]},
    {"concealed": "19m19p19s1234567z7z", "win_tile": "7z", "discarder": "N", "seat_wind": "W"},
    {"concealed": "123m456p789s11z22z", "win_tile": "2z", "tsumo": True},      # 13 tiles: an error
]
compiled_only = pytest.mark.skipif(scorer.BUILD != "compiled",
                                   reason=f"the scorer is not compiled in this install ({scorer.BUILD})")


def _run(code: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {name: value for name, value in os.environ.items() if name != "TENBOU_PURE_PYTHON"}
    environment.update(PYTHONPATH=str(cwd), **env)
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=environment, capture_output=True,
                          text=True, timeout=60)


SCORE_HANDS = ("import json, sys, scorer, scorer.riichi.engine as engine\n"
               f"answers = [scorer.score(hand) for hand in {HANDS!r}]\n"
               "print(json.dumps({'build': scorer.BUILD, 'engine': engine.__file__, 'answers': answers}))")


def test_the_python_scorer_answers_as_the_installed_one():
    here = {"build": scorer.BUILD, "answers": [scorer.score(hand) for hand in HANDS]}
    run = _run(SCORE_HANDS, ROOT, TENBOU_PURE_PYTHON="1")
    pure = json.loads(run.stdout)
    assert pure["build"] == "python" and pure["engine"].endswith("engine.py"), run.stderr
    assert pure["answers"] == here["answers"]
    assert [answer["ok"] for answer in pure["answers"]] == [True, True, True, True, False]


@compiled_only
def test_the_installed_scorer_runs_compiled():
    from scorer.riichi import engine
    assert not engine.__file__.endswith(".py")
    assert not _native.changed_sources(_native.compiled_modules())


@compiled_only
def test_an_edited_source_runs_as_python_with_a_warning_not_as_its_stale_compiled_module(tmp_path):
    shutil.copytree(ROOT / "scorer", tmp_path / "scorer")
    for library in ROOT.glob("*__mypyc*"):         # the compiled modules' shared code
        shutil.copy(library, tmp_path)
    yaku = tmp_path / "scorer/riichi/yaku.py"
    yaku.write_text(yaku.read_text() + "\n# an edit since the build\n")
    run = _run(SCORE_HANDS, tmp_path)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["build"] == "python, sources changed"
    assert result["engine"] == str(tmp_path / "scorer/riichi/engine.py")
    assert "scorer.riichi.yaku changed" in run.stderr and "pip install -e ." in run.stderr
    assert result["answers"] == [scorer.score(hand) for hand in HANDS]
