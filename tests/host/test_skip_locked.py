"""On PostgreSQL several host processes share a storm: a game or an outbox row another
transaction holds is passed by (``FOR UPDATE SKIP LOCKED``) instead of waited for."""

from __future__ import annotations

import threading
import time

import pytest
from sqlmodel import select
from test_migrations import POSTGRES, fresh_postgres_schema

from benchmarks.storm import prepare_games
from bot.config import Config
from bot.host.runtime.clock import VirtualClock
from bot.store import GameRow, OutboxRow, Store, dumps
from bot.wiring import build_host, no_network

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not POSTGRES, reason="set BST_TEST_POSTGRES_URL to run against PostgreSQL"),
]


def _plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def _turns(store: Store) -> dict[int, int]:
    with store.transaction() as tx:
        return {int(g.id or 0): g.turn for g in tx.session.exec(select(GameRow)).all()}


def test_a_game_held_elsewhere_is_passed_by_and_the_others_resolve_meanwhile() -> None:
    import psycopg

    with fresh_postgres_schema() as url:
        store = Store(url, auto_migrate=False)
        store.migrate()
        clock = VirtualClock()
        deadline = prepare_games(store, 3, 4, start=clock.now())
        host = build_host(store, clock, {}, Config(), avatar_fetch=no_network)
        clock.set(deadline)
        first = min(_turns(store))
        finished = threading.Event()
        result: list[int] = []
        with psycopg.connect(_plain(url)) as other:
            # another host process is in the middle of resolving the first game
            other.execute("SELECT id FROM games WHERE id = %s FOR UPDATE", (first,))

            def storm() -> None:
                result.append(host.turns.resolve_due())
                finished.set()

            thread = threading.Thread(target=storm, daemon=True)
            thread.start()
            began = time.monotonic()
            while time.monotonic() - began < 20:
                turns = _turns(store)
                if all(turn == 2 for game, turn in turns.items() if game != first):
                    break
                time.sleep(0.05)
            # the other two resolved while the first is still held elsewhere
            assert {game: turn for game, turn in _turns(store).items() if game != first} == {
                game: 2 for game in _turns(store) if game != first
            }
            assert _turns(store)[first] == 1 and not finished.is_set()
            other.rollback()  # that process died mid-resolution: the game is free again
        assert finished.wait(20)
        thread.join()
        assert result == [3] and set(_turns(store).values()) == {2}
        store.dispose()


def test_an_outbox_row_held_elsewhere_is_not_waited_for() -> None:
    import psycopg

    with fresh_postgres_schema() as url:
        store = Store(url, auto_migrate=False)
        store.migrate()
        row = OutboxRow(game_id=0, turn=0, kind="k", recipient="public",
                        address=dumps({"platform": "p", "channel": "c"}), text="hi",
                        created_at=0.0)  # fmt: skip
        with store.transaction() as tx:
            assert tx.enqueue(row) and row.id is not None
        with psycopg.connect(_plain(url)) as other:
            # another relay is claiming it right now
            other.execute("SELECT id FROM outbox WHERE id = %s FOR UPDATE", (row.id,))
            answers: list[bool] = []

            def claim() -> None:
                with store.transaction() as tx:
                    answers.append(tx.claim_outbox(row.id or 0, 1.0, 61.0))

            thread = threading.Thread(target=claim, daemon=True)
            thread.start()
            thread.join(5.0)
            assert answers == [False]  # at once, not after the other relay's commit
            other.rollback()
            thread.join()
        with store.transaction() as tx:  # free again: claimed once
            assert tx.claim_outbox(row.id, 1.0, 61.0) is True
            assert tx.claim_outbox(row.id, 1.0, 61.0) is False
        store.dispose()
