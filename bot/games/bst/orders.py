"""Orders of bst and the parser that reads them from what players type (rules §3, §4).

The parser is tolerant the way people are: it drops the ``#bst`` tag, any other
hashtags and @mentions, ignores case, reads fullwidth letters and digits as plain
ones (``Ｅ５`` is ``E5``), and accepts ``shoot``/``fire`` or a bare cell, ``move``/``my``
or neither before a ship, ``at`` or not before a cell. Words after a shot's cell are
talk (``#bst H7 take that, bob!``) and are ignored; a second cell is not talk (§4).
Host commands (join, help, …) are read by the host before it calls the parser.
Anything else is an :class:`OrderSyntaxError` saying what was expected, with an example.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games import lookalikes
from bot.games.base import OrderSyntaxError
from bot.games.bst.cells import ROW_LETTERS, Cell, looks_like_cell, parse_cell
from bot.games.bst.fleet import SHIP_WORDS, Direction, ShipKind

MAX_ORDER_TEXT = 2000
"""Longer texts are refused before any parsing: no order is near this long."""

MAX_RANGE = 99
"""A range longer than this is refused without expanding it (no ship is longer than 5)."""


@dataclass(frozen=True)
class Shoot:
    cell: Cell


@dataclass(frozen=True)
class Move:
    kind: ShipKind
    at: Cell
    steps: int
    direction: Direction


@dataclass(frozen=True)
class Rotate:
    kind: ShipKind
    at: Cell


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class Place:
    """A fleet placement; ``ships`` is None for ``random``."""

    ships: tuple[tuple[ShipKind, tuple[Cell, ...]], ...] | None


Order = Shoot | Move | Rotate | Pass | Place

EXAMPLES = (
    "`H14` (shoot, in public), `move cruiser at G7 3 up` or `rotate carrier at E8` "
    "(by DM), or `pass`"
)
PLACEMENT_EXAMPLE = "`sub: A2, carrier: C1-C5` or `cruiser: B2-B4, cruiser: E5-G5` or `random`"

_TAGS = re.compile(r"(?<![\w#@])[#@][\w.\-]*")
_SHIP = r"(aircraft\s*carrier|carrier|cv|submarine|sub|cruiser)"
_CELL = rf"({ROW_LETTERS}\s*-?\s*\d{{1,4}})"
_DIRECTION = r"(up|down|left|right|forward|forwards|backward|backwards|back)"

_SHOOT = re.compile(rf"^(?:(?:shoot|fire)(?:\s+at)?\s+)?{_CELL}(?!\w)(.*)$")
_SECOND_CELL = re.compile(rf"^[\s,;&+/]*(?:and\s+|then\s+)?{_CELL}(?!\w)")

_ROTATE = re.compile(rf"^(?:rotate|turn)\s+(?:my\s+)?{_SHIP}\s+(?:at\s+)?{_CELL}$")
_MOVE = re.compile(
    rf"^(?:move\s+)?(?:my\s+)?{_SHIP}\s+(?:at\s+)?{_CELL}\s+(?:(\d{{1,4}})\s*)?{_DIRECTION}$"
)
_PLACE_PIECE = re.compile(rf"^{_SHIP}\s*:?\s*{_CELL}(?:\s*(?:-|–|to)\s*{_CELL})?$")
_OTHER_SHIP = re.compile(
    rf"^(?:place\s+)?([a-z][a-z]*(?: [a-z]+)?)\s*(?::\s*{_CELL}|\s{_CELL}\s*(?:-|–|to)\s*{_CELL})"
)
"""A ship's word and its cells, as a placement has them, whatever the word."""
_NOT_SHIPS = frozenset({"move", "my", "rotate", "turn", "shoot", "fire", "at", "place"})
_PIECES = re.compile(rf"{_SHIP}\s*:?\s*{_CELL}(?:\s*(?:-|–|to)\s*{_CELL})?")
_PLACE_WORDS = re.compile(r"^(?:place\s+)?(?:random|at random|random placement|randomly)$")


