"""Test helpers for the Mastodon adapter's tests: cursors in memory, a handler that
records what it is given. (A module of its own, not the conftest: test
folders of several platforms each have a conftest, and ``from conftest import`` would
find whichever was imported first.)"""

from __future__ import annotations

import asyncio

from bot.host.messages import Inbound


class Collector:
    def __init__(self) -> None:
        self.items: list[Inbound] = []
        self.changed = asyncio.Event()

    async def __call__(self, inbound: Inbound) -> None:
        self.items.append(inbound)
        self.changed.set()

    async def wait_for(self, count: int, timeout: float = 10.0) -> None:
        async def reached() -> None:
            while len(self.items) < count:
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(reached(), timeout)


class MemoryCursors:
    def __init__(self) -> None:
        self.values: dict[tuple[str, str], str] = {}

    async def get(self, platform: str, key: str) -> str | None:
        return self.values.get((platform, key))

    async def set(self, platform: str, key: str, value: str) -> None:
        self.values[(platform, key)] = value

    async def all(self, platform: str) -> dict[str, str]:
        return {k: v for (p, k), v in self.values.items() if p == platform}

    async def forget(self, platform: str, key: str) -> None:
        self.values.pop((platform, key), None)
