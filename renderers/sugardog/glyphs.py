"""How each mark of a Sugar Dog chart is drawn in its cell: a submarine (hull and conning
tower), a torpedo (an arrow-like body pointing where it runs, when its heading is known),
a mine (a spiked ball), an impact (a burst), a wreck (a dark hull crossed out), a
contact ring, the sonar rings of a ping and the badge with the turn a mark was heard.

Things sharing a cell share it in slots (halves, quarters, a finer grid beyond four), so
every one of them stays visible. Faded marks are their colours mixed toward the water:
the same pixels every time, with no transparency to carry. On a compact board (cells
too small for shapes) each mark is a coloured square.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.games.grid import Direction
from renderers import grid, marks, style
from renderers.grid import GridLayout
from renderers.style import RGB
from renderers.sugardog.board import square
from renderers.sugardog.chart import Glyph, Mark

Box = tuple[float, float, float, float]

OWN: RGB = style.OWN_SHIP
OWN_EDGE: RGB = style.TEXT
"""The viewer's own things are gold edged in white (a captain's colour may be gold too)."""
MIN_BADGE_SLOT = 34
"""Slots smaller than this (pixels) carry no turn badge: it would cover the mark."""

# A torpedo pointing right, in units of its half-length (x) and half-width (y): a body,
# a pointed nose and a tail fin.
_TORPEDO = (
    (-0.72, -0.42),
    (0.5, -0.42),
    (1.0, 0.0),
    (0.5, 0.42),
    (-0.72, 0.42),
    (-1.0, 0.8),
    (-1.0, -0.8),
)

# A torpedo whose heading is unknown: a nose at each end and the fins amidships.
_UNHEADED_TORPEDO = (
    (-1.0, 0.0),
    (-0.62, -0.42),
    (-0.16, -0.42),
    (-0.06, -0.9),
    (0.06, -0.9),
    (0.16, -0.42),
    (0.62, -0.42),
    (1.0, 0.0),
    (0.62, 0.42),
    (0.16, 0.42),
    (0.06, 0.9),
    (-0.06, 0.9),
    (-0.16, 0.42),
    (-0.62, 0.42),
)

_CELL_WIDE = frozenset({Glyph.WRECK, Glyph.IMPACT, Glyph.RING})
"""Marks drawn over the whole cell, under the units that share it."""


def faded(colour: RGB, fade: float) -> RGB:
    """``colour`` mixed toward the water by ``fade`` (0 keeps it)."""
    water = style.WATER
    return (
        round(colour[0] + (water[0] - colour[0]) * fade),
        round(colour[1] + (water[1] - colour[1]) * fade),
        round(colour[2] + (water[2] - colour[2]) * fade),
    )


def colour_of(mark: Mark) -> RGB:
    if mark.own:
        return OWN
    if mark.owner is None:
        return style.HIT
    return style.owner_colour(mark.owner)


def slots(count: int) -> list[Box]:
    """Where ``count`` things sit in one cell, as fractions of the cell (left, top, right,
    bottom): the whole cell, two halves one above the other (hulls are wide), quarters,
    then a square grid."""
    if count <= 1:
        return [(0.0, 0.0, 1.0, 1.0)]
    if count == 2:
        return [(0.0, 0.0, 1.0, 0.5), (0.0, 0.5, 1.0, 1.0)]
    side = math.ceil(math.sqrt(count))
    step = 1.0 / side
    return [
        ((i % side) * step, (i // side) * step, (i % side + 1) * step, (i // side + 1) * step)
        for i in range(count)
    ]


def _within(box: Box, part: Box) -> Box:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    return (x0 + w * part[0], y0 + h * part[1], x0 + w * part[2], y0 + h * part[3])


def submarine(image: Image.Image, box: Box, fill: RGB, edge: RGB) -> None:
    """A hull with a conning tower, filling the width of ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hull_h = min(h * 0.36, w * 0.34)
    hull = (x0 + w * 0.1, cy - hull_h * 0.3, x1 - w * 0.1, cy + hull_h * 0.7)
    tower_w, tower_h = w * 0.2, hull_h * 0.75
    tower = (
        cx - w * 0.14,
        hull[1] - tower_h * 0.8,
        cx - w * 0.14 + tower_w,
        hull[1] + tower_h * 0.4,
    )
    line = max(1.0, min(w, h) * 0.04)
    marks.capsule(image, tower, fill, edge, line)
    marks.capsule(image, hull, fill, edge, line)


