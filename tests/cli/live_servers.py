"""What every ``bst run`` live test shares: a fake platform served on 127.0.0.1 from a
thread of its own while the bot runs in its own process, and that process started and
stopped. Each platform's test subclasses ``LocalServer`` with only what differs."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

ROOT = Path(__file__).resolve().parents[2]
Served = TypeVar("Served", bound="LocalServer")


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
