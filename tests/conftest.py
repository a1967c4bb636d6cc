"""Shared fixtures of the host tests: scripts played in-process (no images
drawn), and a Host on a virtual clock with a recording adapter (tests/host/host_fakes.py)."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# No test asserts a time (timings belong in benchmarks/): hypothesis's per-example deadline
# is one, and it failed a property test for nothing on a loaded machine. Off for every test;
# a test's own @settings may still narrow its examples, never bring a deadline back.
settings.register_profile("bst", deadline=None)
settings.load_profile("bst")

# pytest puts tests/ on sys.path for this file, where tests/renderers would
# shadow the real `renderers` package: the project root must come first.
_HERE = Path(__file__).resolve().parent
for _path in (str(_HERE / "host"), str(_HERE.parent)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from host_fakes import HostKit, host_without_images  # noqa: E402

from bot.cli import script as script_cli  # noqa: E402


@pytest.fixture(autouse=True)
def _logging_as_it_was() -> Iterator[None]:
    """Each test leaves logging as it found it: a command run in-process (``bst run``,
    ``bst web``, ``bst script``) sets the root's level and holds the
    libraries' loggers at INFO, and the web page puts filters on aiohttp's; kept for the
    rest of the session, they made later tests' captured logs depend on the order."""
    root = logging.getLogger()
    # (Not the root's handlers: pytest puts its own there for each phase of a test.)
    kept_root = (root.level, root.filters[:])
    loggers = {
        name: (logger.level, logger.filters[:], logger.disabled, logger.propagate)
        for name, logger in logging.Logger.manager.loggerDict.items()
        if isinstance(logger, logging.Logger)
    }
    yield
    root.setLevel(kept_root[0])
    root.filters[:] = kept_root[1]
    for name, logger in logging.Logger.manager.loggerDict.items():
        if not isinstance(logger, logging.Logger):
            continue
        level, filters, disabled, propagate = loggers.get(name, (logging.NOTSET, [], False, True))
        logger.setLevel(level)
        logger.filters[:] = filters
        logger.disabled, logger.propagate = disabled, propagate


@pytest.fixture
def run_script_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Callable[[str], tuple[list[str], dict[str, Any]]]:
    """Play a script through the real host (no images drawn): (transcript lines, record)."""
    monkeypatch.setattr(script_cli, "build_host", host_without_images)
    counter = iter(range(1_000_000))

    def run(text: str) -> tuple[list[str], dict[str, Any]]:
        n = next(counter)
        path = tmp_path / f"script{n}.txt"
        path.write_text(text, encoding="utf-8")
        record_path = tmp_path / f"record{n}.json"
        result = asyncio.run(
            script_cli.run_script(
                path,
                record_path=record_path,
                out_dir=tmp_path / f"out{n}",
                echo=lambda _line: None,
                database=tmp_path / f"db{n}.sqlite",
            )
        )
        transcript = list(result.adapter.transcript)
        result.store.dispose()
        return transcript, json.loads(record_path.read_text(encoding="utf-8"))

    return run


@pytest.fixture
def kit(tmp_path: Path) -> Iterator[HostKit]:
    made = HostKit(tmp_path)
    yield made
    made.store.dispose()
