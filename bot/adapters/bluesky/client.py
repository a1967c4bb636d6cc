"""The connection to the bot's PDS: the atproto SDK's AsyncClient, its saved session,
the chat service behind the proxy header, and each response's rate-limit headers.

Logins are rate limited (30 in 5 minutes, 300 a day per account), so the session the
SDK holds (its access and refresh tokens) is exported after every login and refresh and
reused at the next start: in the database beside the adapter's cursors, or in the file
``[bluesky] session_file`` names (its owner alone may read it). It is never logged.

Direct messages are the chat service's (``chat.bsky.convo.*``): the PDS forwards them
when a request carries ``atproto-proxy: did:web:api.bsky.chat#bsky_chat``, which the
SDK's ``with_bsky_chat_proxy()`` client sets; the PDS does so only for an app password
made with access to direct messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from atproto import AsyncClient, SessionEvent
from atproto_client import exceptions as errors
from atproto_client.exceptions import LoginRequiredError
from atproto_client.models.utils import get_model_as_dict
from atproto_client.request import AsyncRequest

from bot.adapters.bluesky.budgets import RateWindows
from bot.host.messages import CursorStore

log = logging.getLogger(__name__)
# httpx logs every request at INFO: a poll a second would bury the bot's own lines.
logging.getLogger("httpx").setLevel(logging.WARNING)

PLATFORM = "bluesky"
DEFAULT_PDS = "https://bsky.social"
SESSION_CURSOR = "session"


def as_dict(model: Any) -> dict[str, Any]:
    """An SDK response model as its JSON (camelCase keys, ``$type``s)."""
    if model is None:
        return {}
    if isinstance(model, dict):
        return model
    value = get_model_as_dict(model)
    return value if isinstance(value, dict) else {}


def xrpc_error(error: BaseException) -> str:
    """The XRPC error name of an SDK error (``ExpiredToken``), or ""."""
    response = getattr(error, "response", None)
    content = getattr(response, "content", None)
    return str(getattr(content, "error", "") or "")


def endpoint_of(url: str) -> str:
    """``https://pds/xrpc/app.bsky.feed.searchPosts?q=…`` → ``app.bsky.feed.searchPosts``."""
    return urlsplit(url).path.rsplit("/", 1)[-1]


class LoginRefused(Exception):
    """The PDS refused the account's handle and app password (401): nothing but a new
    app password helps."""

    def __init__(self, handle: str) -> None:
        super().__init__(f"Bluesky refused the login of {handle!r}")


