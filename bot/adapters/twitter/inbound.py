"""X posts and DM events as the host's :class:`~bot.host.messages.Inbound`.

On X a bot may answer only posts that mention it, so a public order is a mention
such as ``@bot #sonar f11``; private orders arrive as DMs. Identity on X is the
numeric author id, never the handle: handles change and are reused by other people.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from bot.adapters.twitter.client import PLATFORM
from bot.adapters.twitter.text import strip_leading_mentions, unescape_post_text
from bot.host.messages import Inbound, InboundKind, Sender

# Only values the X API v2 OpenAPI (2.167) enumerates: ``author_id`` and
# ``sender_id`` arrive through their expansions, not as requested fields.
USER_FIELDS = ["profile_image_url", "username", "name"]
TWEET_FIELDS = ["created_at", "conversation_id"]
DM_EVENT_FIELDS = ["created_at", "dm_conversation_id", "event_type", "id", "text"]
TWITTER_EPOCH_MS = 1288834974657  # snowflake ids carry their creation time


def parse_time(value: str | None, snowflake: str) -> datetime:
    """The platform's stamp: ``created_at``, else the time inside the snowflake id
    (an order counts for the turn X stamped it in, however late we poll)."""
    if value:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)
    if snowflake.isdigit() and int(snowflake) > 1 << 22:
        return datetime.fromtimestamp(((int(snowflake) >> 22) + TWITTER_EPOCH_MS) / 1000, UTC)
    return datetime.now(UTC)


def _avatar(user: Mapping[str, Any]) -> str | None:
    """X serves 48 px ``_normal`` avatars; the map draws them bigger."""
    url = user.get("profile_image_url")
    if not isinstance(url, str) or not url:
        return None
    return re.sub(r"_normal(\.\w+)$", r"_400x400\1", url)


def sender(user_id: str, users: Mapping[str, Mapping[str, Any]]) -> Sender:
    """Identity is the numeric id; the handle is only a display name."""
    user = users.get(user_id, {})
    username = user.get("username")
    name = f"@{username}" if username else (user.get("name") or user_id)
    return Sender(PLATFORM, user_id, str(name), _avatar(user))


def users_by_id(body: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    users = (body.get("includes") or {}).get("users") or []
    return {str(u["id"]): u for u in users if isinstance(u, Mapping) and "id" in u}


def is_retweet(post: Mapping[str, Any]) -> bool:
    """A retweet of someone's order is not the retweeter's order."""
    refs = post.get("referenced_tweets") or post.get("referenced_posts") or []
    if any(isinstance(r, Mapping) and r.get("type") == "retweeted" for r in refs):
        return True
    return str(post.get("text", "")).startswith("RT @")


def post_text(post: Mapping[str, Any]) -> str:
    """A post's words for the host: X's escapes undone, the leading handles dropped."""
    return strip_leading_mentions(unescape_post_text(str(post["text"])))


def post_inbound(
    post: Mapping[str, Any],
    users: Mapping[str, Mapping[str, Any]],
    channel: str,
    text: str | None = None,
) -> Inbound:
    """A public post (a mention, or a search hit) in ``channel``: the thread of its game
    (see :mod:`~bot.adapters.twitter.threads`); ``text``: its words (default
    :func:`post_text`)."""
    return Inbound(
        platform=PLATFORM,
        channel=channel,
        sender=sender(str(post.get("author_id") or ""), users),
        kind=InboundKind.PUBLIC,
        text=post_text(post) if text is None else text,
        message_id=str(post["id"]),
        sent_at=parse_time(post.get("created_at"), str(post["id"])),
    )


def dm_text(event: Mapping[str, Any]) -> str:
    return unescape_post_text(str(event.get("text") or "")).strip()


def dm_inbound(
    event: Mapping[str, Any],
    users: Mapping[str, Mapping[str, Any]],
    channel: str = "",
    text: str | None = None,
) -> Inbound:
    """A DM event to the bot, about the game in ``channel`` when it names one."""
    return Inbound(
        platform=PLATFORM,
        channel=channel,
        sender=sender(str(event.get("sender_id") or ""), users),
        kind=InboundKind.DM,
        text=dm_text(event) if text is None else text,
        message_id=str(event["id"]),
        sent_at=parse_time(event.get("created_at"), str(event["id"])),
    )
