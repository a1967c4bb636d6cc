"""How fast the Discord adapter acknowledges slash commands when 200 arrive at once.

What runs for real: discord.py's client and ``CommandTree`` with the adapter's
``/bst`` group and callbacks (:class:`bot.adapters.discord.DiscordAdapter`,
production settings: no API base override), and behind it the real host
(:func:`bot.wiring.build_host` over a SQLite store, one 200-captain battle in the
channel; ``Host.on_inbound`` runs each command on its worker thread).

What is measured, per interaction: from the moment its gateway INTERACTION_CREATE
payload is handed to the client — the clock starts *before* discord.py builds the
``discord.Interaction`` (member, permissions, channel), then ``CommandTree._call``
runs it as the gateway's dispatch does — to the moment its deferral (``POST
/interactions/{id}/{token}/callback``, type 5) reaches the transport. All 200 are
dispatched at once on one event loop; the figure is the p99 of the 200, median
over the runs. Every command is still handed to the host; the run ends when all
200 hand-overs have returned.

What the recording HTTP layer replaces: only the ``aiohttp.ClientSession`` under
discord.py (``tests/adapters/discord/discord_fake.py``: ``recording_transport``
installs a ``RecordingSession`` as the session ``HTTPClient.static_login`` creates,
which every ``Interaction`` shares). Everything above it is discord.py's own code
path — ``InteractionResponse.defer`` → ``AsyncWebhookAdapter.create_interaction_response``
→ ``AsyncWebhookAdapter.request`` (route, JSON body, lock, status handling), and
``HTTPClient.request`` for the login. The recorder decodes what would have gone on
the wire, records (method, path, query, body, files, time) and answers at once with
the fake's Discord-shaped reply (the callback's 200 ``with_response`` body, a
message object for follow-ups). No socket, no HTTP parsing, no server sharing the
loop, and no network latency: the figure is the adapter's and discord.py's own
cost plus the host's competition for the interpreter, not Discord's round trip.
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
from bot.host.commands.inbox import Outcome
from bot.host.messages import Inbound, InboundKind, Sender
from bot.host.runtime.clock import RealClock
from bot.store import DatabaseCursors, Store
from bot.wiring import build_host, no_network, registered_games, sqlite_url

FAKE = Path(__file__).resolve().parents[1] / "tests" / "adapters" / "discord" / "discord_fake.py"
FIRST_USER = 1200000000000000000
TOKEN = "MTEwMDAwMDAwMDAwMDAwMDAwMg.bench.token"
DEFERRED = 5  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE


def load_fake() -> ModuleType:
    """The recording HTTP layer, loaded from the adapter's tests."""
    spec = importlib.util.spec_from_file_location("bst_bench_discord_fake", FAKE)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load {FAKE}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


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
    fake_module = load_fake()
    fake = fake_module.FakeDiscord()
    store = Store(sqlite_url(folder / "ack.db"))
    adapter = production_adapter(store)
    try:
        host = build_host(
            store, RealClock(), {"discord": adapter}, Config(), avatar_fetch=no_network
        )
        _setup_game(host, fake_module, commands)
        return await measure_acks(host, adapter, fake_module, fake, commands)
    finally:
        await adapter.stop()
        store.dispose()


def production_adapter(store: Store) -> Any:
    """The Discord adapter with production settings: no API base override, so discord.py
    builds the real https://discord.com/api/v10 URLs; only the session under them is
    the recorder."""
    from bot.adapters.discord import DiscordAdapter

    return DiscordAdapter(
        DiscordConfig(enabled=True),
        token=TOKEN,
        cursors=DatabaseCursors(store),
        games=registered_games(),
    )


async def logged_in(host: Any, adapter: Any, fake_module: ModuleType, fake: Any) -> list[Outcome]:
    """Log ``adapter`` in through the recorder, its inbound messages going to ``host``;
    the list each one's outcome is added to, as it comes."""
    outcomes: list[Outcome] = []

    async def on_inbound(inbound: Inbound) -> Any:
        effect = await host.on_inbound(inbound)
        outcomes.append(effect.outcome)
        return effect

    with fake_module.recording_transport(fake):
        await adapter.login(on_inbound)
    return outcomes


async def measure_acks(
    host: Any,
    adapter: Any,
    fake_module: ModuleType,
    fake: Any,
    commands: int,
    *,
    arrive_at: float | None = None,
) -> list[float]:
    """Log in through the recorder, dispatch ``commands`` slash commands at once (one
    per captain of the battle in the fake's channel) and return each one's
    acknowledgement latency in milliseconds.

    ``arrive_at`` (``time.perf_counter()`` seconds): when the commands reach the bot's
    socket, to time from; the dispatch waits for it. A loop that is busy then dispatches
    them late, and that lateness is part of their latency, as it is live."""
    outcomes = await logged_in(host, adapter, fake_module, fake)
    return await timed_acks(adapter, fake_module, fake, commands, outcomes, arrive_at=arrive_at)


async def timed_acks(
    adapter: Any,
    fake_module: ModuleType,
    fake: Any,
    commands: int,
    outcomes: list[Outcome],
    *,
    arrive_at: float | None = None,
) -> list[float]:
    """One burst of ``commands`` slash commands through an adapter logged in already (its
    ``on_inbound`` appending each command's outcome to ``outcomes``): each one's
    acknowledgement latency in milliseconds (see :func:`measure_acks`)."""
    import discord

    outcomes.clear()
    cells = [f"{chr(65 + i % 20)}{1 + i % 20}" for i in range(commands)]
    payloads = [
        fake_module.interaction_payload(
            "shoot",
            [{"name": "cell", "type": 3, "value": cells[i]}],
            interaction_id=fake.snowflake() + i,
            user_id=FIRST_USER + i,
        )
        for i in range(commands)
    ]
    state = adapter.client._connection
    before = len(fake.requests)
    dispatched: dict[str, float] = {}
    tasks = []
    if arrive_at is not None:
        await asyncio.sleep(max(0.0, arrive_at - time.perf_counter()))
    for payload in payloads:
        # The gateway's INTERACTION_CREATE: discord.py builds the Interaction
        # (member, permissions, channel) and the tree schedules its call.
        dispatched[payload["id"]] = time.perf_counter() if arrive_at is None else arrive_at
        interaction: discord.Interaction[Any] = discord.Interaction(data=payload, state=state)
        tasks.append(asyncio.create_task(adapter.tree._call(interaction)))
    await asyncio.gather(*tasks)
    if len(outcomes) != commands:
        raise RuntimeError(f"the host took {len(outcomes)} of {commands} commands")
    acked: dict[str, float] = {}
    for recorded in fake.requests[before:]:
        parts = recorded.path.split("/")
        if recorded.method == "POST" and len(parts) == 5 and parts[1] == "interactions":
            if recorded.json.get("type") != DEFERRED:
                raise RuntimeError(f"interaction {parts[2]} answered with {recorded.json}")
            acked.setdefault(parts[2], recorded.at)
    missing = set(dispatched) - set(acked)
    if missing:
        raise RuntimeError(f"{len(missing)} interactions were never acknowledged")
    return [(acked[key] - dispatched[key]) * 1000 for key in dispatched]


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
                "200 concurrent /bst shoot, defer recorded by the in-process HTTP recorder; "
                f"median of {len(runs)} runs (p99s {', '.join(f'{r:.0f}' for r in runs)} ms)"
            ),
        )
    ]
