"""A game's thread as Bluesky keeps it: its root may be deleted (the game goes on under
the bot's own first post in the thread), and may be gated against the bot's replies
(they would be written and hidden: the bot posts top-level with the game's tag, and a
reply to such a post belongs to the game)."""

from __future__ import annotations

from bluesky_support import Collector, MemoryCursors
from fake_bluesky import ALICE, BOT_HANDLE, CAROL

from bot.host.messages import Address, Outbound


async def test_a_deleted_game_root_keeps_its_thread_through_the_bots_first_post(
    fake_bsky, make_adapter
):
    cursors = MemoryCursors()
    adapter = make_adapter(cursors)
    root = fake_bsky.post(CAROL, f"@{BOT_HANDLE} #bst new")
    first = await adapter.send(
        Address("bluesky", channel=root, reply_to=root), Outbound("#bst game 1 is open", key="a")
    )
    fake_bsky.delete(root)  # its creator deletes the `new` post
    later = await adapter.send(
        Address("bluesky", channel=root), Outbound("#bst game 1, turn 1", key="b")
    )
    reply = fake_bsky.records[later]["value"]["reply"]
    assert (reply["root"]["uri"], reply["parent"]["uri"]) == (root, first)
    assert fake_bsky.hidden() == []
    # A restarted bot (nothing in memory) still knows the anchor, and a player's reply
    # under it is the game's.
    again = make_adapter(cursors)
    third = await again.send(
        Address("bluesky", channel=root), Outbound("#bst game 1, turn 2", key="c")
    )
    assert fake_bsky.records[third]["value"]["reply"]["parent"]["uri"] == first
    shot = fake_bsky.post(ALICE, "#bst f3", reply_to=first)
    got = Collector()
    await again.fetch_since(cursors, got)
    assert [(i.message_id, i.channel) for i in got.items] == [(shot, root)]


async def test_a_thread_gated_against_the_bot_gets_top_level_posts_with_the_tag(
    fake_bsky, make_adapter
):
    cursors = MemoryCursors()
    adapter = make_adapter(cursors)
    root = fake_bsky.post(CAROL, f"@{BOT_HANDLE} #bst new")
    await adapter.send(
        Address("bluesky", channel=root, reply_to=root), Outbound("#bst game 1 is open", key="a")
    )
    fake_bsky.gate(root)  # nobody may reply now
    shot = fake_bsky.post(ALICE, "#bst f3", reply_to=root)
    later = await adapter.send(
        Address("bluesky", channel=root, reply_to=shot),
        Outbound("#bst game 1, turn 1: f3 missed", key="b"),
    )
    record = fake_bsky.records[later]["value"]
    assert "reply" not in record and record["text"].startswith("#bst game 1")
    assert fake_bsky.hidden() == []
    # A reply to the bot's top-level post is an order in the game.
    answer = fake_bsky.post(ALICE, "#bst f4", reply_to=later)
    got = Collector()
    await adapter.fetch_since(cursors, got)
    assert (answer, root) in [(i.message_id, i.channel) for i in got.items]
