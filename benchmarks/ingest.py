"""Orders through the host (parse, check, dedupe, store, reply to the outbox) against raw
SQLite commit-per-row inserts on the same disk, in the same run.

What ``ingest_ratio`` measures: a started 12-captain game on a SQLite file (WAL,
synchronous=NORMAL, as in production); 1,000 legal orders (60% public shots, 30% moves
and 10% rotations by DM), all submitted at once the way a platform burst arrives:
``asyncio.gather`` of :meth:`Host.on_inbound` over a host with no adapter (nothing is
sent; the relay is not running). Timed from the first submission until every caller
has its effect, so every order is committed: the host's worker takes whatever has
queued while its previous batch committed (at most ``BATCH_LIMIT``) and commits it as
one transaction with a savepoint per order (group commit; see bot/host/commands.py).
The floor is plain sqlite3 ``BEGIN; INSERT; COMMIT`` of one small row per order. The
figure's detail also gives the rate of ``Commands.handle`` one order per transaction.

Where the time goes (cProfile, 1,000 orders in batches of 200): ~100 µs an order on a
quiet machine, of which ~45 µs are its six SQLite statements (inbound insert, savepoint
and release, retire the standing order, insert the order, insert the reply) and the
rest Python: parsing and validating (~25 µs), the game's accept/describe and the
order's JSON, and the asyncio hand-off between the caller's loop and the worker. The
game and captain rows on the hot path are plain dataclass snapshots (GameSnapshot,
PlayerSnapshot: no ORM attribute instrumentation), the reply address is built from a
head cached per sender, and Tx's statements check the session for unwritten changes
inline (~22% fewer instructions an order than with ORM snapshots). Tried and dropped:
a class-based savepoint instead of the generator (no measurable gain). Ideas not yet
done: skip savepoints optimistically (run a batch without them and, only if a message
raises, redo that batch one message per transaction, as Host already does when a
whole batch fails); write the order and the reply with one ``executemany`` per batch.
"""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from benchmarks import fixtures
from benchmarks.timing import Figure
from bot.games.bst import BST, BstState, Move, Rotate, Shoot
from bot.host.clock import VirtualClock
from bot.host.commands import Commands, Outcome
from bot.host.messages import Inbound, InboundKind, Sender
from bot.host.service import Host
from bot.store import Store, loads

PLATFORM = "bench"
CHANNEL = "channel-1"


def inbound(
    user: int,
    text: str,
    message_id: str,
    clock: VirtualClock,
    *,
    public: bool,
    channel: str = CHANNEL,
) -> Inbound:
    return Inbound(
        platform=PLATFORM,
        channel=channel if public else "",
        sender=Sender(PLATFORM, f"u{user}", f"captain{user}"),
        kind=InboundKind.PUBLIC if public else InboundKind.DM,
        text=text,
        message_id=message_id,
        sent_at=datetime.fromtimestamp(clock.now(), UTC),
    )


def started_game(
    commands: Commands, clock: VirtualClock, captains: int, *, channel: str = CHANNEL
) -> int:
    """A game made, joined and started through the commands, as players would."""

    def say(user: int, text: str, key: str) -> None:
        message = inbound(user, text, f"{channel}-{key}", clock, public=True, channel=channel)
        effect = commands.handle(message)
        assert effect.outcome is Outcome.HANDLED, (text, effect)

    say(1, "#bst new size=20 turn=8h", "new")
    for user in range(1, captains + 1):
        say(user, "join", f"join{user}")
    say(1, "start", "start")
    with commands.store.transaction() as tx:
        game = tx.active_game_in(PLATFORM, channel)
        assert game is not None and game.phase == "battle" and game.id is not None
        return game.id


