"""Sonar's orders and the parser that reads them (``shared/contracts/sonar.md``, Orders).

In the battle the player to move sends shots, cells separated by commas and/or
spaces (``f11, a9 g24``; words after them are talk: ``f11, a9 gotcha!``), or ``random``: as many charges as allowed, drawn by the
host. During setup, with ``placement=given``, a player sends their whole fleet by DM,
one ``LENGTH BOW FACING`` per sub separated by newlines, commas or semicolons
(``2 n19 r, 3 a3 ur``), or ``random`` to withdraw it. Words are case-insensitive.
Host words (join, leave, help, rules, status, board) are read by the host before it
calls the parser; anything else that is not an order raises OrderSyntaxError saying
what was expected, with an example.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games import lookalikes
from bot.games.base import IllegalOrderError, OrderSyntaxError
from bot.games.sonar.board import Board, Cell, parse_cell, parse_facing
from bot.games.sonar.encounters import Course
from bot.games.sonar.fleet import FLEET_EXAMPLE

MAX_ORDER_TEXT = 2000
"""Longer texts are refused before any parsing: no order is near this long."""

SHOTS_EXAMPLE = "`f11, a9` (cells to fire at) or `random`"

SHOOT_EXAMPLE = "#sonar f11, a9"
"""A turn's shots as a captain types them, for the host's hints and reminders."""


@dataclass(frozen=True)
class Shots:
    """Depth charges at these cells, fired in this order."""

    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class AtRandom:
    """``random``: in the battle, every allowed charge at random; in setup, the player's
    fleet withdrawn (placed at random when the battle starts)."""


@dataclass(frozen=True)
class Fleet:
    """A whole fleet, the subs in the order the player listed them (turn 0 positions)."""

    subs: tuple[Course, ...]


Order = Shots | AtRandom | Fleet

_SEPARATORS = re.compile(r"\\n|[\n;,]")
_SUB = re.compile(r"^(\d{1,2})\s+([a-z]\d{1,3})\s+([a-z_\-]+)$")
_LEAD_WORDS = re.compile(r"^(?:(?:shoot|fire)(?:\s+at)?\s+)?")
_FLEET_WORD = re.compile(r"^fleet\s*:?\s*")
_HAS_DIGIT = re.compile(r"\d")


@lookalikes.cells_pointed_out
def parse_order(text: str) -> Order:
    """Text → order; raises OrderSyntaxError saying what was expected, with an example."""
    if len(text) > MAX_ORDER_TEXT:
        raise OrderSyntaxError(
            f"that message is too long to be an order: expected shots such as {SHOTS_EXAMPLE}"
        )
    clean = text.strip().lower()
    if clean.startswith("#sonar"):
        clean = clean[len("#sonar") :].strip()
    if not clean:
        raise OrderSyntaxError(f"expected shots such as {SHOTS_EXAMPLE}")
    if clean in ("random", "at random"):
        return AtRandom()
    clean = _FLEET_WORD.sub("", clean)
    entries = [" ".join(part.split()) for part in _SEPARATORS.split(clean)]
    entries = [entry for entry in entries if entry]
    if entries and entries[0][:1].isdigit():
        return Fleet(tuple(_sub(entry) for entry in entries))
    cleaned = _LEAD_WORDS.sub("", clean.replace("\\n", " "))
    words = [word for word in re.split(r"[\s,]+", cleaned) if word]
    if not words:
        raise OrderSyntaxError(f"expected shots such as {SHOTS_EXAMPLE}")
    words = _without_talk(words)
    cells = []
    for word in words:
        try:
            cells.append(parse_cell(word))
        except OrderSyntaxError:
            raise OrderSyntaxError(
                f"{word!r} is not a cell: expected shots such as {SHOTS_EXAMPLE}, "
                f"or in setup (by DM) a fleet such as {FLEET_EXAMPLE} (length, bow cell and facing "
                "of each sub)"
            ) from None
    return Shots(tuple(cells))


def _without_talk(words: list[str]) -> list[str]:
    """The cells of a volley without the talk after them (``f11, a9 gotcha!``): talk
    starts at the first word with no digit in it, after at least one cell. A cell in the
    talk is refused rather than dropped (it was meant as a shot)."""
    start = next((i for i, word in enumerate(words) if i and not _HAS_DIGIT.search(word)), None)
    if start is None:
        return words
    for word in words[start + 1 :]:
        try:
            parse_cell(word)
        except OrderSyntaxError:
            continue
        raise OrderSyntaxError(
            f"cells first, then talk: {word!r} comes after {words[start]!r}; write the cells "
            f"together, such as {SHOTS_EXAMPLE}"
        )
    return words[:start]


def _sub(entry: str) -> Course:
    match = _SUB.match(entry)
    if not match:
        raise OrderSyntaxError(
            f"{entry!r} is neither shots such as `f11, a9` nor a sub such as `3 a3 ur` (its "
            f"length, bow cell and facing); a whole fleet reads {FLEET_EXAMPLE}"
        )
    return Course(parse_cell(match.group(2)), parse_facing(match.group(3)), int(match.group(1)))


def describe_order(order: Order) -> str:
    """The canonical text of an order: it parses back to the same order."""
    if isinstance(order, Shots):
        return ", ".join(map(str, order.cells))
    if isinstance(order, AtRandom):
        return "random"
    return ", ".join(f"{sub.length} {sub.bow} {sub.facing.value}" for sub in order.subs)


def check_shots(board: Board, order: Shots, allowed: int, why: str) -> None:
    """Refuse shots off the board, twice at one cell, or more than ``allowed`` (§4.2);
    ``why`` says how ``allowed`` was counted (one per live sub, ``one_shot``, the
    halved first turn)."""
    seen = set()
    for cell in order.cells:
        board.check(cell)
        if cell in seen:
            raise IllegalOrderError(
                f"{cell} appears twice: each cell may be fired at once per turn, e.g. "
                "`#sonar f11, a9`"
            )
        seen.add(cell)
    if len(order.cells) > allowed:
        plural = "s" if allowed != 1 else ""
        example = ", ".join(map(str, order.cells[:allowed]))
        raise IllegalOrderError(
            f"you may fire at most {allowed} charge{plural} this turn ({why}); you sent "
            f"{len(order.cells)}: send fewer, e.g. `#sonar {example}`"
        )
