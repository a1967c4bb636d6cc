"""An even pace for a platform's posts and DMs, shared by every adapter that spreads a
deadline's messages rather than sending them in one burst (X, Mastodon, Bluesky).
Discord's pace is its own (:mod:`bot.adapters.discord.pacing`): it keeps one global limit for
every request, not a rate a minute per kind of message."""

from __future__ import annotations

from collections.abc import Awaitable, Callable


class Pace:
    """At most ``per_minute`` calls a minute, spread evenly: each call takes the next free
    slot (reserved before waiting, so calls made together queue up one interval apart)
    and waits for it. Nothing is dropped; a deadline's posts go out over minutes instead
    of in one burst (the pattern that gets a bot account limited or labelled as spam).
    ``per_minute`` 0: no pacing."""

    def __init__(
        self,
        per_minute: int,
        *,
        clock: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]],
    ) -> None:
        self._interval = 60.0 / per_minute if per_minute > 0 else 0.0
        self._clock = clock
        self._sleep = sleep
        self._next = -float("inf")

    async def wait(self) -> None:
        if self._interval <= 0:
            return
        now = self._clock()
        slot = max(now, self._next)
        self._next = slot + self._interval
        if slot > now:
            await self._sleep(slot - now)
