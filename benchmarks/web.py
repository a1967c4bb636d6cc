"""``web_p99_ms``: the web page under 200 viewers of a 1,000-captain bst game while the
game's turns resolve.

Each viewer loads the game page and its current map every 10 s; arrivals are spread
over time at random (an open loop: a request is sent at its time whether or not the
earlier ones were answered, as real viewers do, so a slow answer cannot slow the load
down and hide itself). The load comes from another process (this machine's cores are
shared: the figure includes the client's share). Meanwhile a writer
resolves a turn of the game every ``turn_every`` seconds, as the bot does (in a process
of its own, as the Procfile's ``worker:`` is beside ``web:``), so pages and
pictures are drawn anew while the viewers keep coming. The figure is the p99 of the
time to the whole answer, as the viewers measure it.

``ack_p99_web_ms``, in the same run: the bot's process is the production host with its
Discord adapter as well, and every few seconds 200 slash commands reach it at once;
each acknowledgement is timed as ``ack_p99_ms`` times it (:mod:`benchmarks.ack`), while
the bot resolves the turns off its event loop and the viewers load the page.
"""

from __future__ import annotations

import asyncio
import functools
import json
import multiprocessing
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.fixtures import battle, given, mixed_orders, side_for
from benchmarks.timing import Figure
from bot.games.bst import BST
from bot.host.runtime import heap
from bot.store import GameRow, NewPlayer, NewStep, Store, dumps
from bot.web.app import WebServer
from bot.wiring import sqlite_url

CAPTAINS = 1_000
VIEWERS = 200
PERIOD = 10.0  # each viewer reloads the page and its map this often
ACK_COMMANDS = 200  # slash commands a burst, as in ``ack_p99_ms``
ACK_EVERY = 4.0  # seconds between the bot's bursts of commands


def _store_game(store: Store, captains: int) -> Any:
    side = side_for(captains)
    state = battle(captains, side, side)
    now = 1_767_225_600.0
    with store.transaction() as tx:
        game = GameRow(kind="bst", platform="bench", channel="bench", creator="bench:0",
                       options="{}", seed=1, phase="battle", turn=1,
                       deadline=now + 28800, state=dumps(BST.codec.encode_state(state)),
                       created_at=now, open_to_all=True)  # fmt: skip
        tx.save(game)
        for index, captain in enumerate(state.captains):
            tx.add_player(NewPlayer(game_id=game.id, key=captain.id, platform="bench",
                                    user_id=str(index), name=captain.name,
                                    join_order=index + 1))  # fmt: skip
        tx.add_turn(NewStep(game_id=game.id, number=0, cause="start", orders="[]", events="[]",
                            state=game.state, resolved_at=now, deadline=now + 28800))  # fmt: skip
    return state


def _resolve_turn(store: Store, state: Any, number: int) -> Any:
    """One turn as the bot stores it: the new state, the step, the game row advanced."""
    orders = mixed_orders(state, seed=number)
    resolution = BST.rules.resolve(state, given(orders), random.Random(number))
    encoded = dumps(BST.codec.encode_state(resolution.state))
    now = 1_767_225_600.0 + number * 28800
    with store.transaction() as tx:
        tx.add_turn(NewStep(game_id=1, number=number, cause="turn", orders="[]",
                            events=dumps([e.record() for e in resolution.events]),
                            state=encoded, resolved_at=now, deadline=now + 28800))  # fmt: skip
        tx.advance_turn(1, expected_turn=number,
                        values={"turn": number + 1, "state": encoded, "deadline": now + 57600})  # fmt: skip
    return resolution.state


def _bot(url: str, seconds: float, turn_every: float, ready: Any, go: Any, done: Any) -> None:
    """The bot, in a process of its own (as the Procfile's worker is): a turn of the web's
    game resolved and stored every ``turn_every`` seconds, off the event loop as the host
    resolves; and on the loop, the production host with its Discord adapter answering a
    burst of :data:`ACK_COMMANDS` slash commands every :data:`ACK_EVERY` seconds, each
    acknowledgement timed as ``ack_p99_ms`` times it (:mod:`benchmarks.ack`)."""
    asyncio.run(_bot_loop(url, seconds, turn_every, ready, go, done))


async def _bot_loop(
    url: str, seconds: float, turn_every: float, ready: Any, go: Any, done: Any
) -> None:
    from benchmarks.ack import (
        _setup_game,
        load_fake,
        logged_in,
        production_adapter,
        timed_acks,
    )
    from bot.config import Config
    from bot.host.runtime.clock import RealClock
    from bot.wiring import build_host, no_network

    store = Store(url)
    fake_module = load_fake()
    fake = fake_module.FakeDiscord()
    adapter = production_adapter(store)
    host = build_host(store, RealClock(), {"discord": adapter}, Config(), avatar_fetch=no_network)
    # The battle the commands are for: game 2 of the same database, beside the web's game.
    _setup_game(host, fake_module, ACK_COMMANDS)
    outcomes = await logged_in(host, adapter, fake_module, fake)
    with store.transaction() as tx:
        game = tx.game(1)
        assert game is not None
        state = BST.codec.decode_state(json.loads(game.state))
    heap.settle()  # as `bst run` does once it has started
    ready.put(True)
    # The clock starts when every process is up (the viewers' process spends its first
    # second or two importing: not the steady load being measured).
    await asyncio.to_thread(go.wait, 600)
    ends = time.monotonic() + seconds
    resolved: list[int] = []

    async def turns() -> None:
        # Each turn on the host's clock thread, as the host resolves a due turn
        # (``Host._off_loop``: its own thread, the loop's heartbeat, the short switch
        # interval of bot.host.runtime.yielding), not on a bare thread of the benchmark's own.
        nonlocal state
        number = 1
        while time.monotonic() < ends:
            await asyncio.sleep(min(turn_every, max(0.0, ends - time.monotonic())))
            if time.monotonic() < ends:
                state = await host._off_loop(functools.partial(_resolve_turn, store, state, number))
                number += 1
        resolved.append(number - 1)

    resolving = asyncio.create_task(turns())
    bursts: list[list[float]] = []
    await asyncio.sleep(ACK_EVERY / 2)
    while time.monotonic() < ends - 1.0:
        bursts.append(await timed_acks(adapter, fake_module, fake, ACK_COMMANDS, outcomes))
        await asyncio.sleep(ACK_EVERY)
    await resolving
    await adapter.stop()
    store.dispose()
    done.put((resolved[0], bursts))


