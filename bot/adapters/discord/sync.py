"""``bst discord sync``: register the slash commands with Discord, on demand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import aiohttp
import discord

from bot.adapters.discord.client import log_in, make_client, use_api_base
from bot.adapters.discord.commands import build_command_tree
from bot.adapters.discord.sending import delivery_error
from bot.adapters.discord.text import Privacy
from bot.config import DiscordConfig
from bot.games.base import Game


async def sync_commands(
    token: str,
    application_id: int,
    guild_id: int | None,
    *,
    games: Sequence[Game[Any, Any]],
    http: str | None = None,
) -> list[str]:
    """Register every game's group (``/sonar``, ``/uboat``…) with Discord
    (``bst discord sync [--guild ID]``).

    On demand, never at every start: Discord rate-limits command updates, and
    global commands take up to an hour to appear. ``--guild`` copies them to
    one server, where they appear at once (for testing). Returns the names
    Discord confirmed.
    """
    use_api_base(http)
    client = make_client(DiscordConfig(), application_id=application_id)

    async def ignore(interaction: discord.Interaction[Any], privacy: Privacy, text: str) -> None:
        return None

    tree = build_command_tree(client, games, ignore)
    try:
        try:
            await log_in(client, token)
            guild = discord.Object(id=guild_id) if guild_id else None
            if guild is not None:
                tree.copy_global_to(guild=guild)
            synced = await tree.sync(guild=guild)
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as error:
            # (A network failure reads "network error talking to Discord: …".)
            raise delivery_error(error) from error
        return [command.name for command in synced]
    finally:
        await client.close()
