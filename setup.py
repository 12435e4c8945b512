"""Tenbou's build. pyproject.toml describes the project; this file only adds the compiled scorer.

The scorer's hot modules (NATIVE) are plain, type-checked Python, which mypyc compiles to C
extensions when the machine has a C compiler: the same code, some three to four times faster at
scoring a hand (docs/scoring.md, "Speed"). Without a compiler, or with TENBOU_PURE_PYTHON=1 set
at install, they install and run as Python; a type error in them stops the install. The build records each compiled module's source hash
in scorer/native.json, and `scorer/_native.py` runs the sources instead whenever one has changed
since, so an edited module is never shadowed by its stale compiled copy.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# What scoring a hand runs through, from reading the request to rendering the answer. The
# modules they import but that are not here (tiles, hand, rules, memo ...) stay Python: their
# classes are used by every rule set, and mypyc's native classes would change how they behave.
NATIVE = [
    "scorer/contract.py", "scorer/request.py", "scorer/hand_checks.py", "scorer/tally.py",
    "scorer/reading.py", "scorer/riichi/engine.py", "scorer/riichi/readings.py",
    "scorer/riichi/yaku.py", "scorer/riichi/fu.py", "scorer/riichi/dora.py",
    "scorer/riichi/limits.py", "scorer/riichi/payments.py", "scorer/riichi/tile_facts.py",
]
MANIFEST = "native.json"


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class BuildNative(build_ext):
    """build_ext that leaves the scorer as Python when compiling fails (no compiler, no headers),
    and records what it compiled."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 — any failure to compile means "run it as Python"
            print(f"tenbou: the scorer stays Python, compiling it failed: {error}", file=sys.stderr)
            return
        package = Path(self.get_ext_fullpath("scorer.contract")).parent
        manifest = {path[:-3].replace("/", "."): source_hash(ROOT / path) for path in NATIVE}
        (package / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def native_extensions() -> list:
    if os.environ.get("TENBOU_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("tenbou: the scorer stays Python: mypyc is not installed", file=sys.stderr)
        return []
    # A type error in these modules stops the install, with mypy's message: it is a bug in the
    # scorer, which a quiet fallback to Python would hide from CI behind slower figures.
    return mypycify(NATIVE, opt_level="3")


setup(ext_modules=native_extensions(), cmdclass={"build_ext": BuildNative})
