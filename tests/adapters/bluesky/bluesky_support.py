"""Test helpers for the Bluesky adapter's tests: cursors in memory, a handler that
records what it is given, a clock. (A module of its own, not the conftest: test
folders of several platforms each have a conftest, and ``from conftest import`` would
find whichever was imported first.)"""

from __future__ import annotations

from typing import Any

from bot.host.outbox.attachments import AttachmentRenderer
from bot.host.outbox.avatar_cache import AvatarCache
from bot.host.runtime.clock import VirtualClock
from bot.host.runtime.limits import NO_LIMITS, Limits
from bot.host.runtime.service import Host
from bot.store import Store
from bot.wiring import no_network


def bluesky_host(
    store: Store, clock: VirtualClock, adapter: Any, *, limits: Limits = NO_LIMITS
) -> Host:
    """The real host with ``adapter`` as its one platform, pictures drawn offline."""
    return Host(
        store,
        clock,
        {"bluesky": adapter},
        AttachmentRenderer(store, AvatarCache(fetch=no_network), replay_gif=False),
        limits=limits,
    )


class Collector:
    """An on_inbound handler that records what it was given."""

    def __init__(self) -> None:
        self.items: list[Any] = []

    async def __call__(self, inbound: Any) -> None:
        self.items.append(inbound)


class MemoryCursors:
    """The CursorStore protocol, in memory (the real one lives in bot.store)."""

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


class FakeClock:
    def __init__(self, now: float = 1_785_056_400.0) -> None:  # 2026-07-26 09:00 UTC
        self.now = now

    def __call__(self) -> float:
        return self.now
