"""Sonar's hex ocean and what is drawn on it (``shared/rules/sonar.md`` §2, §4.3, §5).

The board is pbmserv's: rows shifted half a cell from one another, numbered along slanted
columns (:mod:`renderers.sonar.hexgrid` holds the geometry). On it go a turn's charges with
their marks (a miss shows its distance in a white disc; a hit is a red burst; the killer shot
that sank a sub has a white ring round its burst), the hits that sail with the subs they
struck (a red ``x``), sunk subs (dark, outlined in their owner's colour) and, where a view
shows them, whole subs: a hull from bow to stern, pointed at the bow, with a propeller
behind the stern that shows which way it sails. A sub that crosses an edge of the drawn
board is cut there and goes on at the opposite edge, as the ocean does.

Everything here draws what it is given (cells from a view); nothing reads a game state.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.games.sonar.board import Cell, Facing
from bot.games.sonar.state import ShotResult
from bot.games.sonar.views import BoardView, ShotView
from renderers import marks, style
from renderers.sonar import hexgrid
from renderers.sonar.hexgrid import HexLayout, Point
from renderers.style import RGB

MIN_CELL = 22.0
"""The smallest hexagon (pixels across its flat sides): a distance of two digits still reads."""

MAX_CELL = 60.0


def label_size(cell: float) -> int:
    """Row letters and column numbers, a little under half a hexagon high."""
    return max(12, min(22, round(cell * 0.48)))


def cell_for(rows: int, cols: int, *, max_width: float, max_height: float) -> float:
    """The largest hexagon, from :data:`MIN_CELL` to :data:`MAX_CELL`, with which the
    labelled board fits ``max_width`` × ``max_height`` (at least :data:`MIN_CELL`)."""
    cell = MAX_CELL
    while cell > MIN_CELL:
        width, height = hexgrid.board_size(rows, cols, cell=cell, label_size=label_size(cell))
        if width <= max_width and height <= max_height:
            break
        cell -= 1.0
    return max(cell, MIN_CELL)


BAND_COLUMNS = 16
"""The most hexagons a row shows in one band of the picture. A wider board (from 12 × 24)
is cut into bands stacked one under the other, so that its hexagons, their labels and a
miss's distance still read when the picture is shown 390 pixels wide, on a phone."""


