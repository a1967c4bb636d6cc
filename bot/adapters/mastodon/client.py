"""The connection to the bot's instance: Mastodon.py, off the event loop, paced.

Mastodon.py is synchronous (requests), so every call runs in a worker thread
(``asyncio.to_thread``) and the event loop never waits on the network. The client is
made with ``ratelimit_method="throw"``: a 429 is raised, never slept on inside a
thread. Mastodon allows an account 300 requests per 5 minutes and says how many are
left in every answer's ``X-RateLimit-Remaining`` / ``X-RateLimit-Reset``, which
Mastodon.py keeps; the client reads them before each call, so a spent budget fails fast
with the wait (:class:`RateLimited`) instead of spending a request on a certain 429,
and sends leave a reserve for reading mentions. Media uploads have a budget of their
own (30 per 30 minutes), which the headers of ``/api/v2/media`` do not show: it is
counted here.
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
# Requests kept back from sends, so a deadline's burst of maps and boards never spends
# what the bot needs to read its mentions (and catch up before the next deadline).
READ_RESERVE = 20
MEDIA_UPLOADS = 30
MEDIA_WINDOW_SECONDS = 30 * 60.0
MEDIA_BUDGET = "media uploads"
REQUEST_TIMEOUT = 30.0


class RateLimited(Exception):
    """The account's budget is spent (a 429, or the headers said so before the call)."""

    def __init__(self, what: str, retry_after: float) -> None:
        super().__init__(f"Mastodon rate limit on {what}; retry in {retry_after:.0f} s")
        self.what = what
        self.retry_after = retry_after


class MastodonClient:
    """The bot account on its instance: one Mastodon.py client, called in threads."""

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
        self.api = Mastodon(
            access_token=access_token,
            api_base_url=self.instance,
            ratelimit_method="throw",
            # No version probe at construction (a request on the event loop); the
            # adapter reads /api/v2/instance itself.
            version_check_mode="none",
            request_timeout=REQUEST_TIMEOUT,
            user_agent=USER_AGENT,
        )
        self._uploads: deque[float] = deque()

    def wait_needed(self, *, reserve: int = 0) -> float | None:
        """Seconds until the budget allows a call that must leave ``reserve`` requests
        unspent, from the last answer's headers; None when it allows one now."""
        remaining = self.api.ratelimit_remaining
        reset = self.api.ratelimit_reset
        now = self._clock()
        if remaining is None or reset is None or reset <= now:
            return None
        if remaining > reserve:
            return None
        return max(1.0, float(reset) - now)

    async def call(self, name: str, *args: Any, reserve: int = 0, **kwargs: Any) -> Any:
        """``Mastodon.<name>(*args, **kwargs)`` in a worker thread. Raises
        :class:`RateLimited` rather than waiting, before the call when the headers say
        the budget (less ``reserve``) is spent, or after a 429."""
        wait = self.wait_needed(reserve=reserve)
        if wait is not None:
            raise RateLimited(name, wait)
        method = getattr(self.api, name)
        try:
            return await asyncio.to_thread(method, *args, **kwargs)
        except MastodonRatelimitError:
            # Mastodon.py read the 429's headers before raising: they say when it resets.
            wait = self.wait_needed()
            raise RateLimited(name, wait or 60.0) from None

    def take_upload(self) -> None:
        """Count one media upload, or raise :class:`RateLimited` when the instance's
        budget (30 in 30 minutes by default) is spent."""
        now = self._clock()
        while self._uploads and self._uploads[0] <= now - MEDIA_WINDOW_SECONDS:
            self._uploads.popleft()
        if self._media_uploads and len(self._uploads) >= self._media_uploads:
            raise RateLimited(MEDIA_BUDGET, self._uploads[0] + MEDIA_WINDOW_SECONDS - now)
        self._uploads.append(now)
