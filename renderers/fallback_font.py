"""The bundled fallback font, and which characters it can draw.

Pillow's own font (Aileron) covers printable ASCII only. Captains' names are often not
ASCII (Zoë, Łukasz, Дмитрий, Ἀθηνᾶ), so text that Aileron cannot draw is drawn with
DejaVu Sans (bundled under ``renderers/fonts/`` with its licence: Latin, Greek,
Cyrillic and more). What neither covers (CJK, emoji) is folded by
:func:`renderers.style.drawable`. Which characters DejaVu has is read once from its
``cmap`` table, so a name never shows an empty box.
"""

from __future__ import annotations

import functools
import struct
from pathlib import Path

FALLBACK_FONT = Path(__file__).with_name("fonts") / "DejaVuSans.ttf"


@functools.cache
def fallback_coverage() -> frozenset[int]:
    """The code points the fallback font maps to a glyph."""
    return frozenset(_cmap_code_points(FALLBACK_FONT.read_bytes()))


def _cmap_code_points(data: bytes) -> set[int]:
    """Code points of a TrueType font's Unicode cmap subtables (formats 4 and 12)."""
    (tables,) = struct.unpack_from(">H", data, 4)
    cmap = None
    for index in range(tables):
        tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * index)
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        raise ValueError("the font has no cmap table")
    (subtables,) = struct.unpack_from(">H", data, cmap + 2)
    points: set[int] = set()
    for index in range(subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * index)
        if platform not in (0, 3) or (platform == 3 and encoding not in (1, 10)):
            continue  # not a Unicode subtable
        start = cmap + offset
        (form,) = struct.unpack_from(">H", data, start)
        if form == 4:
            points |= _format_4(data, start)
        elif form == 12:
            points |= _format_12(data, start)
    return points


def _format_4(data: bytes, start: int) -> set[int]:
    (segments_x2,) = struct.unpack_from(">H", data, start + 6)
    count = segments_x2 // 2
    ends = struct.unpack_from(f">{count}H", data, start + 14)
    starts = struct.unpack_from(f">{count}H", data, start + 16 + segments_x2)
    deltas = struct.unpack_from(f">{count}h", data, start + 16 + 2 * segments_x2)
    range_at = start + 16 + 3 * segments_x2
    ranges = struct.unpack_from(f">{count}H", data, range_at)
    points: set[int] = set()
    for i in range(count):
        for code in range(starts[i], ends[i] + 1):
            if code == 0xFFFF:
                continue
            if ranges[i] == 0:
                glyph = (code + deltas[i]) & 0xFFFF
            else:
                where = range_at + 2 * i + ranges[i] + 2 * (code - starts[i])
                (glyph,) = struct.unpack_from(">H", data, where)
                if glyph:
                    glyph = (glyph + deltas[i]) & 0xFFFF
            if glyph:
                points.add(code)
    return points


def _format_12(data: bytes, start: int) -> set[int]:
    (groups,) = struct.unpack_from(">I", data, start + 12)
    points: set[int] = set()
    for i in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, start + 16 + 12 * i)
        points.update(code for code in range(first, last + 1) if glyph + code - first)
    return points
