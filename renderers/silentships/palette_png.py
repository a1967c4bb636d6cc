"""Silent Ships' still pictures as palette PNGs (one byte a pixel) rather than RGB ones.

A board picture is flat colours with anti-aliased edges and text: a few thousand colours,
nearly all of them blends along an edge. 256 chosen by an octree, each pixel then drawn
with the nearest of them and no dithering (flat areas stay flat and keep their colour),
look the same, avatars included. Filtering and deflating a third of the bytes costs,
choosing the colours included, under half of encoding the RGB picture, and the file is
under half the size (issue 18: the picture within 2x a plain grid of its size, drawn and
encoded).

The replay's frames are not encoded here (they go to ffmpeg as RGB).
"""

from __future__ import annotations

import io

from PIL import Image

PALETTE_COLOURS = 256
SAMPLE_ROW_STEP = 4
"""The octree looks at every 4th row only, in a quarter of the time: colours come in runs
many rows tall (text, fills, frames, arrows, avatars; a grid's thin lines cross every row),
so it finds the same ones, and a pixel whose colour it missed is drawn with the nearest."""


def palette_png_bytes(image: Image.Image) -> bytes:
    """``image`` on a palette of :data:`PALETTE_COLOURS` colours, PNG-encoded with the
    shared encoder's fixed settings (:func:`renderers.encode.png_bytes`): the same picture
    is the same bytes."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    rows = image.resize(
        (image.width, max(1, image.height // SAMPLE_ROW_STEP)), Image.Resampling.NEAREST
    )
    chosen = rows.quantize(
        PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    # The octree's own mapping puts a pixel in its bucket's colour; the nearest is closer.
    paletted = image.quantize(palette=chosen, dither=Image.Dither.NONE)
    out = io.BytesIO()
    paletted.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()
