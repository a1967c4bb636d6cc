"""The store: unique inbound, unique outbox keys, cursors, migration on start (idempotent;
the migrations themselves: test_migrations.py)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_migrations import fresh_postgres_schema, sqlite_url

from bot.store import DatabaseCursors, GameRow, InboundRow, OutboxRow, Store

POSTGRES = os.environ.get("BST_TEST_POSTGRES_URL", "")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    made = Store(sqlite_url(tmp_path / "s.sqlite"))
    yield made
    made.dispose()


def inbound(message_id: str, platform: str = "fake") -> InboundRow:
    return InboundRow(
        platform=platform,
        message_id=message_id,
        channel="c",
        user_id="u",
        user_name="u",
        kind="dm",
        text="join",
        sent_at=0.0,
        received_at=0.0,
    )


def outbox(kind: str = "reply:1", recipient: str = "public", turn: int = 0) -> OutboxRow:
    return OutboxRow(
        game_id=1, turn=turn, kind=kind, recipient=recipient, address="{}", text="t", created_at=0.0
    )


def test_inbound_unique_per_platform_and_message_id(store: Store) -> None:
    with store.transaction() as tx:
        tx.add_inbound(inbound("m1"))
        tx.add_inbound(inbound("m1", platform="other"))  # same id, other platform: fine
    with store.transaction() as tx:
        assert tx.inbound_seen("fake", "m1") and tx.inbound_seen("other", "m1")
        assert not tx.inbound_seen("fake", "m2")
    with pytest.raises(Exception, match=r"(?i)unique"), store.transaction() as tx:
        tx.add_inbound(inbound("m1"))


def test_outbox_unique_per_game_turn_kind_recipient(store: Store) -> None:
    with store.transaction() as tx:
        assert tx.enqueue(outbox())
        assert not tx.enqueue(outbox())
        assert tx.enqueue(outbox(recipient="p1"))
        assert tx.enqueue(outbox(turn=1))
        assert tx.enqueue(outbox(kind="reply:2"))
    with store.transaction() as tx:
        assert len(tx.outbox(1)) == 4
    # the database itself refuses a duplicate, whoever writes it
    with pytest.raises(Exception, match=r"(?i)unique"), store.transaction() as tx:
        tx.session.add(outbox())
        tx.session.flush()


def test_cursor_reads_and_writes_leave_the_event_loop_free(store: Store) -> None:
    """A cursor call that waits for the database lock (up to 30 s on SQLite while a
    deadline resolves) waits on a worker thread: the event loop goes on meanwhile."""
    from bot.host.runtime.service import HostCursors

    cursors = HostCursors(store)
    locked = threading.Event()
    release = threading.Event()
    transaction = store.transaction

    @contextlib.contextmanager
    def slow_transaction() -> Iterator[Any]:
        locked.set()
        release.wait(5)  # the database lock, held by someone else
        with transaction() as tx:
            yield tx

    async def go() -> None:
        beats = 0
        store.transaction = slow_transaction  # type: ignore[method-assign]
        for call in (
            cursors.set("x", "k", "1"),
            cursors.get("x", "k"),
            cursors.all("x"),
            cursors.forget("x", "k"),
        ):
            release.clear()
            locked.clear()
            task = asyncio.ensure_future(call)
            while not locked.is_set():
                await asyncio.sleep(0.001)
            for _ in range(5):  # the loop turns while the call waits for the lock
                await asyncio.sleep(0)
                beats += 1
            assert not task.done()
            release.set()
            await task
        assert beats == 20
        store.transaction = transaction  # type: ignore[method-assign]
        assert await cursors.get("x", "k") is None

    asyncio.run(asyncio.wait_for(go(), 20))


def test_cursors_round_trip_and_update(store: Store) -> None:
    cursors = DatabaseCursors(store)

    async def go() -> None:
        assert await cursors.get("x", "since_id") is None
        await cursors.set("x", "since_id", "10")
        await cursors.set("x", "since_id", "12")
        await cursors.set("x", "dm", "7")
        await cursors.set("y", "since_id", "99")
        assert await cursors.get("x", "since_id") == "12"
        assert await cursors.all("x") == {"since_id": "12", "dm": "7"}

    asyncio.run(go())


def test_migrations_idempotent(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "m.sqlite")
    first = Store(url)
    with first.transaction() as tx:
        tx.add_inbound(inbound("kept"))
    first.dispose()
    second = Store(url)  # migrates again on start: nothing to do, nothing lost
    assert second.migrate() == []
    with second.transaction() as tx:
        assert tx.inbound_seen("fake", "kept")
    second.dispose()


def test_transaction_rolls_back_on_error(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction() as tx:
        tx.add_inbound(inbound("lost"))
        raise RuntimeError("boom")
    with store.transaction() as tx:
        assert not tx.inbound_seen("fake", "lost")


@pytest.mark.skipif(not POSTGRES, reason="set BST_TEST_POSTGRES_URL to run against PostgreSQL")
def test_a_command_holds_its_game_until_it_commits_postgres() -> None:
    """On PostgreSQL a resolution may run in another process while a batch of commands
    does: the game a command read stays locked until its transaction ends, so the turn
    cannot close between an order being checked and being written."""
    with fresh_postgres_schema() as url:
        _check_a_command_holds_its_game(url)


def _check_a_command_holds_its_game(url: str) -> None:
    import psycopg

    store = Store(url, auto_migrate=False)
    assert store.migrate() != []  # (PostgreSQL is migrated by `bst migrate`, not on start)
    with store.transaction() as tx:
        tx.session.add(
            GameRow(kind="bst", platform="p", channel="c", creator="p:u", options="{}", seed=1,
                    phase="battle", turn=1, deadline=0.0, state="{}",
                    created_at=0.0)
        )  # fmt: skip
    plain = url.replace("postgresql+psycopg://", "postgresql://")
    with store.transaction() as tx:
        assert tx.game_in("p", "c") is not None
        with psycopg.connect(plain) as other:
            with pytest.raises(psycopg.errors.LockNotAvailable):
                other.execute("SELECT id FROM games WHERE channel = 'c' FOR UPDATE NOWAIT")
            other.rollback()
    with psycopg.connect(plain) as other:  # committed: free again
        other.execute("SELECT id FROM games WHERE channel = 'c' FOR UPDATE NOWAIT")
    store.dispose()
