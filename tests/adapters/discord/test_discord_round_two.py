"""Discord, round two (issue 26): what a live host still meets, played through the fake
Discord (as strict as the platform) and the production host on a virtual clock."""

from __future__ import annotations

from typing import Any

import pytest
from discord_fake import (
    CHANNEL_ID,
    CREATE_PRIVATE_THREADS,
    DM_CHANNEL_ID,
    OTHER_USER_ID,
    USER_ID,
    FakeDiscord,
    user_payload,
)
from test_discord_game import option
from test_discord_native import Table, with_button

import bot.games.bst
import bot.games.uboat  # noqa: F401  (importing a game registers it)
from bot.host.messages import Address, Choice, DeliveryError, Outbound


@pytest.fixture
async def table(make_adapter: Any, fake_discord: FakeDiscord, tmp_path: Any) -> Any:
    made = Table(make_adapter, fake_discord, tmp_path)
    await made.start()
    try:
        yield made
    finally:
        await made.close()


def players_of(table: Table, game: int) -> set[str]:
    with table.store.transaction() as tx:
        return {p.user_id for p in tx.players(game)}


async def test_4_a_button_carries_its_games_number_so_a_click_is_about_that_game(
    table: Table, fake_discord: FakeDiscord
) -> None:
    # Two games opened in one channel, each in its own thread.
    await table.slash("new", [option("size", "8")], group="bst")
    await table.slash("new", [option("size", "8")], group="bst")
    first, second = int(table.game(1).channel), int(table.game(2).channel)
    assert first != second
    # The lobby's Join of game 2, clicked in the lobby, joins game 2 (not "which game?").
    [join_2] = with_button(table.posts(CHANNEL_ID), "bst2:o:2:#bst join")
    await table.click(join_2, "bst2:o:2:#bst join", user_id=USER_ID)
    assert players_of(table, 2) == {str(USER_ID)} and players_of(table, 1) == set()
    # A player in both games clicks a private button of game 1 in a DM, which belongs to
    # no channel: the click is about game 1, not "the sender's one game".
    await table.slash("join", group="bst", channel_id=first, user_id=USER_ID)
    await table.adapter.send(
        Address("discord", channel=str(first), user_id=str(USER_ID)),
        Outbound("Your fleet?", choices=(Choice("Random", "#bst random", True),), game=1),
    )
    [asked] = with_button(table.posts(DM_CHANNEL_ID), "bst2:p:1:#bst random")
    await table.click(asked, "bst2:p:1:#bst random", user_id=USER_ID)
    answer = table.posts(DM_CHANNEL_ID)[-1]["content"]
    assert answer.startswith("Placed at random"), answer
    # A button made before buttons carried game numbers (bst1:) still works, in the game's
    # thread as before.
    [opening] = table.posts(first)[:1]
    await table.click(opening, "bst1:o:#bst join", user_id=OTHER_USER_ID)
    assert players_of(table, 1) == {str(USER_ID), str(OTHER_USER_ID)}


THIRD, FOURTH = 1100000000000000009, 1100000000000000010


async def test_1_2_a_crews_news_goes_by_dm_never_to_a_thread_a_moderator_could_read(
    table: Table, fake_discord: FakeDiscord
) -> None:
    """Discord shows every private thread to whoever holds Manage Threads (or
    Administrator): a moderator who plays would read another crew's board there. So a
    crew's news goes to each member by DM, even where the bot could make private threads
    (and no member who cannot be added to a thread loses it)."""
    fake = fake_discord
    fake.bot_permissions[CHANNEL_ID] |= CREATE_PRIVATE_THREADS
    # (Opened to all: the members join by DM without the bot having seen them in the server.)
    await table.slash(
        "new",
        [option("islands", "none"), option("rounds", "5"), option("reach", "all")],
        group="uboat",
    )
    thread = int(table.game().channel)
    users = {"ann": USER_ID, "ben": OTHER_USER_ID, "cy": THIRD, "dee": FOURTH}

    async def say(user: str, text: str) -> None:
        await table.dm(text, users[user])

    for user, cell in (("ann", "C4"), ("ben", "E5"), ("cy", "G6"), ("dee", "D6")):
        await say(user, "join")
        await say(user, f"start {cell}")
    await table.slash("start", group="host", channel_id=thread)
    await say("ann", "fire E5")
    await say("cy", "fire E5")
    for _ in range(2):  # Blue (ben) sinks in round 1; ben joins ann's crew in round 2
        table.clock.set(table.game().deadline)
        await table.host.tick()
    ann_dms, ben_dms = DM_CHANNEL_ID, int(fake.dm_channel_of(OTHER_USER_ID)["id"])
    posted = {channel: len(table.posts(channel)) for channel in (ann_dms, ben_dms)}
    await say("ann", "fire D6")
    await say("cy", "fire D6")
    table.clock.set(table.game().deadline)
    await table.host.tick()
    assert not [c for c in fake.channels.values() if c["type"] == 12], "no private thread"
    # (Players are members of the game's own, public thread; of no other.)
    assert set(fake.thread_members) <= {thread}
    # Round 3's news of ann's crew reached ann and ben, each by DM (under the board of round 4).
    for channel in (ann_dms, ben_dms):  # each member in their own DMs
        news = [m["content"] for m in table.posts(channel)[posted[channel] :]]
        red = [text for text in news if "round 4:" in text and "Your U-boat Red" in text]
        assert len(red) == 1, news
    with table.store.transaction() as tx:
        assert not [r for r in tx.outbox() if r.status == "undeliverable"]


