"""Client set-up (intents, shards), command sync, and the contract with Discord's OpenAPI description."""

from __future__ import annotations

import asyncio

import discord
import pytest
from discord_fake import APP_ID, CHANNEL_ID, GUILD_ID, TOKEN, USER_ID
from test_discord_commands import option, run

from bot.adapters.discord.client import intents_for
from bot.adapters.discord.sync import sync_commands
from bot.config import DiscordConfig
from bot.games.catalog import game_names, games
from bot.host.messages import Address, Attachment, AttachmentKind, Outbound


def test_intents_ask_message_content_only_when_configured():
    plain = intents_for(DiscordConfig())
    assert (plain.guilds, plain.guild_messages, plain.dm_messages) == (True, True, True)
    assert plain.message_content is False
    assert plain.members is False and plain.presences is False  # never more privilege
    assert intents_for(DiscordConfig(message_content=True)).message_content is True


def test_sharding_config_reaches_the_client(make_adapter):
    client = make_adapter(shard_count=4, shard_ids=(0, 2)).build_client()
    assert isinstance(client, discord.AutoShardedClient)
    assert client.shard_count == 4
    assert client.shard_ids == [0, 2]


def test_without_shard_config_discord_decides(make_adapter):
    client = make_adapter().build_client()
    assert isinstance(client, discord.AutoShardedClient)
    assert client.shard_count is None and client.shard_ids is None


@pytest.mark.parametrize(
    ("config", "message"),
    [({"shard_ids": (1,)}, "needs shard_count"), ({"shard_count": 2, "shard_ids": (2,)}, "below")],
)
def test_inconsistent_shards_are_refused(make_adapter, config, message):
    with pytest.raises(ValueError, match=message):
        make_adapter(**config).build_client()


@pytest.mark.parametrize("guild_id", [None, GUILD_ID], ids=["global", "guild"])
async def test_sync_registers_the_bst_group(fake_discord, spec, guild_id):
    names = await sync_commands(TOKEN, APP_ID, guild_id, games=games(), http=fake_discord.base)
    assert names == [*game_names(), "host", "games", "me"]
    where = (
        f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"
        if guild_id
        else f"/applications/{APP_ID}/commands"
    )
    [put] = fake_discord.requests_to("PUT", where)
    [bst] = [group for group in put.json if group["name"] == "bst"]
    subcommands = {o["name"] for o in bst["options"]}
    assert subcommands == {
        "new", "join", "place", "shoot", "move", "rotate", "pass", "board", "status",
        "help", "rules", "leave", "withdraw", "host",
    }  # fmt: skip
    spec_path = (
        "/applications/{application_id}/guilds/{guild_id}/commands"
        if guild_id
        else "/applications/{application_id}/commands"
    )
    assert spec.request_errors("PUT", spec_path, put.json) == []


def _as_documented(body):
    """Snowflakes as the OpenAPI file types them: strings.

    discord.py sends a few as JSON integers (``recipient_id``, the message
    reference's ids, the users of ``allowed_mentions``, and ``{"id": 0}`` for a new upload, as Discord's own upload
    example does); Discord's docs accept both. Only those fields are converted,
    so any other deviation still fails.
    """
    if not isinstance(body, dict):
        return body
    body = dict(body)
    if isinstance(body.get("recipient_id"), int):
        body["recipient_id"] = str(body["recipient_id"])
    if body.get("attachments"):
        body["attachments"] = [
            {**a, "id": str(a["id"])} if isinstance(a.get("id"), int) else a
            for a in body["attachments"]
        ]
    if isinstance(body.get("allowed_mentions"), dict):  # discord.py: the user ids as numbers
        mentions = body["allowed_mentions"]
        body["allowed_mentions"] = {
            **mentions,
            **({"users": [str(u) for u in mentions["users"]]} if "users" in mentions else {}),
        }
    if isinstance(body.get("message_reference"), dict):
        body["message_reference"] = {
            k: str(v) if k.endswith("_id") and isinstance(v, int) else v
            for k, v in body["message_reference"].items()
        }
    return body


