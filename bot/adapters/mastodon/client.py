"""The connection to the bot's instance: Mastodon.py, off the event loop, paced by the
budgets Mastodon keeps, each for itself.

Mastodon.py is synchronous (requests), so every call runs in a worker thread
(``asyncio.to_thread``) and the event loop never waits on the network. The client is
made with ``ratelimit_method="throw"``: a 429 is raised, never slept on inside a
thread.

Mastodon counts an account's calls in **families**, each with its own budget and
window, and one spent never stops the others:

* ``reads``: every API call (notifications, thread lookups, accounts, the instance),
  300 per 5 minutes here, reported in the ``X-RateLimit-*`` headers of most answers;
* ``statuses``: posting a status (a post or a direct post), 300 per 3 hours, reported
  in the headers of ``POST /api/v1/statuses`` alone;
* ``media``: uploads, 30 per 30 minutes, which no successful answer reports (counted
  here) and whose 429 says when the window ends.

Each family has its own Mastodon.py object, so the headers one answer brings land in
its family's state and never in another's (two threads share nothing). Before each
call the family's state is read, so a spent budget fails fast with its wait
(:class:`RateLimited`) instead of spending a request on a certain 429; reading never
waits for posting.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from mastodon import Mastodon, MastodonRatelimitError

PLATFORM = "mastodon"
USER_AGENT = "bst-bot (+https://github.com/; Mastodon.py)"
READS = "reads"
STATUSES = "statuses"
MEDIA = "media"
# Mastodon's statuses family (RateLimiter): 300 statuses per 3 hours per account.
STATUSES_PER_WINDOW = 300
STATUSES_WINDOW_SECONDS = 3 * 3600.0
# Statuses that go at once in a window before the even pace applies.
STATUSES_BURST = 60
MEDIA_UPLOADS = 30
MEDIA_WINDOW_SECONDS = 30 * 60.0
MEDIA_BUDGET = "media uploads"
REQUEST_TIMEOUT = 30.0
# A 429 whose headers say nothing usable rests its family this long.
UNKNOWN_WAIT_SECONDS = 60.0


class RateLimited(Exception):
    """A family's budget is spent (a 429, or the headers said so before the call)."""

    def __init__(self, what: str, retry_after: float, *, family: str = READS) -> None:
        super().__init__(f"Mastodon rate limit on {what}; retry in {retry_after:.0f} s")
        self.what = what
        self.retry_after = retry_after
        self.family = family


