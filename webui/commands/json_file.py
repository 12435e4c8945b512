"""Reading a JSON file named on the command line (or `-`, standard input), with the reason it
cannot be used said in a player's words."""
from __future__ import annotations

import json
import sys


class Unreadable(Exception):
    """The file cannot be read as JSON; the message says why."""


def read_json(name: str) -> object:
    try:
        if name == "-":
            text = sys.stdin.read()
        else:
            with open(name, encoding="utf-8") as source:
                text = source.read()
        return json.loads(text)
    except OSError as error:
        raise Unreadable(f"cannot read {name}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise Unreadable(f"{name} is not a text file") from None
    except json.JSONDecodeError as error:
        shown = "the input" if name == "-" else name
        raise Unreadable(f"{shown} is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})") from None
    except RecursionError:
        raise Unreadable(f"{name} is nested too deep to be a game log") from None
    except ValueError:              # a number of over 4,300 digits: Python refuses to read it
        raise Unreadable(f"{name} holds a number too long to be read") from None
