"""`tenbou score` — score a hand given as hand JSON (`shared/spec/hand-json.md`).

`tenbou score FILE` (or `-` for stdin) explains the hand for the people at the table;
`--json` prints the contract's response; `--jsonl` reads one request a line and writes one
response a line, in order, for tools and batch checks. In single mode the exit status is 1 when
the hand cannot be scored (the reason on stderr), 2 when the file cannot be read.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Iterable

from scorer import score
from webui.explain import explain

INVALID_HAND = 1
UNREADABLE = 2


def register(sub) -> None:
    parser = sub.add_parser("score", help="score a winning hand given as hand JSON",
                            description="Score a winning hand given as hand JSON (see docs/scoring.md).")
    parser.add_argument("file", help="a request file, or - for stdin")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the response as JSON (the contract)")
    output.add_argument("--jsonl", action="store_true",
                        help="read one request a line, write one JSON response a line, in order")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        source = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
    except OSError as error:
        print(f"tenbou score: cannot read {args.file}: {error.strerror or error}", file=sys.stderr)
        return UNREADABLE
    with source:
        try:
            if args.jsonl:
                score_lines(source, sys.stdout)
                return 0
            text = source.read()
        except (OSError, UnicodeDecodeError) as error:
            print(f"tenbou score: cannot read {args.file}: {error}", file=sys.stderr)
            return UNREADABLE
    return score_one(text, as_json=args.json)


def score_one(text: str, *, as_json: bool) -> int:
    request, response = read_and_score(text)
    if as_json:
        print(json.dumps(response, ensure_ascii=False))
    if not response.get("ok"):
        print(f"tenbou score: {response['error']['message']} ({response['error']['code']})", file=sys.stderr)
        return INVALID_HAND
    if not as_json:
        try:
            lines = explain(request, response)
        except (KeyError, TypeError, ValueError):
            # A result shape the explanation does not know yet: show it whole rather than fail.
            print("tenbou score: this result cannot be put in words yet; here it is as JSON", file=sys.stderr)
            lines = [json.dumps(response, ensure_ascii=False, indent=2)]
        print("\n".join(lines))
    return 0


def score_lines(lines: Iterable[str], out: IO[str]) -> None:
    for number, line in enumerate(lines, start=1):
        _, response = read_and_score(line, where=f"line {number}")
        out.write(json.dumps(response, ensure_ascii=False) + "\n")
        out.flush()


def read_and_score(text: str, where: str = "the file") -> tuple[object, dict]:
    if not text.strip():
        return None, _bad_request(f"{where} is empty: a request is a JSON object")
    try:
        request = json.loads(text)
    except json.JSONDecodeError as error:
        return None, _bad_request(f"{where} is not valid JSON ({error.msg} at line {error.lineno}, "
                                  f"column {error.colno})")
    return request, score(request)


def _bad_request(message: str) -> dict:
    return {"ok": False, "error": {"code": "bad_request", "message": message}}
