"""tweepy's client with a configurable origin and safe logging: the connection to X.

Why the client subclass (:class:`XClient`) replaces ``request``:

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
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import aiohttp
import tweepy
from oauthlib.oauth1 import Client as OAuthClient
from tweepy.asynchronous import AsyncClient
from yarl import URL

from bot.adapters.twitter.budgets import RateBudgetExhausted, RateBudgets, endpoint_key
from bot.adapters.twitter.credentials import TwitterCredentials
from bot.adapters.twitter.media import FormPart

log = logging.getLogger(__name__)

PLATFORM = "twitter"
DEFAULT_BASE_URL = "https://api.x.com"


class _NoOAuthDebug(logging.Filter):
    """oauthlib logs the collected OAuth parameters (consumer key, access token)
    at DEBUG while signing; those records must never reach a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno > logging.DEBUG


for _name in ("oauthlib.oauth1.rfc5849", "oauthlib.oauth1.rfc5849.signature"):
    _logger = logging.getLogger(_name)
    if not any(isinstance(f, _NoOAuthDebug) for f in _logger.filters):
        _logger.addFilter(_NoOAuthDebug())


SessionProvider = Callable[[], Awaitable[aiohttp.ClientSession]]


class XForbidden(tweepy.Forbidden):  # type: ignore[misc]
    """tweepy's 403, keeping X's problem body (its ``type`` tells whose refusal it is)."""

    def __init__(self, response: aiohttp.ClientResponse, *, response_json: dict[str, Any]):
        super().__init__(response, response_json=response_json)
        self.problem = response_json

    def recipient_refuses_dms(self) -> bool:
        """X refuses a DM because of its recipient (they take no DMs from the bot), not
        because of the app (no DM permission, a tier without DMs): a problem about the
        user resource, or the v1.1-era codes 150/349 ("cannot send messages")."""
        problem = self.problem
        about_user = str(problem.get("type", "")).endswith("not-authorized-for-resource") and (
            problem.get("resource_type") == "user"
        )
        codes = {150, 349} & set(self.api_codes)
        return about_user or bool(codes)


class XClient(AsyncClient):  # type: ignore[misc]
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
        return f"<XClient {self.base_url}>"

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
            raise XForbidden(response, response_json=payload)
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
