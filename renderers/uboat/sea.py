"""U-Boat Shootout's sea on the shared square grid, and what is drawn on its tiles.

Columns are letters from the left and rows numbers from the top (``C3``), as
:mod:`bot.games.uboat.cells` prints them. Each U-boat has its colour (Red, Blue, Green,
Yellow, Purple, Orange: the game's names for them), drawn with a white rim so that it
reads on the water. Islands are sand with their number, ringed in their owner's colour.
A blast is a cross: its tile (direct) gets a burst or a splash in the shooter's colour,
its four neighbours (indirect, wrapping round the edges) a tint; a ram's struck tile a
diamond. Every mark comes from a view's values; nothing here knows where a hidden boat is
unless the view it is given says so (the crew's own boat, or the replay's reveal).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence

from PIL import Image, ImageDraw

from bot.games.grid import Direction
from bot.games.uboat.cells import LETTERS, Cell
from bot.games.uboat.values import Colour
from renderers import grid, marks, style
from renderers.grid import GridLabels, GridLayout
from renderers.style import RGB

BOAT_RGB: dict[Colour, RGB] = {
    Colour.RED: (226, 52, 48),
    Colour.BLUE: (36, 64, 196),
    Colour.GREEN: (40, 168, 72),
    Colour.YELLOW: (246, 206, 40),
    Colour.PURPLE: (150, 76, 206),
    Colour.ORANGE: (246, 132, 28),
}
RIM: RGB = (250, 250, 250)
SAND: RGB = (222, 198, 140)
SAND_EDGE: RGB = (150, 122, 70)
ISLAND_TEXT: RGB = (52, 40, 20)
STRUCK: RGB = (255, 140, 0)


def boat_rgb(colour: Colour) -> RGB:
    return BOAT_RGB[colour]


def bright(colour: Colour) -> RGB:
    """The boat's colour made light enough to read on the dark panels (Blue, Purple)."""
    r, g, b = BOAT_RGB[colour]
    if 0.299 * r + 0.587 * g + 0.114 * b >= 110:
        return (r, g, b)
    return (round(r + (255 - r) * 0.4), round(g + (255 - g) * 0.4), round(b + (255 - b) * 0.4))


def column_label(col: int) -> str:
    return LETTERS[col]


def row_label(row: int) -> str:
    return str(row + 1)


LABELS = GridLabels(row=row_label, col=column_label)

Layer = Callable[[Image.Image, GridLayout], None]
"""Something drawn over the sea once its public marks are down."""


def margins(size: int, label_size: int) -> tuple[int, int]:
    return grid.margins(size, size, label_size, LABELS)


def plan(size: int, *, target: int, min_cell: int, max_cell: int, max_width: int) -> GridLayout:
    """The sea's cells (always detailed: the sea has at most 26 columns)."""
    return grid.plan_board(
        size,
        size,
        labels=LABELS,
        x0=0,
        y0=0,
        max_board_width=max_width,
        max_board_height=max_width,
        min_cell=min_cell,
        max_cell=max_cell,
        target=target,
    )


def centre(layout: GridLayout, cell: Cell) -> tuple[float, float]:
    x0, y0, x1, y1 = layout.box(cell)
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def neighbours(size: int, cell: Cell) -> list[Cell]:
    """The four tiles beside ``cell``, wrapping round the edges (a blast's indirect tiles)."""
    return [
        Cell((cell.row + dr) % size, (cell.col + dc) % size)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
    ]


def within(size: int, cell: Cell, reach: int) -> list[Cell]:
    """Every tile at most ``reach`` away from ``cell`` (wrapped Manhattan distance)."""
    found = []
    for row in range(size):
        for col in range(size):
            dr = abs(row - cell.row)
            dc = abs(col - cell.col)
            if min(dr, size - dr) + min(dc, size - dc) <= reach:
                found.append(Cell(row, col))
    return found


def polygon(image: Image.Image, points: Sequence[tuple[float, float]], colour: RGB) -> None:
    """An anti-aliased filled polygon (through the shared supersampled mask painter)."""
    xs = [x for x, _ in points]
    ys = [y for _, y in points]

    def shape(draw: ImageDraw.ImageDraw, scale: float, ox: float, oy: float) -> None:
        draw.polygon([((x - ox) * scale, (y - oy) * scale) for x, y in points], fill=255)

    marks.paint_shape(image, (min(xs), min(ys), max(xs), max(ys)), colour, shape)


