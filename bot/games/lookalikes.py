"""Letters that look like Latin ones, shared by every game's order parser.

A phone keyboard left on Russian or Greek types ``В4`` (a Cyrillic Ve) where a player
meant ``B4``; a Japanese or Chinese one types fullwidth ``Ｂ４``. Fullwidth forms are the
same letters in another width, so they are read as plain ones (NFKC, :func:`plain`). A
Cyrillic or Greek letter is another letter that only looks the same, so a word that would
be a cell in Latin letters is pointed out instead, quoting it as it was typed and giving
the Latin spelling (:func:`pointed_out`); nothing is changed by it. The rules files say
nothing either way; bst already pointed them out, and every game now does the same.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from typing import TypeVar

from bot.games.base import OrderSyntaxError

_Order = TypeVar("_Order")

_TABLE = str.maketrans(
    "АВСЕНІКМОРТХУаеорсхуіΑΒΕΖΗΙΚΜΝΟΡΤΥΧαεικνορτυχ",
    "ABCEHIKMOPTXYaeopcxyiABEZHIKMNOPTYXaeiknoptux",
)
"""Cyrillic and Greek capitals and small letters that are drawn like a Latin one."""

_CELL_SHAPE = re.compile(r"^[a-z]{1,2}\s*-?\s*\d{1,4}$", re.IGNORECASE)
"""Any game's cell: a letter or two then a number (``B4``, ``h-14``, ``f11``)."""

_EDGES = "`'\"“”‘’«»()[].,;:!?"


def plain(text: str) -> str:
    """``text`` with fullwidth letters and digits (``Ｂ４``) read as plain ones (NFKC)."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def pointed_out(text: str) -> str:
    """Why a word of ``text`` that would be a cell in Latin letters is not one, quoting the
    word as typed (``''`` when no word is such)."""
    for typed in plain(text).split():
        word = typed.strip(_EDGES)
        if word.isascii():
            continue
        latin = word.translate(_TABLE)
        if latin.isascii() and _CELL_SHAPE.match(latin):
            strange = next(c for c in word if not c.isascii())
            script = unicodedata.name(strange, "non-Latin").split()[0].capitalize()
            return (
                f"{word!r} is written with a {script} letter {strange!r}: "
                f"type the cell in Latin letters, such as `{latin.upper()}`"
            )
    return ""


def as_typed(message: str, text: str) -> str:
    """``message`` with each word of ``text`` it quotes lower-cased (``'zz9'``) quoted as it
    was typed (``'ZZ9'``)."""
    for typed in plain(text).split():
        word = typed.strip(_EDGES)
        if word != word.lower():
            message = message.replace(repr(word.lower()), repr(word))
    return message


def cells_pointed_out(parse: Callable[[str], _Order]) -> Callable[[str], _Order]:
    """A game's ``parse_order`` that reads fullwidth text as plain and, when it cannot read
    an order, points out a cell typed with a look-alike letter, or else gives its own
    refusal with the words it quotes as they were typed (parsers read a lower-cased copy)."""

    @functools.wraps(parse)
    def parse_order(text: str) -> _Order:
        try:
            return parse(plain(text))
        except OrderSyntaxError as refusal:
            why = pointed_out(text) or as_typed(str(refusal), text)
            if why and why != str(refusal):
                raise OrderSyntaxError(why) from None
            raise

    return parse_order
