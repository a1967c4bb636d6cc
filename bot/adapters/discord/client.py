"""The discord.py client the adapter runs: its intents, its shards, its API base, its login.

Shared by the running bot (:mod:`bot.adapters.discord.adapter`) and ``bst discord
sync`` (:mod:`bot.adapters.discord.sync`), which log in the same way.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.config import DiscordConfig
from bot.host.messages import DeliveryError

PLATFORM = "discord"
# Rate limits longer than this are the outbox's to wait out, not a blocked send.
MAX_RATELIMIT_WAIT = 30.0


def intents_for(config: DiscordConfig) -> discord.Intents:
    """The gateway intents the bot needs, and no more.

    ``message_content`` is privileged: only for orders typed in channels behind a
    game's tag. DMs to the bot carry their content without it.
    """
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.dm_messages = True
    intents.message_content = config.message_content
    return intents


def make_client(config: DiscordConfig, *, application_id: int | None = None) -> discord.Client:
    """An auto-sharded client: one shard set by config, or as many as Discord recommends."""
    shard_count = config.shard_count or None
    shard_ids = list(config.shard_ids) or None
    if shard_ids is not None:
        if shard_count is None:
            raise ValueError("[discord] shard_ids needs shard_count (the total number of shards)")
        wrong = [shard for shard in shard_ids if shard >= shard_count]
        if wrong:
            raise ValueError(
                f"[discord] shard_ids {wrong} must be below shard_count = {shard_count}"
            )
    options: dict[str, Any] = {"shard_count": shard_count, "shard_ids": shard_ids}
    if application_id is not None:
        options["application_id"] = application_id
    return discord.AutoShardedClient(
        intents=intents_for(config),
        **options,
        # Player names come from everywhere: never let a reply ping @everyone or a role.
        allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=True, replied_user=False
        ),
        max_ratelimit_timeout=MAX_RATELIMIT_WAIT,
        chunk_guilds_at_startup=False,
        max_messages=None,
    )


def use_api_base(http: str | None) -> None:
    """Point discord.py at another HTTP API base (a local fake in tests).

    discord.py keeps the base on ``Route`` for the whole process, as its own
    API-version switch does; production leaves it alone.
    """
    if http:
        discord.http.Route.BASE = http.rstrip("/")


async def log_in(client: discord.Client, token: str) -> None:
    """Log in over HTTP only (checks the token); a refused token is a permanent failure."""
    try:
        await client.login(token)
    except discord.LoginFailure:
        raise DeliveryError(
            "Discord refused the token (check DISCORD_TOKEN)", permanent=True
        ) from None
