"""Palette, fonts and text helpers shared by every renderer.

Fonts come only from Pillow's built-in scalable font (``ImageFont.load_default(size=N)``,
Aileron, bundled with Pillow >= 10.1 and rendered by FreeType), so output needs no network
and no system fonts and is the same on every machine with the same Pillow. That font covers
printable ASCII (plus a few marks such as the ellipsis), so names are folded to ASCII before
drawing rather than showing empty boxes.
"""

from __future__ import annotations

import colorsys
import functools
import hashlib
import unicodedata
from datetime import UTC, datetime

from PIL import ImageFont

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


@functools.lru_cache(maxsize=128)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at ``size`` pixels (needs FreeType)."""
    loaded = ImageFont.load_default(size=max(6, size))
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow without FreeType
        raise RuntimeError("Pillow was built without FreeType; the renderers need it")
    return loaded


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
    """``text`` folded to what the bundled font can draw: accents dropped, other symbols ``?``."""
    out = []
    for ch in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(ch):
            continue
        out.append(ch if ch in _DRAWABLE else "?")
    return "".join(out)


def text_width(text: str, size: int) -> int:
    return round(font(size).getlength(text))


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
    names = [drawable(n) for n in names]
    for shown in range(len(names), -1, -1):
        rest = len(names) - shown
        text = prefix + ", ".join(names[:shown])
        if rest:
            text += (", " if shown else "") + f"+{rest} more"
        if text_width(text, size) <= max_width:
            return text
    return fit_text(prefix + ", ".join(names), size, max_width)


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
