"""The public map of a crowd's board (issue 33): a digest, not every cell.

On a board of more than :data:`~renderers.bst.neighbourhood.CROWD_CELLS` cells, one
pixel a cell shows nothing a person can read. The digest splits the sea into square
blocks of :func:`block_side` cells and colours each by what the last turn left in it:
wrecks darken it, hits redden it, misses whiten it, each by its density (the share of
the block's cells). The turn's biggest events — the blocks with the most hits — are
ringed and numbered, and the header says where they are. Row and column names stand at
every tenth block. Everything comes from the :class:`~bot.games.bst.views.PublicView`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from PIL import Image, ImageDraw

from bot.games.bst.cells import row_label
from bot.games.bst.views import Phase, PublicView
from renderers import style
from renderers.alt_text import Listing, compose_alt_text, deadline_sentences
from renderers.bst.public_map import shots_line, status_line
from renderers.encode import png_bytes

PIXELS = 750
"""The digest's sea is this many pixels across (or fewer: whole pixels a block)."""

HOT_SPOTS = 5
"""How many of the turn's biggest events are ringed and named."""

PAD = 14
LINE = 20
TEXT_SIZE = 14


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" if number == 1 else f"{number:,} {noun}s"


def block_side(view: PublicView) -> int:
    """Cells a block is wide: a 1000x1000 board is 250 blocks of 4x4 cells a side."""
    return max(1, math.ceil(max(view.rows, view.cols) / 250))


@dataclass(frozen=True)
class HotSpot:
    """A block among the turn's most hit: its top-left cell's name and its counts."""

    row: int
    col: int
    hits: int
    misses: int

    def where(self, side: int) -> str:
        return f"{row_label(self.row * side)}{self.col * side + 1}"


