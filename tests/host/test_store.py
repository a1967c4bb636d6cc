"""The store: unique inbound, unique outbox keys, cursors, migrations (idempotent, and
migration 3 from a database made before it)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from sqlalchemy import inspect, text
from sqlmodel import SQLModel, select

from bot.store import DatabaseCursors, GameRow, InboundRow, OrderRow, OutboxRow, Store
from bot.wiring import sqlite_url

POSTGRES = os.environ.get("BST_TEST_POSTGRES_URL", "")


@pytest.fixture
def store(tmp_path: Path) -> Store:
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


def _orders_as_before_v3(store: Store) -> None:
    """Turn a migrated database back into one made before migration 3: orders with the
    `active` column and its two indexes, and version 3 not applied."""
    serial = "SERIAL" if store.engine.dialect.name == "postgresql" else "INTEGER"
    with store.engine.begin() as connection:
        connection.execute(text("DROP TABLE orders"))
        connection.execute(
            text(
                f"CREATE TABLE orders (id {serial} NOT NULL, game_id INTEGER NOT NULL, "
                "player_key VARCHAR NOT NULL, turn INTEGER NOT NULL, "
                '"order" VARCHAR NOT NULL, text VARCHAR NOT NULL, inbound_id INTEGER NOT NULL, '
                "sent_at FLOAT NOT NULL, active BOOLEAN NOT NULL, PRIMARY KEY (id))"
            )
        )
        connection.execute(text("CREATE INDEX ix_orders_game_turn ON orders (game_id, turn)"))
        connection.execute(
            text("CREATE INDEX ix_orders_standing ON orders (game_id, turn, player_key, active)")
        )
        connection.execute(text("DELETE FROM schema_version WHERE version = 3"))
        # p1 replaced F1 with F2; p2 gave one order.
        for player, cell, active in (("p1", "F1", False), ("p2", "A1", True), ("p1", "F2", True)):
            connection.execute(
                text(
                    'INSERT INTO orders (game_id, player_key, turn, "order", text, inbound_id, '
                    "sent_at, active) VALUES (1, :player, 1, :order, :cell, 0, 0.0, :active)"
                ),
                {
                    "player": player,
                    "order": f'{{"cell": "{cell}"}}',
                    "cell": cell,
                    "active": active,
                },
            )


def _check_migration_3(url: str) -> None:
    store = Store(url)
    store.migrate()  # (SQLite migrates on start; PostgreSQL by `bst migrate`)
    _orders_as_before_v3(store)
    assert store.migrate() == ["3: the newest order stands: drop orders.active"]
    columns = {c["name"] for c in inspect(store.engine).get_columns("orders")}
    assert "active" not in columns
    indexes = {i["name"] for i in inspect(store.engine).get_indexes("orders")}
    assert indexes == {"ix_orders_turn_player"}
    with store.transaction() as tx:
        standing = {key: row.text for key, row in tx.standing_orders(1, 1).items()}
        assert standing == {"p1": "F2", "p2": "A1"}  # the orders that were active
        history = [row.text for row in tx.session.exec(select(OrderRow).order_by(OrderRow.id))]
        assert history == ["F1", "A1", "F2"]  # nothing lost
        previous = tx.new_order(
            game_id=1, player_key="p1", turn=1, order='{"cell": "F3"}', text="F3",
            inbound_id=0, sent_at=1.0,
        )  # fmt: skip
        assert previous == '{"cell": "F2"}'
    assert store.migrate() == []
    store.dispose()


def test_migration_3_keeps_every_order_and_the_standing_ones_sqlite(tmp_path: Path) -> None:
    _check_migration_3(sqlite_url(tmp_path / "v2.sqlite"))


@pytest.mark.skipif(not POSTGRES, reason="set BST_TEST_POSTGRES_URL to run against PostgreSQL")
def test_migration_3_keeps_every_order_and_the_standing_ones_postgres() -> None:
    store = Store(POSTGRES, auto_migrate=False)
    SQLModel.metadata.drop_all(store.engine)
    store.dispose()
    _check_migration_3(POSTGRES)


@pytest.mark.skipif(not POSTGRES, reason="set BST_TEST_POSTGRES_URL to run against PostgreSQL")
def test_a_command_holds_its_game_until_it_commits_postgres() -> None:
    """On PostgreSQL a resolution may run in another process while a batch of commands
    does: the game a command read stays locked until its transaction ends, so the turn
    cannot close between an order being checked and being written."""
    import psycopg

    store = Store(POSTGRES, auto_migrate=False)
    SQLModel.metadata.drop_all(store.engine)
    store.migrate()
    with store.transaction() as tx:
        tx.session.add(
            GameRow(kind="bst", platform="p", channel="c", creator="p:u", options="{}", seed=1,
                    phase="battle", turn=1, turn_seconds=60.0, deadline=0.0, state="{}",
                    created_at=0.0)
        )  # fmt: skip
    plain = POSTGRES.replace("postgresql+psycopg://", "postgresql://")
    with store.transaction() as tx:
        assert tx.peek_game_in("p", "c") is not None
        with psycopg.connect(plain) as other:
            with pytest.raises(psycopg.errors.LockNotAvailable):
                other.execute("SELECT id FROM games WHERE channel = 'c' FOR UPDATE NOWAIT")
            other.rollback()
    with psycopg.connect(plain) as other:  # committed: free again
        other.execute("SELECT id FROM games WHERE channel = 'c' FOR UPDATE NOWAIT")
    store.dispose()
