"""Fakes for the host tests: a recording ChatAdapter and a Host on a VirtualClock.

(Named uniquely: pytest puts each test folder on sys.path, so a module called
``conftest`` or ``host_kit`` would collide with other folders'.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.host.messages import (
    Address,
    Attachment,
    Capabilities,
    CursorStore,
    Inbound,
    InboundHandler,
    InboundKind,
    Outbound,
    Sender,
)
from bot.host.runtime.clock import VirtualClock, to_datetime
from bot.host.runtime.service import Host
from bot.store import OutboxRow, Store
from bot.wiring import sqlite_url


async def no_attachments(row: OutboxRow) -> Sequence[Attachment]:
    return []


class RecordingAdapter:
    """A ChatAdapter that remembers every send; ``fail`` scripts failures per call."""

    capabilities = Capabilities()

    def __init__(self, platform: str = "fake") -> None:
        self.platform = platform
        self.sent: list[tuple[Address, Outbound]] = []
        self.fail: list[BaseException] = []  # raised (in order) by the next sends
        self.fail_for: Callable[[Address], BaseException | None] | None = None
        self.pending: list[Inbound] = []  # handed over by fetch_since
        self.handler: InboundHandler | None = None

    async def start(self, on_inbound: InboundHandler) -> None:
        self.handler = on_inbound

    async def send(self, address: Address, outbound: Outbound) -> str:
        if self.fail_for is not None:
            error = self.fail_for(address)
            if error is not None:
                raise error
        if self.fail:
            raise self.fail.pop(0)
        self.sent.append((address, outbound))
        return f"{self.platform}-{len(self.sent)}"

    async def fetch_since(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        pending, self.pending = self.pending, []
        for inbound in pending:
            await on_inbound(inbound)
        return len(pending)

    async def stop(self) -> None:
        self.handler = None

    def texts(self) -> list[str]:
        return [outbound.text for _, outbound in self.sent]


class HostKit:
    """A Host on a VirtualClock over a fresh SQLite file, with helpers to talk to it."""

    def __init__(
        self,
        tmp_path: Path,
        *,
        admins: frozenset[str] = frozenset(),
        draw_secret: Callable[[], str] | None = None,
        web_base_url: str = "",
    ) -> None:
        self.db_path = tmp_path / "host.sqlite"
        self.store = Store(sqlite_url(self.db_path))
        self.clock = VirtualClock()
        self.adapter = RecordingAdapter()
        self.host = Host(
            self.store,
            self.clock,
            {"fake": self.adapter},
            no_attachments,
            admins=admins,
            default_game="bst",
            draw_secret=draw_secret,
            web_base_url=web_base_url,
        )
        self._ids = iter(range(1, 1_000_000))

    def inbound(
        self,
        user: str,
        text: str,
        *,
        dm: bool = False,
        message_id: str | None = None,
        sent_at: datetime | None = None,
        admin: bool = False,
        channel: str = "chan",
    ) -> Inbound:
        return Inbound(
            platform="fake",
            channel=channel,
            sender=Sender("fake", f"id-{user}", user, is_channel_admin=admin),
            kind=InboundKind.DM if dm else InboundKind.PUBLIC,
            text=text,
            message_id=message_id or f"m{next(self._ids)}",
            sent_at=sent_at or to_datetime(self.clock.now()),
        )

    def say(self, user: str, text: str, **kwargs: Any):
        return asyncio.run(self.host.on_inbound(self.inbound(user, text, **kwargs)))

    def flush(self) -> int:
        return asyncio.run(self.host.relay.flush())

    def tick(self) -> int:
        return asyncio.run(self.host.tick())

    def game(self, game_id: int = 1):
        with self.store.transaction() as tx:
            return tx.game(game_id)

    def outbox(self) -> list[OutboxRow]:
        with self.store.transaction() as tx:
            return tx.outbox()

    def two_player_battle(self, options: str = "size=10x10 turn=8h") -> None:
        """alice hosts; alice and bob join and place; the battle starts."""
        self.say("alice", f"#bst new {options}")
        self.say("alice", "join")
        self.say("bob", "join")
        self.say("alice", "sub: A2\ncarrier: C1-C5", dm=True)
        self.say("bob", "cruiser: F1-F3, cruiser: J8-J10", dm=True)
        self.say("alice", "start")


def host_without_images(store, clock, adapters, config, **_: Any) -> Host:  # type: ignore[no-untyped-def]
    """``bst script``'s host (its ``build_host``), drawing no images: scripts' tests read
    texts, and drawing every map would only slow them."""
    return Host(
        store,
        clock,
        adapters,
        no_attachments,
        admins=frozenset(config.games.admins),
        default_turn=config.games.turn,
        default_game=config.games.default,
    )


COMMITTED_SECRET = "5a" * 32
"""The committed luck's secret of :func:`short_finished_game_record` (its record shows it)."""


def short_finished_game_record(folder: Path) -> dict[str, Any]:
    """The record of a two-player bst game played for a turn, a move and an ``end``, with a
    committed secret: what ``bst verify``'s tests check (and tamper with)."""
    from bot.host.play.record import game_record

    kit = HostKit(folder, draw_secret=lambda: COMMITTED_SECRET)
    kit.two_player_battle()
    kit.say("alice", "#bst F1", message_id="shot-a")
    kit.say("bob", "#bst C1", message_id="shot-b")
    kit.clock.set(kit.game().deadline + 1)
    kit.tick()
    kit.say("alice", "move carrier at C1 1 right", dm=True, message_id="move-a")
    kit.say("alice", "end")
    found = game_record(kit.store, 1)
    kit.store.dispose()
    return found
