"""Discord's rate limits, as the fake enforces them (``FakeDiscord.limits``).

What Discord documents (developers/topics/rate-limits in discord/discord-api-docs) and
what its answers show on the wire:

* **The global limit**: 50 requests a second for the whole application, whatever the
  route. Interaction endpoints (the callback, and follow-ups through the interaction's
  webhook token) are not bound by it. Here, as Discord's buckets: a one-second window
  opens with the first request and holds 50; past them, until it ends, 429 with
  ``"global": true``, ``X-RateLimit-Global: true`` and ``X-RateLimit-Scope: global``.
* **Per-route buckets**: each route has a limit per window, kept per *major parameter*
  (a channel's messages, a webhook's): a window opens with the first request and resets
  ``period`` seconds later (``X-RateLimit-Reset`` / ``Reset-After``). Every answer on a
  limited route carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``,
  ``-Reset-After`` and ``-Bucket`` (the bucket's hash, shared by the routes of one
  bucket); past the limit, 429 with ``X-RateLimit-Scope: user`` and ``"global": false``.
  The figures for the routes the bot uses are the ones Discord's headers announce
  (message create: 5 per 5 s per channel); a route not listed gets a bucket of
  :data:`DEFAULT_BUCKET`.
* Every 429 has ``Retry-After`` (whole seconds, rounded up, as Discord sends it) and the
  JSON body ``{"message", "retry_after", "global", "code"}`` (``RatelimitedResponse`` in
  the OpenAPI description), and every answer ``Via: 1.1 google`` (Discord's edge;
  discord.py reads a 429 without it as a Cloudflare ban).

Requests refused with 429 do not count against the windows (they never reached the
route), but the fake keeps every one (``FakeDiscord.rate_limited``).
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

GLOBAL_PER_SECOND = 50


@dataclass(frozen=True)
class Bucket:
    """One route's limit: ``limit`` requests per ``period`` seconds, per major parameter."""

    name: str
    limit: int
    period: float

    @property
    def hash(self) -> str:
        """The opaque id Discord sends as ``X-RateLimit-Bucket``."""
        return hashlib.sha1(self.name.encode()).hexdigest()[:32]


DEFAULT_BUCKET = Bucket("default", 5, 1.0)
GLOBAL = Bucket("global", GLOBAL_PER_SECOND, 1.0)  # its limit: RateLimits.global_per_second

# (method, path pattern whose first group is the major parameter, its bucket). Order
# matters: the first pattern that matches decides.
ROUTES: tuple[tuple[str, re.Pattern[str], Bucket], ...] = (
    ("POST", re.compile(r"/channels/(\d+)/messages"), Bucket("message create", 5, 5.0)),
    ("GET", re.compile(r"/channels/(\d+)/messages"), Bucket("message history", 5, 5.0)),
    ("PATCH", re.compile(r"/channels/(\d+)/messages/\d+"), Bucket("message edit", 5, 5.0)),
    ("DELETE", re.compile(r"/channels/(\d+)/messages/\d+"), Bucket("message delete", 5, 1.0)),
    ("POST", re.compile(r"/users/@me/channels()"), Bucket("dm open", 5, 5.0)),
    ("POST", re.compile(r"/channels/(\d+)/threads"), Bucket("thread create", 5, 5.0)),
    ("PUT", re.compile(r"/channels/(\d+)/thread-members/\d+"), Bucket("thread member", 5, 1.0)),
    ("GET", re.compile(r"/channels/(\d+)"), Bucket("channel", 5, 1.0)),
    ("PATCH", re.compile(r"/channels/(\d+)"), Bucket("channel edit", 5, 5.0)),
)
# The interaction's own endpoints: outside the global limit (Discord's docs say so).
INTERACTION_ROUTES = re.compile(r"/interactions/\d+/[^/]+/callback|/webhooks/\d+/[^/]+(/.*)?")


def route_of(method: str, path: str) -> tuple[Bucket, str]:
    """The bucket a request counts in, and its major parameter."""
    for route_method, pattern, bucket in ROUTES:
        if method == route_method and (match := pattern.fullmatch(path)):
            return bucket, match.group(1)
    return DEFAULT_BUCKET, f"{method} {path}"


@dataclass
class _Window:
    opened: float
    used: int = 0


@dataclass
class RateLimits:
    """The global limit and the route buckets. ``admit`` answers each request before the
    fake does: None to let it through (counted), or the 429's status, headers and body.
    ``headers`` are the ``X-RateLimit-*`` of an answer that went through."""

    global_per_second: int = GLOBAL_PER_SECOND
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time  # X-RateLimit-Reset is a Unix time
    _windows: dict[tuple[str, str], _Window] = field(default_factory=dict)
    counted: int = 0
    refused: int = 0
    refused_global: int = 0

    def admit(self, method: str, path: str) -> tuple[int, dict[str, str], dict[str, object]] | None:
        now = self.clock()
        bucket, major = route_of(method, path)
        window = self._window(bucket, major, now)
        bound = not INTERACTION_ROUTES.fullmatch(path)  # by the global limit
        application = self._window(GLOBAL, "", now) if bound else None
        if application is not None and application.used >= self.global_per_second:
            self.refused += 1
            self.refused_global += 1
            return self._too_many(
                application.opened + GLOBAL.period - now,
                scope="global",
                headers={"X-RateLimit-Global": "true"},
            )
        if window.used >= bucket.limit:
            self.refused += 1
            return self._too_many(
                window.opened + bucket.period - now,
                scope="user",
                headers=self._bucket_headers(bucket, window, now),
            )
        if application is not None:
            application.used += 1
        window.used += 1
        self.counted += 1
        return None

    def headers(self, method: str, path: str) -> dict[str, str]:
        """The route's ``X-RateLimit-*`` after the request just admitted."""
        now = self.clock()
        bucket, major = route_of(method, path)
        return self._bucket_headers(bucket, self._window(bucket, major, now), now)

    def _window(self, bucket: Bucket, major: str, now: float) -> _Window:
        window = self._windows.get((bucket.name, major))
        if window is None or now >= window.opened + bucket.period:
            window = self._windows[(bucket.name, major)] = _Window(now)
        return window

    def _bucket_headers(self, bucket: Bucket, window: _Window, now: float) -> dict[str, str]:
        reset_after = max(0.0, window.opened + bucket.period - now)
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(0, bucket.limit - window.used)),
            "X-RateLimit-Reset": f"{self.wall() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket.hash,
        }

    @staticmethod
    def _too_many(
        wait: float, *, scope: str, headers: dict[str, str]
    ) -> tuple[int, dict[str, str], dict[str, object]]:
        wait = max(0.001, wait)
        return (
            429,
            {
                **headers,
                "Retry-After": str(math.ceil(wait)),
                "X-RateLimit-Scope": scope,
            },
            {
                "message": "You are being rate limited.",
                "retry_after": round(wait, 3),
                "global": scope == "global",
                "code": 0,
            },
        )
