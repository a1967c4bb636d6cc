"""What a host going live meets on Discord (issue 20), against the fake Discord.

Each test names the item of the issue it holds down; each failed before its fix.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from discord_fake import (
    BOT_ID,
    CHANNEL_ID,
    DM_CHANNEL_ID,
    GUILD_ID,
    MESSAGE_CONTENT,
    OTHER_USER_ID,
    TOKEN,
    USER_ID,
    user_payload,
)
from test_discord_game import DiscordTable, message_bodies, run
from test_discord_messages import gateway_message, settle

from bot.host.messages import Address, DeliveryError, Outbound

DM_MESSAGES = rf"/channels/{DM_CHANNEL_ID}/messages"
CHANNEL_MESSAGES = rf"/channels/{CHANNEL_ID}/messages"


# ---- item 7: the "I can't DM you" nudge ---------------------------------------------


async def test_7_closed_dms_and_a_missing_permission_are_told_apart(adapter, fake_discord):
    private = Address("discord", str(CHANNEL_ID), user_id=str(USER_ID))
    fake_discord.fail_next(
        "POST", DM_MESSAGES, 403, {"message": "Cannot send messages to this user", "code": 50007}
    )
    try:
        await adapter.send(private, Outbound("Your board.", key="outbox-1"))
    except DeliveryError as error:
        closed = error
    fake_discord.fail_next(
        "POST", DM_MESSAGES, 403, {"message": "Missing Permissions", "code": 50013}
    )
    try:
        await adapter.send(private, Outbound("Your board.", key="outbox-2"))
    except DeliveryError as error:
        ours = error
    assert (closed.permanent, closed.dms_closed) == (True, True)
    assert (ours.permanent, ours.dms_closed) == (True, False)


async def test_7_the_nudge_mentions_the_player_so_discord_notifies_them(
    make_adapter: Any, fake_discord: Any, payload_factory: Any, tmp_path: Any
) -> None:
    table = DiscordTable(make_adapter(), payload_factory, tmp_path)
    await table.adapter.login(table.host.on_inbound)
    try:
        await table.two_captains_placed()
        # Every DM the bot sends now is refused: the captains take no DMs from it.
        for _ in range(4):
            fake_discord.fail_next(
                "POST",
                DM_MESSAGES,
                403,
                {"message": "Cannot send messages to this user", "code": 50007},
            )
        await table.slash("start", group="host")
        await table.host.relay.flush()
        with table.store.transaction() as tx:
            thread = tx.game(1).channel  # the game's thread, where its posts go
        nudges = [
            b
            for b in message_bodies(fake_discord, rf"/channels/{thread}/messages")
            if "can't send you direct messages" in b.get("content", "")
        ]
        assert nudges, "a nudge went to the game's thread"
        assert all(n["content"].startswith("<@") for n in nudges)
        named = {n["content"].split(">", 1)[0] for n in nudges}
        assert named <= {f"<@{USER_ID}", f"<@{OTHER_USER_ID}"}
        # The board is one of the game's slash commands here.
        assert all("(or /bst board)" in n["content"] for n in nudges)
        # Each pings the player it names, and nobody else.
        for nudge in nudges:
            pinged = nudge["allowed_mentions"]["users"]
            assert [f"<@{user}" for user in pinged] == [nudge["content"].split(">", 1)[0]]
    finally:
        await table.close()


# ---- item 11: a leading mention of the bot --------------------------------------------


async def test_11_a_typed_order_behind_a_mention_of_the_bot_is_read(
    adapter, inbox, fake_discord, cursors
):
    """Without the message-content intent Discord still gives the content of a message
    that mentions the bot, and it starts with the mention."""
    payload = gateway_message(fake_discord, f"<@{BOT_ID}> #bst H14")
    payload["mentions"] = [user_payload(BOT_ID, "bst", bot=True)]
    adapter.client._connection.parse_message_create(payload)
    await settle(lambda: inbox.items)
    [inbound] = inbox.items
    assert inbound.text == "#bst H14"
    nick = gateway_message(fake_discord, f"<@!{BOT_ID}>   board", guild=False)
    adapter.client._connection.parse_message_create(nick)
    await settle(lambda: len(inbox.items) == 2)
    assert inbox.items[1].text == "board"


async def test_11_a_mention_of_someone_else_is_not_an_order(adapter, inbox, fake_discord):
    payload = gateway_message(fake_discord, f"<@{OTHER_USER_ID}> #bst H14")
    adapter.client._connection.parse_message_create(payload)
    await asyncio.sleep(0.05)
    assert inbox.items == []
    assert GUILD_ID  # the message was a server's


# ---- item 1: a fatal gateway close stops the host, saying what to fix ----------------


def _host_over(adapter: Any, tmp_path: Any) -> Any:
    from bot.host.outbox.attachments import AttachmentRenderer
    from bot.host.outbox.avatar_cache import AvatarCache
    from bot.host.runtime.clock import RealClock
    from bot.host.runtime.service import Host
    from bot.store import Store
    from bot.wiring import no_network, sqlite_url

    store = Store(sqlite_url(tmp_path / "live.db"))
    return Host(
        store,
        RealClock(),
        {"discord": adapter},
        AttachmentRenderer(store, AvatarCache(fetch=no_network)),
    )


async def _run_until_it_stops(host: Any, seconds: float = 10.0) -> BaseException:
    try:
        await asyncio.wait_for(host.run(), timeout=seconds)
    except TimeoutError:
        raise AssertionError(f"the host was still running after {seconds} s") from None
    except Exception as error:  # what bst run reports
        return error
    raise AssertionError("the host stopped without saying why")


@pytest.mark.parametrize(
    ("setup", "code", "words"),
    [
        ({"message_content": True}, 4014, ["Message Content Intent", "Privileged Gateway Intents"]),
        ({"token": "NOT.the.token"}, 4004, ["DISCORD_TOKEN", "Reset Token"]),
        ({"known_intents": "no-dms"}, 4013, ["invalid intents", "message_content"]),
    ],
    ids=["4014-privileged-intent", "4004-bad-token", "4013-invalid-intents"],
)
async def test_1_a_fatal_gateway_close_stops_the_host_saying_what_to_fix(
    fake_discord, cursors, tmp_path, setup, code, words
):
    from bot.adapters.discord import DiscordAdapter
    from bot.config import DiscordConfig
    from bot.games.catalog import games
    from bot.host.messages import PlatformRefused

    if setup.pop("known_intents", None):
        fake_discord.gateway.known_intents &= ~(1 << 12)  # a Discord that dropped DM intents
    token = setup.pop("token", TOKEN)
    adapter = DiscordAdapter(
        DiscordConfig(enabled=True, api_base=fake_discord.base, **setup),
        token=token,
        cursors=cursors,
        games=games(),
    )
    host = _host_over(adapter, tmp_path)
    try:
        error = await _run_until_it_stops(host)
    finally:
        host.store.dispose()
    assert fake_discord.gateway.closed_with == [code]
    assert isinstance(error, PlatformRefused), repr(error)
    assert error.exit_code == 2
    for word in words:
        assert word in str(error)
    assert token not in str(error)
    assert adapter.client.is_closed()


async def test_1_a_healthy_gateway_keeps_the_host_running_and_connected(
    fake_discord, cursors, tmp_path
):
    from bot.adapters.discord import DiscordAdapter
    from bot.config import DiscordConfig
    from bot.games.catalog import games

    fake_discord.gateway.allowed_privileged = MESSAGE_CONTENT
    adapter = DiscordAdapter(
        DiscordConfig(enabled=True, api_base=fake_discord.base, message_content=True),
        token=TOKEN,
        cursors=cursors,
        games=games(),
    )
    host = _host_over(adapter, tmp_path)
    runner = asyncio.create_task(host.run())
    try:
        await settle(lambda: adapter.link.connected, timeout=10.0)
        assert fake_discord.gateway.closed_with == []
        assert not runner.done()
    finally:
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner
        host.store.dispose()


# ---- item 2: the catch-up reads the live games' channels only -----------------------

LIVE_A, LIVE_B, DEAD = 1100000000000000041, 1100000000000000042, 1100000000000000043


async def _say(table: Any, channel: int, user: int, text: str, *, dm: bool = False) -> None:
    from bot.host.messages import Inbound, InboundKind, Sender
    from bot.host.runtime.clock import to_datetime

    await table.host.on_inbound(
        Inbound(
            platform="discord",
            channel=str(channel),
            sender=Sender("discord", str(user), f"captain{user % 100}"),
            kind=InboundKind.DM if dm else InboundKind.PUBLIC,
            text=text,
            message_id=str(table.next_id()),
            sent_at=to_datetime(table.clock.now()),
        )
    )


async def _battle(table: Any, channel: int) -> int:
    """A 10×10 battle of two captains in ``channel``; returns its number."""
    host_user, other = channel + 1000, channel + 2000
    await _say(table, channel, host_user, "#bst new size=10x10 turn=1h")
    await _say(table, channel, host_user, "join")
    await _say(table, channel, other, "join")
    await _say(table, channel, host_user, "sub: A2\ncarrier: C1-C5", dm=True)
    await _say(table, channel, other, "cruiser: F1-F3, cruiser: J8-J10", dm=True)
    await _say(table, channel, host_user, "start")
    with table.store.transaction() as tx:
        game = tx.game_in("discord", str(channel))
        assert game is not None and game.phase == "battle"
        return int(game.id)


async def test_2_the_catch_up_reads_live_games_channels_and_forgets_the_rest(
    make_adapter: Any, fake_discord: Any, payload_factory: Any, tmp_path: Any
) -> None:
    table = DiscordTable(make_adapter(), payload_factory, tmp_path)
    await table.adapter.login(table.host.on_inbound)
    cursors = table.host.cursors
    try:
        await _battle(table, LIVE_A)
        for channel in (LIVE_A, DEAD):
            await cursors.set("discord", f"channel:{channel}", "1")
        await cursors.set("discord", f"dm:{DM_CHANNEL_ID}:{LIVE_A + 1000}", "1")  # a player
        await cursors.set("discord", f"dm:{DM_CHANNEL_ID + 1}:{USER_ID}", "1")  # plays no more
        with table.store.transaction() as tx:
            deadline = tx.game_in("discord", str(LIVE_A)).deadline
        table.clock.set(deadline)  # the game is due: its channel and DMs are read
        await table.host.catch_up()
        read = {
            r.path
            for r in fake_discord.requests
            if r.path.endswith("/messages") and r.method == "GET"
        }
        assert read == {f"/channels/{LIVE_A}/messages", f"/channels/{DM_CHANNEL_ID}/messages"}
        assert set(await cursors.all("discord")) == {
            f"channel:{LIVE_A}",
            f"dm:{DM_CHANNEL_ID}:{LIVE_A + 1000}",
        }
    finally:
        await table.close()


def _history_reads(fake_discord: Any) -> list[str]:
    return [r.path for r in fake_discord.requests if r.method == "GET" and "/messages" in r.path]


async def test_1_a_connected_gateway_reads_nothing_before_a_deadline_after_a_gap_only_the_due(
    make_adapter: Any, fake_discord: Any, payload_factory: Any, tmp_path: Any
) -> None:
    """A deadline with the gateway up and every gap read through asks Discord nothing;
    after a shard's disconnection the deadline reads only its due games' channels and
    players' DMs (the live game not due keeps its cursors, unread)."""
    table = DiscordTable(make_adapter(), payload_factory, tmp_path)
    await table.adapter.login(table.host.on_inbound)
    cursors = table.host.cursors
    up = [True]
    table.adapter.catch_up._connected = lambda: up[0]
    try:
        due = await _battle(table, LIVE_A)
        table.clock.advance(600)
        await _battle(table, LIVE_B)  # its deadline ten minutes later
        await cursors.set("discord", f"channel:{LIVE_A}", "1")
        await cursors.set("discord", f"channel:{LIVE_B}", "1")
        await cursors.set("discord", f"dm:{DM_CHANNEL_ID}:{LIVE_A + 2000}", "1")
        await cursors.set("discord", f"dm:{DM_CHANNEL_ID + 7}:{LIVE_B + 2000}", "1")
        with table.store.transaction() as tx:
            table.clock.set(tx.game(due).deadline)

        await table.host.catch_up()  # the process just started: the gap of the restart
        assert sorted(_history_reads(fake_discord)) == [
            f"/channels/{DM_CHANNEL_ID}/messages",
            f"/channels/{LIVE_A}/messages",
        ]
        await table.adapter.fetch_since(cursors, table.host.on_inbound)  # after READY
        fake_discord.requests.clear()
        for _ in range(3):
            await table.host.catch_up()
        assert _history_reads(fake_discord) == []  # connected: nothing missed, nothing read

        table.adapter.catch_up.gap()  # a shard disconnected, and is back
        await table.host.catch_up()
        assert sorted(_history_reads(fake_discord)) == [
            f"/channels/{DM_CHANNEL_ID}/messages",
            f"/channels/{LIVE_A}/messages",
        ]
        assert f"channel:{LIVE_B}" in await cursors.all("discord")  # kept, not read

        fake_discord.requests.clear()
        up[0] = False  # disconnected now: a deadline cannot trust the gateway
        await table.host.catch_up()
        assert len(_history_reads(fake_discord)) == 2
    finally:
        await table.close()


