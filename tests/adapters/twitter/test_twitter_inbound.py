"""Mentions and DMs become Inbounds; cursors move only after handling, and survive restarts."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from fake_x_api import Failure, x_error
from x_support import ALICE, BOB, MALLORY, Collector, MemoryCursors

from bot.adapters.twitter.catch_up import DM_CURSOR, MENTIONS_CURSOR
from bot.config import TwitterConfig
from bot.host.messages import InboundKind


async def test_a_shot_by_mention_is_a_public_inbound_from_the_author_id(fake_x, make_adapter):
    post_id = fake_x.mention(ALICE, "@bstbot #bst H14")
    got = Collector()
    count = await make_adapter().fetch_since(MemoryCursors(), got)
    assert count == 1
    (shot,) = got.items
    assert shot.platform == "twitter"
    assert shot.channel == post_id  # a post in no thread opens a conversation of its own
    assert shot.kind is InboundKind.PUBLIC
    assert shot.text == "#bst H14"
    assert shot.message_id == post_id
    assert shot.sender.user_id == ALICE
    assert shot.sender.display_name == "@alice"
    assert shot.sender.avatar_url.endswith("a_400x400.jpg")
    assert shot.sent_at == datetime(2026, 7, 26, 10, 0, tzinfo=UTC)


async def test_a_join_by_mention_with_several_leading_handles(fake_x, make_adapter):
    fake_x.mention(BOB, "@bstbot @alice #bst join &amp; good luck")
    got = Collector()
    await make_adapter().fetch_since(MemoryCursors(), got)
    assert [i.text for i in got.items] == ["#bst join & good luck"]
    assert got.items[0].sender.user_id == BOB


async def test_retweets_and_the_bots_own_posts_are_not_orders(fake_x, make_adapter):
    fake_x.mention(BOB, "RT @alice: @bstbot #bst H14")
    fake_x.mention(fake_x.bot_id, "@bstbot turn 3 map")
    got = Collector()
    await make_adapter().fetch_since(MemoryCursors(), got)
    assert got.items == []


async def test_a_dmd_placement_and_a_dmd_move_are_dm_inbounds(fake_x, make_adapter):
    placement = fake_x.dm(ALICE, "place carrier A1 across, sub J10")
    own = fake_x.dm(fake_x.bot_id, "Turn 1: your board")
    move = fake_x.dm(ALICE, "move cruiser at G7 3 up")
    got = Collector()
    cursors = MemoryCursors()
    await make_adapter().fetch_since(cursors, got)
    assert [(i.kind, i.text, i.message_id) for i in got.items] == [
        (InboundKind.DM, "place carrier A1 across, sub J10", placement),
        (InboundKind.DM, "move cruiser at G7 3 up", move),
    ]
    assert {i.sender.user_id for i in got.items} == {ALICE}
    assert got.items[0].channel == ""  # a DM naming no game: the host takes the sender's
    assert cursors.values[("twitter", DM_CURSOR)] == move
    assert own not in [i.message_id for i in got.items]


async def test_every_mentions_page_is_read_before_since_id_moves(fake_x, make_adapter):
    cursors = MemoryCursors()
    adapter = make_adapter(cursors)
    fake_x.mention(ALICE, "@bstbot #bst join")
    await adapter.fetch_since(cursors, Collector())
    before = cursors.values[("twitter", MENTIONS_CURSOR)]

    fake_x.mention_page_size = 2
    new_ids = [fake_x.mention(BOB, f"@bstbot #bst {cell}") for cell in ("A1", "B2", "C3")]
    seen_cursor = []

    async def handler(inbound):
        seen_cursor.append(await cursors.get("twitter", MENTIONS_CURSOR))

    count = await adapter.fetch_since(cursors, handler)
    assert count == 3
    assert seen_cursor == [before] * 3  # nothing moved while handing over
    calls = fake_x.calls("GET", "/2/users/{id}/mentions")[-2:]
    assert [c.get("since_id") for c in calls] == [before, before]
    assert "pagination_token" not in calls[0] and calls[1]["pagination_token"]
    assert cursors.values[("twitter", MENTIONS_CURSOR)] == max(new_ids, key=int)


async def test_handed_over_oldest_first(fake_x, make_adapter):
    fake_x.mention_page_size = 2
    cursors = MemoryCursors()
    await cursors.set("twitter", MENTIONS_CURSOR, "1")
    ids = [fake_x.mention(ALICE, f"@bstbot #bst A{n}") for n in range(1, 6)]
    got = Collector()
    await make_adapter(cursors).fetch_since(cursors, got)
    assert [i.message_id for i in got.items] == ids


async def test_a_failing_handler_leaves_the_cursor_after_the_last_handled(fake_x, make_adapter):
    cursors = MemoryCursors()
    await cursors.set("twitter", MENTIONS_CURSOR, "1")
    first, second = fake_x.mention(ALICE, "@bstbot #bst A1"), fake_x.mention(BOB, "@bstbot #bst A2")

    async def handler(inbound):
        if inbound.message_id == second:
            raise RuntimeError("database down")

    with pytest.raises(RuntimeError):
        await make_adapter(cursors).fetch_since(cursors, handler)
    assert cursors.values[("twitter", MENTIONS_CURSOR)] == first


async def test_cursors_survive_a_restart(fake_x, make_adapter):
    cursors = MemoryCursors()
    fake_x.mention(ALICE, "@bstbot #bst join")
    fake_x.dm(ALICE, "move sub at J10 1 up")
    got = Collector()
    first = make_adapter(cursors)
    assert await first.fetch_since(cursors, got) == 2
    await first.stop()

    fake_x.dm_page_size = 1
    fresh_post = fake_x.mention(BOB, "@bstbot #bst E5")
    fresh_dm = fake_x.dm(BOB, "rotate carrier at E8")
    second = make_adapter(cursors)  # a new process, the same durable cursors
    again = Collector()
    assert await second.fetch_since(cursors, again) == 2
    assert [i.message_id for i in again.items] == [fresh_post, fresh_dm]
    # DM paging stopped at the stored event: one page with the new one, one reaching the old.
    assert len(fake_x.calls("GET", "/2/dm_events")) == 1 + 2
    assert await second.fetch_since(cursors, Collector()) == 0


async def test_a_handle_reused_by_someone_else_is_a_different_sender(fake_x, make_adapter):
    fake_x.mention(ALICE, "@bstbot #bst join")
    got = Collector()
    cursors = MemoryCursors()
    adapter = make_adapter(cursors)
    await adapter.fetch_since(cursors, got)
    # Alice renames; Mallory takes the free handle "alice".
    fake_x.users[ALICE]["username"] = "alice_sails"
    fake_x.add_user(MALLORY, "alice", "Not Alice")
    fake_x.mention(MALLORY, "@bstbot #bst H14")
    fake_x.mention(ALICE, "@bstbot #bst A1")
    await adapter.fetch_since(cursors, got)
    senders = [(i.sender.user_id, i.sender.display_name) for i in got.items]
    assert senders == [(ALICE, "@alice"), (MALLORY, "@alice"), (ALICE, "@alice_sails")]


async def test_the_bot_id_is_looked_up_once_when_not_configured(fake_x, make_adapter):
    adapter = make_adapter(config=TwitterConfig(enabled=True))
    assert await adapter.bot_user_id() == fake_x.bot_id
    assert await adapter.bot_user_id() == fake_x.bot_id
    assert len(fake_x.calls("GET", "/2/users/me")) == 1


async def test_search_finds_tagged_posts_when_enabled(fake_x, make_adapter):
    fake_x.mention(ALICE, "@bstbot #bst H14")
    adapter = make_adapter(
        config=TwitterConfig(enabled=True, bot_user_id=fake_x.bot_id, search_hashtag=True)
    )
    got = Collector()
    await adapter.fetch_since(MemoryCursors(), got)
    assert [i.text for i in got.items] == ["#bst H14", "#bst H14"]  # the host dedupes by id
    assert len({i.message_id for i in got.items}) == 1
    assert fake_x.calls("GET", "/2/tweets/search/recent")


async def test_search_looks_for_every_registered_games_tag(fake_x, make_adapter):
    from bot.games.catalog import games, register, unregister
    from tests.tug import TUG

    register(TUG)
    try:
        adapter = make_adapter(
            config=TwitterConfig(enabled=True, bot_user_id=fake_x.bot_id, search_hashtag=True)
        )
        tags = " OR ".join(sorted(game.tag for game in games()))
    finally:
        unregister(TUG.name)
    fake_x.mention(BOB, "#tug pull 2")
    fake_x.mention(ALICE, "#tugboat ahoy")
    got = Collector()
    await adapter.fetch_since(MemoryCursors(), got)
    [query] = [q["query"] for q in fake_x.calls("GET", "/2/tweets/search/recent")]
    assert "#tug" in tags and "#bst" in tags
    assert query == f"({tags}) -is:retweet -from:{fake_x.bot_id}"
    texts = [i.text for i in got.items]
    # Each post once as a mention; the tagged one again from the search (the host dedupes).
    assert (texts.count("#tug pull 2"), texts.count("#tugboat ahoy")) == (2, 1)


async def test_start_polls_until_stopped(fake_x, make_adapter):
    fake_x.mention(ALICE, "@bstbot #bst H14")
    fake_x.dm(BOB, "board")
    got = Collector()
    adapter = make_adapter()
    await adapter.start(got)
    for _ in range(200):
        if len(got.items) >= 2:
            break
        await asyncio.sleep(0.01)
    await adapter.stop()
    assert sorted(i.kind.value for i in got.items) == ["dm", "public"]
    assert len(got.items) == 2  # polled again and again, handed over once


async def test_a_poll_error_is_logged_and_polling_goes_on(fake_x, make_adapter):
    fake_x.fail(
        "GET /2/users/{id}/mentions",
        Failure(503, x_error(503, "Service Unavailable", "Service Unavailable", 130)),
    )
    fake_x.mention(ALICE, "@bstbot #bst H14")
    got = Collector()
    adapter = make_adapter()
    await adapter.start(got)
    for _ in range(200):
        if any(i.kind is InboundKind.PUBLIC for i in got.items):
            break
        await asyncio.sleep(0.01)
    await adapter.stop()
    assert [i.text for i in got.items if i.kind is InboundKind.PUBLIC] == ["#bst H14"]


async def test_a_first_start_answers_nothing_sent_before_it_and_what_arrives_after(
    fake_x, make_adapter, clock
):
    """Issue 20, item 5: with no cursor (an empty database) the first poll does not hand
    the host 30 days of old mentions and DMs as fresh commands."""
    before = "2026-07-01T08:00:00.000Z"  # weeks before the bot started
    assert datetime(2026, 7, 1, 8, tzinfo=UTC).timestamp() < clock.now
    fake_x.mention(ALICE, "@bstbot #bst new size=10", created_at=before)
    fake_x.dm(BOB, "join", created_at=before)
    cursors = MemoryCursors()
    adapter = make_adapter(cursors)
    got = Collector()
    assert await adapter.fetch_since(cursors, got) == 0
    [first] = fake_x.calls("GET", "/2/users/{id}/mentions")
    assert first["start_time"].startswith("2026-07-25T17:20:00")  # the adapter's start

    after = "2026-07-26T10:00:00.000Z"
    fresh_post = fake_x.mention(BOB, "@bstbot #bst join", created_at=after)
    fresh_dm = fake_x.dm(ALICE, "board", created_at=after)
    assert await adapter.fetch_since(cursors, got) == 2
    assert [i.message_id for i in got.items] == [fresh_post, fresh_dm]


async def test_backfill_reads_back_what_was_sent_before_the_first_start(fake_x, make_adapter):
    fake_x.mention(ALICE, "@bstbot #bst join", created_at="2026-07-01T08:00:00.000Z")
    fake_x.dm(BOB, "board", created_at="2026-07-01T08:00:00.000Z")
    config = TwitterConfig(enabled=True, bot_user_id=fake_x.bot_id, backfill=True)
    got = Collector()
    assert await make_adapter(config=config).fetch_since(MemoryCursors(), got) == 2


@pytest.mark.parametrize(
    "failure",
    [
        Failure(503, x_error(503, "Service Unavailable", "Service Unavailable", 130)),
        Failure(429, x_error(429, "Too Many Requests", "Too Many Requests", 88)),
        Failure(403, x_error(403, "Forbidden", "client-not-enrolled", 453)),
    ],
    ids=["503", "429", "403"],
)
async def test_14_an_x_start_up_failure_degrades_x_only_and_polling_recovers(
    fake_x, make_adapter, failure, caplog
):
    """GET /2/users/me failing at start (not a 401) must not stop the host (and Discord
    with it): X shows down, and the polls find the bot's id once X answers."""
    from bot.config import TwitterConfig

    fake_x.fail("GET /2/users/me", failure)
    fake_x.mention(ALICE, "@bstbot #bst H14")
    got = Collector()
    adapter = make_adapter(config=TwitterConfig(enabled=True))  # no bot_user_id configured
    await adapter.start(got)  # does not raise
    assert not adapter.link.connected and adapter.link.refusal is None
    assert any("X start-up" in r.getMessage() for r in caplog.records)
    for _ in range(200):
        if got.items:
            break
        await asyncio.sleep(0.01)
    await adapter.stop()
    assert [i.text for i in got.items] == ["#bst H14"]
    assert adapter.link.connected


async def test_14_a_tier_refusal_in_a_poll_is_explained_once_not_every_poll(
    fake_x, make_adapter, sleeps, caplog
):
    refused = Failure(403, x_error(403, "Forbidden", "client-not-enrolled", 453))
    fake_x.fail("GET /2/users/{id}/mentions", refused, times=5)
    adapter = make_adapter()
    await adapter.start(Collector())
    for _ in range(300):
        if len(fake_x.calls("GET", "/2/users/{id}/mentions")) >= 6:
            break
        await asyncio.sleep(0.01)
    await adapter.stop()
    told = [r for r in caplog.records if "access" in r.getMessage() and r.levelname == "WARNING"]
    assert len(told) == 1, [r.getMessage() for r in caplog.records]
    assert "Basic" in told[0].getMessage()
