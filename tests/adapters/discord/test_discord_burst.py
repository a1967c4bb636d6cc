"""Bursts of slash commands, and the socket-free recording transport the ack benchmark uses.

``recording_transport`` puts :class:`discord_fake.RecordingSession` where
discord.py keeps its ``aiohttp.ClientSession``: discord.py's own request code
still builds every request; only the socket and the server are gone.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord_fake import (
    APP_ID,
    CHANNEL_ID,
    TOKEN,
    USER_ID,
    FakeDiscord,
    Inbox,
    MemoryCursors,
    interaction_payload,
    recording_transport,
)
from test_discord_commands import option
from test_discord_setup import _as_documented

from bot.adapters.discord import DiscordAdapter
from bot.adapters.discord.interactions import (
    INTERACTION_LIFETIME,
    PendingInteraction,
    PendingInteractions,
)
from bot.config import DiscordConfig
from bot.games.catalog import games
from bot.host.messages import Address, Attachment, AttachmentKind, Outbound

CALLBACK = r"/interactions/\d+/[^/]+/callback"


@pytest.fixture
async def recorded() -> AsyncIterator[tuple[DiscordAdapter, FakeDiscord, Inbox]]:
    """An adapter with production settings (no API base override) over the recorder."""
    fake = FakeDiscord()
    inbox = Inbox(fake)
    adapter = DiscordAdapter(
        DiscordConfig(enabled=True, host_role="Harbour Master"),
        token=TOKEN,
        cursors=MemoryCursors(),
        games=games(),
    )
    with recording_transport(fake) as session:
        await adapter.login(inbox)
    assert adapter.client.http._HTTPClient__session is session  # type: ignore[attr-defined]
    try:
        yield adapter, fake, inbox
    finally:
        await adapter.stop()
    assert session.closed


def _interaction(adapter: DiscordAdapter, payload: dict[str, Any]) -> discord.Interaction[Any]:
    return discord.Interaction(data=payload, state=adapter.client._connection)


async def test_login_goes_through_the_recorder(recorded):
    adapter, fake, _ = recorded
    assert [(r.method, r.path) for r in fake.requests] == [
        ("GET", "/users/@me"),
        ("GET", "/oauth2/applications/@me"),
    ]
    assert fake.requests[0].authorization == f"Bot {TOKEN}"
    assert adapter.client.application_id == APP_ID


async def test_a_burst_is_acknowledged_before_the_host_starts_on_it(recorded):
    """50 commands at once: every deferral is sent before the first hand-over."""
    adapter, fake, inbox = recorded
    payloads = [
        interaction_payload(
            "shoot",
            [option("cell", f"B{i + 1}")],
            interaction_id=fake.snowflake(),
            user_id=USER_ID + i,
        )
        for i in range(50)
    ]
    before = len(fake.requests)
    await asyncio.gather(*(adapter.tree._call(_interaction(adapter, p)) for p in payloads))

    callbacks = fake.requests_to("POST", CALLBACK)
    assert len(callbacks) == 50
    assert {c.path.split("/")[2] for c in callbacks} == {p["id"] for p in payloads}
    assert all(c.json == {"type": 5} for c in callbacks)  # public: no ephemeral flag
    assert all(c.query == {"with_response": "1"} for c in callbacks)
    assert min(inbox.requests_seen) == before + 50
    assert sorted(i.message_id for i in inbox.items) == sorted(p["id"] for p in payloads)
    assert len({i.sender.user_id for i in inbox.items}) == 50


async def test_the_recorder_records_what_discord_py_sends_and_answers_like_discord(recorded, spec):
    """Defer, follow-ups (one deleting the public placeholder), a channel upload: the
    recorded bodies and the recorder's answers both match Discord's description."""
    adapter, fake, inbox = recorded
    interaction_id = fake.snowflake()
    await adapter.tree._call(
        _interaction(
            adapter,
            interaction_payload("shoot", [option("cell", "H14")], interaction_id=interaction_id),
        )
    )
    assert inbox.items[0].text == "#bst H14"
    reply = str(interaction_id)
    await adapter.send(
        Address("discord", str(CHANNEL_ID), user_id=str(USER_ID), reply_to=reply),
        Outbound("only you"),
    )
    image = Attachment(AttachmentKind.IMAGE, "map.png", b"\x89PNG", "image/png", "the map")
    sent = await adapter.send(
        Address("discord", str(CHANNEL_ID)), Outbound("the board", (image,), key="k1")
    )
    assert sent.isdigit()

    token = interaction_payload("join", interaction_id=interaction_id)["token"]
    assert [(r.method, r.path) for r in fake.requests[2:]] == [
        ("POST", f"/interactions/{interaction_id}/{token}/callback"),
        ("DELETE", f"/webhooks/{APP_ID}/{token}/messages/@original"),
        ("POST", f"/webhooks/{APP_ID}/{token}"),
        ("POST", f"/channels/{CHANNEL_ID}/messages"),
    ]
    follow_up, upload = fake.requests[4], fake.requests[5]
    assert follow_up.json["flags"] & 64 and follow_up.query["wait"] == "1"
    assert upload.json["content"] == "the board" and upload.json["nonce"]
    assert [(name, filename, data) for name, filename, data in upload.files] == [
        ("files[0]", "map.png", b"\x89PNG")
    ]
    assert fake.requests[2].at <= follow_up.at <= upload.at

    operations = {
        CALLBACK: "/interactions/{interaction_id}/{interaction_token}/callback",
        r"/webhooks/\d+/[^/]+": "/webhooks/{webhook_id}/{webhook_token}",
        r"/channels/\d+/messages": "/channels/{channel_id}/messages",
    }
    checked = 0
    for pattern, spec_path in operations.items():
        for request in fake.requests_to("POST", pattern):
            errors = spec.request_errors("POST", spec_path, _as_documented(request.json))
            assert errors == [], f"POST {request.path}: {errors}"
            checked += 1
    assert checked == 3
    for operation, status, body in fake.responses:
        if body is not None:
            method, spec_path = operation.split(" ", 1)
            assert spec.response_errors(method, spec_path, status, body) == [], operation


async def test_a_scripted_failure_reaches_discord_py_as_its_exception(recorded):
    adapter, fake, inbox = recorded
    fake.fail_next("POST", CALLBACK, 404, {"message": "Unknown interaction", "code": 10062})
    interaction_id = fake.snowflake()
    await adapter.tree._call(
        _interaction(adapter, interaction_payload("join", interaction_id=interaction_id))
    )
    # Not deferred: the command still reaches the host, replies go by channel.
    assert inbox.items[0].text == "#bst join"
    await adapter.send(
        Address("discord", str(CHANNEL_ID), reply_to=str(interaction_id)), Outbound("Ahab joins.")
    )
    assert fake.requests_to("POST", rf"/channels/{CHANNEL_ID}/messages")
    assert not fake.requests_to("POST", rf"/webhooks/{APP_ID}/.+")


def test_expired_interactions_are_forgotten_from_the_front():
    registry = PendingInteractions()
    now = time.monotonic()

    def pending(age: float) -> PendingInteraction:
        return PendingInteraction(None, ephemeral=False, created=now - age)  # type: ignore[arg-type]

    registry.remember("old", pending(INTERACTION_LIFETIME + 60))
    registry.remember("older-still", pending(INTERACTION_LIFETIME + 30))
    registry.remember("live", pending(60))
    registry.remember("new", pending(0))
    assert list(registry) == ["live", "new"]
