"""The web server draws and decodes big boards on worker threads; while it does, the
interpreter hands its lock back to the event loop every half millisecond instead of
every 5 ms (bot.host.runtime.yielding), so the pages and pictures already drawn keep being
served at their pace while a new turn's map is drawn (issue 28, ``web_p99_ms``)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.host.runtime.yielding import SWITCH_INTERVAL
from bot.store import Store
from bot.web.pictures import Drawn, PictureCache
from bot.wiring import sqlite_url


def test_a_picture_is_drawn_with_the_short_switch_interval_and_it_is_restored(
    tmp_path: Path,
) -> None:
    store = Store(sqlite_url(tmp_path / "empty.sqlite"))
    cache = PictureCache(store)
    before = sys.getswitchinterval()
    seen: list[float] = []

    def draw(game_id: int, number: int, step: int, viewer: str | None) -> Drawn:
        seen.append(sys.getswitchinterval())
        return Drawn(b"png", "image/png", "", 1, 1)

    cache.draw_board = draw  # type: ignore[method-assign]
    try:
        drawn = asyncio.run(cache.board(1, 1, 0, None))
    finally:
        store.dispose()
    assert drawn is not None and drawn.data == b"png"
    assert seen == [SWITCH_INTERVAL] and before > SWITCH_INTERVAL
    assert sys.getswitchinterval() == before


def test_the_interval_stays_short_until_the_last_of_several_drawings_ends() -> None:
    from bot.host.runtime.yielding import off_loop

    before = sys.getswitchinterval()

    async def main() -> list[float]:
        started = asyncio.Event()
        release = asyncio.Event()
        loop = asyncio.get_running_loop()

        def slow() -> float:
            loop.call_soon_threadsafe(started.set)
            asyncio.run_coroutine_threadsafe(release.wait(), loop).result(10)
            return sys.getswitchinterval()

        first = asyncio.ensure_future(off_loop(slow))
        await started.wait()
        quick = await off_loop(sys.getswitchinterval)  # ends while the first still runs
        during = sys.getswitchinterval()
        release.set()
        return [quick, during, await first]

    quick, during, slow = asyncio.run(main())
    assert quick == during == slow == SWITCH_INTERVAL
    assert sys.getswitchinterval() == before
