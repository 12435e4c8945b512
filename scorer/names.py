"""A player's or a member's name as people at the table read it.

A name is shown on scoreboards, settlements, standings and exports, and two seats of one game
or two members of one club must not read alike. So a name is normalised (NFC: an accented
letter typed as one character or as letter plus accent is the same name), and refused when
people could not read it as typed:

- control characters, lone surrogates and every invisible format character (zero-width
  spaces and joiners, direction marks and bidi controls: they hide or redraw text);
- nothing left to see once spaces, combining marks and blank fillers are set aside;
- one word mixing Latin, Cyrillic and Greek letters, whose look-alikes (Cyrillic А, Greek Α,
  Latin A) would let "Аki" pass for "Aki". Words in different scripts ("Ivan Иван"), and
  Latin with Japanese or Chinese, are fine.
"""
from __future__ import annotations

import unicodedata

# Characters that draw nothing yet are letters or symbols to Unicode (Hangul fillers, the
# blank braille pattern), so a name of them alone would be empty on the page.
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Scripts with letters that look like each other's.
_LOOK_ALIKE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def clean_name(value: str, longest: int) -> tuple[str, str | None]:
    """(the name normalised, why it is refused or None). `value` is text; spaces are collapsed."""
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if len(name) > longest:
        return name, f"at most {longest} characters"
    for c in name:
        category = unicodedata.category(c)
        if category in ("Cc", "Cs", "Cf"):
            return name, "letters, digits and punctuation only: no control or invisible characters " \
                         "(zero-width spaces, direction marks)"
    if name and not any(_visible(c) for c in name):
        return name, "a name people can see: it holds only blank characters"
    for word in name.split():
        scripts = {_script(c) for c in word if c.isalpha()} - {None}
        if len(scripts) > 1:
            return name, f"one word mixes {' and '.join(sorted(s.title() for s in scripts))} letters, " \
                         "which look alike (type the name in one alphabet)"
    return name, None


def _visible(c: str) -> bool:
    return not (c.isspace() or c in _BLANKS or unicodedata.category(c) in ("Mn", "Me", "Zs"))


def _script(c: str) -> str | None:
    first = unicodedata.name(c, "").split(" ", 1)[0]
    return first if first in _LOOK_ALIKE_SCRIPTS else None


def same_name(a: str, b: str) -> bool:
    """Whether two names read as one person's: alike but for case and normal form."""
    return fold(a) == fold(b)


def fold(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()
