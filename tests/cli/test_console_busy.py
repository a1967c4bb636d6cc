"""``bst run`` and a database in trouble (issue 39, item 9): the console tries a typed
line again while the database is locked by another process, instead of ending; a
database file removed under the running bot stops it, saying why (exit 1)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from pathlib import Path

import pytest

from bot.cli import run
from bot.host.messages import Inbound
from bot.store import Store
from bot.wiring import sqlite_url


def _console(
    tmp_path: Path, failures: list[BaseException]
) -> tuple[run.PatientConsole, list[str], list[str]]:
    written: list[str] = []
    seen: list[str] = []
    console = run.PatientConsole(tmp_path, write=written.append)
    console.RETRY_SECONDS = (0.0, 0.0, 0.0)

    async def handler(inbound: Inbound) -> None:
        seen.append(inbound.text)
        if failures:
            raise failures.pop(0)

    asyncio.run(console.start(handler))  # type: ignore[arg-type]
    return console, written, seen


def test_a_line_typed_while_the_database_is_locked_is_tried_again(tmp_path: Path) -> None:
    locked = [sqlite3.OperationalError("database is locked") for _ in range(2)]
    console, written, seen = _console(tmp_path, locked)
    asyncio.run(console.say("alice", "#bst join", private=False))
    assert seen == ["#bst join"] * 3  # the same line, until it was taken
    assert sum("busy" in line for line in written) == 2


def test_a_line_still_locked_after_the_last_try_leaves_the_console_open(tmp_path: Path) -> None:
    locked = [sqlite3.OperationalError("database is locked") for _ in range(10)]
    console, written, seen = _console(tmp_path, locked)
    asyncio.run(console.say("alice", "#bst join", private=False))  # no exception: goes on
    assert len(seen) == 4
    assert "not taken" in written[-1]


def test_a_bug_is_not_retried(tmp_path: Path) -> None:
    console, _, seen = _console(tmp_path, [ValueError("a bug")])
    with pytest.raises(ValueError):
        asyncio.run(console.say("alice", "#bst join", private=False))
    assert seen == ["#bst join"]


def test_a_database_file_removed_under_the_bot_stops_it_saying_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bst.db"
    store = Store(sqlite_url(path))

    def work() -> None:
        with store.transaction() as tx:
            tx.game(1)

    async def bot() -> None:
        run._remember_main()
        for _ in range(500):  # the bot's work: a transaction now and then, off the loop
            with contextlib.suppress(Exception):  # (as the host: answered, it goes on)
                await asyncio.to_thread(work)
            await asyncio.sleep(0.01)

    async def remove_soon() -> None:
        await asyncio.sleep(0.05)
        os.remove(path)

    async def main() -> None:
        remover = asyncio.get_running_loop().create_task(remove_soon())
        try:
            await bot()
        finally:
            await remover

    with run._stopping_when_gone() as gone, pytest.raises((asyncio.CancelledError, Exception)):
        asyncio.run(main())
    assert run._gone_exit(gone) == 1
    assert "was removed while bst was running" in capsys.readouterr().err
    store.dispose()
