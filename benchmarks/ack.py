"""How fast the Discord adapter acknowledges slash commands when 200 arrive at once.

The adapter runs for real (discord.py's client and ``CommandTree``) against the recording
HTTP layer of its tests (``tests/adapters/discord/discord_fake.py``: a local aiohttp server
speaking Discord's HTTP API). Each ``/bst shoot`` is dispatched as the gateway does it and
handed to a real host (SQLite store, one 200-captain game in the channel). The figure is the
time from dispatch to the fake recording that interaction's defer callback.
"""

from __future__ import annotations

import asyncio
import importlib.util
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from benchmarks.timing import Figure
from bot.config import Config, DiscordConfig
from bot.host.clock import RealClock
from bot.host.commands import Outcome
from bot.host.messages import Inbound, InboundKind, Sender
from bot.store import Store
from bot.wiring import build_host, no_network, sqlite_url

FAKE = Path(__file__).resolve().parents[1] / "tests" / "adapters" / "discord" / "discord_fake.py"
FIRST_USER = 1200000000000000000
TOKEN = "MTEwMDAwMDAwMDAwMDAwMDAwMg.bench.token"


def load_fake() -> ModuleType:
    """The recording HTTP layer, loaded from the adapter's tests."""
    spec = importlib.util.spec_from_file_location("bst_bench_discord_fake", FAKE)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load {FAKE}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class StampedList(list):  # type: ignore[type-arg]
    """The fake's request log, with the moment each request was recorded."""

    def __init__(self) -> None:
        super().__init__()
        self.stamps: list[float] = []

    def append(self, item: Any) -> None:
        self.stamps.append(time.perf_counter())
        super().append(item)


def _setup_game(host: Any, fake: ModuleType, captains: int) -> None:
    """A battle in the fake's channel with every commanding user as a captain."""
    channel = str(fake.CHANNEL_ID)

    def say(user: int, text: str, key: str) -> None:
        effect = host.commands.handle(
            Inbound(
                platform="discord",
                channel=channel,
                sender=Sender("discord", str(user), f"captain{user % 10_000}"),
                kind=InboundKind.PUBLIC,
                text=text,
                message_id=f"setup-{key}",
                sent_at=datetime.now(UTC),
            )
        )
        assert effect.outcome is Outcome.HANDLED, (text, effect)

    side = max(20, int((captains * 6 / 0.7) ** 0.5) + 1)
    say(FIRST_USER, f"new size={side} turn=8h", "new")
    for i in range(captains):
        say(FIRST_USER + i, "join", f"join{i}")
    say(FIRST_USER, "start", "start")


async def _acks(commands: int, folder: Path) -> list[float]:
    import discord
    from aiohttp.test_utils import TestServer

    from bot.adapters.discord_adapter import DiscordAdapter

    fake_module = load_fake()
    fake = fake_module.FakeDiscord()
    fake.requests = StampedList()
    server = TestServer(fake.app())
    await server.start_server()
    base = discord.http.Route.BASE
    store = Store(sqlite_url(folder / "ack.db"))
    adapter = DiscordAdapter(
        DiscordConfig(enabled=True),
        token=TOKEN,
        cursors=_Cursors(),
        http=str(server.make_url("/api/v10")),
    )
    try:
        host = build_host(
            store, RealClock(), {"discord": adapter}, Config(), avatar_fetch=no_network
        )
        _setup_game(host, fake_module, commands)
        await adapter.login(host.on_inbound)
        rng_cells = [f"{chr(65 + i % 20)}{1 + i % 20}" for i in range(commands)]
        payloads = [
            fake_module.interaction_payload(
                "shoot",
                [{"name": "cell", "type": 3, "value": rng_cells[i]}],
                interaction_id=fake.snowflake() + i,
                user_id=FIRST_USER + i,
            )
            for i in range(commands)
        ]
        state = adapter.client._connection
        dispatched: dict[str, float] = {}
        tasks = []
        for payload in payloads:
            interaction: discord.Interaction[Any] = discord.Interaction(data=payload, state=state)
            dispatched[payload["id"]] = time.perf_counter()
            tasks.append(asyncio.create_task(adapter.tree._call(interaction)))
        await asyncio.gather(*tasks)
        acked: dict[str, float] = {}
        for recorded, stamp in zip(fake.requests, fake.requests.stamps, strict=True):
            parts = recorded.path.split("/")
            if recorded.method == "POST" and len(parts) == 5 and parts[1] == "interactions":
                acked.setdefault(parts[2], stamp)
        missing = set(dispatched) - set(acked)
        if missing:
            raise RuntimeError(f"{len(missing)} interactions were never acknowledged")
        return [(acked[key] - dispatched[key]) * 1000 for key in dispatched]
    finally:
        await adapter.stop()
        await server.close()
        discord.http.Route.BASE = base
        store.dispose()


class _Cursors:
    def __init__(self) -> None:
        self.values: dict[tuple[str, str], str] = {}

    async def get(self, platform: str, key: str) -> str | None:
        return self.values.get((platform, key))

    async def set(self, platform: str, key: str, value: str) -> None:
        self.values[(platform, key)] = value

    async def all(self, platform: str) -> dict[str, str]:
        return {k: v for (p, k), v in self.values.items() if p == platform}


def ack_latencies_ms(commands: int = 200) -> list[float]:
    with tempfile.TemporaryDirectory(prefix="bst-bench-ack-") as name:
        return asyncio.run(_acks(commands, Path(name)))


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.99 * len(ordered)) - 1))]


def ack_p99_ms(commands: int = 200, *, repeats: int) -> float:
    runs = [p99(ack_latencies_ms(commands)) for _ in range(repeats)]
    ack_p99_ms.last = runs  # type: ignore[attr-defined]
    return statistics.median(runs)


def run(*, quick: bool) -> list[Figure]:
    value = ack_p99_ms(200, repeats=3 if quick else 7)
    runs = ack_p99_ms.last  # type: ignore[attr-defined]
    return [
        Figure(
            "ack_p99_ms",
            value,
            100.0,
            unit=" ms",
            detail=(
                "200 concurrent /bst shoot, defer recorded by the fake Discord HTTP API; "
                f"median of {len(runs)} runs (p99s {', '.join(f'{r:.0f}' for r in runs)} ms)"
            ),
        )
    ]
