"""Rows a transaction inserts later (Tx.insert_later: an order's journal entry, order row and
reply, written with the batch's others): every statement, ORM query and commit sees them,
each table's rows keep the order they were made in, and a savepoint rolled back takes
its own away."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import select
from test_migrations import sqlite_url

from bot.store import OutboxRow, Store
from bot.store.repository import NewPost


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    made = Store(sqlite_url(tmp_path / "s.sqlite"))
    yield made
    made.dispose()


def post(kind: str, recipient: str = "fake:u") -> NewPost:
    return NewPost(
        game_id=1,
        turn=0,
        kind=kind,
        recipient=recipient,
        address="{}",
        text=kind,
        render="",
        created_at=0.0,
    )


def kinds_in_order(store: Store) -> list[str]:
    with store.transaction() as tx:
        return [post.kind for post in tx.outbox()]


def test_rows_inserted_later_keep_their_order_among_rows_written_at_once(store: Store) -> None:
    with store.transaction() as tx:
        tx.post_later(post("reply:1"))
        tx.post(post("board:1"))  # written at once: the row made before it goes first
        tx.post_later(post("reply:2"))
        tx.post_all([post("map:1", "public")])
        tx.post_later(post("reply:3"))
    assert kinds_in_order(store) == ["reply:1", "board:1", "reply:2", "map:1", "reply:3"]


def test_a_read_in_the_same_transaction_sees_the_rows_left_to_insert(store: Store) -> None:
    with store.transaction() as tx:
        tx.new_order(game_id=1, player_key="p1", turn=1, order='{"a":1}', text="a",
                     inbound_id=1, sent_at=0.0)  # fmt: skip
        tx.add_journal(1, '{"do":"accept"}')
        assert [o.order for o in tx.orders_of_turn(1, 1)] == ['{"a":1}']
        assert tx.journal(1) == ['{"do":"accept"}']
        tx.post_later(post("reply:1"))
        # An ORM query sees them too.
        assert [row.kind for row in tx.session.exec(select(OutboxRow)).all()] == ["reply:1"]


def test_a_later_row_already_in_the_outbox_is_skipped_as_one_written_at_once(
    store: Store,
) -> None:
    with store.transaction() as tx:
        tx.post(post("reply:1"))
        tx.post_later(post("reply:1"))  # the same key: ON CONFLICT DO NOTHING, as post's
        tx.post_later(post("reply:2"))
    assert kinds_in_order(store) == ["reply:1", "reply:2"]


def test_a_savepoint_rolled_back_takes_its_later_rows_with_it(store: Store) -> None:
    with store.transaction() as tx:
        tx.post_later(post("reply:1"))
        with pytest.raises(RuntimeError), tx.savepoint():
            tx.post_later(post("reply:2"))
            tx.add_journal(1, '{"do":"accept"}')
            raise RuntimeError("the message failed")
        tx.post_later(post("reply:3"))
        assert tx.journal(1) == []
    assert kinds_in_order(store) == ["reply:1", "reply:3"]
