"""Silent Ships' card art, drawn by the renderer (no external assets): a card face for each
ship with its name, attack value, a silhouette and its ability (rules §2), the small token a
unit shows on the board (its face, or the back in its owner's colour), and tiny cards for
sunk piles and hands.

Names, attack values and abilities come from the rules' card table
(:data:`bot.games.silentships.ships.CARDS`), so printed cards replacing the House values
change the pictures too; only the silhouettes and the board's short labels live here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.games.silentships.ships import Ship
from renderers import marks, style
from renderers.avatars import round_avatar
from renderers.style import RGB

CARD_FACE: RGB = (246, 240, 224)
CARD_INK: RGB = (22, 36, 58)
CARD_EDGE: RGB = (120, 104, 70)
ATTACK_BADGE: RGB = (196, 48, 40)
PICTURE_SKY: RGB = (200, 222, 236)
PICTURE_SEA: RGB = (64, 128, 176)
ACCENT: RGB = (236, 120, 30)

LABELS: dict[Ship, str] = {
    Ship.SPEED_BOAT: "Speed",
    Ship.SALVAGE_SHIP: "Salvage",
    Ship.SPECIAL_OPERATIONS_CRAFT: "Spec Ops",
    Ship.FIRE_SHIP: "Fire",
    Ship.FLAG_SHIP: "Flag",
    Ship.FRIGATE: "Frigate",
    Ship.SUBMARINE: "Sub",
    Ship.RAMMING_SHIP: "Ram",
    Ship.PATROL_SHIP: "Patrol",
    Ship.MISSILE_BOAT: "Missile",
    Ship.AMMUNITION_SHIP: "Ammo",
}
"""The word on a board token, where the card's whole name does not fit."""

Box = tuple[int, int, int, int]
Point = tuple[float, float]


@dataclass(frozen=True, eq=False)
class Stamp:
    """A drawn patch ready to put on a picture: its colours and its coverage, split once
    (putting it is then a single paste, the same as compositing it onto an opaque picture)."""

    rgb: Image.Image
    mask: Image.Image

    @property
    def size(self) -> tuple[int, int]:
        return self.rgb.size

    def put(self, image: Image.Image, xy: tuple[int, int]) -> None:
        image.paste(self.rgb, xy, self.mask)


def stamp(patch: Image.Image) -> Stamp:
    """An RGBA patch as a :class:`Stamp`."""
    return Stamp(patch.convert("RGB"), patch.getchannel("A"))


# --- silhouettes ---------------------------------------------------------------------
# Each ship is a few shapes in a unit square (x right, y down; the waterline at y=0.7),
# in ink or in the accent colour.

_Shape = tuple[str, str, tuple[Point, ...]]  # (colour: "ink" | "accent", kind, points)

_HULL: tuple[Point, ...] = ((0.06, 0.56), (0.94, 0.56), (0.84, 0.74), (0.16, 0.74))


def _hull(left: float, right: float, top: float = 0.56) -> tuple[Point, ...]:
    return ((left, top), (right, top), (right - 0.1, 0.74), (left + 0.08, 0.74))