# --- islands -------------------------------------------------------------------------


def draw_island(
    image: Image.Image, layout: GridLayout, cell: Cell, number: int, owner: Colour | None
) -> None:
    """Sand with the island's number; a thick ring in its owner's colour when owned."""
    c = layout.cell
    box = layout.box(cell)
    if owner is not None:
        marks.capsule(image, marks.inset(box, c * 0.04), boat_rgb(owner), RIM, max(1.5, c * 0.03))
    marks.capsule(image, marks.inset(box, c * 0.17), SAND, SAND_EDGE, max(1.5, c * 0.04))
    label = str(number)
    size = max(10, int(c * (0.42 if number < 10 else 0.34)))
    ImageDraw.Draw(image).text(
        centre(layout, cell),
        label,
        font=style.font(size),
        fill=ISLAND_TEXT,
        anchor="mm",
        stroke_width=1 if size >= 16 else 0,
        stroke_fill=ISLAND_TEXT,
    )


# --- blasts and rams -------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _tint(side: int, colour: RGB, alpha: int) -> Image.Image:
    """A translucent square (shared between calls; only ever composited)."""
    return Image.new("RGBA", (side, side), (*colour, alpha))


def tint(image: Image.Image, layout: GridLayout, cell: Cell, colour: RGB, alpha: int) -> None:
    x0, y0, _, _ = layout.box(cell)
    marks.composite(image, _tint(layout.cell + 1, colour, alpha), (x0, y0))


def draw_blast_arms(
    image: Image.Image,
    layout: GridLayout,
    size: int,
    tile: Cell,
    colour: RGB,
    hit: bool,
    islands: frozenset[Cell],
) -> None:
    """A blast's four indirect tiles: tinted in the shooter's colour, or red when a boat
    was hit beside the tile (the public knows that much, never which neighbour). Islands
    beside it are left clear: a blast's side does nothing to them."""
    for cell in neighbours(size, tile):
        if cell not in islands:
            draw_side_tint(image, layout, cell, colour, hit)


def draw_side_tint(
    image: Image.Image, layout: GridLayout, cell: Cell, colour: RGB, hit: bool
) -> None:
    """One indirect tile of a blast, as the map and its legend both draw it."""
    tint(image, layout, cell, style.HIT if hit else colour, 120 if hit else 90)


def draw_blast_tile(
    image: Image.Image,
    layout: GridLayout,
    tile: Cell,
    shooters: Sequence[Colour],
    hit: bool,
    *,
    island: bool = False,
) -> None:
    """A blast's direct tile: a burst when a boat on it was hit, else a splash ring; the
    shooters' colours as dots in the middle (at the foot of an island, whose number stays
    readable)."""
    c = layout.cell
    middle = centre(layout, tile)
    if hit:
        marks.burst(image, middle, c * 0.5, style.HIT, points=12, inner=0.6)
        marks.burst(image, middle, c * 0.38, style.HIT_LIGHT, points=12, inner=0.66)
    elif island:
        marks.ring(image, middle, c * 0.45, max(2.0, c * 0.06), style.MISS)
    else:
        marks.ring(image, middle, c * 0.36, max(2.0, c * 0.07), style.MISS)
    dots = list(shooters)[:4]
    radius = c * (0.13 if len(dots) == 1 else 0.1)
    below = c * 0.36 if island else 0.0
    for i, shooter in enumerate(dots):
        offset = (i - (len(dots) - 1) / 2) * radius * 2.3
        spot = (middle[0] + offset, middle[1] + below)
        marks.disc(image, spot, radius + max(1.5, c * 0.03), RIM)
        marks.disc(image, spot, radius, boat_rgb(shooter))


def draw_struck(
    image: Image.Image, layout: GridLayout, tile: Cell, rammers: Sequence[Colour], hit: bool
) -> None:
    """A ram's struck tile: a diamond in the rammer's colour (red-rimmed when it hit)."""
    c = layout.cell
    cx, cy = centre(layout, tile)
    outer = c * 0.4
    points = [(cx, cy - outer), (cx + outer, cy), (cx, cy + outer), (cx - outer, cy)]
    polygon(image, points, style.HIT if hit else STRUCK)
    inner = outer * 0.66
    points = [(cx, cy - inner), (cx + inner, cy), (cx, cy + inner), (cx - inner, cy)]
    polygon(image, points, boat_rgb(rammers[0]) if rammers else STRUCK)


