"""``bst check-config --online`` for Discord: the token, the intents, the permissions.

Before anything else runs, a new host wants to know what Discord will refuse: a
token it does not take (the gateway would close 4004), a Message Content intent the
configuration asks for and the application has not switched on (4014), and servers
where the bot may not read or write the channels games are played in.
"""

from __future__ import annotations

from typing import Any

import aiohttp
import discord

from bot.adapters.discord.client import (
    gateway_refusal,
    log_in,
    make_client,
    token_refused,
    use_api_base,
)
from bot.adapters.discord.permissions import missing_permissions
from bot.adapters.discord.section import DiscordConfig
from bot.host.messages import DeliveryError

GUILD_PAGE = 200  # Discord's most servers in one GET /users/@me/guilds


async def check_discord(config: DiscordConfig, token: str) -> tuple[list[str], list[str]]:
    """(what is fine, what must be fixed), each a line for the person at the keyboard."""
    fine: list[str] = []
    wrong: list[str] = []
    use_api_base(config.api_base or None)
    client = make_client(config)
    try:
        try:
            await log_in(client, token, config.token_env)
        except DeliveryError:
            return fine, [f"Discord: {token_refused(config.token_env)}"]
        me = client.user
        fine.append(f"Discord: the token is the bot {me} ({me.id if me else '?'})")
        application = await client.application_info()
        flags = application.flags
        content = flags.gateway_message_content or flags.gateway_message_content_limited
        if config.message_content and not content:
            wrong.append(f"Discord: {gateway_refusal(4014, config)}")
        else:
            asked = "with" if config.message_content else "without"
            fine.append(f"Discord: the intents are allowed ({asked} message content)")
        guilds = await every_guild(client)
        if not guilds:
            wrong.append(
                "Discord: the bot is in no server yet: invite it (Developer Portal → your "
                "application → OAuth2 → URL Generator, scopes bot and applications.commands)"
            )
        for guild in guilds:
            # The same list ``/KIND new`` checks in a channel, here for the server's roles
            # (a channel's own settings may still take some away: /KIND new says so).
            permissions = discord.Permissions(int(guild.get("permissions", 0)))
            missing = missing_permissions(permissions, in_thread=False)
            where = f"Discord server {guild.get('name', '?')!r} ({guild['id']})"
            if missing:
                lacks = ", ".join(f"{label} ({why})" for label, why in missing)
                wrong.append(f"{where}: the bot lacks {lacks}")
            else:
                fine.append(f"{where}: permissions OK")
    except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as error:
        wrong.append(f"Discord: could not be asked ({type(error).__name__}: {error})")
    finally:
        await client.close()
    return fine, wrong


async def every_guild(client: discord.Client) -> list[dict[str, Any]]:
    """Every server the bot is in, page by page (Discord gives at most 200 at a time)."""
    found: list[dict[str, Any]] = []
    after: int | None = None
    while True:
        page = list(await client.http.get_guilds(GUILD_PAGE, after=after))
        found.extend(dict(guild) for guild in page)
        if len(page) < GUILD_PAGE:
            return found
        after = max(int(guild["id"]) for guild in page)