async def test_2_a_channel_discord_refuses_is_asked_once(
    make_adapter: Any, fake_discord: Any, payload_factory: Any, tmp_path: Any
) -> None:
    """Discord bans an IP after 10,000 invalid requests in 10 minutes: a 403/404 channel
    is not asked again before every deadline."""
    table = DiscordTable(make_adapter(), payload_factory, tmp_path)
    await table.adapter.login(table.host.on_inbound)
    try:
        game = await _battle(table, LIVE_A)
        await table.host.cursors.set("discord", f"channel:{LIVE_A}", "1")
        with table.store.transaction() as tx:
            table.clock.set(tx.game(game).deadline)  # due: its channel is read
        for _ in range(3):
            fake_discord.fail_next(
                "GET",
                rf"/channels/{LIVE_A}/messages",
                404,
                {"message": "Unknown Channel", "code": 10003},
            )
        for _ in range(3):
            await table.host.catch_up()
        assert len(fake_discord.requests_to("GET", rf"/channels/{LIVE_A}/messages")) == 1
        assert table.host.unfetched == set() and table.host.waiting == set()
    finally:
        await table.close()


async def test_2_one_channel_down_holds_back_only_its_own_game(
    make_adapter: Any, fake_discord: Any, payload_factory: Any, tmp_path: Any
) -> None:
    table = DiscordTable(make_adapter(), payload_factory, tmp_path)
    await table.adapter.login(table.host.on_inbound)
    try:
        game_a = await _battle(table, LIVE_A)
        game_b = await _battle(table, LIVE_B)
        for channel in (LIVE_A, LIVE_B):
            await table.host.cursors.set("discord", f"channel:{channel}", "1")
        fake_discord.fail_next(
            "GET",
            rf"/channels/{LIVE_B}/messages",
            503,
            {"message": "Service Unavailable", "code": 0},
        )
        with table.store.transaction() as tx:
            deadline = max(tx.game(game_a).deadline, tx.game(game_b).deadline)
        table.clock.set(deadline)
        await table.host.tick()
        with table.store.transaction() as tx:
            turns = {tx.game(game_a).turn, tx.game(game_b).turn}
            assert (tx.game(game_a).turn, tx.game(game_b).turn) == (2, 1), turns
        assert table.host.waiting == {game_b} and table.host.unfetched == set()
    finally:
        await table.close()


