"""Discord's global rate limit, kept on the bot's side: requests leave at a steady pace.

Discord allows an application 50 requests a second, whatever the route, and answers
past that with a global 429. discord.py keeps each route's bucket from the
``X-RateLimit-*`` headers, but the global limit only once it has been hit: with the
relay sending to several places at once, a deadline's thousands of posts would reach
Discord as fast as the connection carries them, and every request past the 50th in a
second would come back 429 and be sent again (requests spent for nothing, and a bot that
keeps hitting 429s is the kind Discord bans for a while).

So every request waits for its turn here first, one every ``1 / per_second`` seconds
(``[discord] requests_per_second``, a little under Discord's 50 so that the network's
jitter never bunches two seconds' requests into one). The wait is hooked into the
client's own HTTP session (an ``aiohttp.TraceConfig`` given to discord.py as
``http_trace``: its ``on_request_start`` is awaited before the request is sent), so it
covers every request discord.py makes, with its own bucket handling untouched.

An interaction's endpoints (the deferral, its follow-ups through the interaction's
webhook) are not bound by the global limit, and must never wait behind a deadline's
posts: Discord gives a command 3 seconds for its first answer.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

import aiohttp

# The interaction callback and its webhook's follow-ups (the application's id and the
# interaction's token), after the API base and version.
UNBOUND = re.compile(r"/interactions/\d+/[^/]+/callback$|/webhooks/\d+/[^/]+(/messages/.+)?$")


class GlobalPace:
    """One request every ``1 / per_second`` seconds at most, in the order they ask; the
    first waits for nobody. After a quiet spell (or a stalled loop) the pace resumes from
    now, never with a burst to make up for lost time."""

    def __init__(
        self,
        per_second: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        if per_second <= 0:
            raise ValueError("requests_per_second must be above 0")
        self.interval = 1.0 / per_second
        self._clock = clock
        self._sleep = sleep
        self._next = 0.0
        self.waited = 0  # requests that had to wait for their turn

    async def turn(self) -> None:
        """Wait for this request's slot (taken at once, so concurrent callers queue)."""
        now = self._clock()
        slot = max(now, self._next)
        self._next = slot + self.interval
        if slot > now:
            self.waited += 1
            await self._sleep(slot - now)

    def trace(self) -> aiohttp.TraceConfig:
        """The hook discord.py's session calls before each request (``http_trace``)."""
        config = aiohttp.TraceConfig()

        async def on_request_start(
            session: aiohttp.ClientSession,
            context: SimpleNamespace,
            params: aiohttp.TraceRequestStartParams,
        ) -> None:
            if not UNBOUND.search(params.url.path):
                await self.turn()

        config.on_request_start.append(on_request_start)
        return config