class SessionStore:
    """Where the exported session string lives between runs."""

    def __init__(self, cursors: CursorStore, path: str = "") -> None:
        self._cursors = cursors
        self._path = Path(path).expanduser() if path else None

    async def load(self) -> str | None:
        if self._path is None:
            return await self._cursors.get(PLATFORM, SESSION_CURSOR)
        try:
            return self._path.read_text(encoding="utf-8").strip() or None
        except FileNotFoundError:
            return None

    async def save(self, session: str) -> None:
        if self._path is None:
            await self._cursors.set(PLATFORM, SESSION_CURSOR, session)
            return
        self._path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(self._path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(session)

    async def clear(self) -> None:
        if self._path is None:
            await self._cursors.set(PLATFORM, SESSION_CURSOR, "")
            return
        with contextlib.suppress(FileNotFoundError):
            self._path.unlink()


class Connection:
    """One logged-in account: ``pds`` for its repository, notifications and search,
    ``chat`` for its direct messages (the same session, through the chat proxy)."""

    def __init__(
        self,
        *,
        handle: str,
        password: str,
        base_url: str,
        sessions: SessionStore,
        windows: RateWindows,
    ) -> None:
        self._handle = handle.strip().lstrip("@")
        self._password = password
        self._sessions = sessions
        self.windows = windows
        request = AsyncRequest(
            timeout=httpx.Timeout(30.0), event_hooks={"response": [self._on_response]}
        )
        self.pds = AsyncClient(base_url or DEFAULT_PDS, request=request)
        self.pds.on_session_change(self._session_changed)
        self.chat = self.pds  # replaced at login, once the account's PDS is known
        self.did = ""
        self.handle = self._handle
        self._logged_in = False
        self._login_lock = asyncio.Lock()
        # Counts the logins: a refusal of an older session than the current one (a call
        # made before another task logged in again) must not discard the new one.
        self.generation = 0
        self.refreshes = 0  # the session's refreshes (a call that saw an expired token)

    async def _on_response(self, response: httpx.Response) -> None:
        self.windows.record(endpoint_of(str(response.request.url)), response.headers)

    async def _session_changed(self, event: SessionEvent, session: Any) -> None:
        if event in (SessionEvent.CREATE, SessionEvent.REFRESH):
            await self._sessions.save(self.pds.export_session_string())

    async def login(self) -> None:
        """Resume the saved session, else log in with the app password (and save it).
        Raises :class:`LoginRefused` when the PDS refuses the handle and password."""
        async with self._login_lock:
            if not self._logged_in:
                await self._login()

    async def _login(self) -> None:
        saved = await self._sessions.load()
        me: Any = None
        if saved:
            try:
                await self.pds.login(session_string=saved, fetch_bsky_profile=False)
                # One cheap call proves the saved tokens still work (refreshing them if due).
                try:
                    me = await self.pds.com.atproto.server.get_session()
                except errors.BadRequestError as error:
                    if xrpc_error(error) != "ExpiredToken":
                        raise
                    await self.pds._refresh_and_set_session()  # not a login: a refresh
                    me = await self.pds.com.atproto.server.get_session()
            except (errors.UnauthorizedError, errors.BadRequestError, LoginRequiredError) as error:
                # Expired, revoked, or from another PDS: only a new login helps. (A network
                # fault is raised as it is: the session may be fine.)
                log.info(
                    "Bluesky: the saved session no longer works (%s); logging in again",
                    type(error).__name__,
                )
                await self._sessions.clear()
        if me is None:
            try:
                await self.pds.login(self._handle, self._password, fetch_bsky_profile=False)
            except errors.UnauthorizedError:
                raise LoginRefused(self._handle) from None
            me = await self.pds.com.atproto.server.get_session()
        self.did = str(me.did)
        self.handle = str(me.handle)
        # The chat proxy's client, cloned now that the session names the account's PDS.
        self.chat = self.pds.with_bsky_chat_proxy()
        self._logged_in = True
        self.generation += 1

    async def forget(self, generation: int) -> None:
        """The PDS refused the session of login ``generation`` (revoked, expired past
        refreshing): unless another task has logged in again since, the next call logs
        in with the app password."""
        async with self._login_lock:
            if self._logged_in and generation == self.generation:
                self._logged_in = False
                await self._sessions.clear()
                log.info("Bluesky refused the session; the next call logs in again")

    async def call(
        self, endpoint: str, request: Callable[[], Coroutine[Any, Any, Any]]
    ) -> dict[str, Any]:
        """Make ``request()`` (a call to ``endpoint``) once its rate window allows; its
        answer as JSON. An access token the PDS calls expired (400 ``ExpiredToken``,
        which the SDK's own clock did not foresee) is refreshed and the call made again:
        a login is the last resort (30 in 5 minutes, 300 a day)."""
        self.windows.check(endpoint)
        await self.login()
        refreshed = self.refreshes
        try:
            return as_dict(await request())
        except errors.BadRequestError as error:
            if xrpc_error(error) != "ExpiredToken":
                raise
        await self.refresh(refreshed)
        return as_dict(await request())

    async def refresh(self, refreshed: int) -> None:
        """New tokens from the refresh token (``refreshSession``), unless another call
        has refreshed them since the ``refreshed``-th refresh; when the PDS refuses the
        refresh token too, the next call logs in again."""
        async with self._login_lock:
            if self.refreshes != refreshed or not self._logged_in:
                return
            try:
                await self.pds._refresh_and_set_session()
            except (errors.UnauthorizedError, errors.BadRequestError) as error:
                self._logged_in = False
                await self._sessions.clear()
                log.info("Bluesky refused the refresh (%s); logging in again", xrpc_error(error))
            else:
                self.refreshes += 1
                log.info("Bluesky: the access token expired; refreshed it")
        await self.login()

    async def close(self) -> None:
        for client in {id(self.pds): self.pds, id(self.chat): self.chat}.values():
            await client.request.close()