EPHEMERAL = 64


@pytest.mark.parametrize("word", ["help", "rules"])
async def test_8_help_and_rules_deferred_privately_are_answered_privately(
    table: Table, fake_discord: FakeDiscord, word: str
) -> None:
    await table.slash("new", [option("size", "8")], group="bst")
    thread = int(table.game().channel)
    before = len(table.posts(thread))
    asked = await table.slash(word, group="bst", channel_id=thread, user_id=OTHER_USER_ID)
    [callback] = fake_discord.requests_to("POST", rf"/interactions/{asked}/[^/]+/callback")
    assert callback.json["data"]["flags"] & EPHEMERAL  # "thinking…" to the asker alone
    answers = table.posts(thread)[before:]
    assert answers, f"/{word} was answered"
    assert all(m["flags"] & EPHEMERAL for m in answers), "and so is the answer"
    assert not fake_discord.requests_to("DELETE", r"/webhooks/\d+/[^/]+/messages/@original")


async def play_a_short_bst_game(table: Table, number: int = 1) -> int:
    """/bst new (game ``number``), two captains with random fleets, /host start: its
    thread."""
    await table.slash("new", [option("size", "8")], group="bst")
    thread = int(table.game(number).channel)
    for user in (USER_ID, OTHER_USER_ID):
        await table.slash("join", group="bst", channel_id=thread, user_id=user)
        await table.slash("place", [option("ships", "random")], group="bst", channel_id=thread,
                          user_id=user)  # fmt: skip
    await table.slash("start", group="host", channel_id=thread)
    return thread


async def test_11_a_finished_games_thread_is_archived_after_its_last_post(
    table: Table, fake_discord: FakeDiscord
) -> None:
    thread = await play_a_short_bst_game(table)
    assert fake_discord.channels[thread]["thread_metadata"]["archived"] is False
    await table.slash("end", group="host", channel_id=thread)
    assert table.game().phase == "finished"
    assert fake_discord.modified == [(thread, {"archived": True})]
    assert fake_discord.channels[thread]["thread_metadata"]["archived"] is True
    assert any("replay" in m["content"] for m in table.posts(thread)), "archived after the replay"
    with table.store.transaction() as tx:
        [closed] = [r for r in tx.outbox() if r.kind == "close-room"]
        assert closed.status == "sent"