def band_places(cols: int) -> tuple[tuple[int, int], ...]:
    """The places (hexagons counted from each row's left end) of each band, ``first`` to
    ``stop`` (exclusive): as few bands as :data:`BAND_COLUMNS` allows, as even as can be,
    the wider first."""
    count = -(-cols // BAND_COLUMNS)
    base, extra = divmod(cols, count)
    bands, first = [], 0
    for index in range(count):
        stop = first + base + (1 if index < extra else 0)
        bands.append((first, stop))
        first = stop
    return tuple(bands)


@dataclass(frozen=True)
class Band:
    """One band of a board in the picture: the hexagons ``first`` to ``stop`` of each row.
    ``layout`` is the whole board's lattice placed so that those hexagons land in the
    band's box (the others fall outside it and are not shown there)."""

    layout: HexLayout
    first: int
    stop: int

    @property
    def whole(self) -> bool:
        return self.first == 0 and self.stop == self.layout.cols


def plan_bands(
    rows: int, cols: int, cell: float, *, left: float, top: int, gap: int
) -> tuple[tuple[Band, ...], int]:
    """The bands of a board (:func:`band_places`) stacked from ``(left, top)``, ``gap``
    apart, and the height they take."""
    bands = []
    y = top
    for first, stop in band_places(cols):
        box = plan(rows, stop - first, cell, left=left, top=y)
        placed = HexLayout(rows, cols, cell, box.x0 - first * cell, box.y0, box.label_size)
        bands.append(Band(placed, first, stop))
        y += size_of(rows, stop - first, cell)[1] + gap
    return tuple(bands), y - gap - top


def centre_in(bands: Sequence[Band], cell: Cell) -> Point:
    """Where ``cell``'s centre is in the picture: in the band that shows it."""
    rows, cols = bands[0].layout.rows, bands[0].layout.cols
    place = (cell.col - hexgrid.first_column(rows, cell.row)) % cols
    (band,) = [band for band in bands if band.first <= place < band.stop]
    return hexgrid.centre(band.layout, cell)


def paint(
    image: Image.Image, bands: Sequence[Band], draw: Callable[[Image.Image, HexLayout], None]
) -> None:
    """Draw on a board cut in bands: ``draw`` draws on the whole board (with its layout),
    each band shows its part. A board in one band is drawn in place, over the water that
    is already there; a banded one on a copy of the whole water, cut along the hexagons'
    edges, so a sub that crosses from one band to the next is the same sub in both."""
    if len(bands) == 1 and bands[0].whole:
        draw(image, bands[0].layout)
        return
    first = bands[0].layout
    water, layout = _water(first.rows, first.cols, first.cell, first.label_size)
    canvas = water.copy()
    draw(canvas, layout)
    for band in bands:
        mask = _band_mask(layout, band.first, band.stop)
        box = mask.getbbox()
        assert box is not None
        dx = round(band.layout.x0 - layout.x0)
        dy = round(band.layout.y0 - layout.y0)
        image.paste(canvas.crop(box), (box[0] + dx, box[1] + dy), mask.crop(box))


CANVAS_PAD = 4


@functools.lru_cache(maxsize=4)
def _water(rows: int, cols: int, cell: float, labels: int) -> tuple[Image.Image, HexLayout]:
    """The whole board's water, unlabelled, on a canvas of its own (callers copy it)."""
    layout = HexLayout(rows, cols, cell, float(CANVAS_PAD), float(CANVAS_PAD), labels)
    size = (
        math.ceil(layout.width) + 2 * CANVAS_PAD,
        math.ceil(layout.height) + 2 * CANVAS_PAD,
    )
    image = Image.new("RGB", size, style.BACKGROUND)
    hexgrid.draw_water_hexes(image, layout)
    return image, layout


@functools.lru_cache(maxsize=16)
def _band_mask(layout: HexLayout, first: int, stop: int) -> Image.Image:
    size = (
        math.ceil(layout.width) + 2 * CANVAS_PAD,
        math.ceil(layout.height) + 2 * CANVAS_PAD,
    )
    mask = Image.new("L", size, 0)
    hexgrid.draw_band_mask(mask, layout, first, stop)
    return mask


def plan(rows: int, cols: int, cell: float, *, left: float, top: float) -> HexLayout:
    """The labelled board with its box's top-left corner at ``(left, top)``."""
    return hexgrid.plan_board(
        rows, cols, cell=cell, label_size=label_size(cell), left=left, top=top
    )


def size_of(rows: int, cols: int, cell: float) -> tuple[int, int]:
    """The pixel size of the labelled board."""
    return hexgrid.board_size(rows, cols, cell=cell, label_size=label_size(cell))


# --- directions on the picture ----------------------------------------------------------


def step_vector(layout: HexLayout, facing: Facing) -> Point:
    """One step ``facing`` on the picture (rules §2: up-right keeps the column, and each row
    sits half a cell from the next)."""
    c, up = layout.cell, layout.pitch
    return {
        Facing.RIGHT: (c, 0.0),
        Facing.LEFT: (-c, 0.0),
        Facing.UP_RIGHT: (c / 2, -up),
        Facing.UP_LEFT: (-c / 2, -up),
        Facing.DOWN_RIGHT: (c / 2, up),
        Facing.DOWN_LEFT: (-c / 2, up),
    }[facing]


def _adjacent(layout: HexLayout, a: Point, b: Point) -> bool:
    """Whether two centres are neighbours on the picture (not across a wrapped edge)."""
    return abs(math.dist(a, b) - layout.cell) < layout.cell * 0.1


def _polygon(image: Image.Image, points: Sequence[Point], colour: RGB) -> None:
    """An anti-aliased filled polygon."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]

    def shape(draw: ImageDraw.ImageDraw, scale: float, ox: float, oy: float) -> None:
        draw.polygon([((x - ox) * scale, (y - oy) * scale) for x, y in points], fill=255)

    marks.paint_shape(image, (min(xs), min(ys), max(xs), max(ys)), colour, shape)


def _band(a: Point, b: Point, half: float) -> list[Point]:
    """The corners of a band of half-width ``half`` from ``a`` to ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * half, dx / length * half
    return [
        (a[0] + nx, a[1] + ny),
        (b[0] + nx, b[1] + ny),
        (b[0] - nx, b[1] - ny),
        (a[0] - nx, a[1] - ny),
    ]


# --- the water -------------------------------------------------------------------------


def draw_water(image: Image.Image, layout: HexLayout) -> None:
    """The hexagons and their labels (see :func:`renderers.sonar.hexgrid.draw_hex_grid`)."""
    hexgrid.draw_hex_grid(image, layout)


def draw_band_water(image: Image.Image, band: Band) -> None:
    """A band's labels, and its water when it is the whole board (a banded board's water
    comes with what :func:`paint` draws)."""
    if band.whole:
        hexgrid.draw_hex_grid(image, band.layout)
    else:
        hexgrid.draw_labels(image, band.layout, band.first, band.stop)


# --- subs ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hull:
    """A sub to draw: its cells bow first, the way it sails, its colours, the cells
    struck (a red ``x`` on each unless it sank) and its ``number`` (the text's "sub 2"),
    written on the hull where a view knows it."""

    cells: tuple[Cell, ...]
    facing: Facing
    fill: RGB
    edge: RGB
    hits: tuple[Cell, ...] = ()
    sunk: bool = False
    number: int | None = None


def draw_hull(image: Image.Image, layout: HexLayout, hull: Hull) -> None:
    """A sub: round segments joined where they are neighbours on the picture, the bow pointed
    the way it sails, a propeller behind the stern (rules §5), and its hits."""
    centres = [hexgrid.centre(layout, cell) for cell in hull.cells]
    c = layout.cell
    ahead = step_vector(layout, hull.facing)
    unit = (ahead[0] / c, ahead[1] / c)
    for outline, half in ((hull.edge, c * 0.30), (hull.fill, c * 0.23)):
        for centre in centres:
            marks.disc(image, centre, half, outline)
        for a, b in itertools.pairwise(centres):
            if _adjacent(layout, a, b):
                _polygon(image, _band(a, b, half), outline)
        bow = centres[0]
        tip = (bow[0] + unit[0] * (half + c * 0.2), bow[1] + unit[1] * (half + c * 0.2))
        side = (-unit[1] * half, unit[0] * half)
        _polygon(
            image,
            [(bow[0] + side[0], bow[1] + side[1]), tip, (bow[0] - side[0], bow[1] - side[1])],
            outline,
        )
    if not hull.sunk:
        _propeller(image, layout, centres[-1], unit, hull.edge)
    if hull.number is not None:
        _number(image, layout, hull, centres)
    if not hull.sunk:
        for cell in hull.hits:
            draw_hit_mark(image, layout, cell)


def _number(image: Image.Image, layout: HexLayout, hull: Hull, centres: Sequence[Point]) -> None:
    """The sub's number on a segment behind the bow (one not struck, where there is one),
    so a player names their subs from the picture as the text does."""
    segments = [i for i in range(len(centres)) if hull.cells[i] not in hull.hits] or [0]
    middle = (len(centres) - 1) / 2
    at = centres[min(segments, key=lambda i: (abs(i - middle), i))]
    size = max(10, round(layout.cell * 0.42))
    ink = style.LABEL if hull.sunk else hull.edge
    ImageDraw.Draw(image).text(
        (at[0], at[1] + size * 0.04),
        str(hull.number),
        font=style.font(size),
        fill=ink,
        anchor="mm",
        stroke_width=max(1, size // 14),
        stroke_fill=ink,
    )


def _propeller(
    image: Image.Image, layout: HexLayout, stern: Point, unit: Point, colour: RGB
) -> None:
    """Two blades across the sub's line and a hub, just behind the stern."""
    c = layout.cell
    hub = (stern[0] - unit[0] * c * 0.44, stern[1] - unit[1] * c * 0.44)
    across = (-unit[1], unit[0])
    for sign in (1.0, -1.0):
        tip = (hub[0] + sign * across[0] * c * 0.32, hub[1] + sign * across[1] * c * 0.32)
        _polygon(image, _band(hub, tip, c * 0.09), colour)
    marks.disc(image, hub, c * 0.11, colour)


def draw_hit_mark(image: Image.Image, layout: HexLayout, cell: Cell) -> None:
    """The ``x`` of a hit on a sub still afloat: red, edged in white to read on any hull."""
    x, y = hexgrid.centre(layout, cell)
    c = layout.cell
    box = (x - c * 0.24, y - c * 0.24, x + c * 0.24, y + c * 0.24)
    marks.cross(image, box, style.TEXT, c * 0.16)
    marks.cross(image, box, style.HIT, c * 0.09)


CAPTAIN_COLOURS: tuple[RGB, ...] = (
    (160, 120, 255),  # violet
    (240, 96, 200),  # pink
    (240, 210, 70),  # yellow
    (80, 220, 150),  # mint
)
"""One colour per captain, in join order: Sonar has at most four, and these stay apart from
one another, from the water, from a hit's red and from the sand of a captain's own subs."""


def captain_colours(captains: Sequence[str]) -> dict[str, RGB]:
    """Each captain's colour (by id, in join order)."""
    return {
        player: CAPTAIN_COLOURS[index % len(CAPTAIN_COLOURS)]
        for index, player in enumerate(captains)
    }


def draw_sunk(
    image: Image.Image, layout: HexLayout, cells: Sequence[Cell], facing: Facing, colour: RGB
) -> None:
    """A sunk sub where it sank: dark, edged in its owner's colour, no propeller."""
    draw_hull(image, layout, Hull(tuple(cells), facing, style.WRECK, colour, sunk=True))


# --- charges ---------------------------------------------------------------------------


def draw_shots(image: Image.Image, layout: HexLayout, shots: Sequence[ShotView]) -> None:
    """A turn's charges with their marks (rules §4.3): misses with their distance, hits as
    bursts, the killer shot with a white ring round its burst."""
    c = layout.cell
    for shot in shots:
        centre = hexgrid.centre(layout, shot.cell)
        if shot.result is ShotResult.MISS:
            draw_distance(image, centre, c, shot.distance or 0)
            continue
        if shot.result is ShotResult.SUNK:
            marks.ring(image, centre, c * 0.5, max(2.0, c * 0.08), style.MISS)
        marks.burst(image, centre, c * 0.46, style.HIT, points=10, inner=0.58)
        marks.burst(image, centre, c * 0.32, style.HIT_LIGHT, points=10, inner=0.62)


def draw_distance(image: Image.Image, centre: Point, cell: float, distance: int) -> None:
    """A miss: a white disc with the distance to the nearest sub, as large as fits."""
    marks.disc(image, centre, cell * 0.42, style.MISS)
    text = str(distance)
    size = _digits_size(len(text), cell)
    ImageDraw.Draw(image).text(
        (centre[0], centre[1] + size * 0.04),
        text,
        font=style.font(size),
        fill=style.BACKGROUND,
        anchor="mm",
        stroke_width=max(0, round(size / 18)),
        stroke_fill=style.BACKGROUND,
    )


@functools.lru_cache(maxsize=64)
def _digits_size(digits: int, cell: float) -> int:
    """The font size whose digits fill most of a miss's disc."""
    room = cell * 0.66
    size = max(8, round(cell * (0.58 if digits == 1 else 0.46)))
    while size > 8 and style.text_width("8" * digits, size) > room:
        size -= 1
    return size


def draw_board_view(
    image: Image.Image, layout: HexLayout, board: BoardView, colours: dict[str, RGB]
) -> None:
    """The public facts of one board (rules §5): sunk subs, the hits that sail with the subs
    they struck, and the turn's charges on top."""
    for sunk in board.sunk:
        draw_sunk(image, layout, sunk.cells, sunk.facing, colours.get(sunk.owner, style.LABEL))
    shot_cells = {shot.cell for shot in board.shots}
    for cell in board.hits:
        if cell not in shot_cells:
            draw_hit_mark(image, layout, cell)
    draw_shots(image, layout, board.shots)
    for shot in board.shots:
        if shot.result is ShotResult.HIT and shot.cell in board.hits:
            draw_hit_mark(image, layout, shot.cell)
