"""Reading Mastodon: mention notifications, since the last one seen, in order.

Everything sent to the bot is a ``mention`` notification (a public mention, or a
``direct`` status: a DM). They are read two ways, one cursor for both:

* **polled**: ``GET /api/v1/notifications?types[]=mention&min_id=<cursor>``, page after
  page forward from the cursor (``min_id``, not ``since_id``: ``since_id`` returns the
  *newest* page, and a gap behind it would be lost), each page oldest first;
* **streamed** (:mod:`~bot.adapters.mastodon.streaming`): each notification the
  stream brings, as it comes.

A stream that drops does not replay what was sent while it was down, so every
(re)connect is followed by a poll since the cursor before the stream's own
notifications are handed over: nothing is lost across a drop, and the cursor moves only
past what the host took. The first poll of an account (no cursor yet) hands over only
what was sent after the adapter started (``[mastodon] backfill`` reads one page back).

A status's game: a public status belongs to the thread it is in (its first ancestor,
from ``GET /api/v1/statuses/:id/context``, cached) or to the game it names by tag and
number (:class:`~bot.adapters.game_threads.GameThreads`, shared with X); a direct one to
the game it names, else the sender's one game.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from mastodon import MastodonAPIError, MastodonNotFoundError

from bot.adapters.game_threads import GameThreads
from bot.adapters.mastodon.client import PLATFORM, MastodonClient
from bot.adapters.mastodon.inbound import is_direct, parse_time, status_inbound, status_text
from bot.host.messages import CursorStore, InboundHandler

log = logging.getLogger(__name__)

NOTIFICATIONS_CURSOR = "notifications_min_id"
PAGE = 80  # Mastodon's largest page of notifications
ROOTS_KEPT = 4096


def is_gone(error: Exception) -> bool:
    """The instance says the status is no more (404) or not the bot's to see (403):
    asking again cannot help, unlike a 429, a 5xx, a network failure or the budget."""
    if isinstance(error, MastodonNotFoundError):
        return True
    status = error.args[1] if isinstance(error, MastodonAPIError) and len(error.args) > 1 else None
    return status in (403, 410)


def _newer(a: str, b: str | None) -> bool:
    """Mastodon ids are numeric strings that grow with time (compared as numbers)."""
    if b is None:
        return True
    if a.isdigit() and b.isdigit():
        return int(a) > int(b)
    return (len(a), a) > (len(b), b)


class Reading:
    """One account's mention notifications, handed to the host once each, in order."""

    def __init__(
        self,
        client: MastodonClient,
        *,
        threads: GameThreads,
        bot_account_id: Any,
        since: float | None,
    ) -> None:
        """``bot_account_id()``: the bot's own account id (its own statuses are not
        orders). ``since``: the moment (epoch seconds) a first start reads from; None to
        read back one page."""
        self._client = client
        self._threads = threads
        self._bot_account_id = bot_account_id
        self._since = None if since is None else datetime.fromtimestamp(since, UTC)
        self._lock = asyncio.Lock()
        self._roots: OrderedDict[str, str] = OrderedDict()  # status id → its thread's root
        self.accounts: dict[str, str] = {}  # account id → acct, for direct posts
        self._authors: OrderedDict[str, str] = OrderedDict()  # status id → its author's acct

    def author_of(self, status_id: str) -> str | None:
        """The handle of a status the bot read (its answer names them, to notify them)."""
        return self._authors.get(status_id)

    def learn_root(self, status_id: str, root: str) -> None:
        self._roots[status_id] = root
        self._roots.move_to_end(status_id)
        while len(self._roots) > ROOTS_KEPT:
            self._roots.popitem(last=False)

    async def _root_of(self, status: Mapping[str, Any]) -> str:
        """The first status of ``status``'s thread (its own id when it starts one)."""
        status_id = str(status["id"])
        parent = status.get("in_reply_to_id")
        if not parent:
            return status_id
        parent = str(parent)
        if parent in self._roots:
            return self._roots[parent]
        context = await self._client.call("status_context", status_id)
        ancestors = context.get("ancestors") or []
        root = str(ancestors[0]["id"]) if ancestors else parent
        if ancestors:
            root = await self._game_thread(ancestors) or root
        self.learn_root(parent, root)
        return root

    async def _game_thread(self, ancestors: Sequence[Mapping[str, Any]]) -> str | None:
        """The game's thread of a thread whose first status is gone (its author deleted
        it, or was suspended: Mastodon's ancestors then begin after the gap, at a status
        still replying to it) or is the bot's own (posted at the top level when the
        thread's first was gone): the thread of the game the bot's first post in it names
        (``#sonar game 7 is open``), so replies stay with their game."""
        bot_id = await self._bot_account_id()
        first = ancestors[0]
        if not first.get("in_reply_to_id") and str(first["account"]["id"]) != bot_id:
            return None  # an unbroken thread someone else started: its own
        for ancestor in ancestors:
            if str(ancestor["account"]["id"]) == bot_id:
                known = self._roots.get(str(ancestor["id"]))
                return known or await self._threads.thread_named(status_text(ancestor))
        return None

    async def poll(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """Every mention since the cursor, page by page, oldest first."""
        async with self._lock:
            handled = 0
            cursor = await cursors.get(PLATFORM, NOTIFICATIONS_CURSOR)
            first = cursor is None
            while True:
                kwargs: dict[str, Any] = {"types": ["mention"], "limit": PAGE}
                if cursor is not None:
                    kwargs["min_id"] = cursor
                page = list(await self._client.call("notifications", **kwargs))
                if not page:
                    break
                batch = sorted(page, key=lambda n: int(str(n["id"])))
                handled += await self._hand_over(
                    cursors, batch, on_inbound, first_start=first and self._since is not None
                )
                cursor = str(batch[-1]["id"])
                if first or len(page) < PAGE:
                    break  # a first start reads one page: the newest is all it needs
            return handled

    async def streamed(
        self, cursors: CursorStore, notification: Mapping[str, Any], on_inbound: InboundHandler
    ) -> int:
        """One notification the stream brought (after the poll that followed its
        connection): handed over if it is past the cursor."""
        async with self._lock:
            cursor = await cursors.get(PLATFORM, NOTIFICATIONS_CURSOR)
            if not _newer(str(notification["id"]), cursor):
                return 0
            return await self._hand_over(cursors, [notification], on_inbound, first_start=False)

    async def _hand_over(
        self,
        cursors: CursorStore,
        notifications: Sequence[Mapping[str, Any]],
        on_inbound: InboundHandler,
        *,
        first_start: bool,
    ) -> int:
        """Oldest first; the cursor moves only past what was handled."""
        bot_id = await self._bot_account_id()
        handled = 0
        last_done: str | None = None
        try:
            for notification in notifications:
                status = notification.get("status")
                if (
                    notification.get("type") == "mention"
                    and isinstance(status, Mapping)
                    and str(status["account"]["id"]) != bot_id
                    and not (first_start and self._before_start(status))
                ):
                    try:
                        inbound = await self._inbound(status)
                    except Exception as error:
                        if not is_gone(error):
                            # A 429, a 5xx, a timeout, the budget refused: the status is
                            # still there, and the cursor stays before it to read it again.
                            raise
                        # Deleted (404) or hidden from the bot (403): it never can be read,
                        # and passing it over is the only way the ones after it are read.
                        log.warning("Mastodon status %s is gone (%s); passed over",
                                    status.get("id"), error)  # fmt: skip
                    else:
                        await on_inbound(inbound)
                        handled += 1
                last_done = str(notification["id"])
        finally:
            if last_done is not None:
                await cursors.set(PLATFORM, NOTIFICATIONS_CURSOR, last_done)
        return handled

    def _before_start(self, status: Mapping[str, Any]) -> bool:
        return self._since is not None and parse_time(status.get("created_at")) < self._since

    async def _inbound(self, status: Mapping[str, Any]) -> Any:
        account = status["account"]
        acct = str(account.get("acct") or account.get("username"))
        self.accounts[str(account["id"])] = acct
        self._authors[str(status["id"])] = acct
        while len(self._authors) > ROOTS_KEPT:
            self._authors.popitem(last=False)
        text = status_text(status)
        if is_direct(status):
            channel, text = await self._threads.of_dm(text)
        else:
            root = await self._root_of(status)
            channel, text = await self._threads.of_reply(str(status["id"]), root, text)
            self.learn_root(str(status["id"]), root)
        return status_inbound(status, channel, text)
