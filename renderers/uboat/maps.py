"""The map of a U-Boat Shootout round (rules §4), and what a crew's board adds to it.

The public map is the sea with its islands in their owners' colours, the last round's
blasts (the direct tile and its four indirect neighbours) and rams' struck tiles; under it
the round's report — blasts with the boats hit and the damage, captures, routes as arrows
from nowhere, sinkings, joins — then the islands with their powers and owners and the
U-boats with their crews. It is drawn from a :class:`~bot.games.uboat.views.PublicView`,
which has no boat's cell or health: it cannot show one. A crew's board is the same picture
with its own boat, its health and range, what stands for it this round and its private
news (:mod:`renderers.uboat.board`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from PIL import Image, ImageDraw

from bot.games.uboat.cells import Cell
from bot.games.uboat.values import Colour
from bot.games.uboat.views import IslandView, PublicView
from renderers import grid, header, marks, style
from renderers.grid import GridLayout
from renderers.legend import LegendSpacing, draw_legend, legend_rows
from renderers.style import RGB
from renderers.uboat import report, sea
from renderers.uboat.report import Arrows, Chip, Row, Words

PAD = 20
ROW_SIZE = 21
ROW_H = ROW_SIZE + 13
MIN_WIDTH = 760
TARGET_BOARD = 640
MIN_CELL = 30
MAX_CELL = 72
MAX_BOARD = 820


@dataclass(frozen=True)
class Key:
    """An entry of the legend under the sea: a mark drawn small, and what it means."""

    kind: str  # "splash", "hit", "side", "side_hit", "ram", "own", "range", "start"
    label: str
    colour: Colour = Colour.RED


PUBLIC_KEYS = (
    Key("splash", "blast"),
    Key("hit", "hit on the tile"),
    # Drawn as the map draws them (:func:`sea.draw_blast_arms`): the shooter's colour,
    # red when a boat beside the tile was hit.
    Key("side", "blast's sides, in the shooter's colour", Colour.BLUE),
    Key("side_hit", "hit beside the tile"),
    Key("ram", "rammed tile"),
)


@dataclass(frozen=True)
class Extras:
    """What a crew's board adds: header lines (text, colour), layers over the marks, and
    their legend entries."""

    lines: tuple[tuple[str, RGB], ...] = ()
    layers: tuple[sea.Layer, ...] = ()
    keys: tuple[Key, ...] = ()


def plan(size: int) -> tuple[GridLayout, int, int]:
    """The sea's layout (at the origin), the picture's width and the sea's left margin."""
    layout = sea.plan(
        size, target=TARGET_BOARD, min_cell=MIN_CELL, max_cell=MAX_CELL, max_width=MAX_BOARD
    )
    left, _ = sea.margins(size, layout.label_size)
    width = max(MIN_WIDTH, 2 * left + layout.width)
    return layout, width + width % 2, left


def header_lines(
    view: PublicView, deadline: datetime | None, now: datetime | None
) -> list[tuple[str, RGB]]:
    lines: list[tuple[str, RGB]] = []
    ended = report.result(view)
    if ended is not None:
        lines.append((ended, style.HIT_LIGHT))
        tally = report.scores(view)
        if tally:
            lines.append((tally, style.TEXT))
    else:
        when = style.deadline_text(deadline, now)
        if when:
            lines.append((when, style.TEXT))
        if view.window_open:
            lines.append(("Evade window open for the boats damaged last round", style.TEXT_DIM))
    return lines


def compose(
    view: PublicView,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    extras: Extras,
) -> Image.Image:
    """The map picture (RGB, opaque): the public facts and whatever ``extras`` add."""
    size = view.size
    layout, width, left = plan(size)
    lines = header_lines(view, deadline, now) + list(extras.lines)
    header_h = header.header_height(len(lines))
    _, top = sea.margins(size, layout.label_size)
    board_x = (width - layout.width - left) // 2 + left
    layout = dataclasses.replace(layout, x0=board_x, y0=header_h + top)
    rows: list[Row] = [(Words(report.heading(view), strong=True),), *report.round_rows(view)]
    sides: list[Row] = [row for row in (report.island_row(view), report.boat_row(view)) if row]
    keys = (*PUBLIC_KEYS, *extras.keys)
    legend_h = KEY_H * len(key_rows(keys, width))
    report_y = layout.y0 + layout.height + PAD + legend_h
    sides_y = report_y + ROW_H * lines_of(rows, PAD, width - PAD) + PAD // 2
    height = sides_y + ROW_H * lines_of(sides, PAD, width - PAD) + PAD
    height += height % 2

    image = _base(width, height, header_h, layout, tuple(view.islands), keys).copy()
    header.draw_header(image, title=title, status=report.status(view), lines=lines)
    draw_marks(image, layout, view)
    for layer in extras.layers:
        layer(image, layout)
    draw_rows(image, report_y, rows, PAD, width - PAD)
    draw_rows(image, sides_y, sides, PAD, width - PAD)
    return image


