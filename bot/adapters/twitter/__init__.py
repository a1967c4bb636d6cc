"""X (Twitter): mentions and DMs in, posts and DMs out.

The package keeps the platform's name in the code, ``twitter``, as the config
section (``[twitter]``) and the stored platform key do. The adapter module's
docstring says which module does what; ``platform.py`` declares X to the platform
catalog (bot/platforms.py).

The names below are imported on first use, so that reading the declaration (which
every config load does) does not load tweepy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.adapters.twitter.adapter import TwitterAdapter
    from bot.adapters.twitter.credentials import TwitterCredentials

__all__ = ["TwitterAdapter", "TwitterCredentials"]


def __getattr__(name: str) -> Any:
    if name == "TwitterAdapter":
        from bot.adapters.twitter.adapter import TwitterAdapter

        return TwitterAdapter
    if name == "TwitterCredentials":
        from bot.adapters.twitter.credentials import TwitterCredentials

        return TwitterCredentials
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
