"""Mastodon: mentions and direct mentions in, public posts and direct posts out.

One bot account on any Mastodon instance, through Mastodon.py (the client the Mastodon
community maintains). The adapter module's docstring says which module does what;
``platform.py`` declares Mastodon to the platform catalog (bot/platforms.py).

The names below are imported on first use, so that reading the declaration (which
every config load does) does not load Mastodon.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.adapters.mastodon.adapter import MastodonAdapter

__all__ = ["MastodonAdapter"]


def __getattr__(name: str) -> Any:
    if name == "MastodonAdapter":
        from bot.adapters.mastodon.adapter import MastodonAdapter

        return MastodonAdapter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
