"""What every ``bst run`` live test shares: a fake platform served on 127.0.0.1 from a
thread of its own while the bot runs in its own process, and that process started and
stopped. Each platform's test subclasses ``LocalServer`` with only what differs."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from aiohttp import web

ROOT = Path(__file__).resolve().parents[2]
Served = TypeVar("Served", bound="LocalServer")


def load_fake(name: str, path: Path) -> ModuleType:
    """A fake from the adapters' tests (they are not a package), as module ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LocalServer:
    """A fake's web apps on 127.0.0.1, served from a thread of their own. Every change
    to the fake's world is made on that thread (``call``, ``do``): the fake is not
    thread-safe, and the bot talks to it over HTTP from its own process."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._runners: list[web.AppRunner] = []

    def start(self) -> None:
        """Subclasses serve their apps (``serve``) after this."""
        self._thread.start()

    def serve(self, app: web.Application, port: int | None = None) -> int:
        """Serves ``app`` on ``port`` (a free one if none) and says which."""

        async def serve() -> int:
            runner = web.AppRunner(app)
            await runner.setup()
            chosen = free_port() if port is None else port
            await web.TCPSite(runner, "127.0.0.1", chosen).start()
            self._runners.append(runner)
            return chosen

        return int(self.call(serve()))

    def call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=10)

    def do(self, work: Callable[[], Any]) -> Any:
        async def run() -> Any:
            return work()

        return self.call(run())

    def stop(self) -> None:
        for runner in self._runners:
            self.call(runner.cleanup())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)


def served(made: Served) -> Iterator[Served]:
    """A fixture's body: ``made`` started for the test and stopped after it."""
    made.start()
    yield made
    made.stop()


def environment(tmp_path: Path, secrets: dict[str, str]) -> dict[str, str]:
    """All ``bst run`` sees: the project on its path, a home of its own, its secrets."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT),
            "HOME": str(tmp_path), **secrets}  # fmt: skip


def start_bst(
    config: Path, tmp_path: Path, secrets: dict[str, str], log: str
) -> subprocess.Popen[str]:
    """``bst run`` in its own process. Its log goes to the file ``log`` under ``tmp_path``:
    a whole game logs more than a pipe holds unread."""
    stderr = (tmp_path / log).open("w", encoding="utf-8")
    return subprocess.Popen([sys.executable, "-m", "bot", "run", "--config", str(config)],
                            cwd=tmp_path, env=environment(tmp_path, secrets),
                            stdout=subprocess.DEVNULL, stderr=stderr, text=True)  # fmt: skip


def stop_bst(process: subprocess.Popen[str]) -> int:
    """SIGTERM, as a host stops it; killed if it has not ended within 30 s."""
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()


def wait_for(condition: Callable[[], Any], what: str, process: subprocess.Popen[str], *,
             timeout: float, log: Callable[[], str] = str, pause: float = 0.1) -> Any:  # fmt: skip
    """What ``condition`` finds once it finds something; fails, with the end of ``log``,
    when ``bst run`` ends first or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        if process.poll() is not None:
            raise AssertionError(f"bst run ended ({process.returncode}) before {what}: "
                                 f"{log()[-3000:]}")  # fmt: skip
        time.sleep(pause)
    raise AssertionError(f"no {what} within {timeout} s: {log()[-3000:]}")


def write_config(tmp_path: Path, platforms: str, limits: str = "") -> Path:
    """``config.toml`` for a whole game within a test: its database under ``tmp_path``,
    turns of seconds (and ``limits``' other lines), then the ``platforms``' sections."""
    path = tmp_path / "config.toml"
    path.write_text(f"""
[database]
url = "sqlite:///{tmp_path / "bst.db"}"

[limits]
min_duration = "1s"  # turns of seconds: a whole game within the test
{limits}
{platforms}""", encoding="utf-8")  # fmt: skip
    return path
