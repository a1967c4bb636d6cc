"""The Mastodon adapter: mentions in (streamed, and polled after every reconnect), posts
and direct posts out.

Adapters translate, nothing more (design.md rule 5), and know no game: the games' tags
come in from the wiring. Everything said to the bot is a status that mentions it — a
public order is ``@bstbot #sonar f11``, a move a direct post ``@bstbot move …`` — read by
mention because an instance's admins may switch hashtag feeds off. One account runs
several games at once, each in the thread under its opening post (shared with X:
:class:`~bot.adapters.game_threads.GameThreads`). The pieces, one job each:

* :mod:`~bot.adapters.mastodon.client`: Mastodon.py off the event loop, paced by the
  rate-limit headers;
* :mod:`~bot.adapters.mastodon.reading`: mention notifications since the cursor;
* :mod:`~bot.adapters.mastodon.streaming`: the notification stream, in a thread;
* :mod:`~bot.adapters.mastodon.sending`: posts and direct posts, with pictures;
* :mod:`~bot.adapters.mastodon.text`: status HTML as text, direct posts' addressing;
* :mod:`~bot.adapters.mastodon.check`: ``bst check-config --online``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

from mastodon import MastodonAPIError, MastodonUnauthorizedError

from bot.adapters.game_threads import GameThreads
from bot.adapters.mastodon.client import PLATFORM, MastodonClient, RateLimited
from bot.adapters.mastodon.reading import Reading
from bot.adapters.mastodon.section import MastodonConfig
from bot.adapters.mastodon.sending import Delivery, InstanceLimits, api_reason
from bot.adapters.mastodon.streaming import NotificationStream
from bot.adapters.mastodon.text import handle
from bot.adapters.mentions import OwnMentions
from bot.games.base import Game
from bot.games.duration import parse_duration
from bot.host.messages import (
    Address,
    Capabilities,
    CursorStore,
    InboundHandler,
    Outbound,
    PlatformLink,
    PlatformRefused,
)

log = logging.getLogger(__name__)

# The waits before reconnecting after streams that ended soon after they opened (or
# never did), one after another; a stream open this long counts as having lasted.
RECONNECT_SECONDS = (1.0, 5.0, 15.0, 60.0)
STREAM_LASTED_SECONDS = 60.0
FIRST_POST_KEY = "first_post:"  # first_post:<thread> → the bot's first post in it


def _reconnect_wait(short_lived: int) -> float:
    return RECONNECT_SECONDS[min(max(short_lived - 1, 0), len(RECONNECT_SECONDS) - 1)]


class MastodonAdapter:
    """Mastodon as the host sees it: :class:`~bot.host.messages.ChatAdapter` for
    ``"mastodon"``."""

    platform = PLATFORM
    capabilities = Capabilities(
        mentions=True,
        watched_link=True,
        shows_pictures=True,  # a board message is its picture (with its alt text)
        # A person types here: a step that cannot be undone (leaving a game) is confirmed.
        confirms_final_steps=True,
    )

    def __init__(
        self,
        config: MastodonConfig,
        *,
        access_token: str,
        cursors: CursorStore,
        games: Sequence[Game[Any, Any]],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self._token = access_token
        self._cursors = cursors
        self._sleep = sleep
        self.client = MastodonClient(
            config.instance, access_token, media_uploads=config.media_per_30_minutes, clock=clock
        )
        self.link = PlatformLink()
        self._account: dict[str, Any] = {}
        self._limits: InstanceLimits | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.own_mentions = OwnMentions()  # the only mentions a message keeps live
        self._stream: NotificationStream | None = None
        self._first_posts: dict[str, str] = {}  # thread → the bot's first post in it
        self.threads = GameThreads(
            cursors, [game.tag for game in games], platform=PLATFORM, is_thread=str.isdigit
        )
        self.reading = Reading(
            self.client,
            threads=self.threads,
            bot_account_id=self.bot_account_id,
            # A first start answers nothing sent before it (unless told to read back).
            since=None if config.backfill else clock(),
        )
        self._delivery = Delivery(
            self.client,
            visibility=config.post_visibility,
            games=[(game.tag, game.title) for game in games],
            limits=self.limits,
            acct_of=self._acct_of,
            posts_per_minute=config.posts_per_minute,
            dms_per_minute=config.dms_per_minute,
            sleep=sleep,
            clock=clock,
            posted=self._posted,
            author_of=self.reading.author_of,
            stand_in=self._first_post,
            redact=self._redact,
        )

    def __repr__(self) -> str:
        return f"<MastodonAdapter {self.client.instance}>"

    def _redact(self, text: str) -> str:
        return text.replace(self._token, "***") if self._token else text

    # -- the account and its instance ----------------------------------------

    async def account(self) -> dict[str, Any]:
        """The bot's own account (``GET /api/v1/accounts/verify_credentials``)."""
        if not self._account:
            self._account = dict(await self.client.call("account_verify_credentials"))
        return self._account

    async def bot_account_id(self) -> str:
        return str((await self.account())["id"])

    async def limits(self) -> InstanceLimits:
        """The instance's limits on a status, read once from ``/api/v2/instance``."""
        if self._limits is None:
            self._limits = InstanceLimits.of(await self.client.call("instance_v2"))
        return self._limits

    async def set_up_account(self) -> None:
        """The bot flag, and private mentions from strangers let through: Mastodon (4.3+)
        files them under "filtered" by default, and a player's moves are private
        mentions from someone the bot does not follow."""
        account = await self.account()
        if not account.get("bot"):
            await self.client.call("account_update_credentials", bot=True)
            log.info("Mastodon: the account is now marked as a bot")
        try:
            policy = await self.client.call("notifications_policy")
            if policy.get("for_private_mentions") != "accept":
                await self.client.call("update_notifications_policy", for_private_mentions="accept")
                log.info("Mastodon: private mentions from anyone are now accepted")
        except MastodonAPIError as error:
            # An instance before 4.3 has no policy (and filters nothing); a token without
            # write:notifications cannot change it.
            log.warning(
                "Mastodon: could not set the notification policy (%s); if players' DMs land "
                "under filtered notifications, accept private mentions in the account's "
                "notification settings",
                api_reason(error),
            )

    def token_refused(self) -> str:
        return (
            "Mastodon refused the access token (401): in the bot account's Preferences → "
            'Development, make an application with the scopes "read write", and put its '
            f"access token in {self.config.access_token_env}"
        )

    # -- inbound ------------------------------------------------------------------

    async def start(self, on_inbound: InboundHandler) -> None:
        """Read the account (a refused token stops the host), set it up, and start
        reading mentions: the stream, with a poll after every (re)connect; or polling."""
        try:
            await self.account()
            await self.limits()
            if self.config.set_up_account:
                await self.set_up_account()
        except MastodonUnauthorizedError:
            raise PlatformRefused(self.token_refused()) from None
        except Exception as error:
            # The instance down, a 429, the network: Mastodon alone is degraded, and the
            # reading loop tries again.
            self.link.down()
            log.warning("Mastodon start-up could not read the account (%s): %s",
                        type(error).__name__, self._redact(str(error)))  # fmt: skip
        self._tasks = [asyncio.create_task(self._read_forever(on_inbound))]

    async def _poll(self, on_inbound: InboundHandler) -> float | None:
        """One poll; the link's state from its outcome. Returns a wait the budget asks
        for, or None."""
        try:
            await self.reading.poll(self._cursors, on_inbound)
        except RateLimited as error:
            log.info("Mastodon poll waits %.0f s for its rate budget", error.retry_after)
            return error.retry_after
        self.link.up()
        return None

    async def _read_forever(self, on_inbound: InboundHandler) -> None:
        """Read mentions until cancelled: the stream, and after it ends (or with the
        stream off, every ``poll``) a poll since the cursor. A stream that keeps ending
        soon after it opened is tried again less and less often (each try costs a poll
        of the account's 300 requests per 5 minutes), a stream that lasted at once."""
        poll_every = parse_duration(self.config.poll).total_seconds()
        short_lived = 0
        while True:
            delay = poll_every
            try:
                if self.config.stream:
                    lasted = await self._stream_once(on_inbound)
                    short_lived = 0 if lasted >= STREAM_LASTED_SECONDS else short_lived + 1
                    delay = min(poll_every, _reconnect_wait(short_lived))
                # The stream ended (or is off): what came meanwhile is read now.
                delay = await self._poll(on_inbound) or delay
            except asyncio.CancelledError:
                raise
            except MastodonUnauthorizedError:
                self.link.refuse(PlatformRefused(self.token_refused()))
                return
            except Exception as error:
                self.link.down()
                short_lived += 1
                log.warning("Mastodon reading failed: %s", self._redact(str(error)))
                if self.config.stream:
                    delay = min(poll_every, _reconnect_wait(short_lived))
            await self._sleep(delay)

    async def _stream_once(self, on_inbound: InboundHandler) -> float:
        """One connection of the stream: once it is open, a poll since the cursor, then
        its notifications as they come, until it ends. Returns how long it was open."""
        stream = NotificationStream(self.client)
        self._stream = stream
        opened_at: float | None = None
        stream.start()
        try:
            while True:
                kind, value = await stream.events.get()
                if kind == "open":
                    opened_at = time.monotonic()
                    wait = await self._poll(on_inbound)
                    if wait is not None:
                        await self._sleep(wait)
                        await self.reading.poll(self._cursors, on_inbound)
                    log.info("Mastodon: streaming mentions")
                elif kind == "notification":
                    await self.reading.streamed(self._cursors, value, on_inbound)
                else:
                    self.link.down()
                    log.warning("Mastodon stream closed (%s); reading since the last mention",
                                self._redact(str(value)))  # fmt: skip
                    return 0.0 if opened_at is None else time.monotonic() - opened_at
        finally:
            stream.close()
            self._stream = None

    async def stop(self) -> None:
        if self._stream is not None:
            self._stream.close()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    async def fetch_since(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """Every mention since the cursor (the host's catch-up before each deadline)."""
        return await self.reading.poll(cursors, on_inbound)

    # -- outbound -------------------------------------------------------------------

    async def send(self, address: Address, outbound: Outbound) -> str:
        """A post for a public address, a direct post for a user address."""
        # A name is no mention: only the adapter's own of the people named stay live.
        text = self.own_mentions.defuse(outbound.text, outbound.mentions)
        return await self._delivery.send(address, replace(outbound, text=text))

    def mention(self, address: Address) -> str:
        """``@handle`` (``@alice``, ``@bob@example.social``): how a post notifies them. A
        direct post writes every handle but its recipient's without the ``@``."""
        user_id = address.user_id or ""
        acct = self.reading.accounts.get(user_id) or (address.user_name or "").strip()
        return self.own_mentions.note(user_id, handle(acct) if acct.strip("@") else "player")

    async def _acct_of(self, address: Address) -> str:
        """The recipient's handle, from their mentions, else their account."""
        user_id = address.user_id or ""
        acct = self.reading.accounts.get(user_id)
        if not acct:
            account = await self.client.call("account", user_id)
            acct = str(account["acct"])
            self.reading.accounts[user_id] = acct
        return acct

    async def _posted(self, thread: str, status_id: str, text: str) -> None:
        """A post in a game's thread: its replies are that thread's, and it names its game.
        The bot's first post in a thread is kept (with the cursors, so a restart knows
        it): should the thread's first status be deleted, the bot answers that one."""
        if thread:
            self.reading.learn_root(status_id, thread)
            await self.threads.learn(thread, text)
            # Only a post naming its game is kept: one key a game, not one a thread.
            names_game = await self.threads.thread_named(text) == thread
            if names_game and await self._first_post(thread) is None:
                self._first_posts[thread] = status_id
                await self._cursors.set(PLATFORM, FIRST_POST_KEY + thread, status_id)

    async def _first_post(self, thread: str) -> str | None:
        """The bot's first post in ``thread``, where it has posted there."""
        if thread not in self._first_posts:
            stored = await self._cursors.get(PLATFORM, FIRST_POST_KEY + thread)
            if stored is None:
                return None
            self._first_posts[thread] = stored
        return self._first_posts[thread]
