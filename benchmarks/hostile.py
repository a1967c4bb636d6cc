"""Hostile input costs bounded time: the worst parse of a huge message and the refusal
of a pixel bomb. These were time limits inside unit tests, which fail for nothing on a
loaded machine; the tests now check only what is refused, and the time is measured here."""

from __future__ import annotations

import contextlib
import struct
import zlib

from benchmarks.timing import Figure, median_seconds
from bot.games.base import GameError
from bot.games.bst import BST
from renderers import AvatarError, decode_avatar

# One piece of each kind the bad-input tests repeat to about 100 KB.
PIECES = (
    "H14", "sub: A2, ", "move cruiser at G7 3 up", "carrier: A1-A9999", "\u202e", "ＡＢ",
    "99999999999999999999", "👩‍👩‍👧", ",", "-", "\n",
)  # fmt: skip
HUGE_CHARS = 100_000


def _parse(text: str) -> None:
    with contextlib.suppress(GameError):
        BST.rules.parse(text)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _pixel_bomb(side: int = 40_000) -> bytes:
    """About 100 bytes declaring side×side RGBA pixels (6.4 GB if decoded)."""
    header = struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"\x00" * 1024))
        + _chunk(b"IEND", b"")
    )


def _refuse_bomb(data: bytes) -> None:
    try:
        decode_avatar(data)
    except AvatarError:
        return
    raise AssertionError("a pixel bomb was decoded")


def run(*, quick: bool) -> list[Figure]:
    repeats = 3 if quick else 7
    floor = median_seconds(lambda: _parse("H14"), repeats=repeats) * 1000
    worst, worst_piece = 0.0, ""
    for piece in PIECES:
        text = piece * (HUGE_CHARS // len(piece))
        took = median_seconds(lambda text=text: _parse(text), repeats=repeats) * 1000
        if took > worst:
            worst, worst_piece = took, piece
    bomb = _pixel_bomb()
    bomb_ms = median_seconds(lambda: _refuse_bomb(bomb), repeats=repeats) * 1000
    return [
        Figure(
            "parse_hostile_max_ms",
            worst,
            500.0,
            unit=" ms",
            floor=f"{floor:.3f} ms for H14",
            detail=f"the slowest of {len(PIECES)} pieces repeated to 100 KB: {worst_piece!r}",
        ),
        Figure(
            "pixel_bomb_refused_ms",
            bomb_ms,
            1000.0,
            unit=" ms",
            detail="a 40,000x40,000 PNG header refused before decoding",
        ),
    ]
