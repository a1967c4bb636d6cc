"""The Sonar board: hexagons on a wrapping ocean (``shared/rules/sonar.md`` §2).

The board has ``n`` rows (``a`` is the bottom one) and ``2n`` slanted columns; a
cell is written row then column (``f11``) and is kept here as 0-based indices, so
``f11`` is ``Cell(row=5, col=10)``. A step up-right keeps the column, a step
up-left lowers it by one. The ocean is a torus: columns wrap after ``2n``, and
leaving the top row upward enters the bottom row half a board further along,
``(r + n, c)`` being the cell ``(r, c + n/2)``. The distance between two cells
is the number of steps of the shortest path over the wrapped board. Every
position of the fleets repeats after ``4n`` turns, the board's period. Cells
parse and print here, and nowhere else; input never wraps (a cell off the board
is refused), every computed position does.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, cached_property

from bot.games.base import IllegalOrderError, OrderSyntaxError

MIN_ROWS, MAX_ROWS = 4, 24

_CELL = re.compile(r"^([a-z])(\d{1,3})$", re.IGNORECASE)


class Facing(enum.Enum):
    """The direction a sub sails, bow first (contract: ``l r ul ur dl dr``)."""

    LEFT = "l"
    RIGHT = "r"
    UP_LEFT = "ul"
    UP_RIGHT = "ur"
    DOWN_LEFT = "dl"
    DOWN_RIGHT = "dr"

    @property
    def step(self) -> tuple[int, int]:
        """One step this way, as (rows, columns)."""
        return _STEPS[self]

    @property
    def opposite(self) -> Facing:
        d_row, d_col = self.step
        return _BY_STEP[(-d_row, -d_col)]

    @property
    def horizontal(self) -> bool:
        """Along a row (``l``/``r``): such a line closes after ``2n`` steps, not ``4n``."""
        return self in (Facing.LEFT, Facing.RIGHT)

    @property
    def word(self) -> str:
        return _WORDS_OUT[self]


_STEPS = {
    Facing.LEFT: (0, -1),
    Facing.RIGHT: (0, 1),
    Facing.UP_LEFT: (1, -1),
    Facing.UP_RIGHT: (1, 0),
    Facing.DOWN_LEFT: (-1, 0),
    Facing.DOWN_RIGHT: (-1, 1),
}
_BY_STEP = {step: facing for facing, step in _STEPS.items()}
_WORDS_OUT = {
    Facing.LEFT: "left",
    Facing.RIGHT: "right",
    Facing.UP_LEFT: "up-left",
    Facing.UP_RIGHT: "up-right",
    Facing.DOWN_LEFT: "down-left",
    Facing.DOWN_RIGHT: "down-right",
}

FACING_WORDS: dict[str, Facing] = {
    **{facing.value: facing for facing in Facing},
    **{word: facing for facing, word in _WORDS_OUT.items()},
    **{word.replace("-", ""): facing for facing, word in _WORDS_OUT.items()},
    **{word.replace("-", "_"): facing for facing, word in _WORDS_OUT.items()},
}
"""Every spelling of a facing that players may type (lower case)."""


def parse_facing(text: str) -> Facing:
    try:
        return FACING_WORDS[text.strip().lower()]
    except KeyError:
        raise OrderSyntaxError(
            f"{text.strip()!r} is not a facing: expected l, r, ul, ur, dl or dr "
            "(or left, right, up-left, up-right, down-left, down-right), as in `3 c20 ur`"
        ) from None


def row_label(row: int) -> str:
    """0 → ``a`` (the bottom row)."""
    return chr(ord("a") + row)


@dataclass(frozen=True, order=True)
class Cell:
    """One hexagon: ``row`` from the bottom and slanted ``col``, both from 0."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"{row_label(self.row)}{self.col + 1}"


def parse_cell(text: str) -> Cell:
    """``F11`` or ``f11`` → ``Cell(5, 10)``; the board's limits are checked by :meth:`Board.check`."""
    match = _CELL.match(text.strip())
    if not match:
        raise OrderSyntaxError(
            "expected a cell, a row letter then a column number such as f11 or a9; "
            f"got {text.strip()!r}"
        )
    col = int(match.group(2))
    if col < 1:
        raise OrderSyntaxError(f"columns start at 1: expected a cell such as a9, got {text!r}")
    return Cell(ord(match.group(1).lower()) - ord("a"), col - 1)


