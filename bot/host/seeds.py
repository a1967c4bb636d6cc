"""Seeded randomness for the games: every draw depends only on the game's seed and
what it is for (which turn, which message), so a replayed script draws the same."""

from __future__ import annotations

import random
import zlib


def seeded(seed: int, *parts: object) -> random.Random:
    """A random source that depends only on the game's seed and what it is for."""
    key = ":".join(str(p) for p in (seed, *parts))
    return random.Random(zlib.crc32(key.encode()) ^ (seed << 1))
