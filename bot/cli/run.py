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
from collections.abc import AsyncIterator
from pathlib import Path

from bot import platforms
from bot.adapters.declaration import BuildContext
from bot.config import Config, ConfigError, secret, secret_values
from bot.host import heap
from bot.host.clock import RealClock
from bot.host.messages import ChatAdapter, DeliveryError, PlatformRefused
from bot.host.seeds import draw_secret
from bot.host.service import Host, HostCursors
from bot.logs import configure_logging
from bot.store import Store
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
        store, RealClock(), adapters, config, limits=limits_of(config), draw_secret=draw_secret
    )
    heap.settle()  # everything start-up made, out of the collector's full passes
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_serve(host, config))
    except PlatformRefused as refusal:
        # A platform turned the bot away for good: say what to fix, and stop (a process
        # that stayed up would look alive and do nothing).
        print(f"bst: {refusal}", file=sys.stderr)
        return refusal.exit_code
    return 0


async def _serve(host: Host, config: Config | None = None) -> None:
    """Run the host until it stops, Ctrl-C, or SIGTERM (a process manager's stop),
    which ends it cleanly: the adapters disconnect, the relay's sends are settled.
    With ``[web] enabled`` the web page is served beside it, in the same event loop."""
    async with _web_page(config):
        await _run_until_stopped(host)


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


def _run_console(config: Config, store: Store) -> int:
    from bot.adapters.console_adapter import PLATFORM, ConsoleAdapter
    from bot.cli.play import _stdin_line, console_session

    # The console is the user's screen: keep the scheduler's bookkeeping off it.
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    print(HOW_TO_ENABLE)
    print("Start a game with `host> new size=10 turn=10m`, then `alice> join` … (:help)")
    adapter = ConsoleAdapter(Path(config.console.images_dir))
    host = build_host(
        store,
        RealClock(),
        {PLATFORM: adapter},
        config,
        limits=limits_of(config),
        draw_secret=draw_secret,
    )

    async def session() -> None:
        runner = asyncio.create_task(host.run())
        try:
            async with _web_page(config):
                await console_session(host, adapter, None, _stdin_line, print)
        finally:
            runner.cancel()
            await host.stop()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(session())
    return 0


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
