"""Scripted games kept in a database (``bst script --database``) and the web page served
over a real socket on 127.0.0.1 (aiohttp's test server), for the web's tests."""

from __future__ import annotations

import asyncio
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from threading import Thread
from typing import Any

from bot.cli import script as script_cli
from bot.cli.web import open_read_only, platform_faces
from bot.store import Store
from bot.web.app import WebServer
from bot.web.guards import Limits, proxies
from bot.wiring import sqlite_url


def play(database: Path, text: str, folder: Path) -> int:
    """Play ``text`` as a script into ``database`` (kept); the number of its game."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / f"script-{len(list(folder.glob('script-*.txt')))}.txt"
    script.write_text(text, encoding="utf-8")
    run = asyncio.run(
        script_cli.run_script(
            script,
            record_path=None,
            out_dir=folder / "out",
            echo=lambda _line: None,
            database_url=sqlite_url(database),
        )
    )
    game_id = run.game_id()
    run.store.dispose()
    assert game_id is not None, "the script opened no game"
    return game_id


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


class Served:
    """The web page of a database, served from a thread of its own on a real socket."""

    def __init__(
        self,
        database: Path,
        *,
        live_interval: float = 0.2,
        draw_in_process: bool = False,
        limits: Limits | None = None,
        trusted_proxies: tuple[str, ...] = (),
        site_url: str = "",
    ) -> None:
        self.store: Store = open_read_only(sqlite_url(database))
        self.server = WebServer(
            self.store,
            "127.0.0.1",
            0,
            live_interval=live_interval,
            draw_in_process=draw_in_process,
            limits=limits,
            trusted_proxies=proxies(trusted_proxies),
            site_url=site_url,
            faces=platform_faces(),  # as `bst web` serves it
        )
        self.loop = asyncio.new_event_loop()
        self._thread = Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(30)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def get(self, path: str, headers: dict[str, str] | None = None) -> Response:
        request = urllib.request.Request(self.base + path, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return Response(answer.status, dict(answer.headers), answer.read())
        except urllib.error.HTTPError as error:
            return Response(error.code, dict(error.headers), error.read())

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()
        self.store.dispose()


@contextmanager
def served(database: Path, **options: Any) -> Iterator[Served]:
    site = Served(database, **options)
    try:
        yield site
    finally:
        site.close()
