"""The tables the scorer remembers things in (tile groups, melds, rule sets, hand shapes).

Plain dicts, not `functools.lru_cache`: its linked list of entries is one object each, which the
garbage collector walks again and again as a cache of hand shapes fills up, where a dict of
tuples costs it nothing; a full table starts over (`engine._remember`).
"""
from __future__ import annotations


class Table(dict):
    """A dict the scorer fills as it meets things, with the `.cache_clear()` of a memo, so a
    benchmark can start from an empty scorer. The scorer's modules declare their Tables as
    `dict`, which they are: compiled (setup.py), they then read them with dict operations, not
    method calls."""

    def cache_clear(self) -> None:
        self.clear()


class Tables(tuple):
    """Several Tables under one name, emptied together by `.cache_clear()`."""

    def cache_clear(self) -> None:
        for table in self:
            table.clear()
