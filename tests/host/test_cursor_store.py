"""The host's cursor store does all the ``CursorStore`` protocol says, ``forget`` too.

The adapters once asked the store whether it could forget (``getattr(cursors, "forget",
None)``) and the database's store could not, so in a live bot no cursor was ever dropped:
old game threads, DM channels Discord had closed and quiet channels stayed watched for
good. The protocol now declares ``forget``, and the store keeps it."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path

from bot.host.messages import CursorStore
from bot.store import Store
from bot.store.repository import DatabaseCursors
from bot.wiring import sqlite_url


def _protocol_methods() -> set[str]:
    return {
        name
        for name, member in inspect.getmembers(CursorStore, inspect.isfunction)
        if not name.startswith("_")
    }


def test_the_database_store_has_every_method_the_protocol_declares() -> None:
    assert {"get", "set", "all", "forget"} <= _protocol_methods()
    missing = {name for name in _protocol_methods() if not hasattr(DatabaseCursors, name)}
    assert not missing, f"DatabaseCursors lacks {sorted(missing)}"


def test_a_forgotten_cursor_is_gone_and_the_others_stay(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path / "bst.db"))
    store.migrate()
    cursors = DatabaseCursors(store)

    async def run() -> tuple[dict[str, str], str | None]:
        await cursors.set("discord", "thread:bst:7", "123 1767225600")
        await cursors.set("discord", "dm:42", "555")
        await cursors.forget("discord", "thread:bst:7")
        await cursors.forget("discord", "never-set")  # nothing to drop: no error
        return await cursors.all("discord"), await cursors.get("discord", "thread:bst:7")

    remaining, forgotten = asyncio.run(run())
    store.dispose()
    assert remaining == {"dm:42": "555"}
    assert forgotten is None
