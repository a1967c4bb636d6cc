"""The store's whole vocabulary: every read and write the host makes, by name.

The host never writes SQL and never imports the database layer: it opens a
:meth:`Store.transaction` and calls these methods, so each effect (recorded
inbound, changed state, replies in the outbox) commits or rolls back as one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.engine import Engine

from bot.store.cursors import CursorTable
from bot.store.database import make_engine, migrate, normal_url, session_scope
from bot.store.games import ACTIVE_PHASES, GameTable
from bot.store.inbound import InboundTable, Received
from bot.store.journal import JournalTable
from bot.store.orders import WITHDRAWN, OrderTable
from bot.store.outbox import NewPost, PostTable
from bot.store.players import PlayerTable
from bot.store.steps import StepTable
from bot.store.tx import ClockScope, TxSession, build, dumps, loads


class Tx(
    GameTable,
    PlayerTable,
    InboundTable,
    OrderTable,
    JournalTable,
    StepTable,
    PostTable,
    CursorTable,
):
    """One open transaction: the reads and writes of every table (one module each), on
    the plumbing they share (bot.store.tx.TxBase)."""


class Store:
    """The database behind the host."""

    def __init__(
        self,
        url: str,
        *,
        auto_migrate: bool | None = None,
        read_only: bool = False,
        clock_scope: ClockScope | None = None,
    ) -> None:
        """``read_only``: a store that can only read (the web page's), never migrates.
        ``clock_scope``: the only games its turn clock sees (none: every game)."""
        self.url = url = normal_url(url)
        self.clock_scope = clock_scope
        self.engine: Engine = make_engine(url, read_only=read_only)
        self.postgres = url.startswith("postgres")
        if read_only:
            auto_migrate = False
        if auto_migrate if auto_migrate is not None else not self.postgres:
            migrate(self.engine)

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        with session_scope(self.engine, TxSession) as session:
            tx = Tx(session, postgres=self.postgres, clock_scope=self.clock_scope)
            yield tx
            tx.write_staged()  # (before the commit)
            tx.write_later()

    def migrate(self) -> list[str]:
        return migrate(self.engine)

    def dispose(self) -> None:
        self.engine.dispose()


class DatabaseCursors:
    """The adapters' cursor store (the ``CursorStore`` protocol), one transaction per call,
    each on a worker thread: a call may wait up to the database's lock timeout (30 s on
    SQLite) while a deadline resolves, and the event loop must not wait with it."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, platform: str, key: str) -> str | None:
        return await asyncio.to_thread(self._get, platform, key)

    async def set(self, platform: str, key: str, value: str) -> None:
        await asyncio.to_thread(self._set, platform, key, value)

    async def all(self, platform: str) -> dict[str, str]:
        return await asyncio.to_thread(self._all, platform)

    async def forget(self, platform: str, key: str) -> None:
        await asyncio.to_thread(self._forget, platform, key)

    def _get(self, platform: str, key: str) -> str | None:
        with self.store.transaction() as tx:
            return tx.cursor(platform, key)

    def _set(self, platform: str, key: str, value: str) -> None:
        with self.store.transaction() as tx:
            tx.set_cursor(platform, key, value)

    def _all(self, platform: str) -> dict[str, str]:
        with self.store.transaction() as tx:
            return tx.cursors(platform)

    def _forget(self, platform: str, key: str) -> None:
        with self.store.transaction() as tx:
            tx.forget_cursor(platform, key)


__all__ = [
    "ACTIVE_PHASES",
    "WITHDRAWN",
    "ClockScope",
    "DatabaseCursors",
    "NewPost",
    "Received",
    "Store",
    "Tx",
    "build",
    "dumps",
    "loads",
]
