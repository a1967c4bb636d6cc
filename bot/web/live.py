"""Live updates: an open page learns that its game changed (a turn resolved, a timer
was extended) without reloading, by server-sent events.

One poller for the whole process reads the versions of the games someone is watching,
all in one query, every ``interval`` seconds (the bot may run in another process: the
database is what both share), and hands each change to that game's watchers. A page
compares the version it was drawn at with the one it is told, and fetches itself anew
when they differ.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Mapping, Sequence

log = logging.getLogger(__name__)

Versions = Callable[[Sequence[int]], Mapping[int, str]]


class LiveHub:
    def __init__(self, versions: Versions, *, interval: float = 1.0) -> None:
        self._versions = versions
        self.interval = interval
        self._watchers: dict[int, set[asyncio.Queue[str]]] = {}
        self._known: dict[int, str] = {}
        self._poller: asyncio.Task[None] | None = None
        self._reading: dict[int, asyncio.Future[str | None]] = {}

    async def watch(self, game_id: int) -> AsyncIterator[str]:
        """The game's version now, then each new one as it comes, until the caller stops."""
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=8)
        self._watchers.setdefault(game_id, set()).add(queue)
        if self._poller is None or self._poller.done():
            self._poller = asyncio.create_task(self._poll())
        try:
            now = self._known.get(game_id)
            if now is None:
                now = await self._read(game_id)
            if now is not None:
                self._known.setdefault(game_id, now)
                yield now
            while True:
                yield await queue.get()
        finally:
            watchers = self._watchers.get(game_id)
            if watchers is not None:
                watchers.discard(queue)
                if not watchers:
                    del self._watchers[game_id]
                    self._known.pop(game_id, None)

    def known(self, game_id: int) -> str | None:
        """The game's newest version this hub has read, while someone watches it."""
        return self._known.get(game_id)

    async def _read(self, game_id: int) -> str | None:
        """The game's version, read once for all who start watching it together (a
        thousand streams opened at once would otherwise queue a thousand reads on the
        worker threads, ahead of every page's)."""
        reading = self._reading.get(game_id)
        if reading is None:

            async def read() -> str | None:
                return (await asyncio.to_thread(self._versions, [game_id])).get(game_id)

            reading = self._reading[game_id] = asyncio.ensure_future(read())
            reading.add_done_callback(lambda _done: self._reading.pop(game_id, None))
        return await asyncio.shield(reading)

    async def _poll(self) -> None:
        while self._watchers:
            await asyncio.sleep(self.interval)
            ids = sorted(self._watchers)
            try:
                versions = await asyncio.to_thread(self._versions, ids)
            except Exception:  # the database is away for a moment: try again next time
                log.exception("live updates: could not read the games' versions")
                continue
            for game_id, version in versions.items():
                if self._known.get(game_id) == version:
                    continue
                self._known[game_id] = version
                for queue in self._watchers.get(game_id, ()):
                    with contextlib.suppress(asyncio.QueueFull):  # a slow reader skips one
                        queue.put_nowait(version)

    async def stop(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
            self._poller = None
