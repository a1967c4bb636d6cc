"""The Silent Ships board (rules §1): 5 × 4 squares of water, row 1 at the top (the first
player's side), the islands A2 and E3, the two countries in their owners' colours and the
squares beside them where ships are played; the units on it as card tokens; an attack in
progress (the attacking arrow, the supports of each side, the squares a target may retreat
to) and the square of the turn's last combat.

What a unit shows is decided by the caller (:class:`Token`): the public picture knows only
a face-down unit's owner, a player's picture also their own ships, the replay everything.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.games.silentships.cells import COLUMN_LETTERS, Cell, play_squares
from bot.games.silentships.ships import Ship
from bot.games.silentships.state import Side
from bot.games.silentships.views import AttackView, CombatView, PublicView
from renderers import grid, marks, style
from renderers.grid import GridLabels, GridLayout
from renderers.silentships import cards
from renderers.style import RGB

LABELS = GridLabels(row=lambda row: str(row + 1), col=lambda col: COLUMN_LETTERS[col])
SAND: RGB = (226, 200, 140)
SAND_EDGE: RGB = (176, 146, 86)
PALM: RGB = (60, 150, 80)
ATTACK: RGB = (236, 70, 50)
DEFENCE: RGB = (70, 190, 236)
RETREAT: RGB = (255, 214, 70)
SIDE_COLOURS = {Side.ATTACK: ATTACK, Side.DEFENCE: DEFENCE}

colour_of = functools.lru_cache(maxsize=256)(style.owner_colour)
"""A player's colour (:func:`renderers.style.owner_colour`, kept: every picture asks again)."""

TOKEN_WIDTH = 0.7
TOKEN_HEIGHT = 0.86


@dataclass(frozen=True)
class Token:
    """A unit as this picture shows it: ``ship`` None for a card back; ``hidden``: a ship
    shown although it is face-down (to its owner, or in the replay)."""

    cell: Cell
    owner: str
    ship: Ship | None
    hidden: bool = False


