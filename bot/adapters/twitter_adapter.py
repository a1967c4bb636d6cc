"""The X (Twitter) adapter: mentions and DMs in, posts and DMs out.

Adapters translate, nothing more (design.md rule 5). On X a bot may answer
only posts that mention it, so a public order is a mention such as
``@bstbot #bst H14``; private orders arrive as DMs. Both are *polled* (X's
API v2 has no push for either on the pay-per-use tiers) with tweepy 4.17's
:class:`tweepy.asynchronous.AsyncClient`, OAuth 1.0a user context of the bot
account, ``wait_on_rate_limit=False`` so nothing ever blocks the event loop.

Why the client subclass (:class:`_XClient`) replaces ``request``:

* tweepy hard-codes ``https://api.twitter.com`` as the origin; the adapter
  needs a configurable one (``https://api.x.com`` by default, a local fake
  X in tests). The URL has to be right *before* signing because the OAuth 1.0a
  signature covers the host, so rewriting it afterwards is not an option;
* tweepy logs every request's headers at DEBUG, Authorization included (the
  consumer key and access token); we log method and route only;
* one shared :class:`aiohttp.ClientSession` instead of one per request;
* every response's rate-limit headers are recorded per endpoint, so a send
  whose budget is known to be spent fails fast with ``retry_after``;
* the v2 media upload (which tweepy lacks) reuses the same signed request.

Everything else — the endpoint methods, parameter processing and the error
classes — is tweepy's own, and the tests run it against a fake X server.

Identity on X is the numeric author id, never the handle: handles change and
are reused by other people.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import aiohttp
import tweepy
from oauthlib.oauth1 import Client as OAuthClient
from tweepy.asynchronous import AsyncClient
from yarl import URL

from bot.adapters.twitter_media import FormPart, upload_media
from bot.adapters.twitter_text import compose_post, strip_leading_mentions, unescape_post_text
from bot.config import TwitterConfig, secret
from bot.games.duration import parse_duration
from bot.host.messages import (
    Address,
    Attachment,
    AttachmentKind,
    CursorStore,
    DeliveryError,
    Inbound,
    InboundHandler,
    InboundKind,
    Outbound,
    Sender,
)

log = logging.getLogger(__name__)

PLATFORM = "twitter"
TIMELINE_CHANNEL = "timeline"  # X has one public "channel" per bot: its timeline
MENTIONS_CURSOR = "mentions_since_id"
SEARCH_CURSOR = "search_since_id"
DM_CURSOR = "dm_last_event_id"
DM_TEXT_LIMIT = 10_000
DEFAULT_BASE_URL = "https://api.x.com"

# Only values the X API v2 OpenAPI (2.167) enumerates: ``author_id`` and
# ``sender_id`` arrive through their expansions, not as requested fields.
USER_FIELDS = ["profile_image_url", "username", "name"]
TWEET_FIELDS = ["created_at", "conversation_id"]
DM_EVENT_FIELDS = ["created_at", "dm_conversation_id", "event_type", "id", "text"]
TWITTER_EPOCH_MS = 1288834974657  # snowflake ids carry their creation time


class _NoOAuthDebug(logging.Filter):
    """oauthlib logs the collected OAuth parameters (consumer key, access token)
    at DEBUG while signing; those records must never reach a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno > logging.DEBUG


for _name in ("oauthlib.oauth1.rfc5849", "oauthlib.oauth1.rfc5849.signature"):
    _logger = logging.getLogger(_name)
    if not any(isinstance(f, _NoOAuthDebug) for f in _logger.filters):
        _logger.addFilter(_NoOAuthDebug())


@dataclass(frozen=True)
class TwitterCredentials:
    """The bot account's OAuth 1.0a user-context keys (and an optional bearer
    token). ``repr`` shows no value, so a logged config or traceback cannot
    leak one."""

    api_key: str = field(repr=False)
    api_secret: str = field(repr=False)
    access_token: str = field(repr=False)
    access_secret: str = field(repr=False)
    bearer_token: str = field(default="", repr=False)

    def __repr__(self) -> str:
        return "TwitterCredentials(<hidden>)"

    __str__ = __repr__

    @classmethod
    def from_environment(
        cls, config: TwitterConfig, environ: Mapping[str, str] | None = None
    ) -> TwitterCredentials:
        """Read the keys from the environment variables the config names."""
        env = os.environ if environ is None else environ
        return cls(
            api_key=secret(config.api_key_env, env),
            api_secret=secret(config.api_secret_env, env),
            access_token=secret(config.access_token_env, env),
            access_secret=secret(config.access_secret_env, env),
            bearer_token=env.get(config.bearer_token_env, ""),
        )

    def values(self) -> tuple[str, ...]:
        return tuple(
            v
            for v in (
                self.api_key,
                self.api_secret,
                self.access_token,
                self.access_secret,
                self.bearer_token,
            )
            if v
        )


