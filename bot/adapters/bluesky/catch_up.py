"""Reading Bluesky: notifications, the search of the games' tags and chat, each behind
its cursor.

Nothing is pushed to a bot over XRPC, so each is *polled*; a poll is also the catch-up
after downtime. Notifications and the chat log are read back to the cursor; mentions
come from notifications (``mention``, ``reply``, ``quote``) **and** from a search of each
game's tag, because Bluesky silently drops some mentions of little-followed accounts
from notifications, and a post with the tag that does not mention the bot is an order
all the same. A post found both ways is one post (its ``at://`` URI is its id): it is
handed over once, and the host ignores any redelivery after a restart.

Notifications are asked for by reason (``mention``, ``reply``, ``quote``): likes,
reposts and follows would otherwise crowd an order out of the pages one poll reads. A
poll reads at most :data:`MAX_PAGES` pages back; when that cap is hit before the cursor
(a long downtime, a storm of mentions) the moments it could not reach are kept as a
*gap*, and the next polls close it from the tag search (``searchPosts`` with ``since``
and ``until``), where every order is, page-capped the same way until nothing is left.

Every poll hands its messages over oldest first, and a cursor moves only past what the
host took. The very first poll of an account (no cursor yet) starts from the adapter's
start: a stale ``join`` or ``new`` sent before the bot ran is not a command to act on now
(``[bluesky] backfill = true`` acts on the last page instead).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any

from bot.adapters.bluesky.client import PLATFORM, Connection
from bot.adapters.bluesky.inbound import POST, dm_inbound, parse_time, post_inbound, post_text
from bot.adapters.bluesky.people import People
from bot.adapters.bluesky.threads import Threads
from bot.host.messages import CursorStore, Inbound, InboundHandler

log = logging.getLogger(__name__)

# A post cursor is "indexedAt uri" of the newest post handled: posts are handed over in
# that order, so one after it is new and one at or before it was handed over.
NOTIFICATIONS_CURSOR = "notifications_seen"
SEARCH_CURSOR = "search_seen:"  # search_seen:#sonar
CHAT_CURSOR = "chat_log"  # the chat log's cursor (a rev)
# "since until" (indexedAt moments): posts no poll could read, behind a page cap.
GAP_CURSOR = "unread_gap"
PAGE = 50  # items a page: notifications and search allow 100, the chat log sets its own
MAX_PAGES = 20  # how far back one poll reads (1,000 posts): a cap, not a cursor
_POST_REASONS = ("mention", "reply", "quote")
_SEEN_KEEP = 2000  # post URIs remembered, so a post both searched and notified is one


def _stamp(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).isoformat().replace("+00:00", "Z")


def _position(cursor: str) -> tuple[datetime, str]:
    """A post cursor's (moment, uri); a bare moment (a first start's) sorts before any
    post of that moment."""
    moment, _, uri = cursor.partition(" ")
    return parse_time(moment), uri


def _moment(cursor: str) -> str:
    return cursor.partition(" ")[0]


def _just_after(moment: str) -> str:
    """A moment a millisecond after ``moment``: ``until`` excludes its own moment, and a
    post of the moment the cap stopped at may not have been read."""
    return _stamp(parse_time(moment).timestamp() + 0.001)


class Polling:
    """One account's polls: what arrived since each cursor, handed to the host."""

    def __init__(
        self,
        connection: Connection,
        *,
        tags: Sequence[str],
        since: float | None,
        threads: Threads,
        people: People | None = None,
    ) -> None:
        """``since``: the moment (epoch seconds) the very first poll (no cursor yet)
        starts from; None to act on the newest page instead. ``people``: each author's
        handle now, learned from their DID's posts (a mention of them writes it)."""
        self._connection = connection
        self._tags = tuple(tags)
        self._since = None if since is None else _stamp(since)
        self._threads = threads
        self._posts_lock = asyncio.Lock()
        self._chat_lock = asyncio.Lock()
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._profiles: dict[str, Mapping[str, Any]] = {}
        self._people = people if people is not None else People()

    def _learn(self, inbound: Inbound) -> Inbound:
        name = inbound.sender.display_name
        if name.startswith("@"):
            self._people.learn(inbound.sender.user_id, name[1:])
        return inbound

    def _first_seen(self, uri: str) -> bool:
        if uri in self._seen:
            return False
        self._seen[uri] = None
        while len(self._seen) > _SEEN_KEEP:
            self._seen.popitem(last=False)
        return True

    async def _hand_over_posts(
        self,
        cursors: CursorStore,
        cursor_key: str | None,
        posts: list[tuple[str, Mapping[str, Any], Mapping[str, Any], str]],
        on_inbound: InboundHandler,
    ) -> int:
        """``posts``: (uri, author, record, indexedAt), any order; handed over oldest
        first, the cursor moved past each as it is done (``cursor_key`` None: a gap's
        posts, behind the cursor, handed over all; the host ignores any it had)."""
        handled = 0
        bot = self._connection.did
        cursor = await cursors.get(PLATFORM, cursor_key) if cursor_key else None
        if cursor is None and self._since and cursor_key:
            # A first start: from now on the cursor says where it began.
            cursor = self._since
            await cursors.set(PLATFORM, cursor_key, cursor)
        done = _position(cursor) if cursor else None
        for uri, author, record, indexed_at in sorted(
            posts, key=lambda p: (parse_time(p[3]), p[0])
        ):
            if done is not None and (parse_time(indexed_at), uri) <= done:
                continue
            if author.get("did") != bot and self._first_seen(uri):
                try:
                    channel, text = await self._threads.of_post(uri, record, post_text(record))
                    inbound = self._learn(post_inbound(uri, author, indexed_at, channel, text))
                except Exception:
                    # A post that cannot be read now never can be: passing it over is the
                    # only way the posts after it are ever read.
                    log.exception("could not read Bluesky post %s; passed over", uri)
                else:
                    try:
                        await on_inbound(inbound)
                    except BaseException:
                        self._seen.pop(uri, None)
                        raise
                    handled += 1
            if cursor_key:
                await cursors.set(PLATFORM, cursor_key, f"{indexed_at} {uri}")
        return handled

    async def _gap_left(self, cursors: CursorStore, since: str, until: str) -> None:
        """Posts between ``since`` and ``until`` were left unread by a page cap: the gap
        (one span, grown to hold the new one) the tag search closes."""
        known = await cursors.get(PLATFORM, GAP_CURSOR)
        if known:
            old_since, _, old_until = known.partition(" ")
            since = min(since, old_since, key=parse_time)
            until = max(until, old_until, key=parse_time)
        log.warning("Bluesky: a poll's page cap left posts from %s to %s unread", since, until)
        await cursors.set(PLATFORM, GAP_CURSOR, f"{since} {until}")

    async def notifications(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """Mentions, replies and quotes of the bot since the cursor."""
        async with self._posts_lock:
            await self._connection.login()
            seen = await cursors.get(PLATFORM, NOTIFICATIONS_CURSOR) or self._since
            found: list[tuple[str, Mapping[str, Any], Mapping[str, Any], str]] = []
            page_cursor: str | None = None
            client = self._connection.pds
            reached = False
            oldest = ""
            for _ in range(MAX_PAGES if seen else 1):
                params: dict[str, Any] = {"limit": PAGE, "reasons": list(_POST_REASONS)}
                if page_cursor:
                    params["cursor"] = page_cursor
                body = await self._connection.call(
                    "app.bsky.notification.listNotifications",
                    partial(client.app.bsky.notification.list_notifications, params=params),
                )
                for item in body.get("notifications") or []:
                    indexed_at = str(item.get("indexedAt") or "")
                    if seen and parse_time(indexed_at) < _position(seen)[0]:
                        reached = True
                        break
                    oldest = indexed_at
                    record = item.get("record") or {}
                    if item.get("reason") in _POST_REASONS and record.get("$type") == POST:
                        found.append((str(item["uri"]), item["author"], record, indexed_at))
                page_cursor = body.get("cursor")
                if reached or not page_cursor:
                    break
            if seen and not reached and page_cursor and oldest:
                await self._gap_left(cursors, _moment(seen), _just_after(oldest))
            return await self._hand_over_posts(cursors, NOTIFICATIONS_CURSOR, found, on_inbound)

    async def _search_tag(
        self, tag: str, since: str | None, until: str | None = None
    ) -> tuple[list[tuple[str, Mapping[str, Any], Mapping[str, Any], str]], str | None]:
        """Posts with ``tag`` from ``since`` to before ``until``, newest first up to the
        page cap; and the moment to search before for the rest when the cap was hit."""
        client = self._connection.pds
        found: list[tuple[str, Mapping[str, Any], Mapping[str, Any], str]] = []
        page_cursor: str | None = None
        for _ in range(MAX_PAGES if since else 1):
            params: dict[str, Any] = {"q": tag, "sort": "latest", "limit": PAGE}
            if since:
                params["since"] = since
            if until:
                params["until"] = until
            if page_cursor:
                params["cursor"] = page_cursor
            body = await self._connection.call(
                "app.bsky.feed.searchPosts",
                partial(client.app.bsky.feed.search_posts, params=params),
            )
            for post in body.get("posts") or []:
                indexed_at = str(post.get("indexedAt") or "")
                if not since or parse_time(indexed_at) >= parse_time(since):
                    found.append((str(post["uri"]), post["author"], post["record"], indexed_at))
            page_cursor = body.get("cursor")
            if not page_cursor:
                return found, None
        unread = _just_after(min((p[3] for p in found), key=parse_time)) if found else None
        return found, unread if since else None

    async def search(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """Recent posts with each game's tag since its cursor; then the gap a page cap
        left, if any."""
        handled = 0
        async with self._posts_lock:
            await self._connection.login()
            for tag in self._tags:
                key = f"{SEARCH_CURSOR}{tag.lower()}"
                seen = await cursors.get(PLATFORM, key) or self._since
                since = _moment(seen) if seen else None
                found, unread = await self._search_tag(tag, since)
                if since and unread:
                    await self._gap_left(cursors, since, unread)
                handled += await self._hand_over_posts(cursors, key, found, on_inbound)
            handled += await self._close_gap(cursors, on_inbound)
        return handled

    async def _close_gap(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """Read the gap's posts from each tag's search (a page cap at a time): what is
        still unread after this stays the gap."""
        gap = await cursors.get(PLATFORM, GAP_CURSOR)
        if not gap or not self._tags:
            return 0
        since, _, until = gap.partition(" ")
        handled = 0
        left: list[str] = []
        for tag in self._tags:
            found, unread = await self._search_tag(tag, since, until)
            handled += await self._hand_over_posts(cursors, None, found, on_inbound)
            if unread:
                left.append(unread)
        rest = f"{since} {max(left, key=parse_time)}" if left else ""
        await cursors.set(PLATFORM, GAP_CURSOR, rest)
        if not rest:
            log.info("Bluesky: the posts from %s to %s were read from the tag search", since, until)
        return handled

    async def _profiles_of(self, dids: set[str]) -> None:
        wanted = sorted(did for did in dids if did not in self._profiles)
        client = self._connection.pds
        for start in range(0, len(wanted), 25):
            chunk = wanted[start : start + 25]
            try:
                body = await self._connection.call(
                    "app.bsky.actor.getProfiles",
                    partial(client.app.bsky.actor.get_profiles, params={"actors": chunk}),
                )
            except Exception as error:  # a name is a nicety: the DID still identifies them
                log.info("Bluesky: could not read profiles (%s)", type(error).__name__)
                return
            for profile in body.get("profiles") or []:
                self._profiles[str(profile["did"])] = profile

    async def dms(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """The chat log since its cursor: every message sent to the bot."""
        async with self._chat_lock:
            await self._connection.login()
            bot = self._connection.did
            chat = self._connection.chat
            log_cursor = await cursors.get(PLATFORM, CHAT_CURSOR)
            entries: list[Mapping[str, Any]] = []
            last_rev = log_cursor
            for _ in range(MAX_PAGES):
                params: dict[str, Any] = {"cursor": last_rev} if last_rev else {}
                body = await self._connection.call(
                    "chat.bsky.convo.getLog",
                    partial(chat.chat.bsky.convo.get_log, params=params),
                )
                logs = body.get("logs") or []
                entries.extend(logs)
                following = body.get("cursor")
                if not logs or not following or following == last_rev:
                    if following and not logs and log_cursor is None:
                        # A first start with an empty log: begin from here.
                        await cursors.set(PLATFORM, CHAT_CURSOR, str(following))
                    break
                last_rev = following
            messages = {
                id(entry)
                for entry in entries
                if entry.get("$type") == "chat.bsky.convo.defs#logCreateMessage"
                and (entry.get("message") or {}).get("$type") == "chat.bsky.convo.defs#messageView"
                and (entry["message"].get("sender") or {}).get("did") != bot
            }
            await self._profiles_of(
                {str(e["message"]["sender"]["did"]) for e in entries if id(e) in messages}
            )
            handled = 0
            for entry in sorted(entries, key=lambda e: str(e.get("rev") or "")):
                if id(entry) in messages and self._after_start(entry["message"], log_cursor):
                    message = entry["message"]
                    did = str(message["sender"]["did"])
                    try:
                        channel, text = await self._threads.of_dm(
                            str(message.get("text") or "").strip()
                        )
                        inbound = self._learn(
                            dm_inbound(
                                str(entry["convoId"]),
                                message,
                                self._profiles.get(did, {"did": did}),
                                channel,
                                text,
                            )
                        )
                    except Exception:
                        log.exception("could not read Bluesky chat message; passed over")
                    else:
                        await on_inbound(inbound)
                        handled += 1
                if entry.get("rev"):
                    await cursors.set(PLATFORM, CHAT_CURSOR, str(entry["rev"]))
            return handled

    def _after_start(self, message: Mapping[str, Any], log_cursor: str | None) -> bool:
        """Past the cursor every message is new; on a first start, only those sent since."""
        if log_cursor is not None or self._since is None:
            return True
        return parse_time(message.get("sentAt")) >= parse_time(self._since)
