"""A SQLite file removed or replaced under a running bot is noticed (issue 39, item 9):
the next transaction stops the process saying why, instead of acknowledging orders
into an unlinked file that a restart would never read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from host_fakes import HostKit

from bot.store import Store
from bot.store.database import DatabaseGone
from bot.wiring import sqlite_url


def test_a_removed_database_file_stops_the_host_saying_why(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    kit.two_player_battle()
    os.remove(kit.db_path)
    with pytest.raises(DatabaseGone) as stopped:
        kit.say("alice", "#bst F3")
    assert str(kit.db_path) in str(stopped.value) and "removed" in str(stopped.value)
    assert not kit.db_path.exists()  # nothing was written to a new, empty file either
    kit.store.dispose()


def test_a_replaced_database_file_stops_the_store(tmp_path: Path) -> None:
    path = tmp_path / "bst.db"
    store = Store(sqlite_url(path))
    with store.transaction() as tx:
        tx.game(1)
    os.replace(Store(sqlite_url(tmp_path / "other.db")).url.removeprefix("sqlite:///"), path)
    with pytest.raises(DatabaseGone, match="replaced"), store.transaction() as tx:
        tx.game(1)
    store.dispose()