async def test_every_request_body_matches_discords_description(
    adapter, inbox, fake_discord, payload_factory, spec
):
    """Defer, ephemeral follow-up, delete, channel message with nonce, DM, upload, autocomplete."""
    interaction_id = fake_discord.snowflake()
    await run(
        adapter, payload_factory("shoot", [option("cell", "H14")], interaction_id=interaction_id)
    )
    reply = str(interaction_id)
    await adapter.send(
        Address("discord", str(CHANNEL_ID), user_id=str(USER_ID), reply_to=reply), Outbound("ok")
    )
    await adapter.send(Address("discord", str(CHANNEL_ID), reply_to=reply), Outbound("Ahab fires."))
    image = Attachment(AttachmentKind.IMAGE, "map.png", b"\x89PNG", "image/png", "the map")
    await adapter.send(Address("discord", str(CHANNEL_ID)), Outbound("Turn 2", (image,), key="o-1"))
    await adapter.send(
        Address("discord", str(CHANNEL_ID), user_id=str(USER_ID)), Outbound("Board", key="o-2")
    )
    await run(
        adapter,
        payload_factory(
            "move",
            [option("at", "g", focused=True)],
            interaction_id=fake_discord.snowflake(),
            kind=4,
        ),
    )

    operations = {
        r"/interactions/\d+/[^/]+/callback": "/interactions/{interaction_id}/{interaction_token}/callback",
        r"/webhooks/\d+/[^/]+": "/webhooks/{webhook_id}/{webhook_token}",
        r"/channels/\d+/messages": "/channels/{channel_id}/messages",
        r"/users/@me/channels": "/users/@me/channels",
    }
    import re

    checked = 0
    for request in fake_discord.requests:
        if request.json is None:
            continue
        for pattern, spec_path in operations.items():
            if re.fullmatch(pattern, request.path):
                errors = spec.request_errors(
                    request.method, spec_path, _as_documented(request.json)
                )
                assert errors == [], f"{request.method} {request.path}: {errors}"
                checked += 1
    assert checked >= 7


async def test_the_fakes_answers_match_discords_description(
    adapter, inbox, fake_discord, payload_factory, spec
):
    """The fake must not be kinder than Discord: its payloads validate too."""
    interaction_id = fake_discord.snowflake()
    await run(adapter, payload_factory("join", interaction_id=interaction_id))
    await adapter.send(
        Address("discord", str(CHANNEL_ID), reply_to=str(interaction_id)), Outbound("hi")
    )
    image = Attachment(AttachmentKind.IMAGE, "map.png", b"\x89PNG", "image/png")
    await adapter.send(
        Address("discord", str(CHANNEL_ID), user_id=str(USER_ID)), Outbound("b", (image,), key="k")
    )
    await sync_commands(TOKEN, APP_ID, None, games=games(), http=fake_discord.base)

    checked = 0
    for operation, status, body in fake_discord.responses:
        if body is None:
            continue
        method, path = operation.split(" ", 1)
        errors = spec.response_errors(method, path, status, body)
        assert errors == [], f"{operation}: {errors}"
        checked += 1
    assert checked >= 7


async def test_start_logs_in_then_keeps_the_gateway_in_the_background(
    make_adapter, inbox, fake_discord
):
    adapter = make_adapter()
    client = adapter.build_client()
    connected = []

    async def connect(*, reconnect: bool = True) -> None:  # the gateway is not faked
        connected.append(reconnect)

    client.connect = connect  # type: ignore[method-assign]
    await adapter.start(inbox)
    await asyncio.sleep(0)
    assert connected == [True]
    # With an API base the gateway is the one it names (GET /gateway/bot).
    assert [r.path for r in fake_discord.requests] == [
        "/users/@me",
        "/oauth2/applications/@me",
        "/gateway/bot",
    ]
    await adapter.stop()
    assert client.is_closed()
