"""``bst run``: the hosted bot, and ``bst discord sync``.

With Discord and/or X enabled in the config, their adapters run side by side
on one host (one process: see the README for why). With neither, the console
runs on the real clock so a new host can try everything before making any
account.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from bot import platforms
from bot.adapters.console_adapter import ConsoleAdapter
from bot.adapters.declaration import BuildContext
from bot.config import Config, ConfigError, secret, secret_values
from bot.host.messages import ChatAdapter, DeliveryError, PlatformRefused
from bot.host.play.seeds import draw_secret
from bot.host.runtime import heap
from bot.host.runtime.clock import RealClock
from bot.host.runtime.service import Host, HostCursors
from bot.logs import configure_logging
from bot.store import Store, is_passing_failure
from bot.store.database import DatabaseGone, when_gone
from bot.web.app import PortBusy
from bot.wiring import build_host, limits_of, registered_games

HOW_TO_ENABLE = """No platform is enabled in the config, so the console runs on the real clock.
To host on Discord or X, copy config.example.toml to config.toml, set
[discord] enabled = true and/or [twitter] enabled = true, export the tokens the
file names (DISCORD_TOKEN, X_API_KEY, ...), and run `bst run --config config.toml`.
The README's "Play on Discord" and "Play on X" sections walk through it."""


def build_adapters(config: Config, store: Store) -> dict[str, ChatAdapter]:
    """An adapter for each enabled platform of the catalog (bot/platforms.py), each
    built by its own declaration from its section and the secrets it names."""
    context = BuildContext(
        cursors=HostCursors(store), games=registered_games(), admins=config.games.admins
    )
    return {
        declared.name: declared.build(config.section(declared.name), context)
        for declared in platforms.platforms()
        if config.section(declared.name).enabled
    }


def run_hosted(config: Config, args: argparse.Namespace) -> int:
    configure_logging(config.logging.level, secret_values(config), as_json=config.logging.json)
    try:
        store = Store(config.database_url())
        adapters = build_adapters(config, store)
    except ConfigError as error:
        print(f"bst: {error}", file=sys.stderr)
        return 2
    if not adapters:
        return _run_console(config, store)
    host = build_host(
        store,
        RealClock(),
        adapters,
        config,
        limits=limits_of(config),
        draw_secret=draw_secret,
        robot_processes=config.robots.processes,
    )
    heap.settle()  # everything start-up made, out of the collector's full passes
    try:
        with (
            contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError),
            _stopping_when_gone() as gone,
        ):
            asyncio.run(_serve(host, config))
    except PlatformRefused as refusal:
        # A platform turned the bot away for good: say what to fix, and stop (a process
        # that stayed up would look alive and do nothing).
        print(f"bst: {refusal}", file=sys.stderr)
        return refusal.exit_code
    except PortBusy as busy:
        print(f"bst: {busy}", file=sys.stderr)
        return 2
    return _gone_exit(gone)


@contextlib.contextmanager
def _stopping_when_gone() -> Iterator[list[DatabaseGone]]:
    """While the bot runs: when its database file is found removed or replaced
    (:class:`DatabaseGone`), stop the running event loop's main task, as SIGTERM
    would; the list holds why."""
    gone: list[DatabaseGone] = []

    def stop(error: DatabaseGone) -> None:
        if gone:
            return
        gone.append(error)
        logging.getLogger(__name__).critical("%s", error)
        if _main_loop is not None:
            with contextlib.suppress(RuntimeError):  # (the loop has closed)
                _main_loop.call_soon_threadsafe(_cancel_main)

    forget = when_gone(stop)
    try:
        yield gone
    finally:
        forget()


_main_loop: asyncio.AbstractEventLoop | None = None  # (set by _remember_main)
_main_task: asyncio.Task[Any] | None = None


def _cancel_main() -> None:
    if _main_task is not None:
        _main_task.cancel()


def _gone_exit(gone: list[DatabaseGone]) -> int:
    if gone:
        print(f"bst: {gone[0]}", file=sys.stderr)
        return 1
    return 0


