"""Encoding pictures: a still as a palette PNG, frames as H.264 MP4 with the ffmpeg binary shipped by
imageio-ffmpeg.

Raw RGB frames go to ffmpeg's stdin; the MP4 is written to a temporary file (the ``moov``
atom goes in front, which needs a seekable output) and read back. One thread and bit-exact
flags make the output the same bytes for the same frames on the same installation.
"""

from __future__ import annotations

import heapq
import io
import subprocess
import tempfile
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

from PIL import Image


class EncodeError(RuntimeError):
    """ffmpeg failed."""


PALETTE_COLOURS = 256
EXACT_COLOURS = 128
"""The commonest colours go into the palette as they are (a picture's fills, water, text,
flat avatars: flat areas stay flat, within a shade of their colour); an octree chooses the
rest among the blends along edges and the shades of photographs."""
SAMPLE_ROW_STEP = 8
"""Colours are counted and chosen on every 8th row only, in an eighth of the time: colours
come in runs many rows tall (text, fills, frames, arrows, avatars; a grid's thin lines
cross every row), so it finds the same ones, and a pixel whose colour it missed is drawn
with the nearest."""
PNG_COMPRESS_LEVEL = 3
"""zlib's level for a palette PNG. Measured on bst's 20×20 map of 12 captains (866×1092,
issue 25): level 3 deflates in 2.4 ms to 33 KB, level 6 in 5.2 ms to 27 KB, level 1 in
2.2 ms to 41 KB; past 3 the bytes saved cost more time than they save on the wire."""


def png_bytes(image: Image.Image) -> bytes:
    """``image`` as a palette PNG (one byte a pixel): the same picture is the same bytes.

    A picture here is flat colours with anti-aliased edges and text: a few thousand colours,
    nearly all of them blends along an edge. A palette of 256 (the commonest exactly, the
    rest chosen by an octree), each pixel then drawn with the nearest of them and no
    dithering, looks the same, avatars included (a mean difference under 1/255). Pillow
    filters every row of an RGB PNG five ways to choose the best, which was 70% of the
    bot's work at a deadline (issue 25: 21.7 ms of a 24 ms bst map); choosing the colours
    and deflating a third of the bytes, unfiltered, costs under half of that, and the file
    is under half the size (34 KB against 74 KB for that map).
    """
    out = io.BytesIO()
    paletted(image).save(out, format="PNG", optimize=False, compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


def paletted(image: Image.Image) -> Image.Image:
    """``image`` on a palette of at most :data:`PALETTE_COLOURS`, each pixel the nearest."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    rows = image.resize(
        (image.width, max(1, image.height // SAMPLE_ROW_STEP)), Image.Resampling.NEAREST
    )
    counted = rows.getcolors(rows.width * rows.height) or []
    # by count, ties by colour: the same picture, the same palette
    commonest = heapq.nlargest(PALETTE_COLOURS + 1, counted)
    colours = [colour for _, colour in commonest if isinstance(colour, tuple)]
    if len(colours) > PALETTE_COLOURS:
        blends = PALETTE_COLOURS - EXACT_COLOURS
        octree = rows.quantize(blends, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        chosen = (octree.getpalette() or [])[: 3 * blends]
        colours = colours[:EXACT_COLOURS] + [
            tuple(chosen[i : i + 3]) for i in range(0, len(chosen), 3)
        ]
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in colours for value in colour])
    # The octree's own mapping puts a pixel in its bucket's colour; the nearest is closer.
    # (Pillow looks the nearest up once for each 4×4×4 box of colours, so a flat colour can
    # land on a blend a shade away: at most 2 of 255 in the tests.)
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def ffmpeg_exe() -> str:
    import imageio_ffmpeg

    return str(imageio_ffmpeg.get_ffmpeg_exe())


def encode_mp4(
    frames: Iterable[Image.Image],
    *,
    size: tuple[int, int],
    frame_rate: Fraction,
    output_fps: int = 10,
    crf: int = 23,
    timeout_s: float = 300.0,
) -> bytes:
    """Encode ``frames`` (each shown for ``1 / frame_rate`` seconds) as an H.264/yuv420p MP4.

    ``size`` must be even in both directions; frames of another size are scaled to it.
    The output runs at ``output_fps`` (ffmpeg repeats frames; repeats cost almost nothing).
    """
    width, height = size
    if width % 2 or height % 2:
        raise ValueError(f"H.264 with yuv420p needs even dimensions, got {width}x{height}")
    with tempfile.TemporaryDirectory(prefix="bst-encode-") as folder:
        out = Path(folder) / "out.mp4"
        log = Path(folder) / "ffmpeg.log"
        command = [
            ffmpeg_exe(),
            "-hide_banner",
            "-loglevel",
            "error",
            "-f",
            "rawvideo",
            "-pix_fmt",
            "rgb24",
            "-s",
            f"{width}x{height}",
            "-framerate",
            f"{frame_rate.numerator}/{frame_rate.denominator}",
            "-i",
            "pipe:0",
            "-an",
            "-vf",
            f"fps={output_fps}",
            "-c:v",
            "libx264",
            "-preset",
            "veryfast",
            "-tune",
            "stillimage",
            "-crf",
            str(crf),
            "-pix_fmt",
            "yuv420p",
            "-profile:v",
            "high",
            "-g",
            str(output_fps * 10),
            "-threads",
            "1",
            "-x264-params",
            "threads=1:lookahead-threads=1:sliced-threads=0",
            "-fflags",
            "+bitexact",
            "-flags:v",
            "+bitexact",
            "-map_metadata",
            "-1",
            "-movflags",
            "+faststart",
            "-f",
            "mp4",
            "-y",
            str(out),
        ]
        with log.open("wb") as log_file:
            process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=log_file
            )
            assert process.stdin is not None
            try:
                for frame in frames:
                    if frame.size != size:
                        frame = frame.resize(size, Image.Resampling.LANCZOS)
                    if frame.mode != "RGB":
                        frame = frame.convert("RGB")
                    process.stdin.write(frame.tobytes())
                process.stdin.close()
                code = process.wait(timeout=timeout_s)
            except BaseException:
                process.kill()
                process.wait()
                raise
        if code != 0:
            message = log.read_text(errors="replace").strip()[-500:]
            raise EncodeError(f"ffmpeg exited with {code}: {message}")
        return out.read_bytes()
