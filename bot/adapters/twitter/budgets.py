"""X's rate budgets, as its response headers report them, per endpoint.

A send whose budget is known to be spent fails fast with ``retry_after``
instead of spending a request on a certain 429.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass


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
