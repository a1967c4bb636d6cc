"""A whole small game through Discord slash commands, the real host and a fake Discord.

The adapter runs discord.py's own CommandTree on INTERACTION_CREATE payloads;
the host (commands, turn clock on a virtual clock, outbox, relay, renderers) is
the production one; every HTTP request lands on the local fake Discord.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any
from unittest import mock

import discord
from discord_fake import (
    CHANNEL_ID,
    GUILD_ID,
    MANAGE_GUILD,
    MEMBER_PERMISSIONS,
    OTHER_USER_ID,
    USER_ID,
    user_payload,
)

import bot.games.bst  # noqa: F401  (registers the game)
from bot.host.outbox.attachments import AttachmentRenderer
from bot.host.outbox.avatar_cache import AvatarCache
from bot.host.runtime.clock import SCRIPT_EPOCH, VirtualClock
from bot.host.runtime.service import Host
from bot.store import Store
from bot.wiring import no_network, sqlite_url

EPHEMERAL = 64
DISCORD_EPOCH_MS = 1_420_070_400_000


def snowflake(timestamp: float, increment: int) -> int:
    return ((int(timestamp * 1000) - DISCORD_EPOCH_MS) << 22) + increment


def option(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value}


async def run(adapter: Any, payload: dict[str, Any]) -> None:
    interaction: discord.Interaction[Any] = discord.Interaction(
        data=payload, state=adapter.client._connection
    )
    await adapter.tree._call(interaction)


def message_bodies(fake: Any, path: str) -> list[dict[str, Any]]:
    bodies = []
    for request in fake.requests_to("POST", path):
        body = request.json
        if body is None and request.files:
            # multipart: the JSON part travels as payload_json
            for name, _filename, data in request.files:
                if name == "payload_json":
                    body = json.loads(data)
        bodies.append(body or {})
    return bodies


class DiscordTable:
    """The production host on a virtual clock, with the Discord adapter in front of it."""

    def __init__(self, adapter: Any, payload_factory: Any, tmp_path: Any) -> None:
        self.adapter = adapter
        self.payload_factory = payload_factory
        self.store = Store(sqlite_url(tmp_path / "discord.db"))
        self.clock = VirtualClock(SCRIPT_EPOCH)
        attachments = AttachmentRenderer(self.store, AvatarCache(fetch=no_network))
        self.host = Host(self.store, self.clock, {"discord": adapter}, attachments)
        self.sequence = iter(range(1, 4096))
        # Interaction ids are snowflakes of the virtual clock: discord.py's "now" (which
        # Interaction.is_expired reads) is the virtual clock's too.
        self._now = mock.patch.object(
            discord.utils, "utcnow", lambda: datetime.fromtimestamp(self.clock.now(), UTC)
        )
        self._now.start()

    def next_id(self) -> int:
        # Ids are snowflakes: the adapter reads the time they were sent from them.
        return snowflake(self.clock.now(), next(self.sequence))

    async def slash(
        self, name: str, options: list[dict[str, Any]] | None = None, **kw: Any
    ) -> None:
        payload = self.payload_factory(name, options, interaction_id=self.next_id(), **kw)
        await run(self.adapter, payload)
        await self.host.relay.flush()

    async def two_captains_placed(self) -> None:
        """A new 8×8 game, two captains joined, both fleets placed (not started)."""
        await self.slash("new", [option("size", "8")], permissions=MEMBER_PERMISSIONS)
        await self.slash("join")
        await self.slash("join", user_id=OTHER_USER_ID)
        await self.slash("place", [option("ships", "sub: A2, carrier: C1-C5")])
        await self.slash(
            "place", [option("ships", "cruiser: F1-F3, cruiser: H6-H8")], user_id=OTHER_USER_ID
        )

    async def close(self) -> None:
        self._now.stop()
        await self.adapter.stop()
        self.store.dispose()


async def test_a_whole_small_game_through_slash_commands(
    make_adapter: Any, fake_discord: Any, payload_factory: Any, tmp_path: Any
) -> None:
    table = DiscordTable(make_adapter(), payload_factory, tmp_path)
    store, clock, host, slash = table.store, table.clock, table.host, table.slash
    await table.adapter.login(host.on_inbound)
    try:
        await table.two_captains_placed()
        # The second captain is not the game's host: refused by the host's own check.
        before = len(fake_discord.requests)
        await slash("start", user_id=OTHER_USER_ID, group="host")
        refusal = [b for b in message_bodies(fake_discord, r"/webhooks/\d+/[^/]+")[-1:]]
        assert "only the game's host can `start`" in refusal[0]["content"]
        assert refusal[0].get("flags", 0) & EPHEMERAL
        assert len(fake_discord.requests) > before
        with store.transaction() as tx:
            assert tx.game(1).phase == "setup"
        # The creator starts it; each captain gets a board by DM.
        await slash("start", group="host")
        with store.transaction() as tx:
            game = tx.game(1)
            assert game.phase == "battle"
            # The game plays in the thread it opened in the channel.
            assert game.lobby == str(CHANNEL_ID)
            thread = int(game.channel)
        assert fake_discord.channels[thread]["parent_id"] == str(CHANNEL_ID)
        dms_opened = fake_discord.requests_to("POST", "/users/@me/channels")
        # discord.py sends the id as a JSON number, the API documents a string: compare as text.
        recipients = {str(r.json["recipient_id"]) for r in dms_opened}
        assert recipients >= {str(USER_ID), str(OTHER_USER_ID)}
        # A public shot and a private move, then the deadline falls.
        await slash("shoot", [option("cell", "F3")])
        await slash(
            "move",
            [
                option("ship", "cruiser"),
                option("at", "H8"),
                option("steps", 2, 4),
                option("direction", "left"),
            ],
            user_id=OTHER_USER_ID,
        )
        clock.set(game.deadline)
        await host.tick()
        channel_posts = message_bodies(fake_discord, rf"/channels/{thread}/messages")
        turn_post = [b for b in channel_posts if "turn 1:" in b.get("content", "")]
        assert turn_post and "Shots: Ahab hit F3." in turn_post[0]["content"]
        map_uploads = [
            r for r in fake_discord.requests_to("POST", rf"/channels/{thread}/messages") if r.files
        ]
        assert any(
            filename.endswith("-map.png") and data[:8] == b"\x89PNG\r\n\x1a\n"
            for r in map_uploads
            for _name, filename, data in r.files
        )
        with store.transaction() as tx:
            turn = tx.turn(1, 1)
            assert turn is not None
            assert [o["action"] for o in json.loads(turn.orders)] == ["shoot", "move"]
            pending = [r for r in tx.outbox() if r.status == "pending"]
            assert pending == []
    finally:
        await table.close()


async def test_manage_server_members_may_host_a_game_they_did_not_create(
    make_adapter: Any, fake_discord: Any, payload_factory: Any, tmp_path: Any
) -> None:
    table = DiscordTable(make_adapter(), payload_factory, tmp_path)
    await table.adapter.login(table.host.on_inbound)
    try:
        await table.slash("new", [], user_id=USER_ID, permissions=MEMBER_PERMISSIONS)
        await table.slash(
            "pause",
            [],
            user_id=OTHER_USER_ID,
            permissions=MEMBER_PERMISSIONS | MANAGE_GUILD,
            group="host",
        )
        bodies = message_bodies(fake_discord, r"/webhooks/\d+/[^/]+")
        # No deadline runs in setup: the server manager is allowed, and told why nothing paused.
        assert "nothing to pause" in bodies[-1]["content"]
    finally:
        await table.close()


async def test_rule_4_a_move_typed_in_the_channel_is_deleted_and_answered_privately(
    make_adapter: Any, fake_discord: Any, payload_factory: Any, tmp_path: Any
) -> None:
    table = DiscordTable(make_adapter(message_content=True), payload_factory, tmp_path)
    store, host = table.store, table.host
    await table.adapter.login(host.on_inbound)
    try:
        await table.two_captains_placed()
        await table.slash("start", group="host")
        # The second captain types their move in the channel, giving a cruiser away.
        typed = table.next_id()
        payload = fake_discord.message(
            CHANNEL_ID,
            "#bst move cruiser at H8 2 left",
            author=user_payload(OTHER_USER_ID, "Ishmael"),
            message_id=typed,
            guild_id=GUILD_ID,
        )
        payload["member"] = {"roles": [], "joined_at": "2025-01-01T00:00:00+00:00",
                             "deaf": False, "mute": False, "flags": 0, "nick": None}  # fmt: skip
        table.adapter.client._connection.parse_message_create(payload)
        for _ in range(200):  # gateway events run as tasks
            with store.transaction() as tx:
                if any(r.kind.startswith("withdraw:") for r in tx.outbox()):
                    break
            await asyncio.sleep(0.01)
        await host.relay.flush()
        assert fake_discord.deleted == [(CHANNEL_ID, typed)]
        ishmael = fake_discord.dm_channel_of(OTHER_USER_ID)["id"]  # (each user's own DMs)
        dm_bodies = message_bodies(fake_discord, rf"/channels/{ishmael}/messages")
        assert any("moves are private" in b.get("content", "") for b in dm_bodies)
        with store.transaction() as tx:
            assert tx.standing_orders(1, 1) == {}
    finally:
        await table.close()
