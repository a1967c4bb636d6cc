"""``bst check-config --online`` for Discord: the token, the intents, the permissions.

Before anything else runs, a new host wants to know what Discord will refuse: a
token it does not take (the gateway would close 4004), a Message Content intent the
configuration asks for and the application has not switched on (4014), and servers
where the bot may not read or write the channels games are played in.
"""

from __future__ import annotations

import aiohttp
import discord

from bot.adapters.discord.client import (
    gateway_refusal,
    log_in,
    make_client,
    token_refused,
    use_api_base,
)
from bot.config import DiscordConfig
from bot.host.messages import DeliveryError

# What a game's channel needs of the bot, by discord.py's name for the permission.
NEEDED = {
    "view_channel": "View Channels",
    "send_messages": "Send Messages",
    "read_message_history": "Read Message History",
    "attach_files": "Attach Files",
}
WANTED = {"manage_messages": "Manage Messages (to delete a move typed in a channel)"}


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
        guilds = await client.http.get_guilds(200)
        if not guilds:
            wrong.append(
                "Discord: the bot is in no server yet: invite it (Developer Portal → your "
                "application → OAuth2 → URL Generator, scopes bot and applications.commands)"
            )
        for guild in guilds:
            permissions = discord.Permissions(int(guild.get("permissions", 0)))
            missing = [label for name, label in NEEDED.items() if not getattr(permissions, name)]
            lacking = [label for name, label in WANTED.items() if not getattr(permissions, name)]
            where = f"Discord server {guild.get('name', '?')!r} ({guild['id']})"
            if missing:
                wrong.append(f"{where}: the bot lacks {', '.join(missing)}")
            else:
                note = f" (without {', '.join(lacking)})" if lacking else ""
                fine.append(f"{where}: permissions OK{note}")
    except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as error:
        wrong.append(f"Discord: could not be asked ({type(error).__name__}: {error})")
    finally:
        await client.close()
    return fine, wrong
