"""A captain's board in a crowd (issue 33): their neighbourhood, not the whole sea.

On a board of more than :data:`CROWD_CELLS` cells the whole sea would be drawn at a pixel or
two a cell, and 100,000 captains' boards would take hours. So a captain's private board is
a window around each of their ships (:data:`AROUND` cells on every side, clamped to the
board; two windows that meet become one), with the real row and column names, and in it
the last turn's shots, the wrecks, the captain's own ships, their damage and collisions.

The public facts are indexed by cell once per public view (:func:`public_marks`), so a
board costs its window's cells, not the turn's shots. Everything drawn comes from the
:class:`~bot.games.bst.views.PrivateView` (the public view and the viewer's own ships).
"""

from __future__ import annotations

import io
import threading
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from itertools import combinations

from PIL import Image, ImageDraw

from bot.games.bst.cells import Cell, row_label
from bot.games.bst.views import PrivateView, PublicView
from renderers import grid, marks, style
from renderers.alt_text import Listing, compose_alt_text, deadline_sentences
from renderers.bst.private_board import fleet_line, ship_text
from renderers.grid import GridLabels, GridLayout

CROWD_CELLS = 100_000
"""Boards with more cells than this (past 316×316) draw each captain's neighbourhood."""

AROUND = 4
"""Cells shown on every side of a captain's ship."""

CELL = 22
LABEL_SIZE = 11
HEADER_SIZE = 13
PAD = 12
LINE = 18


def is_crowd_board(view: PublicView) -> bool:
    return view.rows * view.cols > CROWD_CELLS


@dataclass(frozen=True)
class PublicMarks:
    """The public map by cell: each shot cell (True if a shot hit it) and each wreck cell."""

    shots: dict[Cell, bool]
    wrecks: frozenset[Cell]


_last: tuple[PublicView, PublicMarks] | None = None
_lock = threading.Lock()


def public_marks(view: PublicView) -> PublicMarks:
    """The marks of ``view``, indexed once: a turn's boards all share one public view."""
    global _last
    with _lock:
        if _last is not None and _last[0] is view:
            return _last[1]
    shots: dict[Cell, bool] = {}
    for shot in view.shots:
        shots[shot.cell] = shots.get(shot.cell, False) or shot.hit
    found = PublicMarks(shots, frozenset(cell for w in view.wrecks for cell in w.cells))
    with _lock:
        _last = (view, found)
    return found


Window = tuple[int, int, int, int]
"""Top row, left column, bottom row, right column (inclusive), in board cells."""


def windows(view: PrivateView) -> list[Window]:
    """The windows a captain's board shows: one around each ship, merged where they meet;
    the board's top-left corner for a captain with no ships."""
    rows, cols = view.public.rows, view.public.cols
    found: list[Window] = []
    for ship in view.ships:
        top = max(0, min(c.row for c in ship.cells) - AROUND)
        left = max(0, min(c.col for c in ship.cells) - AROUND)
        bottom = min(rows - 1, max(c.row for c in ship.cells) + AROUND)
        right = min(cols - 1, max(c.col for c in ship.cells) + AROUND)
        found.append((top, left, bottom, right))
    if not found:
        return [(0, 0, min(rows, 2 * AROUND + 1) - 1, min(cols, 2 * AROUND + 1) - 1)]
    merged: list[Window] = []
    for window in sorted(found):
        for i, other in enumerate(merged):
            if not (
                window[0] > other[2] + 1
                or other[0] > window[2] + 1
                or window[1] > other[3] + 1
                or other[1] > window[3] + 1
            ):
                merged[i] = (
                    min(window[0], other[0]),
                    min(window[1], other[1]),
                    max(window[2], other[2]),
                    max(window[3], other[3]),
                )
                break
        else:
            merged.append(window)
    return merged


def _labels(top: int, left: int) -> GridLabels:
    """The board's own names for a window's rows and columns."""

    def row(index: int) -> str:
        return row_label(index + top)

    def col(index: int) -> str:
        return str(index + left + 1)

    return GridLabels(row=row, col=col)


