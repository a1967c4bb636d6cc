"""A thousand games at one deadline on Discord, against Discord's rate limits.

What runs for real: the host (:func:`bot.wiring.build_host` over SQLite, its
``Host.run``: APScheduler armed at the deadline, the turn clock on its thread, the
relay's lanes, the attachment renderer drawing every map and board), the Discord
adapter (:class:`bot.adapters.discord.DiscordAdapter`, connected to a gateway, so the
deadline's catch-up reads nothing) and discord.py's own HTTP client with its
per-route buckets. Against it, on 127.0.0.1 in the same process, the strict fake
Discord of the adapter's tests (``tests/adapters/discord/discord_fake.py``) with
Discord's rate limits switched on (``discord_limits.py``: a global 50 requests a
second, per-route buckets announced by ``X-RateLimit-*`` headers, 429s with
``retry_after``).

The games are those of the ``storm`` benchmark (N games × 12 captains, 20×20, every
captain with an order, all due at one instant), each in a thread of its own, its
captains' DM channels known from earlier turns (as they are after a game's first
turn: each is opened once, ever, and remembered).

Two figures:

* ``deadline_delivery_ratio``: seconds from the deadline until Discord has taken the
  last map and board ÷ the floor the platform's limits allow: the messages delivered
  ÷ 50 a second (Discord's global limit), or the busiest channel's bucket (5 posts
  per 5 s) if that were longer. Resolving, drawing and the bot's own pacing are all
  inside the measured time.
* ``deadline_requests_ratio``: HTTP requests the bot made from the deadline on (the
  catch-up, 429s and their retries, every part of every message included) ÷ the
  messages delivered. 1.0 is one request per message.

``--quick``: 100 games; the full run: 1,000 (about 9,000 messages: at least three
minutes at 50 a second).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import tempfile
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from sqlalchemy import func, insert, select, update

from benchmarks.ack import load_fake
from benchmarks.storm import TURN_SECONDS, prepare_games
from benchmarks.timing import Figure
from bot.config import Config, DiscordConfig
from bot.host.runtime.clock import RealClock
from bot.store import CursorRow, DatabaseCursors, GameRow, OutboxRow, Store, dumps, loads
from bot.wiring import build_host, no_network, registered_games, sqlite_url

CAPTAINS = 12
FIRST_USER = 1300000000000000000
LEAD_SECONDS = 6.0  # the host starts (log in, gateway) this long before the deadline
POLL_SECONDS = 0.25


def _prepare(store: Store, fake: Any, fake_module: ModuleType, games: int, lead: float) -> float:
    """N games in threads of the fake's channel, due ``lead`` seconds from now, their
    captains' DM channels known; returns the deadline (Unix seconds)."""
    threads = [
        int(fake.add_thread(fake_module.CHANNEL_ID, name=f"game {n + 1}")["id"])
        for n in range(games)
    ]

    def user(n: int, seat: int) -> str:
        return str(FIRST_USER + n * CAPTAINS + seat)

    start = time.time() - TURN_SECONDS
    written = prepare_games(
        store,
        games,
        CAPTAINS,
        start=start,
        platform="discord",
        channel_of=lambda n: str(threads[n]),
        user_of=user,
    )
    # What a bot that has been running holds: each captain's DM channel, opened on an
    # earlier turn and remembered. (Its catch-up cursors are left out: the catch-up after
    # connecting would read each of them once before the deadline, 4½ minutes of
    # requests at 1,000 games, and with the gateway connected the deadline reads none.)
    cursors = []
    for n in range(games):
        for seat in range(1, CAPTAINS + 1):
            user_id = user(n, seat)
            channel = fake.dm_channel_of(int(user_id))["id"]
            cursors.append(
                {"platform": "discord", "key": f"dm-channel:{user_id}", "value": channel}
            )
    with store.transaction() as tx:
        tx.session.execute(insert(CursorRow), cursors)
    # Due ``lead`` seconds from now, however long writing them took: the deadline moves
    # (its timer too) with the orders still inside the turn.
    deadline = time.time() + lead
    with store.transaction() as tx:
        timers = loads(tx.session.execute(select(GameRow.timers)).scalars().first() or "[]")
        for timer in timers:
            if timer.get("deadline") == written:
                timer["deadline"] = deadline
        tx.session.execute(update(GameRow).values(deadline=deadline, timers=dumps(timers)))
    return deadline


def _outbox_left(store: Store) -> tuple[int, int]:
    """(rows written, rows still pending)."""
    with store.transaction() as tx:
        written = tx.session.execute(select(func.count()).select_from(OutboxRow)).scalar() or 0
        pending = (
            tx.session.execute(
                select(func.count()).select_from(OutboxRow).where(OutboxRow.status == "pending")
            ).scalar()
            or 0
        )
    return int(written), int(pending)


def _floor_seconds(per_channel: Counter[str], messages: int, per_second: int) -> tuple[float, str]:
    """The least time Discord's limits allow for these messages: all of them at the global
    rate, or the busiest channel through its bucket (5 per 5 s), whichever is longer."""
    global_floor = messages / per_second
    busiest = max(per_channel.values(), default=0)
    route_floor = (math.ceil(busiest / 5) - 1) * 5.0 if busiest else 0.0
    if route_floor > global_floor:
        return route_floor, f"busiest channel {busiest} posts at 5 per 5 s = {route_floor:.1f} s"
    return global_floor, f"{messages} messages ÷ {per_second}/s = {global_floor:.1f} s"


