"""bst's public board, and each captain's own board, in tiles (:mod:`renderers.tiles`),
for a board too big for the one picture to show in detail (rules §6: up to 1000×1000).

A tile is the public map's board alone — water, grid, wrecks with their owners, the
turn's shots — drawn at the tile's scale from the same :class:`PublicView` (which has
no field for a live ship: a tile cannot show one), with the same drawing functions as
the map, so that at 32 and 64 pixels a cell it shows what the detailed map shows (the
shooters' avatars, the owners' names on wrecks). Row letters and column numbers are
written along each tile's top and left edges, every few cells, so a reader zoomed into
the middle of the board knows where they are. A captain's own tile adds what their one
picture adds (their ships, damage, collisions), from their :class:`PrivateView` only: no
other captain's ship can reach it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw

from bot.games.bst.cells import Cell
from bot.games.bst.views import PrivateView, PublicView
from renderers import style
from renderers.bst import board
from renderers.bst.private_board import badged_cells, private_layers
from renderers.bst.public_map import (
    MIN_CELL,
    Layer,
    draw_shots,
    draw_wrecks,
    overview_layout,
)
from renderers.encode import png_bytes
from renderers.grid import GridLayout
from renderers.tiles import TILE, TileRect

LABEL_SIZE = 12
LABEL_SPACING = 64
"""At least this many pixels between two row (or column) names along a tile's edge."""
_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500)


def tiled_size(view: PublicView) -> tuple[int, int] | None:
    """(rows, cols) when the one picture draws the board compact (cells too small for
    avatars and names): then it is offered in tiles too."""
    if overview_layout(view.rows, view.cols).detailed:
        return None
    return view.rows, view.cols


def render_public_tile(view: PublicView, rect: TileRect) -> bytes:
    """One tile of the public board as PNG bytes. Same view and tile, same bytes."""
    return png_bytes(draw_public_tile(view, rect))


def render_private_tile(view: PrivateView, rect: TileRect) -> bytes:
    """One tile of a captain's own board: the public tile with the layers of their one
    picture (:func:`renderers.bst.private_board.private_layers`: their own ships, damage
    and collisions), drawn from their :class:`PrivateView` alone. Same view and tile,
    same bytes."""
    under_shots, over_shots = private_layers(view)
    tile = draw_public_tile(view.public, rect, under_shots, over_shots, badged_cells(view))
    return png_bytes(tile)


def draw_public_tile(
    view: PublicView,
    rect: TileRect,
    under_shots: Sequence[Layer] = (),
    over_shots: Sequence[Layer] = (),
    badged: Collection[Cell] = (),
) -> Image.Image:
    """The public tile; ``under_shots`` and ``over_shots``: what a private board adds,
    drawn in the same order as on the one picture (:func:`compose_map`)."""
    cell = rect.cell
    layout = GridLayout(
        rows=view.rows,
        cols=view.cols,
        cell=cell,
        x0=-rect.left,
        y0=-rect.top,
        detailed=cell >= MIN_CELL,
        label_size=LABEL_SIZE,
        row_step=1,
        col_step=1,
        labels=board.LABELS,
    )
    image = Image.new("RGB", (TILE, TILE), style.BACKGROUND)
    _draw_water(image, layout, rect)
    # Only what can reach the tile is drawn: a hull's name may run a cell or two past its
    # ends, a hit's burst a little past its cell.
    top, bottom, left, right = rect.cells(margin=2)

    def near(row: int, col: int) -> bool:
        return top <= row <= bottom and left <= col <= right

    seen = dataclasses.replace(
        view,
        wrecks=tuple(w for w in view.wrecks if any(near(c.row, c.col) for c in w.cells)),
        shots=tuple(s for s in view.shots if near(s.cell.row, s.cell.col)),
    )
    draw_wrecks(image, layout, seen)
    for layer in under_shots:
        layer(image, layout)
    draw_shots(image, layout, seen.shots, None, badged=badged)
    for layer in over_shots:
        layer(image, layout)
    _draw_labels(image, layout, rect)
    return image