def render_neighbourhood(view: PrivateView, *, title: str) -> bytes:
    """The viewer's neighbourhood as PNG bytes. Same arguments, same bytes."""
    found = public_marks(view.public)
    panels = windows(view)
    sea = f"{view.public.rows}x{view.public.cols}"
    lines = [
        (title, style.TEXT),
        (f"{view.viewer_name}'s neighbourhood. {fleet_line(view)}", style.TEXT),
        (
            f"Within {AROUND} cells of your ships on the {sea} sea (all of it: the public map).",
            style.TEXT_DIM,
        ),
        (
            "Dot a miss, cross a hit, grey a wreck, gold your ship, orange a collision.",
            style.TEXT_DIM,
        ),
    ]
    layouts = []
    x = PAD
    header = PAD + LINE * len(lines) + PAD
    height = header
    for top, left, bottom, right in panels:
        labels = _labels(top, left)
        margin_left, margin_top = grid.margins(
            bottom - top + 1, right - left + 1, LABEL_SIZE, labels
        )
        layout = GridLayout(
            rows=bottom - top + 1,
            cols=right - left + 1,
            cell=CELL,
            x0=x + margin_left,
            y0=header + margin_top,
            detailed=True,
            label_size=LABEL_SIZE,
            row_step=1,
            col_step=1,
            labels=labels,
        )
        layouts.append((layout, top, left))
        x = layout.x0 + layout.width + PAD
        height = max(height, layout.y0 + layout.height + PAD)
    width = max(x, 360)
    image = Image.new("RGB", (width + width % 2, height + height % 2), style.BACKGROUND)
    for number, (text, colour) in enumerate(lines):
        mask = _text_mask(style.fit_text(text, HEADER_SIZE, width - 2 * PAD), HEADER_SIZE)
        y = PAD + number * LINE
        image.paste(colour, (PAD, y, PAD + mask.width, y + mask.height), mask)
    for layout, top, left in layouts:
        _panel(image, layout, top, left, view, found)
    return neighbourhood_png(image)


def neighbourhood_png(image: Image.Image) -> bytes:
    """A neighbourhood drawn in RGB as PNG bytes. 100,000 boards a turn are encoded for
    time: in the colours they are drawn in and their blends (no palette to choose for each
    picture, which took most of the encoding), at the fastest compression."""
    out = io.BytesIO()
    image.quantize(palette=_palette(), dither=Image.Dither.NONE).save(
        out, format="PNG", optimize=False, compress_level=1
    )
    return out.getvalue()


DRAWN_IN = (
    style.BACKGROUND, style.WATER, style.GRID, style.LABEL, style.TEXT, style.TEXT_DIM,
    style.HIT, style.MISS, style.WRECK, style.OWN_SHIP, style.OWN_SHIP_EDGE,
    style.OWN_SHIP_SUNK, style.COLLISION,
)  # fmt: skip
"""Every colour :func:`render_neighbourhood` draws in."""


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The neighbourhood's 256 colours: those it is drawn in and, between each two, the
    blends a quarter, half and three quarters of the way (the smoothed edges of letters,
    hulls and marks: each lands on the nearest, at most 24 of 255 from what was drawn;
    choosing 64 colours for each picture cost 1.3 ms of a board's 4)."""
    colours: list[tuple[int, ...]] = list(DRAWN_IN)
    for first, second in combinations(DRAWN_IN, 2):
        for quarter in (1, 2, 3):
            pairs = zip(first, second, strict=True)
            colours.append(tuple(round(a + (b - a) * quarter / 4) for a, b in pairs))
    assert len(colours) <= 256
    colours += [colours[0]] * (256 - len(colours))  # (unused entries: no stray black)
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in colours for channel in colour])
    return palette