def order_texts(state: BstState, count: int, *, seed: int = 4) -> list[tuple[int, str, bool]]:
    """(user, text, public) for ``count`` orders: 60% shots, 30% moves, 10% rotations,
    each legal for the captain who sends it."""
    texts = []
    rng = random.Random(seed)
    for round_number in range(count // len(state.captains) + 1):
        orders = fixtures.mixed_orders(state, seed=seed + round_number)
        for key, order in orders.items():
            user = int(key.removeprefix("p"))
            if isinstance(order, Shoot):
                texts.append((user, f"#bst {order.cell}", True))
            elif isinstance(order, Move):
                texts.append(
                    (
                        user,
                        f"move {order.kind.value} at {order.at} {order.steps} "
                        f"{order.direction.value}",
                        False,
                    )
                )
            elif isinstance(order, Rotate):
                texts.append((user, f"rotate {order.kind.value} at {order.at}", False))
    rng.shuffle(texts)
    return texts[:count]


async def _no_attachments(_row: object) -> list[object]:
    return []


def commands_rate(
    url: str, orders: int, *, repeats: int, captains: int = 12, burst: bool = True
) -> float:
    """Median orders per second on the store at ``url``: submitted together through
    ``Host.on_inbound`` (``burst``), else one by one through ``Commands.handle``."""
    store = Store(url)
    store.migrate()  # PostgreSQL is migrated explicitly (`bst migrate`); SQLite already is
    clock = VirtualClock()
    host = Host(store, clock, {}, _no_attachments)  # type: ignore[arg-type]
    commands = host.commands
    channel = f"ingest-{time.monotonic_ns()}"
    game_id = started_game(commands, clock, captains, channel=channel)
    with store.transaction() as tx:
        game = tx.game(game_id)
        assert game is not None
        state = BST.decode_state(loads(game.state))
        players = {p.key: p.user_id for p in tx.players(game_id)}
    texts = order_texts(state, orders)
    rates = []
    for batch in range(repeats + 1):
        messages = [
            inbound(
                int(players[f"p{user}"].removeprefix("u")),
                text,
                f"{game_id}-{batch}-{i}",
                clock,
                public=public,
                channel=channel,
            )
            for i, (user, text, public) in enumerate(texts)
        ]
        start = time.perf_counter()
        if burst:

            async def submit(burst_of: list[Inbound]) -> list[object]:
                return list(await asyncio.gather(*(host.on_inbound(m) for m in burst_of)))

            effects = asyncio.run(submit(messages))
        else:
            effects = [commands.handle(message) for message in messages]
        spent = time.perf_counter() - start
        for message, effect in zip(messages, effects, strict=True):
            if getattr(effect, "outcome", None) is not Outcome.HANDLED:
                raise RuntimeError(f"order not handled: {message.text!r} → {effect}")
        if batch:  # the first batch warms the caches
            rates.append(orders / spent)
    host._worker.shutdown()
    store.dispose()
    return statistics.median(rates)


def sqlite_rate(folder: Path, rows: int, *, repeats: int) -> float:
    """Median rows per second of plain sqlite3 inserts, one commit each, WAL + NORMAL."""
    path = folder / "raw.db"
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute(
        "CREATE TABLE inbound (id INTEGER PRIMARY KEY, platform TEXT, message_id TEXT, "
        "text TEXT, sent_at REAL, UNIQUE (platform, message_id))"
    )
    rates = []
    for batch in range(repeats + 1):
        start = time.perf_counter()
        for i in range(rows):
            connection.execute("BEGIN")
            connection.execute(
                "INSERT INTO inbound (platform, message_id, text, sent_at) VALUES (?, ?, ?, ?)",
                (PLATFORM, f"{batch}-{i}", "#bst H14", 1.0),
            )
            connection.execute("COMMIT")
        if batch:
            rates.append(rows / (time.perf_counter() - start))
    connection.close()
    return statistics.median(rates)


def ingest_ratio(orders: int = 1000, *, repeats: int, folder: Path | None = None) -> float:
    with tempfile.TemporaryDirectory(prefix="bst-bench-ingest-", dir=folder) as name:
        path = Path(name)
        host = commands_rate(f"sqlite:///{path / 'host.db'}", orders, repeats=repeats)
        raw = sqlite_rate(path, orders, repeats=repeats)
        single = commands_rate(
            f"sqlite:///{path / 'single.db'}", orders, repeats=repeats, burst=False
        )
    ingest_ratio.last = (host, raw, single)  # type: ignore[attr-defined]
    return host / raw


def postgres_floor(url: str, rows: int, *, repeats: int) -> float:
    """Rows per second of plain psycopg inserts, one commit each."""
    import psycopg

    table = f"bench_raw_{os.getpid()}"
    with psycopg.connect(url) as connection:
        connection.execute(
            f"CREATE TABLE {table} (id SERIAL PRIMARY KEY, platform TEXT, message_id TEXT, "
            "text TEXT, sent_at DOUBLE PRECISION, UNIQUE (platform, message_id))"
        )
        connection.commit()
        rates = []
        try:
            for batch in range(repeats + 1):
                start = time.perf_counter()
                for i in range(rows):
                    connection.execute(
                        f"INSERT INTO {table} (platform, message_id, text, sent_at) "
                        "VALUES (%s, %s, %s, %s)",
                        (PLATFORM, f"{batch}-{i}", "#bst H14", 1.0),
                    )
                    connection.commit()
                if batch:
                    rates.append(rows / (time.perf_counter() - start))
        finally:
            connection.execute(f"DROP TABLE {table}")
            connection.commit()
    return statistics.median(rates)


def run(*, quick: bool, postgres: str | None = None) -> list[Figure]:
    orders = 1000
    repeats = 3 if quick else 7
    ratio = ingest_ratio(orders, repeats=repeats)
    host, raw, single = ingest_ratio.last  # type: ignore[attr-defined]
    figures = [
        Figure(
            "ingest_ratio",
            ratio,
            0.25,
            at_most=False,
            floor="sqlite3 commit-per-row inserts (WAL, NORMAL)",
            detail=(
                f"{host:,.0f} orders/s vs {raw:,.0f} rows/s; {orders} orders from 12 captains "
                "submitted at once through Host.on_inbound (group commit: a transaction per "
                f"batch, a savepoint per order); one order per transaction: {single:,.0f}/s"
            ),
        )
    ]
    if postgres:
        pg_host = commands_rate(postgres, orders, repeats=repeats)
        pg_raw = postgres_floor(postgres, orders, repeats=repeats)
        figures.append(
            Figure(
                "ingest_ratio_postgres",
                pg_host / pg_raw,
                0.25,
                at_most=False,
                floor="psycopg commit-per-row inserts",
                detail=f"{pg_host:,.0f} orders/s vs {pg_raw:,.0f} rows/s",
            )
        )
    return figures