def torpedo(
    image: Image.Image, box: Box, fill: RGB, edge: RGB, direction: Direction | None
) -> None:
    """A torpedo pointing where it runs; a plain capsule when its heading is unknown (a
    contact says where, not which way)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    half_length = min(w, h) * 0.4
    half_width = min(w, h) * 0.14
    if direction is None:
        # Heard, heading unknown: a torpedo all the same (pointed, finned), but pointed at
        # both ends, so it claims no heading — not a capsule, which read as a submarine's hull.
        for colour, grow in ((edge, 1.14), (fill, 1.0)):
            points = [
                (cx + u * half_length * grow, cy + v * half_width * grow)
                for u, v in _UNHEADED_TORPEDO
            ]
            _polygon(image, points, colour)
        return

    def place(u: float, v: float, grow: float) -> tuple[float, float]:
        u, v = u * half_length * grow, v * half_width * grow
        if direction is Direction.RIGHT:
            return (cx + u, cy + v)
        if direction is Direction.LEFT:
            return (cx - u, cy + v)
        if direction is Direction.UP:
            return (cx + v, cy - u)
        return (cx + v, cy + u)

    for colour, grow in ((edge, 1.14), (fill, 1.0)):
        points = [place(u, v, grow) for u, v in _TORPEDO]
        _polygon(image, points, colour)


def _polygon(image: Image.Image, points: Sequence[tuple[float, float]], colour: RGB) -> None:
    xs, ys = [p[0] for p in points], [p[1] for p in points]

    def shape(draw: ImageDraw.ImageDraw, scale: float, ox: float, oy: float) -> None:
        draw.polygon([((x - ox) * scale, (y - oy) * scale) for x, y in points], fill=255)

    marks.paint_shape(image, (min(xs), min(ys), max(xs), max(ys)), colour, shape)


def mine(image: Image.Image, box: Box, fill: RGB, core: RGB) -> None:
    """A spiked ball."""
    x0, y0, x1, y1 = box
    radius = min(x1 - x0, y1 - y0) * 0.34
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    marks.burst(image, centre, radius, fill, points=8, inner=0.68)
    marks.disc(image, centre, radius * 0.5, core)


def impact(image: Image.Image, box: Box, fade: float) -> None:
    x0, y0, x1, y1 = box
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    size = min(x1 - x0, y1 - y0)
    marks.burst(image, centre, size * 0.5, faded(style.HIT, fade), points=12, inner=0.6)
    marks.burst(image, centre, size * 0.36, faded(style.HIT_LIGHT, fade), points=12, inner=0.66)


def wreck(image: Image.Image, box: Box, owner: RGB) -> None:
    """A sunk submarine: its hull dark, edged in its captain's colour, crossed out."""
    submarine(image, box, style.WRECK, owner)
    x0, y0, x1, y1 = box
    size = min(x1 - x0, y1 - y0)
    cross = marks.inset((round(x0), round(y0), round(x1), round(y1)), size * 0.3)
    marks.cross(image, cross, style.WRECK_EDGE, size * 0.13)
    marks.cross(image, cross, style.HIT, size * 0.08)


def ring(image: Image.Image, box: Box, colour: RGB) -> None:
    x0, y0, x1, y1 = box
    size = min(x1 - x0, y1 - y0)
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    marks.ring(image, centre, size * 0.46, max(2.0, size * 0.07), colour)


def sonar(image: Image.Image, layout: GridLayout, box: Box) -> None:
    """The rings of a ping around the pinger's cell, fainter outward, kept on the board."""
    x0, y0, x1, y1 = box
    board = (layout.x0, layout.y0, layout.x0 + layout.width, layout.y0 + layout.height)
    water = image.crop(board)
    centre = ((x0 + x1) / 2 - board[0], (y0 + y1) / 2 - board[1])
    cell = layout.cell
    for step, fade in ((0.62, 0.0), (1.12, 0.3), (1.62, 0.55)):
        marks.ring(water, centre, cell * step, max(1.5, cell * 0.045), faded(style.TEXT, fade))
    image.paste(water, board[:2])


def badge(image: Image.Image, box: Box, text: str, fade: float) -> None:
    """The turn a mark was heard, on a small tag in the top right corner of its slot."""
    x0, y0, x1, y1 = box
    slot = min(x1 - x0, y1 - y0)
    if slot < MIN_BADGE_SLOT:
        return
    size = max(11, round(slot * 0.24))
    colour = style.TEXT if fade < 0.3 else style.TEXT_DIM
    fill, mask = _badge_patch(text, size, colour)
    image.paste(fill, (round(x1 - fill.width - 1), round(y0 + 1)), mask)


