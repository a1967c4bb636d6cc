"""Game threads on Discord: after a restart with several processes an archived game
thread is read by the process whose shard has its server; a thread Discord will not make
(other than for the cap) is said, not played silently in the channel."""

from __future__ import annotations

from typing import Any

from discord_fake import CHANNEL_ID, GUILD_ID, TOKEN, USER_ID, FakeDiscord, user_payload

from bot.adapters.discord import DiscordAdapter
from bot.config import DiscordConfig
from bot.games.catalog import games


def process(fake: FakeDiscord, cursors: Any, shard: int) -> DiscordAdapter:
    return DiscordAdapter(
        DiscordConfig(enabled=True, shard_count=2, shard_ids=(shard,), requests_per_second=0),
        token=TOKEN,
        cursors=cursors,
        games=games(),
        http=fake.base,
    )


async def test_an_archived_thread_is_read_after_a_restart_by_the_process_of_its_server(
    fake_discord: FakeDiscord, cursors: Any, inbox: Any
) -> None:
    """READY lists only a server's active threads: an archived game thread is in no
    process's cache after a restart, yet its cursor is read, once, by the process whose
    shard has the thread's server."""
    thread = int(fake_discord.add_thread(CHANNEL_ID, archived=True)["id"])
    fake_discord.add_history(thread, "#bst F7", author=user_payload(USER_ID, "ahab"))
    await cursors.set("discord", f"channel:{thread}", "1")
    mine = (GUILD_ID >> 22) % 2
    owner, other = process(fake_discord, cursors, mine), process(fake_discord, cursors, 1 - mine)
    for adapter in (owner, other):
        await adapter.login(inbox)
        adapter.client._ready.set()  # READY came (without the archived thread)
        assert adapter.client.get_channel(thread) is None
    try:
        await other.fetch_since(cursors, inbox)
        assert inbox.items == []  # not its server's
        await owner.fetch_since(cursors, inbox)
        [order] = inbox.items
        assert order.text.endswith("F7")
        assert len(fake_discord.requests_to("GET", rf"/channels/{thread}/messages")) == 1
    finally:
        await owner.stop()
        await other.stop()
