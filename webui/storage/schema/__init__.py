"""The database's shape: numbered migrations (`m001_initial.py`, ...) that SQLite and PostgreSQL
both run, and `tables.py`, the tables as the newest migration leaves them, for the queries.

A migration is a module named `mNNN_what.py` with `upgrade(conn)`; it is written with
SQLAlchemy's schema objects (or SQL both databases read), so one set serves both. It defines
the tables as they were at its number and never imports `tables.py`, which moves on.
"""
from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy import Connection

_MIGRATION = re.compile(r"^m(\d{3})_[a-z0-9_]+$")


def migrations() -> list[tuple[int, Callable[["Connection"], None]]]:
    """(version, upgrade) for every migration shipped, in order."""
    found = []
    for module in pkgutil.iter_modules(__path__):
        match = _MIGRATION.match(module.name)
        if match:
            found.append((int(match.group(1)), importlib.import_module(f"{__name__}.{module.name}").upgrade))
    return sorted(found, key=lambda item: item[0])
