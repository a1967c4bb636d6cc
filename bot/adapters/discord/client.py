"""The discord.py client the adapter runs: its intents, its shards, its API base, its login.

Shared by the running bot (:mod:`bot.adapters.discord.adapter`) and ``bst discord
sync`` (:mod:`bot.adapters.discord.sync`), which log in the same way.
"""

from __future__ import annotations

from typing import Any

import discord
import yarl

from bot.adapters.discord.pacing import GlobalPace
from bot.adapters.discord.section import DiscordConfig
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


def make_client(
    config: DiscordConfig, *, application_id: int | None = None, pace: GlobalPace | None = None
) -> discord.Client:
    """An auto-sharded client: one shard set by config, or as many as Discord recommends;
    with ``pace``, each of its requests waits for its turn there (see :mod:`.pacing`)."""
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
    if pace is not None:
        options["http_trace"] = pace.trace()
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
    """Point discord.py at another HTTP API base (``[discord] api_base``: a shared
    rate-limit proxy, a recording proxy, a local fake).

    discord.py keeps the base on ``Route`` for the whole process, as its own
    API-version switch does; with none given it stays Discord's own.
    """
    if http:
        discord.http.Route.BASE = http.rstrip("/")


async def use_gateway_of(client: discord.Client) -> None:
    """Connect to the gateway the API base names (``GET {api_base}/gateway/bot``).

    discord.py asks for it only when Discord picks the shard count; with
    ``shard_count`` set it dials Discord's own gateway, which a proxy or a local
    fake is not. The URL may be a plain ``ws://`` one.
    """
    _, url, _ = await client.http.get_bot_gateway()
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)


def token_refused(token_env: str) -> str:
    return (
        "Discord refused the bot token: put your bot's token (Developer Portal → your "
        "application → Bot → Reset Token) in the environment variable "
        f"{token_env} ([discord] token_env)"
    )


def gateway_refusal(code: int, config: DiscordConfig) -> str | None:
    """What to fix, for a gateway close code after which reconnecting cannot help
    (discord.py gives up on these: 4004, 4010–4014); None for any other code."""
    if code == 4004:
        return f"{token_refused(config.token_env)} (gateway close 4004: authentication failed)"
    if code == 4014:
        return (
            "Discord refused a privileged intent (gateway close 4014: disallowed intents). "
            "[discord] message_content = true needs the Message Content Intent switched on: "
            "Developer Portal → your application → Bot → Privileged Gateway Intents → "
            "Message Content Intent, then restart; or set message_content = false to play "
            "by slash commands and DMs only"
        )
    if code == 4013:
        asked = "guilds, guild messages, direct messages" + (
            ", message content" if config.message_content else ""
        )
        return (
            f"Discord refused the gateway intents (gateway close 4013: invalid intents; bst "
            f"asked for {asked}): update bst and discord.py, and check [discord] "
            "message_content is true or false"
        )
    if code in (4010, 4011):
        return (
            f"Discord refused the shards (gateway close {code}: "
            f"{'invalid shard' if code == 4010 else 'sharding required'}): set [discord] "
            "shard_count = 0 to let Discord decide, or a shard_count Discord accepts with "
            "shard_ids below it"
        )
    if code == 4012:
        return "Discord refused the gateway API version (close 4012): update discord.py"
    return None


async def log_in(client: discord.Client, token: str, token_env: str = "DISCORD_TOKEN") -> None:
    """Log in over HTTP only (checks the token); a refused token is a permanent failure."""
    try:
        await client.login(token)
    except discord.LoginFailure:
        raise DeliveryError(token_refused(token_env), permanent=True) from None
