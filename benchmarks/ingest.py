"""Orders through the host (parse, check, dedupe, store, reply to the outbox) against raw
SQLite commit-per-row inserts on the same disk, in the same run.

What ``ingest_ratio`` measures: a started 12-captain game on a SQLite file (WAL,
synchronous=NORMAL, as in production); 1,000 legal orders (60% public shots, 30% moves
and 10% rotations by DM), all submitted at once the way a platform burst arrives:
``asyncio.gather`` of :meth:`Host.on_inbound` over a host with no adapter (nothing is
sent; the relay is not running). Timed from the first submission until every caller
has its effect, so every order is committed: the host's worker takes whatever has
queued while its previous batch committed (at most ``BATCH_LIMIT``) and commits it as
one transaction (group commit; see bot/host/commands/inbox.py). The floor is plain sqlite3
``BEGIN; INSERT; COMMIT`` of one small row per order. Each round of the host is paired
with a round of the floor run right after it and the figure is the median of the
pairs' ratios: this machine's speed drifts by tens of percent within seconds, and the
two halves of a pair see the same machine. The detail also gives the rate of
``Commands.handle``, one order per transaction.

Where the time goes (issue 45, 2026-12-02). Callgrind counts ~438,000 instructions an
order through ``handle_many`` in batches of 200 (~471,000 before this session's cuts);
the floor's row is ~50,000 instructions, the rest of its ~23 µs being the kernel's part
of a commit (the WAL's write). py-spy of ``handle_many``: SQLite's own work for the four
rows an order writes (the inbound message, the journal entry, the order, the reply: ten
b-tree entries with their keys and indexes) ~17%, the commit ~3%; the rest is Python
spread thin, no part over 5%: the message's record (~4%), routing and the checks (~10%),
parsing (~11%), the game's accept (~9%), the order's and the journal's JSON (~5%), the
reply and its address (~7%), the frozen values made (~5%). On top, a burst's asyncio
(the callers' tasks and futures) is ~7 µs an order. A full pass of the collector over
the process's start was ~100 ms every few rounds until the benchmark settled the heap as
``bst run`` does (``heap.settle``; it had been left out here). What made it fast: decoded
states cached by their stored JSON, plain SQL behind Tx methods (INSERT … ON CONFLICT decides
duplicates), group commit, plain snapshots of game and captain rows, lazily seeded
random sources, the newest order standing (a replacement is one INSERT, no UPDATE),
batches tried without savepoints (taken only if a message raises), rows inserted later
in one ``executemany``, the sender's plain name remembered, the store's JSON encoder made
once (and its C encoder), the host's verbs looked up by name in a dict, an order's
reply key written out, the heap settled as in `bst run`, an order's game found once. Measured by
alternating rounds in one process and by callgrind's counts (this machine's speed
drifts by tens of percent within seconds). Tried and dropped: a class-based savepoint
instead of the generator; reads that leave the rows to insert later waiting (no CPU
difference); the inbound message inserted with the batch's other rows too, its id given
in Python under SQLite's write lock and the batch's duplicates asked in one query (3% of
the instructions, 471k → 457k: the row's b-tree work is SQLite's wherever it runs, and
the code to keep ids and duplicates exact was not worth it). The goal of 0.5 is not
reached: it would take an order at ~2× the floor's row, where the Python of an order
alone is about 2× the floor's whole row and SQLite's part of its four rows is ~half of it.
Nor do the host's two threads overlap: a burst's wall time is the sum of the two
threads' CPU (``time.thread_time``: 97.5 µs an order against 15.4 on the loop and 80.2
on the worker; 83.5 against 16.0 and 63.1), the loop's part near a bare ``gather`` of as
many futures (7–9 µs an order). Compiling five pure modules of the path with mypyc
(bst's cells, orders, acceptance and text, and the host's routing) took ~9% off the
worker's CPU, measured in alternating runs; the store's ``Tx`` (its tables' classes
joined by multiple inheritance) does not compile as it is, and compiled modules would
need a C compiler at install and could not be monkeypatched in tests, so it stayed an
experiment.
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
from benchmarks.scratch import postgres_schema
from benchmarks.timing import Figure
from bot.games.bst import BST, BstState, Move, Rotate, Shoot
from bot.host.commands.inbox import Commands, Outcome
from bot.host.messages import Inbound, InboundKind, Sender
from bot.host.runtime import heap
from bot.host.runtime.clock import VirtualClock
from bot.host.runtime.service import Host
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
        game = tx.game_in(PLATFORM, channel)
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


class HostIngest:
    """Rounds of ``orders`` legal orders into one started game on the store at ``url``:
    submitted together through ``Host.on_inbound`` (``burst``), else one by one through
    ``Commands.handle``. The first round warms the caches."""

    def __init__(self, url: str, orders: int, *, captains: int = 12, burst: bool = True):
        self.store = Store(url)
        self.store.migrate()  # PostgreSQL is migrated explicitly (`bst migrate`)
        self.clock = VirtualClock()
        self.host = Host(self.store, self.clock, {}, _no_attachments, default_game="bst")  # type: ignore[arg-type]
        self.orders = orders
        self.burst = burst
        self.channel = f"ingest-{time.monotonic_ns()}"
        self.game_id = started_game(self.host.commands, self.clock, captains, channel=self.channel)
        with self.store.transaction() as tx:
            game = tx.game(self.game_id)
            assert game is not None
            state = BST.codec.decode_state(loads(game.state))
            self.users = {p.key: int(p.user_id.removeprefix("u")) for p in tx.players(self.game_id)}
        self.texts = order_texts(state, orders)
        self.rounds = 0
        self.round()
        heap.settle()  # as `bst run` does once it has started (bot/host/runtime/heap.py)

    def round(self) -> float:
        """One round: orders per second."""
        self.rounds += 1
        messages = [
            inbound(
                self.users[f"p{user}"],
                text,
                f"{self.game_id}-{self.rounds}-{i}",
                self.clock,
                public=public,
                channel=self.channel,
            )
            for i, (user, text, public) in enumerate(self.texts)
        ]
        host = self.host
        start = time.perf_counter()
        if self.burst:

            async def submit() -> list[object]:
                return list(await asyncio.gather(*(host.on_inbound(m) for m in messages)))

            effects: list[object] = asyncio.run(submit())
        else:
            effects = [host.commands.handle(message) for message in messages]
        spent = time.perf_counter() - start
        for message, effect in zip(messages, effects, strict=True):
            if getattr(effect, "outcome", None) is not Outcome.HANDLED:
                raise RuntimeError(f"order not handled: {message.text!r} → {effect}")
        return self.orders / spent

    def close(self) -> None:
        self.host._worker.shutdown()
        self.store.dispose()


class RawInserts:
    """The floor: plain sqlite3 inserts of one small row, one commit each, WAL + NORMAL
    (as the host's store is set up)."""

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(path, isolation_level=None)
        self.connection.execute("PRAGMA journal_mode=WAL")
        self.connection.execute("PRAGMA synchronous=NORMAL")
        self.connection.execute(
            "CREATE TABLE inbound (id INTEGER PRIMARY KEY, platform TEXT, message_id TEXT, "
            "text TEXT, sent_at REAL, UNIQUE (platform, message_id))"
        )
        self.rounds = 0

    def round(self, rows: int) -> float:
        """One round: rows per second."""
        self.rounds += 1
        execute = self.connection.execute
        start = time.perf_counter()
        for i in range(rows):
            execute("BEGIN")
            execute(
                "INSERT INTO inbound (platform, message_id, text, sent_at) VALUES (?, ?, ?, ?)",
                (PLATFORM, f"{self.rounds}-{i}", "#bst H14", 1.0),
            )
            execute("COMMIT")
        return rows / (time.perf_counter() - start)

    def close(self) -> None:
        self.connection.close()


def ingest_ratio(
    orders: int = 1000, *, repeats: int, folder: Path | None = None
) -> tuple[float, float, float, float]:
    """(median of the paired ratios, median host rate, median floor rate, the rate one
    order per transaction). Each host round is paired with a floor round run right
    after it, and the ratio is taken per pair: this machine's speed drifts by tens of
    percent over seconds, and a pair sees the same machine."""
    with tempfile.TemporaryDirectory(prefix="bst-bench-ingest-", dir=folder) as name:
        path = Path(name)
        host = HostIngest(f"sqlite:///{path / 'host.db'}", orders)
        raw = RawInserts(path / "raw.db")
        raw.round(orders)  # warm, as the host's first round is
        host_rates, raw_rates, ratios = [], [], []
        try:
            for _ in range(repeats):
                host_rates.append(host.round())
                raw_rates.append(raw.round(orders))
                ratios.append(host_rates[-1] / raw_rates[-1])
        finally:
            host.close()
            raw.close()
        single = HostIngest(f"sqlite:///{path / 'single.db'}", orders, burst=False)
        try:
            single_rate = statistics.median(single.round() for _ in range(repeats))
        finally:
            single.close()
    return (
        statistics.median(ratios),
        statistics.median(host_rates),
        statistics.median(raw_rates),
        single_rate,
    )


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
    repeats = 5 if quick else 11
    ratio, host, raw, single = ingest_ratio(orders, repeats=repeats)
    figures = [
        Figure(
            "ingest_ratio",
            ratio,
            0.25,
            at_most=False,
            floor="sqlite3 commit-per-row inserts (WAL, NORMAL)",
            detail=(
                f"median of {repeats} paired rounds; {host:,.0f} orders/s vs {raw:,.0f} rows/s; "
                f"{orders} orders from 12 captains submitted at once through Host.on_inbound "
                "(group commit: a transaction per batch); one order per transaction: "
                f"{single:,.0f}/s"
            ),
        )
    ]
    if postgres:
        with postgres_schema(postgres) as scratch:
            pg = HostIngest(scratch, orders)
            try:
                pg_host = statistics.median(pg.round() for _ in range(repeats))
            finally:
                pg.close()
            pg_raw = postgres_floor(scratch, orders, repeats=repeats)
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
