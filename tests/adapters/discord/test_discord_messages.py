"""Typed ``#bst`` messages, DMs, cursors and the catch-up after downtime."""

from __future__ import annotations

import asyncio

import discord
import pytest
from discord_fake import BOT_USER, CHANNEL_ID, DM_CHANNEL_ID, GUILD_ID, USER_ID, user_payload

from bot.host.messages import Address, InboundKind, Outbound


async def settle(condition, timeout: float = 2.0) -> None:
    """Gateway events run as tasks: wait until their effect shows."""
    for _ in range(int(timeout / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the event was not handled in time")


def gateway_message(fake, content, *, guild=True, author=None):
    """A MESSAGE_CREATE ``d`` as the gateway sends it."""
    channel = CHANNEL_ID if guild else DM_CHANNEL_ID
    payload = fake.message(
        channel, content, author=author or user_payload(), guild_id=GUILD_ID if guild else None
    )
    if guild:
        payload["member"] = {
            "roles": [],
            "joined_at": "2025-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
        }
    return payload


async def test_a_typed_shot_in_a_channel_is_public(adapter, inbox, fake_discord, cursors):
    payload = gateway_message(fake_discord, "#BST h14")
    adapter.client._connection.parse_message_create(payload)
    await settle(lambda: cursors.values)

    [inbound] = inbox.items
    assert (inbound.kind, inbound.text, inbound.channel) == (
        InboundKind.PUBLIC,
        "#BST h14",
        str(CHANNEL_ID),
    )
    assert inbound.message_id == payload["id"]
    assert inbound.sent_at == discord.utils.snowflake_time(int(payload["id"]))
    assert inbound.sender.user_id == str(USER_ID)
    # The cursor moves only after the host took the message.
    assert cursors.values == {("discord", f"channel:{CHANNEL_ID}"): payload["id"]}
    assert inbox.requests_seen  # handled before the cursor write


async def test_chatter_and_bots_are_ignored(adapter, inbox, fake_discord, cursors):
    state = adapter.client._connection
    state.parse_message_create(gateway_message(fake_discord, "good luck all"))
    state.parse_message_create(gateway_message(fake_discord, "#bst H14", author=BOT_USER))
    state.parse_message_create(
        gateway_message(fake_discord, "#bst A1", author=user_payload(5, "hook", bot=True))
    )
    await asyncio.sleep(0.05)
    assert inbox.items == []
    assert cursors.values == {}


async def test_a_dm_is_a_dm_inbound(adapter, inbox, fake_discord, cursors):
    payload = gateway_message(fake_discord, "move cruiser at G7 3 up", guild=False)
    adapter.client._connection.parse_message_create(payload)
    await settle(lambda: cursors.values)
    [inbound] = inbox.items
    assert (inbound.kind, inbound.channel, inbound.text) == (
        InboundKind.DM,
        "",
        "move cruiser at G7 3 up",
    )
    # A DM's cursor names its player, so the catch-up reads it only while they play; and
    # their DM channel is known, so an answer by DM opens none (and waits for no opening).
    assert cursors.values == {
        ("discord", f"dm:{DM_CHANNEL_ID}:{USER_ID}"): payload["id"],
        ("discord", f"dm-channel:{USER_ID}"): str(DM_CHANNEL_ID),
    }
    assert adapter.lane(Address("discord", user_id=str(USER_ID))) == "discord/dms"


async def test_a_failed_hand_over_leaves_the_cursor(adapter, inbox, fake_discord, cursors):
    inbox.fail_with = RuntimeError("database is locked")
    adapter.client._connection.parse_message_create(gateway_message(fake_discord, "#bst H14"))
    await settle(lambda: inbox.requests_seen)
    await asyncio.sleep(0.02)
    assert cursors.values == {}


async def test_catch_up_hands_over_what_arrived_while_away(adapter, inbox, fake_discord, cursors):
    before = fake_discord.add_history(CHANNEL_ID, "#bst A1", author=user_payload())
    await cursors.set("discord", f"channel:{CHANNEL_ID}", before["id"])
    await cursors.set("discord", f"dm:{DM_CHANNEL_ID}", before["id"])
    shot = fake_discord.add_history(CHANNEL_ID, "#bst H14", author=user_payload())
    fake_discord.add_history(CHANNEL_ID, "anyone seen my carrier?", author=user_payload())
    last = fake_discord.add_history(CHANNEL_ID, "#bst B2", author=BOT_USER)
    move = fake_discord.add_history(DM_CHANNEL_ID, "rotate carrier at E8", author=user_payload())

    count = await adapter.fetch_since(cursors, inbox)

    assert count == 2
    by_kind = {i.kind: i for i in inbox.items}
    assert by_kind[InboundKind.PUBLIC].text == "#bst H14"
    assert by_kind[InboundKind.PUBLIC].message_id == shot["id"]
    assert by_kind[InboundKind.PUBLIC].channel == str(CHANNEL_ID)
    assert by_kind[InboundKind.DM].text == "rotate carrier at E8"
    assert by_kind[InboundKind.DM].channel == ""
    # Past the ignored chatter and bot message too, so they are not read again.
    assert cursors.values[("discord", f"channel:{CHANNEL_ID}")] == last["id"]
    assert cursors.values[("discord", f"dm:{DM_CHANNEL_ID}")] == move["id"]
    [read] = fake_discord.requests_to("GET", rf"/channels/{CHANNEL_ID}/messages")
    assert read.query["after"] == before["id"]

    # Nothing new: nothing handed over again.
    assert await adapter.fetch_since(cursors, inbox) == 0


async def test_catch_up_reads_oldest_first_over_several_pages(
    adapter, inbox, fake_discord, cursors
):
    start = fake_discord.add_history(CHANNEL_ID, "#bst A1", author=user_payload())
    await cursors.set("discord", f"channel:{CHANNEL_ID}", start["id"])
    sent = [
        fake_discord.add_history(CHANNEL_ID, f"#bst C{i}", author=user_payload())
        for i in range(1, 151)
    ]
    assert await adapter.fetch_since(cursors, inbox) == 150
    assert [i.message_id for i in inbox.items] == [m["id"] for m in sent]


async def test_a_cursor_never_moves_back(adapter, inbox, fake_discord, cursors):
    await cursors.set("discord", f"channel:{CHANNEL_ID}", "1")
    newer = gateway_message(fake_discord, "#bst H14")
    older = fake_discord.add_history(CHANNEL_ID, "#bst A1", author=user_payload())
    await cursors.set("discord", f"channel:{CHANNEL_ID}", newer["id"])
    assert int(older["id"]) > int(newer["id"])  # ids still grow; forge an old one:
    await adapter.catch_up.advance(cursors, f"channel:{CHANNEL_ID}", int(newer["id"]) - 5)
    assert cursors.values[("discord", f"channel:{CHANNEL_ID}")] == newer["id"]


async def test_catch_up_skips_a_channel_it_cannot_read(adapter, inbox, fake_discord, cursors):
    await cursors.set("discord", "channel:42", "1")
    fake_discord.fail_next(
        "GET", r"/channels/42/messages", 403, {"message": "Missing Access", "code": 50001}
    )
    await cursors.set("discord", f"dm:{DM_CHANNEL_ID}", "1")
    fake_discord.add_history(DM_CHANNEL_ID, "board", author=user_payload())
    assert await adapter.fetch_since(cursors, inbox) == 1


async def test_a_host_failure_during_catch_up_is_raised(adapter, inbox, fake_discord, cursors):
    await cursors.set("discord", f"dm:{DM_CHANNEL_ID}", "1")
    fake_discord.add_history(DM_CHANNEL_ID, "board", author=user_payload())
    inbox.fail_with = RuntimeError("database is locked")
    with pytest.raises(RuntimeError):
        await adapter.fetch_since(cursors, inbox)
    assert cursors.values[("discord", f"dm:{DM_CHANNEL_ID}")] == "1"


async def test_on_ready_catches_up(adapter, inbox, fake_discord, cursors):
    await cursors.set("discord", f"dm:{DM_CHANNEL_ID}", "1")
    fake_discord.add_history(DM_CHANNEL_ID, "pass", author=user_payload())
    adapter.client.dispatch("ready")
    await settle(lambda: inbox.items)
    assert inbox.items[0].text == "pass"


async def test_catch_up_while_discord_is_down_is_raised_after_the_other_channels(
    adapter, inbox, fake_discord, cursors
):
    """A 5xx is not a channel gone: the host must know it has not got every order,
    and from which channel (only that channel's games wait)."""
    from bot.host.messages import CatchUpIncomplete

    await cursors.set("discord", "channel:42", "1")
    for _ in range(6):  # discord.py retries a 5xx a few times itself
        fake_discord.fail_next(
            "GET", r"/channels/42/messages", 503, {"message": "Service Unavailable", "code": 0}
        )
    await cursors.set("discord", f"dm:{DM_CHANNEL_ID}", "1")
    fake_discord.add_history(DM_CHANNEL_ID, "board", author=user_payload())
    with pytest.raises(CatchUpIncomplete) as caught:
        await adapter.fetch_since(cursors, inbox)
    assert [i.text for i in inbox.items] == ["board"]  # the DM channel was still read
    assert (caught.value.channels, caught.value.users, caught.value.handled) == (
        frozenset({"42"}),
        frozenset(),
        1,
    )


async def test_a_dm_the_bot_opened_is_watched_so_a_reply_sent_while_away_is_read(
    adapter, inbox, fake_discord, cursors
):
    board = Address("discord", str(CHANNEL_ID), user_id=str(USER_ID), user_name="ahab")
    await adapter.send(board, Outbound("Your board after turn 3.", key="outbox-9"))
    assert ("discord", f"dm:{DM_CHANNEL_ID}:{USER_ID}") in cursors.values
    # The captain answers while the bot is away: the catch-up finds it.
    fake_discord.add_history(DM_CHANNEL_ID, "move cruiser at G7 3 up", author=user_payload())
    assert await adapter.fetch_since(cursors, inbox) == 1
    assert [i.text for i in inbox.items] == ["move cruiser at G7 3 up"]


async def test_a_channel_played_by_slash_commands_is_watched_for_typed_orders(
    make_adapter, inbox, fake_discord, cursors, payload_factory
):
    adapter = make_adapter(message_content=True)
    await adapter.login(inbox)
    try:
        interaction_id = fake_discord.snowflake()
        payload = payload_factory("join", interaction_id=interaction_id)
        interaction = discord.Interaction(data=payload, state=adapter.client._connection)
        await adapter.tree._call(interaction)
        assert cursors.values[("discord", f"channel:{CHANNEL_ID}")] == str(interaction_id)
    finally:
        await adapter.stop()