def _clean(text: str) -> str:
    """Drop tags and mentions, lower-case, and squeeze spaces within each line (fullwidth
    forms are read as plain ones before, by :mod:`bot.games.lookalikes`)."""
    if "#" in text or "@" in text:
        text = _TAGS.sub(" ", text)
    lines = text.lower().splitlines()
    if len(lines) == 1:  # (an order is one line)
        return " ".join(lines[0].split())
    squeezed = (" ".join(line.split()) for line in lines)
    return "\n".join(line for line in squeezed if line)


def _typed(text: str) -> str:
    """The text as it was written, tags dropped, for a refusal to quote."""
    return " ".join(_TAGS.sub(" ", text).split())


def _kind(word: str) -> ShipKind:
    return SHIP_WORDS[" ".join(word.split()) if "aircraft" not in word else "aircraft carrier"]


@lookalikes.cells_pointed_out
def parse_order(text: str) -> Order:
    """Text → order; raises OrderSyntaxError saying what was expected, with an example."""
    if len(text) > MAX_ORDER_TEXT:
        raise OrderSyntaxError(
            f"that message is too long to be an order: expected something like {EXAMPLES}"
        )
    clean = _clean(text)
    if not clean:
        raise OrderSyntaxError(f"expected an order such as {EXAMPLES}")
    one_line = clean.replace("\n", " ")
    if one_line == "pass":
        return Pass()
    if _PLACE_WORDS.match(one_line):
        return Place(None)
    match = _SHOOT.match(one_line)
    if match:
        talk = match.group(2)
        second = _SECOND_CELL.match(talk)
        if second:
            raise OrderSyntaxError(
                f"one shot a turn: expected one cell, such as `H14`; got "
                f"{_upper(match.group(1))} and {_upper(second.group(1))} "
                "(words after the cell are talk, but a second cell is not)"
            )
        return Shoot(parse_cell(match.group(1)))
    match = _ROTATE.match(one_line)
    if match:
        return Rotate(_kind(match.group(1)), parse_cell(match.group(2)))
    match = _MOVE.match(one_line)
    if match:
        return _move(match, text)
    typed = _typed(text)  # (quoted in refusals as it was written)
    if re.match(rf"^(?:place\s+)?{_SHIP}\s*:?\s*{ROW_LETTERS}\s*-?\s*\d", one_line):
        return _placement(clean, typed)
    other = _OTHER_SHIP.match(one_line)
    if other and other.group(1) not in _NOT_SHIPS:
        # A placement of a ship bst has not (`battleship: C1-C4`), in setup or in battle.
        raise OrderSyntaxError(
            f"there is no {other.group(1)} in bst: a fleet is a carrier (5 cells) and a "
            f"submarine (1), or two cruisers (3), placed by DM before the battle, e.g. "
            f"{PLACEMENT_EXAMPLE}; once it has begun, send {EXAMPLES}; got {typed[:60]!r}"
        )
    if one_line.startswith(("move", "my ")):
        raise OrderSyntaxError(
            "expected a move such as `move cruiser at G7 3 up`: the ship, a cell it occupies, "
            f"how many cells and which way (up, down, left or right); got {typed!r}"
        )
    if one_line.startswith(("rotate", "turn")):
        raise OrderSyntaxError(
            f"expected a rotation such as `rotate carrier at E8`: the ship and a cell it occupies; got {typed!r}"
        )
    if one_line.startswith(("shoot", "fire")):
        raise OrderSyntaxError(f"expected a shot such as `shoot H14` or just `H14`; got {typed!r}")
    raise OrderSyntaxError(f"expected an order such as {EXAMPLES}; got {typed[:60]!r}")


def _upper(cell: str) -> str:
    return "".join(cell.split()).upper()


