"""bst's board on the shared square grid (rules §1): rows are letters from the top (``A``…
``Z``, then ``AA``…), columns numbers from the left, as :mod:`bot.games.bst.cells` prints them."""

from __future__ import annotations

from bot.games.bst.cells import row_label
from renderers import grid
from renderers.grid import GridLabels


def column_label(col: int) -> str:
    return str(col + 1)


LABELS = GridLabels(row=row_label, col=column_label)


def margins(rows: int, cols: int, label_size: int) -> tuple[int, int]:
    """Left and top margins of a bst board: room for its row letters and column numbers."""
    return grid.margins(rows, cols, label_size, LABELS)