def _draw_water(image: Image.Image, layout: GridLayout, rect: TileRect) -> None:
    """Water and grid lines over the cells the tile shows: a line between every two
    cells once they are big enough to count, a brighter one every 10."""
    draw = ImageDraw.Draw(image)
    cell = layout.cell
    top, bottom, left, right = rect.cells()
    bottom, right = min(bottom, layout.rows - 1), min(right, layout.cols - 1)
    if top > bottom or left > right:
        return
    x0, y0 = layout.x0, layout.y0
    draw.rectangle(
        (
            x0 + left * cell,
            y0 + top * cell,
            x0 + (right + 1) * cell - 1,
            y0 + (bottom + 1) * cell - 1,
        ),
        fill=style.WATER,
    )
    if layout.detailed:
        # the map's faint checker, for counting cells
        for row in range(top, bottom + 1):
            for col in range(left + (row + left + 1) % 2, right + 1, 2):
                bx, by = x0 + col * cell, y0 + row * cell
                draw.rectangle((bx, by, bx + cell - 1, by + cell - 1), fill=style.WATER_ALT)
    minor = 1 if cell >= 6 else 5 if cell >= 3 else 10
    major = 10 if cell >= 3 else 50
    bottom_edge = y0 + (bottom + 1) * cell - 1
    right_edge = x0 + (right + 1) * cell - 1
    for col in range(left - left % minor, right + 2, minor):
        if 0 <= col <= layout.cols:
            colour = style.GRID_MAJOR if col % major == 0 else style.GRID
            x = x0 + col * cell
            draw.line((x, y0 + top * cell, x, bottom_edge), fill=colour)
    for row in range(top - top % minor, bottom + 2, minor):
        if 0 <= row <= layout.rows:
            colour = style.GRID_MAJOR if row % major == 0 else style.GRID
            y = y0 + row * cell
            draw.line((x0 + left * cell, y, right_edge, y), fill=colour)


def _step(cell: int) -> int:
    for step in _STEPS:
        if step * cell >= LABEL_SPACING:
            return step
    return _STEPS[-1]


def _draw_labels(image: Image.Image, layout: GridLayout, rect: TileRect) -> None:
    """Column numbers along the tile's top edge, row letters down its left edge, every
    ``step`` cells (the first row and column, then every multiple of ``step``). A label
    centred near the tile's edge runs onto the next tile: each of the two draws its part
    (the labels of the cells that far past its edges too), so side by side they show it
    whole ("160", not "16" on one tile and nothing on the next)."""
    draw = ImageDraw.Draw(image)
    font = style.font(LABEL_SIZE)
    cell = layout.cell
    step = _step(cell)
    top, bottom, left, right = rect.cells()
    pad = 3
    stroke = 2
    widest = font.getlength(layout.labels.col(layout.cols - 1)) / 2 + stroke
    across = math.ceil(widest / cell)  # cells a column's number reaches past its own
    down = math.ceil((LABEL_SIZE / 2 + stroke) / cell)  # and a row's letters, up or down

    def labelled(index: int) -> bool:
        return index == 0 or (index + 1) % step == 0

    for col in range(max(0, left - across), min(right + across, layout.cols - 1) + 1):
        if labelled(col):
            centre = layout.x0 + col * cell + cell / 2
            draw.text(
                (centre, pad),
                layout.labels.col(col),
                font=font,
                fill=style.LABEL,
                anchor="mt",
                stroke_width=stroke,
                stroke_fill=style.BACKGROUND,
            )
    for row in range(max(0, top - down), min(bottom + down, layout.rows - 1) + 1):
        if labelled(row):
            middle = layout.y0 + row * cell + cell / 2
            draw.text(
                (pad, middle),
                layout.labels.row(row),
                font=font,
                fill=style.LABEL,
                anchor="lm",
                stroke_width=stroke,
                stroke_fill=style.BACKGROUND,
            )
