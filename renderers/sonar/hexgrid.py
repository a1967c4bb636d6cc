"""The geometry of a hex board drawn as pbmserv drew Sonar's (shared/rules/sonar.md §2).

The board is ``rows`` × ``cols`` pointy-top hexagons in offset rows: a rectangle of rows,
each shifted half a cell from the one above (the top row sits half a cell right of the one
below it). Cells are named as Sonar names them: ``row`` counts from the bottom (``a`` is 0)
and ``col`` runs along slanted columns (a step up-right keeps it, up-left lowers it by one),
so each row starts at its own column (:func:`first_column`) and wraps round. Drawn so, the
board is a flat torus: a cell that leaves an edge comes back at the opposite edge, level
with where it left, which is what makes Sonar's wrapped rows line up.

A column is a slanted line of hexagons, so a column number printed above the top row
names one hexagon of each row, each half a cell further left going down. To name any cell
from the picture, the columns are drawn as slanted stripes (every other column a shade
lighter, the guides pbmserv drew as ``/ / /``), and each row is labelled at both ends
with the name of its first and last hexagon (``h3`` … ``h26``): count along the row, or
follow the stripe up to its number.

Sizes are pixels as floats (``cell`` is the width of a hexagon across its flat sides, the
distance between neighbouring centres); every function is pure. The names of each row's
end cells are drawn on both sides of it, and column numbers above the top row and below
the bottom one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from PIL import Image, ImageDraw

from renderers import style

SQRT3 = math.sqrt(3.0)

Point = tuple[float, float]


class Hex(Protocol):
    """A cell as Sonar names it: row from the bottom, slanted column, both from 0."""

    @property
    def row(self) -> int: ...

    @property
    def col(self) -> int: ...


@dataclass(frozen=True, order=True)
class HexCell:
    row: int
    col: int

    def __str__(self) -> str:
        return f"{row_label(self.row)}{self.col + 1}"


def row_label(row: int) -> str:
    """``a`` for the bottom row (Sonar has at most 24 rows: one letter each)."""
    return chr(ord("a") + row)


def column_label(col: int) -> str:
    return str(col + 1)


def first_column(rows: int, row: int) -> int:
    """The column drawn leftmost in ``row``: ``floor((rows - 1 - row) / 2)`` (rules §2)."""
    return (rows - 1 - row) // 2


def end_labels(rows: int, cols: int, row: int) -> tuple[str, str]:
    """The names of the first and last hexagons drawn in ``row`` (``h3``, ``h26``)."""
    first = first_column(rows, row)
    return str(HexCell(row, first)), str(HexCell(row, (first + cols - 1) % cols))


WATER_STRIPE: tuple[int, int, int] = (44, 132, 192)
"""Every other column's water: light enough to follow a slanted column by eye, dark
enough that white distances and red hits still stand out on it."""


@dataclass(frozen=True)
class HexLayout:
    """Where the board sits in the picture and how big its hexagons are.

    ``(x0, y0)`` is the corner of the board's bounding box: the left side of the first
    hexagon of an unshifted row, and the top corner of the top row."""

    rows: int
    cols: int
    cell: float
    x0: float
    y0: float
    label_size: int

    @property
    def radius(self) -> float:
        """From a hexagon's centre to its corners."""
        return self.cell / SQRT3

    @property
    def pitch(self) -> float:
        """From one row's centres to the next row's."""
        return 1.5 * self.radius

    @property
    def width(self) -> float:
        return (self.cols + 0.5) * self.cell

    @property
    def height(self) -> float:
        return 2 * self.radius + (self.rows - 1) * self.pitch


def _line(layout: HexLayout, row: int) -> int:
    """A row's place counted from the top of the picture."""
    return layout.rows - 1 - row


def _shift(line: int) -> float:
    """The top row, and every second row below it, sits half a cell right."""
    return 0.5 if line % 2 == 0 else 0.0


def _lattice_centre(layout: HexLayout, line: int, place: int) -> Point:
    """The centre of the hexagon ``place`` cells from the left of row ``line`` from the top
    (either may be off the board: the lattice goes on)."""
    x = layout.x0 + (place + 0.5 + _shift(line)) * layout.cell
    y = layout.y0 + layout.radius + line * layout.pitch
    return (x, y)


def centre(layout: HexLayout, cell: Hex) -> Point:
    """The centre of ``cell`` in the picture."""
    place = (cell.col - first_column(layout.rows, cell.row)) % layout.cols
    return _lattice_centre(layout, _line(layout, cell.row), place)


def corners(layout: HexLayout, cell: Hex) -> tuple[Point, ...]:
    """The six corners of ``cell``, clockwise from the top one (pointy-top hexagons)."""
    x, y = centre(layout, cell)
    half_width, r = layout.cell / 2, layout.radius
    return (
        (x, y - r),
        (x + half_width, y - r / 2),
        (x + half_width, y + r / 2),
        (x, y + r),
        (x - half_width, y + r / 2),
        (x - half_width, y - r / 2),
    )


