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
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.ack import _setup_game, load_fake, measure_acks, p99, production_adapter
from benchmarks.storm import TURN_SECONDS, prepare_games
from benchmarks.timing import Figure
from bot.config import Config
from bot.host.clock import RealClock
from bot.store import Store
from bot.wiring import build_host, no_network, sqlite_url

STORM_GAMES = 1000
ARRIVAL = 1.0  # seconds into the storm; it lasts several


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
        )
    ]
