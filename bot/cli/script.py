"""``bst script FILE --record OUT.json [--out DIR]``: play a script through the real host."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.adapters.script_adapter import (
    CHANNEL,
    PLATFORM,
    ScriptAdapter,
    ScriptError,
    ScriptLine,
    operator_text,
    read_script,
)
from bot.config import Config
from bot.games.duration import parse_duration
from bot.host.play.record import game_record
from bot.host.runtime.clock import VirtualClock
from bot.host.runtime.service import Host
from bot.store import ClockScope, Store
from bot.wiring import build_host, no_network, sqlite_url


@dataclass
class ScriptRun:
    host: Host
    store: Store
    adapter: ScriptAdapter
    clock: VirtualClock

    def game_id(self) -> int | None:
        with self.store.transaction() as tx:
            game = tx.latest_game_in(PLATFORM, self.adapter.channel)
            return None if game is None else game.id

    def record(self) -> dict[str, object] | None:
        game_id = self.game_id()
        return None if game_id is None else game_record(self.store, game_id)


MAX_DEADLINES_PER_LINE = 10_000
"""A line of a script passes at most this many deadlines: ``@wait 365d`` over one-second
turns would otherwise resolve for hours (and no game needs that many turns)."""


async def advance_to(run: ScriptRun, target: float, line: ScriptLine | None = None) -> None:
    """Move the clock to ``target``, firing every deadline on the way, in order."""
    passed = 0
    while True:
        deadline = run.host.turns.next_deadline()
        if deadline is None or deadline > target:
            break
        if passed >= MAX_DEADLINES_PER_LINE:
            where = f"line {line.number}: `@{line.action} {line.argument}`" if line else "a line"
            raise ScriptError(
                f"{where} passes more than {MAX_DEADLINES_PER_LINE} deadlines; "
                "wait less (e.g. `@wait 8h`) or give the game longer turns"
            )
        run.clock.set(max(deadline, run.clock.now()))
        await run.host.tick()
        passed += 1
    run.clock.set(max(target, run.clock.now()))


async def play_line(run: ScriptRun, line: ScriptLine) -> None:
    adapter = run.adapter
    if line.action in ("public", "dm"):
        await adapter.deliver(adapter.inbound(line, line.argument))
    elif line.action in ("game", "start", "host"):
        await adapter.deliver(adapter.inbound(line, operator_text(line), operator=True))
    elif line.action == "close":
        game_id = run.game_id()
        if game_id is not None:
            with run.store.transaction() as tx:
                game = tx.game(game_id)
                deadline = game.deadline if game is not None else None
            if deadline is not None:
                await advance_to(run, max(deadline, run.clock.now()), line)
    elif line.action == "wait":
        seconds = parse_duration(line.argument).total_seconds()
        await advance_to(run, run.clock.now() + seconds, line)
    await run.host.relay.flush()


async def run_script(
    path: Path,
    *,
    record_path: Path | None,
    out_dir: Path | None,
    echo: Callable[[str], None] = print,
    database: Path | None = None,
    database_url: str | None = None,
    config: Config | None = None,
) -> ScriptRun:
    """``database``: a SQLite file made afresh for this script (a temporary one if None).
    ``database_url``: a database to keep the game in, beside the games already there
    (``bst script --database``): each script plays in a channel of its own there, and its
    clock moves only the games of that channel (its clock starts at the script's own time,
    which may lie before the deadlines of the games already there).
    ``config``: the settings a hosted bot would have (``bst script --config``), e.g. the
    web page's ``base_url`` for the players' private links; the default settings if None."""
    lines = read_script(path)
    out = out_dir or Path(tempfile.mkdtemp(prefix="bst-script-"))
    out.mkdir(parents=True, exist_ok=True)
    channel = CHANNEL
    if database_url is not None:
        store = Store(database_url)
        with store.transaction() as tx:
            earlier = sum(1 for game in tx.all_games() if game.platform == PLATFORM)
        if earlier:
            channel = f"{CHANNEL}-{earlier + 1}"
        store.clock_scope = ClockScope(PLATFORM, channel)
    else:
        db = database or Path(tempfile.mkdtemp(prefix="bst-script-db-")) / "script.db"
        if db.exists():
            db.unlink()
        store = Store(sqlite_url(db))
    clock = VirtualClock()
    adapter = ScriptAdapter(clock, out, echo=echo, channel=channel)
    host = build_host(
        store, clock, {PLATFORM: adapter}, config or Config(), avatar_fetch=no_network
    )
    await adapter.start(host.on_inbound)
    run = ScriptRun(host, store, adapter, clock)
    for line in lines:
        await play_line(run, line)
    if record_path is not None:
        record = run.record()
        if record is None:
            why = (
                "its `@game` line was refused: see the reply above"
                if any(line.action == "game" for line in lines)
                else "it has no `@game` line, e.g. `@game bst size=10x10`"
            )
            raise ScriptError(
                f"{path}: the script opened no game ({why}), so there is no record to write"
            )
        record_path.parent.mkdir(parents=True, exist_ok=True)
        record_path.write_text(
            json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    return run