async def test_11_at_discords_thread_cap_the_game_plays_in_the_channel_and_says_why(
    table: Table, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    fake_discord.active_thread_limit = 1
    fake_discord.add_thread(CHANNEL_ID, name="someone else's thread")
    await table.slash("new", [option("size", "8")], group="bst")
    assert table.game().channel == str(CHANNEL_ID)  # no thread: the game stays here
    said = " ".join(m["content"] for m in table.posts(CHANNEL_ID))
    assert "limit of 1,000 active threads" in said
    assert any("1,000 active threads" in r.getMessage() for r in caplog.records)


async def test_15_check_config_online_checks_the_list_new_checks_in_every_server(
    fake_discord: FakeDiscord,
) -> None:
    """One permission list for `bst check-config --online` and `/KIND new` (threads and
    embeds included), over every server the bot is in, 200 at a time."""
    from discord_fake import EMBED_LINKS, GAME_BOT_PERMISSIONS, TOKEN

    from bot.adapters.discord.check import check_discord
    from bot.adapters.discord.permissions import NEEDED
    from bot.config import DiscordConfig

    fake_discord.guilds = [
        {
            "id": str(1200000000000000000 + n),
            "name": f"s{n}",
            "permissions": str(GAME_BOT_PERMISSIONS),
        }
        for n in range(450)
    ]
    fake_discord.guilds[321]["permissions"] = str(GAME_BOT_PERMISSIONS & ~EMBED_LINKS)
    config = DiscordConfig(enabled=True, api_base=fake_discord.base)
    fine, wrong = await check_discord(config, TOKEN)
    assert sum(1 for line in fine if "permissions OK" in line) == 449
    assert wrong == [
        f"Discord server 's321' ({1200000000000000321}): the bot lacks Embed Links "
        "(to show the status card)"
    ]
    assert len(fake_discord.requests_to("GET", "/users/@me/guilds")) == 3
    # The list /KIND new checks is the one checked here.
    assert {name for name, _label, _why in NEEDED} >= {"create_public_threads", "embed_links"}


async def test_7_a_deadline_shows_on_discord_to_the_second_never_ending_early(
    table: Table, fake_discord: FakeDiscord
) -> None:
    import math
    import re

    thread = await play_a_short_bst_game(table)  # (started at a whole minute)
    await table.slash("end", group="host", channel_id=thread)
    # A second game, started 37.4 s into a minute: its turn closes 37.4 s into one too.
    table.clock.set(table.clock.now() + 3600 + 37.4)
    second = await play_a_short_bst_game(table, 2)
    deadline = table.game(2).deadline
    assert deadline % 60 != 0
    started = next(m for m in table.posts(second) if "battle begins" in m["content"])
    stamps = {int(s) for s in re.findall(r"<t:(\d+):[fR]>", started["content"])}
    assert stamps == {math.ceil(deadline)}  # not the minute, up to 59 s early
    await table.slash("status", group="bst", channel_id=second)
    [embed] = table.posts(second)[-1]["embeds"]
    shown = " ".join(f["value"] for f in embed["fields"])
    assert {int(s) for s in re.findall(r"<t:(\d+):[fR]>", shown)} == {math.ceil(deadline)}


async def test_10_at_start_the_registered_commands_are_compared_with_this_versions(
    make_adapter: Any, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    from discord_fake import APP_ID, TOKEN

    from bot.adapters.discord.sync import sync_commands
    from bot.games.catalog import games

    await sync_commands(TOKEN, APP_ID, None, games=games(), http=fake_discord.base)
    adapter = make_adapter()
    await adapter.login(lambda inbound: None)
    try:
        assert await adapter.check_commands() == []
        # An older version registered /bst without its last option, and a game since gone.
        bst = next(c for c in fake_discord.registered[None] if c["name"] == "bst")
        bst["options"] = bst["options"][:-1]
        fake_discord.registered[None].append({"name": "oldgame", "type": 1, "options": []})
        caplog.clear()
        assert await adapter.check_commands() == ["/bst changed", "/oldgame no longer exists"]
        [warning] = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
        assert "/bst changed" in warning and "bst discord sync" in warning
    finally:
        await adapter.stop()


async def test_10_a_command_discord_py_cannot_run_is_answered_privately(
    table: Table, fake_discord: FakeDiscord
) -> None:
    """A command Discord still shows but this version no longer has (not synced since the
    upgrade): the user is told privately what is wrong, not "This interaction failed"."""
    import asyncio

    import discord

    asked = table.next_id()
    payload = fake_discord.interaction_payload("x", None, interaction_id=asked, group="oldgame")
    client = table.adapter.client
    # As the gateway hands it over: the tree runs it and reports its errors.
    table.adapter.tree._from_interaction(
        discord.Interaction(data=payload, state=client._connection)
    )
    await asyncio.gather(*[t for t in asyncio.all_tasks() if t.get_name() == "CommandTree-invoker"])
    [callback] = fake_discord.requests_to("POST", rf"/interactions/{asked}/[^/]+/callback")
    assert callback.json["type"] == 4 and callback.json["data"]["flags"] & EPHEMERAL
    assert "bst discord sync" in callback.json["data"]["content"]


async def test_5_players_are_added_to_their_games_thread_and_removed_when_they_go(
    table: Table, fake_discord: FakeDiscord
) -> None:
    # (Opened to all: two join by DM without the bot having seen them in the server.)
    await table.slash("new", [option("size", "8"), option("reach", "all")], group="bst")
    thread = int(table.game().channel)
    await table.slash("join", group="bst", channel_id=thread, user_id=USER_ID)
    await table.dm("join", OTHER_USER_ID)  # by DM: Discord shows them the thread all the same
    await table.dm("join", THIRD)
    assert fake_discord.thread_members[thread] == [USER_ID, OTHER_USER_ID, THIRD]
    await table.slash("leave", group="bst", channel_id=thread, user_id=OTHER_USER_ID)
    assert fake_discord.thread_members[thread] == [USER_ID, THIRD]
    await table.dm(f"kick <@{THIRD}>", USER_ID)  # the game's creator, by DM
    assert fake_discord.thread_members[thread] == [USER_ID]
    with table.store.transaction() as tx:
        rows = [r for r in tx.outbox() if r.kind.startswith("room-member:")]
    assert [r.status for r in rows] == ["sent"] * 5


async def test_6_a_games_creator_without_manage_server_hosts_it_from_its_own_group(
    table: Table, fake_discord: FakeDiscord
) -> None:
    """/host is shown only to members who may Manage Server; a creator without it finds
    the same verbs in the game's group (/bst host start), shown to every member, and
    the host checks who may use them."""
    tree = table.adapter.tree
    bst = next(c.to_dict(tree) for c in tree.get_commands() if c.name == "bst")
    assert bst.get("default_member_permissions") is None  # every member sees /bst
    hosting = next(o for o in bst["options"] if o["name"] == "host")
    assert [o["name"] for o in hosting["options"]] == [
        "start", "pause", "resume", "extend", "kick", "replace", "end", "unbridge",
    ]  # fmt: skip

    await table.slash("new", [option("size", "8")], group="bst", user_id=OTHER_USER_ID)
    thread = int(table.game().channel)
    for user in (USER_ID, OTHER_USER_ID):
        await table.slash("join", group="bst", channel_id=thread, user_id=user)
        await table.slash("place", [option("ships", "random")], group="bst", channel_id=thread,
                          user_id=user)  # fmt: skip
    # Neither may Manage Server. A player who did not open the game is refused; its
    # creator starts it.
    await host_verb(table, "bst", "start", channel_id=thread, user_id=USER_ID)
    assert table.game().phase == "setup"
    await host_verb(table, "bst", "start", channel_id=thread, user_id=OTHER_USER_ID)
    assert table.game().phase == "battle"


async def host_verb(table: Table, group: str, verb: str, *, channel_id: int, user_id: int) -> None:
    """``/GROUP host VERB`` as Discord sends it (a subcommand group's subcommand)."""
    from test_discord_game import run

    payload = table.fake.interaction_payload(
        "host", None, interaction_id=table.next_id(), group=group, channel_id=channel_id,
        user_id=user_id,
    )  # fmt: skip
    payload["data"]["options"] = [
        {"type": 2, "name": "host", "options": [{"type": 1, "name": verb, "options": []}]}
    ]
    await run(table.adapter, payload)
    await table.host.relay.flush()


async def test_9_an_answer_whose_response_was_lost_is_not_posted_twice(
    table: Table, fake_discord: FakeDiscord
) -> None:
    """A follow-up (a webhook message) takes no nonce: the first answer to a command goes
    as the edit of its "thinking…" placeholder, which a retry repeats harmlessly; a
    channel message's nonce makes Discord answer a retry with the message it posted."""
    await table.slash("new", [option("size", "8")], group="bst")
    thread = int(table.game().channel)
    before = len(table.posts(thread))
    fake_discord.lose_next("(POST|PATCH)", r"/webhooks/\d+/[^/]+(/messages/@original)?")
    await table.slash("status", group="bst", channel_id=thread)  # the answer is lost
    table.clock.set(table.clock.now() + 60)
    await table.host.relay.flush()  # and retried
    answers = [m for m in table.posts(thread)[before:] if "#bst game 1" in m["content"]]
    assert len(answers) == 1, [m["content"][:40] for m in table.posts(thread)[before:]]
    with table.store.transaction() as tx:
        assert all(r.status == "sent" for r in tx.outbox() if r.kind.startswith("reply"))

    # A message to a channel (no interaction to answer) whose response was lost.
    fake_discord.lose_next("POST", rf"/channels/{thread}/messages")
    address = Address("discord", channel=str(thread))
    with pytest.raises(DeliveryError):
        await table.adapter.send(address, Outbound("Turn 2 closes soon.", key="outbox-77"))
    await table.adapter.send(address, Outbound("Turn 2 closes soon.", key="outbox-77", retry=True))
    assert [m["content"] for m in table.posts(thread)].count("Turn 2 closes soon.") == 1


async def test_12_an_order_typed_in_the_lobby_while_away_is_caught_up_before_the_deadline(
    make_adapter: Any, fake_discord: FakeDiscord, tmp_path: Any
) -> None:
    """The game plays in its thread, but `#bst C3` typed in the channel it was opened in
    is an order too: the catch-up before a deadline reads that channel as well, instead
    of forgetting its cursor."""
    table = Table(lambda **kw: make_adapter(message_content=True, **kw), fake_discord, tmp_path)
    await table.start()
    try:
        thread = await play_a_short_bst_game(table)
        assert table.game().phase == "battle"
        # The lobby and the thread were read up to here (a typed message handled live
        # leaves a cursor in the host's store).
        for channel in (CHANNEL_ID, thread):
            await table.host.cursors.set("discord", f"channel:{channel}", str(table.next_id()))
        # While the host is away, a captain types an order in the lobby.
        away = fake_discord.message(
            CHANNEL_ID, "#bst C3", author=user_payload(OTHER_USER_ID, "u7"),
            message_id=table.next_id(),
        )  # fmt: skip
        fake_discord.history.setdefault(CHANNEL_ID, []).append(away)
        table.clock.set(table.game().deadline)
        await table.host.tick()
        report = next(m for m in table.posts(thread) if "turn 1:" in m["content"])
        assert "C3" in report["content"], report["content"]
    finally:
        await table.close()


def test_the_fake_expires_interaction_tokens_after_15_minutes(fake_discord: FakeDiscord) -> None:
    """As Discord: a follow-up or an edit of @original on a token older than 15 minutes
    is 404 Unknown Webhook (10015)."""
    import json as json_module
    from datetime import UTC, datetime, timedelta

    from discord_fake import APP_ID, interaction_token

    fresh = fake_discord.snowflake()
    stale = fake_discord.snowflake(datetime.now(UTC) - timedelta(minutes=16))
    for interaction_id, expected in ((fresh, 200), (stale, 404)):
        token = interaction_token(interaction_id, kind=2, channel_id=CHANNEL_ID)
        fake_discord.callbacks[token] = 5  # deferred
        for method, path in (
            ("POST", f"/webhooks/{APP_ID}/{token}"),
            ("PATCH", f"/webhooks/{APP_ID}/{token}/messages/@original"),
        ):
            reply = fake_discord.receive(method, path, {}, {"content": "hi"}, [], None)
            assert reply.status == expected, (method, reply.status)
            if expected == 404:
                assert json_module.loads(reply.body)["code"] == 10015


async def test_the_fake_gateway_resumes_a_dropped_session_with_what_was_missed(
    fake_discord: FakeDiscord, cursors: Any
) -> None:
    """Discord drops a connection (4000); the client RESUMEs its session and gets the
    dispatches it missed, a DM sent meanwhile included, which reaches the host."""
    import asyncio

    from discord_fake import TOKEN
    from test_discord_messages import gateway_message, settle

    from bot.adapters.discord import DiscordAdapter
    from bot.config import DiscordConfig
    from bot.games.catalog import games

    adapter = DiscordAdapter(
        DiscordConfig(enabled=True, api_base=fake_discord.base),
        token=TOKEN,
        cursors=cursors,
        games=games(),
    )
    got: list[Any] = []

    async def handle(inbound: Any) -> None:
        got.append(inbound)

    await adapter.start(handle)
    try:
        await settle(lambda: adapter.link.connected, timeout=10.0)
        await fake_discord.gateway.drop()
        await fake_discord.gateway.push(
            "MESSAGE_CREATE", gateway_message(fake_discord, "board", guild=False)
        )
        await settle(lambda: bool(got), timeout=10.0)
        assert [inbound.text for inbound in got] == ["board"]
        [resume] = fake_discord.gateway.resumes
        assert resume["session_id"] == "fake-session"
        await asyncio.sleep(0)
    finally:
        await adapter.stop()


async def test_the_fake_gateway_brings_each_server_by_guild_create_after_ready(
    fake_discord: FakeDiscord, cursors: Any
) -> None:
    from discord_fake import GUILD_ID, TOKEN
    from test_discord_messages import settle

    from bot.adapters.discord import DiscordAdapter
    from bot.config import DiscordConfig
    from bot.games.catalog import games

    adapter = DiscordAdapter(
        DiscordConfig(enabled=True, api_base=fake_discord.base),
        token=TOKEN,
        cursors=cursors,
        games=games(),
    )

    async def ignore(inbound: Any) -> None:
        return None

    await adapter.start(ignore)
    try:
        await settle(lambda: adapter.link.connected, timeout=10.0)
        guild = adapter.client.get_guild(GUILD_ID)
        assert guild is not None and not guild.unavailable
        assert guild.get_channel(CHANNEL_ID) is not None
        events = [event for _s, event, _d in fake_discord.gateway.dispatched]
        assert events[:2] == ["READY", "GUILD_CREATE"]
    finally:
        await adapter.stop()