def _viewers(base: str, seconds: float, seed: int, up: Any, go: Any, results: Any) -> None:
    """The load, in a process of its own: Poisson arrivals of page-and-map visits."""
    import aiohttp

    async def visit(session: aiohttp.ClientSession, times: list[float]) -> None:
        began = time.perf_counter()
        async with session.get(f"{base}/games/1") as page:
            body = await page.text()
        times.append((time.perf_counter() - began) * 1000)
        board = body.split('<div class="board"', 1)[1]
        source = board.split('<img src="', 1)[1].split('"', 1)[0]
        began = time.perf_counter()
        async with session.get(base + source) as picture:
            await picture.read()
        times.append((time.perf_counter() - began) * 1000)

    async def load() -> list[float]:
        rng = random.Random(seed)
        times: list[float] = []
        rate = VIEWERS / PERIOD  # visits a second
        tasks = []
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as session:
            up.put(True)  # imported and ready: the clock starts for all at once
            await asyncio.to_thread(go.wait, 600)
            start = time.perf_counter()
            at = 0.0
            while at < seconds:
                at += rng.expovariate(rate)
                delay = start + at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                tasks.append(asyncio.create_task(visit(session, times)))
            await asyncio.gather(*tasks)
        return times

    results.put(asyncio.run(load()))


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.99 * len(ordered)) - 1))]


def web_latencies_ms(seconds: float, *, turn_every: float, seed: int = 1) -> list[float]:
    folder = Path(tempfile.mkdtemp(prefix="bst-bench-web-"))
    url = sqlite_url(folder / "web.sqlite")
    writer = Store(url)
    _store_game(writer, CAPTAINS)
    reader = Store(url, read_only=True)
    server = WebServer(reader, "127.0.0.1", 0, draw_in_process=True)  # as `bst web` runs
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    asyncio.run_coroutine_threadsafe(server.start(), loop).result(30)
    base = f"http://127.0.0.1:{server.port}"
    # A server that has been up: the page of the game and its map drawn once already.
    import urllib.request

    urllib.request.urlopen(f"{base}/games/1", timeout=120).read()
    heap.settle()  # as `bst web` does once it has started
    try:
        spawn = multiprocessing.get_context("spawn")
        results: Any = spawn.Queue()
        up: Any = spawn.Queue()
        go: Any = spawn.Event()
        load = spawn.Process(target=_viewers, args=(base, seconds, seed, up, go, results))
        ready: Any = spawn.Queue()
        turns: Any = spawn.Queue()
        bot = spawn.Process(target=_bot, args=(url, seconds, turn_every, ready, go, turns))
        bot.start()
        ready.get(timeout=600)  # the bot up, its battle set up
        load.start()
        up.get(timeout=600)  # the viewers' process up: then the bot's load and theirs begin
        go.set()
        times: list[float] = results.get(timeout=seconds + 300)
        number, bursts = turns.get(timeout=300)
        load.join(60)
        bot.join(60)
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        reader.dispose()
        writer.dispose()
    web_latencies_ms.turns = number  # type: ignore[attr-defined]
    web_latencies_ms.acks = bursts  # type: ignore[attr-defined]
    return times


def run(*, quick: bool) -> list[Figure]:
    seconds = 20.0 if quick else 60.0
    times = web_latencies_ms(seconds, turn_every=5.0)
    turns = web_latencies_ms.turns  # type: ignore[attr-defined]
    bursts: list[list[float]] = web_latencies_ms.acks  # type: ignore[attr-defined]
    acks = [latency for burst in bursts for latency in burst]
    return [
        Figure(
            "web_p99_ms",
            p99(times),
            50.0,
            unit=" ms",
            detail=(
                f"{VIEWERS} viewers of a {CAPTAINS:,}-captain bst game, each loading the page "
                f"and its map every {PERIOD:.0f} s (open loop, Poisson arrivals, from another "
                f"process) for {seconds:.0f} s while {turns} turns resolved; "
                f"{len(times)} requests, median {statistics.median(times):.1f} ms"
            ),
        ),
        Figure(
            "ack_p99_web_ms",
            p99(acks),
            100.0,
            unit=" ms",
            detail=(
                f"the bot's ack_p99_ms in the same run: {len(bursts)} bursts of "
                f"{ACK_COMMANDS} concurrent /bst shoot, one every {ACK_EVERY:.0f} s, through "
                "the Discord adapter (real CommandTree, real host on the web's database, "
                "discord.py's HTTP session an in-process recorder) in the bot's process, "
                f"while it resolved the turns and the viewers loaded the page; p99 of all "
                f"{len(acks)} acknowledgements (per burst: "
                f"{', '.join(f'{p99(b):.0f}' for b in bursts)} ms)"
            ),
        ),
    ]


if __name__ == "__main__":
    print(json.dumps([f.__dict__ for f in run(quick=True)], indent=2))
