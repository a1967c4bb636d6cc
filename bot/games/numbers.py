"""Whole numbers as people type them, bounded: ``42``, never ``²`` or forty digits.

``str.isdigit`` also says yes to ``²`` and ``٣`` (which ``int`` then refuses or reads)
and to a hundred digits (which overflow a database column or a date): every number a
player or host types goes through :func:`whole_number` first, so that a number out of
its range is refused with the range named instead of failing deep inside the host.
"""

from __future__ import annotations

import re

MAX_DIGITS = 18
"""No number anyone types needs more (it keeps every value inside a signed 64-bit
column: a seed, a game number)."""
LARGEST = 10**MAX_DIGITS - 1

_ASCII_DIGITS = re.compile(r"[0-9]+")


def whole_number(text: str) -> int | None:
    """The number ``text`` spells in ASCII digits (at most :data:`MAX_DIGITS`), else None."""
    word = text.strip()
    if len(word) > MAX_DIGITS or not _ASCII_DIGITS.fullmatch(word):
        return None
    return int(word)


def looks_like_a_number(text: str) -> bool:
    """Digits only (any script, any length): meant as a number, even if out of range."""
    return text.strip().isdigit()
