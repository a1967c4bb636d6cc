"""``bst web``: the game's web page on its own (``bst run`` serves it too when
``[web] enabled``)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys

from bot.config import Config, redacted_url, secret_values
from bot.host.messages import PlatformFace
from bot.host.runtime import heap
from bot.logs import configure_logging
from bot.platforms import platforms
from bot.store import Store
from bot.store.database import DatabaseGone, when_gone
from bot.web.app import PortBusy, WebServer
from bot.web.guards import proxies


def open_read_only(url: str) -> Store:
    """The web's store: read-only. A SQLite file is brought to the current schema first
    (as ``bst run`` would); PostgreSQL is ``bst migrate``'s."""
    if url.startswith("sqlite"):
        Store(url).dispose()
    return Store(url, read_only=True)


def platform_faces() -> dict[str, PlatformFace]:
    """How the page names each registered platform and links a game's channel there."""
    return {declared.name: declared.face for declared in platforms() if declared.face}


def web_server(config: Config, url: str | None = None) -> WebServer:
    """The web page of ``config`` (``url`` overrides its database)."""
    url = url or config.database_url()
    store = open_read_only(url)
    # Pictures are drawn in a process of their own (bot.web.drawing), which opens the
    # same database: not possible for a database in this process's memory.
    shared = not url.endswith(":memory:")
    return WebServer(
        store,
        config.web.host,
        config.web.port,
        draw_in_process=shared,
        trusted_proxies=proxies(config.web.trusted_proxies),
        site_url=config.web.base_url,
        faces=platform_faces(),
    )


async def _serve(server: WebServer, gone: list[DatabaseGone]) -> None:
    await server.start()
    print(f"bst web: serving http://{server.host}:{server.port}/ (Ctrl-C stops)", flush=True)
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    if sys.platform != "win32":
        loop.add_signal_handler(signal.SIGTERM, stopped.set)

    def database_gone(error: DatabaseGone) -> None:
        # Every page would fail from now on: stop, saying why, rather than answer 500s.
        gone.append(error)
        loop.call_soon_threadsafe(stopped.set)

    forget = when_gone(database_gone)
    try:
        await stopped.wait()
    finally:
        forget()
        await server.stop()
        server.store.dispose()


def run_web(config: Config, args: argparse.Namespace) -> int:
    configure_logging(config.logging.level, secret_values(config), as_json=config.logging.json)
    url = args.database or config.database_url()
    if url.startswith("sqlite:///") and not url.endswith(":memory:"):
        from pathlib import Path

        if not Path(url.removeprefix("sqlite:///")).exists():
            print(
                f"bst: no database at {redacted_url(url)}: name yours with --database "
                "(e.g. sqlite:///bst.db) or --config",
                file=sys.stderr,
            )
            return 2
    server = web_server(config, url)
    if args.host:
        server.host = args.host
    if args.port is not None:
        server.port = args.port
    heap.settle()  # everything start-up made, out of the collector's full passes
    gone: list[DatabaseGone] = []
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_serve(server, gone))
    except PortBusy as busy:
        print(f"bst: {busy}", file=sys.stderr)
        return 2
    if gone:
        print(f"bst: {gone[0]}", file=sys.stderr)
        return 1
    return 0
