"""Once a bot or web process has started, its long-lived objects are frozen out of the
cyclic collector's full passes (bot.host.runtime.heap): a full collection, which stops the
event loop while it runs, walks only what was made since (issue 28,
``ack_p99_web_ms``: full passes of 80–200 ms met bursts of slash commands)."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator

import pytest

from bot.host.runtime import heap


@pytest.fixture
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()  # the rest of the test run collects as before


def _full_pass_ms() -> float:
    began = time.perf_counter()
    gc.collect(2)
    return (time.perf_counter() - began) * 1000


def test_settling_freezes_what_start_up_made_and_shortens_a_full_pass(unfrozen: None) -> None:
    long_lived = [{"cell": (row, col)} for row in range(300) for col in range(300)]
    before = min(_full_pass_ms() for _ in range(3))
    frozen = heap.settle()
    assert frozen >= len(long_lived) and gc.get_freeze_count() == frozen
    after = min(_full_pass_ms() for _ in range(3))
    assert after < before / 2, (before, after)
    # what is made later is still collected
    cycle: list[object] = []
    cycle.append(cycle)
    del cycle
    assert gc.collect() >= 1


def test_bst_run_and_bst_web_settle_before_they_serve() -> None:
    import inspect

    from bot.cli import run, web

    for module, entry in ((run, run.run_hosted), (web, web.run_web)):
        source = inspect.getsource(entry)
        assert source.index("heap.settle()") < source.index("asyncio.run("), module
