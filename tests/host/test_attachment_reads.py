"""Drawing an outbox row's picture reads the stored turn on a worker thread: while a
deadline's resolutions hold the database lock, the event loop (acknowledgements, the
relay's other sends, Discord's pacing) goes on."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from benchmarks.storm import prepare_games
from bot.host.commands.inbox import Commands
from bot.host.outbox import attachments
from bot.host.outbox.attachments import AttachmentRenderer
from bot.host.outbox.avatar_cache import AvatarCache
from bot.host.play.turns import TurnClock
from bot.host.runtime.clock import VirtualClock
from bot.store import OutboxRow, Store, loads
from bot.wiring import no_network


def test_a_board_waits_for_the_database_lock_off_the_event_loop(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'bst.db'}")
    clock = VirtualClock()
    clock.set(prepare_games(store, 1, 4, start=clock.now()))
    assert TurnClock(store, clock, Commands(store, clock)).resolve_due() == 1
    with store.transaction() as tx:
        row = next(r for r in tx.session.execute(select(OutboxRow)).scalars() if r.render)
    renderer = AttachmentRenderer(store, AvatarCache(fetch=no_network))
    locked, release = threading.Event(), threading.Event()
    transaction = store.transaction

    @contextlib.contextmanager
    def held_elsewhere() -> Iterator[Any]:
        locked.set()
        release.wait(10)  # the lock, held by a resolution on the clock thread
        with transaction() as tx:
            yield tx

    async def go() -> None:
        store.transaction = held_elsewhere  # type: ignore[method-assign]
        started = time.monotonic()
        drawing = asyncio.ensure_future(renderer(row))
        while not locked.is_set():
            await asyncio.sleep(0.001)
        beats = 0
        for _ in range(5):  # the loop turns while the read waits for the lock
            await asyncio.sleep(0)
            beats += 1
        assert beats == 5 and not drawing.done()
        assert time.monotonic() - started < 5  # the loop never stood still for the lock
        release.set()
        pictures = await drawing
        store.transaction = transaction  # type: ignore[method-assign]
        assert len(pictures) == 1 and pictures[0].data.startswith(b"\x89PNG")

    asyncio.run(asyncio.wait_for(go(), 30))
    store.dispose()


def test_a_steps_boards_read_it_once_and_past_a_crowd_are_given_only_their_own_avatar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deadline draws every player's board from one stored step: it is read and decoded
    once for all of them (once per board, a crowd's turn cost the crowd's size a board and,
    at 100,000 captains, more memory than the machine had), and past
    ``AVATARS_FOR_EVERYONE`` players each board is given its own player's avatar alone."""
    store = Store(f"sqlite:///{tmp_path / 'bst.db'}")
    clock = VirtualClock()
    clock.set(prepare_games(store, 1, 6, start=clock.now()))
    assert TurnClock(store, clock, Commands(store, clock)).resolve_due() == 1
    with store.transaction() as tx:
        rows = [
            r
            for r in tx.session.execute(select(OutboxRow)).scalars()
            if r.render and loads(r.render).get("kind") == "private_board"
        ]
    assert len(rows) >= 3
    monkeypatch.setattr(attachments, "AVATARS_FOR_EVERYONE", 2)
    asked: list[str] = []

    class Recording(AvatarCache):
        async def get(self, player_id: str, name: str, url: str | None) -> Any:
            asked.append(player_id)
            return await super().get(player_id, name, url)

    reads: list[int] = []
    transaction = store.transaction

    def counted() -> Any:
        reads.append(1)
        return transaction()

    renderer = AttachmentRenderer(store, Recording(fetch=no_network))

    async def go() -> list[Any]:
        store.transaction = counted  # type: ignore[method-assign]
        try:
            return list(await asyncio.gather(*(renderer(row) for row in rows)))
        finally:
            store.transaction = transaction  # type: ignore[method-assign]

    drawn = asyncio.run(asyncio.wait_for(go(), 60))
    assert all(len(d) == 1 and d[0].data.startswith(b"\x89PNG") for d in drawn)
    assert len(reads) == 1
    assert sorted(asked) == sorted(loads(row.render)["player"] for row in rows)
    store.dispose()