class RateBudgetExhausted(Exception):
    """An endpoint's rate budget is known to be spent; raised *before* a call."""

    def __init__(self, endpoint: str, retry_after: float) -> None:
        super().__init__(f"X rate budget for {endpoint} spent; retry in {retry_after:.0f} s")
        self.endpoint = endpoint
        self.retry_after = retry_after


_NUMERIC_SEGMENT = re.compile(r"/\d+(?=/|$)")


def endpoint_key(method: str, route: str) -> str:
    """``POST /2/media/upload/123/append`` → ``POST /2/media/upload/:id/append``:
    X's limits are per endpoint, not per resource."""
    return method.upper() + " " + _NUMERIC_SEGMENT.sub("/:id", route)


@dataclass
class _Window:
    remaining: int
    reset_at: float


class RateBudgets:
    """What X's response headers said about each endpoint's remaining calls.

    X sends ``x-rate-limit-remaining``/``-reset`` (the 15-minute window) and,
    on some endpoints (posts, DMs), ``x-user-limit-24hour-*`` and
    ``x-app-limit-24hour-*``; any of them at zero stops the endpoint until
    its reset.
    """

    _PREFIXES = ("x-rate-limit", "x-user-limit-24hour", "x-app-limit-24hour")

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._windows: dict[tuple[str, str], _Window] = {}

    def record(self, endpoint: str, headers: Mapping[str, str]) -> None:
        for prefix in self._PREFIXES:
            remaining = headers.get(f"{prefix}-remaining")
            reset = headers.get(f"{prefix}-reset")
            if remaining is None or reset is None:
                continue
            try:
                self._windows[(endpoint, prefix)] = _Window(int(remaining), float(reset))
            except ValueError:
                continue

    def retry_after(self, endpoint: str) -> float | None:
        """Seconds until the endpoint may be called again, or None if it may now."""
        now = self._clock()
        waits = [
            window.reset_at - now
            for (name, _), window in self._windows.items()
            if name == endpoint and window.remaining <= 0 and window.reset_at > now
        ]
        return max(waits) if waits else None

    def reset_in(self, headers: Mapping[str, str]) -> float | None:
        """From a 429's headers: seconds until the exhausted window resets."""
        now = self._clock()
        waits = []
        for prefix in self._PREFIXES:
            remaining, reset = headers.get(f"{prefix}-remaining"), headers.get(f"{prefix}-reset")
            if reset is None:
                continue
            try:
                if remaining is None or int(remaining) <= 0 or prefix == "x-rate-limit":
                    waits.append(float(reset) - now)
            except ValueError:
                continue
        return max(1.0, max(waits)) if waits else None


SessionProvider = Callable[[], Awaitable[aiohttp.ClientSession]]


