"""Seeded randomness for the games: every draw depends only on the game's seed and
what it is for (which turn, which message), so a replayed script draws the same."""

from __future__ import annotations

import random
import zlib
from typing import Any


def _seed_of(seed: int, parts: tuple[object, ...]) -> int:
    key = ":".join(str(p) for p in (seed, *parts))
    return zlib.crc32(key.encode()) ^ (seed << 1)


def seeded(seed: int, *parts: object) -> random.Random:
    """A random source that depends only on the game's seed and what it is for."""
    return random.Random(_seed_of(seed, parts))


class _OnFirstDraw(random.Random):
    """A ``random.Random`` that works out its seed and seeds itself at its first draw.

    Most orders never draw (only a ``random`` placement does), and deriving the seed
    and seeding the Mersenne Twister are a measurable part of handling an order."""

    def __init__(self, seed: int, parts: tuple[object, ...]) -> None:  # does not seed yet
        self._pending: tuple[int, tuple[object, ...]] | None = (seed, parts)

    def __getattribute__(self, name: str) -> Any:
        if name != "_pending" and name != "__dict__":
            pending = object.__getattribute__(self, "_pending")
            if pending is not None:
                object.__setattr__(self, "_pending", None)
                random.Random.__init__(self, _seed_of(*pending))
        return object.__getattribute__(self, name)


def seeded_on_first_draw(seed: int, *parts: object) -> random.Random:
    """Like :func:`seeded` (the same draws), but pays for seeding only if it is used."""
    return _OnFirstDraw(seed, parts)
