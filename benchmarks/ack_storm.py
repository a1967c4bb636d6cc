"""How fast slash commands are acknowledged while a storm of deadlines resolves.

``ack_p99_ms`` (:mod:`benchmarks.ack`) times 200 concurrent ``/bst shoot`` on an idle
host; here the same 200 arrive while 1,000 games of 12 captains resolve at one
instant (the ``storm_s`` storm, :mod:`benchmarks.storm`). Discord gives an
interaction 3 seconds for its first answer: the host resolves turns off the event
loop (design rule 6) so a storm never delays one.

What runs for real: the production host (:func:`bot.wiring.build_host`, SQLite, the
real clock) with the Discord adapter (discord.py's client and ``CommandTree``,
production settings) over the recording HTTP layer of :mod:`benchmarks.ack`; the
1,000 storm games are written straight into the store, due now, every captain with
a standing order, beside a 200-captain battle in the fake's channel. The storm is
``Host.tick()`` — the sweeper's call in production: catch-up, then every due game
resolved. The 200 interactions reach the bot :data:`ARRIVAL` seconds after the storm
began (while it resolves) and are timed from then, exactly as in ``ack_p99_ms``: a
loop busy resolving would dispatch them late, and that lateness counts. The detail
says whether the storm was still resolving when the last acknowledgement went out.

``robot_ack_p99_storm_ms`` (issue 44): the same, with robots in the 1,000 games
(:data:`STORM_ROBOTS` of each game's 12 seats): as the storm's turns resolve, turn 2
opens and every robot decides its order from its seat's view and sends it through the
host, thousands of decisions and messages at once. Here the 200 commands arrive as
the robots begin to think, so that a robot thinking on the event loop (instead of the
clock's thread, as ``Host._robots_play`` does) would show in every acknowledgement.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.ack import (
    _setup_game,
    load_fake,
    logged_in,
    measure_acks,
    p99,
    production_adapter,
    timed_acks,
)
from benchmarks.storm import TURN_SECONDS, prepare_games
from benchmarks.timing import Figure
from bot.config import Config
from bot.host.runtime import heap
from bot.host.runtime.clock import RealClock
from bot.store import Store
from bot.wiring import build_host, no_network, sqlite_url

STORM_GAMES = 1000
ARRIVAL = 1.0  # seconds into the storm; it lasts several
STORM_ROBOTS = 2  # robots among each storm game's 12 captains (robot_ack_p99_storm_ms)
ROBOT_ARRIVAL = 0.1  # seconds after the robots begin to think


async def _acks_in_storm(
    commands: int, games: int, folder: Path
) -> tuple[list[float], float, bool]:
    fake_module = load_fake()
    fake = fake_module.FakeDiscord()
    store = Store(sqlite_url(folder / "ack-storm.db"))
    adapter = production_adapter(store)
    clock = RealClock()
    try:
        host = build_host(store, clock, {"discord": adapter}, Config(), avatar_fetch=no_network)
        _setup_game(host, fake_module, commands)  # game 1: the battle the commands are for
        # The storm: games 2…, due a second ago.
        prepare_games(store, games, start=clock.now() - TURN_SECONDS - 1.0)
        storm_started = time.perf_counter()
        storm = asyncio.create_task(host.tick(send=False))
        ended: list[float] = []
        storm.add_done_callback(lambda _: ended.append(time.perf_counter()))
        latencies = await measure_acks(
            host, adapter, fake_module, fake, commands, arrive_at=storm_started + ARRIVAL
        )
        last_ack = storm_started + ARRIVAL + max(latencies) / 1000
        resolved = await storm
        if resolved < games:
            raise RuntimeError(f"only {resolved} of {games} storm games resolved")
        return latencies, ended[0] - storm_started, ended[0] > last_ack
    finally:
        await adapter.stop()
        store.dispose()


async def _acks_while_robots_think(
    commands: int, games: int, folder: Path
) -> tuple[list[float], float, bool, int]:
    """The storm with robots: (latencies, seconds from the storm's start to the end of
    the robots' pass, whether that pass outlasted the last acknowledgement, the robots'
    orders stored)."""
    from sqlmodel import col, func, select

    from bot.store.models import InboundRow

    fake_module = load_fake()
    fake = fake_module.FakeDiscord()
    store = Store(sqlite_url(folder / "ack-storm-robots.db"))
    adapter = production_adapter(store)
    clock = RealClock()
    host = None
    try:
        config = Config()
        host = build_host(
            store,
            clock,
            {"discord": adapter},
            config,
            avatar_fetch=no_network,
            robot_processes=config.robots.processes,  # (as `bst run` thinks)
        )
        _setup_game(host, fake_module, commands)
        # As `bst run` does when it starts (Host.run): the robots' workers spawned and the
        # games loaded in them, long before a storm.
        concurrent.futures.wait(host.thinker.warm())
        heap.settle()  # as `bst run` does once it has started (bot/host/runtime/heap.py)
        prepare_games(store, games, start=clock.now() - TURN_SECONDS - 1.0, robots=STORM_ROBOTS)
        began = _when_robots_think(host, asyncio.get_running_loop())
        outcomes = await logged_in(host, adapter, fake_module, fake)
        storm_started = time.perf_counter()
        storm = asyncio.create_task(host.tick(send=False))
        ended: list[float] = []
        storm.add_done_callback(lambda _: ended.append(time.perf_counter()))
        await asyncio.wait(
            [asyncio.ensure_future(began.wait()), storm], return_when="FIRST_COMPLETED"
        )
        if not began.is_set():
            raise RuntimeError("the storm ended before any robot thought")
        arrive = time.perf_counter() + ROBOT_ARRIVAL
        latencies = await timed_acks(
            adapter, fake_module, fake, commands, outcomes, arrive_at=arrive
        )
        last_ack = arrive + max(latencies) / 1000
        resolved = await storm
        if resolved < games:
            raise RuntimeError(f"only {resolved} of {games} storm games resolved")
        with store.transaction() as tx:
            robot_orders = tx.session.exec(
                select(func.count()).where(col(InboundRow.message_id).like("robot:%"))
            ).one()
        return latencies, ended[0] - storm_started, ended[0] > last_ack, int(robot_orders)
    finally:
        await adapter.stop()
        if host is not None:
            await asyncio.to_thread(host.thinker.close)
        store.dispose()


def _when_robots_think(host: Any, loop: asyncio.AbstractEventLoop) -> asyncio.Event:
    """Set once the robots are asked for their orders after the storm's turns resolved
    (the pass before it finds none: the games are due)."""
    began = asyncio.Event()
    resolve, gather = host.turns.resolve_due, host.turns.robot_jobs
    resolved: list[bool] = []

    def resolve_due(*args: Any, **kwargs: Any) -> Any:
        try:
            return resolve(*args, **kwargs)
        finally:
            resolved.append(True)

    def robot_jobs(*args: Any, **kwargs: Any) -> Any:
        if resolved:
            loop.call_soon_threadsafe(began.set)
        return gather(*args, **kwargs)

    host.turns.resolve_due, host.turns.robot_jobs = resolve_due, robot_jobs
    return began


def robot_ack_p99_storm_ms(commands: int = 200, *, repeats: int) -> float:
    runs, storms, overlaps, orders = [], [], [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="bst-bench-ack-robots-") as name:
            latencies, storm_seconds, overlapped, sent = asyncio.run(
                _acks_while_robots_think(commands, STORM_GAMES, Path(name))
            )
        runs.append(p99(latencies))
        storms.append(storm_seconds)
        overlaps.append(overlapped)
        orders.append(sent)
    robot_ack_p99_storm_ms.last = (runs, storms, overlaps, orders)  # type: ignore[attr-defined]
    return statistics.median(runs)


def ack_p99_storm_ms(commands: int = 200, *, repeats: int) -> float:
    runs, storms, overlaps = [], [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="bst-bench-ack-storm-") as name:
            latencies, storm_seconds, overlapped = asyncio.run(
                _acks_in_storm(commands, STORM_GAMES, Path(name))
            )
        runs.append(p99(latencies))
        storms.append(storm_seconds)
        overlaps.append(overlapped)
    ack_p99_storm_ms.last = (runs, storms, overlaps)  # type: ignore[attr-defined]
    return statistics.median(runs)


def run(*, quick: bool) -> list[Figure]:
    value = ack_p99_storm_ms(200, repeats=1 if quick else 3)
    runs, storms, overlaps = ack_p99_storm_ms.last  # type: ignore[attr-defined]
    during = sum(overlaps)
    return [
        Figure(
            "ack_p99_storm_ms",
            value,
            100.0,
            unit=" ms",
            detail=(
                f"200 concurrent /bst shoot while {STORM_GAMES} games resolve (storms of "
                f"{', '.join(f'{s:.1f}' for s in storms)} s; acks done before the storm "
                f"ended in {during} of {len(runs)}); median of {len(runs)} runs "
                f"(p99s {', '.join(f'{r:.0f}' for r in runs)} ms)"
            ),
        ),
        _with_robots(quick),
    ]


def _with_robots(quick: bool) -> Figure:
    value = robot_ack_p99_storm_ms(200, repeats=1 if quick else 3)
    runs, storms, overlaps, orders = robot_ack_p99_storm_ms.last  # type: ignore[attr-defined]
    return Figure(
        "robot_ack_p99_storm_ms",
        value,
        100.0,
        unit=" ms",
        detail=(
            f"200 concurrent /bst shoot arriving as the robots of {STORM_GAMES} storm games "
            f"({STORM_ROBOTS} of 12 seats each) begin to think (robots' orders stored: "
            f"{', '.join(str(o) for o in orders)}; storm and robots took "
            f"{', '.join(f'{s:.1f}' for s in storms)} s; acks done before the robots were "
            f"in {sum(overlaps)} of {len(runs)}); median of {len(runs)} runs "
            f"(p99s {', '.join(f'{r:.0f}' for r in runs)} ms)"
        ),
    )
