"""Discord-native play (issue #19): whole games through the fake Discord, in a thread,
with buttons, timestamps and pings, on the production host and a virtual clock.

Slash commands run through discord.py's own CommandTree; button clicks are dispatched as
the gateway does (``on_interaction``); every request lands on the fake, which answers and
refuses as Discord does (threads, components, allowed mentions, embeds: see
``test_discord_fake_platform``).
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from datetime import UTC, datetime
from typing import Any
from unittest import mock

import discord
import pytest
from discord_fake import (
    ATTACH_FILES,
    CHANNEL_ID,
    CREATE_PUBLIC_THREADS,
    DM_CHANNEL_ID,
    GAME_BOT_PERMISSIONS,
    OTHER_USER_ID,
    USER_ID,
    FakeDiscord,
    user_payload,
)
from test_discord_game import option, run, snowflake
from test_discord_setup import _as_documented

import bot.games.bst
import bot.games.silentships  # noqa: F401  (importing a game registers it)
from bot.host.outbox.attachments import AttachmentRenderer
from bot.host.outbox.avatar_cache import AvatarCache
from bot.host.runtime.clock import SCRIPT_EPOCH, VirtualClock
from bot.host.runtime.service import Host
from bot.store import Store
from bot.wiring import no_network, sqlite_url

EPHEMERAL = 64
THIRD_USER_ID = 1100000000000000009
TIMESTAMP = re.compile(r"<t:(\d+):f> \(<t:\1:R>\)")


class Table:
    """The production host on a virtual clock, reminders on, behind the Discord adapter."""

    def __init__(self, make_adapter: Any, fake: FakeDiscord, tmp_path: Any) -> None:
        self.fake = fake
        self.adapter = make_adapter()
        self.tmp_path = tmp_path
        self.store = Store(sqlite_url(tmp_path / "native.db"))
        self.clock = VirtualClock(SCRIPT_EPOCH)
        self.make_adapter = make_adapter
        self.host = self._host()
        self.sequence = iter(range(1, 4096))
        self._now = mock.patch.object(
            discord.utils, "utcnow", lambda: datetime.fromtimestamp(self.clock.now(), UTC)
        )
        self._now.start()

    def _host(self) -> Host:
        attachments = AttachmentRenderer(self.store, AvatarCache(fetch=no_network))
        return Host(
            self.store,
            self.clock,
            {"discord": self.adapter},
            attachments,
            reminder_seconds=3600,
            reminder_platforms=frozenset({"discord"}),
        )

    async def start(self) -> None:
        await self.adapter.login(self.host.on_inbound)

    async def restart(self) -> None:
        """A new process: a new client and host on the same database, nothing in memory."""
        await self.adapter.stop()
        self.adapter = self.make_adapter()
        self.host = self._host()
        await self.start()

    def next_id(self) -> int:
        return snowflake(self.clock.now(), next(self.sequence))

    async def slash(
        self,
        name: str,
        options: list[dict[str, Any]] | None = None,
        *,
        group: str,
        channel_id: int = CHANNEL_ID,
        user_id: int = USER_ID,
        **kw: Any,
    ) -> int:
        interaction_id = self.next_id()
        payload = self.fake.interaction_payload(
            name,
            options,
            interaction_id=interaction_id,
            group=group,
            channel_id=channel_id,
            user_id=user_id,
            **kw,
        )
        if not name:  # a command of its own (/games), not a group's subcommand
            payload["data"]["options"] = []
        await run(self.adapter, payload)
        await self.host.relay.flush()
        return interaction_id

    async def click(self, message: dict[str, Any], custom_id: str, *, user_id: int) -> int:
        """A click on a button of ``message``, delivered as the gateway delivers it."""
        interaction_id = self.next_id()
        guild = message.get("guild_id") is not None or int(message["channel_id"]) != DM_CHANNEL_ID
        payload = self.fake.component_payload(
            custom_id,
            message=message,
            interaction_id=interaction_id,
            user_id=user_id,
            guild=guild,
        )
        client = self.adapter.client
        client.dispatch("interaction", discord.Interaction(data=payload, state=client._connection))
        handlers = [t for t in asyncio.all_tasks() if "on_interaction" in t.get_name()]
        await asyncio.gather(*handlers)
        await self.host.relay.flush()
        return interaction_id

    async def dm(self, text: str, user_id: int) -> None:
        """A DM to the bot from ``user_id``, delivered as the gateway delivers it."""
        message = dm(self.fake, text, user_id, self.next_id())
        self.adapter.client._connection.parse_message_create(message)
        handlers = [t for t in asyncio.all_tasks() if "on_message" in t.get_name()]
        await asyncio.gather(*handlers)
        await self.host.relay.flush()

    def game(self, number: int = 1) -> Any:
        with self.store.transaction() as tx:
            return tx.game(number)

    def posts(self, channel_id: int | str) -> list[dict[str, Any]]:
        return self.fake.posted.get(int(channel_id), [])

    async def close(self) -> None:
        self._now.stop()
        await self.adapter.stop()
        self.store.dispose()


def custom_ids(message: dict[str, Any]) -> list[str]:
    return [
        button["custom_id"]
        for row in message.get("components", [])
        for button in row.get("components", [])
        if "custom_id" in button
    ]


def with_button(messages: list[dict[str, Any]], custom_id: str) -> list[dict[str, Any]]:
    return [m for m in messages if custom_id in custom_ids(m)]


# The operations of Discord's OpenAPI description that a game's requests use.
OPERATIONS = [
    (r"/channels/\d+", "/channels/{channel_id}"),
    (r"/channels/\d+/threads", "/channels/{channel_id}/threads"),
    (r"/channels/\d+/messages", "/channels/{channel_id}/messages"),
    (r"/users/@me/channels", "/users/@me/channels"),
    (
        r"/interactions/\d+/[^/]+/callback",
        "/interactions/{interaction_id}/{interaction_token}/callback",
    ),
    (r"/webhooks/\d+/[^/]+", "/webhooks/{webhook_id}/{webhook_token}"),
    (
        r"/webhooks/\d+/[^/]+/messages/@original",
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
    ),
]


def body_of(request: Any) -> Any:
    """A request's JSON, also when it travelled as ``payload_json`` beside files."""
    if request.json is not None:
        return request.json
    for name, _filename, data in request.files:
        if name == "payload_json":
            return json.loads(data)
    return None