class _XClient(AsyncClient):  # type: ignore[misc]
    """tweepy's AsyncClient with a configurable origin and safe logging (see module doc)."""

    def __init__(
        self,
        credentials: TwitterCredentials,
        *,
        base_url: str,
        session_provider: SessionProvider,
        budgets: RateBudgets,
    ) -> None:
        super().__init__(
            bearer_token=credentials.bearer_token or None,
            consumer_key=credentials.api_key,
            consumer_secret=credentials.api_secret,
            access_token=credentials.access_token,
            access_token_secret=credentials.access_secret,
            return_type=dict,
            wait_on_rate_limit=False,
        )
        self.base_url = base_url.rstrip("/")
        self._session_provider = session_provider
        self.budgets = budgets

    def __repr__(self) -> str:
        return f"<_XClient {self.base_url}>"

    async def request(
        self,
        method: str,
        route: str,
        params: Mapping[str, Any] | None = None,
        json: Mapping[str, Any] | None = None,
        user_auth: bool = False,
    ) -> aiohttp.ClientResponse:
        """tweepy's hook: every endpoint method ends here."""
        return await self.signed_request(
            method, route, params=params, json=json, user_auth=user_auth
        )

    async def signed_request(
        self,
        method: str,
        route: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Mapping[str, Any] | None = None,
        multipart: Sequence[FormPart] | None = None,
        user_auth: bool = True,
    ) -> aiohttp.ClientResponse:
        """One call, signed like tweepy signs (query in the signature, body not),
        raising tweepy's own exception classes on errors."""
        endpoint = endpoint_key(method, route)
        wait = self.budgets.retry_after(endpoint)
        if wait is not None:
            raise RateBudgetExhausted(endpoint, wait)

        session = await self._session_provider()
        headers = {"User-Agent": self.user_agent}
        if json is not None:
            headers["Content-Type"] = "application/json"
        body: aiohttp.FormData | None = None
        if multipart:
            body = aiohttp.FormData()
            for part in multipart:
                body.add_field(
                    part.name, part.value, filename=part.filename, content_type=part.content_type
                )

        url: str | URL = self.base_url + route
        query = dict(params or {})
        if user_auth:
            oauth = OAuthClient(
                self.consumer_key,
                self.consumer_secret,
                self.access_token,
                self.access_token_secret,
            )
            signed_url = str(URL(str(url)).with_query(sorted(query.items())))
            signed_url, headers, _ = oauth.sign(signed_url, method, headers=headers)
            # As in tweepy: oauthlib percent-encodes ':' in the signature base
            # but aiohttp would send it raw, so encode it in the URL itself.
            before, _, raw_query = signed_url.partition("?")
            url = URL(
                f"{before}?{raw_query.replace(':', '%3A')}" if raw_query else before,
                encoded=True,
            )
            query = {}
        else:
            headers["Authorization"] = f"Bearer {self.bearer_token}"

        log.debug("X API request: %s %s", method, route)
        async with session.request(
            method, url, params=query or None, json=json, data=body, headers=headers
        ) as response:
            await response.read()
        self.budgets.record(endpoint, response.headers)
        log.debug("X API response: %s %s → %s", method, route, response.status)

        if 200 <= response.status < 300:
            return response
        try:
            payload = await response.json(content_type=None)
        except ValueError:
            payload = None
        if not isinstance(payload, dict):
            payload = {}
        status = response.status
        if status == 400:
            raise tweepy.BadRequest(response, response_json=payload)
        if status == 401:
            raise tweepy.Unauthorized(response, response_json=payload)
        if status == 403:
            raise tweepy.Forbidden(response, response_json=payload)
        if status == 404:
            raise tweepy.NotFound(response, response_json=payload)
        if status == 429:
            reset = response.headers.get("x-rate-limit-reset")
            raise tweepy.TooManyRequests(
                response,
                response_json=payload,
                reset_time=int(reset) if reset and reset.isdigit() else None,
            )
        if status >= 500:
            raise tweepy.TwitterServerError(response, response_json=payload)
        raise tweepy.HTTPException(response, response_json=payload)


def _parse_time(value: str | None, snowflake: str) -> datetime:
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


def _sender(user_id: str, users: Mapping[str, Mapping[str, Any]]) -> Sender:
    """Identity is the numeric id; the handle is only a display name."""
    user = users.get(user_id, {})
    username = user.get("username")
    name = f"@{username}" if username else (user.get("name") or user_id)
    return Sender(PLATFORM, user_id, str(name), _avatar(user))


