"""The labelled square grid a board is drawn on, and the marks placed on its cells.

A cell is anything with a ``row`` (counted from the top) and a ``col`` (from the left);
how rows and columns are named is the game's (:class:`GridLabels`). A board is drawn in
one of two modes: *detailed* (cells of at least ``min_cell`` pixels, avatars on shots,
anti-aliased hulls) and, when the board would not fit the width cap that way, *compact*
(small cells, flat coloured markers, labels on every 5th/10th row and column).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from PIL import Image, ImageDraw

from renderers import marks, style
from renderers.style import RGB

_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200)


class Square(Protocol):
    """A cell of a square grid: row from the top, column from the left, both from 0."""

    @property
    def row(self) -> int: ...

    @property
    def col(self) -> int: ...


@dataclass(frozen=True)
class GridLabels:
    """How a game names its rows and columns, by index from the top and from the left.

    The last row's and the last column's names are taken as the widest (true of letters
    and of numbers counted up), so that margins are known without measuring every name."""

    row: Callable[[int], str]
    col: Callable[[int], str]


@dataclass(frozen=True)
class GridLayout:
    """Where the board sits in the picture, how big its cells are and how they are named."""

    rows: int
    cols: int
    cell: int
    x0: int
    y0: int
    detailed: bool
    label_size: int
    row_step: int
    col_step: int
    labels: GridLabels

    @property
    def width(self) -> int:
        return self.cols * self.cell

    @property
    def height(self) -> int:
        return self.rows * self.cell

    def box(self, cell: Square) -> tuple[int, int, int, int]:
        x = self.x0 + cell.col * self.cell
        y = self.y0 + cell.row * self.cell
        return (x, y, x + self.cell, y + self.cell)

    def span(self, cells: Sequence[Square]) -> tuple[int, int, int, int]:
        """The box covering a straight run of cells."""
        top = min(c.row for c in cells)
        left = min(c.col for c in cells)
        bottom = max(c.row for c in cells)
        right = max(c.col for c in cells)
        return (
            self.x0 + left * self.cell,
            self.y0 + top * self.cell,
            self.x0 + (right + 1) * self.cell,
            self.y0 + (bottom + 1) * self.cell,
        )

    def on_board(self, cell: Square) -> bool:
        return 0 <= cell.row < self.rows and 0 <= cell.col < self.cols


def _label_step(cell: int, needed: int) -> int:
    for step in _STEPS:
        if step * cell >= needed:
            return step
    return _STEPS[-1]


def labelled_rows(layout: GridLayout) -> list[int]:
    return _labelled(layout.rows, layout.row_step)


def labelled_cols(layout: GridLayout) -> list[int]:
    return _labelled(layout.cols, layout.col_step)


def _labelled(count: int, step: int) -> list[int]:
    if step == 1:
        return list(range(count))
    picked = [i for i in range(count) if (i + 1) % step == 0]
    if step >= 5:
        picked.insert(0, 0)
    return picked


def margins(rows: int, cols: int, label_size: int, labels: GridLabels) -> tuple[int, int]:
    """Left and top margins needed by the row and column names."""
    widest_row = style.text_width(labels.row(rows - 1), label_size)
    left = max(widest_row, style.text_width("M", label_size)) + label_size // 2 + 8
    top = label_size + label_size // 2 + 8
    return left, top


def plan_board(
    rows: int,
    cols: int,
    *,
    labels: GridLabels,
    x0: int,
    y0: int,
    max_board_width: int,
    max_board_height: int,
    min_cell: int,
    max_cell: int,
    target: int,
) -> GridLayout:
    """Choose the cell size: ``target`` pixels across the longer side, clamped; compact when
    even ``min_cell`` does not fit (then as big as fits, at least 1 pixel)."""
    cell = max(min_cell, min(max_cell, target // max(rows, cols)))
    detailed = cell * cols <= max_board_width and cell * rows <= max_board_height
    if not detailed:
        cell = max(1, min(max_board_width // cols, max_board_height // rows))
    if detailed:
        label_size = max(12, min(20, int(cell * 0.45)))
    else:
        label_size = 13
    col_needed = style.text_width(labels.col(cols - 1), label_size) + 6
    row_needed = label_size + 4
    return GridLayout(
        rows=rows,
        cols=cols,
        cell=cell,
        x0=x0,
        y0=y0,
        detailed=detailed,
        label_size=label_size,
        row_step=1 if detailed else _label_step(cell, row_needed),
        col_step=1 if detailed else _label_step(cell, col_needed),
        labels=labels,
    )


def plan_square_board(size: int, cell: int, *, labels: GridLabels) -> GridLayout:
    """A ``size``×``size`` board of ``cell``-pixel squares at (0, 0), for a picture that
    chose its cell size itself."""
    side = cell * size
    return plan_board(size, size, labels=labels, x0=0, y0=0, max_board_width=side,
                      max_board_height=side, min_cell=cell, max_cell=cell, target=side)  # fmt: skip


def centred_board(
    size: int, *, labels: GridLabels, margins: tuple[int, int], label_size: int,
    width: int, max_cell: int,
) -> GridLayout:  # fmt: skip
    """A ``size``×``size`` board as wide as fits a picture ``width`` wide (cells of 8 to
    ``max_cell`` pixels), centred across it, its names (``label_size``) in ``margins``."""
    left, top = margins
    cell = max(8, min(max_cell, (width - 2 * left) // size))
    plan = plan_square_board(size, cell, labels=labels)
    x0 = (width - plan.width - left) // 2 + left
    return replace(plan, label_size=label_size, x0=x0, y0=top)


def draw_grid(image: Image.Image, layout: GridLayout) -> None:
    """Water, grid lines and the row/column names."""
    draw = ImageDraw.Draw(image)
    x0, y0, c = layout.x0, layout.y0, layout.cell
    x1, y1 = x0 + layout.width, y0 + layout.height
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=style.WATER)
    if layout.detailed:
        # a faint checker makes counting cells on a phone easier
        for row in range(layout.rows):
            for col in range(layout.cols):
                if (row + col) % 2:
                    bx, by = x0 + col * c, y0 + row * c
                    draw.rectangle((bx, by, bx + c - 1, by + c - 1), fill=style.WATER_ALT)
        for i in range(layout.cols + 1):
            draw.line((x0 + i * c, y0, x0 + i * c, y1 - 1), fill=style.GRID)
        for i in range(layout.rows + 1):
            draw.line((x0, y0 + i * c, x1 - 1, y0 + i * c), fill=style.GRID)
    else:
        minor = 5 if c >= 3 else 10
        major = 10 if c >= 3 else 50
        for i in range(0, layout.cols + 1, minor):
            colour = style.GRID_MAJOR if i % major == 0 else style.GRID
            draw.line((x0 + i * c, y0, x0 + i * c, y1 - 1), fill=colour)
        for i in range(0, layout.rows + 1, minor):
            colour = style.GRID_MAJOR if i % major == 0 else style.GRID
            draw.line((x0, y0 + i * c, x1 - 1, y0 + i * c), fill=colour)
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=style.GRID_MAJOR)
    label_font = style.font(layout.label_size)
    stroke = 1 if layout.label_size >= 14 else 0
    for col in labelled_cols(layout):
        draw.text(
            (x0 + col * c + c / 2, y0 - layout.label_size // 2 - 2),
            layout.labels.col(col),
            font=label_font,
            fill=style.LABEL,
            anchor="ms",
            stroke_width=stroke,
            stroke_fill=style.LABEL,
        )
    for row in labelled_rows(layout):
        draw.text(
            (x0 - layout.label_size // 2 - 2, y0 + row * c + c / 2),
            layout.labels.row(row),
            font=label_font,
            fill=style.LABEL,
            anchor="rm",
            stroke_width=stroke,
            stroke_fill=style.LABEL,
        )


def hull(
    image: Image.Image,
    layout: GridLayout,
    cells: Sequence[Square],
    fill: RGB,
    edge: RGB,
) -> None:
    """A ship's hull over its cells: a capsule when detailed, flat cells when compact."""
    cells = [c for c in cells if layout.on_board(c)]
    if not cells:
        return
    if layout.detailed:
        pad = layout.cell * 0.12
        box = marks.inset(layout.span(cells), pad)
        marks.capsule(image, box, fill, edge, max(1.5, layout.cell * 0.06))
        return
    draw = ImageDraw.Draw(image)
    for cell in cells:
        x0, y0, x1, y1 = layout.box(cell)
        if layout.cell >= 4:
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill, outline=edge)
        else:
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill)


