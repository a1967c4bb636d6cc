"""Encoding pictures: a still as PNG, frames as H.264 MP4 with the ffmpeg binary shipped by
imageio-ffmpeg.

Raw RGB frames go to ffmpeg's stdin; the MP4 is written to a temporary file (the ``moov``
atom goes in front, which needs a seekable output) and read back. One thread and bit-exact
flags make the output the same bytes for the same frames on the same installation.
"""

from __future__ import annotations

import io
import subprocess
import tempfile
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

from PIL import Image


class EncodeError(RuntimeError):
    """ffmpeg failed."""


def png_bytes(image: Image.Image) -> bytes:
    """``image`` as PNG (RGB; fixed settings, so the same picture is the same bytes)."""
    out = io.BytesIO()
    if image.mode != "RGB":
        image = image.convert("RGB")
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


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
