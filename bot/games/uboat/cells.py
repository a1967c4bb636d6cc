"""Cells, directions and the geometry of U-Boat Shootout's sea (rules §1).

The sea is a square of side ``size`` that wraps left–right and top–bottom.
Columns are letters from the left, rows numbers from the top, and a cell is
written column then row (``C3``); input is case-insensitive and may put a space
between the two (``c 3``). Distance is the wrapped Manhattan distance; a blast's
cross is its tile and the four neighbours, wrapping (``A1``'s cross on 9x9 is
A1, A9, A2, I1, B1). A route is 1 to 3 steps up/down/left/right and may not
enter an island. See ``shared/rules/uboat.md`` §1 and §3. Directions and which way rows are
numbered are stated once for every square board (:mod:`bot.games.grid`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.games.base import OrderSyntaxError
from bot.games.grid import Direction as Direction  # re-exported: cells and steps go together
from bot.games.grid import Rows

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CELL = re.compile(r"^\s*([a-z])\s*(\d{1,3})\s*$", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class Cell:
    """A tile of the sea: ``row`` and ``col`` count from 0 (``A1`` is row 0, column 0).

    Ordered by row, then column: top to bottom, left to right."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"{LETTERS[self.col]}{self.row + 1}"


def parse_cell(text: str) -> Cell:
    """``E6``, ``e6`` or ``e 6`` → Cell. Raises OrderSyntaxError with an example.

    Whether the cell is on the board is the caller's question (the board's size
    is an option)."""
    match = _CELL.match(text)
    if match is None or int(match.group(2)) == 0:
        raise OrderSyntaxError(
            f"expected a cell, column letter then row number, such as E6; got {text.strip()!r}"
        )
    return Cell(int(match.group(2)) - 1, LETTERS.index(match.group(1).upper()))


ROWS = Rows.FROM_TOP
"""Row 1 is the top row (``A1`` the top-left corner): a step up is to the row before."""

Route = tuple[Direction, ...]
"""The steps of a move, ram or evasion, in order."""

MAX_STEPS = 3


def route_text(route: Sequence[Direction], separator: str = " ") -> str:
    """``up up left`` (orders) or, with ``", "``, ``up, up, left`` (reports)."""
    return separator.join(step.value for step in route)


@dataclass(frozen=True)
class Sea:
    """The board's geometry: a wrapping square of side ``size`` with island tiles."""

    size: int
    islands: frozenset[Cell]

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell.row < self.size and 0 <= cell.col < self.size

    def cells(self) -> Iterable[Cell]:
        """Every tile, top to bottom, left to right."""
        return (Cell(row, col) for row in range(self.size) for col in range(self.size))

    def water(self) -> list[Cell]:
        """Every tile that is not an island, top to bottom, left to right."""
        return [cell for cell in self.cells() if cell not in self.islands]

    def step(self, cell: Cell, direction: Direction) -> Cell:
        d_col, d_row = ROWS.offset(direction)
        return Cell((cell.row + d_row) % self.size, (cell.col + d_col) % self.size)

    def distance(self, a: Cell, b: Cell) -> int:
        """Wrapped Manhattan distance."""
        rows = abs(a.row - b.row) % self.size
        cols = abs(a.col - b.col) % self.size
        return min(rows, self.size - rows) + min(cols, self.size - cols)

    def cross(self, cell: Cell) -> tuple[Cell, ...]:
        """A blast: the tile itself first, then its neighbours up, down, left, right."""
        return (cell, *(self.step(cell, direction) for direction in Direction))

    def walk(self, start: Cell, route: Sequence[Direction]) -> tuple[Cell, ...]:
        """The cells entered, one per step (islands are not checked here)."""
        cells = []
        cell = start
        for direction in route:
            cell = self.step(cell, direction)
            cells.append(cell)
        return tuple(cells)

    def blocked_step(self, start: Cell, route: Sequence[Direction]) -> int | None:
        """The number (1-based) of the first step that would enter an island, if any."""
        for number, cell in enumerate(self.walk(start, route), start=1):
            if cell in self.islands:
                return number
        return None

    def end_of(self, start: Cell, route: Sequence[Direction]) -> Cell:
        cells = self.walk(start, route)
        return cells[-1] if cells else start

    def struck_tile(self, start: Cell, route: Sequence[Direction]) -> Cell:
        """A ram's target: one tile beyond the route's end, in the last step's direction."""
        return self.step(self.end_of(start, route), route[-1])

    def example_cell(self) -> Cell:
        """A water tile to show in messages (``E6`` on the default sea when free)."""
        preferred = Cell(min(5, self.size - 1), min(4, self.size - 1))
        if preferred not in self.islands:
            return preferred
        water = self.water()
        return water[0] if water else preferred