@dataclass(frozen=True)
class Density:
    """Per block: misses, hits and wreck cells of the last turn (row-major lists)."""

    rows: int
    cols: int
    side: int
    misses: list[int]
    hits: list[int]
    wrecks: list[int]

    def hot_spots(self) -> list[HotSpot]:
        ranked = sorted(
            (i for i, hits in enumerate(self.hits) if hits),
            key=lambda i: (-self.hits[i], i),
        )[:HOT_SPOTS]
        return [
            HotSpot(i // self.cols, i % self.cols, self.hits[i], self.misses[i]) for i in ranked
        ]


def density(view: PublicView) -> Density:
    side = block_side(view)
    rows, cols = math.ceil(view.rows / side), math.ceil(view.cols / side)
    misses, hits, wrecks = [0] * (rows * cols), [0] * (rows * cols), [0] * (rows * cols)
    for shot in view.shots:
        block = (shot.cell.row // side) * cols + shot.cell.col // side
        if shot.hit:
            hits[block] += 1
        else:
            misses[block] += 1
    for wreck in view.wrecks:
        for cell in wreck.cells:
            wrecks[(cell.row // side) * cols + cell.col // side] += 1
    return Density(rows, cols, side, misses, hits, wrecks)


def _blend(base: style.RGB, top: style.RGB, share: float) -> style.RGB:
    share = min(1.0, share)
    return (
        round(base[0] + (top[0] - base[0]) * share),
        round(base[1] + (top[1] - base[1]) * share),
        round(base[2] + (top[2] - base[2]) * share),
    )


def _pixels(found: Density) -> bytes:
    """One RGB pixel a block: water, whitened by misses, reddened by hits, darkened by
    wrecks — each by its share of the block's cells (a few marks already show)."""
    cells = found.side * found.side
    out = bytearray()
    water = style.WATER
    for misses, hits, wrecks in zip(found.misses, found.hits, found.wrecks, strict=True):
        if not (misses or hits or wrecks):
            out += bytes(water)
            continue
        colour = water
        if misses:
            colour = _blend(colour, style.MISS, 0.25 + 2 * misses / cells)
        if wrecks:
            colour = _blend(colour, style.WRECK, 0.4 + 2 * wrecks / cells)
        if hits:
            colour = _blend(colour, style.HIT, 0.5 + 2 * hits / cells)
        out += bytes(colour)
    return bytes(out)


def render_digest(
    view: PublicView, *, title: str, deadline: datetime | None, now: datetime | None
) -> bytes:
    """The digest map as PNG bytes. Same arguments, same bytes."""
    found = density(view)
    scale = max(1, PIXELS // max(found.rows, found.cols))
    sea = Image.frombytes("RGB", (found.cols, found.rows), _pixels(found)).resize(
        (found.cols * scale, found.rows * scale), Image.Resampling.NEAREST
    )
    spots = found.hot_spots()
    lines = _header(view, found, spots, deadline, now)
    label = style.font(12)
    left = PAD + style.text_width(row_label(view.rows - 1), 12) + 8
    top = PAD + LINE * (len(lines) + 1) + 22
    width = max(left + sea.width + PAD, 640)
    height = top + sea.height + PAD
    image = Image.new("RGB", (width + width % 2, height + height % 2), style.BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD), title, font=style.font(TEXT_SIZE + 2), fill=style.TEXT)
    for number, (text, colour) in enumerate(lines, start=1):
        fitted = style.fit_text(text, TEXT_SIZE, width - 2 * PAD)
        draw.text((PAD, PAD + number * LINE), fitted, font=style.font(TEXT_SIZE), fill=colour)
    image.paste(sea, (left, top))
    draw.rectangle(
        (left - 1, top - 1, left + sea.width, top + sea.height), outline=style.GRID_MAJOR
    )
    every = 10 if found.rows > 20 else 1
    for block in range(0, found.rows, every):
        y = top + block * scale
        draw.line((left - 4, y, left - 1, y), fill=style.GRID_MAJOR)
        draw.text(
            (left - 6, y), row_label(block * found.side), font=label, fill=style.LABEL, anchor="rm"
        )
    for block in range(0, found.cols, every * 2):
        x = left + block * scale
        draw.line((x, top - 4, x, top - 1), fill=style.GRID_MAJOR)
        draw.text(
            (x, top - 6), str(block * found.side + 1), font=label, fill=style.LABEL, anchor="ms"
        )
    for number, spot in enumerate(spots, start=1):
        centre = (left + (spot.col + 0.5) * scale, top + (spot.row + 0.5) * scale)
        radius = max(9, scale * 2)
        draw.ellipse(
            (centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius),
            outline=style.HIT_LIGHT,
            width=2,
        )
        draw.text(
            (centre[0] + radius + 2, centre[1] - radius),
            str(number),
            font=style.font(13),
            fill=style.HIT_LIGHT,
            anchor="lt",
        )
    return png_bytes(image)


def _header(
    view: PublicView,
    found: Density,
    spots: list[HotSpot],
    deadline: datetime | None,
    now: datetime | None,
) -> list[tuple[str, style.RGB]]:
    alive = len(view.alive)
    lines = [
        (
            f"{status_line(view)}. {_count(alive, 'captain')} afloat on the {view.rows}x{view.cols} sea. "
            f"{shots_line(view) or 'No shots yet'}; {_count(len(view.wrecks), 'wreck')} in all.",
            style.TEXT,
        )
    ]
    if spots:
        named = "; ".join(
            f"{n}. {spot.where(found.side)} ({_count(spot.hits, 'hit')})"
            for n, spot in enumerate(spots, 1)
        )
        lines.append((f"Most hit ({found.side}x{found.side} blocks): {named}", style.HIT_LIGHT))
    lines.append(
        (
            f"Each dot is {found.side}x{found.side} cells: white misses, red hits, grey "
            "wrecks, deeper where denser. Your board shows your own waters.",
            style.TEXT_DIM,
        )
    )
    when = style.deadline_text(deadline, now)
    if when and view.phase is Phase.BATTLE:
        lines.append((when, style.TEXT_DIM))
    return lines


def digest_alt_text(
    view: PublicView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    """Screen-reader text for the digest: the counts and the most hit places (<= 1000)."""
    found = density(view)
    head = [
        f"{title}: a digest map of the {view.rows} by {view.cols} board. {status_line(view)}. "
        f"{_count(len(view.alive), 'captain')} afloat. {shots_line(view) or 'No shots yet'}. "
        f"{_count(len(view.wrecks), 'wreck')} in all."
    ]
    spots = [
        f"around {spot.where(found.side)}, {_count(spot.hits, 'hit')}" for spot in found.hot_spots()
    ]
    lists = [Listing("Most hit: ", spots)]
    return compose_alt_text(head, lists, deadline_sentences(deadline, now))
