"""An animated GIF written one frame at a time, in bounded memory.

Pillow's ``save(save_all=True, append_images=...)`` holds every frame of the animation
until the last one arrives (it merges the times of identical neighbours first): a 250-turn
replay is then 250 full paletted pictures in memory at once. This writer produces the same
bytes from the same frames while holding only the frame before the one being written, by
doing what Pillow's multi-frame GIF writer does, one frame at a time, with its own helpers.
``tests/renderers/test_gif.py`` checks the two agree byte for byte on the installed Pillow.

The frames are paletted pictures of one size (the replay quantizes every frame to one
palette), written unoptimized, looping forever, each with its own time.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Any

from PIL import GifImagePlugin, Image


def _options(duration_ms: int) -> dict[str, Any]:
    """What Pillow's writer hands its frame helpers for ``save(..., loop=0, optimize=False)``."""
    return {"loop": 0, "optimize": False, "duration": duration_ms}


def write_gif(out: IO[bytes], frames: Iterable[tuple[Image.Image, int]]) -> int:
    """Write ``frames`` (each a picture and how long it shows, in milliseconds) to ``out`` as
    one looping animated GIF; returns how many frames were written (identical neighbours
    are merged into one longer frame, as Pillow does). At least one frame is needed."""
    pending: tuple[Image.Image, tuple[int, int, int, int] | None, dict[str, Any]] | None = None
    previous: Image.Image | None = None
    written = 0
    for picture, duration_ms in frames:
        frame = GifImagePlugin._normalize_mode(picture.copy())
        options = _options(duration_ms)
        frame = GifImagePlugin._normalize_palette(frame, None, options)
        bbox: tuple[int, int, int, int] | None = None
        if previous is not None:
            _, bbox = GifImagePlugin._getbbox(previous, frame)
            if not bbox:
                # the same picture as the one before: that one shows for longer
                assert pending is not None
                pending[2]["duration"] += duration_ms
                continue
        if pending is not None:
            written += _write(out, *pending)
        previous = frame
        pending = (frame, bbox, options)
    if pending is None:
        raise ValueError("a GIF needs at least one frame")
    if written == 0:
        # one picture in all: a still, as Pillow writes it
        frame, _, options = pending
        frame.save(out, format="GIF", duration=options["duration"], loop=0, optimize=False)
        return 1
    written += _write(out, *pending)
    out.write(b";")
    return written


def _write(
    out: IO[bytes],
    frame: Image.Image,
    bbox: tuple[int, int, int, int] | None,
    options: dict[str, Any],
) -> int:
    if not bbox:
        for chunk in GifImagePlugin._get_global_header(frame, options):
            out.write(chunk)
        offset = (0, 0)
    else:
        options["include_color_table"] = True
        if bbox != (0, 0, *frame.size):
            frame = frame.crop(bbox)
        offset = (bbox[0], bbox[1])
    GifImagePlugin._write_frame_data(out, frame, offset, options)
    return 1
