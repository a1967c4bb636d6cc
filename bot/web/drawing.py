"""The web page's drawing in a process of its own, at a lower CPU priority.

A new turn of a 1,000-captain game costs the web about a third of a second of CPU
(decoding the state, drawing the map, encoding its PNG). Drawn on a thread of the web's
own process, that work holds the interpreter lock the event loop needs to answer the
pages and pictures already drawn, and takes CPU from the bot beside it. So the
drawing runs in one worker process (spawned, so nothing of the server's threads is
copied into it) with a cache of its own over the same read-only database, niced: the
event loops of the web and the bot get the CPU first, and the web keeps serving what
is drawn (the previous turn's page, a moment old) while the new turn is drawn. The
process draws exactly what a thread would (the same :class:`PictureCache` methods, the
same renderers), so the bytes are the same.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

NICENESS = 10
"""How much lower the drawing process's CPU priority is than the server's."""

_cache: Any = None  # the drawing process's PictureCache


def _start(url: str) -> None:
    """In the drawing process: lower its priority, open the database read-only."""
    global _cache
    from bot.store import Store
    from bot.web.pictures import PictureCache

    os.nice(NICENESS)
    _cache = PictureCache(Store(url, read_only=True))


def _run(work: str, args: tuple[Any, ...]) -> Any:
    return getattr(_cache, work)(*args)


def _ready() -> bool:
    return _cache is not None


class DrawingProcess:
    """One worker process drawing for the web (see the module docstring)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start,
                initargs=(self.url,),
            )
        return self._pool

    def start(self) -> None:
        """Start the process now (its imports take a second or two), not at the first
        picture asked for."""
        self._executor().submit(_ready)

    async def run(self, work: str, *args: Any) -> Any:
        """``PictureCache.<work>(*args)`` in the drawing process. A process that died
        (killed for memory, say) is replaced once, and the work asked of the new one."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), _run, work, args)
        except BrokenProcessPool:
            self.stop()
            return await loop.run_in_executor(self._executor(), _run, work, args)

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
