"""Sugar Dog's board on the shared square grid: columns are letters from the left and rows
numbers from the **bottom** (rules §1), so row 1 is drawn last; :mod:`renderers.grid`
counts rows from the top, and :func:`square` turns a cell into its place there."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from bot.games.sugardog.board import Cell, column_label
from renderers import grid
from renderers.grid import GridLabels


@dataclass(frozen=True)
class Square:
    """A cell as the grid draws it: row from the top, column from the left."""

    row: int
    col: int


def square(cell: Cell, size: int) -> Square:
    return Square(size - 1 - cell.row, cell.column)


@functools.lru_cache(maxsize=64)
def labels(size: int) -> GridLabels:
    """Row names from the top (``size`` … ``1``) and column letters (one value per size:
    layouts that hold it are cache keys)."""
    return GridLabels(row=lambda index: str(size - index), col=column_label)


def margins(size: int, label_size: int) -> tuple[int, int]:
    """Left and top margins for the names: the widest row name is the top one."""
    widest = GridLabels(row=lambda _index: str(size), col=column_label)
    return grid.margins(size, size, label_size, widest)
