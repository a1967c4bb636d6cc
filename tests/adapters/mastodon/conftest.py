"""Fixtures for the Mastodon adapter: the fake instance served on 127.0.0.1, an adapter
built on the real Mastodon.py client pointed at it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from aiohttp.test_utils import TestServer
from fake_mastodon import TOKEN, FakeMastodon
from mastodon_support import MemoryCursors

from bot.adapters.mastodon.adapter import MastodonAdapter
from bot.adapters.mastodon.platform import MastodonConfig
from bot.games.catalog import games


@pytest.fixture
async def fake() -> AsyncIterator[FakeMastodon]:
    made = FakeMastodon()
    server = TestServer(made.app(), host="127.0.0.1")
    await server.start_server()
    made.base_url = str(server.make_url("")).rstrip("/")
    yield made
    await made.drop_streams()
    await server.close()
    assert made.violations == [], made.violations


@pytest.fixture
async def make_adapter(fake: FakeMastodon) -> AsyncIterator[Callable[..., MastodonAdapter]]:
    made: list[MastodonAdapter] = []

    async def no_wait(seconds: float) -> None:
        await asyncio.sleep(0)

    def make(cursors: MemoryCursors | None = None, **overrides: Any) -> MastodonAdapter:
        settings: dict[str, Any] = {
            "enabled": True,
            "instance": fake.base_url,
            "posts_per_minute": 0,
            "dms_per_minute": 0,
        }
        config = MastodonConfig(**{**settings, **overrides.pop("config", {})})
        adapter = MastodonAdapter(
            config,
            access_token=overrides.pop("access_token", TOKEN),
            cursors=cursors or MemoryCursors(),
            games=overrides.pop("games", games()),
            sleep=overrides.pop("sleep", no_wait),
            **overrides,
        )
        made.append(adapter)
        return adapter

    yield make
    for adapter in made:
        await adapter.stop()