def neighbourhood_alt_text(
    view: PrivateView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    """Screen-reader text for :func:`render_neighbourhood`: the fleet, collisions, and the
    shots and wrecks within its windows (<= 1000 chars; cost in the windows' cells)."""
    found = public_marks(view.public)
    hits: list[str] = []
    misses: list[str] = []
    wrecks: list[str] = []
    for top, left, bottom, right in windows(view):
        for row in range(top, bottom + 1):
            for col in range(left, right + 1):
                cell = Cell(row, col)
                hit = found.shots.get(cell)
                if hit is not None:
                    (hits if hit else misses).append(str(cell))
                if cell in found.wrecks:
                    wrecks.append(str(cell))
    head = [
        f"{title}: {view.viewer_name}'s neighbourhood, within {AROUND} cells of their ships, "
        f"on the {view.public.rows} by {view.public.cols} board."
    ]
    lists = [
        Listing("Your fleet: ", [ship_text(s) for s in view.ships], "Your fleet: none placed."),
        Listing("Your ships collided at ", [str(c) for c in sorted(set(view.collisions))]),
        Listing("Hits near you: ", hits),
        Listing("Misses near you: ", misses),
        Listing("Wreck cells near you: ", wrecks),
    ]
    return compose_alt_text(head, lists, deadline_sentences(deadline, now))


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int) -> Image.Image:
    """A line of text drawn once: row and column names, the title and the key repeat
    across a turn's 100,000 boards (only the line naming the captain is new each time)."""
    _, _, right, bottom = style.font(size).getbbox(text)
    mask = Image.new("L", (max(1, int(right)), max(1, int(bottom))))
    ImageDraw.Draw(mask).text((0, 0), text, font=style.font(size), fill=255)
    return mask


def _label_mask(text: str) -> Image.Image:
    return _text_mask(text, LABEL_SIZE)


def _draw_grid(image: Image.Image, layout: GridLayout) -> None:
    """Water, grid lines and the window's row and column names."""
    draw = ImageDraw.Draw(image)
    x0, y0, c = layout.x0, layout.y0, layout.cell
    x1, y1 = x0 + layout.width, y0 + layout.height
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=style.WATER)
    for i in range(layout.cols + 1):
        draw.line((x0 + i * c, y0, x0 + i * c, y1 - 1), fill=style.GRID)
    for i in range(layout.rows + 1):
        draw.line((x0, y0 + i * c, x1 - 1, y0 + i * c), fill=style.GRID)
    for col in range(layout.cols):
        mask = _label_mask(layout.labels.col(col))
        x = x0 + col * c + (c - mask.width) // 2
        image.paste(style.LABEL, (x, y0 - mask.height - 6, x + mask.width, y0 - 6), mask)
    for row in range(layout.rows):
        mask = _label_mask(layout.labels.row(row))
        y = y0 + row * c + (c - mask.height) // 2
        image.paste(style.LABEL, (x0 - mask.width - 8, y, x0 - 8, y + mask.height), mask)


def _panel(
    image: Image.Image,
    layout: GridLayout,
    top: int,
    left: int,
    view: PrivateView,
    found: PublicMarks,
) -> None:
    """One window: water and names, wrecks, the viewer's ships, shots, damage, collisions."""
    _draw_grid(image, layout)
    draw = ImageDraw.Draw(image)

    def local(cell: Cell) -> Cell:
        return Cell(cell.row - top, cell.col - left)

    shots: list[tuple[Cell, bool]] = []
    wrecks, marked = found.wrecks, found.shots
    for row in range(layout.rows):
        for col in range(layout.cols):
            cell = Cell(row + top, col + left)
            if cell in wrecks:
                x0, y0, x1, y1 = layout.box(Cell(row, col))
                draw.rectangle((x0 + 2, y0 + 2, x1 - 3, y1 - 3), fill=style.WRECK)
            hit = marked.get(cell)
            if hit is not None:
                shots.append((Cell(row, col), hit))
    for ship in view.ships:
        fill = style.OWN_SHIP_SUNK if ship.destroyed else style.OWN_SHIP
        grid.hull(image, layout, [local(c) for c in ship.cells], fill, style.OWN_SHIP_EDGE)
    for cell, hit in shots:
        box = layout.box(cell)
        if hit:
            marks.cross(image, marks.inset(box, CELL * 0.27), style.HIT, CELL * 0.12)
        else:
            marks.disc(image, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), 4, style.MISS)
    for ship in view.ships:
        for cell in ship.damaged:
            box = layout.box(local(cell))
            if layout.on_board(local(cell)):
                marks.cross(image, marks.inset(box, CELL * 0.27), style.HIT, CELL * 0.12)
    for cell in view.collisions:
        if layout.on_board(local(cell)):
            x0, y0, x1, y1 = layout.box(local(cell))
            draw.rectangle((x0, y0, x1, y1), outline=style.COLLISION, width=3)
