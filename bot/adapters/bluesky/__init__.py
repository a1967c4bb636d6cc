"""Bluesky: mentions, the games' tags and chat in, posts and chat messages out.

The adapter module's docstring says which module does what; ``platform.py`` declares
Bluesky to the platform catalog (bot/platforms.py). The adapter is imported on first
use, so that reading the declaration (which every config load does) does not load the
atproto SDK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.adapters.bluesky.adapter import BlueskyAdapter

__all__ = ["BlueskyAdapter"]


def __getattr__(name: str) -> Any:
    if name == "BlueskyAdapter":
        from bot.adapters.bluesky.adapter import BlueskyAdapter

        return BlueskyAdapter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