SILHOUETTES: dict[Ship, tuple[_Shape, ...]] = {
    Ship.SPEED_BOAT: (
        ("ink", "polygon", ((0.12, 0.6), (0.9, 0.6), (0.72, 0.72), (0.2, 0.72))),
        ("ink", "polygon", ((0.4, 0.6), (0.5, 0.48), (0.64, 0.48), (0.62, 0.6))),
        ("accent", "polygon", ((0.02, 0.66), (0.12, 0.63), (0.12, 0.69))),
    ),
    Ship.SALVAGE_SHIP: (
        ("ink", "polygon", _HULL),
        ("ink", "polygon", ((0.18, 0.56), (0.18, 0.4), (0.4, 0.4), (0.4, 0.56))),
        ("ink", "polygon", ((0.6, 0.56), (0.64, 0.56), (0.64, 0.16), (0.6, 0.16))),
        ("ink", "polygon", ((0.62, 0.16), (0.9, 0.26), (0.88, 0.3), (0.62, 0.21))),
        ("accent", "polygon", ((0.86, 0.28), (0.9, 0.28), (0.9, 0.46), (0.86, 0.46))),
    ),
    Ship.SPECIAL_OPERATIONS_CRAFT: (
        ("ink", "polygon", ((0.2, 0.62), (0.82, 0.62), (0.76, 0.72), (0.26, 0.72))),
        ("ink", "ellipse", ((0.3, 0.5), (0.44, 0.64))),
        ("ink", "ellipse", ((0.5, 0.5), (0.64, 0.64))),
        (
            "accent",
            "polygon",
            (
                (0.5, 0.12),
                (0.55, 0.26),
                (0.7, 0.26),
                (0.58, 0.34),
                (0.63, 0.48),
                (0.5, 0.39),
                (0.37, 0.48),
                (0.42, 0.34),
                (0.3, 0.26),
                (0.45, 0.26),
            ),
        ),
    ),
    Ship.FIRE_SHIP: (
        ("ink", "polygon", _HULL),
        (
            "accent",
            "polygon",
            (
                (0.22, 0.56),
                (0.3, 0.2),
                (0.38, 0.4),
                (0.5, 0.1),
                (0.6, 0.38),
                (0.7, 0.24),
                (0.78, 0.56),
            ),
        ),
    ),
    Ship.FLAG_SHIP: (
        ("ink", "polygon", _hull(0.03, 0.97)),
        ("ink", "polygon", ((0.24, 0.56), (0.24, 0.4), (0.7, 0.4), (0.7, 0.56))),
        ("ink", "polygon", ((0.34, 0.4), (0.34, 0.3), (0.58, 0.3), (0.58, 0.4))),
        ("ink", "polygon", ((0.45, 0.3), (0.48, 0.3), (0.48, 0.06), (0.45, 0.06))),
        ("accent", "polygon", ((0.48, 0.06), (0.72, 0.12), (0.48, 0.18))),
    ),
    Ship.FRIGATE: (
        ("ink", "polygon", _HULL),
        ("ink", "polygon", ((0.22, 0.56), (0.22, 0.42), (0.44, 0.42), (0.44, 0.56))),
        ("ink", "polygon", ((0.54, 0.56), (0.54, 0.36), (0.72, 0.36), (0.72, 0.56))),
        ("ink", "polygon", ((0.62, 0.36), (0.65, 0.36), (0.65, 0.14), (0.62, 0.14))),
    ),
    Ship.SUBMARINE: (
        ("ink", "ellipse", ((0.08, 0.58), (0.92, 0.78))),
        ("ink", "polygon", ((0.42, 0.6), (0.46, 0.42), (0.6, 0.42), (0.62, 0.6))),
        ("ink", "polygon", ((0.52, 0.42), (0.54, 0.42), (0.54, 0.3), (0.52, 0.3))),
    ),
    Ship.RAMMING_SHIP: (
        ("ink", "polygon", ((0.1, 0.56), (0.8, 0.56), (0.98, 0.7), (0.8, 0.74), (0.18, 0.74))),
        ("ink", "polygon", ((0.2, 0.56), (0.2, 0.4), (0.48, 0.4), (0.48, 0.56))),
        ("accent", "polygon", ((0.84, 0.62), (0.98, 0.7), (0.84, 0.72))),
    ),
    Ship.PATROL_SHIP: (
        ("ink", "polygon", _hull(0.12, 0.9)),
        ("ink", "polygon", ((0.3, 0.56), (0.3, 0.4), (0.6, 0.4), (0.6, 0.56))),
        ("ink", "ellipse", ((0.38, 0.22), (0.52, 0.36))),
        ("accent", "polygon", ((0.52, 0.27), (0.86, 0.16), (0.86, 0.38))),
    ),
    Ship.MISSILE_BOAT: (
        ("ink", "polygon", _hull(0.1, 0.92)),
        ("ink", "polygon", ((0.2, 0.56), (0.2, 0.44), (0.38, 0.44), (0.38, 0.56))),
        ("ink", "polygon", ((0.5, 0.56), (0.56, 0.5), (0.84, 0.3), (0.86, 0.36), (0.6, 0.56))),
        ("accent", "polygon", ((0.84, 0.3), (0.92, 0.24), (0.88, 0.34))),
    ),
    Ship.AMMUNITION_SHIP: (
        ("ink", "polygon", _HULL),
        ("ink", "polygon", ((0.16, 0.56), (0.16, 0.44), (0.3, 0.44), (0.3, 0.56))),
        ("accent", "polygon", ((0.38, 0.56), (0.38, 0.42), (0.52, 0.42), (0.52, 0.56))),
        ("accent", "polygon", ((0.56, 0.56), (0.56, 0.42), (0.7, 0.42), (0.7, 0.56))),
        ("accent", "polygon", ((0.47, 0.42), (0.47, 0.28), (0.61, 0.28), (0.61, 0.42))),
    ),
}


