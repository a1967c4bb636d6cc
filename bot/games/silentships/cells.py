"""The Silent Ships board (rules §1): 5 columns ``A``–``E`` by 4 rows ``1``–``4``.

Player 1 — the player who moves first — has the country ``C1`` and plays ships on
``B1``, ``C1``, ``D1``; the other player has ``C4`` and plays on ``B4``, ``C4``,
``D4``. ``A2`` and ``E3`` are islands. Adjacency is orthogonal and one unit stands
on a square. Cells parse case-insensitively (``b2``, ``B 2``) and always print
canonically (``B2``); every sorted list of cells is in **cell order**, row 1 first,
left to right (``C1``, ``A2``, ``E3``, ``B4``). See ``shared/rules/silentships.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games.base import OrderSyntaxError

COLS = 5
ROWS = 4
COLUMN_LETTERS = "ABCDE"

_CELL_TEXT = re.compile(r"^\s*([a-z])\s*(\d{1,3})\s*$", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class Cell:
    """A square of the board. Fields are in cell order, so ``sorted`` gives cell order."""

    row: int  # 0 is row 1, player 1's side
    col: int  # 0 is column A

    def __str__(self) -> str:
        return f"{COLUMN_LETTERS[self.col]}{self.row + 1}"

    @property
    def on_board(self) -> bool:
        return 0 <= self.row < ROWS and 0 <= self.col < COLS

    def neighbours(self) -> tuple[Cell, ...]:
        """The orthogonally adjacent squares on the board, in cell order."""
        around = (
            Cell(self.row - 1, self.col),
            Cell(self.row, self.col - 1),
            Cell(self.row, self.col + 1),
            Cell(self.row + 1, self.col),
        )
        return tuple(cell for cell in around if cell.on_board)

    def is_next_to(self, other: Cell) -> bool:
        return abs(self.row - other.row) + abs(self.col - other.col) == 1

    def in_line(self, other: Cell, distance: int) -> bool:
        """True when ``other`` is exactly ``distance`` squares away in a row or a column."""
        if self.row == other.row:
            return abs(self.col - other.col) == distance
        if self.col == other.col:
            return abs(self.row - other.row) == distance
        return False

    def path_to(self, other: Cell) -> tuple[Cell, ...] | None:
        """The squares from here to ``other`` in a straight line (``other`` last, this
        square left out), or None when they share no row or column."""
        if self == other or (self.row != other.row and self.col != other.col):
            return None
        step_row = (other.row > self.row) - (other.row < self.row)
        step_col = (other.col > self.col) - (other.col < self.col)
        length = max(abs(other.row - self.row), abs(other.col - self.col))
        return tuple(
            Cell(self.row + step_row * i, self.col + step_col * i) for i in range(1, length + 1)
        )


ALL_CELLS: tuple[Cell, ...] = tuple(Cell(r, c) for r in range(ROWS) for c in range(COLS))
ISLANDS: tuple[Cell, ...] = (Cell(1, 0), Cell(2, 4))
FIRST_COUNTRY = Cell(0, 2)
SECOND_COUNTRY = Cell(ROWS - 1, 2)


def country_of(moves_first: bool) -> Cell:
    """The country square of the first player (``C1``) or of the second (``C4``)."""
    return FIRST_COUNTRY if moves_first else SECOND_COUNTRY


def play_squares(country: Cell) -> tuple[Cell, ...]:
    """Where a player plays ships: the country and the squares left and right of it."""
    return (Cell(country.row, country.col - 1), country, Cell(country.row, country.col + 1))


def parse_cell(text: str) -> Cell:
    """``b2``, ``B 2`` → ``B2``. Raises OrderSyntaxError for anything else or off the board."""
    match = _CELL_TEXT.match(text)
    if not match:
        raise OrderSyntaxError(f"expected a square such as B2 (A1 to E4); got {text.strip()!r}")
    letter, number = match.group(1).upper(), int(match.group(2))
    cell = Cell(number - 1, ord(letter) - ord("A"))
    if not cell.on_board:
        raise OrderSyntaxError(
            f"{letter}{number} is not a square of the board: columns are A to E and rows 1 to 4 "
            "(e.g. B2)"
        )
    return cell


def cells_text(cells: tuple[Cell, ...] | list[Cell]) -> str:
    """``B1, C1 or D1`` for people."""
    names = [str(cell) for cell in cells]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]
