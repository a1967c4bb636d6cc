"""The collector kept off what the process made to start (bot.host.runtime.collector)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from host_kit import MultiKit

from bot.host.runtime import collector, service


@pytest.fixture
def thawed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A process whose start is not frozen yet; thawed again afterwards (frozen objects
    are never collected, and the rest of the test session makes plenty)."""
    monkeypatch.setattr(collector._Start, "frozen", False)
    gc.unfreeze()
    yield
    gc.unfreeze()


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_the_start_is_frozen_after_its_garbage_is_collected(thawed: None) -> None:
    garbage = _Node()
    garbage.other = _Node()
    garbage.other.other = garbage  # a cycle: only the collector frees it
    gone = weakref.ref(garbage)
    del garbage
    kept = _Node()
    collector.freeze_the_start()
    assert gone() is None  # collected before the freeze, not kept forever
    assert gc.get_freeze_count() > 0
    assert not any(obj is kept for obj in gc.get_objects())  # out of every generation


def test_the_start_is_frozen_once_a_process(thawed: None) -> None:
    collector.freeze_the_start()
    frozen = gc.get_freeze_count()
    made_later = [_Node() for _ in range(100)]
    collector.freeze_the_start()  # a second host in the same process
    assert gc.get_freeze_count() == frozen
    assert any(obj is made_later[0] for obj in gc.get_objects())  # still collected as usual


def test_the_running_host_freezes_its_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    frozen: list[bool] = []
    monkeypatch.setattr(service, "freeze_the_start", lambda: frozen.append(True))
    kit = MultiKit(tmp_path)

    async def scenario() -> None:
        runner = asyncio.create_task(kit.host.run())
        for _ in range(500):
            if frozen:
                break
            await asyncio.sleep(0.01)
        runner.cancel()
        with pytest.raises(asyncio.CancelledError):
            await runner

    try:
        asyncio.run(scenario())
    finally:
        kit.close()
    assert frozen == [True]