class MastodonClient:
    """The bot account on its instance: one Mastodon.py client a family, called in
    threads."""

    def __init__(
        self,
        instance: str,
        access_token: str,
        *,
        media_uploads: int = MEDIA_UPLOADS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``media_uploads``: uploads the instance allows per 30 minutes (0: unbounded)."""
        self.instance = instance.rstrip("/")
        self._clock = clock
        self._media_uploads = media_uploads
        self._apis = {
            family: Mastodon(
                access_token=access_token,
                api_base_url=self.instance,
                ratelimit_method="throw",
                # No version probe at construction (a request on the event loop); the
                # adapter reads /api/v2/instance itself.
                version_check_mode="none",
                request_timeout=REQUEST_TIMEOUT,
                user_agent=USER_AGENT,
            )
            for family in (READS, STATUSES, MEDIA)
        }
        self.api = self._apis[READS]  # the stream's, too
        self._uploads: deque[float] = deque()
        self._media_rest_until = 0.0

    def budget(self, family: str) -> tuple[int | None, float | None]:
        """(requests left, the moment its window ends) of ``family``, from the last
        answer's headers; (None, None) when unknown or the window is over."""
        api = self._apis[family]
        remaining, reset = api.ratelimit_remaining, api.ratelimit_reset
        if remaining is None or reset is None or float(reset) <= self._clock():
            return None, None
        return int(remaining), float(reset)

    def wait_needed(self, family: str = READS, *, reserve: int = 0) -> float | None:
        """Seconds until ``family``'s budget allows a call that must leave ``reserve``
        requests unspent; None when it allows one now."""
        if family == MEDIA:
            # The uploads are counted by take_upload; here only a 429's rest applies.
            rest = self._media_rest_until - self._clock()
            return rest if rest > 0 else None
        remaining, reset = self.budget(family)
        if remaining is None or reset is None or remaining > reserve:
            return None
        return max(1.0, reset - self._clock())

    async def call(
        self, name: str, *args: Any, family: str = READS, reserve: int = 0, **kwargs: Any
    ) -> Any:
        """``Mastodon.<name>(*args, **kwargs)`` in a worker thread, counted in ``family``.
        Raises :class:`RateLimited` rather than waiting, before the call when the headers
        say the budget (less ``reserve``) is spent, or after a 429."""
        wait = self.wait_needed(family, reserve=reserve)
        if wait is not None:
            raise RateLimited(name, wait, family=family)
        method = getattr(self._apis[family], name)
        try:
            return await asyncio.to_thread(method, *args, **kwargs)
        except MastodonRatelimitError:
            # Mastodon.py read the 429's headers before raising: they say when the limit
            # that refused it ends (the family's, or every call's).
            _, reset = self.budget(family)
            wait = max(1.0, reset - self._clock()) if reset is not None else UNKNOWN_WAIT_SECONDS
            if family == MEDIA:
                self._media_rest_until = self._clock() + wait
            raise RateLimited(name, wait, family=family) from None

    # -- media: counted here ---------------------------------------------------------

    def _media_wait(self) -> float | None:
        now = self._clock()
        if self._media_rest_until > now:
            return self._media_rest_until - now
        while self._uploads and self._uploads[0] <= now - MEDIA_WINDOW_SECONDS:
            self._uploads.popleft()
        if self._media_uploads and len(self._uploads) >= self._media_uploads:
            return self._uploads[0] + MEDIA_WINDOW_SECONDS - now
        return None

    def uploads_left(self) -> int | None:
        """Uploads the media budget allows now (None: unbounded)."""
        if self._media_wait() is not None:
            return 0
        if not self._media_uploads:
            return None
        return self._media_uploads - len(self._uploads)

    def take_upload(self) -> None:
        """Count one media upload, or raise :class:`RateLimited` when the instance's
        budget (30 in 30 minutes by default) is spent."""
        wait = self._media_wait()
        if wait is not None:
            raise RateLimited(MEDIA_BUDGET, wait, family=MEDIA)
        self._uploads.append(self._clock())

    # -- statuses: spread over their window --------------------------------------------

    def status_pause(self, *, reserve: int) -> float:
        """Seconds to wait before the next status, so that the 3-hour budget (less
        ``reserve``) lasts its window: up to :data:`STATUSES_BURST` go at once (a
        deadline's answers and a small game's boards), then no faster than an even share
        of the window each (about one in 38 s), so a deadline's posts never spend the
        window in minutes and leave the bot mute for hours. Raises :class:`RateLimited`
        when nothing but the reserve is left."""
        remaining, reset = self.budget(STATUSES)
        if remaining is None or reset is None:
            return 0.0  # a fresh window (or none known yet): nothing spent
        now = self._clock()
        if remaining <= reserve:
            raise RateLimited("statuses", max(1.0, reset - now), family=STATUSES)
        limit = int(self._apis[STATUSES].ratelimit_limit or STATUSES_PER_WINDOW)
        cap = max(1, limit - reserve)
        spent = limit - remaining
        elapsed = max(0.0, STATUSES_WINDOW_SECONDS - (reset - now))
        allowed = STATUSES_BURST + cap * elapsed / STATUSES_WINDOW_SECONDS
        if spent < allowed:
            return 0.0
        # When the allowance, growing evenly over the window, reaches one more status.
        due = (spent + 1 - STATUSES_BURST) * STATUSES_WINDOW_SECONDS / cap
        return min(max(0.0, due - elapsed), reset - now)
