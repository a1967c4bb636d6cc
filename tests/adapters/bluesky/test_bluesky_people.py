"""Who a post mentions: a player is their DID, never a handle. A mention is made from the
DID the player joined with and written with the handle Bluesky gives that DID now; a
name in the text (a handle someone else may hold now) links nobody."""

from __future__ import annotations

from bluesky_support import Collector, MemoryCursors
from fake_bluesky import ALICE, BOT_HANDLE, MALLORY

from bot.adapters.bluesky.platform import BlueskyConfig
from bot.host.messages import Address, Outbound

BACKFILL = BlueskyConfig(enabled=True, handle=BOT_HANDLE, backfill=True)


def mentioned(post: dict) -> list[str]:
    return [
        feature["did"]
        for facet in post["value"].get("facets") or ()
        for feature in facet["features"]
        if feature["$type"].endswith("#mention")
    ]


async def test_a_renamed_players_old_handle_never_links_whoever_took_it(fake_bsky, make_adapter):
    cursors = MemoryCursors()
    adapter = make_adapter(cursors, config=BACKFILL)
    fake_bsky.post(ALICE, f"@{BOT_HANDLE} #bst join")  # alice joins as alice.bsky.social
    await adapter.fetch_since(cursors, Collector())
    # alice renames (same DID); mallory takes her old handle and posts with the tag.
    fake_bsky.rename(ALICE, "alice2.bsky.social")
    fake_bsky.add_person(MALLORY, "alice.bsky.social", "Mallory")
    fake_bsky.post(MALLORY, f"@{BOT_HANDLE} #bst hello")
    await adapter.fetch_since(cursors, Collector())

    # The turn's report names alice as she joined: a name, which links nobody.
    await adapter.send(
        Address("bluesky"), Outbound("#bst game 1, turn 1: @alice.bsky.social hit F1", key="a")
    )
    # A mention of alice made from her DID: her handle now, a facet to her DID.
    who = adapter.mention(Address("bluesky", user_id=ALICE, user_name="@alice.bsky.social"))
    await adapter.send(
        Address("bluesky"),
        Outbound(f"#bst game 1: {who}, your turn", key="b", mentions=(ALICE,)),
    )
    report, nudge = fake_bsky.bot_posts()
    assert mentioned(report) == []
    assert mentioned(nudge) == [ALICE]
    assert "@alice2.bsky.social, your turn" in nudge["value"]["text"]