# ---- issue 25: the catch-up after a restart, bounded and read once -----------------


async def test_25_a_restarts_catch_up_reads_each_cursor_once_side_by_side_due_games_first(
    make_adapter: Any, fake_discord: Any, payload_factory: Any, tmp_path: Any
) -> None:
    """After a restart the catch-up reads every cursor; a deadline falling meanwhile reads
    its due game's cursors at once, and neither reads what the other has read. Against
    Discord's limits (``discord_limits``) and a 100 ms round trip: channels are read side
    by side (one after another, 19 cursors would take 1.9 s of round trips alone), with
    not one 429."""
    from discord_limits import RateLimits

    table = DiscordTable(make_adapter(requests_per_second=45), payload_factory, tmp_path)
    await table.adapter.login(table.host.on_inbound)
    cursors = table.host.cursors
    table.adapter.catch_up._connected = lambda: True  # READY: the gateway delivers again
    channels = [LIVE_A + 100 * n for n in range(6)]
    try:
        due = await _battle(table, channels[0])
        table.clock.advance(600)
        for channel in channels[1:]:  # their deadlines ten minutes later
            await _battle(table, channel)
        due_paths = set()
        for n, channel in enumerate(channels):
            await cursors.set("discord", f"channel:{channel}", "1")
            for player in (channel + 1000, channel + 2000):
                dm = int(fake_discord.dm_channel_of(player)["id"])
                await cursors.set("discord", f"dm:{dm}:{player}", "1")
                if n == 0:
                    due_paths.add(f"/channels/{dm}/messages")
        due_paths.add(f"/channels/{channels[0]}/messages")
        await cursors.set("discord", f"dm:{DM_CHANNEL_ID}:{channels[5] + 2000}", "1")  # moved
        with table.store.transaction() as tx:
            table.clock.set(tx.game(due).deadline)
        fake_discord.limits = RateLimits()
        fake_discord.latency = 0.1
        fake_discord.requests.clear()

        restart = asyncio.create_task(table.adapter.fetch_since(cursors, table.host.on_inbound))
        await asyncio.sleep(0.05)  # the restart's catch-up is under way when the deadline falls
        await table.host.catch_up()
        read_by_deadline = set(_history_reads(fake_discord))
        assert due_paths <= read_by_deadline  # the due game's channel and DMs, read by now
        await restart

        reads = _history_reads(fake_discord)
        assert len(reads) == len(set(reads)) == 19  # every cursor once, none twice
        assert fake_discord.most_in_flight >= 4  # side by side
        assert fake_discord.rate_limited == []
        assert table.host.unfetched == set() and table.host.waiting == set()
        fake_discord.requests.clear()
        await table.host.catch_up()  # every cursor read through, the gateway up
        assert _history_reads(fake_discord) == []
    finally:
        await table.close()


