"""An in-process Host on a virtual clock with scriptable fake platforms, for the
redelivery, platform-fault, permission and secret tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bot.games.bst  # noqa: F401  (registers the game)
from bot.host.messages import (
    Address,
    Attachment,
    Capabilities,
    CursorStore,
    DeliveryError,
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


@dataclass
class FakePlatform:
    """A ChatAdapter whose sends fail as told. ``fault(address, outbound)`` returns the
    error to raise for this attempt (or None to accept); ``duplicate`` keys are accepted
    by the platform as already posted (a nonce hit, or X's duplicate-content 403)."""

    platform: str
    fault: Callable[[Address, Outbound], BaseException | None] | None = None
    fetch_error: BaseException | None = None
    sent: list[tuple[Address, Outbound]] = field(default_factory=list)
    attempts: list[str] = field(default_factory=list)
    pending: list[Inbound] = field(default_factory=list)
    capabilities: Capabilities = field(default_factory=Capabilities)

    async def start(self, on_inbound: InboundHandler) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def send(self, address: Address, outbound: Outbound) -> str:
        self.attempts.append(outbound.key)
        if self.fault is not None:
            error = self.fault(address, outbound)
            if error is not None:
                raise error
        if any(o.key == outbound.key for _, o in self.sent):
            return f"{self.platform}-{outbound.key}"  # the nonce: already posted once
        self.sent.append((address, outbound))
        return f"{self.platform}-{outbound.key}"

    async def fetch_since(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        if self.fetch_error is not None:
            raise self.fetch_error
        pending, self.pending = self.pending, []
        for inbound in pending:
            await on_inbound(inbound)
        return len(pending)

    def sent_keys(self) -> list[str]:
        return [o.key for _, o in self.sent]

    def texts(self) -> list[str]:
        return [o.text for _, o in self.sent]


class MultiKit:
    """A Host over a fresh SQLite file serving several fake platforms at once."""

    def __init__(
        self,
        tmp_path: Path,
        platforms: Sequence[str] = ("discord", "twitter"),
        *,
        admins: frozenset[str] = frozenset(),
        attachments: Any = no_attachments,
        url: str | None = None,
        draw_secret: Any = None,
    ) -> None:
        tmp_path.mkdir(parents=True, exist_ok=True)
        self.store = Store(url or sqlite_url(tmp_path / "multi.sqlite"), auto_migrate=True)
        self.clock = VirtualClock()
        self.adapters = {name: FakePlatform(name) for name in platforms}
        self.host = Host(
            self.store, self.clock, self.adapters, attachments, admins=admins,
            default_game="bst", draw_secret=draw_secret,
        )  # fmt: skip
        self._ids = iter(range(1, 10_000_000))

    def inbound(
        self,
        platform: str,
        user: str,
        text: str,
        *,
        channel: str,
        dm: bool = False,
        user_id: str | None = None,
        message_id: str | None = None,
        admin: bool = False,
    ) -> Inbound:
        return Inbound(
            platform=platform,
            channel=channel,
            sender=Sender(platform, user_id or f"id-{user}", user, is_channel_admin=admin),
            kind=InboundKind.DM if dm else InboundKind.PUBLIC,
            text=text,
            message_id=message_id or f"{platform}-m{next(self._ids)}",
            sent_at=to_datetime(self.clock.now()),
        )

    def deliver(self, inbound: Inbound) -> Any:
        return asyncio.run(self.host.on_inbound(inbound))

    def say(self, platform: str, user: str, text: str, **kwargs: Any) -> Any:
        return self.deliver(self.inbound(platform, user, text, **kwargs))

    def battle(self, platform: str, channel: str, turn: str = "1h") -> int:
        """alice hosts; alice and bob join and place by hand; the battle starts."""
        self.say(platform, "alice", f"#bst new size=10x10 turn={turn}", channel=channel)
        self.say(platform, "alice", "join", channel=channel)
        self.say(platform, "bob", "join", channel=channel)
        self.say(platform, "alice", "sub: A2\ncarrier: C1-C5", channel=channel, dm=True)
        self.say(platform, "bob", "cruiser: F1-F3, cruiser: J8-J10", channel=channel, dm=True)
        self.say(platform, "alice", "start", channel=channel)
        with self.store.transaction() as tx:
            game = tx.game_in(platform, channel)
            assert game is not None and game.phase == "battle", game
            assert game.id is not None
            return game.id

    def flush(self) -> int:
        return asyncio.run(self.host.relay.flush())

    def tick(self) -> int:
        return asyncio.run(self.host.tick())

    def outbox(self, game_id: int | None = None) -> list[OutboxRow]:
        with self.store.transaction() as tx:
            return tx.outbox(game_id)

    def game(self, game_id: int) -> Any:
        with self.store.transaction() as tx:
            return tx.game(game_id)

    def close(self) -> None:
        self.store.dispose()


__all__ = ["DeliveryError", "FakePlatform", "MultiKit", "no_attachments"]