@functools.lru_cache(maxsize=8)
def _base(
    width: int,
    height: int,
    header_h: int,
    layout: GridLayout,
    islands: tuple[IslandView, ...],
    keys: tuple[Key, ...],
) -> Image.Image:
    """What depends only on the geometry, the islands and the legend: background, header
    panel, water, grid, labels, islands and legend (shared between calls; callers copy it)."""
    image = Image.new("RGB", (width, height), style.BACKGROUND)
    ImageDraw.Draw(image).rectangle((0, 0, width, header_h - 8), fill=style.PANEL)
    grid.draw_grid(image, layout)
    for island in islands:
        sea.draw_island(image, layout, island.cell, island.number, island.owner)
    _draw_keys(image, keys, layout.y0 + layout.height + PAD // 2, width)
    return image


KEY_SIZE = 18
KEY_H = KEY_SIZE + 10
KEY_ICON = KEY_SIZE + 8
KEY_SPACING = LegendSpacing(
    text_size=KEY_SIZE, icon_gap=6, entry_gap=22, row_height=KEY_H, middle=KEY_H / 2
)


def _key_icon_width(key: Key) -> float:
    return KEY_ICON


def key_rows(keys: Sequence[Key], width: int) -> tuple[tuple[Key, ...], ...]:
    """The legend's entries in as many lines as it takes."""
    return legend_rows(keys, width=width - 2 * PAD, icon_width=_key_icon_width, spacing=KEY_SPACING)


def _draw_keys(image: Image.Image, keys: Sequence[Key], y: int, width: int) -> None:
    """The legend under the sea (its icons at a small cell's scale)."""
    draw_legend(
        image,
        key_rows(keys, width),
        left=PAD,
        top=y,
        icon_width=_key_icon_width,
        draw_icon=_draw_key_icon,
        spacing=KEY_SPACING,
    )


_KEY_TILE = GridLayout(1, 1, KEY_ICON, 0, 0, True, KEY_SIZE, 1, 1, sea.LABELS)


def _draw_key_icon(image: Image.Image, key: Key, x: float, cy: float) -> None:
    tile = dataclasses.replace(_KEY_TILE, x0=round(x), y0=round(cy - KEY_ICON / 2))
    here = Cell(0, 0)
    if key.kind == "splash":
        sea.draw_blast_tile(image, tile, here, (), False)
    elif key.kind == "hit":
        sea.draw_blast_tile(image, tile, here, (), True)
    elif key.kind in ("side", "side_hit"):
        # On a tile of water, as on the sea: a tint alone over the background reads as
        # another colour than the map shows.
        x0, y0, x1, y1 = tile.box(here)
        ImageDraw.Draw(image).rectangle((x0, y0, x1, y1), fill=style.WATER)
        sea.draw_side_tint(image, tile, here, sea.boat_rgb(key.colour), key.kind == "side_hit")
    elif key.kind == "ram":
        sea.draw_struck(image, tile, here, (), False)
    elif key.kind == "own":
        sea.draw_boat(image, tile, here, key.colour)
    elif key.kind == "range":
        sea.draw_reach(image, tile, here, key.colour)
    elif key.kind == "start":
        sea.draw_start(image, tile, here)


def draw_marks(image: Image.Image, layout: GridLayout, view: PublicView) -> None:
    """The last round's blasts (indirect tiles first, so no tint covers a direct tile) and
    rams' struck tiles."""
    size = view.size
    islands = frozenset(island.cell for island in view.islands)
    for blast in view.blasts:
        beside = any(hit.damage == 1 for hit in blast.hits)
        colour = sea.boat_rgb(blast.shooter)
        sea.draw_blast_arms(image, layout, size, blast.cell, colour, beside, islands)
    tiles: dict[Cell, tuple[list[Colour], bool]] = {}
    for blast in view.blasts:
        shooters, hit = tiles.setdefault(blast.cell, ([], False))
        shooters.append(blast.shooter)
        tiles[blast.cell] = (shooters, hit or any(h.damage >= 2 for h in blast.hits))
    for tile in sorted(tiles):
        shooters, hit = tiles[tile]
        sea.draw_blast_tile(image, layout, tile, shooters, hit, island=tile in islands)
    struck: dict[Cell, tuple[list[Colour], bool]] = {}
    for course in view.courses:
        if course.struck is None:
            continue
        rammers, hit = struck.setdefault(course.struck, ([], False))
        rammers.append(course.boat)
        struck[course.struck] = (rammers, hit or bool(course.hits))
    for tile in sorted(struck):
        rammers, hit = struck[tile]
        sea.draw_struck(image, layout, tile, rammers, hit)


# --- rows of pieces ----------------------------------------------------------------------

CHIP_W, CHIP_H = 30, 16
ARROW = 20.0
INDENT = CHIP_W + 8


@dataclass(frozen=True)
class Placed:
    piece: Chip | Words | Arrows
    x: float
    line: int
    text: str = ""


def _width(piece: Chip | Words | Arrows) -> float:
    if isinstance(piece, Chip):
        return CHIP_W + 8
    if isinstance(piece, Arrows):
        return sea.route_width(len(piece.route), ARROW) + 6
    return style.text_width(style.drawable(piece.text), ROW_SIZE) + 8


def place(row: Row, left: int, right: int) -> list[Placed]:
    """Where each piece of a row goes: on the row's line while it fits, else on the next
    line (indented past the row's chip); words too long for a whole line are cut."""
    placed: list[Placed] = []
    x, line = float(left), 0
    for piece in row:
        wide = _width(piece)
        if x + wide - 8 > right and x > left + INDENT:
            x, line = float(left + INDENT), line + 1
        if isinstance(piece, Words):
            text = style.fit_text(piece.text, ROW_SIZE, int(right - x))
            placed.append(Placed(piece, x, line, text))
            x += style.text_width(text, ROW_SIZE) + 8
        else:
            placed.append(Placed(piece, x, line))
            x += wide
    return placed


def lines_of(rows: Sequence[Row], left: int, right: int) -> int:
    """How many lines ``rows`` take between ``left`` and ``right``."""
    return sum(1 + max((p.line for p in place(row, left, right)), default=0) for row in rows)


def draw_rows(image: Image.Image, y: int, rows: Sequence[Row], left: int, right: int) -> int:
    """Rows of pieces from ``y`` down, between ``left`` and ``right``, on the background.
    Returns the ``y`` under the last."""
    for row in rows:
        patch = _row_patch(row, right - left)
        image.paste(patch, (left, y))
        y += patch.height
    return y


@functools.lru_cache(maxsize=256)
def _row_patch(row: Row, width: int) -> Image.Image:
    """A row drawn on the background (shared between calls; only ever pasted): the same
    rows come back in the public map and every crew's board of a round."""
    placed = place(row, 0, width)
    lines = 1 + max((p.line for p in placed), default=0)
    patch = Image.new("RGB", (width, ROW_H * lines), style.BACKGROUND)
    for item in placed:
        _draw_piece(patch, item, item.line * ROW_H)
    return patch


def _draw_piece(image: Image.Image, item: Placed, y: int) -> None:
    piece, x = item.piece, item.x
    cy = y + ROW_SIZE / 2 + 2
    if isinstance(piece, Chip):
        box = (x, cy - CHIP_H / 2, x + CHIP_W, cy + CHIP_H / 2)
        marks.capsule(image, box, sea.boat_rgb(piece.colour), sea.RIM, 1.5)
    elif isinstance(piece, Arrows):
        sea.draw_route(image, x, cy, ARROW, piece.route, sea.bright(piece.colour))
    elif item.text:
        heading = piece.strong
        colour = style.HIT_LIGHT if heading else style.TEXT
        if piece.dim:
            colour = style.TEXT_DIM
        elif piece.alert:
            colour = (255, 150, 130)
        style.draw_text(
            image,
            (x, y),
            item.text,
            size=ROW_SIZE,
            fill=colour,
            background=style.BACKGROUND,
            stroke_width=1 if heading else 0,
            stroke_fill=colour,
        )
