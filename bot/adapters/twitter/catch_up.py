"""Reading X: mentions, the optional hashtag search and DMs, each behind its cursor.

X's API v2 has no push for mentions or DMs on the pay-per-use tiers, so they are
*polled*; a poll is also the catch-up after downtime. Every poll hands its messages
over oldest first, and a cursor moves only past what the host took.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from bot.adapters.twitter.client import PLATFORM, XClient
from bot.adapters.twitter.inbound import (
    DM_EVENT_FIELDS,
    TWEET_FIELDS,
    USER_FIELDS,
    dm_inbound,
    is_retweet,
    post_inbound,
    users_by_id,
)
from bot.host.messages import CursorStore, InboundHandler

MENTIONS_CURSOR = "mentions_since_id"
SEARCH_CURSOR = "search_since_id"
DM_CURSOR = "dm_last_event_id"


def search_query(tags: Sequence[str], bot_id: str) -> str:
    """Recent search for any of the games' tags, without retweets or the bot's own posts
    (``(#sonar OR #uboat) -is:retweet -from:ID``)."""
    wanted = " OR ".join(tags)
    if len(tags) > 1:
        wanted = f"({wanted})"
    return f"{wanted} -is:retweet -from:{bot_id}"


def _max_id(items: Sequence[Mapping[str, Any]]) -> str | None:
    return max((str(i["id"]) for i in items), key=int, default=None)


class Polling:
    """One X account's polls: what arrived since each cursor, handed to the host."""

    def __init__(
        self,
        client: XClient,
        *,
        bot_user_id: Callable[[], Awaitable[str]],
        tags: Sequence[str],
        search_with_bearer: bool,
        initial_pages: int,
    ) -> None:
        """``initial_pages`` bounds how far back the very first poll (no cursor yet)
        reads: X bills every post read."""
        self._client = client
        self._bot_user_id = bot_user_id
        self._tags = tuple(tags)
        self._search_with_bearer = search_with_bearer
        self._initial_pages = max(1, initial_pages)
        self._mentions_lock = asyncio.Lock()
        self._dm_lock = asyncio.Lock()

    async def _read_posts(
        self,
        fetch: Callable[[str | None], Awaitable[dict[str, Any]]],
        since_id: str | None,
    ) -> tuple[list[Mapping[str, Any]], dict[str, Mapping[str, Any]], str | None]:
        """Every page of a post timeline; returns (posts, users, newest id)."""
        posts: list[Mapping[str, Any]] = []
        users: dict[str, Mapping[str, Any]] = {}
        newest: str | None = None
        token: str | None = None
        pages = 0
        while True:
            body = await fetch(token)
            pages += 1
            posts.extend(body.get("data") or [])
            users.update(users_by_id(body))
            meta = body.get("meta") or {}
            if meta.get("newest_id") and (newest is None or int(meta["newest_id"]) > int(newest)):
                newest = str(meta["newest_id"])
            token = meta.get("next_token")
            if not token or (since_id is None and pages >= self._initial_pages):
                break
        for post in posts:
            if newest is None or int(post["id"]) > int(newest):
                newest = str(post["id"])
        return posts, users, newest

    async def _hand_over_posts(
        self,
        cursors: CursorStore,
        cursor_key: str,
        posts: Sequence[Mapping[str, Any]],
        users: Mapping[str, Mapping[str, Any]],
        newest: str | None,
        on_inbound: InboundHandler,
    ) -> int:
        """Oldest first; the cursor moves only past what was handled."""
        bot_id = await self._bot_user_id()
        handled = 0
        last_done: str | None = None
        try:
            for post in sorted(posts, key=lambda p: int(p["id"])):
                author = str(post.get("author_id") or "")
                if author and author != bot_id and not is_retweet(post):
                    await on_inbound(post_inbound(post, users))
                    handled += 1
                last_done = str(post["id"])
        finally:
            if last_done is not None:
                # All handled: jump to the batch's newest id; else stop after the last one done.
                done = newest if newest and last_done == _max_id(posts) else last_done
                await cursors.set(PLATFORM, cursor_key, done)
        return handled

    async def mentions(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        async with self._mentions_lock:
            bot_id = await self._bot_user_id()
            since_id = await cursors.get(PLATFORM, MENTIONS_CURSOR)

            async def fetch(token: str | None) -> dict[str, Any]:
                result: dict[str, Any] = await self._client.get_users_mentions(
                    bot_id,
                    since_id=since_id,
                    pagination_token=token,
                    expansions=["author_id"],
                    user_fields=USER_FIELDS,
                    tweet_fields=TWEET_FIELDS,
                    max_results=100,
                    user_auth=True,
                )
                return result

            posts, users, newest = await self._read_posts(fetch, since_id)
            return await self._hand_over_posts(
                cursors, MENTIONS_CURSOR, posts, users, newest, on_inbound
            )

    async def search(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """Recent search for every game's tag (opt-in: every post read is billed)."""
        if not self._tags:
            return 0
        async with self._mentions_lock:
            bot_id = await self._bot_user_id()
            since_id = await cursors.get(PLATFORM, SEARCH_CURSOR)

            async def fetch(token: str | None) -> dict[str, Any]:
                result: dict[str, Any] = await self._client.search_recent_tweets(
                    search_query(self._tags, bot_id),
                    since_id=since_id,
                    next_token=token,
                    expansions=["author_id"],
                    user_fields=USER_FIELDS,
                    tweet_fields=TWEET_FIELDS,
                    max_results=100,
                    user_auth=not self._search_with_bearer,
                )
                return result

            posts, users, newest = await self._read_posts(fetch, since_id)
            return await self._hand_over_posts(
                cursors, SEARCH_CURSOR, posts, users, newest, on_inbound
            )

    async def dms(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """DM events have no ``since_id``: page back (newest first) until the
        last event already seen, then hand over oldest first."""
        async with self._dm_lock:
            bot_id = await self._bot_user_id()
            last_seen = await cursors.get(PLATFORM, DM_CURSOR)
            events: list[Mapping[str, Any]] = []
            users: dict[str, Mapping[str, Any]] = {}
            token: str | None = None
            pages = 0
            while True:
                body: dict[str, Any] = await self._client.get_direct_message_events(
                    dm_event_fields=DM_EVENT_FIELDS,
                    event_types="MessageCreate",
                    expansions=["sender_id"],
                    user_fields=USER_FIELDS,
                    max_results=100,
                    pagination_token=token,
                    user_auth=True,
                )
                pages += 1
                users.update(users_by_id(body))
                reached = False
                for event in body.get("data") or []:
                    # Snowflake ids grow with time; "<=" also copes with a
                    # deleted cursor event.
                    if last_seen is not None and int(event["id"]) <= int(last_seen):
                        reached = True
                        break
                    events.append(event)
                token = (body.get("meta") or {}).get("next_token")
                if reached or not token or (last_seen is None and pages >= self._initial_pages):
                    break

            handled = 0
            last_done: str | None = None
            try:
                for event in sorted(events, key=lambda e: int(e["id"])):
                    sender_id = str(event.get("sender_id") or "")
                    if (
                        event.get("event_type", "MessageCreate") == "MessageCreate"
                        and sender_id
                        and sender_id != bot_id
                    ):
                        await on_inbound(dm_inbound(event, users))
                        handled += 1
                    last_done = str(event["id"])
            finally:
                if last_done is not None:
                    await cursors.set(PLATFORM, DM_CURSOR, last_done)
            return handled