def _move(match: re.Match[str], text: str) -> Move:
    kind = _kind(match.group(1))
    at = parse_cell(match.group(2))
    word = match.group(4)
    if word not in ("up", "down", "left", "right"):
        raise OrderSyntaxError(
            "ships have no bow, so moves say up, down, left or right, "
            f"e.g. `move cruiser at G7 3 up`; got {_typed(text)!r}"
        )
    steps = int(match.group(3)) if match.group(3) else 1
    return Move(kind, at, steps, Direction(word))


def _placement(text: str, typed: str) -> Place:
    text = re.sub(r"^place\s+", "", text)
    pieces = [p.strip() for p in re.split(r"[\n,;]+", text) if p.strip()]
    ships: list[tuple[ShipKind, tuple[Cell, ...]]] = []
    for piece in pieces:
        match = _PLACE_PIECE.match(piece)
        if not match:
            found = list(_PIECES.finditer(piece))
            if len(found) > 1 and not _PIECES.sub("", piece).strip():
                # Ships one after the other with nothing between them (rules §3).
                fixed = ", ".join(_piece_text(m) for m in found)
                raise OrderSyntaxError(
                    "put a comma (or a new line) between the ships of a placement: "
                    f"`{fixed}`; got {typed[:80]!r}"
                )
            raise OrderSyntaxError(
                "expected a placement: each ship, a colon and its cells, "
                f"separated by newlines, commas or semicolons, e.g. {PLACEMENT_EXAMPLE}; "
                f"got {typed[:80]!r}"
            )
        kind = _kind(match.group(1))
        first = parse_cell(match.group(2))
        last = parse_cell(match.group(3)) if match.group(3) else first
        ships.append((kind, _run(kind, first, last)))
    return Place(tuple(ships))


def _piece_text(match: re.Match[str]) -> str:
    """One ship of a placement as it should be typed (``carrier: A1-A5``)."""
    kind = _kind(match.group(1)).value
    cells = _upper(match.group(2)) + (f"-{_upper(match.group(3))}" if match.group(3) else "")
    return f"{kind}: {cells}"


def _run(kind: ShipKind, first: Cell, last: Cell) -> tuple[Cell, ...]:
    """The cells from ``first`` to ``last`` (either way round), top-to-bottom / left-to-right."""
    low, high = min(first, last), max(first, last)
    if low.row != high.row and low.col != high.col:
        raise OrderSyntaxError(
            f"a ship is a straight line along a row or a column: {first}-{last} is neither; "
            f"e.g. `{kind.value}: C1-C{kind.length}`"
        )
    span = high.row - low.row + high.col - low.col + 1
    if span > MAX_RANGE:
        raise OrderSyntaxError(
            f"the {kind.title} needs {kind.length} cells, {first}-{last} has {span}"
        )
    if low.row == high.row:
        return tuple(Cell(low.row, col) for col in range(low.col, high.col + 1))
    return tuple(Cell(row, low.col) for row in range(low.row, high.row + 1))


def range_text(cells: tuple[Cell, ...]) -> str:
    """``C1-C5`` for a run, ``A2`` for one cell (cells already in board order)."""
    if len(cells) == 1:
        return str(cells[0])
    return f"{cells[0]}-{cells[-1]}"


def describe_order(order: Order) -> str:
    """The canonical text of an order, as acknowledgements and records show it."""
    if isinstance(order, Shoot):
        return f"shoot {order.cell}"
    if isinstance(order, Move):
        return f"move {order.kind.value} at {order.at} {order.steps} {order.direction.value}"
    if isinstance(order, Rotate):
        return f"rotate {order.kind.value} at {order.at}"
    if isinstance(order, Pass):
        return "pass"
    if order.ships is None:
        return "random placement"
    return "place " + ", ".join(f"{kind.value} {range_text(cells)}" for kind, cells in order.ships)


__all__ = [
    "Move",
    "Order",
    "Pass",
    "Place",
    "Rotate",
    "Shoot",
    "describe_order",
    "looks_like_cell",
    "parse_order",
]
