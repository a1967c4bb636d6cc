"""The labelled grid every renderer draws on, and the marks placed on it.

Rows are letters from the top and columns numbers from the left (rules §1). A board is
drawn in one of two modes: *detailed* (cells of at least ``min_cell`` pixels, avatars on
shots, anti-aliased hulls) and, when the board would not fit the width cap that way,
*compact* (small cells, flat coloured markers, labels on every 5th/10th row and column).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from bot.games.bst.cells import Cell, row_label
from renderers import style
from renderers.style import RGB

_SUPERSAMPLE = 4
_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200)


@dataclass(frozen=True)
class BoardLayout:
    """Where the board sits in the picture and how big its cells are."""

    rows: int
    cols: int
    cell: int
    x0: int
    y0: int
    detailed: bool
    label_size: int
    row_step: int
    col_step: int

    @property
    def width(self) -> int:
        return self.cols * self.cell

    @property
    def height(self) -> int:
        return self.rows * self.cell

    def box(self, cell: Cell) -> tuple[int, int, int, int]:
        x = self.x0 + cell.col * self.cell
        y = self.y0 + cell.row * self.cell
        return (x, y, x + self.cell, y + self.cell)

    def span(self, cells: Sequence[Cell]) -> tuple[int, int, int, int]:
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

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell.row < self.rows and 0 <= cell.col < self.cols


def _label_step(cell: int, needed: int) -> int:
    for step in _STEPS:
        if step * cell >= needed:
            return step
    return _STEPS[-1]


def labelled_rows(layout: BoardLayout) -> list[int]:
    return _labelled(layout.rows, layout.row_step)


def labelled_cols(layout: BoardLayout) -> list[int]:
    return _labelled(layout.cols, layout.col_step)


def _labelled(count: int, step: int) -> list[int]:
    if step == 1:
        return list(range(count))
    picked = [i for i in range(count) if (i + 1) % step == 0]
    if step >= 5:
        picked.insert(0, 0)
    return picked


def margins(rows: int, cols: int, label_size: int) -> tuple[int, int]:
    """Left and top margins needed by the row letters and column numbers."""
    widest_row = style.text_width(row_label(rows - 1), label_size)
    left = max(widest_row, style.text_width("M", label_size)) + label_size // 2 + 8
    top = label_size + label_size // 2 + 8
    return left, top


def plan_board(
    rows: int,
    cols: int,
    *,
    x0: int,
    y0: int,
    max_board_width: int,
    max_board_height: int,
    min_cell: int,
    max_cell: int,
    target: int,
) -> BoardLayout:
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
    col_needed = style.text_width(str(cols), label_size) + 6
    row_needed = label_size + 4
    return BoardLayout(
        rows=rows,
        cols=cols,
        cell=cell,
        x0=x0,
        y0=y0,
        detailed=detailed,
        label_size=label_size,
        row_step=1 if detailed else _label_step(cell, row_needed),
        col_step=1 if detailed else _label_step(cell, col_needed),
    )


def draw_grid(image: Image.Image, layout: BoardLayout) -> None:
    """Water, grid lines and the row/column labels."""
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
            str(col + 1),
            font=label_font,
            fill=style.LABEL,
            anchor="ms",
            stroke_width=stroke,
            stroke_fill=style.LABEL,
        )
    for row in labelled_rows(layout):
        draw.text(
            (x0 - layout.label_size // 2 - 2, y0 + row * c + c / 2),
            row_label(row),
            font=label_font,
            fill=style.LABEL,
            anchor="rm",
            stroke_width=stroke,
            stroke_fill=style.LABEL,
        )


def paint_shape(
    image: Image.Image,
    box: tuple[float, float, float, float],
    colour: RGB,
    shape: Callable[[ImageDraw.ImageDraw, float, float, float], None],
) -> None:
    """Paint ``colour`` through an anti-aliased mask drawn by ``shape(draw, scale, ox, oy)``
    on a supersampled patch covering ``box`` (coordinates given in image pixels)."""
    left, top = math.floor(box[0]) - 1, math.floor(box[1]) - 1
    right, bottom = math.ceil(box[2]) + 1, math.ceil(box[3]) + 1
    width, height = right - left, bottom - top
    if width <= 0 or height <= 0:
        return
    big = Image.new("L", (width * _SUPERSAMPLE, height * _SUPERSAMPLE), 0)
    shape(ImageDraw.Draw(big), _SUPERSAMPLE, left, top)
    mask = big.resize((width, height), Image.Resampling.BOX)
    fill = (*colour, 255) if image.mode == "RGBA" else colour
    image.paste(fill, (left, top, right, bottom), mask)


# The marks below are drawn through masks that depend only on the mark's geometry relative
# to the patch's corner (and the patch's size), so equal marks at equal sub-pixel offsets —
# every hull of a length, every shot mark of a board — share one mask. ``_mask`` draws
# exactly what ``paint_shape`` would (same numbers, same operations, same order).
_Kind = Literal["rounded", "ellipse", "ring", "polygon", "cross"]


def _paint_cached(
    image: Image.Image,
    box: tuple[float, float, float, float],
    colour: RGB,
    kind: _Kind,
    points: Sequence[tuple[float, float]],
    width: float = 0.0,
) -> None:
    """Like :func:`paint_shape` for a mark of ``kind`` through ``points`` (image pixels)."""
    left, top = math.floor(box[0]) - 1, math.floor(box[1]) - 1
    right, bottom = math.ceil(box[2]) + 1, math.ceil(box[3]) + 1
    if right - left <= 0 or bottom - top <= 0:
        return
    relative = tuple((x - left, y - top) for x, y in points)
    mask = _mask(kind, right - left, bottom - top, relative, width)
    fill = (*colour, 255) if image.mode == "RGBA" else colour
    image.paste(fill, (left, top, right, bottom), mask)


@functools.lru_cache(maxsize=1024)
def _mask(
    kind: _Kind,
    width: int,
    height: int,
    relative: tuple[tuple[float, float], ...],
    line: float,
) -> Image.Image:
    """The anti-aliased mask of a mark (shared between calls; never modified)."""
    s = _SUPERSAMPLE
    big = Image.new("L", (width * s, height * s), 0)
    draw = ImageDraw.Draw(big)
    scaled = [(x * s, y * s) for x, y in relative]
    if kind == "polygon":
        draw.polygon(scaled, fill=255)
    else:
        (a, b), (c, d) = scaled
        if kind == "rounded":
            draw.rounded_rectangle((a, b, c, d), radius=min(c - a, d - b) / 2, fill=255)
        elif kind == "ellipse":
            draw.ellipse((a, b, c, d), fill=255)
        elif kind == "ring":
            draw.ellipse((a, b, c, d), outline=255, width=max(1, round(line * s)))
        else:  # cross
            w = max(1, round(line * s))
            draw.line((a, b, c, d), fill=255, width=w)
            draw.line((a, d, c, b), fill=255, width=w)
    return big.resize((width, height), Image.Resampling.BOX)


def _corners(box: tuple[float, float, float, float]) -> list[tuple[float, float]]:
    return [(box[0], box[1]), (box[2], box[3])]


def capsule(
    image: Image.Image,
    box: tuple[float, float, float, float],
    fill: RGB,
    edge: RGB | None = None,
    edge_width: float = 0.0,
) -> None:
    """A rounded hull filling ``box``, with an optional edge."""
    if edge is not None and edge_width > 0:
        _paint_cached(image, box, edge, "rounded", _corners(box))
        inner = (box[0] + edge_width, box[1] + edge_width, box[2] - edge_width, box[3] - edge_width)
        if inner[2] > inner[0] and inner[3] > inner[1]:
            capsule(image, inner, fill)
        return
    _paint_cached(image, box, fill, "rounded", _corners(box))


def disc(image: Image.Image, centre: tuple[float, float], radius: float, colour: RGB) -> None:
    box = (centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius)
    _paint_cached(image, box, colour, "ellipse", _corners(box))


def ring(
    image: Image.Image, centre: tuple[float, float], radius: float, width: float, colour: RGB
) -> None:
    box = (centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius)
    _paint_cached(image, box, colour, "ring", _corners(box), width)


def burst(
    image: Image.Image,
    centre: tuple[float, float],
    radius: float,
    colour: RGB,
    *,
    points: int = 12,
    inner: float = 0.62,
) -> None:
    """A star-shaped explosion (the hit mark)."""
    cx, cy = centre
    vertices = []
    for i in range(points * 2):
        angle = math.pi * i / points - math.pi / 2
        r = radius if i % 2 == 0 else radius * inner
        vertices.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    _paint_cached(image, box, colour, "polygon", vertices)


def cross(
    image: Image.Image, box: tuple[float, float, float, float], colour: RGB, width: float
) -> None:
    """A bold X across ``box`` (damage on a ship)."""
    _paint_cached(image, box, colour, "cross", _corners(box), width)


def inset(box: tuple[int, int, int, int], amount: float) -> tuple[float, float, float, float]:
    return (box[0] + amount, box[1] + amount, box[2] - amount, box[3] - amount)


def hull(
    image: Image.Image,
    layout: BoardLayout,
    cells: Sequence[Cell],
    fill: RGB,
    edge: RGB,
) -> None:
    """A ship's hull over its cells: a capsule when detailed, flat cells when compact."""
    cells = [c for c in cells if layout.on_board(c)]
    if not cells:
        return
    if layout.detailed:
        pad = layout.cell * 0.12
        capsule(image, inset(layout.span(cells), pad), fill, edge, max(1.5, layout.cell * 0.06))
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
    layout: BoardLayout,
    cells: Sequence[Cell],
    text: str,
    *,
    colour: RGB,
    background: RGB,
) -> None:
    """A name on a ship: along a horizontal hull, turned for a vertical one; a one-cell ship
    gets it just below. Only in detailed mode (there is no room otherwise)."""
    cells = [c for c in cells if layout.on_board(c)]
    if not layout.detailed or not cells or not text:
        return
    size = max(9, int(layout.cell * 0.34))
    box = layout.span(cells)
    vertical = len(cells) > 1 and cells[0].col == cells[-1].col
    length = (box[3] - box[1]) if vertical else (box[2] - box[0])
    room = max(layout.cell * 2, length - layout.cell // 2)
    label = style.fit_text(text, size, room)
    if not label:
        return
    patch = _label_patch(label, size, colour, background, vertical)
    pw, ph = patch.size
    cx = (box[0] + box[2]) / 2
    cy = (box[1] + box[3]) / 2
    if len(cells) == 1:
        cy = box[3] - ph / 2 + ph * 0.35
    composite(image, patch, (round(cx - pw / 2), round(cy - ph / 2)))


@functools.lru_cache(maxsize=512)
def _label_patch(
    label: str, size: int, colour: RGB, background: RGB, vertical: bool
) -> Image.Image:
    """The name tag of :func:`hull_label` (shared between calls; only ever composited)."""
    pad = max(2, size // 4)
    w = style.text_width(label, size) + 2 * pad
    h = size + pad + 2
    patch = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    pdraw = ImageDraw.Draw(patch)
    pdraw.rounded_rectangle((0, 0, w - 1, h - 1), radius=h // 2, fill=(*background, 215))
    pdraw.text((w / 2, h / 2), label, font=style.font(size, label), fill=colour, anchor="mm")
    if vertical:
        patch = patch.rotate(90, expand=True)
    return patch


def composite(image: Image.Image, patch: Image.Image, dest: tuple[int, int]) -> None:
    """``image.alpha_composite(patch, dest)``; on an RGB image, the pixels that the same call
    gives on the image made opaque RGBA (the maps are drawn in RGB: no alpha to carry, and
    no conversion before PNG encoding)."""
    if image.mode == "RGBA":
        image.alpha_composite(patch, dest)
        return
    box = (dest[0], dest[1], dest[0] + patch.width, dest[1] + patch.height)
    under = image.crop(box).convert("RGBA")
    image.paste(Image.alpha_composite(under, patch).convert(image.mode), box)


def cell_marker(image: Image.Image, layout: BoardLayout, cell: Cell, colour: RGB) -> None:
    """The compact-mode mark for a shot: a filled square (a round dot on larger cells)."""
    if not layout.on_board(cell):
        return
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = layout.box(cell)
    if layout.cell >= 8:
        draw.ellipse((x0 + 1, y0 + 1, x1 - 2, y1 - 2), fill=colour, outline=style.BACKGROUND)
    else:
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=colour)
