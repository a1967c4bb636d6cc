"""Cells of the bst board: the one place that parses and prints them.

Rows are letters from the top (``A``…``Z``, then ``AA``, ``AB``… as in a
spreadsheet), columns are numbers from the left starting at 1. Internally a
cell is a pair of 0-based indices, so ``H14`` is ``Cell(row=7, col=13)``.
Input is case-insensitive and tolerates a space or a dash between the row and
the column (``h14``, ``H 14``, ``H-14``); output is always canonical (``H14``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games.base import OrderSyntaxError

MIN_ROWS, MAX_ROWS = 4, 702
MIN_COLS, MAX_COLS = 4, 999

_CELL = re.compile(r"^\s*([A-Za-z]{1,2})\s*[-\s]?\s*(\d{1,4})\s*$")


def row_label(row: int) -> str:
    """0 → ``A``, 25 → ``Z``, 26 → ``AA``, 701 → ``ZZ``."""
    if row < 26:
        return chr(ord("A") + row)
    first, second = divmod(row - 26, 26)
    return chr(ord("A") + first) + chr(ord("A") + second)


def row_index(label: str) -> int:
    """Inverse of :func:`row_label` (``aa`` → 26)."""
    label = label.upper()
    if len(label) == 1:
        return ord(label) - ord("A")
    return 26 + (ord(label[0]) - ord("A")) * 26 + (ord(label[1]) - ord("A"))


@dataclass(frozen=True, order=True)
class Cell:
    """One square of the board; ordering is top-to-bottom, then left-to-right."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"{row_label(self.row)}{self.col + 1}"

    def shifted(self, d_row: int, d_col: int) -> Cell:
        return Cell(self.row + d_row, self.col + d_col)


def parse_cell(text: str) -> Cell:
    """Read a cell such as ``H14``, ``h 14`` or ``H-14`` (board limits are checked elsewhere)."""
    match = _CELL.match(text)
    if not match:
        raise OrderSyntaxError(
            f"expected a cell, a row letter then a column number, such as H14; got {text.strip()!r}"
        )
    col = int(match.group(2))
    if col < 1:
        raise OrderSyntaxError(
            f"columns start at 1: expected a cell such as H14, got {text.strip()!r}"
        )
    return Cell(row_index(match.group(1)), col - 1)


def looks_like_cell(text: str) -> bool:
    return _CELL.match(text) is not None


def cells_text(cells: list[Cell] | tuple[Cell, ...] | frozenset[Cell]) -> list[str]:
    """Canonical, sorted text of some cells (the record's order)."""
    return [str(cell) for cell in sorted(cells)]
