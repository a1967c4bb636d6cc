"""Palette, fonts and text helpers shared by every renderer.

Fonts are Pillow's built-in scalable font (``ImageFont.load_default(size=N)``, Aileron,
bundled with Pillow >= 10.1 and rendered by FreeType) for text it covers (printable ASCII),
and DejaVu Sans, bundled in ``renderers/fonts/``, for text it does not (names such as Zoë,
Łukasz or Дмитрий): output needs no network and no system fonts and is the same on every
machine with the same Pillow. What neither covers (CJK, say) is folded by
:func:`drawable` rather than shown as empty boxes.
"""

from __future__ import annotations

import colorsys
import functools
import hashlib
import math
import unicodedata
from datetime import UTC, datetime

from PIL import Image, ImageDraw, ImageFont

from renderers.fallback_font import FALLBACK_FONT, fallback_coverage

RGB = tuple[int, int, int]

BACKGROUND: RGB = (12, 27, 43)
PANEL: RGB = (18, 38, 60)
WATER: RGB = (31, 111, 168)
WATER_ALT: RGB = (36, 120, 178)
GRID: RGB = (70, 145, 196)
GRID_MAJOR: RGB = (120, 180, 220)
LABEL: RGB = (236, 243, 250)
TEXT: RGB = (240, 245, 250)
TEXT_DIM: RGB = (160, 186, 210)
HIT: RGB = (230, 40, 35)
HIT_LIGHT: RGB = (255, 196, 60)
MISS: RGB = (246, 248, 252)
MISS_MARKER: RGB = (205, 214, 224)
WRECK: RGB = (52, 56, 64)
WRECK_EDGE: RGB = (20, 22, 26)
OWN_SHIP: RGB = (232, 200, 120)
OWN_SHIP_EDGE: RGB = (120, 92, 36)
OWN_SHIP_SUNK: RGB = (112, 92, 56)
COLLISION: RGB = (255, 140, 0)
NEW_WRECK: RGB = (255, 140, 0)

ELLIPSIS = "\u2026"


def font(size: int, text: str = "") -> ImageFont.FreeTypeFont:
    """The font to draw ``text`` with at ``size`` pixels: Pillow's own when it covers the
    text (all of it ASCII), else the bundled fallback (see the module docstring)."""
    if not text.isascii() and not all(ch in _DRAWABLE for ch in text):
        return _fallback_font(size)
    return _builtin_font(size)


@functools.lru_cache(maxsize=128)
def _builtin_font(size: int) -> ImageFont.FreeTypeFont:
    loaded = ImageFont.load_default(size=max(6, size))
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow without FreeType
        raise RuntimeError("Pillow was built without FreeType; the renderers need it")
    return loaded


@functools.lru_cache(maxsize=128)
def _fallback_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FALLBACK_FONT), max(6, size))


_TEXT_MARGIN = 4


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    *,
    size: int,
    fill: RGB,
    background: RGB,
    anchor: str | None = None,
    stroke_width: int = 0,
    stroke_fill: RGB | None = None,
) -> None:
    """``ImageDraw.Draw(image).text(...)`` with the font of ``size``, same pixels, but when
    everything under the text is plain ``background`` (headers, captions) the text is pasted
    from a small cached picture: the same lines come back in every map of a turn (the public
    one and each captain's private board) and in every frame of a replay."""
    (left, top, right, bottom), (line_x, line_y) = _text_box(text, size, anchor, stroke_width)
    # The patch holds the text's pixels and the corner of its line box: Pillow places the
    # glyphs from that corner with int(), which moves with the patch only where it is >= 0.
    x0 = min(math.floor(xy[0] + left), math.floor(xy[0] + line_x)) - _TEXT_MARGIN
    y0 = min(math.floor(xy[1] + top), math.floor(xy[1] + line_y)) - _TEXT_MARGIN
    x1 = math.ceil(xy[0] + right) + _TEXT_MARGIN
    y1 = math.ceil(xy[1] + bottom) + _TEXT_MARGIN
    plain = (*background, 255) if image.mode == "RGBA" else background
    if (
        image.mode not in ("RGB", "RGBA")
        or "\n" in text
        or x0 < 0
        or y0 < 0
        or x1 > image.width
        or y1 > image.height
        or image.crop((x0, y0, x1, y1)).getextrema() != tuple((v, v) for v in plain)
    ):
        ImageDraw.Draw(image).text(
            xy,
            text,
            fill=fill,
            font=font(size, text),
            anchor=anchor,
            stroke_width=stroke_width,
            stroke_fill=stroke_fill,
        )
        return
    patch = _text_patch(
        image.mode,
        (x1 - x0, y1 - y0),
        (xy[0] - x0, xy[1] - y0),
        text,
        size,
        fill,
        background,
        anchor,
        stroke_width,
        stroke_fill,
    )
    image.paste(patch, (x0, y0))


@functools.lru_cache(maxsize=1024)
def _text_box(
    text: str, size: int, anchor: str | None, stroke_width: int
) -> tuple[tuple[float, float, float, float], tuple[float, float]]:
    """Where the text's pixels fall around the point it is drawn at (a patch around them
    with a margin holds all of them), and where the corner of its line box falls."""
    scratch = ImageDraw.Draw(Image.new("L", (1, 1)))
    box = scratch.textbbox(
        (0, 0), text, font=font(size, text), anchor=anchor, stroke_width=stroke_width
    )
    # the same text anchored at its line box's corner ("la") shows where that corner is
    corner = scratch.textbbox(
        (0, 0), text, font=font(size, text), anchor="la", stroke_width=stroke_width
    )
    return box, (box[0] - corner[0], box[1] - corner[1])