async def _serve(host: Host, config: Config | None = None) -> None:
    """Run the host until it stops, Ctrl-C, or SIGTERM (a process manager's stop),
    which ends it cleanly: the adapters disconnect, the relay's sends are settled.
    With ``[web] enabled`` the web page is served beside it, in the same event loop."""
    _remember_main()
    async with _web_page(config):
        await _run_until_stopped(host)


def _remember_main() -> None:
    """Note the running loop and task: what a database found gone stops."""
    global _main_loop, _main_task
    _main_loop = asyncio.get_running_loop()
    _main_task = asyncio.current_task()


@contextlib.asynccontextmanager
async def _web_page(config: Config | None) -> AsyncIterator[None]:
    if config is None or not config.web.enabled:
        yield
        return
    from bot.cli.web import web_server

    server = web_server(config)
    await server.start()
    try:
        yield
    finally:
        await server.stop()
        server.store.dispose()


async def _run_until_stopped(host: Host) -> None:
    loop = asyncio.get_running_loop()
    runner = asyncio.current_task()
    assert runner is not None
    stopping = False

    def stop() -> None:
        nonlocal stopping
        stopping = True
        runner.cancel()

    if sys.platform != "win32":  # asyncio's signal handlers are Unix-only
        loop.add_signal_handler(signal.SIGTERM, stop)
    try:
        await host.run()
    except asyncio.CancelledError:
        if not stopping:
            raise


class PatientConsole(ConsoleAdapter):
    """The console of ``bst run``: a typed line the database cannot take just now
    (locked by another process past its busy timeout, away for a moment) is tried
    again, the same line, instead of ending the console; after the last try it says
    the line was not taken, and the console goes on."""

    RETRY_SECONDS: tuple[float, ...] = (1.0, 2.0, 4.0, 8.0, 15.0)

    async def say(self, speaker: str, text: str, *, private: bool) -> None:
        for wait in (*self.RETRY_SECONDS, None):
            try:
                await super().say(speaker, text, private=private)
                return
            except Exception as error:
                if not is_passing_failure(error):
                    raise
                if wait is None:
                    self.write(
                        f"! the database is still busy ({error}); your line was not taken: "
                        "type it again in a moment"
                    )
                    return
                self.write(f"! the database is busy; trying your line again in {wait:g} s")
                await asyncio.sleep(wait)


def _run_console(config: Config, store: Store) -> int:
    from bot.adapters.console_adapter import PLATFORM
    from bot.cli.play import _stdin_line, console_session

    # The console is the user's screen: keep the scheduler's bookkeeping off it.
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    print(HOW_TO_ENABLE)
    print("Start a game with `host> new size=10 turn=10m`, then `alice> join` … (:help)")
    adapter = PatientConsole(Path(config.console.images_dir))
    host = build_host(
        store,
        RealClock(),
        {PLATFORM: adapter},
        config,
        limits=limits_of(config),
        draw_secret=draw_secret,
        robot_processes=config.robots.processes,
    )

    async def session() -> None:
        _remember_main()
        runner = asyncio.create_task(host.run())
        try:
            async with _web_page(config):
                await console_session(host, adapter, None, _stdin_line, print)
        finally:
            runner.cancel()
            await host.stop()

    try:
        with (
            contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError),
            _stopping_when_gone() as gone,
        ):
            asyncio.run(session())
    except PortBusy as busy:
        print(f"bst: {busy}", file=sys.stderr)
        return 2
    return _gone_exit(gone)


def sync_discord(config: Config, guild: int | None) -> int:
    from bot.adapters.discord import sync_commands

    configure_logging(config.logging.level, secret_values(config), as_json=config.logging.json)
    try:
        token = secret(config.discord.token_env)
        application_id = int(secret(config.discord.application_id_env))
    except (ConfigError, ValueError) as error:
        print(f"bst: {error}", file=sys.stderr)
        return 2
    try:
        names = asyncio.run(
            sync_commands(
                token,
                application_id,
                guild,
                games=registered_games(),
                http=config.discord.api_base or None,
            )
        )
    except DeliveryError as error:
        print(f"bst: could not register the slash commands: {error}", file=sys.stderr)
        return 1
    where = f"server {guild}" if guild else "every server (may take up to an hour)"
    print(f"registered {', '.join('/' + name for name in names)} for {where}")
    return 0