def _users_by_id(body: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    users = (body.get("includes") or {}).get("users") or []
    return {str(u["id"]): u for u in users if isinstance(u, Mapping) and "id" in u}


def _is_retweet(post: Mapping[str, Any]) -> bool:
    """A retweet of someone's shot is not the retweeter's shot."""
    refs = post.get("referenced_tweets") or post.get("referenced_posts") or []
    if any(isinstance(r, Mapping) and r.get("type") == "retweeted" for r in refs):
        return True
    return str(post.get("text", "")).startswith("RT @")


class TwitterAdapter:
    """X as the host sees it: :class:`~bot.host.messages.ChatAdapter` for ``"twitter"``."""

    platform = PLATFORM

    def __init__(
        self,
        config: TwitterConfig,
        *,
        credentials: TwitterCredentials,
        cursors: CursorStore,
        base_url: str = DEFAULT_BASE_URL,
        session_factory: Callable[[], aiohttp.ClientSession] | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.time,
        initial_pages: int = 1,
    ) -> None:
        """``sleep`` and ``clock`` are injectable for tests (media status polls,
        rate-limit arithmetic). ``initial_pages`` bounds how far back the very
        first poll (no cursor yet) reads: X bills every post read."""
        self.config = config
        self._credentials = credentials
        self._cursors = cursors
        self._session_factory = session_factory
        self._session: aiohttp.ClientSession | None = None
        self._sleep = sleep
        self._clock = clock
        self._initial_pages = max(1, initial_pages)
        self.budgets = RateBudgets(clock)
        self._client = _XClient(
            credentials,
            base_url=base_url,
            session_provider=self._get_session,
            budgets=self.budgets,
        )
        self._bot_user_id = config.bot_user_id or ""
        self._tasks: list[asyncio.Task[None]] = []
        self._mentions_lock = asyncio.Lock()
        self._dm_lock = asyncio.Lock()

    def __repr__(self) -> str:
        return f"<TwitterAdapter {self._client.base_url}>"

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

    async def _media_request(
        self,
        method: str,
        route: str,
        *,
        params: Mapping[str, str] | None = None,
        json: Mapping[str, Any] | None = None,
        multipart: Sequence[FormPart] | None = None,
    ) -> dict[str, Any]:
        """The authorised request callable handed to :func:`upload_media`."""
        response = await self._client.signed_request(
            method, route, params=params, json=json, multipart=multipart
        )
        # The body was read before the connection was released: json() reuses
        # it (read() would raise), and gives None for an empty body.
        payload = await response.json(content_type=None)
        return payload if isinstance(payload, dict) else {}

    async def bot_user_id(self) -> str:
        """The bot account's id: from config, else one ``GET /2/users/me``."""
        if not self._bot_user_id:
            me = await self._client.get_me(user_auth=True)
            self._bot_user_id = str(me["data"]["id"])
        return self._bot_user_id

    # -- inbound ----------------------------------------------------------

    async def start(self, on_inbound: InboundHandler) -> None:
        """Resolve the bot's id and start the mention and DM polling loops."""
        await self.bot_user_id()
        mentions_every = parse_duration(self.config.mentions_poll).total_seconds()
        dm_every = parse_duration(self.config.dm_poll).total_seconds()

        async def poll_public() -> None:
            await self._poll_mentions(self._cursors, on_inbound)
            if self.config.search_hashtag:
                await self._poll_search(self._cursors, on_inbound)

        async def poll_dms() -> None:
            await self._poll_dms(self._cursors, on_inbound)

        self._tasks = [
            asyncio.create_task(self._poll_forever("mentions", mentions_every, poll_public)),
            asyncio.create_task(self._poll_forever("DMs", dm_every, poll_dms)),
        ]

    async def _poll_forever(
        self, name: str, interval: float, poll: Callable[[], Awaitable[None]]
    ) -> None:
        """Poll until cancelled; a failed poll is logged and retried next time."""
        while True:
            delay = interval
            try:
                await poll()
            except asyncio.CancelledError:
                raise
            except RateBudgetExhausted as error:
                delay = max(interval, error.retry_after)
                log.info("X %s poll waits %.0f s for its rate budget", name, delay)
            except tweepy.TooManyRequests as error:
                wait = self.budgets.reset_in(error.response.headers) or interval
                delay = max(interval, wait)
                log.warning("X %s poll rate-limited; next in %.0f s", name, delay)
            except Exception as error:
                log.warning("X %s poll failed: %s", name, self._redact(str(error)))
            await self._sleep(delay)

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
        count = await self._poll_mentions(cursors, on_inbound)
        if self.config.search_hashtag:
            count += await self._poll_search(cursors, on_inbound)
        count += await self._poll_dms(cursors, on_inbound)
        return count

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
            users.update(_users_by_id(body))
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
        bot_id = await self.bot_user_id()
        handled = 0
        last_done: str | None = None
        try:
            for post in sorted(posts, key=lambda p: int(p["id"])):
                author = str(post.get("author_id") or "")
                if author and author != bot_id and not _is_retweet(post):
                    await on_inbound(
                        Inbound(
                            platform=PLATFORM,
                            channel=TIMELINE_CHANNEL,
                            sender=_sender(author, users),
                            kind=InboundKind.PUBLIC,
                            text=strip_leading_mentions(unescape_post_text(str(post["text"]))),
                            message_id=str(post["id"]),
                            sent_at=_parse_time(post.get("created_at"), str(post["id"])),
                        )
                    )
                    handled += 1
                last_done = str(post["id"])
        finally:
            if last_done is not None:
                # All handled: jump to the batch's newest id; else stop after the last one done.
                done = newest if newest and last_done == _max_id(posts) else last_done
                await cursors.set(PLATFORM, cursor_key, done)
        return handled

    async def _poll_mentions(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        async with self._mentions_lock:
            bot_id = await self.bot_user_id()
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

    async def _poll_search(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """Recent search for ``#bst`` (opt-in: every post read is billed)."""
        async with self._mentions_lock:
            bot_id = await self.bot_user_id()
            since_id = await cursors.get(PLATFORM, SEARCH_CURSOR)

            async def fetch(token: str | None) -> dict[str, Any]:
                result: dict[str, Any] = await self._client.search_recent_tweets(
                    f"#bst -is:retweet -from:{bot_id}",
                    since_id=since_id,
                    next_token=token,
                    expansions=["author_id"],
                    user_fields=USER_FIELDS,
                    tweet_fields=TWEET_FIELDS,
                    max_results=100,
                    user_auth=not self._credentials.bearer_token,
                )
                return result

            posts, users, newest = await self._read_posts(fetch, since_id)
            return await self._hand_over_posts(
                cursors, SEARCH_CURSOR, posts, users, newest, on_inbound
            )

    async def _poll_dms(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """DM events have no ``since_id``: page back (newest first) until the
        last event already seen, then hand over oldest first."""
        async with self._dm_lock:
            bot_id = await self.bot_user_id()
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
                users.update(_users_by_id(body))
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
                        await on_inbound(
                            Inbound(
                                platform=PLATFORM,
                                channel=TIMELINE_CHANNEL,
                                sender=_sender(sender_id, users),
                                kind=InboundKind.DM,
                                text=unescape_post_text(str(event.get("text") or "")).strip(),
                                message_id=str(event["id"]),
                                sent_at=_parse_time(event.get("created_at"), str(event["id"])),
                            )
                        )
                        handled += 1
                    last_done = str(event["id"])
            finally:
                if last_done is not None:
                    await cursors.set(PLATFORM, DM_CURSOR, last_done)
            return handled

    # -- outbound ---------------------------------------------------------

    async def send(self, address: Address, outbound: Outbound) -> str:
        """A post for a public address, a DM for a user address.

        Failures become :class:`DeliveryError` raised *outside* the ``except``
        block, so no tweepy exception (whose response holds the request's
        signed headers) rides along as ``__context__``.
        """
        if address.platform != PLATFORM:
            raise DeliveryError(f"address for {address.platform!r}, not X", permanent=True)
        try:
            if address.is_dm:
                return await self._send_dm(address, outbound)
            return await self._send_post(address, outbound)
        except DeliveryError as error:
            failure = DeliveryError(
                self._redact(str(error)), retry_after=error.retry_after, permanent=error.permanent
            )
        except Exception as error:
            failure = self._delivery_error(error, dm=address.is_dm, address=address)
        log.warning("X send %s failed: %s", outbound.key or "(no key)", failure)
        raise failure

    def _delivery_error(self, error: Exception, *, dm: bool, address: Address) -> DeliveryError:
        what = f"DM to user {address.user_id}" if dm else "post"
        if isinstance(error, RateBudgetExhausted):
            return DeliveryError(str(error), retry_after=error.retry_after)
        if isinstance(error, tweepy.TooManyRequests):
            wait = self.budgets.reset_in(error.response.headers)
            return DeliveryError(f"X rate limit (429) on {what}", retry_after=wait)
        if isinstance(error, tweepy.Unauthorized):
            config = self.config
            return DeliveryError(
                "X refused the bot's credentials (401 Unauthorized): check the keys in "
                f"{config.api_key_env}, {config.api_secret_env}, {config.access_token_env} "
                f"and {config.access_secret_env}",
                permanent=True,
            )
        if isinstance(error, tweepy.TwitterServerError):
            return DeliveryError(self._redact(f"X server error on {what}: {error}"))
        if isinstance(error, tweepy.Forbidden):
            reason = "; ".join(error.api_messages) or str(error)
            return DeliveryError(self._redact(f"X forbids the {what}: {reason}"), permanent=True)
        if isinstance(error, tweepy.HTTPException):
            # 400/404/…: the request itself is wrong; sending it again cannot help.
            return DeliveryError(self._redact(f"X rejected the {what}: {error}"), permanent=True)
        if isinstance(error, aiohttp.ClientError | asyncio.TimeoutError):
            return DeliveryError(
                self._redact(f"network error on {what}: {type(error).__name__}: {error}")
            )
        return DeliveryError(self._redact(f"{what} failed: {type(error).__name__}: {error}"))

    async def _upload(self, attachment: Attachment, *, for_dm: bool) -> str:
        return await upload_media(
            self._media_request,
            attachment.data,
            mime_type=attachment.mime_type,
            for_dm=for_dm,
            alt_text=attachment.alt_text,
            sleep=self._sleep,
        )

    async def _send_post(self, address: Address, outbound: Outbound) -> str:
        text = compose_post(outbound.text)
        media_ids = [
            await self._upload(a, for_dm=False) for a in _post_attachments(outbound.attachments)
        ]
        reply_to = address.reply_to if address.reply_to and address.reply_to.isdigit() else None
        try:
            response: dict[str, Any] = await self._client.create_tweet(
                text=text,
                media_ids=media_ids or None,
                in_reply_to_tweet_id=reply_to,
                user_auth=True,
            )
        except tweepy.Forbidden as error:
            reason = " ".join(error.api_messages) + " " + str(error)
            if "duplicate" not in reason.lower():
                raise
            # Posted before (a retry after a lost response): X refuses the twin.
            key = outbound.key or hashlib.sha256(text.encode()).hexdigest()[:16]
            log.info("X says post %s is a duplicate: counted as posted", key)
            return f"duplicate:{key}"
        return str(response["data"]["id"])

    async def _send_dm(self, address: Address, outbound: Outbound) -> str:
        media_id = None
        if outbound.attachments:
            if len(outbound.attachments) > 1:
                log.info(
                    "X DMs carry one attachment; sending the first of %d", len(outbound.attachments)
                )
            media_id = await self._upload(outbound.attachments[0], for_dm=True)
        text = outbound.text.strip()[:DM_TEXT_LIMIT] or None
        if outbound.retry and address.user_id:
            earlier = await self._dm_already_sent(address.user_id, text or "")
            if earlier is not None:
                return earlier
        response: dict[str, Any] = await self._client.create_direct_message(
            participant_id=address.user_id, text=text, media_id=media_id, user_auth=True
        )
        return str(response["data"]["dm_event_id"])

    async def _dm_already_sent(self, participant_id: str, text: str) -> str | None:
        """X DMs take no idempotency key, so a DM whose response was lost may have been
        delivered. Before sending it again, look at the conversation: if the bot's
        newest message there is this very text, that is it (and if it is an earlier,
        identical one, the captain has it as the bot's last word anyway)."""
        bot_id = await self.bot_user_id()
        body: dict[str, Any] = await self._client.get_direct_message_events(
            participant_id=participant_id,
            dm_event_fields=DM_EVENT_FIELDS,
            event_types="MessageCreate",
            max_results=10,
            user_auth=True,
        )
        for event in body.get("data") or []:  # newest first
            if str(event.get("sender_id")) == bot_id:
                return str(event["id"]) if event.get("text") == text else None
        return None


def _max_id(items: Sequence[Mapping[str, Any]]) -> str | None:
    return max((str(i["id"]) for i in items), key=int, default=None)


def _post_attachments(attachments: Sequence[Attachment]) -> list[Attachment]:
    """A post carries up to four images, or one video or GIF (X's rule)."""
    if not attachments:
        return []
    first = attachments[0]
    if first.kind is AttachmentKind.VIDEO or first.mime_type == "image/gif":
        return [first]
    return [
        a for a in attachments if a.kind is AttachmentKind.IMAGE and a.mime_type != "image/gif"
    ][:4]
