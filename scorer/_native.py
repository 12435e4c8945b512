"""Whether the scorer's compiled modules may run: only while each matches its source.

setup.py compiles the scorer's hot modules with mypyc where it can and lists them, each with
the hash of the source it was compiled from, in `native.json` beside this file. Python imports a
compiled module before the source beside it, so a module edited after the build would run as
it was (an editable install leaves the compiled files in the checkout). If any source has
changed, or TENBOU_PURE_PYTHON is set, every listed module is imported from its source instead:
all of them, because compiled modules call each other directly, not through their imports.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import warnings
from importlib.abc import MetaPathFinder
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "native.json"


class SourceFinder(MetaPathFinder):
    """Finds the listed modules as their .py sources, ahead of the compiled ones."""

    def __init__(self, sources: dict[str, Path]) -> None:
        self.sources = sources

    def find_spec(self, name, path=None, target=None):
        source = self.sources.get(name)
        return importlib.util.spec_from_file_location(name, source) if source else None


def compiled_modules() -> dict[str, str]:
    """The compiled modules and their sources' hashes at build time; none for a Python build."""
    try:
        return json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return {}


def source_of(module: str) -> Path:
    return PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".py")


def changed_sources(compiled: dict[str, str]) -> list[str]:
    return [module for module, digest in compiled.items()
            if hashlib.sha256(source_of(module).read_bytes()).hexdigest() != digest]


def choose() -> str:
    """Put the sources first where the compiled modules must not run; say which runs:
    "compiled", "python" (nothing compiled, or TENBOU_PURE_PYTHON) or "python, sources changed"."""
    compiled = compiled_modules()
    if not compiled:
        return "python"
    pure = bool(os.environ.get("TENBOU_PURE_PYTHON"))
    changed = [] if pure else changed_sources(compiled)
    if not (pure or changed):
        return "compiled"
    sys.meta_path.insert(0, SourceFinder({module: source_of(module) for module in compiled}))
    if pure:
        return "python"
    warnings.warn(f"Tenbou's compiled scorer is older than its sources ({', '.join(changed)} changed), so "
                  "the scorer runs as Python, slower; install Tenbou again (pip install -e .) to compile it",
                  stacklevel=2)
    return "python, sources changed"


BUILD = choose()
