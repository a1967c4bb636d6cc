"""Anti-aliased marks drawn on any board, square or hex: hulls, discs, rings, bursts, crosses
and name tags, and the blending of a patch onto a picture.

Each mark is painted through a mask drawn four times bigger and scaled down (Pillow draws
no anti-aliased shapes). Masks depend only on the mark's geometry relative to the corner of
its patch, so equal marks at equal sub-pixel offsets — every hull of a length, every shot
mark of a board — share one mask from a bounded cache; nothing cached is ever modified.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Literal

from PIL import Image, ImageDraw

from renderers import style
from renderers.style import RGB

_SUPERSAMPLE = 4

Box = tuple[float, float, float, float]


def paint_shape(
    image: Image.Image,
    box: Box,
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


# ``_mask`` draws exactly what ``paint_shape`` would (same numbers, same operations, same
# order), so a cached mark is the same pixels as a painted one (tests/renderers/test_caches.py).
_Kind = Literal["rounded", "ellipse", "ring", "polygon", "cross"]


def _paint_cached(
    image: Image.Image,
    box: Box,
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


def _corners(box: Box) -> list[tuple[float, float]]:
    return [(box[0], box[1]), (box[2], box[3])]


def capsule(
    image: Image.Image,
    box: Box,
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


def cross(image: Image.Image, box: Box, colour: RGB, width: float) -> None:
    """A bold X across ``box`` (damage on a ship)."""
    _paint_cached(image, box, colour, "cross", _corners(box), width)


def inset(box: tuple[int, int, int, int], amount: float) -> Box:
    return (box[0] + amount, box[1] + amount, box[2] - amount, box[3] - amount)


@functools.lru_cache(maxsize=512)
def name_tag(label: str, size: int, colour: RGB, background: RGB, vertical: bool) -> Image.Image:
    """A name on a translucent rounded tag, turned for a vertical hull (shared between calls;
    only ever composited)."""
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
