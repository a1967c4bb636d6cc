"""Mastodon mentions as the host's :class:`~bot.host.messages.Inbound`.

Every message to the bot is a status that mentions it, delivered as a ``mention``
notification: a ``direct`` one is private (a DM: moves, placements), any other is
public (``@bstbot #sonar f11``). Identity is the account id on the bot's instance,
never the handle; the name is the handle (``@alice``, ``@bob@example.social``), which
is also how a public post notifies them.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from bot.adapters.mastodon.client import PLATFORM
from bot.adapters.mastodon.text import handle, plain_text, strip_leading_mentions
from bot.host.messages import Inbound, InboundKind, Sender


def parse_time(value: Any) -> datetime:
    """A status's ``created_at`` (Mastodon.py gives a datetime; JSON an ISO string)."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str) and value:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    else:
        return datetime.now(UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def sender(account: Mapping[str, Any]) -> Sender:
    avatar = account.get("avatar_static") or account.get("avatar")
    return Sender(
        PLATFORM,
        str(account["id"]),
        handle(str(account.get("acct") or account.get("username") or account["id"])),
        str(avatar) if avatar else None,
    )


def status_text(status: Mapping[str, Any]) -> str:
    """The words of a status for the host: its HTML as text, leading handles dropped."""
    return strip_leading_mentions(plain_text(str(status.get("content") or "")))


def is_direct(status: Mapping[str, Any]) -> bool:
    return status.get("visibility") == "direct"


def status_inbound(status: Mapping[str, Any], channel: str, text: str) -> Inbound:
    """A status that mentions the bot, in ``channel`` (its game's thread, or for a DM the
    game it names, else "")."""
    return Inbound(
        platform=PLATFORM,
        channel=channel,
        sender=sender(status["account"]),
        kind=InboundKind.DM if is_direct(status) else InboundKind.PUBLIC,
        text=text,
        message_id=str(status["id"]),
        sent_at=parse_time(status.get("created_at")),
    )
