"""Rule 6 with two hosts on one database: two real host processes (each its own
TurnClock and Relay) race over 100 deadlines → exactly 100 resolutions, and no post
sent twice. On SQLite always; on PostgreSQL when BST_TEST_POSTGRES_URL is set."""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path

import pytest
from host_kit import MultiKit
from invariants import check_turns_exactly_once
from process_kit import HostProcess, ProcessFiles, wait_for

from bot.store import Store

GAMES = 20
TURNS = 5  # 20 games × 5 deadlines = 100 resolutions
TURN = 30.0  # game seconds; steps shorter than the relay's claim lease (60 s)
POSTGRES = os.environ.get("BST_TEST_POSTGRES_URL", "")


def _reset_postgres(url: str) -> None:
    store = Store(url, auto_migrate=False)
    from sqlmodel import SQLModel

    SQLModel.metadata.drop_all(store.engine)
    with store.engine.begin() as connection:
        # What Alembic knows of the schema goes with it, so migrate builds it again.
        connection.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
        connection.exec_driver_sql("DROP TABLE IF EXISTS schema_version")
    store.migrate()
    store.dispose()


def race(folder: Path, url: str) -> None:
    files = ProcessFiles(folder, db=url)
    kit = MultiKit(folder / "setup", ["queue"], url=url)
    try:
        for index in range(GAMES):
            kit.battle("queue", f"c{index}", turn=f"{int(TURN)}s")
    finally:
        kit.close()
    first = HostProcess(files, "--go", str(files.go), "--no-dedupe")
    second = HostProcess(files, "--go", str(files.go), "--no-dedupe")
    try:
        first.start()
        second.start()
        first.wait_ready()
        second.wait_ready()
        files.go.write_text("go")
        for _ in range(TURNS):
            files.advance(TURN)
            time.sleep(0.3)

        def done() -> bool:
            first.check_alive()
            second.check_alive()
            store = Store(url, auto_migrate=False)
            try:
                with store.transaction() as tx:
                    games = tx.all_games()
                    pending = [r for r in tx.outbox() if r.status == "pending"]
                return all(g.turn == TURNS + 1 for g in games) and not pending
            finally:
                store.dispose()

        wait_for(done, timeout=120, what="100 resolutions and an empty outbox")
    finally:
        first.kill()
        second.kill()
    store = Store(url, auto_migrate=False)
    try:
        resolved = check_turns_exactly_once(store)
        assert len(resolved) == GAMES
        assert sum(n - 1 for n in resolved.values()) == GAMES * TURNS  # turn 0 is the start
        with store.transaction() as tx:
            rows = tx.outbox()
            maps = Counter((r.game_id, r.turn) for r in rows if r.kind == "map")
    finally:
        store.dispose()
    assert len(maps) == GAMES * (TURNS + 1) and set(maps.values()) == {1}
    attempts = Counter(line["key"] for line in files.sent_lines(attempts=True))
    doubled = {key: n for key, n in attempts.items() if n > 1}
    assert not doubled, f"posts sent more than once (no nonce to save them): {doubled}"
    assert set(attempts) == {f"outbox-{r.id}" for r in rows}
    # Which process sent what depends on timing (one may win every claim on a
    # loaded machine); exactly-once must hold either way, so it is not asserted.


def test_two_processes_one_sqlite_file_100_deadlines(tmp_path: Path) -> None:
    race(tmp_path, f"sqlite:///{tmp_path / 'shared.sqlite'}")


@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES, reason="set BST_TEST_POSTGRES_URL to run against PostgreSQL")
def test_two_processes_one_postgresql_database_100_deadlines(tmp_path: Path) -> None:
    _reset_postgres(POSTGRES)
    race(tmp_path, POSTGRES)
