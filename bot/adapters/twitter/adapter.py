"""The X (Twitter) adapter: mentions and DMs in, posts and DMs out.

Adapters translate, nothing more (design.md rule 5), and know no game: the games'
tags come in from the wiring. On X a bot may answer only posts that mention it,
so a public order is a mention such as ``@bot #sonar f11``; private orders arrive
as DMs. One account runs several games at once, each in a thread of its own
(:mod:`~bot.adapters.twitter.threads`). Both are *polled* with tweepy 4.17's
:class:`tweepy.asynchronous.AsyncClient`, OAuth 1.0a user context of the bot
account, ``wait_on_rate_limit=False`` so nothing ever blocks the event loop.
The pieces, one job each:

* :mod:`~bot.adapters.twitter.client`: the signed connection to X (and why it
  subclasses tweepy's client); :mod:`~bot.adapters.twitter.budgets` its rate
  budgets; :mod:`~bot.adapters.twitter.credentials` the account's keys;
* :mod:`~bot.adapters.twitter.inbound`: posts and DM events as Inbound;
* :mod:`~bot.adapters.twitter.catch_up`: the polls of mentions, search and DMs;
* :mod:`~bot.adapters.twitter.sending`: posts and DMs out;
* :mod:`~bot.adapters.twitter.media`: the v2 chunked media upload;
* :mod:`~bot.adapters.twitter.text`: the 280-character budget, the mute line;
* :mod:`~bot.adapters.twitter.threads`: which game's thread a post belongs to;
* :mod:`~bot.adapters.twitter.check`: ``bst check-config --online`` for X.

Each poll's outcome is the adapter's :attr:`~TwitterAdapter.link` (the host's health
signal); keys X refuses (401) stop the host, saying which to fix.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

import aiohttp
import tweepy

from bot.adapters.mentions import OwnMentions
from bot.adapters.twitter.budgets import RateBudgetExhausted, RateBudgets
from bot.adapters.twitter.catch_up import Polling
from bot.adapters.twitter.client import DEFAULT_BASE_URL, PLATFORM, XClient
from bot.adapters.twitter.credentials import TwitterCredentials
from bot.adapters.twitter.section import TwitterConfig
from bot.adapters.twitter.sending import Delivery
from bot.adapters.twitter.threads import Threads
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


DMS = f"{PLATFORM}/dms"  # the relay lane of DMs


class TwitterAdapter:
    """X as the host sees it: :class:`~bot.host.messages.ChatAdapter` for ``"twitter"``.

    ``games`` are the registered games (from the wiring): the optional hashtag
    search looks for any of their tags, and a public post ends with the mute line
    of the game it names."""

    platform = PLATFORM
    capabilities = Capabilities(
        lanes=True,
        mentions=True,
        watched_link=True,
        # Every answer is a paid post or DM: the host answers no public chatter here.
        answers_cost=True,
        shows_pictures=True,  # a board message is its picture: no text board
        # A person types here: a step that cannot be undone (leaving a game) is confirmed.
        confirms_final_steps=True,
    )

    def __init__(
        self,
        config: TwitterConfig,
        *,
        credentials: TwitterCredentials,
        cursors: CursorStore,
        games: Sequence[Game[Any, Any]],
        base_url: str | None = None,
        session_factory: Callable[[], aiohttp.ClientSession] | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.time,
        initial_pages: int = 1,
    ) -> None:
        """``sleep`` and ``clock`` are injectable for tests (media status polls,
        rate-limit arithmetic, the moment a first start reads from). With
        ``[twitter] backfill``, ``initial_pages`` bounds how far back the very first
        poll (no cursor yet) reads: X bills every post read."""
        self.config = config
        self._credentials = credentials
        self._cursors = cursors
        self._session_factory = session_factory
        self._session: aiohttp.ClientSession | None = None
        self._sleep = sleep
        self.budgets = RateBudgets(clock)
        self._client = XClient(
            credentials,
            # ``base_url`` (tests) wins over the config's api_base; empty: X's own.
            base_url=base_url or config.api_base or DEFAULT_BASE_URL,
            session_provider=self._get_session,
            budgets=self.budgets,
        )
        self._bot_user_id = config.bot_user_id or ""
        self._tasks: list[asyncio.Task[None]] = []
        self.link = PlatformLink()
        self._forbidden_said: dict[str, str] = {}  # poll name → the 403 explained once
        self.threads = Threads(cursors, [game.tag for game in games])
        self._polling = Polling(
            self._client,
            bot_user_id=self.bot_user_id,
            tags=[game.tag for game in games],
            search_with_bearer=bool(credentials.bearer_token),
            initial_pages=initial_pages,
            # A first start answers nothing sent before it (unless told to read back).
            since=None if config.backfill else clock(),
            threads=self.threads,
        )
        self.own_mentions = OwnMentions()  # the only mentions a message keeps live
        self._delivery = Delivery(
            self._client,
            config=config,
            games=[(game.tag, game.title) for game in games],
            budgets=self.budgets,
            bot_user_id=self.bot_user_id,
            redact=self._redact,
            sleep=sleep,
            posted=self.threads.learn,
            clock=clock,
        )

    def __repr__(self) -> str:
        return f"<TwitterAdapter {self._client.base_url}>"

    @property
    def client(self) -> XClient:
        """The signed connection to X (for ``bst check-config --online``)."""
        return self._client

    # -- plumbing ---------------------------------------------------------

    async def _get_session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            if self._session_factory is not None:
                self._session = self._session_factory()
            else:
                self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))
        return self._session

    def _redact(self, text: str) -> str:
        for value in self._credentials.values():
            text = text.replace(value, "***")
        return text

    async def bot_user_id(self) -> str:
        """The bot account's id: from config, else one ``GET /2/users/me``."""
        if not self._bot_user_id:
            me = await self._client.get_me(user_auth=True)
            self._bot_user_id = str(me["data"]["id"])
        return self._bot_user_id

    # -- inbound ----------------------------------------------------------

    async def start(self, on_inbound: InboundHandler) -> None:
        """Resolve the bot's id and start the mention and DM polling loops.

        Raises :class:`~bot.host.messages.PlatformRefused` when X refuses the keys
        (401); a refusal later, in a poll, reaches the host through :attr:`link`."""
        try:
            await self.bot_user_id()
        except tweepy.Unauthorized:
            raise PlatformRefused(self.keys_refused()) from None
        except Exception as error:
            # X down, a 403, a 429, the network: X alone is degraded (the health signal
            # shows it down), the host and its other platforms go on, and every poll
            # tries again (the bot's id is looked up by the first that can).
            self.link.down()
            log.warning(
                "X start-up could not read the bot account (%s); polling will retry: %s",
                type(error).__name__,
                self._redact(str(error)),
            )
        mentions_every = parse_duration(self.config.mentions_poll).total_seconds()
        dm_every = parse_duration(self.config.dm_poll).total_seconds()

        async def poll_public() -> None:
            await self._polling.mentions(self._cursors, on_inbound)
            if self.config.search_hashtag:
                await self._polling.search(self._cursors, on_inbound)

        async def poll_dms() -> None:
            await self._polling.dms(self._cursors, on_inbound)

        self._tasks = [
            asyncio.create_task(self._poll_forever("mentions", mentions_every, poll_public)),
            asyncio.create_task(self._poll_forever("DMs", dm_every, poll_dms)),
        ]

    async def _poll_forever(
        self, name: str, interval: float, poll: Callable[[], Awaitable[None]]
    ) -> None:
        """Poll until cancelled; a failed poll is logged and retried next time. Each
        poll's outcome is the connection's state, for the host's health signal; keys X
        refuses (401) stop the host, saying which to fix."""
        while True:
            delay = interval
            try:
                await poll()
                self.link.up()
                self._forbidden_said.pop(name, None)
            except asyncio.CancelledError:
                raise
            except tweepy.Unauthorized:
                self.link.refuse(PlatformRefused(self.keys_refused()))
                return
            except tweepy.Forbidden as error:
                # Most often the app's access tier lacks the endpoint: say once what to
                # upgrade, not at every poll (the link shows it down meanwhile).
                self.link.down()
                said = self._forbidden_said.get(name)
                what = tier_refusal(name, self._redact(str(error)))
                if said != what:
                    self._forbidden_said[name] = what
                    log.warning("%s", what)
                else:
                    log.debug("X %s poll still refused (403)", name)
            except RateBudgetExhausted as error:
                delay = max(interval, error.retry_after)
                log.info("X %s poll waits %.0f s for its rate budget", name, delay)
            except tweepy.TooManyRequests as error:
                wait = self.budgets.reset_in(error.response.headers) or interval
                delay = max(interval, wait)
                log.warning("X %s poll rate-limited; next in %.0f s", name, delay)
            except Exception as error:
                self.link.down()
                log.warning("X %s poll failed: %s", name, self._redact(str(error)))
            await self._sleep(delay)

    def keys_refused(self) -> str:
        config = self.config
        return (
            "X refused the bot's keys (401 Unauthorized): put the bot account's keys "
            f"(Developer Portal → your app → Keys and tokens) in {config.api_key_env}, "
            f"{config.api_secret_env}, {config.access_token_env} and "
            f"{config.access_secret_env}; after changing the app's permissions (to read "
            "and write direct messages), regenerate the access token and secret"
        )

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def fetch_since(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """One full poll of mentions (and search, if enabled) and DMs."""
        count = await self._polling.mentions(cursors, on_inbound)
        if self.config.search_hashtag:
            count += await self._polling.search(cursors, on_inbound)
        count += await self._polling.dms(cursors, on_inbound)
        return count

    # -- outbound ---------------------------------------------------------

    async def send(self, address: Address, outbound: Outbound) -> str:
        """A post for a public address, a DM for a user address (see Delivery.send)."""
        # A name is no mention: only the adapter's own of the people named stay live.
        text = self.own_mentions.defuse(outbound.text, outbound.mentions)
        return await self._delivery.send(address, replace(outbound, text=text))

    def lane(self, address: Address) -> str:
        """The relay lane of a message to ``address`` (see :mod:`bot.host.outbox.relay`): DMs
        travel in one of their own, so their pace (``[twitter] dms_per_minute``) holds back
        only DMs, never a turn's post, a reminder or an answer in a thread."""
        return DMS if address.is_dm else PLATFORM

    def mention(self, address: Address) -> str:
        """``@handle``: players are named by their handle (``@alice``) on X."""
        name = (address.user_name or "").strip()
        return self.own_mentions.note(
            address.user_id, name if name.startswith("@") else f"@{name or 'player'}"
        )


def tier_refusal(poll: str, detail: str) -> str:
    """What a 403 on a poll means and what to do about it (said once per poll)."""
    return (
        f"X refused the {poll} poll (403 Forbidden: {detail}). Usually the app's access "
        "tier does not include this endpoint: in the Developer Portal, attach the app to a "
        "Project and choose an access level (Basic or above) that reads mentions and DMs; "
        "after changing the app's permissions, regenerate the access token and secret. "
        "The bot keeps polling and says nothing more until X answers."
    )
