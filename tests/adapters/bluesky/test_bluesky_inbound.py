"""Mentions, replies, tag searches and chat messages become Inbounds, once each; cursors
move only after handling and survive restarts; a first start ignores the backlog."""

from __future__ import annotations

from bluesky_support import Collector, MemoryCursors
from fake_bluesky import ALICE, BOB, BOT_HANDLE, CAROL

from bot.adapters.bluesky.platform import BlueskyConfig
from bot.host.messages import InboundKind

BACKFILL = BlueskyConfig(enabled=True, handle=BOT_HANDLE, backfill=True)


async def test_a_mention_is_a_public_inbound_from_the_author_did(fake_bsky, make_adapter):
    uri = fake_bsky.post(ALICE, f"@{BOT_HANDLE} #bst H14")
    got = Collector()
    count = await make_adapter(config=BACKFILL).fetch_since(MemoryCursors(), got)
    assert count == 1
    (shot,) = got.items
    assert shot.platform == "bluesky"
    assert shot.channel == uri  # a post in no thread opens a thread of its own
    assert shot.kind is InboundKind.PUBLIC
    assert shot.text == "#bst H14"
    assert shot.message_id == uri
    assert shot.sender.user_id == ALICE
    assert shot.sender.display_name == "@alice.bsky.social"


async def test_a_post_found_by_notification_and_by_search_is_handed_over_once(
    fake_bsky, make_adapter
):
    fake_bsky.post(ALICE, f"@{BOT_HANDLE} #sonar f11")
    got = Collector()
    cursors = MemoryCursors()
    adapter = make_adapter(config=BACKFILL)
    assert await adapter.fetch_since(cursors, got) == 1
    assert await adapter.fetch_since(cursors, got) == 0
    assert len(got.items) == 1


async def test_a_tagged_post_whose_notification_bluesky_dropped_is_found_by_search(
    fake_bsky, make_adapter
):
    """Notifications silently drop some mentions: the tag search finds them."""
    uri = fake_bsky.post(BOB, "#sonar join", notify=False)
    got = Collector()
    await make_adapter(config=BACKFILL).fetch_since(MemoryCursors(), got)
    assert [i.message_id for i in got.items] == [uri]


async def test_a_reply_in_a_thread_belongs_to_its_root(fake_bsky, make_adapter):
    root = fake_bsky.post(CAROL, f"@{BOT_HANDLE} #bst new")
    reply = fake_bsky.post(ALICE, f"@{BOT_HANDLE} #bst join", reply_to=root)
    got = Collector()
    await make_adapter(config=BACKFILL).fetch_since(MemoryCursors(), got)
    by_id = {i.message_id: i for i in got.items}
    assert by_id[reply].channel == root


async def test_a_chat_message_is_a_dm_inbound(fake_bsky, make_adapter):
    fake_bsky.dm(ALICE, "sub: A2")
    got = Collector()
    await make_adapter(config=BACKFILL).fetch_since(MemoryCursors(), got)
    (move,) = got.items
    assert move.kind is InboundKind.DM
    assert move.text == "sub: A2"
    assert move.sender.user_id == ALICE
    assert move.sender.display_name == "@alice.bsky.social"


async def test_a_first_start_ignores_the_backlog_then_reads_what_follows(
    fake_bsky, make_adapter, clock
):
    fake_bsky.post(ALICE, f"@{BOT_HANDLE} #bst join")  # before the bot ever ran
    fake_bsky.dm(ALICE, "sub: A2")
    clock.now = 1_785_056_400.0 + 600  # the bot starts ten minutes later
    fake_bsky.tick(1200)
    cursors = MemoryCursors()
    got = Collector()
    adapter = make_adapter(cursors)
    assert await adapter.fetch_since(cursors, got) == 0
    later = fake_bsky.post(BOB, f"@{BOT_HANDLE} #bst join")
    fake_bsky.dm(BOB, "sub: B3")
    assert await adapter.fetch_since(cursors, got) == 2
    assert {i.message_id for i in got.items if i.kind is InboundKind.PUBLIC} == {later}


async def test_catch_up_after_downtime_hands_over_each_message_exactly_once(
    fake_bsky, make_adapter
):
    cursors = MemoryCursors()
    got = Collector()
    first = make_adapter(cursors, config=BACKFILL)
    fake_bsky.post(ALICE, f"@{BOT_HANDLE} #bst join")
    await first.fetch_since(cursors, got)
    await first.stop()
    # While the bot is down: a mention, a tagged post, two DMs.
    fake_bsky.post(BOB, f"@{BOT_HANDLE} #bst join")
    fake_bsky.post(CAROL, "#bst join", notify=False)
    fake_bsky.dm(ALICE, "sub: A2")
    fake_bsky.dm(BOB, "sub: B2")
    second = make_adapter(cursors, config=BACKFILL)
    assert await second.fetch_since(cursors, got) == 4
    assert await second.fetch_since(cursors, got) == 0
    ids = [i.message_id for i in got.items]
    assert len(ids) == len(set(ids)) == 5


