"""Who holds a private link: its token → (game, player), in the same time whether the
token is right, wrong, revoked or nonsense.

The web never compares a guessed token with a stored one character by character: it
looks the link up by the token's SHA-256 (a guess that shares a prefix with a real
token shares nothing with its digest), then checks the stored token with
:func:`hmac.compare_digest`. Every answer, found or not, costs one hash and one indexed
read; an unknown game's page costs one indexed read too.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from bot.store import Store
from bot.store.links import link_holder, token_digest

TOKEN_BYTES = 32
"""``secrets.token_urlsafe(32)``: 256 random bits, 43 characters."""


@dataclass(frozen=True)
class Holder:
    game_id: int
    player_key: str


def holder_of(store: Store, token: str) -> Holder | None:
    """The game and player a live link's token is for; None for any other token."""
    # Bounded work whatever was sent: a path segment is short, but not by our choice.
    digest = token_digest(token[:200])
    with store.transaction() as tx:
        found = link_holder(tx, digest)
    if found is None:
        return None
    game_id, player_key, stored = found
    if not hmac.compare_digest(stored.encode("utf-8"), token.encode("utf-8")):
        return None
    return Holder(game_id, player_key)


def redact(path: str) -> str:
    """A request path fit for a log line: a private link's token replaced by ``…``."""
    if path.startswith("/p/"):
        rest = path[3:]
        _, slash, tail = rest.partition("/")
        return "/p/…" + (slash + tail if slash else "")
    return path
