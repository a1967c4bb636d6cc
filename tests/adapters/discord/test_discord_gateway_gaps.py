"""A shard that RESUMEs its session gets every event it missed replayed: no gap, nothing
read again. A shard that must IDENTIFY afresh (INVALID_SESSION) missed what was sent
meanwhile: a gap, and the catch-up reads it. Through the fake gateway, as Discord does."""

from __future__ import annotations

from typing import Any

from discord_fake import CHANNEL_ID, TOKEN, USER_ID, FakeDiscord, user_payload
from test_discord_messages import settle

from bot.adapters.discord import DiscordAdapter
from bot.config import DiscordConfig
from bot.games.catalog import games

HISTORY = rf"/channels/{CHANNEL_ID}/messages"


async def test_a_resume_is_no_gap_a_fresh_identify_is(
    fake_discord: FakeDiscord, cursors: Any
) -> None:
    adapter = DiscordAdapter(
        DiscordConfig(enabled=True, api_base=fake_discord.base, requests_per_second=0),
        token=TOKEN,
        cursors=cursors,
        games=games(),
    )
    got: list[Any] = []

    async def handle(inbound: Any) -> None:
        got.append(inbound)

    gateway = fake_discord.gateway
    await cursors.set("discord", f"channel:{CHANNEL_ID}", "1")
    await adapter.start(handle)
    try:
        await settle(lambda: adapter.link.connected, timeout=10.0)
        await settle(lambda: not adapter.catch_up.missed(), timeout=10.0)  # read through
        reads = len(fake_discord.requests_to("GET", HISTORY))

        # Discord drops the connection; the shard RESUMEs and gets what it missed.
        await gateway.drop()
        await settle(lambda: "RESUMED" in [e for _s, e, _d in gateway.dispatched], timeout=10.0)
        await settle(lambda: adapter.link.connected, timeout=10.0)
        assert not adapter.catch_up.missed(), "a RESUME counted as a gap"
        assert len(fake_discord.requests_to("GET", HISTORY)) == reads  # nothing read again

        # Now Discord will not resume: INVALID_SESSION, a fresh IDENTIFY, and what was
        # typed meanwhile is read by the catch-up.
        gateway.refuse_resume = True
        identified = len(gateway.identified)
        await gateway.drop()
        fake_discord.add_history(CHANNEL_ID, "#bst F7", author=user_payload(USER_ID, "ahab"))
        await settle(lambda: len(gateway.identified) > identified, timeout=15.0)
        await settle(lambda: any(i.text.endswith("F7") for i in got), timeout=10.0)
        assert len(fake_discord.requests_to("GET", HISTORY)) > reads
    finally:
        await adapter.stop()
