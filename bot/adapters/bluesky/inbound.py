"""Bluesky posts and chat messages as the host's :class:`~bot.host.messages.Inbound`.

Identity on Bluesky is the account's DID, never its handle: handles change and are
reused. A post's moment is its ``indexedAt``, the time Bluesky saw it: its record's
``createdAt`` is whatever the poster's app wrote, and an order must count for the turn
it arrived in. A chat message's ``sentAt`` is the chat service's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from bot.adapters.bluesky.client import PLATFORM
from bot.adapters.bluesky.text import strip_leading_mentions
from bot.host.messages import Inbound, InboundKind, Sender

POST = "app.bsky.feed.post"


def parse_time(value: object) -> datetime:
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)
        except ValueError:
            pass
    return datetime.now(UTC)


def sender(profile: Mapping[str, Any]) -> Sender:
    """A person from a profile view: their DID, named ``@handle``."""
    handle = str(profile.get("handle") or "")
    avatar = profile.get("avatar")
    return Sender(
        PLATFORM,
        str(profile["did"]),
        f"@{handle}" if handle and handle != "handle.invalid" else str(profile["did"]),
        str(avatar) if avatar else None,
    )


def post_text(record: Mapping[str, Any]) -> str:
    """A post's words for the host, the leading handles (a reply's addressing) dropped."""
    return strip_leading_mentions(str(record.get("text") or ""))


def post_inbound(
    uri: str, author: Mapping[str, Any], indexed_at: object, channel: str, text: str
) -> Inbound:
    """A public post (a mention, a reply, a search hit) in ``channel``: the thread of its
    game (see :mod:`~bot.adapters.bluesky.threads`)."""
    return Inbound(
        platform=PLATFORM,
        channel=channel,
        sender=sender(author),
        kind=InboundKind.PUBLIC,
        text=text,
        message_id=uri,
        sent_at=parse_time(indexed_at),
    )


def dm_inbound(
    convo_id: str, message: Mapping[str, Any], profile: Mapping[str, Any], channel: str, text: str
) -> Inbound:
    """A chat message to the bot, about the game in ``channel`` when it names one."""
    return Inbound(
        platform=PLATFORM,
        channel=channel,
        sender=sender(profile),
        kind=InboundKind.DM,
        text=text,
        message_id=f"chat:{convo_id}:{message['id']}",
        sent_at=parse_time(message.get("sentAt")),
    )
