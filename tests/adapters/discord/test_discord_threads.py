"""Game threads on Discord: after a restart with several processes an archived game
thread is read by the process whose shard has its server; a thread Discord will not make
(other than for the cap) is said, not played silently in the channel."""

from __future__ import annotations

from typing import Any

from discord_fake import (
    CHANNEL_ID,
    CREATE_PUBLIC_THREADS,
    GUILD_ID,
    TOKEN,
    USER_ID,
    FakeDiscord,
    user_payload,
)

from bot.adapters.discord import DiscordAdapter
from bot.config import DiscordConfig
from bot.games.catalog import games
from bot.host.messages import Address, Outbound


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


async def test_a_thread_refused_for_want_of_permission_is_said_not_played_silently(
    adapter: DiscordAdapter, fake_discord: FakeDiscord
) -> None:
    """Discord answers 403 (Missing Permissions) to the game's thread: the game plays in
    the channel, and its opening post says why and what a moderator can do."""
    fake_discord.bot_permissions[CHANNEL_ID] &= ~CREATE_PUBLIC_THREADS
    room = await adapter.open_room(
        Address("discord", channel=str(CHANNEL_ID)), Outbound("Game 4 opens.", key="o-1"), "g4"
    )
    assert room == str(CHANNEL_ID)
    assert any(status == 403 for _, status, _ in fake_discord.refusals)
    [opening] = fake_discord.posted[CHANNEL_ID]
    assert opening["content"].startswith("Game 4 opens.")
    assert "Create Public Threads" in opening["content"]


async def test_a_game_opened_in_a_thread_plays_there_without_a_word(
    adapter: DiscordAdapter, fake_discord: FakeDiscord
) -> None:
    thread = int(fake_discord.add_thread(CHANNEL_ID)["id"])
    room = await adapter.open_room(
        Address("discord", channel=str(thread)), Outbound("Game 5 opens.", key="o-2"), "g5"
    )
    assert room == str(thread)
    assert [m["content"] for m in fake_discord.posted[thread]] == ["Game 5 opens."]
