"""What Bluesky lets one account write, and how fast the bot chooses to.

Three kinds of limit, each its own class:

* :class:`WritePoints`: the PDS's write budget per account, 5,000 points an hour and
  35,000 a day, a created record costing 3 (an update 2, a deletion 1). The PDS says
  nothing of it until it refuses, so the bot keeps the account itself and holds a post
  back (``retry_after``) rather than spend a write on a certain 429.
* :class:`RateWindows`: what each endpoint's ``RateLimit-Remaining`` and
  ``RateLimit-Reset`` headers said (the IETF draft Bluesky's services send, with
  ``RateLimit-Limit`` and ``RateLimit-Policy``): an endpoint known to be spent waits for
  its reset.
* :class:`MentionBudget`: Bluesky's automod flags an account that mentions many people
  (about 40 distinct accounts an hour): beyond the budget a name is written without its
  mention facet, which notifies nobody.

The posting pace (5 a minute, DMs 2 s apart) is the shared :class:`bot.adapters.pacing.Pace`.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["BudgetSpent", "MentionBudget", "RateWindows", "WritePoints"]

CREATE_POINTS = 3
HOUR = 3600.0
DAY = 86_400.0


class BudgetSpent(Exception):
    """A write budget is known to be spent; raised *before* a call."""

    def __init__(self, what: str, retry_after: float) -> None:
        super().__init__(f"Bluesky {what} spent; retry in {retry_after:.0f} s")
        self.retry_after = max(1.0, retry_after)


class WritePoints:
    """The account's write points over the last hour and the last day."""

    def __init__(
        self, per_hour: int, per_day: int, *, clock: Callable[[], float] = time.time
    ) -> None:
        self._limits = ((HOUR, per_hour), (DAY, per_day))
        self._clock = clock
        self._spent: deque[tuple[float, int]] = deque()

    def _in(self, window: float, now: float) -> int:
        return sum(points for at, points in self._spent if at > now - window)

    def spend(self, points: int = CREATE_POINTS) -> None:
        """Count ``points`` now, or raise :class:`BudgetSpent` saying when they fit."""
        now = self._clock()
        while self._spent and self._spent[0][0] <= now - DAY:
            self._spent.popleft()
        for window, limit in self._limits:
            if limit <= 0 or self._in(window, now) + points <= limit:
                continue
            # Wait until enough of the window's oldest writes have aged out of it.
            over = self._in(window, now) + points - limit
            freed = 0
            for at, spent in self._spent:
                if at <= now - window:
                    continue
                freed += spent
                if freed >= over:
                    raise BudgetSpent(
                        f"write budget ({limit} points per {window / 3600:.0f} h)",
                        at + window - now,
                    )
            raise BudgetSpent(f"write budget ({limit} points)", window)
        self._spent.append((now, points))


@dataclass
class _Window:
    remaining: int
    reset_at: float


class RateWindows:
    """Each endpoint's last ``RateLimit-Remaining``/``-Reset`` (reset: epoch seconds)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._windows: dict[str, _Window] = {}

    def record(self, endpoint: str, headers: Mapping[str, str]) -> None:
        remaining = headers.get("ratelimit-remaining")
        reset = headers.get("ratelimit-reset")
        if remaining is None or reset is None:
            return
        try:
            self._windows[endpoint] = _Window(int(remaining), float(reset))
        except ValueError:
            return

    def retry_after(self, endpoint: str) -> float | None:
        """Seconds until ``endpoint`` may be called again, or None if it may now."""
        window = self._windows.get(endpoint)
        now = self._clock()
        if window is None or window.remaining > 0 or window.reset_at <= now:
            return None
        return window.reset_at - now

    def check(self, endpoint: str) -> None:
        wait = self.retry_after(endpoint)
        if wait is not None:
            raise BudgetSpent(f"rate limit of {endpoint}", wait)


class MentionBudget:
    """Distinct accounts mentioned (with a facet) in the last hour, at most ``per_hour``.
    An account already mentioned this hour costs nothing more."""

    def __init__(self, per_hour: int, *, clock: Callable[[], float] = time.time) -> None:
        self._per_hour = per_hour
        self._clock = clock
        self._last: dict[str, float] = {}

    def allow(self, did: str) -> bool:
        """Whether ``did`` may be mentioned now (and count it if so)."""
        now = self._clock()
        self._last = {d: at for d, at in self._last.items() if at > now - HOUR}
        if did in self._last:
            self._last[did] = now
            return True
        if self._per_hour > 0 and len(self._last) >= self._per_hour:
            return False
        self._last[did] = now
        return True
