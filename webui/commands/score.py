"""`tenbou score` — score a hand given as hand JSON (`shared/spec/hand-json.md`).

`tenbou score FILE` (or `-`, or no file, for stdin) explains the hand for the people at the
table; `--json` prints the contract's response; `--jsonl` reads one request a line and writes
one response a line, in order, for tools and batch checks: every line gets its answer, a line
that is not UTF-8, not JSON or nested too deep an error response. Output is always valid UTF-8
(a lone surrogate in a request comes back as its JSON escape). In single mode the exit status
is 1 when the hand cannot be scored (the reason on stderr), 2 when the input cannot be read
(no such file, not UTF-8 text, not JSON); `--jsonl` exits 0 once every line is answered, 2
when the file cannot be opened.
"""
from __future__ import annotations

import argparse
import io
import json
import sys
from typing import IO, Iterable

from scorer import score
from webui.words.explain import explain

INVALID_HAND = 1
UNREADABLE = 2


def register(sub) -> None:
    parser = sub.add_parser("score", help="score a winning hand given as hand JSON",
                            description="Score a winning hand given as hand JSON (see docs/scoring.md).")
    parser.add_argument("file", nargs="?", default="-", help="a request file, or - (the default) for stdin")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the response as JSON (the contract)")
    output.add_argument("--jsonl", action="store_true",
                        help="read one request a line, write one JSON response a line, in order")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    name = "the input" if args.file == "-" else args.file
    try:
        source = _open_binary(args.file)
    except OSError as error:
        print(f"tenbou score: cannot read {args.file}: {error.strerror or error}", file=sys.stderr)
        return UNREADABLE
    with source:
        try:
            if args.jsonl:
                score_lines(source, _binary_out(sys.stdout))
                return 0
            data = source.read()
        except OSError as error:
            print(f"tenbou score: cannot read {name}: {error.strerror or error}", file=sys.stderr)
            return UNREADABLE
    try:
        text = data if isinstance(data, str) else data.decode("utf-8")
    except UnicodeDecodeError as error:
        print(f"tenbou score: {name} is not UTF-8 text (byte {error.object[error.start]:#04x} at "
              f"offset {error.start})", file=sys.stderr)
        return UNREADABLE
    return score_one(text, as_json=args.json, where="the input" if args.file == "-" else "the file")


def _open_binary(path: str) -> IO:
    """The input as bytes (a test's text stdin stays text: it is already decoded)."""
    if path == "-":
        return _NotClosing(getattr(sys.stdin, "buffer", sys.stdin))
    return open(path, "rb")


class _NotClosing:
    """Standard input, read but left open when the command is done with it."""

    def __init__(self, stream: IO) -> None:
        self.stream = stream

    def __iter__(self):
        return iter(self.stream)

    def read(self):
        return self.stream.read()

    def __enter__(self) -> "_NotClosing":
        return self

    def __exit__(self, *exc) -> None:
        pass


def _binary_out(stream: IO[str]) -> IO:
    """Standard output's bytes, after whatever was printed to it as text."""
    stream.flush()
    return getattr(stream, "buffer", stream)


def utf8_line(response: dict) -> bytes:
    """One response as a line of valid UTF-8. A lone surrogate (from a `\\ud800` escape in the
    request) cannot be encoded; it is written as that same JSON escape instead."""
    return (json.dumps(response, ensure_ascii=False) + "\n").encode("utf-8", "backslashreplace")


def _write(out: IO, line: bytes) -> None:
    if isinstance(out, io.TextIOBase):       # a text stream (a test's StringIO)
        out.write(line.decode("utf-8"))
    else:
        out.write(line)
    out.flush()


def score_one(text: str, *, as_json: bool, where: str = "the file") -> int:
    request, response = read_and_score(text, where=where)
    if as_json:
        _write(_binary_out(sys.stdout), utf8_line(response))
    if not response.get("ok"):
        message = _printable(response["error"]["message"])
        print(f"tenbou score: {message} ({response['error']['code']})", file=sys.stderr)
        return UNREADABLE if request is _UNREAD else INVALID_HAND
    if not as_json:
        try:
            lines = explain(request, response)
        except (KeyError, TypeError, ValueError):
            # A result shape the explanation does not know yet: show it whole rather than fail.
            print("tenbou score: this result cannot be put in words yet; here it is as JSON", file=sys.stderr)
            lines = [json.dumps(response, ensure_ascii=False, indent=2)]
        _write(_binary_out(sys.stdout), ("\n".join(lines) + "\n").encode("utf-8", "backslashreplace"))
    return 0


def score_lines(lines: Iterable[bytes | str], out: IO) -> None:
    """One answer a line, in order, whatever the line holds."""
    for number, line in enumerate(lines, start=1):
        where = f"line {number}"
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as error:
                _write(out, utf8_line(_bad_request(f"{where} is not UTF-8 text (byte "
                                                   f"{error.object[error.start]:#04x} at column {error.start + 1})")))
                continue
        _, response = read_and_score(line, where=where)
        _write(out, utf8_line(response))


# read_and_score's request when the text could not be read as JSON at all
_UNREAD = object()


def read_and_score(text: str, where: str = "the file") -> tuple[object, dict]:
    if not text.strip():
        return _UNREAD, _bad_request(f"{where} is empty: a request is a JSON object")
    try:
        request = json.loads(text)
    except json.JSONDecodeError as error:
        return _UNREAD, _bad_request(f"{where} is not valid JSON ({error.msg} at line {error.lineno}, "
                                     f"column {error.colno})")
    except RecursionError:
        return _UNREAD, _bad_request(f"{where} is nested too deep to be a request")
    try:
        return request, score(request)
    except RecursionError:
        return request, _bad_request(f"{where} is nested too deep to be a request")


def _printable(text: str) -> str:
    """A message as a terminal can print it (a lone surrogate shown as its escape)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _bad_request(message: str) -> dict:
    return {"ok": False, "error": {"code": "bad_request", "message": message}}