def layout(x0: int, y0: int, cell: int, rows: int, cols: int) -> GridLayout:
    """The board with its top-left corner at (x0, y0) and square cells of ``cell`` pixels."""
    return GridLayout(
        rows=rows,
        cols=cols,
        cell=cell,
        x0=x0,
        y0=y0,
        detailed=True,
        label_size=max(14, min(22, cell // 6)),
        row_step=1,
        col_step=1,
        labels=LABELS,
    )


def sank_counts(view: PublicView) -> dict[str, int]:
    """How many ships each admiral has sunk: what a Salvage Ship adds to its attack."""
    return {a.id: len(a.sank) for a in view.admirals}


def seat_marks(view: PublicView) -> dict[str, str]:
    """``1`` for the player who moves first, ``2`` for the other (the text board's words)."""
    return {a.id: "1" if a.moves_first else "2" for a in view.admirals}


def _tint(colour: RGB, under: RGB, amount: float) -> RGB:
    return (
        round(under[0] + (colour[0] - under[0]) * amount),
        round(under[1] + (colour[1] - under[1]) * amount),
        round(under[2] + (colour[2] - under[2]) * amount),
    )


def draw_board(
    image: Image.Image,
    board: GridLayout,
    view: PublicView,
    tokens: Sequence[Token],
    *,
    avatars: Mapping[str, Image.Image],
) -> None:
    """Water, islands, countries, the units, then the attack or last combat over them."""
    countries = tuple(
        (admiral.country, colour_of(admiral.id))
        for admiral in view.admirals
        if admiral.country is not None
    )
    image.paste(
        _backdrop(board, countries, view.islands), (board.x0 - MARGIN[0], board.y0 - MARGIN[1])
    )
    marks_by_owner = seat_marks(view)
    sank = sank_counts(view)
    for token in tokens:
        _token(image, board, token, avatars, marks_by_owner, sank.get(token.owner, 0))
    if view.attack is not None:
        _attack(image, board, view.attack)
    elif view.combat is not None:
        _combat_mark(image, board, view.combat)


MARGIN = (60, 40)
"""Room left of and above the board for the row and column names."""


@functools.lru_cache(maxsize=8)
def _backdrop(
    board: GridLayout, countries: tuple[tuple[Cell, RGB], ...], islands: tuple[Cell, ...]
) -> Image.Image:
    """What stays the same through a game: water, grid, names, countries and islands, on
    the picture's background (shared between calls; only ever pasted)."""
    width, height = board.width + MARGIN[0] + 1, board.height + MARGIN[1] + 1
    image = Image.new("RGB", (width, height), style.BACKGROUND)
    board = dataclasses.replace(board, x0=MARGIN[0], y0=MARGIN[1])
    grid.draw_grid(image, board)
    draw = ImageDraw.Draw(image)
    c = board.cell
    for country, colour in countries:
        for square in play_squares(country):
            x0, y0, x1, y1 = board.box(square)
            draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=_tint(colour, style.WATER, 0.22))
        x0, y0, x1, y1 = board.box(country)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=_tint(colour, style.WATER, 0.5))
        draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=colour, width=max(3, c // 24))
    for island in islands:
        _island(image, board.box(island))
    return image


def _paint_polygon(image: Image.Image, points: Sequence[tuple[float, float]], colour: RGB) -> None:
    """``marks.paint_shape`` of a polygon, its mask kept: an attack's arrows come back in
    every picture of its turn (the public one, both boards)."""
    left = math.floor(min(x for x, _ in points)) - 1
    top = math.floor(min(y for _, y in points)) - 1
    right = math.ceil(max(x for x, _ in points)) + 1
    bottom = math.ceil(max(y for _, y in points)) + 1
    relative = tuple((x - left, y - top) for x, y in points)
    mask = _polygon_mask(relative, right - left, bottom - top)
    image.paste(colour, (left, top, right, bottom), mask)


@functools.lru_cache(maxsize=256)
def _polygon_mask(
    relative: tuple[tuple[float, float], ...], width: int, height: int
) -> Image.Image:
    """An anti-aliased polygon mask, drawn four times bigger and scaled down (shared;
    never modified)."""
    scale = 4
    big = Image.new("L", (width * scale, height * scale), 0)
    ImageDraw.Draw(big).polygon([(x * scale, y * scale) for x, y in relative], fill=255)
    return big.resize((width, height), Image.Resampling.BOX)


def _island(image: Image.Image, box: tuple[int, int, int, int]) -> None:
    """Sand around the square's middle, with a palm's crown in a corner."""
    c = box[2] - box[0]
    sand = marks.inset(box, c * 0.04)
    marks.disc(image, ((sand[0] + sand[2]) / 2, (sand[1] + sand[3]) / 2), c * 0.47, SAND_EDGE)
    marks.disc(image, ((sand[0] + sand[2]) / 2, (sand[1] + sand[3]) / 2), c * 0.44, SAND)
    crown = (box[0] + c * 0.16, box[1] + c * 0.17)
    for dx, dy in ((-0.07, 0.0), (0.07, 0.0), (0.0, -0.06), (0.0, 0.05)):
        marks.disc(image, (crown[0] + dx * c, crown[1] + dy * c), c * 0.06, PALM)


def token_size(cell: int) -> tuple[int, int]:
    return int(cell * TOKEN_WIDTH), int(cell * TOKEN_HEIGHT)


def _token(
    image: Image.Image,
    board: GridLayout,
    token: Token,
    avatars: Mapping[str, Image.Image],
    seats: Mapping[str, str],
    owner_sank: int,
) -> None:
    width, height = token_size(board.cell)
    colour = colour_of(token.owner)
    x0, y0, _, _ = board.box(token.cell)
    xy = (x0 + (board.cell - width) // 2, y0 + (board.cell - height) // 2)
    if token.ship is None:
        mark = seats.get(token.owner, "?")
        cards.put_token_back(image, xy, (width, height), colour, avatars.get(token.owner), mark)
    else:
        attack = token.ship.card.attack_now(owner_sank)
        cards.token_face(token.ship, width, height, colour, token.hidden, attack).put(image, xy)


def centre(board: GridLayout, cell: Cell) -> tuple[float, float]:
    x0, y0, x1, y1 = board.box(cell)
    return (x0 + x1) / 2, (y0 + y1) / 2


def arrow(
    image: Image.Image,
    start: tuple[float, float],
    end: tuple[float, float],
    colour: RGB,
    width: float,
) -> None:
    """A straight arrow with a white edge, its head at ``end``."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    head = width * 2.6
    for fill, grow in ((style.TEXT, 2.0), (colour, 0.0)):
        half = width / 2 + grow
        neck = (end[0] - ux * head, end[1] - uy * head)
        shaft = [
            (start[0] - uy * half, start[1] + ux * half),
            (neck[0] - uy * half, neck[1] + ux * half),
            (neck[0] + uy * half, neck[1] - ux * half),
            (start[0] + uy * half, start[1] - ux * half),
        ]
        wing = head * 0.62 + grow
        tip = (end[0] + ux * grow, end[1] + uy * grow)
        points = [
            *shaft[:2],
            (neck[0] - uy * wing, neck[1] + ux * wing),
            tip,
            (neck[0] + uy * wing, neck[1] - ux * wing),
            *shaft[2:],
        ]
        _paint_polygon(image, points, fill)


def _between(
    board: GridLayout, source: Cell, target: Cell, reach: float
) -> tuple[tuple[float, float], tuple[float, float]]:
    """From the edge of ``source``'s token towards ``target``, stopping short of its token."""
    (sx, sy), (tx, ty) = centre(board, source), centre(board, target)
    dx, dy = tx - sx, ty - sy
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    gap = board.cell * reach
    return (sx + ux * gap, sy + uy * gap), (tx - ux * gap, ty - uy * gap)


def _badge(
    image: Image.Image, spot: tuple[float, float], radius: float, colour: RGB, text: str
) -> None:
    marks.disc(image, spot, radius + 2, style.TEXT)
    marks.disc(image, spot, radius, colour)
    glyph = _glyph(text, max(12, round(radius * 1.5)), style.BACKGROUND)
    marks.composite(
        image, glyph, (round(spot[0] - glyph.width / 2), round(spot[1] - glyph.height / 2))
    )


@functools.lru_cache(maxsize=32)
def _glyph(text: str, size: int, colour: RGB) -> Image.Image:
    """``text`` on a transparent patch of its own size (shared; only composited)."""
    box = ImageDraw.Draw(Image.new("L", (1, 1))).textbbox(
        (0, 0), text, font=style.font(size), anchor="mm"
    )
    width, height = int(box[2] - box[0]) + 2, int(box[3] - box[1]) + 2
    patch = Image.new("RGBA", (width, height), (*colour, 0))
    ImageDraw.Draw(patch).text(
        (width / 2, height / 2), text, font=style.font(size), fill=(*colour, 255), anchor="mm"
    )
    return patch


def _attack(image: Image.Image, board: GridLayout, attack: AttackView) -> None:
    c = board.cell
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = board.box(attack.target)
    draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=ATTACK, width=max(4, c // 18))
    for square in attack.retreat_squares:
        bx0, by0, bx1, by1 = board.box(square)
        dash = max(6, c // 10)
        for i in range(0, c, 2 * dash):
            draw.line((bx0 + i, by0 + 3, bx0 + min(c, i + dash), by0 + 3), fill=RETREAT, width=4)
            draw.line((bx0 + i, by1 - 3, bx0 + min(c, i + dash), by1 - 3), fill=RETREAT, width=4)
            draw.line((bx0 + 3, by0 + i, bx0 + 3, by0 + min(c, i + dash)), fill=RETREAT, width=4)
            draw.line((bx1 - 3, by0 + i, bx1 - 3, by0 + min(c, i + dash)), fill=RETREAT, width=4)
        _badge(image, centre(board, square), c * 0.13, RETREAT, "?")
    for support in attack.supports:
        colour = SIDE_COLOURS[support.side]
        start, end = _between(board, support.cell, attack.target, 0.3)
        arrow(image, start, end, colour, max(3.0, c * 0.035))
        bx0, by0, bx1, by1 = board.box(support.cell)
        _badge(image, (bx1 - c * 0.14, by0 + c * 0.14), c * 0.11, colour, "+")
    start, end = _between(board, attack.origin, attack.target, 0.22)
    arrow(image, start, end, ATTACK, max(5.0, c * 0.07))


def _combat_mark(image: Image.Image, board: GridLayout, combat: CombatView) -> None:
    """Where the last combat was: a burst if the target sank, else a shield-blue ring."""
    c = board.cell
    _, y0, x1, _ = board.box(combat.target)
    spot = (x1 - c * 0.16, y0 + c * 0.16)
    if combat.sunk:
        marks.burst(image, spot, c * 0.16, style.TEXT)
        marks.burst(image, spot, c * 0.13, style.HIT)
    else:
        marks.ring(image, spot, c * 0.12, max(3.0, c * 0.04), DEFENCE)
