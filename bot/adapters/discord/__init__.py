"""Discord: slash commands, tagged channel messages and DMs in; replies out.

:class:`~bot.adapters.discord.adapter.DiscordAdapter` is the host's
:class:`~bot.host.messages.ChatAdapter`; :func:`~bot.adapters.discord.sync.sync_commands`
is ``bst discord sync``. The adapter module's docstring says which module does what.
"""

from bot.adapters.discord.adapter import DiscordAdapter
from bot.adapters.discord.sync import sync_commands

__all__ = ["DiscordAdapter", "sync_commands"]
