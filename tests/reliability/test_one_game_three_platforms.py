"""One game across platforms through the real adapters (issue 30 item 6): a bst game
opened on Discord (the real adapter on the project's fake Discord), bridged by its host
to a thread on X (the real adapter polling the fake X) and to the console (the real
console adapter), with a player on each. Each joins where they are, orders count
wherever they are sent, the turn's report reaches all three, and each board goes to its player
on their own platform. (The same at the host's level, with every check of the
rooms: tests/host/test_one_game_across_platforms.py.)"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

import bot.games.catalog  # noqa: F401  (registers every game)
from bot.adapters.console_adapter import ConsoleAdapter
from bot.host.runtime.clock import VirtualClock
from bot.host.runtime.service import Host
from bot.store import DatabaseCursors, Store
from bot.wiring import sqlite_url

_ADAPTER_TESTS = Path(__file__).resolve().parents[1] / "adapters"
for _folder in ("twitter", "discord"):
    if str(_ADAPTER_TESTS / _folder) not in sys.path:
        sys.path.append(str(_ADAPTER_TESTS / _folder))

_CODE = re.compile(r"[A-Z2-9]{4}-[A-Z2-9]{4}")


async def _no_attachments(row: Any) -> list[Any]:
    return []


def _iso(timestamp: float) -> str:
    # (X writes whole milliseconds: the next second, so it is never before the poll began)
    return datetime.fromtimestamp(int(timestamp) + 1, UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def test_a_game_with_players_on_discord_x_and_the_console(tmp_path: Path) -> None:
    import discord
    from aiohttp.test_utils import TestServer
    from discord_fake import (
        CHANNEL_ID,
        DM_CHANNEL_ID,
        MEMBER_PERMISSIONS,
        TOKEN,
        USER_ID,
        FakeDiscord,
        interaction_payload,
        user_payload,
    )
    from fake_x_api import SPEC_PATH, Credentials, FakeX, XSpec
    from x_support import ACCESS_SECRET, ACCESS_TOKEN, ALICE, API_KEY, API_SECRET, BEARER, BOB

    from bot.adapters.discord import DiscordAdapter
    from bot.adapters.twitter import TwitterAdapter, TwitterCredentials
    from bot.config import DiscordConfig, TwitterConfig
    from bot.games.catalog import games

    if not SPEC_PATH.exists():
        pytest.skip(reason=f"X API spec not found at {SPEC_PATH} (shared/specs beside the repo)")
    loop = asyncio.new_event_loop()
    run = loop.run_until_complete
    store = Store(sqlite_url(tmp_path / "three.sqlite"))
    clock = VirtualClock(time.time())
    patches = contextlib.ExitStack()
    discord_fake = FakeDiscord()
    x_fake = FakeX(
        XSpec(SPEC_PATH), Credentials(API_KEY, API_SECRET, ACCESS_TOKEN, ACCESS_SECRET, BEARER)
    )
    x_fake.add_user(ALICE, "alice", "Alice")
    x_fake.add_user(BOB, "bob", "Bob")
    servers = [TestServer(discord_fake.app()), TestServer(x_fake.app(), host="127.0.0.1")]
    started: list[Any] = []
    try:
        patches.enter_context(
            mock.patch.object(discord.http.Route, "BASE", discord.http.Route.BASE)
        )
        patches.enter_context(
            mock.patch.object(
                discord.gateway.DiscordWebSocket,
                "DEFAULT_GATEWAY",
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            )
        )
        patches.enter_context(
            mock.patch.object(
                discord.utils, "utcnow", lambda: datetime.fromtimestamp(clock.now(), UTC)
            )
        )
        for server in servers:
            run(server.start_server())
        discord_fake.base = str(servers[0].make_url("/api/v10"))
        x_fake.base_url = str(servers[1].make_url("")).rstrip("/")
        cursors = DatabaseCursors(store)
        on_discord = DiscordAdapter(
            DiscordConfig(enabled=True, message_content=True),
            token=TOKEN,
            cursors=cursors,
            games=games(),
            http=discord_fake.base,
        )

        async def no_sleep(seconds: float) -> None:
            await asyncio.sleep(0)

        on_x = TwitterAdapter(
            TwitterConfig(enabled=True, bot_user_id=x_fake.bot_id),
            credentials=TwitterCredentials(
                API_KEY, API_SECRET, ACCESS_TOKEN, ACCESS_SECRET, BEARER
            ),
            cursors=cursors,
            games=games(),
            base_url=x_fake.base_url,
            sleep=no_sleep,
            clock=clock.now,
        )
        console_said: list[str] = []
        on_console = ConsoleAdapter(tmp_path / "images", write=console_said.append, now=clock.now)
        host = Host(
            store, clock, {"discord": on_discord, "twitter": on_x, "console": on_console},
            _no_attachments, default_game="bst",
        )  # fmt: skip
        run(on_discord.login(host.on_inbound))
        run(on_console.start(host.on_inbound))
        started.extend((on_discord, on_x))

        def discord_said(since: int) -> list[str]:
            texts = []
            for request in discord_fake.requests[since:]:
                body = getattr(request, "json", None) or {}
                if isinstance(body, dict):
                    data = body.get("data") if isinstance(body.get("data"), dict) else body
                    if data.get("content"):
                        texts.append(str(data["content"]))
            return texts

        def slash(name: str, options: list[dict[str, Any]], *, group: str = "bst") -> None:
            payload = interaction_payload(
                name, options, interaction_id=int(discord_fake.snowflake()),
                permissions=MEMBER_PERMISSIONS, user_id=USER_ID, group=group,
            )  # fmt: skip
            interaction: Any = discord.Interaction(
                data=payload, state=on_discord.client._connection
            )
            run(on_discord.tree._call(interaction))
            run(host.relay.flush())

        def discord_dm(text: str) -> None:
            payload = discord_fake.message(
                DM_CHANNEL_ID, text, author=user_payload(), message_id=int(discord_fake.snowflake())
            )
            on_discord.client._connection.parse_message_create(payload)
            for _ in range(100):  # (gateway events run as tasks)
                run(asyncio.sleep(0.01))
            run(host.relay.flush())

        def x_poll() -> None:
            run(on_x.fetch_since(host.cursors, host.on_inbound))
            run(host.relay.flush())

        def console(speaker: str, text: str, *, dm: bool = False) -> None:
            run(on_console.say(speaker, text, private=dm))
            run(host.relay.flush())

        def code_from(texts: list[str]) -> str:
            found = [m for t in texts for m in _CODE.findall(t)]
            assert found, texts
            return found[-1]

        # The host opens the game on Discord and links her X and console accounts to hers.
        slash("new", [{"name": "size", "type": 3, "value": "8"}])
        slash("join", [])
        seen = len(discord_fake.requests)
        slash("link", [], group="me")
        code = code_from(discord_said(seen))
        x_fake.dm(ALICE, f"me link {code}", created_at=_iso(clock.now()))
        x_fake.dm(ALICE, f"me link {code} yes", created_at=_iso(clock.now()))
        x_poll()
        seen = len(discord_fake.requests)
        slash("link", [], group="me")
        code = code_from(discord_said(seen))
        console("alice", f"me link {code}", dm=True)
        console("alice", f"me link {code} yes", dm=True)
        # From X and from the console she brings game 1 to a room there.
        root = x_fake.mention(ALICE, "@bstbot #bst bridge 1", created_at=_iso(clock.now()))
        x_poll()
        console("alice", "#bst bridge 1")
        # bob joins on X, in the thread; carol on the console.
        x_fake.mention(BOB, "@bstbot #bst join", conversation_id=root, created_at=_iso(clock.now()))
        x_poll()
        console("carol", "join")
        with store.transaction() as tx:
            assert [(p.name, p.platform) for p in tx.players(1)] == [
                ("Ahab", "discord"), ("@bob", "twitter"), ("carol", "console"),
            ]  # fmt: skip
        # Fleets at random by DM, each on their own platform; the host starts from the console.
        discord_dm("random")
        x_fake.dm(BOB, "random", created_at=_iso(clock.now()))
        x_poll()
        console("carol", "random", dm=True)
        seen, x_dms, console_seen = len(discord_fake.requests), len(x_fake.dms), len(console_said)
        console("alice", "start")
        # Each board as the battle begins: to its player alone, on their own platform.
        board = "your fleet as the battle begins"
        dm_paths = {
            r.path for r in discord_fake.requests[seen:] if board in str(getattr(r, "json", ""))
        }
        assert dm_paths and all(str(CHANNEL_ID) not in path for path in dm_paths), dm_paths
        assert [to for to, body in x_fake.dms[x_dms:] if board in body["text"]] == [BOB]
        assert [line[:11] for line in console_said[console_seen:] if board in line] == [
            "[dm carol] "
        ]
        with store.transaction() as tx:
            game = tx.game(1)
            assert game is not None and game.phase == "battle", game
        # Orders, each where its player is: a slash command, a reply on X, a console line.
        clock.advance(60)
        slash("shoot", [{"name": "cell", "type": 3, "value": "H8"}])
        x_fake.mention(BOB, "@bstbot #bst G8", conversation_id=root, created_at=_iso(clock.now()))
        x_poll()
        console("carol", "#bst F8")
        with store.transaction() as tx:
            assert sorted(tx.standing_orders(1, 1)) == ["p1", "p2", "p3"]
        seen = len(discord_fake.requests)
        x_posts = len(x_fake.posts)
        console_seen = len(console_said)
        clock.set((game.deadline or 0) + 1)
        run(host.tick())
        run(host.relay.flush())
        # The turn's report reached every room: the Discord game's room, the X thread and
        # the console.
        report = "turn 1"
        assert any(report in text for text in discord_said(seen))
        assert any(report in str(p.get("text")) for p in x_fake.posts[x_posts:])
        assert any(report in line for line in console_said[console_seen:])
        assert x_fake.violations == [], x_fake.violations
    finally:
        for adapter in started:
            run(adapter.stop())
        for server in servers:
            run(server.close())
        patches.close()
        store.dispose()
        loop.close()
