"""Discord: slash commands, tagged channel messages and DMs in; replies out.

:class:`~bot.adapters.discord.adapter.DiscordAdapter` is the host's
:class:`~bot.host.messages.ChatAdapter`; :func:`~bot.adapters.discord.sync.sync_commands`
is ``bst discord sync``. The adapter module's docstring says which module does what;
``platform.py`` declares Discord to the platform catalog (bot/platforms.py).

The names below are imported on first use, so that reading the declaration (which
every config load does) does not load discord.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.adapters.discord.adapter import DiscordAdapter
    from bot.adapters.discord.sync import sync_commands

__all__ = ["DiscordAdapter", "sync_commands"]


def __getattr__(name: str) -> Any:
    if name == "DiscordAdapter":
        from bot.adapters.discord.adapter import DiscordAdapter

        return DiscordAdapter
    if name == "sync_commands":
        from bot.adapters.discord.sync import sync_commands

        return sync_commands
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