@functools.lru_cache(maxsize=256)
def _badge_patch(text: str, size: int, colour: RGB) -> tuple[Image.Image, Image.Image]:
    """A badge as an opaque picture and its mask (shared; only ever pasted): pasting
    through the mask blends it as compositing would, without converting the map's
    pixels under it to RGBA and back for every badge (a big board has dozens)."""
    tag = marks.name_tag(text, size, colour, style.BACKGROUND, False)
    return tag.convert("RGB"), tag.getchannel("A")


MIN_NAME_SLOT = 44
"""Slots smaller than this (pixels) carry no name."""


def name_under(image: Image.Image, box: Box, name: str) -> None:
    """A captain's name along the bottom of a slot, on a translucent tag."""
    x0, y0, x1, y1 = box
    slot = min(x1 - x0, y1 - y0)
    if slot < MIN_NAME_SLOT:
        return
    size = max(10, round(slot * 0.2))
    label = style.fit_text(name, size, round(x1 - x0 - 2))
    if not label:
        return
    tag = marks.name_tag(label, size, style.TEXT, style.WRECK_EDGE, False)
    marks.composite(image, tag, (round((x0 + x1 - tag.width) / 2), round(y1 - tag.height - 1)))


def draw_marks(
    image: Image.Image, layout: GridLayout, chart_marks: Sequence[Mark], size: int
) -> None:
    """Every mark, cell by cell: cell-wide marks first, then the units in their slots."""
    by_cell: dict[tuple[int, int], list[Mark]] = {}
    for mark in chart_marks:
        by_cell.setdefault((mark.cell.column, mark.cell.row), []).append(mark)
    for group in by_cell.values():
        where = square(group[0].cell, size)
        if not layout.on_board(where):
            continue
        if not layout.detailed:
            _compact(image, layout, group)
            continue
        cell_box: Box = layout.box(where)
        for mark in group:
            if mark.glyph in _CELL_WIDE:
                _draw(image, cell_box, mark)
        units = [m for m in group if m.glyph not in _CELL_WIDE]
        for mark, part in zip(units, slots(len(units)) if units else [], strict=True):
            slot = _within(cell_box, part)
            _draw(image, slot, mark)
            if mark.turn is not None:
                badge(image, slot, str(mark.turn), mark.fade)
        for mark in group:
            if mark.label is not None:
                slot = (
                    cell_box
                    if mark.glyph in _CELL_WIDE
                    else _within(cell_box, slots(len(units))[units.index(mark)])
                )
                name_under(image, slot, mark.label)
        for mark in group:
            if mark.glyph is Glyph.IMPACT and mark.turn is not None and not units:
                badge(image, cell_box, str(mark.turn), mark.fade)


def _draw(image: Image.Image, box: Box, mark: Mark) -> None:
    colour = faded(colour_of(mark), mark.fade)
    edge = faded(OWN_EDGE if mark.own else style.darker(colour_of(mark), 0.45), mark.fade)
    if mark.glyph is Glyph.SUBMARINE:
        submarine(image, box, colour, edge)
    elif mark.glyph is Glyph.TORPEDO:
        torpedo(image, box, colour, edge, mark.direction)
    elif mark.glyph is Glyph.MINE:
        # Dark spikes for every mine, your own too: light spikes around a gold core read
        # as the impact's burst.
        spikes = faded(style.darker(colour_of(mark), 0.45), mark.fade)
        mine(image, box, spikes, colour)
    elif mark.glyph is Glyph.IMPACT:
        impact(image, box, mark.fade)
    elif mark.glyph is Glyph.WRECK:
        wreck(image, box, colour)
    else:
        ring(image, box, colour)


def _compact(image: Image.Image, layout: GridLayout, group: Sequence[Mark]) -> None:
    """A board too big for shapes: one square per cell, the most telling mark's colour
    (yours, then a fresh contact, then an impact or a wreck)."""

    def weight(mark: Mark) -> tuple[int, float]:
        return (0 if mark.own else 1 if mark.glyph not in _CELL_WIDE else 2, mark.fade)

    chosen = min(group, key=weight)
    colour = style.WRECK if chosen.glyph is Glyph.WRECK else faded(colour_of(chosen), chosen.fade)
    grid.cell_marker(image, layout, square(chosen.cell, layout.rows), colour)
