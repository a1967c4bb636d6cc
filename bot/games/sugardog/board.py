"""The Sugar Dog board: cells, directions and distances (rules §1, §4).

The board is ``N × N`` with ``N = 2 × players + 2`` (6 for two captains, 8 for
three…). Columns are letters from the left (``A``…``Z``, then ``AA``, ``AB``…),
rows are numbers from the bottom (``1``…), so ``C4`` is the third column, fourth
row. Movement is orthogonal and the board does not wrap. Cells sort by column,
then row number (``A1 < A2 < A10 < B1``), and the distance of a ping is the
number of orthogonal steps. This is the one place that reads and writes cells:
see ``shared/rules/sugardog.md`` §1 and ``shared/contracts/sugardog.md``. Directions and
which way rows are numbered are stated once for every square board (:mod:`bot.games.grid`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games.base import OrderSyntaxError
from bot.games.grid import Direction as Direction  # re-exported: cells and steps go together
from bot.games.grid import Rows

MINIMUM_SIZE = 6
"""The board of two captains; setup never shows a smaller one."""

_CELL = re.compile(r"^\s*([A-Za-z]{1,2})\s*-?\s*(\d{1,4})\s*$")


def board_size(players: int) -> int:
    """``N`` for this many captains (at least two count): 6, 8, 10…"""
    return 2 * max(2, players) + 2


def column_label(column: int) -> str:
    """0 → ``A``, 25 → ``Z``, 26 → ``AA``, 27 → ``AB``."""
    if column < 26:
        return chr(ord("A") + column)
    first, second = divmod(column - 26, 26)
    return chr(ord("A") + first) + chr(ord("A") + second)


def column_index(label: str) -> int:
    """Inverse of :func:`column_label` (``ab`` → 27)."""
    label = label.upper()
    if len(label) == 1:
        return ord(label) - ord("A")
    return 26 + (ord(label[0]) - ord("A")) * 26 + (ord(label[1]) - ord("A"))


ROWS = Rows.FROM_BOTTOM
"""Row 1 is the bottom row (``A1`` the bottom-left corner): a step up is to the next row."""

DIRECTION_WORDS: dict[str, Direction] = {
    **{direction.value: direction for direction in Direction},
    **{direction.letter: direction for direction in Direction},
}
"""A direction in an order: its word or its first letter (``up``, ``u``)."""


@dataclass(frozen=True, order=True)
class Cell:
    """One square, 0-based inside; the field order gives the rules' cell order."""

    column: int
    row: int

    def __str__(self) -> str:
        return f"{column_label(self.column)}{self.row + 1}"

    def step(self, direction: Direction) -> Cell:
        d_column, d_row = ROWS.offset(direction)
        return Cell(self.column + d_column, self.row + d_row)

    def on_board(self, size: int) -> bool:
        return 0 <= self.column < size and 0 <= self.row < size

    def distance(self, other: Cell) -> int:
        """Orthogonal steps between two cells (the distance of a ping report)."""
        return abs(self.column - other.column) + abs(self.row - other.row)


def parse_cell(text: str) -> Cell:
    """Read ``C4``, ``c4``, ``C 4`` or ``c-4`` (the board's limits are checked elsewhere)."""
    match = _CELL.match(text)
    if not match or int(match.group(2)) < 1:
        raise OrderSyntaxError(
            "expected a cell, a column letter then a row number, such as C4 "
            f"(A1 is the bottom-left corner); got {text.strip()!r}"
        )
    return Cell(column_index(match.group(1)), int(match.group(2)) - 1)


def looks_like_cell(text: str) -> bool:
    return _CELL.match(text) is not None


def board_text(size: int) -> str:
    return f"{size}×{size}"


def cells_text(cells: tuple[Cell, ...] | list[Cell]) -> list[str]:
    """Canonical text of some cells, in cell order (a cell twice stays twice)."""
    return [str(cell) for cell in sorted(cells)]
