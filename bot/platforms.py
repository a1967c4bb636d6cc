"""The registered chat platforms, by name, in the order they were registered.

A platform is a folder under bot/adapters with a ``platform.py`` declaring it (see
:mod:`bot.adapters.declaration`) and one line below. The config reads each one's
section, ``bst run`` builds each enabled one, ``bst check-config`` checks them, and the
wiring asks each about reminders: none of them names a platform. Tests may register a
platform of their own with :func:`register`.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.adapters.declaration import Platform

_REGISTRY: dict[str, Platform] = {}


def register(platform: Platform) -> None:
    """Make a platform known to the config, ``bst run`` and ``bst check-config``."""
    _REGISTRY[platform.name] = platform


def unregister(name: str) -> None:
    """Forget a platform (tests that registered one of their own)."""
    _REGISTRY.pop(name, None)


def get_platform(name: str) -> Platform | None:
    return _REGISTRY.get(name)


def platforms() -> Sequence[Platform]:
    return list(_REGISTRY.values())


def _register_built_in() -> None:
    from bot.adapters.bluesky.platform import BLUESKY
    from bot.adapters.discord.platform import DISCORD
    from bot.adapters.mastodon.platform import MASTODON
    from bot.adapters.twitter.platform import TWITTER

    for platform in (DISCORD, TWITTER, MASTODON, BLUESKY):
        register(platform)


_register_built_in()
