"""Reading X: mentions, the optional hashtag search and DMs, each behind its cursor.

X's API v2 has no push for mentions or DMs on the pay-per-use tiers, so they are
*polled*; a poll is also the catch-up after downtime. Every poll hands its messages
over oldest first, and a cursor moves only past what the host took. Pages are walked
with tweepy's :class:`~tweepy.asynchronous.AsyncPaginator`.

The very first poll of an account (no cursor yet) starts from the adapter's start,
not from X's last 30 days: a stale ``join`` or ``new`` sent to the account before the
bot ran is not a command to act on now, and every post read is billed. Mentions and
search ask X for ``start_time``; DM events have no such parameter, so the first page
is read and only the events stamped at or after the start are handed over.
``[twitter] backfill = true`` reads back instead (one page of each).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from tweepy.asynchronous import AsyncPaginator

from bot.adapters.twitter.client import PLATFORM, XClient
from bot.adapters.twitter.inbound import (
    DM_EVENT_FIELDS,
    TWEET_FIELDS,
    USER_FIELDS,
    dm_inbound,
    dm_text,
    is_retweet,
    parse_time,
    post_inbound,
    post_text,
    users_by_id,
)
from bot.adapters.twitter.threads import Threads
from bot.host.messages import CursorStore, InboundHandler

log = logging.getLogger(__name__)

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
        since: float | None,
        threads: Threads,
    ) -> None:
        """``since``: the moment (epoch seconds) the very first poll (no cursor yet)
        starts from; ``None`` to read back ``initial_pages`` pages instead (X bills every
        post read)."""
        self._client = client
        self._bot_user_id = bot_user_id
        self._tags = tuple(tags)
        self._search_with_bearer = search_with_bearer
        self._initial_pages = max(1, initial_pages)
        self._since = None if since is None else datetime.fromtimestamp(since, UTC)
        self._threads = threads
        self._mentions_lock = asyncio.Lock()
        self._dm_lock = asyncio.Lock()

    def _window(self, since_id: str | None) -> dict[str, Any]:
        """Where a timeline read starts: after the cursor, else at the start (or back)."""
        if since_id is not None:
            return {"since_id": since_id}
        if self._since is not None:
            return {"start_time": self._since}
        return {"limit": self._initial_pages}

    async def _read_posts(
        self, method: Callable[..., Awaitable[Any]], *args: Any, **kwargs: Any
    ) -> tuple[list[Mapping[str, Any]], dict[str, Mapping[str, Any]], str | None]:
        """Every page of a post timeline; returns (posts, users, newest id)."""
        posts: list[Mapping[str, Any]] = []
        users: dict[str, Mapping[str, Any]] = {}
        newest: str | None = None
        async for body in AsyncPaginator(method, *args, **kwargs):
            posts.extend(body.get("data") or [])
            users.update(users_by_id(body))
            meta = body.get("meta") or {}
            if meta.get("newest_id") and (newest is None or int(meta["newest_id"]) > int(newest)):
                newest = str(meta["newest_id"])
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
                    try:
                        channel, text = await self._threads.of_post(post, post_text(post))
                        inbound = post_inbound(post, users, channel, text)
                    except Exception:
                        # A post that cannot be read now never can be: passing it over is
                        # the only way the posts after it are ever read.
                        log.exception("could not read X post %s; passed over", post.get("id"))
                    else:
                        await on_inbound(inbound)
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
            posts, users, newest = await self._read_posts(
                self._client.get_users_mentions,
                bot_id,
                expansions=["author_id"],
                user_fields=USER_FIELDS,
                tweet_fields=TWEET_FIELDS,
                max_results=100,
                user_auth=True,
                **self._window(since_id),
            )
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
            posts, users, newest = await self._read_posts(
                self._client.search_recent_tweets,
                search_query(self._tags, bot_id),
                expansions=["author_id"],
                user_fields=USER_FIELDS,
                tweet_fields=TWEET_FIELDS,
                max_results=100,
                user_auth=not self._search_with_bearer,
                **self._window(since_id),
            )
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
            pages = AsyncPaginator(
                self._client.get_direct_message_events,
                dm_event_fields=DM_EVENT_FIELDS,
                event_types="MessageCreate",
                expansions=["sender_id"],
                user_fields=USER_FIELDS,
                max_results=100,
                user_auth=True,
                # With no cursor, one page: the newest events are all a first start needs.
                limit=self._initial_pages if last_seen is None else float("inf"),
            )
            async for body in pages:
                users.update(users_by_id(body))
                reached = False
                for event in body.get("data") or []:
                    # Snowflake ids grow with time; "<=" also copes with a
                    # deleted cursor event.
                    if last_seen is not None and int(event["id"]) <= int(last_seen):
                        reached = True
                        break
                    events.append(event)
                if reached:
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
                        and self._after_start(event, last_seen)
                    ):
                        try:
                            channel, text = await self._threads.of_dm(dm_text(event))
                            inbound = dm_inbound(event, users, channel, text)
                        except Exception:
                            log.exception("could not read X DM %s; passed over", event.get("id"))
                        else:
                            await on_inbound(inbound)
                            handled += 1
                    last_done = str(event["id"])
            finally:
                if last_done is not None:
                    await cursors.set(PLATFORM, DM_CURSOR, last_done)
            return handled

    def _after_start(self, event: Mapping[str, Any], last_seen: str | None) -> bool:
        """Past the cursor every event is new; on a first start, only those sent since."""
        if last_seen is not None or self._since is None:
            return True
        return parse_time(event.get("created_at"), str(event["id"])) >= self._since