def assert_every_request_as_documented(fake: FakeDiscord, spec: Any) -> int:
    """Every body the bot sent matches Discord's description of its operation."""
    checked = 0
    for request in fake.requests:
        body = body_of(request)
        if body is None or request.method not in ("POST", "PATCH"):
            continue
        spec_path = next(
            (p for pattern, p in OPERATIONS if re.fullmatch(pattern, request.path)), None
        )
        assert spec_path is not None, f"an operation the test does not know: {request.path}"
        errors = spec.request_errors(request.method, spec_path, _as_documented(body))
        assert errors == [], f"{request.method} {request.path}: {errors}"
        checked += 1
    return checked


def callback_types(fake: FakeDiscord, interaction_id: int) -> list[int]:
    return [
        r.json["type"]
        for r in fake.requests_to("POST", rf"/interactions/{interaction_id}/[^/]+/callback")
    ]


@pytest.fixture
async def table(make_adapter: Any, fake_discord: FakeDiscord, tmp_path: Any) -> Any:
    made = Table(make_adapter, fake_discord, tmp_path)
    await made.start()
    try:
        yield made
    finally:
        await made.close()


async def test_a_whole_bst_game_in_its_thread_with_buttons_timestamps_and_pings(
    table: Table, fake_discord: FakeDiscord, spec: Any
) -> None:
    fake = fake_discord
    # /bst new in the channel: the game opens a thread of its own there.
    await table.slash("new", [option("size", "8")], group="bst")
    game = table.game()
    thread = int(game.channel)
    assert game.lobby == str(CHANNEL_ID)
    assert fake.channels[thread]["type"] == 11
    assert fake.channels[thread]["parent_id"] == str(CHANNEL_ID)
    assert fake.channels[thread]["name"] == "#bst game 1"
    # The channel got the one line answering /bst new; the thread opens with the game's
    # opening, and both carry a Join button.
    [opening] = table.posts(thread)[:1]
    assert opening["content"].startswith("#bst game 1 ")
    assert custom_ids(opening) == ["bst2:o:1:#bst join"]
    assert with_button(table.posts(CHANNEL_ID), "bst2:o:1:#bst join")

    # One captain joins with /bst join in the thread, the other with the button.
    await table.slash("join", group="bst", channel_id=thread)
    clicked = await table.click(opening, "bst2:o:1:#bst join", user_id=OTHER_USER_ID)
    assert callback_types(fake, clicked) == [5]  # a "thinking…" placeholder, then the answer
    with table.store.transaction() as tx:
        assert {p.user_id for p in tx.players(1)} == {str(USER_ID), str(OTHER_USER_ID)}
    # Each welcome offers a random fleet as a (private) button; both take it.
    welcomes = with_button(table.posts(thread), "bst2:p:1:#bst random")
    assert len(welcomes) == 2
    for welcome, user in zip(welcomes, (USER_ID, OTHER_USER_ID), strict=True):
        clicked = await table.click(welcome, "bst2:p:1:#bst random", user_id=user)
        [callback] = fake.requests_to("POST", rf"/interactions/{clicked}/[^/]+/callback")
        assert callback.json["data"]["flags"] & EPHEMERAL  # a fleet is a secret
    placed = [m for m in table.posts(thread) if m["content"].startswith("Placed at random")]
    assert len(placed) == 2 and all(m["flags"] & EPHEMERAL for m in placed)

    # /host start: the start post names the deadline as a Discord timestamp.
    await table.slash("start", group="host", channel_id=thread)
    game = table.game()
    assert game.phase == "battle"
    started = next(m for m in table.posts(thread) if "battle begins" in m["content"])
    stamp = TIMESTAMP.search(started["content"])
    assert stamp is not None and int(stamp.group(1)) == math.ceil(game.deadline)
    assert "UTC" not in started["content"]

    # One captain shoots; an hour before the deadline, the reminder pings the other only.
    await table.slash("shoot", [option("cell", "C3")], group="bst", channel_id=thread)
    # Its acknowledgement, to the shooter alone, offers to take the order back.
    [ack] = with_button(table.posts(thread), "bst2:p:1:#bst withdraw")
    assert ack["flags"] & EPHEMERAL
    table.clock.set(game.deadline - 3000)
    await table.host.tick()
    [reminder] = [m for m in table.posts(thread) if "no order yet" in m["content"]]
    assert reminder["content"].startswith(f"#bst game 1: <@{OTHER_USER_ID}>: turn 1 closes in")
    assert fake.pinged(thread)[table.posts(thread).index(reminder)] == [OTHER_USER_ID]
    # Nothing else the bot posted pinged anyone.
    assert sum(1 for pinged in fake.pinged(thread) if pinged) == 1
    await table.host.tick()
    assert len([m for m in table.posts(thread) if "no order yet" in m["content"]]) == 1

    # The deadline falls: the turn's report and map go to the thread, not the channel.
    table.clock.set(game.deadline)
    await table.host.tick()
    report = next(m for m in table.posts(thread) if "turn 1:" in m["content"])
    assert any(a["filename"].endswith("-map.png") for a in report["attachments"])
    assert not any("turn 1:" in m["content"] for m in table.posts(CHANNEL_ID))

    # /bst status: an embed with the turn, the clock, the orders in and the latest map.
    await table.slash("status", group="bst", channel_id=thread)
    status = table.posts(thread)[-1]
    [embed] = status["embeds"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Turn"] == "2" and fields["Orders in"] == "0 of 2"
    assert TIMESTAMP.search(fields["Turn 2"])
    # (Discord shows an attachment://NAME image as the attachment's own address.)
    assert embed["image"]["url"].endswith(f"/{status['attachments'][0]['filename']}")

    # /games: the player's own games, privately, with the deadline and their order.
    await table.slash("", group="games", user_id=OTHER_USER_ID, channel_id=thread)
    mine = table.posts(thread)[-1]
    assert mine["flags"] & EPHEMERAL
    assert mine["content"].startswith(
        f"Your games:\n\\- #bst game 1 in <#{thread}>: battle, turn 2, closes <t:"
    )
    assert "no order from you yet" in mine["content"]

    # A restart: the buttons of old messages still work (their id is the command).
    await table.restart()
    late = await table.click(opening, "bst2:o:1:#bst join", user_id=THIRD_USER_ID)
    assert callback_types(fake, late) == [5]
    answer = table.posts(thread)[-1]
    assert "started" in answer["content"] or "late" in answer["content"]

    # /host end: the replay in the thread, one line in the channel.
    await table.slash("end", group="host", channel_id=thread)
    assert table.game().phase == "finished"
    replay = next(m for m in table.posts(thread) if m["attachments"] and "replay" in m["content"])
    assert replay["attachments"][0]["filename"].endswith((".mp4", ".gif", ".webm"))
    closing = table.posts(CHANNEL_ID)[-1]
    assert closing["content"].startswith("#bst game 1 is over.")
    # And every request of the game was as Discord documents it.
    assert assert_every_request_as_documented(fake, spec) >= 30


async def test_new_names_each_permission_the_bot_lacks_in_the_channel_and_opens_nothing(
    table: Table, fake_discord: FakeDiscord
) -> None:
    narrow = fake_discord.add_channel(
        permissions=GAME_BOT_PERMISSIONS & ~ATTACH_FILES & ~CREATE_PUBLIC_THREADS
    )
    interaction = await table.slash("new", group="bst", channel_id=int(narrow["id"]))
    [callback] = fake_discord.requests_to("POST", rf"/interactions/{interaction}/[^/]+/callback")
    assert callback.json["type"] == 4  # answered at once, no deferral
    said = callback.json["data"]["content"]
    assert callback.json["data"]["flags"] & EPHEMERAL
    assert "**Attach Files**" in said and "**Create Public Threads**" in said
    assert "Send Messages" not in said
    assert table.game() is None


async def test_a_game_opened_inside_a_thread_stays_in_that_thread(
    table: Table, fake_discord: FakeDiscord
) -> None:
    thread = fake_discord.add_thread(CHANNEL_ID, name="games")
    thread_id = int(thread["id"])
    await table.slash("new", group="bst", channel_id=thread_id)
    game = table.game()
    # Discord takes no thread inside a thread (50024): the game plays where it was opened.
    assert (game.channel, game.lobby) == (str(thread_id), "")
    assert [m["content"][:12] for m in table.posts(thread_id)] == ["#bst game 1 ", "#bst game 1 "]


async def test_two_games_share_a_channel_each_in_its_own_thread(
    table: Table, fake_discord: FakeDiscord
) -> None:
    await table.slash("new", group="bst")
    await table.slash("new", group="silentships")
    first, second = table.game(1), table.game(2)
    assert first.channel != second.channel
    assert first.lobby == second.lobby == str(CHANNEL_ID)
    # In the channel itself, a command can no longer tell which game it is for.
    await table.slash("status", group="bst")
    said = table.posts(CHANNEL_ID)[-1]["content"]
    assert f"games 1 in <#{first.channel}>, 2 in <#{second.channel}> play here" in said
    assert "each in its own thread" in said


def dm(fake: FakeDiscord, text: str, user_id: int, message_id: int) -> dict[str, Any]:
    """A DM to the bot, as the gateway delivers it (its id dates it, on the virtual clock)."""
    author = user_payload(user_id, f"u{user_id % 100}")
    channel_id = int(fake.dm_channel_of(user_id)["id"])  # (one DM channel per person)
    return fake.message(channel_id, text, author=author, message_id=message_id)


async def test_a_silent_ships_defender_answers_with_a_button_in_the_thread_game(
    table: Table, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    await table.slash(
        "new",
        [
            option("first", "joined"),
            option("deck1", "fire,frigate,flag,ram,sub"),
            option("deck2", "frigate,ram,salvage,sub,patrol"),
        ],
        group="silentships",
    )
    thread = int(table.game().channel)
    await table.slash("join", group="silentships", channel_id=thread, user_id=USER_ID)
    await table.slash("join", group="silentships", channel_id=thread, user_id=OTHER_USER_ID)
    await table.slash("start", group="host", channel_id=thread)
    assert table.game().phase == "battle"
    state = table.adapter.client._connection

    async def say(text: str, user_id: int) -> None:
        state.parse_message_create(dm(fake, text, user_id, table.next_id()))
        handlers = [t for t in asyncio.all_tasks() if "on_message" in t.get_name()]
        await asyncio.gather(*handlers)
        await table.host.relay.flush()

    for text in ("play fire at D1", "move D1 to D2 discard flag", "end"):
        await say(text, USER_ID)
    for text in ("play ram at D4", "move D4 to D3 discard sub", "move D3 to D2 discard patrol"):
        await say(text, OTHER_USER_ID)
    await say("go", OTHER_USER_ID)
    # The defender is asked privately, with a button for each answer it may give.
    asked = with_button(table.posts(DM_CHANNEL_ID), "bst2:p:1:#silentships pass")
    assert asked, "the defender's question carries its answers as buttons"
    assert custom_ids(asked[-1])[1:] == [
        f"bst2:p:1:#silentships retreat discard {ship}" for ship in ("frigate", "sub", "ram")
    ]
    posted = len(table.posts(thread))
    clicked = await table.click(asked[-1], "bst2:p:1:#silentships pass", user_id=USER_ID)
    [callback] = fake.requests_to("POST", rf"/interactions/{clicked}/[^/]+/callback")
    assert callback.json["data"]["flags"] & EPHEMERAL  # the answer is the defender's secret
    # The attack resolved in public, in the game's thread: the fire ship defended and won
    # (3 against 6), and sank.
    said = " ".join(m["content"] for m in table.posts(thread)[posted:])
    assert "3" in said and "6" in said and "fire" in said.lower()
    with table.store.transaction() as tx:
        steps = tx.turns(1)
    events = [event for step in steps for event in json.loads(step.events)]
    [combat] = [e for e in events if e["type"] == "combat"]
    assert (combat["attack"], combat["defence"], combat["winner"]) == (3, 6, "defence")
    # The channel holds the answer to /silentships new and Discord's own line that a
    # thread was started (type 18); everything else went to the thread.
    assert [m["type"] for m in table.posts(CHANNEL_ID)][1:] == [18]


async def test_a_locked_game_thread_sends_the_games_posts_to_the_channel_it_came_from(
    table: Table, fake_discord: FakeDiscord
) -> None:
    await table.slash("new", [option("size", "8")], group="bst")
    thread = int(table.game().channel)
    for user in (USER_ID, OTHER_USER_ID):
        await table.slash("join", group="bst", channel_id=thread, user_id=user)
        await table.slash("place", [option("ships", "random")], group="bst", channel_id=thread,
                          user_id=user)  # fmt: skip
    await table.slash("start", group="host", channel_id=thread)
    # A moderator locks the thread: Discord refuses the bot's messages there (50083).
    fake_discord.archive(thread, locked=True)
    table.clock.set(table.game().deadline)
    await table.host.tick()
    report = [m for m in table.posts(CHANNEL_ID) if "turn 1:" in m["content"]]
    assert report and report[0]["attachments"], "the turn's report and map reached the channel"
    with table.store.transaction() as tx:
        assert not [r for r in tx.outbox() if r.status == "undeliverable" and r.kind == "map"]


EVIL_NAME = "[Gift](https://x.co)\u202e <@&1> @here"  # 32 characters, Discord's most


async def test_a_display_name_is_plain_text_in_the_bots_posts(
    table: Table, fake_discord: FakeDiscord
) -> None:
    """Issue 24 item 8: a name with a masked link, an RTL override, a role mention and
    @here is shown as the text it is: no link, no ping, no reversal."""
    await table.slash("new", [option("size", "8")], group="bst")
    thread = int(table.game().channel)
    payload = fake_discord.interaction_payload(
        "join", [], interaction_id=table.next_id(), group="bst", channel_id=thread,
        user_id=OTHER_USER_ID,
    )  # fmt: skip
    payload["member"]["user"]["global_name"] = EVIL_NAME
    await run(table.adapter, payload)
    await table.host.relay.flush()
    with table.store.transaction() as tx:
        names = [p.name for p in tx.players(1)]
    assert names == ["[Gift](https://x.co) ‹@&1› @here"]
    sent = [
        m["content"]
        for channel in fake_discord.posted.values()
        for m in channel
        if "Gift" in (m.get("content") or "")
    ]
    sent += [
        b.get("content") or ""
        for b in (body_of(r) for r in fake_discord.requests)
        if isinstance(b, dict) and "Gift" in str(b.get("content") or "")
    ]
    assert sent, "the join was answered naming the player"
    for content in sent:
        assert "\\[Gift\\](https://x.co)" in content
        assert "\u202e" not in content and "<@&" not in content
        assert "@here" not in content


async def test_a_dm_join_is_for_the_members_of_the_games_server(
    table: Table, fake_discord: FakeDiscord
) -> None:
    """Issue 24 item 3: a DM `join 1` from someone the bot never saw in the game's server
    is refused (the same words as for no such game); once seen there, it joins."""
    await table.slash("new", [option("size", "8")], group="bst")
    state = table.adapter.client._connection

    async def say(text: str, user_id: int) -> None:
        state.parse_message_create(dm(fake_discord, text, user_id, table.next_id()))
        handlers = [t for t in asyncio.all_tasks() if "on_message" in t.get_name()]
        await asyncio.gather(*handlers)
        await table.host.relay.flush()

    await say("join 1", THIRD_USER_ID)
    await say("join", THIRD_USER_ID)
    with table.store.transaction() as tx:
        assert tx.players(1) == []
    told = [m["content"] for m in table.posts(int(fake_discord.dm_channel_of(THIRD_USER_ID)["id"]))]
    assert told[0].startswith("there is no game 1 you can join from here")
    assert told[1].startswith("no game is open for joining right now")
    # Seen in the server (a command there), the same person may join by DM.
    await table.slash(
        "status", group="bst", channel_id=int(table.game().channel), user_id=THIRD_USER_ID
    )
    await say("join 1", THIRD_USER_ID)
    with table.store.transaction() as tx:
        assert [p.user_id for p in tx.players(1)] == [str(THIRD_USER_ID)]


async def test_a_game_opened_to_all_with_slash_new_reach_is_joined_by_anyone_by_dm(
    table: Table, fake_discord: FakeDiscord
) -> None:
    await table.slash("new", [option("size", "8"), option("reach", "all")], group="bst")
    assert table.game().open_to_all
    state = table.adapter.client._connection
    state.parse_message_create(dm(fake_discord, "join 1", THIRD_USER_ID, table.next_id()))
    await asyncio.gather(*[t for t in asyncio.all_tasks() if "on_message" in t.get_name()])
    with table.store.transaction() as tx:
        assert [p.user_id for p in tx.players(1)] == [str(THIRD_USER_ID)]
