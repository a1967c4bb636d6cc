"""A slash command past its sender's command rate (``[limits] commands_per_minute``):
the first one past it is answered "slow down"; the rest of that minute get no answer,
so their "thinking…" placeholders are taken away, not left spinning for 15 minutes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from discord_fake import APP_ID, MEMBER_PERMISSIONS
from test_discord_game import DiscordTable, message_bodies

from bot.host.outbox.attachments import AttachmentRenderer
from bot.host.outbox.avatar_cache import AvatarCache
from bot.host.runtime.limits import Limits
from bot.host.runtime.service import Host
from bot.wiring import no_network

DELETE_PLACEHOLDER = rf"/webhooks/{APP_ID}/[^/]+/messages/@original"


@pytest.fixture
async def table(make_adapter: Any, payload_factory: Any, tmp_path: Any):
    made = DiscordTable(make_adapter(), payload_factory, tmp_path)
    made.host = Host(
        made.store,
        made.clock,
        {"discord": made.adapter},
        AttachmentRenderer(made.store, AvatarCache(fetch=no_network)),
        limits=Limits(commands_per_minute=2),
    )
    await made.adapter.login(made.host.on_inbound)
    try:
        yield made
    finally:
        await made.close()


async def test_a_slash_command_past_the_rate_loses_its_placeholder(
    table: DiscordTable, fake_discord: Any
) -> None:
    for _ in range(2):
        await table.slash("status", permissions=MEMBER_PERMISSIONS)
    await table.slash("status", permissions=MEMBER_PERMISSIONS)  # the third: "slow down"
    answers = message_bodies(fake_discord, r"/webhooks/\d+/[^/]+(/messages/@original)?")
    assert any("slow down" in str(body.get("content")) for body in answers), answers

    before = len(fake_discord.requests)
    await table.slash("status", permissions=MEMBER_PERMISSIONS)  # the fourth: no answer
    made = [(r.method, r.path) for r in fake_discord.requests[before:]]
    assert [method for method, _ in made] == ["POST", "DELETE"], made
    assert re.fullmatch(r"/interactions/\d+/[^/]+/callback", made[0][1])
    assert re.fullmatch(DELETE_PLACEHOLDER, made[1][1])