def cell_at(layout: HexLayout, point: Point) -> HexCell | None:
    """The cell whose hexagon holds ``point``, or None off the board.

    The hexagons are the regions nearest to each centre, so the cell is the nearest centre
    of the lattice (looked for among the rows and places around the point); a point on an
    edge between two cells goes to the one found first (upper row, then left)."""
    x, y = point
    line_guess = math.floor((y - layout.y0 - layout.radius) / layout.pitch + 0.5)
    best: tuple[float, int, int] | None = None
    for line in (line_guess - 1, line_guess, line_guess + 1):
        place_guess = math.floor((x - layout.x0) / layout.cell - _shift(line))
        for place in (place_guess - 1, place_guess, place_guess + 1):
            cx, cy = _lattice_centre(layout, line, place)
            distance = (x - cx) ** 2 + (y - cy) ** 2
            if best is None or distance < best[0]:
                best = (distance, line, place)
    assert best is not None
    _, line, place = best
    if not (0 <= line < layout.rows and 0 <= place < layout.cols):
        return None
    row = layout.rows - 1 - line
    return HexCell(row, (place + first_column(layout.rows, row)) % layout.cols)


def margins(rows: int, label_size: int) -> tuple[int, int]:
    """Room around the board for its labels: on each side (a row's end cells, ``h26``)
    and above and below (column numbers)."""
    widest_column = str(2 * rows)
    widest = max(
        style.text_width(row_label(row) + widest_column, label_size) for row in range(rows)
    )
    side = max(widest, style.text_width("m", label_size)) + label_size // 2 + 8
    edge = label_size + label_size // 2 + 8
    return side, edge


def board_size(rows: int, cols: int, *, cell: float, label_size: int) -> tuple[int, int]:
    """The pixel size of a ``rows`` × ``cols`` board of ``cell``-wide hexagons with its
    labels all round (whole pixels, rounded up)."""
    side, edge = margins(rows, label_size)
    radius = cell / SQRT3
    width = 2 * side + (cols + 0.5) * cell
    height = 2 * edge + 2 * radius + (rows - 1) * 1.5 * radius
    return math.ceil(width), math.ceil(height)


def plan_board(
    rows: int,
    cols: int,
    *,
    cell: float,
    label_size: int,
    left: float = 0.0,
    top: float = 0.0,
) -> HexLayout:
    """The board of :func:`board_size` with its labelled box's top-left corner at
    ``(left, top)`` of the picture."""
    side, edge = margins(rows, label_size)
    return HexLayout(
        rows=rows, cols=cols, cell=cell, x0=left + side, y0=top + edge, label_size=label_size
    )


def draw_hex_grid(image: Image.Image, layout: HexLayout) -> None:
    """Water hexagons with their outlines, every other column a lighter stripe, the names
    of each row's end cells and the column numbers."""
    draw_water_hexes(image, layout)
    draw_labels(image, layout)


def draw_water_hexes(image: Image.Image, layout: HexLayout) -> None:
    """Every hexagon's water and outline, every other column a lighter stripe."""
    draw = ImageDraw.Draw(image)
    for row in range(layout.rows):
        for col in range(layout.cols):
            water = WATER_STRIPE if col % 2 else style.WATER
            draw.polygon(corners(layout, HexCell(row, col)), fill=water, outline=style.GRID)


def place_cell(rows: int, cols: int, row: int, place: int) -> HexCell:
    """The cell drawn ``place`` hexagons from the left end of ``row``."""
    return HexCell(row, (first_column(rows, row) + place) % cols)


def draw_labels(image: Image.Image, layout: HexLayout, first: int = 0, stop: int = -1) -> None:
    """The labels of the hexagons ``first`` to ``stop`` (exclusive; -1: the last) of each
    row: the names of each row's end cells beside it, the column numbers above the top row
    and below the bottom one."""
    stop = layout.cols if stop < 0 else stop
    draw = ImageDraw.Draw(image)
    label_font = style.font(layout.label_size)
    gap = layout.label_size // 2 + 2
    for row in range(layout.rows):
        line = _line(layout, row)
        _, y = _lattice_centre(layout, line, 0)
        left = layout.x0 + (first + _shift(line)) * layout.cell - gap
        right = left + gap + (stop - first) * layout.cell + gap
        names = (
            str(place_cell(layout.rows, layout.cols, row, first)),
            str(place_cell(layout.rows, layout.cols, row, stop - 1)),
        )
        for x, anchor, name in ((left, "rm", names[0]), (right, "lm", names[1])):
            draw.text((x, y), name, font=label_font, fill=style.LABEL, anchor=anchor)
    for row, anchor, away in ((layout.rows - 1, "ms", -1), (0, "mt", 1)):
        for place in range(first, stop):
            cell = place_cell(layout.rows, layout.cols, row, place)
            x, y = centre(layout, cell)
            draw.text(
                (x, y + away * (layout.radius + gap / 2)),
                column_label(cell.col),
                font=label_font,
                fill=style.LABEL,
                anchor=anchor,
            )


def draw_band_mask(mask: Image.Image, layout: HexLayout, first: int, stop: int) -> None:
    """Fill (255) the hexagons ``first`` to ``stop`` (exclusive) of every row on ``mask``:
    the shape of a band of the board cut along the hexagons' edges."""
    draw = ImageDraw.Draw(mask)
    for row in range(layout.rows):
        for place in range(first, stop):
            cell = place_cell(layout.rows, layout.cols, row, place)
            draw.polygon(corners(layout, cell), fill=255, outline=255)


def plain_hex_grid(rows: int, cols: int, *, cell: float, label_size: int) -> Image.Image:
    """A board of empty water, labelled: the least any hex picture of this size draws (the
    benchmarks' floor)."""
    size = board_size(rows, cols, cell=cell, label_size=label_size)
    image = Image.new("RGB", size, style.BACKGROUND)
    draw_hex_grid(image, plan_board(rows, cols, cell=cell, label_size=label_size))
    return image
