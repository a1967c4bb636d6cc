"""``bst play``: the console, on a clock that moves when you say ``:next``.

The way to try a rule, reproduce a report, or teach a friend: you speak as any
captain, the host answers exactly as it would on Discord or X, and the images
go to a folder.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from bot.adapters.console_adapter import CHANNEL, HELP, PLATFORM, ConsoleAdapter, read_line
from bot.config import Config
from bot.games.base import OptionError
from bot.games.catalog import get_game
from bot.host.runtime.clock import VirtualClock
from bot.host.runtime.service import Host
from bot.store import Store
from bot.wiring import build_host, no_network, sqlite_url

BANNER = """bst play: you speak as any {player}. A game of {title} is open; for example:
  alice> {tag} join
  bob> {tag} join
  host> start
  alice> {tag} help
  :next
Type :help for everything, :quit to leave."""


def opening_command(kind: str, size: str | None, robots: str | None = None) -> str:
    """What the console's host types to open the game ``bst play --game KIND`` asks for
    (``--robots 2:strong``: the game opens with two strong robots seated)."""
    parts = ("new", kind, f"size={size}" if size else "", f"robots={robots}" if robots else "")
    return " ".join(part for part in parts if part)


def banner(kind: str) -> str:
    game = get_game(kind)
    return BANNER.format(player=game.words.player_word(1), title=game.title, tag=game.tag)


async def close_turn(host: Host, clock: VirtualClock) -> bool:
    """Jump the clock to the earliest deadline and resolve it."""
    deadline = host.turns.next_deadline()
    if deadline is None:
        return False
    clock.set(max(deadline, clock.now()))
    await host.tick()
    return True


async def console_session(
    host: Host,
    adapter: ConsoleAdapter,
    clock: VirtualClock | None,
    lines: Callable[[], str | None],
    write: Callable[[str], None],
) -> None:
    """Read lines until :quit or end of input; each line goes through the host."""
    await adapter.start(host.on_inbound)
    while True:
        raw = await asyncio.to_thread(lines)
        if raw is None:
            break
        line = read_line(raw, adapter.current)
        if line.error:
            write(f"! {line.error}")
            continue
        if line.command == "quit":
            break
        if line.command == "help":
            write(HELP.rstrip())
        elif line.command == "as":
            if not line.argument:
                write("! expected a name, such as :as bob")
                continue
            adapter.current = line.argument.split()[0]
            write(f"(speaking as {adapter.current})")
        elif line.command == "board":
            if adapter.current is None:
                write("! who? use :as NAME first")
                continue
            await adapter.say(adapter.current, "board", private=True)
        elif line.command == "next":
            if clock is None:
                write("! the clock is real here: the host can `extend`, or wait for the deadline")
            elif not await close_turn(host, clock):
                write("! no deadline is running (setup without a deadline, paused, or finished)")
        elif line.speaker is not None:
            await adapter.say(line.speaker, line.text, private=line.private)
        await host.relay.flush()


def _stdin_line() -> str | None:
    try:
        return input()
    except EOFError:
        return None


def run_play(args: argparse.Namespace) -> int:
    kind = args.game.lower()
    try:
        get_game(kind)
    except OptionError as error:
        print(f"bst play: {error}", file=sys.stderr)
        return 2
    size = args.size
    database = Path(args.database) if args.database else Path(tempfile.mkdtemp()) / "play.db"
    store = Store(sqlite_url(database))
    clock = VirtualClock(datetime.now(UTC).replace(second=0, microsecond=0).timestamp())
    adapter = ConsoleAdapter(Path(args.out), now=clock.now)
    host = build_host(store, clock, {PLATFORM: adapter}, Config(), avatar_fetch=no_network)

    async def session() -> None:
        await adapter.start(host.on_inbound)
        with store.transaction() as tx:
            existing = tx.game_in(PLATFORM, CHANNEL)
        if existing is None:
            opening = opening_command(kind, size, getattr(args, "robots", None))
            await adapter.say("host", opening, private=False)
            await host.relay.flush()
        print(banner(kind))
        await console_session(host, adapter, clock, _stdin_line, print)

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(session())
    print(f"(game saved in {database})", file=sys.stderr)
    return 0