def hull_label(
    image: Image.Image,
    layout: GridLayout,
    cells: Sequence[Square],
    text: str,
    *,
    colour: RGB,
    background: RGB,
    size: int | None = None,
) -> None:
    """A name on a ship: along a horizontal hull, turned for a vertical one; a one-cell ship
    gets it just below. Only in detailed mode (there is no room otherwise). ``size``: the
    letters' size, a third of a cell unless given."""
    cells = [c for c in cells if layout.on_board(c)]
    if not layout.detailed or not cells or not text:
        return
    size = size or max(9, int(layout.cell * 0.34))
    box = layout.span(cells)
    vertical = len(cells) > 1 and cells[0].col == cells[-1].col
    length = (box[3] - box[1]) if vertical else (box[2] - box[0])
    room = max(layout.cell * 2, length - layout.cell // 2)
    label = style.fit_text(text, size, room)
    if not label:
        return
    patch = marks.name_tag(label, size, colour, background, vertical)
    pw, ph = patch.size
    cx = (box[0] + box[2]) / 2
    cy = (box[1] + box[3]) / 2
    if len(cells) == 1:
        cy = box[3] - ph / 2 + ph * 0.35
    marks.composite(image, patch, (round(cx - pw / 2), round(cy - ph / 2)))


def cell_marker(image: Image.Image, layout: GridLayout, cell: Square, colour: RGB) -> None:
    """The compact-mode mark for a shot: a filled square (a round dot on larger cells)."""
    if not layout.on_board(cell):
        return
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = layout.box(cell)
    if layout.cell >= 8:
        draw.ellipse((x0 + 1, y0 + 1, x1 - 2, y1 - 2), fill=colour, outline=style.BACKGROUND)
    else:
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=colour)
