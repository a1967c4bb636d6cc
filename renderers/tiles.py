"""A board too big for one picture, drawn in square tiles at several scales.

At zoom level ``z`` a cell is ``2**z`` pixels a side (1 to 64: from the whole of a
1000×1000 board in 1000 pixels to a cell as big as the detailed map draws one), and the
board at that scale is cut into :data:`TILE`-pixel squares counted from its top left
corner: tile ``(x, y)`` covers pixels ``x*TILE…`` across and ``y*TILE…`` down. Tiles on
the board's right and bottom edges are full squares too, the part beyond the board
left in the background colour, so every tile is the same size.

A game's pictures offer tiles as their ``tiles``, following :class:`Tiles` (found by the
game's name with :func:`~renderers.catalog.tiles_for`); each tile is a pure function of a view and a :class:`TileRect`, like
every picture (design rule 8), so whoever needs tiles (the web page, a digest of a huge
game) draws the same bytes from the same view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Protocol

TILE = 256
"""Pixels a side of every tile."""

LEVELS = 7
"""Zoom levels 0…6: a cell 1, 2, 4, … 64 pixels a side."""


def cell_of(level: int) -> int:
    """Pixels a side of a cell at zoom ``level``."""
    return 1 << level


@dataclass(frozen=True)
class TileRect:
    """One tile: column ``x`` and row ``y`` of the tiles of the board drawn at zoom
    ``level``."""

    level: int
    x: int
    y: int

    @property
    def cell(self) -> int:
        return cell_of(self.level)

    @property
    def left(self) -> int:
        """The tile's left edge, in pixels of the whole board at this scale."""
        return self.x * TILE

    @property
    def top(self) -> int:
        return self.y * TILE

    def cells(self, *, margin: int = 0) -> tuple[int, int, int, int]:
        """The rows and columns the tile shows, ``margin`` cells more on every side:
        (first row, last row, first column, last column), inclusive."""
        cell = self.cell
        return (
            self.top // cell - margin,
            (self.top + TILE - 1) // cell + margin,
            self.left // cell - margin,
            (self.left + TILE - 1) // cell + margin,
        )


def tile_counts(rows: int, cols: int, level: int) -> tuple[int, int]:
    """(tiles across, tiles down) of a ``rows``×``cols`` board at zoom ``level``."""
    cell = cell_of(level)
    return math.ceil(cols * cell / TILE), math.ceil(rows * cell / TILE)


def on_board(rows: int, cols: int, rect: TileRect) -> bool:
    """Whether ``rect`` names a tile of a ``rows``×``cols`` board."""
    across, down = tile_counts(rows, cols, rect.level) if 0 <= rect.level < LEVELS else (0, 0)
    return 0 <= rect.x < across and 0 <= rect.y < down


class Tiles(Protocol):
    """One game's tiled board."""

    def board_size(self, view: Any) -> tuple[int, int] | None:
        """(rows, columns) of the board of ``view`` (the public one or a player's) when
        it is too big for one picture to show its cells in detail (then it is offered in
        tiles); None when the one picture shows it whole."""
        ...

    def public_tile(self, view: Any, rect: TileRect) -> bytes:
        """One tile of the public board (``view(state, None)``) as PNG bytes."""
        ...

    def private_tile(self, view: Any, rect: TileRect) -> bytes:
        """One tile of a player's own board (``view(state, player)``) as PNG bytes:
        what their one picture shows, and nothing of anyone else's hidden facts."""
        ...


__all__ = [
    "LEVELS",
    "TILE",
    "TileRect",
    "Tiles",
    "cell_of",
    "on_board",
    "tile_counts",
]
