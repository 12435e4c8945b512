"""A small memo for the scorer's pure functions of hashable arguments.

`functools.lru_cache` keeps a linked list of its entries, one list object each, and the
garbage collector walks all of them again and again as a cache of hand shapes fills up. A
plain dict holding tuples costs the collector nothing; when it is full it starts over.
"""
from __future__ import annotations

from functools import wraps
from typing import Callable


def memo(maxsize: int) -> Callable:
    """Memoise a function of positional, hashable arguments; `.cache_clear()` empties it."""
    def decorate(function: Callable) -> Callable:
        cache: dict = {}

        missing = object()

        @wraps(function)
        def remembered(*args):
            value = cache.get(args, missing)
            if value is not missing:
                return value
            value = function(*args)
            if len(cache) >= maxsize:
                cache.clear()
            cache[args] = value
            return value

        remembered.cache_clear = cache.clear
        return remembered
    return decorate


class Table(dict):
    """A dict the scorer fills as it meets things (tile groups, melds, rule sets), with the
    `.cache_clear()` of a memo, so a benchmark can start from an empty scorer."""

    def cache_clear(self) -> None:
        self.clear()


class Tables(tuple):
    """Several Tables under one name, emptied together by `.cache_clear()`."""

    def cache_clear(self) -> None:
        for table in self:
            table.clear()