def draw_silhouette(image: Image.Image, box: Box, ship: Ship, ink: RGB = CARD_INK) -> None:
    """The ship's silhouette filling ``box`` (anti-aliased)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    for colour_key, kind, points in SILHOUETTES[ship]:
        placed = tuple((x0 + x * w, y0 + y * h) for x, y in points)
        colour = ink if colour_key == "ink" else ACCENT
        marks.paint_shape(image, _bounds(placed), colour, _shape(kind, placed))


def _bounds(points: tuple[Point, ...]) -> marks.Box:
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _shape(
    kind: str, points: tuple[Point, ...]
) -> Callable[[ImageDraw.ImageDraw, float, float, float], None]:
    def shape(draw: ImageDraw.ImageDraw, scale: float, ox: float, oy: float) -> None:
        scaled = [((x - ox) * scale, (y - oy) * scale) for x, y in points]
        if kind == "ellipse":
            (a, b), (c, d) = scaled
            draw.ellipse((a, b, c, d), fill=255)
        else:
            draw.polygon(scaled, fill=255)

    return shape


# --- text in a box --------------------------------------------------------------------


def wrap(text: str, size: int, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` pixels, broken between words."""
    lines: list[str] = []
    for word in style.drawable(text).split():
        if lines and style.text_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def fitted_lines(
    text: str, width: int, height: int, *, largest: int, smallest: int, leading: float = 1.18
) -> tuple[list[str], int]:
    """The largest size from ``largest`` down to ``smallest`` at which ``text`` wraps into
    ``width`` × ``height``; at the smallest, the lines that fit (the last one cut)."""
    for size in range(largest, smallest - 1, -1):
        lines = wrap(text, size, width)
        if len(lines) * size * leading <= height and all(
            style.text_width(line, size) <= width for line in lines
        ):
            return lines, size
    lines = wrap(text, smallest, width)
    keep = max(1, int(height // (smallest * leading)))
    if len(lines) > keep:
        lines = lines[:keep]
        lines[-1] = style.fit_text(lines[-1] + " " + style.ELLIPSIS, smallest, width)
    return [style.fit_text(line, smallest, width) for line in lines], smallest


def draw_lines(
    draw: ImageDraw.ImageDraw,
    lines: list[str],
    *,
    x: float,
    y: float,
    size: int,
    fill: RGB,
    anchor: str = "la",
    leading: float = 1.18,
) -> None:
    for i, line in enumerate(lines):
        draw.text(
            (x, y + i * size * leading), line, font=style.font(size, line), fill=fill, anchor=anchor
        )


# --- the card face ------------------------------------------------------------------


def card_face(
    ship: Ship, width: int, height: int, *, edge: RGB = CARD_EDGE, attack: int | None = None
) -> Image.Image:
    """A whole card: name, attack value, silhouette and ability (shared; callers copy or
    paste it, never change it). ``attack``: its attack now (a Salvage Ship's grows with its
    owner's sunk pile); the card's printed value when None."""
    return _card_face(ship, width, height, edge, attack).copy()


@functools.lru_cache(maxsize=64)
def _card_face(ship: Ship, width: int, height: int, edge: RGB, attack: int | None) -> Image.Image:
    card = ship.card
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    border = max(3, width // 40)
    radius = max(6, width // 12)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=(*edge, 255))
    draw.rounded_rectangle(
        (border, border, width - 1 - border, height - 1 - border),
        radius=max(2, radius - border),
        fill=(*CARD_FACE, 255),
    )
    pad = border + max(4, width // 24)
    inner = width - 2 * pad
    # The name, on one or two lines.
    name_lines, name_size = fitted_lines(
        card.name, inner, int(height * 0.2), largest=max(14, width // 8), smallest=12
    )
    draw_lines(draw, name_lines, x=pad, y=pad, size=name_size, fill=CARD_INK)
    # The picture: sky, sea and the ship, with the attack value in a badge over it.
    top = pad + int(height * 0.21)
    picture_h = int(height * 0.3)
    draw.rectangle((pad, top, width - pad - 1, top + picture_h), fill=(*PICTURE_SKY, 255))
    sea = top + int(picture_h * 0.66)
    draw.rectangle((pad, sea, width - pad - 1, top + picture_h), fill=(*PICTURE_SEA, 255))
    badge = max(14, width // 7)
    # The ship on the left of the picture, the attack value in a badge on its right.
    ship_right = width - pad - 2 * badge - 2
    draw_silhouette(image, (pad + 2, top + 2, ship_right, top + picture_h), ship)
    centre = (width - pad - badge - 2, top + badge + 3)
    marks.disc(image, centre, badge, (255, 255, 255))
    marks.disc(image, centre, badge - 2, ATTACK_BADGE)
    value = f"{card.attack if attack is None else attack}{'*' if card.house else ''}"
    draw.text(
        centre,
        value,
        font=style.font(int(badge * 1.1)),
        fill=(255, 255, 255),
        anchor="mm",
    )
    # The ability, as much of it as fits (the rules' words).
    text_top = top + picture_h + max(4, height // 40)
    ability = (
        "No ability." if card.ability == "none" else card.ability[:1].upper() + card.ability[1:]
    )
    lines, size = fitted_lines(
        ability,
        inner,
        height - text_top - pad,
        largest=max(12, width // 10),
        smallest=11,
        leading=1.15,
    )
    draw_lines(draw, lines, x=pad, y=text_top, size=size, fill=CARD_INK, leading=1.15)
    return image


# --- board tokens -------------------------------------------------------------------


@functools.lru_cache(maxsize=128)
def token_face(
    ship: Ship, width: int, height: int, owner: RGB, hidden: bool, attack: int | None = None
) -> Stamp:
    """A unit's card on the board: its word, its attack value now (``attack``; the printed
    value when None) and its silhouette, framed in the owner's colour; ``hidden``: seen by
    its owner (or in a replay) while it is face-down, marked with a "face-down" band.
    Shared: only put."""
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    border = max(4, width // 16)
    radius = max(6, width // 9)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=(*owner, 255))
    draw.rounded_rectangle(
        (border, border, width - 1 - border, height - 1 - border),
        radius=max(2, radius - border),
        fill=(*CARD_FACE, 255),
    )
    label = LABELS[ship]
    room = width - 2 * border - 4
    label_size = max(12, min(20, width // 5))
    while label_size > 12 and style.text_width(label, label_size) > room:
        label_size -= 1
    fitted = style.fit_text(label, label_size, room)
    draw.text(
        (width / 2, border + 2),
        fitted,
        font=style.font(label_size, fitted),
        fill=CARD_INK,
        anchor="ma",
    )
    value_size = max(16, int(height * 0.34))
    draw.text(
        (width / 2, border + label_size + 4 + value_size * 0.5),
        str(ship.card.attack if attack is None else attack),
        font=style.font(value_size),
        fill=ATTACK_BADGE,
        anchor="mm",
        stroke_width=1,
        stroke_fill=ATTACK_BADGE,
    )
    top = int(border + label_size + 6 + value_size)
    if top < height - border - 6:
        draw_silhouette(image, (border + 3, top - 4, width - border - 3, height - border), ship)
    if hidden:
        band = max(14, height // 6)
        y = height - border - band
        draw.rectangle((border, y, width - 1 - border, height - 1 - border), fill=(*owner, 230))
        size = max(10, band - 5)
        text = style.fit_text("face-down", size, width - 2 * border - 2)
        draw.text(
            (width / 2, y + band / 2),
            text,
            font=style.font(size),
            fill=(255, 255, 255),
            anchor="mm",
        )
    return stamp(image)


def put_token_back(
    image: Image.Image,
    xy: tuple[int, int],
    size: tuple[int, int],
    owner: RGB,
    avatar: Image.Image | None,
    mark: str,
) -> None:
    """A face-down unit as everyone sees it: a card back in its owner's colour, with the
    owner's avatar (or ``mark``, the owner's seat number) — and nothing of its ship."""
    width, height = size
    _token_back(width, height, owner, mark).put(image, xy)
    if avatar is not None:
        side = int(min(width, height) * 0.5)
        marks.composite(
            image,
            round_avatar(avatar, side),
            (xy[0] + (width - side) // 2, xy[1] + (height - side) // 2),
        )


@functools.lru_cache(maxsize=16)
def _token_back(width: int, height: int, owner: RGB, mark: str) -> Stamp:
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = max(6, width // 9)
    dark = style.darker(owner, 0.55)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=(*dark, 255))
    inset = max(4, width // 14)
    draw.rounded_rectangle(
        (inset, inset, width - 1 - inset, height - 1 - inset),
        radius=max(2, radius - inset),
        fill=(*owner, 255),
    )
    # Diagonal stripes: a card back reads as "hidden" at a glance.
    stripes = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    sdraw = ImageDraw.Draw(stripes)
    step = max(8, width // 8)
    for offset in range(-height, width, step):
        sdraw.line((offset, height, offset + height, 0), fill=(*dark, 90), width=max(2, step // 3))
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (inset, inset, width - 1 - inset, height - 1 - inset),
        radius=max(2, radius - inset),
        fill=255,
    )
    image.paste(Image.alpha_composite(image, stripes), (0, 0), mask)
    size = max(14, width // 3)
    draw = ImageDraw.Draw(image)
    draw.text(
        (width / 2, height / 2),
        mark,
        font=style.font(size),
        fill=(255, 255, 255),
        anchor="mm",
        stroke_width=2,
        stroke_fill=dark,
    )
    return stamp(image)


@functools.lru_cache(maxsize=64)
def mini_card(
    ship: Ship | None, width: int, height: int, edge: RGB, attack: int | None = None
) -> Stamp:
    """A small card (a hand: its back, or in the replay its face): the ship's word and
    attack value now (``attack``; the printed value when None), or a plain back when
    ``ship`` is None. Shared: only put."""
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = max(4, width // 7)
    if ship is None:
        draw.rounded_rectangle(
            (0, 0, width - 1, height - 1),
            radius=radius,
            fill=(*edge, 255),
            outline=(*style.darker(edge, 0.55), 255),
            width=2,
        )
        return stamp(image)
    draw.rounded_rectangle(
        (0, 0, width - 1, height - 1),
        radius=radius,
        fill=(*CARD_FACE, 255),
        outline=(*edge, 255),
        width=3,
    )
    label_size = max(10, min(15, width // 4))
    while label_size > 10 and style.text_width(LABELS[ship], label_size) > width - 6:
        label_size -= 1
    label = style.fit_text(LABELS[ship], label_size, width - 6)
    draw.text((width / 2, 4), label, font=style.font(label_size), fill=CARD_INK, anchor="ma")
    draw.text(
        (width / 2, (height + label_size) / 2 + 2),
        str(ship.card.attack if attack is None else attack),
        font=style.font(max(12, height // 3)),
        fill=ATTACK_BADGE,
        anchor="mm",
    )
    return stamp(image)
