"""The import graph of webui/ and vision/, read from the source (every import statement, also
those inside functions), and the rules webui/'s wings keep (docs/layout.md).

Run `python tests/import_graph.py` to print each wing's imports and the longest chain;
tests/test_import_graph.py keeps the rules.
"""
from __future__ import annotations

import ast
import sys
from collections import defaultdict
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What each wing of webui/ may import, besides itself. Pages use the glue (play); the glue uses
# storage, printing, words and guard; storage stands on nothing. The app factory (`webui`) and
# the commands wire everything together, so they may import anything.
WINGS = {
    "words": set(),
    "storage": set(),
    "guard": {"words"},
    "printing": {"words"},
    "play": {"storage", "printing", "words", "guard"},
    "pages": {"play", "storage", "printing", "words", "guard"},
}
MOST_LEVELS = 8


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: str) -> dict[str, Path]:
    return {module_name(p): p for p in sorted((ROOT / package).rglob("*.py"))}


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of `known` that the file at `path` imports."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            # `from pkg import mod` imports pkg.mod; `from mod import name` imports mod
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph(package: str) -> dict[str, set[str]]:
    known = modules(package)
    edges = {name: imports(path, known) for name, path in known.items()}
    # a package's __init__ is imported on the way to any module inside it: not an edge of its own
    return {name: {t for t in targets if not name.startswith(t + ".")} for name, targets in edges.items()}


def wing(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[1] in WINGS else None


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def broken_rules(edges: dict[str, set[str]]) -> list[str]:
    """Imports across wings that the wings' rules forbid, and pages that import a page."""
    found = []
    for source, targets in sorted(edges.items()):
        mine = wing(source)
        if mine is None:
            continue
        for target in sorted(targets):
            theirs = wing(target)
            if mine == "pages" and theirs == "pages":
                found.append(f"{source} -> {target}: a page imports a page")
            elif theirs is None and target != "webui":
                found.append(f"{source} -> {target}: a wing imports a command or the app")
            elif theirs not in (None, mine) and theirs not in WINGS[mine]:
                found.append(f"{source} -> {target}: {mine} may not import {theirs}")
    return found


def longest_chain(edges: dict[str, set[str]]) -> list[str]:
    """The longest chain of imports (the graph has no cycles when this is asked)."""
    @cache
    def chain(node: str) -> tuple[str, ...]:
        best = max((chain(n) for n in edges.get(node, ())), key=len, default=())
        return (node, *best)
    return list(max((chain(n) for n in edges), key=len, default=()))


def main() -> int:
    edges = graph("webui")
    by_wing: dict[str, set[str]] = defaultdict(set)
    for source, targets in edges.items():
        for target in targets:
            if (wing(source) or "app") != (wing(target) or "app"):
                by_wing[wing(source) or "app and commands"].add(wing(target) or "app and commands")
    for name in [*WINGS, "app and commands"]:
        print(f"{name:>17} imports {', '.join(sorted(by_wing[name])) or 'nothing else'}")
    problems = broken_rules(edges) + [f"cycle: {' <-> '.join(c)}" for c in cycles(edges) + cycles(graph("vision"))]
    if not problems:
        chain = longest_chain(edges)
        print(f"longest chain, {len(chain)} levels (at most {MOST_LEVELS}): {' -> '.join(chain)}")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
