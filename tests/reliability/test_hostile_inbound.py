"""Hostile text through every platform's inbound path (issue 24, "what done looks like").

Hypothesis drives numbers past every range, control and bidi characters, markdown,
mentions and 10,000-character posts (hostile_text.py) through the console, X's mentions
and DMs (the real adapter polling the project's fake X) and Discord's typed messages,
DMs, slash commands and catch-up (the real adapter on the project's fake Discord), each
into the real host on a virtual clock, and checks after every message:

* nothing crashes: the platform's handler returns, and no message ends ``failed``;
* the poller or cursor has moved past it, and it was recorded exactly once;
* a refusal names what was expected (an example, a range or the word to use) and does
  not echo a long post back;
* a refusal changes nothing: games, players and standing orders are as they were.

Each platform's test runs a few dozen seeded examples (seconds); the ``slow`` ones run
the same properties over many more (minutes), with ``BST_FUZZ_SLOW=1``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections.abc import Callable, Coroutine, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar
from unittest import mock

import pytest
from hostile_text import hostile_text, names_what_is_expected
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import col, select

import bot.games.catalog  # noqa: F401  (registers every game)
from bot.adapters.console_adapter import ConsoleAdapter, read_line
from bot.host.commands.inbox import Outcome
from bot.host.runtime.clock import SCRIPT_EPOCH, VirtualClock
from bot.host.runtime.service import Host
from bot.store import Store
from bot.store.models import GameRow, InboundRow, OrderRow, PlayerRow
from bot.wiring import sqlite_url

_ADAPTER_TESTS = Path(__file__).resolve().parents[1] / "adapters"
for _folder in ("twitter", "discord"):
    if str(_ADAPTER_TESTS / _folder) not in sys.path:
        sys.path.append(str(_ADAPTER_TESTS / _folder))

T = TypeVar("T")
SLOW = os.environ.get("BST_FUZZ_SLOW") == "1"
REPLY_LIMIT = 1000  # a refusal never echoes a long post


def heavy(test: Callable[..., None]) -> Callable[..., None]:
    """The same property over many more examples (minutes): on request only."""
    return pytest.mark.slow(
        pytest.mark.skipif(not SLOW, reason="many examples: set BST_FUZZ_SLOW=1 to run")(test)
    )


def examples(count: int) -> settings:
    return settings(
        derandomize=True,
        deadline=None,
        database=None,
        max_examples=count,
        suppress_health_check=list(HealthCheck),
    )


async def _no_attachments(row: Any) -> list[Any]:
    return []


class Table:
    """A Host on a fresh SQLite file, driven from a loop of its own (hypothesis examples
    are plain functions: each runs its coroutine here)."""

    def __init__(
        self, tmp_path: Path, adapters: dict[str, Any], *, now: float = SCRIPT_EPOCH
    ) -> None:
        self.loop = asyncio.new_event_loop()
        self.store = Store(sqlite_url(tmp_path / "hostile.sqlite"))
        self.clock = VirtualClock(now)
        self.host = Host(self.store, self.clock, adapters, _no_attachments, default_game="bst")

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(work)

    def snapshot(self) -> tuple[object, ...]:
        with self.store.transaction() as tx:
            games = [
                (g.id, g.state, g.phase, g.turn, g.deadline, g.paused_remaining, g.timers)
                for g in tx.session.exec(select(GameRow).order_by(col(GameRow.id))).all()
            ]
            players = sorted(
                (p.game_id, p.key, p.user_id) for p in tx.session.exec(select(PlayerRow)).all()
            )
            orders = sorted(
                (o.id, o.player_key, o.turn, o.order) for o in tx.session.exec(select(OrderRow))
            )
            return games, players, orders

    def recorded(self, platform: str, message_id: str) -> list[InboundRow]:
        with self.store.transaction() as tx:
            query = select(InboundRow).where(
                InboundRow.platform == platform, InboundRow.message_id == message_id
            )
            return list(tx.session.exec(query).all())

    def close(self) -> None:
        self.store.dispose()
        self.loop.close()


def check_refusal(replies: list[str], text: str) -> None:
    assert replies, f"a refusal of {text[:60]!r} got no reply"
    for reply in replies:
        assert names_what_is_expected(reply), (text[:80], reply)
        assert len(reply) < REPLY_LIMIT, (text[:80], reply[:200])


# --- the console -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def console(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Table, ConsoleAdapter, list[str]]]:
    said: list[str] = []
    tmp = tmp_path_factory.mktemp("console")
    table: Table
    adapter = ConsoleAdapter(tmp / "images", write=said.append, now=lambda: table.clock.now())
    table = Table(tmp, {"console": adapter})
    table.run(adapter.start(table.host.on_inbound))
    for line in ("alice> #bst new size=8", "alice> join", "bob> join",
                 "alice dm> random", "bob dm> random", "alice> start"):  # fmt: skip
        typed = read_line(line, None)
        assert typed.speaker is not None
        table.run(adapter.say(typed.speaker, typed.text, private=typed.private))
    table.run(table.host.relay.flush())
    yield table, adapter, said
    table.close()


CONSOLE_LINES = {
    "text": hostile_text(),
    "who": st.sampled_from(["alice", "mallory"]),
    "dm": st.booleans(),
}


def _console_line(
    console: tuple[Table, ConsoleAdapter, list[str]], text: str, who: str, dm: bool
) -> None:
    table, adapter, said = console
    line = f"{who}{' dm' if dm else ''}> {text}"
    typed = read_line(line, None)
    if typed.speaker is None:
        return  # a console command (`:quit`): not a message
    before = table.snapshot()
    seen = len(said)
    effects: list[Any] = []

    async def say() -> None:
        real = table.host.on_inbound

        async def recording(inbound: Any) -> Any:
            effects.append(await real(inbound))
            return effects[-1]

        adapter._handler = recording
        try:
            await adapter.say(typed.speaker or who, typed.text, private=typed.private)
        finally:
            adapter._handler = real
        await table.host.relay.flush()

    table.clock.advance(1)
    table.run(say())
    (effect,) = effects
    assert effect.outcome is not Outcome.FAILED, text[:80]
    if effect.outcome is Outcome.REFUSED:
        assert table.snapshot() == before, f"a refused {text[:80]!r} changed the game"
        check_refusal([s for s in said[seen:] if s.startswith("[dm ")], text)


test_the_console_refuses_hostile_lines_clearly_and_changes_nothing = examples(80)(
    given(**CONSOLE_LINES)(_console_line)
)
test_the_console_refuses_many_hostile_lines = heavy(
    examples(1500)(given(**CONSOLE_LINES)(_console_line))
)


# --- X: mentions and DMs, polled from the fake X --------------------------------------


@pytest.fixture(scope="module")
def x_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from fake_x_api import SPEC_PATH, Credentials, FakeX, XSpec

    if not SPEC_PATH.exists():
        pytest.skip(reason=f"X API spec not found at {SPEC_PATH} (shared/specs beside the repo)")
    from aiohttp.test_utils import TestServer
    from x_support import (
        ACCESS_SECRET,
        ACCESS_TOKEN,
        ALICE,
        API_KEY,
        API_SECRET,
        BEARER,
        BOB,
    )

    from bot.adapters.twitter import TwitterAdapter, TwitterCredentials
    from bot.config import TwitterConfig
    from bot.games.catalog import games
    from bot.store import DatabaseCursors

    fake = FakeX(
        XSpec(SPEC_PATH), Credentials(API_KEY, API_SECRET, ACCESS_TOKEN, ACCESS_SECRET, BEARER)
    )
    fake.add_user(ALICE, "alice", "Alice")
    fake.add_user(BOB, "bob", "Bob")
    mallory = "4000000000000000004"
    fake.add_user(mallory, "mallory", "Mallory")
    tmp = tmp_path_factory.mktemp("x")
    table = Table(tmp, {})
    server = TestServer(fake.app(), host="127.0.0.1")
    table.run(server.start_server())
    fake.base_url = str(server.make_url("")).rstrip("/")  # type: ignore[attr-defined]

    async def no_sleep(seconds: float) -> None:
        await asyncio.sleep(0)

    adapter = TwitterAdapter(
        TwitterConfig(enabled=True, bot_user_id=fake.bot_id),
        credentials=TwitterCredentials(API_KEY, API_SECRET, ACCESS_TOKEN, ACCESS_SECRET, BEARER),
        cursors=DatabaseCursors(table.store),
        games=games(),
        base_url=fake.base_url,  # type: ignore[attr-defined]
        sleep=no_sleep,
        clock=table.clock.now,
    )
    table.host = Host(table.store, table.clock, {"twitter": adapter}, _no_attachments)
    root = fake.mention(ALICE, "@bstbot #bst new size=8")
    fake.mention(ALICE, "@bstbot #bst join", conversation_id=root)
    fake.mention(BOB, "@bstbot #bst join", conversation_id=root)
    table.run(adapter.fetch_since(table.host.cursors, table.host.on_inbound))
    table.run(table.host.relay.flush())
    users = {"alice": ALICE, "mallory": mallory}
    yield table, adapter, fake, root, users
    table.run(adapter.stop())
    table.run(server.close())
    table.close()
    assert fake.violations == [], fake.violations


X_MESSAGES = {
    "text": hostile_text(10_000),  # a long post (X Premium) or a DM: 10,000 characters
    "who": st.sampled_from(["alice", "mallory"]),
    "how": st.sampled_from(["thread", "mention", "dm"]),
}


def _x_message(x_table: Any, text: str, who: str, how: str) -> None:
    from bot.adapters.twitter.catch_up import DM_CURSOR, MENTIONS_CURSOR

    table, adapter, fake, root, users = x_table
    user = users[who]
    before = table.snapshot()
    dms_before = len(fake.dms)
    if how == "dm":
        message_id = fake.dm(user, text)
    else:
        extra = {"conversation_id": root} if how == "thread" else {}
        message_id = fake.mention(user, f"@bstbot {text}", **extra)

    async def poll() -> int:
        handled = int(await adapter.fetch_since(table.host.cursors, table.host.on_inbound))
        await table.host.relay.flush()
        return handled

    table.run(poll())
    cursor = DM_CURSOR if how == "dm" else MENTIONS_CURSOR
    assert table.run(table.host.cursors.get("twitter", cursor)) == message_id
    rows = table.recorded("twitter", message_id)
    assert len(rows) == 1, (text[:80], rows)
    assert rows[0].outcome != "failed", text[:80]
    if rows[0].outcome == "refused":
        assert table.snapshot() == before, f"a refused {text[:80]!r} changed a game"
        check_refusal([body["text"] for to, body in fake.dms[dms_before:] if to == user], text)
    # A second poll reads nothing again.
    assert table.run(poll()) == 0


test_x_polls_past_every_hostile_mention_and_dm = examples(60)(given(**X_MESSAGES)(_x_message))
test_x_polls_past_many_hostile_mentions_and_dms = heavy(
    examples(1000)(given(**X_MESSAGES)(_x_message))
)


# --- Discord: typed messages, DMs, slash commands and catch-up ------------------------


@pytest.fixture(scope="module")
def discord_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    import discord
    from aiohttp.test_utils import TestServer
    from discord_fake import (
        CHANNEL_ID,
        DM_CHANNEL_ID,
        GUILD_ID,
        MEMBER_PERMISSIONS,
        OTHER_USER_ID,
        TOKEN,
        USER_ID,
        FakeDiscord,
        interaction_payload,
        user_payload,
    )

    from bot.adapters.discord import DiscordAdapter
    from bot.config import DiscordConfig
    from bot.games.catalog import games

    tmp = tmp_path_factory.mktemp("discord")
    # Message ids are snowflakes of the real time, as the fake gives its own messages
    # (the bot's DMs move the DM cursor): the host's clock starts there too.
    table = Table(tmp, {}, now=time.time())
    fake = FakeDiscord()
    server = TestServer(fake.app())
    patches = contextlib.ExitStack()
    patches.enter_context(mock.patch.object(discord.http.Route, "BASE", discord.http.Route.BASE))
    patches.enter_context(
        mock.patch.object(
            discord.gateway.DiscordWebSocket,
            "DEFAULT_GATEWAY",
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
        )
    )
    patches.enter_context(
        mock.patch.object(
            discord.utils, "utcnow", lambda: datetime.fromtimestamp(table.clock.now(), UTC)
        )
    )
    table.run(server.start_server())
    fake.base = str(server.make_url("/api/v10"))
    from bot.store import DatabaseCursors

    cursors = DatabaseCursors(table.store)
    adapter = DiscordAdapter(
        DiscordConfig(enabled=True, message_content=True),
        token=TOKEN,
        cursors=cursors,
        games=games(),
        http=fake.base,
    )
    table.host = Host(table.store, table.clock, {"discord": adapter}, _no_attachments)
    table.run(adapter.login(table.host.on_inbound))

    def next_id() -> int:
        return int(fake.snowflake())

    async def slash(name: str, options: list[dict[str, Any]], user_id: int = USER_ID) -> None:
        payload = interaction_payload(
            name,
            options,
            interaction_id=next_id(),
            permissions=MEMBER_PERMISSIONS,
            user_id=user_id,
        )
        interaction: Any = discord.Interaction(data=payload, state=adapter.client._connection)
        await adapter.tree._call(interaction)
        await table.host.relay.flush()

    def option(name: str, value: str) -> dict[str, Any]:
        return {"name": name, "type": 3, "value": value}

    table.run(slash("new", [option("size", "8")]))
    table.run(slash("join", []))
    table.run(slash("join", [], user_id=OTHER_USER_ID))
    kit = {
        "fake": fake, "adapter": adapter, "cursors": cursors, "slash": slash,
        "option": option, "next_id": next_id, "channel": CHANNEL_ID, "dm": DM_CHANNEL_ID,
        "guild": GUILD_ID, "user": user_payload, "user_id": USER_ID,
    }  # fmt: skip
    yield table, kit
    table.run(adapter.stop())
    table.run(server.close())
    patches.close()
    table.close()


def _discord_said(fake: Any, since: int) -> list[str]:
    """What the bot said after request ``since``: messages and interaction answers."""
    texts = []
    for request in fake.requests[since:]:
        body = getattr(request, "json", None) or {}
        if isinstance(body, dict):
            data = body.get("data") if isinstance(body.get("data"), dict) else body
            if data.get("content"):
                texts.append(str(data["content"]))
            texts += [str(e.get("description") or "") for e in data.get("embeds") or []]
    return texts


async def _settle(table: Table, cursors: Any, key: str, wanted: str) -> bool:
    """Wait until the message is handled and the cursor past it (True), or, for chatter
    the adapter does not hand to the host, until it is clear nothing happens (False)."""
    for _ in range(60):  # gateway events run as tasks
        if await cursors.get("discord", key) == wanted:
            return True
        await asyncio.sleep(0.005)
    assert table.recorded("discord", wanted) == [], f"handled, yet the cursor {key} stayed"
    return False


DISCORD_MESSAGES = {
    "text": hostile_text(4000),  # Discord's own limit on a message (with Nitro)
    "how": st.sampled_from(["channel", "dm", "slash", "catch-up"]),
}


def _discord_message(discord_table: Any, text: str, how: str) -> None:
    table, kit = discord_table
    fake, adapter, cursors = kit["fake"], kit["adapter"], kit["cursors"]
    before = table.snapshot()
    seen = len(fake.requests)
    message_id: str | None = None
    if how in ("channel", "dm"):
        channel = kit["channel"] if how == "channel" else kit["dm"]
        guild = kit["guild"] if how == "channel" else None
        payload = fake.message(
            channel, text, author=kit["user"](), message_id=kit["next_id"](), guild_id=guild
        )
        if guild:
            payload["member"] = {"roles": [], "joined_at": "2025-01-01T00:00:00+00:00",
                                 "deaf": False, "mute": False, "flags": 0, "nick": None}  # fmt: skip
        message_id = payload["id"]
        adapter.client._connection.parse_message_create(payload)
        key = f"channel:{channel}" if how == "channel" else f"dm:{kit['dm']}:{kit['user_id']}"
        if not table.run(_settle(table, cursors, key, message_id)):
            assert _discord_said(fake, seen) == [], "chatter is not answered"
            return
        table.run(table.host.relay.flush())
    elif how == "catch-up":
        # (as fake.add_history, with an id of the virtual clock like every other here)
        message = fake.message(
            kit["channel"], text, author=kit["user"](), message_id=kit["next_id"]()
        )
        fake.history.setdefault(kit["channel"], []).append(message)
        message_id = message["id"]
        table.run(adapter.fetch_since(cursors, table.host.on_inbound))
        table.run(table.host.relay.flush())
        assert table.run(cursors.get("discord", f"channel:{kit['channel']}")) == message_id
        assert table.run(adapter.fetch_since(cursors, table.host.on_inbound)) == 0
    else:
        table.run(kit["slash"]("new", [kit["option"]("size", text[:6000])]))
    with table.store.transaction() as tx:
        outcomes = [
            r.outcome
            for r in tx.session.exec(select(InboundRow).order_by(col(InboundRow.id).desc())).all()
        ]
    if message_id is not None:
        rows = table.recorded("discord", message_id)
        assert len(rows) <= 1  # (chatter without a tag is not the host's: not recorded)
        outcome = rows[0].outcome if rows else "ignored"
    else:
        outcome = outcomes[0]
    assert outcome != "failed", text[:80]
    if outcome == "refused":
        assert table.snapshot() == before, f"a refused {text[:80]!r} changed a game"
        check_refusal(_discord_said(fake, seen), text)


test_discord_answers_every_hostile_message_and_command_once = examples(40)(
    given(**DISCORD_MESSAGES)(_discord_message)
)
test_discord_answers_many_hostile_messages_and_commands = heavy(
    examples(600)(given(**DISCORD_MESSAGES)(_discord_message))
)