# ---- item 10: with several processes, a follow-up goes from the one holding it ------


async def test_10_a_follow_up_is_sent_by_the_process_that_holds_the_interaction(
    fake_discord: Any, cursors: Any, payload_factory: Any, tmp_path: Any
) -> None:
    from bot.adapters.discord import DiscordAdapter
    from bot.config import DiscordConfig
    from bot.games.catalog import games
    from bot.host.outbox.attachments import AttachmentRenderer
    from bot.host.outbox.avatar_cache import AvatarCache
    from bot.host.runtime.service import Host
    from bot.wiring import no_network

    def process(shard: int) -> DiscordAdapter:
        return DiscordAdapter(
            DiscordConfig(enabled=True, shard_count=2, shard_ids=(shard,)),
            token=TOKEN,
            cursors=cursors,
            games=games(),
            http=fake_discord.base,
        )

    guild_shard = (GUILD_ID >> 22) % 2
    holder, other = process(guild_shard), process(1 - guild_shard)
    table = DiscordTable(holder, payload_factory, tmp_path)  # receives the guild's interactions
    second = Host(
        table.store,
        table.clock,
        {"discord": other},
        AttachmentRenderer(table.store, AvatarCache(fetch=no_network)),
    )
    await holder.login(table.host.on_inbound)
    await other.login(second.on_inbound)
    try:
        interaction_id = table.next_id()
        await run(holder, payload_factory("help", interaction_id=interaction_id))
        # The other process's relay runs first: the answer is not its to send.
        await second.relay.flush()
        assert fake_discord.requests_to("POST", CHANNEL_MESSAGES) == []
        assert not fake_discord.requests_to("PATCH", r"/webhooks/\d+/[^/]+/messages/@original")
        await table.host.relay.flush()
        [follow_up] = fake_discord.requests_to("PATCH", r"/webhooks/\d+/[^/]+/messages/@original")
        assert follow_up.json["content"]
        assert fake_discord.requests_to("POST", CHANNEL_MESSAGES) == []
    finally:
        await other.stop()
        await table.close()
