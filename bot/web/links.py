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
import logging
import re
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
    if not hmac.compare_digest(found.token.encode("utf-8"), token.encode("utf-8")):
        return None
    return Holder(found.game_id, found.player_key)


def redact(path: str) -> str:
    """A request path fit for a log line: a private link's token replaced by ``…``, and
    control characters written as escapes (a decoded ``%0A`` would start a forged line)."""
    if path.startswith("/p/"):
        rest = path[3:]
        _, slash, tail = rest.partition("/")
        path = "/p/…" + (slash + tail if slash else "")
    return _CONTROL.sub(lambda found: f"\\x{ord(found[0]):02x}", path)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_TOKEN_IN_TEXT = re.compile(r"/p/[^/\s'\"?#]+")


class MaskTokens(logging.Filter):
    """Writes ``/p/…`` for any private link's token in a log record, its message and
    traceback included: aiohttp's own errors (a request it could not parse) quote the
    request line, which may hold one."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = _mask(message)
        if masked != message:
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = _mask(record.exc_text)
        return True


def _mask(text: str) -> str:
    return _TOKEN_IN_TEXT.sub("/p/…", text)


MASKED_LOGGERS = ("aiohttp.server", "aiohttp.web", "aiohttp.access", "aiohttp.internal")


def mask_tokens_in_logs() -> None:
    """Put a :class:`MaskTokens` filter on aiohttp's loggers (once each)."""
    for name in MASKED_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, MaskTokens) for f in logger.filters):
            logger.addFilter(MaskTokens())
