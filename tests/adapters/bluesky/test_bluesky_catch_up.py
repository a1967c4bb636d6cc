"""Catching up on Bluesky as strict as its notifications and search are: notifications
asked for by reason (likes and follows never crowd a mention out), and a page cap that
leaves posts unread keeps a gap the tag search closes."""

from __future__ import annotations

from bluesky_support import Collector, MemoryCursors
from fake_bluesky import ALICE, BOB, BOT_HANDLE, CAROL

from bot.adapters.bluesky import catch_up

LIST = ("GET", "app.bsky.notification.listNotifications")


async def test_a_mention_behind_a_thousand_likes_and_follows_is_read_in_one_page(
    fake_bsky, make_adapter
):
    cursors = MemoryCursors()
    adapter = make_adapter(cursors)
    await adapter.fetch_since(cursors, Collector())  # a first start: from now on
    mention = fake_bsky.post(ALICE, f"@{BOT_HANDLE} are you there?")  # no tag: not searched
    fake_bsky.noise(700, "like")
    fake_bsky.noise(400, "follow")
    before = fake_bsky.requests.count(LIST)
    got = Collector()
    await adapter.fetch_since(cursors, got)
    assert [i.message_id for i in got.items] == [mention]
    assert fake_bsky.requests.count(LIST) - before == 1


async def test_posts_a_page_cap_left_unread_are_read_from_the_tag_search(
    fake_bsky, make_adapter, monkeypatch
):
    monkeypatch.setattr(catch_up, "PAGE", 5)
    monkeypatch.setattr(catch_up, "MAX_PAGES", 2)  # a poll reads 10 back
    cursors = MemoryCursors()
    adapter = make_adapter(cursors)
    await adapter.fetch_since(cursors, Collector())
    # While the bot is down: carol's order, then a storm of 12 newer tagged mentions.
    order = fake_bsky.post(CAROL, f"@{BOT_HANDLE} #bst 1 f3")
    storm = [fake_bsky.post(BOB, f"@{BOT_HANDLE} #bst say {n}") for n in range(12)]
    got = Collector()
    await adapter.fetch_since(cursors, got)
    handed = [i.message_id for i in got.items]
    assert sorted(handed) == sorted([order, *storm]) and len(handed) == 13
    assert await cursors.get("bluesky", catch_up.GAP_CURSOR) == ""  # closed
    assert await adapter.fetch_since(cursors, Collector()) == 0
