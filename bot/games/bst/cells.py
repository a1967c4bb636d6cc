"""Cells of the bst board: the one place that parses and prints them.

Rows are letters from the top (``A``…``Z``, then ``AA``, ``AB``…``ZZ``, then
``AAA``, ``AAB``… as in a spreadsheet), columns are numbers from the left starting at 1. Internally a
cell is a pair of 0-based indices, so ``H14`` is ``Cell(row=7, col=13)``.
Input is case-insensitive and tolerates a space or a dash between the row and
the column (``h14``, ``H 14``, ``H-14``); output is always canonical (``H14``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games.base import OrderSyntaxError

MIN_ROWS, MAX_ROWS = 4, 1000  # row 1000 is ``ALL``
MIN_COLS, MAX_COLS = 4, 1000

# Row letters as typed: one or two letters, or three beginning with ``A``
# (``AAA``…``AZZ``, rows 703–1378). Three-letter rows all start with ``A`` up
# to the 1000-row limit, so ordinary three-letter words (``top 5``, ``lol 3``)
# are not read as cells.
ROW_LETTERS = r"(?:[A-Za-z]{1,2}|[Aa][A-Za-z]{2})"

_CELL = re.compile(rf"^\s*({ROW_LETTERS})\s*[-\s]?\s*(\d{{1,4}})\s*$")


def row_label(row: int) -> str:
    """0 → ``A``, 25 → ``Z``, 26 → ``AA``, 701 → ``ZZ``, 702 → ``AAA``, 999 → ``ALL``.

    Bijective base 26, as spreadsheet columns are named; looked up for the rows a
    board can have, since every printed cell asks (a big turn prints hundreds of
    thousands).
    """
    if 0 <= row < len(_ROW_LABELS):
        return _ROW_LABELS[row]
    return _spell_row(row)


def _spell_row(row: int) -> str:
    letters = ""
    number = row + 1
    while number:
        number, digit = divmod(number - 1, 26)
        letters = chr(ord("A") + digit) + letters
    return letters


_ROW_LABELS = tuple(_spell_row(row) for row in range(MAX_ROWS))
_ROWS_BY_LABEL = {label: row for row, label in enumerate(_ROW_LABELS)}
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def row_index(label: str) -> int:
    """Inverse of :func:`row_label` (``aa`` → 26, ``aaa`` → 702)."""
    number = 0
    for letter in label.upper():
        number = number * 26 + ord(letter) - ord("A") + 1
    return number - 1


@dataclass(frozen=True, order=True)
class Cell:
    """One square of the board; ordering is top-to-bottom, then left-to-right."""

    row: int
    col: int

    def __str__(self) -> str:
        # (row_label inlined: a crowd's stored state writes 400,000 cells a turn)
        row = self.row
        label = _ROW_LABELS[row] if 0 <= row < MAX_ROWS else _spell_row(row)
        return f"{label}{self.col + 1}"

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


def stored_cell(text: str) -> Cell:
    """Read a cell as this package writes it (``AJP70``: :meth:`Cell.__str__`), without the
    pattern a typed cell needs: a crowd's stored state holds 400,000 of them, read at
    every turn. Any other text is read by :func:`parse_cell`, with its errors."""
    digits = text.lstrip(_LETTERS)
    row = _ROWS_BY_LABEL.get(text[: len(text) - len(digits)])
    if row is None or not digits.isdecimal() or digits.startswith("0"):
        return parse_cell(text)
    return Cell(row, int(digits) - 1)


def looks_like_cell(text: str) -> bool:
    return _CELL.match(text) is not None


def cells_text(cells: list[Cell] | tuple[Cell, ...] | frozenset[Cell]) -> list[str]:
    """Canonical, sorted text of some cells (the record's order)."""
    return [str(cell) for cell in sorted(cells)]
