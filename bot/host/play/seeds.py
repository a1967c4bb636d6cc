"""Seeded randomness for the games: every draw depends only on the game's seed and
what it is for (which turn, which message), so a replayed script draws the same.

Two procedures, both public (README, "Fair play"):

* a game opened with ``seed=N`` (scripts, tests) draws as it always has, from
  :func:`seeded` (crc32 of the seed and the label), so its record stays byte-identical;
* a game the live host opened draws from committed luck: the host's fresh 32-byte
  secret, whose SHA-256 it publishes before anyone joins, mixed at the start with every
  join's nonce (:func:`mixed_luck`); each draw is ``random.Random`` seeded with the
  big-endian integer of HMAC-SHA-256(key, label) (:func:`luck_rng`), the label naming
  what it is for (``start``, ``turn/3`` — a turn's resolution and its timer alike —,
  ``accept/PLATFORM/MESSAGE`` for an order, which the platform's message id makes
  the player's own).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import zlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol

SECRET_BYTES = 32
# The name of the procedure below, as records carry it: a record names how to check it.
LUCK_PROCEDURE = "bst-luck/1"


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

    def __init__(self, seed_of: Callable[[], int]) -> None:  # does not seed yet
        self._pending: Callable[[], int] | None = seed_of

    def __getattribute__(self, name: str) -> Any:
        if name != "_pending" and name != "__dict__":
            pending = object.__getattribute__(self, "_pending")
            if pending is not None:
                object.__setattr__(self, "_pending", None)
                random.Random.__init__(self, pending())
        return object.__getattribute__(self, name)


def seeded_on_first_draw(seed: int, *parts: object) -> random.Random:
    """Like :func:`seeded` (the same draws), but pays for seeding only if it is used."""
    return _OnFirstDraw(lambda: _seed_of(seed, parts))


# --- committed luck ---------------------------------------------------------------


def draw_secret() -> str:
    """The host's fresh secret for a game (hex of 32 bytes from the OS's CSPRNG)."""
    return secrets.token_bytes(SECRET_BYTES).hex()


def commitment(secret: str) -> str:
    """SHA-256 of the secret's bytes (hex): published before anyone joins."""
    return hashlib.sha256(bytes.fromhex(secret)).hexdigest()


def mixed_luck(secret: str, nonces: Sequence[str]) -> str:
    """The key every draw from the start on is made with: HMAC-SHA-256 keyed by the
    secret over ``players`` and each join's nonce, in join order, a line each. The host
    committed to its secret before the nonces existed, so it cannot pick one to suit."""
    text = "\n".join(("players", *nonces))
    return hmac.new(bytes.fromhex(secret), text.encode(), hashlib.sha256).hexdigest()


def label_of(parts: Sequence[object]) -> str:
    return "/".join(str(part) for part in parts)


def _luck_seed(key: str, parts: Sequence[object]) -> int:
    digest = hmac.new(bytes.fromhex(key), label_of(parts).encode(), hashlib.sha256).digest()
    return int.from_bytes(digest, "big")


def luck_rng(key: str, *parts: object) -> random.Random:
    """The draw named by ``parts`` (joined with ``/``) from a committed key."""
    return random.Random(_luck_seed(key, parts))


class _Seeded(Protocol):
    """What a game's stored row (or its snapshot) holds of its luck."""

    @property
    def seed(self) -> int: ...
    @property
    def secret(self) -> str: ...
    @property
    def luck(self) -> str: ...


def game_rng(game: _Seeded, *parts: object) -> random.Random:
    """The game's draw for ``parts``: from committed luck when the host drew a secret
    (the mixed key once the game started), else from its ``seed=`` as before."""
    key = game.luck or game.secret
    return luck_rng(key, *parts) if key else seeded(game.seed, *parts)


def game_rng_on_first_draw(game: _Seeded, *parts: object) -> random.Random:
    """Like :func:`game_rng` (the same draws), but pays for seeding only if it is used."""
    key = game.luck or game.secret
    if key:
        return _OnFirstDraw(lambda: _luck_seed(key, parts))
    return seeded_on_first_draw(game.seed, *parts)