async def test_the_session_is_saved_and_reused_across_restarts(fake_bsky, make_adapter):
    cursors = MemoryCursors()
    await make_adapter(cursors).fetch_since(cursors, Collector())
    await make_adapter(cursors).fetch_since(cursors, Collector())
    assert fake_bsky.logins == 1
    saved = cursors.values[("bluesky", "session")]
    assert saved and "abcd-efgh" not in saved  # tokens, never the app password


async def test_a_saved_session_the_pds_no_longer_takes_is_replaced_by_one_login(
    fake_bsky, make_adapter
):
    cursors = MemoryCursors()
    await make_adapter(cursors).fetch_since(cursors, Collector())
    first = cursors.values[("bluesky", "session")]
    fake_bsky.tokens.clear()  # the PDS forgot every session (revoked, expired)
    await make_adapter(cursors).fetch_since(cursors, Collector())
    assert fake_bsky.logins == 2
    saved = cursors.values[("bluesky", "session")]
    assert saved and saved != first


async def test_the_session_can_live_in_a_file_only_its_owner_reads(
    fake_bsky, make_adapter, tmp_path
):
    path = tmp_path / "secrets" / "bluesky.session"
    config = BlueskyConfig(enabled=True, handle=BOT_HANDLE, session_file=str(path))
    cursors = MemoryCursors()
    await make_adapter(cursors, config=config).fetch_since(cursors, Collector())
    await make_adapter(cursors, config=config).fetch_since(cursors, Collector())
    assert fake_bsky.logins == 1
    assert path.read_text() and (path.stat().st_mode & 0o777) == 0o600
    assert ("bluesky", "session") not in cursors.values


async def test_a_wrong_app_password_stops_the_host_saying_what_to_fix(fake_bsky, make_adapter):
    from bot.host.messages import PlatformRefused

    adapter = make_adapter(password="wrong-pass-word-here")
    try:
        await adapter.start(Collector())
    except PlatformRefused as refused:
        assert "BLUESKY_APP_PASSWORD" in str(refused)
        assert "wrong-pass-word-here" not in str(refused)
    else:
        raise AssertionError("a refused login must stop the host")


async def test_a_session_revoked_while_running_costs_one_new_login_not_a_stop(
    fake_bsky, make_adapter
):
    from bot.host.messages import Address, DeliveryError, Outbound

    cursors = MemoryCursors()
    adapter = make_adapter(cursors)
    await adapter.fetch_since(cursors, Collector())
    fake_bsky.tokens.clear()  # the PDS revoked the session
    try:
        await adapter.send(Address("bluesky"), Outbound("#bst game 1", key="outbox-1"))
    except DeliveryError as error:
        assert not error.permanent  # retried, not lost
    uri = await adapter.send(Address("bluesky"), Outbound("#bst game 1", key="outbox-1"))
    assert uri.startswith("at://") and fake_bsky.logins == 2


async def test_the_polls_log_in_again_when_the_session_is_revoked(fake_bsky, make_adapter):
    import asyncio

    got = Collector()
    adapter = make_adapter(config=BACKFILL)
    await adapter.start(got)
    fake_bsky.tokens.clear()  # revoked while the polls run
    fake_bsky.post(ALICE, f"@{BOT_HANDLE} #bst join")
    for _ in range(200):
        if got.items:
            break
        await asyncio.sleep(0.02)
    await adapter.stop()
    assert [i.text for i in got.items] == ["#bst join"]
    assert adapter.link.refusal is None and fake_bsky.logins == 2


async def test_an_expired_access_token_is_refreshed_not_logged_in_again(fake_bsky, make_adapter):
    from bot.host.messages import Address, Outbound

    cursors = MemoryCursors()
    adapter = make_adapter(cursors)
    await adapter.fetch_since(cursors, Collector())
    fake_bsky.expire_access_tokens()  # the PDS says ExpiredToken before the SDK expects it
    uri = await adapter.send(Address("bluesky"), Outbound("#bst game 1", key="outbox-1"))
    fake_bsky.expire_access_tokens()
    fake_bsky.post(ALICE, f"@{BOT_HANDLE} #bst join")
    got = Collector()
    await adapter.fetch_since(cursors, got)
    assert uri.startswith("at://") and [i.text for i in got.items] == ["#bst join"]
    assert (fake_bsky.logins, fake_bsky.refreshes) == (1, 2)
