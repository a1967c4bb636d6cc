"""Fixtures for the X adapter: the fake X server, a cursor store, an adapter."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from aiohttp.test_utils import TestServer
from fake_x_api import SPEC_PATH, Credentials, FakeX, XSpec
from x_support import (
    ACCESS_SECRET,
    ACCESS_TOKEN,
    ALICE,
    API_KEY,
    API_SECRET,
    BEARER,
    BOB,
    MemoryCursors,
)

from bot.adapters.twitter import TwitterAdapter, TwitterCredentials
from bot.config import TwitterConfig
from bot.games.catalog import games


@pytest.fixture(scope="session")
def x_spec() -> XSpec:
    if not SPEC_PATH.exists():
        pytest.skip(reason=f"X API spec not found at {SPEC_PATH} (shared/specs beside the repo)")
    return XSpec(SPEC_PATH)


@pytest.fixture
async def fake_x(x_spec: XSpec) -> AsyncIterator[FakeX]:
    fake = FakeX(x_spec, Credentials(API_KEY, API_SECRET, ACCESS_TOKEN, ACCESS_SECRET, BEARER))
    fake.add_user(ALICE, "alice", "Alice")
    fake.add_user(BOB, "bob", "Bob")
    server = TestServer(fake.app(), host="127.0.0.1")
    await server.start_server()
    fake.base_url = str(server.make_url("")).rstrip("/")  # type: ignore[attr-defined]
    yield fake
    await server.close()
    assert fake.violations == [], fake.violations


@pytest.fixture
def credentials() -> TwitterCredentials:
    return TwitterCredentials(API_KEY, API_SECRET, ACCESS_TOKEN, ACCESS_SECRET, BEARER)


class FakeClock:
    def __init__(self, now: float = 1_785_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
async def make_adapter(
    fake_x: FakeX, credentials: TwitterCredentials, clock: FakeClock, sleeps: list[float]
) -> AsyncIterator[Callable[..., TwitterAdapter]]:
    made: list[TwitterAdapter] = []

    async def fast_sleep(seconds: float) -> None:
        sleeps.append(seconds)
        await asyncio.sleep(0)

    def make(cursors: MemoryCursors | None = None, **overrides: Any) -> TwitterAdapter:
        config = overrides.pop("config", TwitterConfig(enabled=True, bot_user_id=fake_x.bot_id))
        adapter = TwitterAdapter(
            config,
            credentials=overrides.pop("credentials", credentials),
            cursors=cursors or MemoryCursors(),
            games=overrides.pop("games", games()),
            base_url=fake_x.base_url,  # type: ignore[attr-defined]
            sleep=overrides.pop("sleep", fast_sleep),
            clock=clock,
            **overrides,
        )
        made.append(adapter)
        return adapter

    yield make
    for adapter in made:
        await adapter.stop()
