"""The Bluesky adapter: mentions, tag search and chat in, posts and chat messages out.

Adapters translate, nothing more (design.md rule 5), and know no game: the games'
tags come in from the wiring. Public orders are posts with the game's tag
(``#sonar f11``), in the game's thread or naming the game (``#sonar 7 f11``); private
orders are chat messages. One account runs several games at once, each in a thread of
its own. Everything goes through the atproto SDK's ``AsyncClient``, polled (a poll is
also the catch-up after downtime). The pieces, one job each:

* :mod:`~bot.adapters.bluesky.client`: the login, its saved session, the chat proxy;
* :mod:`~bot.adapters.bluesky.budgets`: write points, rate windows, mentions, pace;
* :mod:`~bot.adapters.bluesky.inbound`: posts and chat messages as Inbound;
* :mod:`~bot.adapters.bluesky.catch_up`: the polls of notifications, search and chat;
* :mod:`~bot.adapters.bluesky.sending`: posts and chat messages out;
* :mod:`~bot.adapters.bluesky.media`: pictures re-encoded within 1 MB;
* :mod:`~bot.adapters.bluesky.text`: graphemes, facets, a long answer in parts, a DM
  split to fit;
* :mod:`~bot.adapters.bluesky.threads`: which game's thread a post belongs to;
* :mod:`~bot.adapters.bluesky.check`: ``bst check-config --online`` for Bluesky.

Chat messages carry no pictures: a board goes to a player as text (the adapter accepts
no attachments for a DM, so the host sends the game's text board), and the host sends
their private web page's link when the web page is served.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from atproto_client import exceptions as atproto_errors

from bot.adapters.bluesky.budgets import BudgetSpent, RateWindows
from bot.adapters.bluesky.catch_up import Polling
from bot.adapters.bluesky.client import PLATFORM, Connection, LoginRefused, SessionStore
from bot.adapters.bluesky.people import People
from bot.adapters.bluesky.section import BlueskyConfig
from bot.adapters.bluesky.sending import Delivery, lacks_dm_access, session_refused
from bot.adapters.bluesky.threads import Threads
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

PROFILE = "app.bsky.actor.profile"
SELF_LABELS = "com.atproto.label.defs#selfLabels"
DMS = f"{PLATFORM}/dms"  # the relay lane of chat messages


def has_bot_label(profile: dict[str, Any]) -> bool:
    labels = profile.get("labels") or {}
    return any(value.get("val") == "bot" for value in labels.get("values") or ())


class BlueskyAdapter:
    """Bluesky as the host sees it: :class:`~bot.host.messages.ChatAdapter` for
    ``"bluesky"``."""

    platform = PLATFORM
    capabilities = Capabilities(
        lanes=True,
        mentions=True,
        picks_attachments=True,
        watched_link=True,
        # Every answer spends the write budget and reaches a stranger (the tag search
        # reads anyone's post with the tag; a bot that DMs people who only used a hashtag
        # is labelled spam): chatter that is no command is recorded, not answered.
        answers_cost=True,
        # A public board message is its picture; a DM's is its text (see
        # accepts_attachments).
        shows_pictures=True,
        # A person types here: a step that cannot be undone (leaving a game) is confirmed.
        confirms_final_steps=True,
    )

    def __init__(
        self,
        config: BlueskyConfig,
        *,
        password: str,
        cursors: CursorStore,
        games: Sequence[Game[Any, Any]],
        base_url: str | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self._password = password
        self._cursors = cursors
        self._sleep = sleep
        self.connection = Connection(
            handle=config.handle,
            password=password,
            base_url=base_url or config.api_base,
            sessions=SessionStore(cursors, config.session_file),
            windows=RateWindows(clock),
        )
        self.link = PlatformLink()
        self._tasks: list[asyncio.Task[None]] = []
        # Each player's handle now, by DID: a mention is made from the DID alone.
        self.people = People(clock)
        self.threads = Threads(cursors, [game.tag for game in games])
        self._polling = Polling(
            self.connection,
            tags=[game.tag for game in games] if config.search_hashtag else [],
            since=None if config.backfill else clock(),
            threads=self.threads,
            people=self.people,
        )
        self._delivery = Delivery(
            self.connection,
            config=config,
            games=[(game.tag, game.title) for game in games],
            people=self.people,
            sleep=sleep,
            clock=clock,
            posted=self.threads.learn,
            threads=self.threads,
        )

    def __repr__(self) -> str:
        return f"<BlueskyAdapter {self.config.handle}>"

    @property
    def delivery(self) -> Delivery:
        return self._delivery

    def _redact(self, text: str) -> str:
        return text.replace(self._password, "***") if self._password else text

    def login_refused(self) -> str:
        return (
            f"Bluesky refused the bot's login as {self.config.handle!r}: put an app password "
            f"of that account (Settings → Privacy and security → App passwords, with access "
            f"to direct messages) in {self.config.app_password_env}"
        )

    # -- inbound ----------------------------------------------------------

    async def start(self, on_inbound: InboundHandler) -> None:
        """Log in (resuming the saved session), label the account a bot, and start the
        polls. Raises PlatformRefused when the login is refused."""
        try:
            await self.connection.login()
            if self.config.label_bot:
                await self.label_as_bot()
        except LoginRefused:
            raise PlatformRefused(self.login_refused()) from None
        except Exception as error:
            # Bluesky down, a 429, the network: Bluesky alone is degraded; every poll
            # tries the login again.
            self.link.down()
            log.warning(
                "Bluesky start-up could not log in (%s); polling will retry: %s",
                type(error).__name__,
                self._redact(str(error)),
            )
        posts_every = parse_duration(self.config.notifications_poll).total_seconds()
        dm_every = parse_duration(self.config.dm_poll).total_seconds()

        async def poll_posts() -> None:
            await self._polling.notifications(self._cursors, on_inbound)
            await self._polling.search(self._cursors, on_inbound)

        async def poll_dms() -> None:
            await self._polling.dms(self._cursors, on_inbound)

        self._tasks = [
            asyncio.create_task(self._poll_forever("notifications", posts_every, poll_posts)),
            asyncio.create_task(self._poll_forever("chat", dm_every, poll_dms)),
        ]

    async def label_as_bot(self) -> bool:
        """Put the ``bot`` self-label on the account's profile record (keeping the rest of
        it); True when it was added now."""
        client = self.connection.pds
        did = self.connection.did
        params = {"repo": did, "collection": PROFILE, "rkey": "self"}
        try:
            current = await self.connection.call(
                "com.atproto.repo.getRecord",
                lambda: client.com.atproto.repo.get_record(params=params),
            )
        except atproto_errors.BadRequestError:
            current = {}  # no profile record yet
        profile = dict(current.get("value") or {"$type": PROFILE})
        if has_bot_label(profile):
            return False
        labels = dict(profile.get("labels") or {"$type": SELF_LABELS, "values": []})
        labels["values"] = [*(labels.get("values") or []), {"val": "bot"}]
        profile["labels"] = labels
        data: dict[str, Any] = {**params, "record": profile}
        if current.get("cid"):
            data["swapRecord"] = current["cid"]  # not over a change made meanwhile
        self._delivery.points.spend(2 if current else 3)
        await self.connection.call(
            "com.atproto.repo.putRecord", lambda: client.com.atproto.repo.put_record(data=data)
        )
        log.info("Bluesky: labelled the account %s as a bot", self.connection.handle)
        return True

    async def _poll_forever(
        self, name: str, interval: float, poll: Callable[[], Awaitable[None]]
    ) -> None:
        """Poll until cancelled; a failed poll is logged and retried next time. Each
        poll's outcome is the connection's state (the host's health signal); a login
        Bluesky refuses stops the host, saying what to fix."""
        while True:
            delay = interval
            session = self.connection.generation
            try:
                await poll()
                self.link.up()
            except asyncio.CancelledError:
                raise
            except LoginRefused:
                self.link.refuse(PlatformRefused(self.login_refused()))
                return
            except atproto_errors.UnauthorizedError as error:
                self.link.down()
                if name == "chat" and lacks_dm_access(error):
                    log.warning(
                        "Bluesky refuses the bot's chat: the app password in %s was made "
                        "without access to direct messages",
                        self.config.app_password_env,
                    )
                    delay = max(interval, 300.0)
                else:
                    await self.connection.forget(session)
            except BudgetSpent as error:
                delay = max(interval, error.retry_after)
                log.info("Bluesky %s poll waits %.0f s for its rate limit", name, delay)
            except atproto_errors.RateLimitExceededError as error:
                reset = error.reset_at.timestamp() - time.time() if error.reset_at else interval
                delay = max(interval, error.retry_after or reset)
                log.warning("Bluesky %s poll rate-limited; next in %.0f s", name, delay)
            except Exception as error:
                self.link.down()
                if session_refused(error):  # an expired token the SDK did not refresh
                    await self.connection.forget(session)
                log.warning("Bluesky %s poll failed: %s", name, self._redact(str(error)))
            await self._sleep(delay)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        await self.connection.close()

    async def fetch_since(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """One full poll of notifications, the tag search and the chat log."""
        count = await self._polling.notifications(cursors, on_inbound)
        count += await self._polling.search(cursors, on_inbound)
        count += await self._polling.dms(cursors, on_inbound)
        return count

    # -- outbound ---------------------------------------------------------

    async def send(self, address: Address, outbound: Outbound) -> str:
        """A post for a public address, chat messages for a user address."""
        return await self._delivery.send(address, outbound)

    def lane(self, address: Address) -> str:
        """The relay lane of a message to ``address`` (see :mod:`bot.host.outbox.relay`): chat
        messages travel in one of their own, so their pace (``[bluesky] dms_per_minute``)
        holds back only DMs, never a turn's post, a reminder or an answer in a thread."""
        return DMS if address.is_dm else PLATFORM

    def accepts_attachments(self, address: Address) -> bool:
        """Chat messages carry text only: a DM's board goes as the game's text board."""
        return not address.is_dm

    def mention(self, address: Address) -> str:
        """``@handle`` of the player's DID: the handle it is known by (the name it joined
        with until one of its posts or its profile says otherwise). When the post is made
        it is written as that DID's handle then, with a mention facet to the DID (within
        the hour's budget); see :mod:`~bot.adapters.bluesky.people`."""
        handle = self.people.write(address.user_id or "", address.user_name or "")
        return f"@{handle}" if handle else "@player"