async def _deliver(games: int, folder: Path, lead: float) -> dict[str, Any]:
    from aiohttp.test_utils import TestServer

    from bot.adapters.discord import DiscordAdapter

    fake_module = load_fake()
    limits_module = __import__("discord_limits")
    fake = fake_module.FakeDiscord()
    fake.keep_files = False
    limits = limits_module.RateLimits()
    fake.limits = limits
    server = TestServer(fake.app(), host="127.0.0.1")
    await server.start_server()
    fake.base = str(server.make_url("/api/v10"))
    fake.gateway.url = str(server.make_url("/gateway")).replace("http://", "ws://")
    store = Store(sqlite_url(folder / "deadline.db"))
    import discord

    route_base = discord.http.Route.BASE
    try:
        deadline = _prepare(store, fake, fake_module, games, lead)
        adapter = DiscordAdapter(
            DiscordConfig(enabled=True),
            token=fake_module.TOKEN,
            cursors=DatabaseCursors(store),
            games=registered_games(),
            http=fake.base,
        )
        host = build_host(
            store, RealClock(), {"discord": adapter}, Config(), avatar_fetch=no_network
        )
        running = asyncio.create_task(host.run())
        while not adapter._gateway_up() and time.time() < deadline:
            await asyncio.sleep(0.05)
        if not adapter._gateway_up():
            raise RuntimeError("the gateway was not connected by the deadline: give more lead")
        await asyncio.sleep(max(0.0, deadline - time.time()))
        started = time.perf_counter()
        cpu = time.process_time()
        load = os.getloadavg()[0]
        connected = adapter._gateway_up()
        before = len(fake.requests)
        while True:
            await asyncio.sleep(POLL_SECONDS)
            if running.done():
                running.result()  # the host stopped: say why
            written, pending = await asyncio.to_thread(_outbox_left, store)
            if written and not pending and host.relay.sending_since == {}:
                break
        made = fake.requests[before:]
        answered = [r for r in made if r not in fake.rate_limited]
        finished = max(r.at for r in answered)
        cpu = time.process_time() - cpu
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
        created = [r for r in answered if r.method == "POST" and r.path.endswith("/messages")]
        per_channel = Counter(r.path.split("/")[2] for r in created)
        messages = len(created)
        with store.transaction() as tx:
            statuses = Counter(tx.session.execute(select(OutboxRow.status)).scalars())
        posted = [m for channel in fake.posted.values() for m in channel]
        # the same row posted twice would show as its nonce twice in one channel
        duplicates = len(posted) - len({(m["channel_id"], m.get("nonce")) for m in posted})
        floor, floor_text = _floor_seconds(per_channel, messages, limits.global_per_second)
        seconds = finished - started
        return {
            "seconds": seconds,
            "floor": floor,
            "floor_text": floor_text,
            "messages": messages,
            "posted": len(posted),
            "duplicates": duplicates,
            "rows": written,
            "requests": len(made),
            "rate_limited": len(fake.rate_limited),
            "kinds": Counter(f"{r.method} {r.path.split('/')[1]}" for r in made),
            "statuses": statuses,
            "connected": connected,
            "waited": adapter.pace.waited if adapter.pace else 0,
            "cpu": cpu,
            "load": load,
        }
    finally:
        discord.http.Route.BASE = route_base
        store.dispose()
        await server.close()


def measure(games: int, *, lead: float = LEAD_SECONDS) -> dict[str, Any]:
    """One deadline of ``games`` games, ``lead`` seconds after the host starts."""
    logging.getLogger("discord").setLevel(logging.ERROR)  # discord.py's 429 warnings
    logging.getLogger("bot.adapters.discord").setLevel(logging.ERROR)  # no slash sync
    with tempfile.TemporaryDirectory(prefix="bst-bench-deadline-") as name:
        return asyncio.run(_deliver(games, Path(name), lead))


def run(*, quick: bool) -> list[Figure]:
    games = 100 if quick else 1000
    result = measure(games)
    delivery = result["seconds"] / result["floor"]
    requests = result["requests"] / result["messages"]
    detail = (
        f"{games} games × {CAPTAINS} captains: {result['messages']} messages in "
        f"{result['seconds']:.1f} s; floor {result['floor_text']}; "
        f"{result['requests']} requests, {result['rate_limited']} answered 429; "
        f"outbox {dict(result['statuses'])}; the process used {result['cpu']:.0f} CPU-s "
        f"({result['cpu'] / result['messages'] * 1000:.0f} ms a message: drawing, the "
        f"host, discord.py and the fake itself), load average {result['load']:.1f} at the "
        f"deadline on {os.cpu_count()} cores"
    )
    return [
        Figure(
            "deadline_delivery_ratio",
            delivery,
            1.25,
            floor=f"{result['floor']:.1f} s",
            detail=detail,
        ),
        Figure(
            "deadline_requests_ratio",
            requests,
            1.1,
            floor=f"{result['messages']} messages",
            detail=f"requests by kind {dict(result['kinds'])}",
        ),
    ]