def draw_reach(image: Image.Image, layout: GridLayout, cell: Cell, colour: Colour) -> None:
    """A tile within the crew's firing range: a small dot in its boat's colour."""
    middle = centre(layout, cell)
    radius = max(2.5, layout.cell * 0.08)
    marks.disc(image, middle, radius + 1.5, RIM)
    marks.disc(image, middle, radius, BOAT_RGB[colour])


def draw_start(image: Image.Image, layout: GridLayout, cell: Cell) -> None:
    """The starting cell a player sent in setup."""
    middle = centre(layout, cell)
    marks.ring(image, middle, layout.cell * 0.32, max(2.0, layout.cell * 0.08), RIM)
    marks.disc(image, middle, layout.cell * 0.1, RIM)


# --- boats -------------------------------------------------------------------------------


def draw_boat(
    image: Image.Image,
    layout: GridLayout,
    cell: Cell,
    colour: Colour,
    *,
    afloat: bool = True,
    slot: int = 0,
    slots: int = 1,
) -> None:
    """A U-boat: a hull in its colour with a white rim and a conning tower; a sunk one is a
    dark wreck rimmed in its colour. ``slot`` of ``slots`` shares a tile between boats."""
    c = layout.cell
    x0, y0, x1, y1 = layout.box(cell)
    band = (y1 - y0) / slots
    top = y0 + band * slot
    pad_x = c * 0.1
    pad_y = band * (0.28 if slots == 1 else 0.12)
    hull = (x0 + pad_x, top + pad_y, x1 - pad_x, top + band - pad_y)
    fill = boat_rgb(colour) if afloat else style.WRECK
    edge = RIM if afloat else boat_rgb(colour)
    marks.capsule(image, hull, fill, edge, max(1.5, c * 0.045))
    if afloat and band >= c * 0.45:
        mid = (hull[0] + hull[2]) / 2
        h = hull[3] - hull[1]
        tower = (mid - c * 0.08, hull[1] - h * 0.35, mid + c * 0.12, hull[1] + h * 0.3)
        marks.capsule(image, tower, fill, edge, max(1.0, c * 0.03))
    if not afloat:
        marks.cross(image, marks.inset(layout.box(cell), c * 0.3), edge, max(2.0, c * 0.06))


def draw_health(
    image: Image.Image, layout: GridLayout, cell: Cell, health: int, *, slot: int, slots: int
) -> None:
    """Three pips under a boat: full ones for its health."""
    c = layout.cell
    x0, y0, x1, y1 = layout.box(cell)
    band = (y1 - y0) / slots
    y = y0 + band * (slot + 1) - max(3.0, band * 0.12)
    radius = max(1.8, min(c * 0.055, band * 0.1))
    for i in range(3):
        spot = ((x0 + x1) / 2 + (i - 1) * radius * 2.8, y)
        marks.disc(image, spot, radius + 1, style.BACKGROUND)
        marks.disc(image, spot, radius, style.HIT_LIGHT if i < health else style.WRECK)


# --- arrows: routes told as directions, never as cells ------------------------------------

_ANGLES = {Direction.UP: -90.0, Direction.DOWN: 90.0, Direction.LEFT: 180.0, Direction.RIGHT: 0.0}


def draw_arrow(
    image: Image.Image, centre_xy: tuple[float, float], size: float, step: Direction, colour: RGB
) -> None:
    """One step of a route as an arrow pointing its way, ``size`` pixels long."""
    angle = math.radians(_ANGLES[step])
    cos, sin = math.cos(angle), math.sin(angle)
    half, shaft, head = size / 2, size * 0.13, size * 0.34
    outline = [
        (-half, -shaft),
        (half - head, -shaft),
        (half - head, -head),
        (half, 0.0),
        (half - head, head),
        (half - head, shaft),
        (-half, shaft),
    ]
    cx, cy = centre_xy
    polygon(image, [(cx + x * cos - y * sin, cy + x * sin + y * cos) for x, y in outline], colour)


def route_width(steps: int, size: float) -> float:
    return steps * size * 1.15


def draw_route(
    image: Image.Image, left: float, cy: float, size: float, route: Iterable[Direction], colour: RGB
) -> float:
    """The arrows of a route from ``left``; returns where they end."""
    x = left
    for step in route:
        draw_arrow(image, (x + size / 2, cy), size, step, colour)
        x += size * 1.15
    return x
