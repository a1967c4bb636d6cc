"""Fixtures for the Bluesky adapter: the fake PDS and chat service, cursors, an adapter."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from aiohttp.test_utils import TestServer
from bluesky_support import FakeClock, MemoryCursors
from fake_bluesky import APP_PASSWORD, BOT_HANDLE, FakeBluesky

from bot.adapters.bluesky.adapter import BlueskyAdapter
from bot.adapters.bluesky.platform import BlueskyConfig
from bot.games.catalog import games


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def fake_bsky() -> AsyncIterator[FakeBluesky]:
    fake = FakeBluesky()
    server = TestServer(fake.app(), host="127.0.0.1")
    await server.start_server()
    fake.base_url = str(server.make_url("")).rstrip("/")  # type: ignore[attr-defined]
    yield fake
    await server.close()
    assert fake.violations == [], fake.violations


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
async def make_adapter(
    fake_bsky: FakeBluesky, clock: FakeClock, sleeps: list[float]
) -> AsyncIterator[Callable[..., BlueskyAdapter]]:
    made: list[BlueskyAdapter] = []

    async def fast_sleep(seconds: float) -> None:
        sleeps.append(seconds)
        await asyncio.sleep(0)

    def make(cursors: Any = None, **overrides: Any) -> BlueskyAdapter:
        config = overrides.pop("config", BlueskyConfig(enabled=True, handle=BOT_HANDLE))
        adapter = BlueskyAdapter(
            config,
            password=overrides.pop("password", APP_PASSWORD),
            cursors=cursors if cursors is not None else MemoryCursors(),
            games=overrides.pop("games", games()),
            base_url=fake_bsky.base_url,  # type: ignore[attr-defined]
            sleep=overrides.pop("sleep", fast_sleep),
            clock=overrides.pop("clock", clock),
        )
        made.append(adapter)
        return adapter

    yield make
    for adapter in made:
        await adapter.stop()