@dataclass(frozen=True)
class Board:
    """A board of ``rows`` (even, 4..24) rows and twice as many columns, wrapping."""

    rows: int

    @property
    def cols(self) -> int:
        return 2 * self.rows

    @property
    def period(self) -> int:
        """Turns after which every position repeats: a line along ``ur`` closes after ``4n``."""
        return 4 * self.rows

    @property
    def size(self) -> int:
        """How many cells the board has."""
        return self.rows * self.cols

    @property
    def twist(self) -> int:
        """Columns gained by leaving the top row upward: ``(r + n, c)`` is ``(r, c + n/2)``."""
        return self.rows // 2

    # --- positions ---------------------------------------------------------

    def wrap(self, row: int, col: int) -> Cell:
        """The cell at (row, col) of the unwrapped plane."""
        turns, row = divmod(row, self.rows)
        return Cell(row, (col + turns * self.twist) % self.cols)

    def step(self, cell: Cell, facing: Facing, times: int = 1) -> Cell:
        d_row, d_col = facing.step
        return self.wrap(cell.row + times * d_row, cell.col + times * d_col)

    def offset(self, start: Cell, end: Cell) -> Cell:
        """The vector from ``start`` to ``end``, as the cell it leads to from ``a1``."""
        return self.wrap(end.row - start.row, end.col - start.col)

    def index(self, cell: Cell) -> int:
        return cell.row * self.cols + cell.col

    def cell_at(self, index: int) -> Cell:
        return Cell(*divmod(index, self.cols))

    def cells(self) -> Iterator[Cell]:
        """Every cell, row by row from the bottom."""
        for row in range(self.rows):
            for col in range(self.cols):
                yield Cell(row, col)

    def contains(self, cell: Cell) -> bool:
        return 0 <= cell.row < self.rows and 0 <= cell.col < self.cols

    def check(self, cell: Cell) -> Cell:
        """The cell, or IllegalOrderError if it is off this board (input never wraps)."""
        if not self.contains(cell):
            raise IllegalOrderError(
                f"{cell} is off the board: rows go from a to {row_label(self.rows - 1)} and "
                f"columns from 1 to {self.cols}, e.g. {self.example}"
            )
        return cell

    @property
    def example(self) -> str:
        return str(Cell(min(5, self.rows - 1), min(10, self.cols - 1)))

    def window_start(self, row: int) -> int:
        """The column drawn leftmost in ``row`` (0-based): ``floor((n - 1 - row) / 2)``."""
        return (self.rows - 1 - row) // 2

    # --- distance ----------------------------------------------------------

    def distance(self, a: Cell, b: Cell) -> int:
        """Steps on the shortest path from ``a`` to ``b`` over the wrapped board."""
        return self._distances[self.index(self.offset(a, b))]

    def nearest(self, cell: Cell, others: Iterable[Cell]) -> int:
        """The distance from ``cell`` to the nearest of ``others`` (a miss's mark).

        :meth:`distance` spelled out in a loop: a turn's misses measure every sub segment
        on the board, so this is where a turn spends its time on the largest boards."""
        table = self._distances
        rows, cols, twist = self.rows, self.cols, self.twist
        row, col = cell.row, cell.col
        best = self.rows * self.cols
        for other in others:
            turns, d_row = divmod(other.row - row, rows)
            d_col = (other.col - col + turns * twist) % cols
            away = table[d_row * cols + d_col]
            if away < best:
                best = away
        return best

    @cached_property
    def _distances(self) -> tuple[int, ...]:
        return _distance_table(self.rows)


def plane_distance(d_row: int, d_col: int) -> int:
    """Steps between cells ``d_row`` rows and ``d_col`` columns apart, without wrapping."""
    return (abs(d_col) + abs(d_row) + abs(d_col + d_row)) // 2


@cache
def _distance_table(rows: int) -> tuple[int, ...]:
    """The distance from ``a1`` to every cell: the least plane distance over the board's
    repetitions (shifts by ``n`` rows and ``-n/2`` columns, and by ``2n`` columns). Two
    repetitions either way suffice: any offset is within one of them of the board."""
    board = Board(rows)
    table = []
    for cell in board.cells():
        table.append(
            min(
                plane_distance(cell.row + k * rows, cell.col - k * board.twist + m * board.cols)
                for k in range(-2, 3)
                for m in range(-2, 3)
            )
        )
    return tuple(table)