@functools.lru_cache(maxsize=128)
def _text_patch(
    mode: str,
    patch_size: tuple[int, int],
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    background: RGB,
    anchor: str | None,
    stroke_width: int,
    stroke_fill: RGB | None,
) -> Image.Image:
    """Text drawn on a plain patch (shared between calls; only ever pasted). Moving the text
    by whole pixels moves its pixels and changes none of them."""
    patch = Image.new(mode, patch_size, (*background, 255) if mode == "RGBA" else background)
    ImageDraw.Draw(patch).text(
        xy,
        text,
        fill=fill,
        font=font(size, text),
        anchor=anchor,
        stroke_width=stroke_width,
        stroke_fill=stroke_fill,
    )
    return patch


def _hash(player_id: str, salt: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{salt}:{player_id}".encode()).digest()[:8], "big")


def owner_colour(player_id: str) -> RGB:
    """A saturated colour for a player, the same for the same id everywhere (not ``hash()``)."""
    h = _hash(player_id, "colour")
    hue = (h % 360) / 360.0
    saturation = 0.55 + ((h >> 12) % 25) / 100.0
    value = 0.78 + ((h >> 20) % 15) / 100.0
    r, g, b = colorsys.hsv_to_rgb(hue, saturation, value)
    return (round(r * 255), round(g * 255), round(b * 255))


def darker(colour: RGB, factor: float = 0.6) -> RGB:
    return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))


_DRAWABLE = frozenset(chr(c) for c in range(32, 127)) | {ELLIPSIS}


def drawable(text: str) -> str:
    """``text`` as the fonts can draw it: a character neither font has loses its accents
    (if that makes it drawable), else becomes ``?``; control characters become spaces."""
    covered = fallback_coverage()
    out = []
    for ch in text:
        if ch in _DRAWABLE or (ch.isprintable() and ord(ch) in covered):
            out.append(ch)
            continue
        if not ch.isprintable():
            out.append(" ")
            continue
        folded = [c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)]
        drawn = bool(folded) and all(c in _DRAWABLE or ord(c) in covered for c in folded)
        out.append("".join(folded) if drawn else "?")
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> int:
    """Advance width of ``text`` in pixels (cached: labels and names repeat in every picture)."""
    return round(font(size, text).getlength(text))


@functools.lru_cache(maxsize=1024)
def fit_text(text: str, size: int, max_width: int) -> str:
    """``text`` cut with an ellipsis so that it fits in ``max_width`` pixels."""
    text = drawable(text)
    if text_width(text, size) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, size) <= max_width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS if low else ""


def fit_names(prefix: str, names: list[str], size: int, max_width: int) -> str:
    """``prefix`` then as many names as fit, then ``+N more``."""
    return _fit_names(prefix, tuple(names), size, max_width)


@functools.lru_cache(maxsize=256)
def _fit_names(prefix: str, given: tuple[str, ...], size: int, max_width: int) -> str:
    names = [drawable(n) for n in given]

    def line(shown: int) -> str:
        rest = len(names) - shown
        text = prefix + ", ".join(names[:shown])
        if rest:
            text += (", " if shown else "") + f"+{rest} more"
        return text

    if text_width(line(len(names)), size) <= max_width:
        return line(len(names))
    # The most names that fit, by bisection: the line grows with every name shown (a name
    # and its comma outgrow the digit "+N more" may lose), and measuring a thousand
    # names' line a thousand times took seconds.
    low, high = -1, len(names) - 1
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(line(mid), size) <= max_width:
            low = mid
        else:
            high = mid - 1
    if low >= 0:
        return line(low)
    return fit_text(prefix + ", ".join(names), size, max_width)


def wrap_names(prefix: str, names: list[str], size: int, max_width: int) -> list[str]:
    """``prefix`` then every name, on as many lines as they need (none is left out); a name
    too long for a line of its own is cut to fit."""
    lines: list[str] = []
    line = prefix
    for index, name in enumerate(drawable(n) for n in names):
        piece = name + ("," if index < len(names) - 1 else "")
        candidate = f"{line} {piece}" if line and not line.endswith(": ") else line + piece
        if line.strip() and text_width(candidate, size) > max_width:
            lines.append(line)
            candidate = piece
        line = candidate
    lines.append(line)
    return [fit_text(text, size, max_width) for text in lines]


def as_utc(moment: datetime) -> datetime:
    """Aware UTC datetime; a naive one is taken to be UTC already."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def format_deadline(deadline: datetime) -> str:
    return as_utc(deadline).strftime("%Y-%m-%d %H:%M UTC")


def format_relative(deadline: datetime, now: datetime) -> str:
    """``in 7 h 58 min`` (whole minutes, rounded down), or ``due now`` once past."""
    seconds = int((as_utc(deadline) - as_utc(now)).total_seconds())
    if seconds <= 0:
        return "due now"
    if seconds < 60:
        return "in under a minute"
    minutes = seconds // 60
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    if days:
        return f"in {days} d {hours} h"
    if hours:
        return f"in {hours} h {minutes} min"
    return f"in {minutes} min"


def deadline_text(deadline: datetime | None, now: datetime | None) -> str | None:
    if deadline is None:
        return None
    text = f"Next deadline {format_deadline(deadline)}"
    if now is not None:
        text += f" ({format_relative(deadline, now)})"
    return text
