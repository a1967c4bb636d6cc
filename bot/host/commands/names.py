"""People's names as plain text, the same on every platform.

A display name is whatever its owner typed, and the host shows it in public posts,
on maps and in records. So, where a name comes in (:func:`plain_name`), the host keeps
only what reads as a name: the compatibility form of its characters (``ｄｒａｋｅ``
and ``𝐝𝐫𝐚𝐤𝐞`` are ``drake``, not look-alikes of it); no control, format or bidi
characters (a right-to-left override would turn the rest of a post around, a zero-width
space would make a look-alike of another name); one line; at most
:data:`MAX_NAME` characters. The host's own markup is neutralised: backticks (its
commands are written in them) and angle brackets (its mention and channel tokens,
``<<@id>>``, are made of them, and so are Discord's ``<@id>``). What a platform's own
markup makes of the rest (Discord's ``*``, ``[…](…)``, ``#``) is its adapter's to escape.
"""

from __future__ import annotations

import functools
import re
import unicodedata

MAX_NAME = 32  # Discord's longest display name; X's names are handles of 15
FALLBACK = "player"

_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
_LOOK_ALIKES = str.maketrans({"`": "ˋ", "<": "‹", ">": "›"})
_SPACES = re.compile(r"\s+")


@functools.lru_cache(maxsize=1024)
def plain_name(name: str | None) -> str:
    """``name`` as the host keeps and shows it (see the module docstring). Remembered:
    every message's sender is named, and a burst comes from a few people (a tenth of an
    order's handling was spent here)."""
    if not name:
        return ""  # (no name given: the platform's own fallback applies, as before)
    text = unicodedata.normalize("NFKC", name)
    text = "".join(
        " " if char.isspace() else char
        for char in text
        if char.isspace() or unicodedata.category(char) not in _DROPPED
    )
    text = _SPACES.sub(" ", text.translate(_LOOK_ALIKES)).strip()
    return text[:MAX_NAME].rstrip() or FALLBACK  # (nothing readable was left)
