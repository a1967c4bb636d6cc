"""Discord events as the host's :class:`~bot.host.messages.Inbound`: who sent what, where.

A slash command, a channel message that starts with a game's tag (``#sonar f11``)
and any DM to the bot become one Inbound. The sender's powers come from Discord's
own facts only (Manage Server, the configured host role); what they may do with
them is the host's business.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import discord

from bot.adapters.discord.client import PLATFORM
from bot.host.messages import Inbound, InboundKind, Sender


def tag_pattern(tags: Iterable[str]) -> re.Pattern[str]:
    """A text that starts with one of ``tags`` as a word of its own, in any case."""
    alternatives = sorted((re.escape(tag) for tag in tags), key=len, reverse=True)
    if not alternatives:
        return re.compile(r"(?!)")  # no game: no channel message is addressed to the bot
    return re.compile(r"^(?:" + "|".join(alternatives) + r")(?![\w-])", re.IGNORECASE)


def avatar_url(user: discord.abc.User) -> str | None:
    """A small PNG avatar: the renderers fetch it with size limits (rule 8)."""
    try:
        return str(user.display_avatar.replace(format="png", size=128).url)
    except (ValueError, AttributeError):
        return str(user.display_avatar.url) if user.display_avatar else None


def is_channel_admin(
    user: discord.abc.User, permissions: discord.Permissions | None, host_role: str
) -> bool:
    """Discord's facts only: Manage Server, or the configured host role (name or id)."""
    if not isinstance(user, discord.Member):
        return False
    if permissions is not None and (permissions.manage_guild or permissions.administrator):
        return True
    if not host_role:
        return False
    wanted = host_role.strip()
    if getattr(user, "guild", None) is not None and any(
        role.name == wanted or str(role.id) == wanted for role in user.roles
    ):
        return True
    # Roles of a guild not in the cache are known only by id.
    return wanted.isdigit() and int(wanted) in getattr(user, "_roles", ())


def is_dm_channel(channel: object) -> bool:
    """A DM with the bot, not a server channel whose server is not (yet) in the cache."""
    if isinstance(channel, discord.abc.PrivateChannel):
        return True
    return isinstance(channel, discord.PartialMessageable) and (
        channel.type == discord.ChannelType.private
    )


def inbound_from_interaction(
    interaction: discord.Interaction[Any],
    kind: InboundKind,
    text: str,
    *,
    host_role: str,
    message_id: str | None = None,
) -> Inbound:
    """A slash command, already turned into the text a player could have typed.
    ``message_id``: the id the host knows it by (default: the interaction's)."""
    in_guild = interaction.guild_id is not None
    user = interaction.user
    return Inbound(
        platform=PLATFORM,
        channel=str(interaction.channel_id) if in_guild and interaction.channel_id else "",
        sender=Sender(
            platform=PLATFORM,
            user_id=str(user.id),
            display_name=user.display_name,
            avatar_url=avatar_url(user),
            is_channel_admin=is_channel_admin(
                user, interaction.permissions if in_guild else None, host_role
            ),
        ),
        kind=kind,
        text=text,
        message_id=message_id or str(interaction.id),
        sent_at=discord.utils.snowflake_time(interaction.id),
        community=str(interaction.guild_id) if in_guild else "",
    )


def without_mention_of(bot_id: int | None, text: str) -> str:
    """``<@BOT> #sonar f11`` → ``#sonar f11``: a leading mention of the bot addresses it.

    Without the privileged message-content intent, Discord still gives the content of
    a message that mentions the bot, and then the content starts with the mention
    (``<@id>``, or ``<@!id>`` from older clients), ahead of the game's tag."""
    if bot_id is None:
        return text
    return re.sub(rf"^<@!?{bot_id}>\s*", "", text)


def inbound_from_message(
    message: discord.Message,
    *,
    is_dm: bool,
    tags: re.Pattern[str],
    host_role: str,
    bot_id: int | None = None,
) -> Inbound | None:
    """A channel message behind a game's tag (``tags``: see :func:`tag_pattern`), or any
    DM; ``None`` for the rest (chatter, bots, empty DMs). A leading mention of the bot
    (``bot_id``) is dropped first."""
    if message.author.bot:
        return None
    text = without_mention_of(bot_id, message.content.strip())
    if is_dm:
        if not text:
            return None
    elif not tags.match(text):
        return None
    author = message.author
    permissions = None
    # A server not (yet) in the cache gives a member without its guild.
    if isinstance(author, discord.Member) and getattr(author, "guild", None) is not None:
        permissions = author.guild_permissions
    return Inbound(
        platform=PLATFORM,
        channel="" if is_dm else str(message.channel.id),
        sender=Sender(
            platform=PLATFORM,
            user_id=str(author.id),
            display_name=author.display_name,
            avatar_url=avatar_url(author),
            is_channel_admin=is_channel_admin(author, permissions, host_role),
        ),
        kind=InboundKind.DM if is_dm else InboundKind.PUBLIC,
        text=text,
        message_id=str(message.id),
        sent_at=message.created_at,
        community="" if is_dm else _guild_id(message),
    )


def _guild_id(message: discord.Message) -> str:
    guild = getattr(message, "guild", None)
    if guild is not None:
        return str(guild.id)
    channel_guild = getattr(message.channel, "guild", None)
    return str(channel_guild.id) if channel_guild is not None else ""


class Memberships:
    """The servers each person was seen in (their messages and commands there), so that
    a DM says which servers its sender belongs to (the host lets a DM `join` a server's
    game only for its members). The bot asks Discord for no member list (that needs the
    privileged members intent): what it saw is what it knows, most recent people kept
    up to ``limit``; after a restart a person is known again once seen in a server."""

    def __init__(self, limit: int = 100_000) -> None:
        self._limit = limit
        self._seen: OrderedDict[str, frozenset[str]] = OrderedDict()

    def placed(self, inbound: Inbound, cached: Iterable[object] = ()) -> Inbound:
        """``inbound`` with what is known of its sender's servers: a message posted in a
        server teaches it; a DM carries every server its sender was seen in, with the
        ``cached`` guilds discord.py shares with them (``User.mutual_guilds``)."""
        user_id = inbound.sender.user_id
        known = self._seen.get(user_id, frozenset())
        if inbound.community:
            if inbound.community not in known:
                self._seen[user_id] = known | {inbound.community}
            self._seen.move_to_end(user_id)
            while len(self._seen) > self._limit:
                self._seen.popitem(last=False)
            return inbound
        shared = frozenset(str(getattr(guild, "id", "")) for guild in cached) - {""}
        return replace(inbound, sender=replace(inbound.sender, communities=known | shared))
