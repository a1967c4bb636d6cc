"""A small public #bst game on X through the real host and the fake X API.

Mentions and DMs are polled by the real adapter (tweepy's AsyncClient against the
fake), recorded by the host with the adapter's cursors in the database, and the
turn's map goes out as a post with its image uploaded by the v2 chunked upload.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from x_support import ALICE, BOB, MUTE_LINE

import bot.games.bst  # noqa: F401  (registers the game)
from bot.host.outbox.attachments import AttachmentRenderer
from bot.host.outbox.avatar_cache import AvatarCache
from bot.host.runtime.clock import VirtualClock
from bot.host.runtime.service import Host
from bot.store import DatabaseCursors, Store
from bot.wiring import no_network, sqlite_url

START = datetime(2026, 7, 26, 9, 0, tzinfo=UTC)
OPERATOR = "9000000000000000001"


def at(minutes: int) -> str:
    return (START + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%S.000Z")


async def test_a_public_game_by_mentions_and_dms(
    make_adapter: Any, fake_x: Any, tmp_path: Any
) -> None:
    store = Store(sqlite_url(tmp_path / "x.db"))
    clock = VirtualClock(START.timestamp())
    adapter = make_adapter(cursors=DatabaseCursors(store))
    host = Host(
        store,
        clock,
        {"twitter": adapter},
        AttachmentRenderer(store, AvatarCache(fetch=no_network), replay_gif=False),
    )
    fake_x.add_user(OPERATOR, "harbourmaster", "Harbour Master")
    # No polling loops here: each poll is one explicit fetch_since, as at a deadline.

    async def poll(minutes: int) -> None:
        clock.set(max(clock.now(), (START + timedelta(minutes=minutes)).timestamp()))
        await adapter.fetch_since(host.cursors, host.on_inbound)
        await host.relay.flush()

    try:
        # The game is the thread of the post that opens it: players reply in it.
        root = fake_x.mention(OPERATOR, "@bstbot #bst new size=8 turn=1h", created_at=at(1))
        fake_x.mention(ALICE, "@bstbot #bst join", created_at=at(2), conversation_id=root)
        fake_x.mention(BOB, "@bstbot #bst join", created_at=at(2), conversation_id=root)
        await poll(3)
        fake_x.dm(ALICE, "sub: A2\ncarrier: C1-C5")
        fake_x.dm(BOB, "cruiser: F1-F3, cruiser: H6-H8")
        await poll(4)
        fake_x.mention(OPERATOR, "@bstbot #bst start", created_at=at(5), conversation_id=root)
        await poll(6)
        with store.transaction() as tx:
            game = tx.game(1)
            assert game is not None and game.phase == "battle"
            deadline = game.deadline
        # alice shoots by mention; the poll that sees it runs only just before the deadline
        fake_x.mention(ALICE, "@bstbot #bst f3", created_at=at(30), conversation_id=root)
        clock.set(deadline)
        await host.tick()  # catches up through the adapter first, then resolves
        turn_posts = [p for p in fake_x.posts if "turn 1:" in p["text"]]
        assert len(turn_posts) == 1
        post = turn_posts[0]
        # A name reads as one, and is no mention (its @ is defused: #40, 11).
        assert "Shots: @\u200dalice hit F3." in post["text"]
        assert post["text"].rstrip().endswith(MUTE_LINE)
        assert post.get("media", {}).get("media_ids"), "the map is attached"
        assert fake_x.violations == []
        # a second pass sends nothing again
        before = (len(fake_x.posts), len(fake_x.dms))
        await host.tick()
        assert (len(fake_x.posts), len(fake_x.dms)) == before
    finally:
        store.dispose()


async def test_6_one_account_runs_several_games_each_in_its_thread(
    make_adapter: Any, fake_x: Any, tmp_path: Any
) -> None:
    """Issue 20, item 6: two games at once on one X account. Each lives in the thread of
    the post that opened it; a reply in that thread, or a post naming the game by tag
    and number, belongs to that game."""
    store = Store(sqlite_url(tmp_path / "x.db"))
    clock = VirtualClock(START.timestamp())
    cursors = DatabaseCursors(store)
    adapter = make_adapter(cursors=cursors)
    host = Host(
        store,
        clock,
        {"twitter": adapter},
        AttachmentRenderer(store, AvatarCache(fetch=no_network), replay_gif=False),
    )
    fake_x.add_user(OPERATOR, "harbourmaster", "Harbour Master")
    carol = "3000000000000000003"
    fake_x.add_user(carol, "carol", "Carol")

    async def poll(minutes: int) -> None:
        clock.set(max(clock.now(), (START + timedelta(minutes=minutes)).timestamp()))
        await adapter.fetch_since(host.cursors, host.on_inbound)
        await host.relay.flush()

    try:
        first = fake_x.mention(OPERATOR, "@bstbot #bst new size=8 turn=1h", created_at=at(1))
        second = fake_x.mention(ALICE, "@bstbot #bst new size=10 turn=2h", created_at=at(1))
        await poll(2)
        with store.transaction() as tx:
            games = {g.channel: g.id for g in tx.active_games()}
        assert set(games) == {first, second}, "two games, one per thread"
        number = games[second]
        # A reply in the first thread; a post naming the second game; a DM naming it.
        fake_x.mention(BOB, "@bstbot #bst join", created_at=at(3), conversation_id=first)
        fake_x.mention(carol, f"@bstbot #bst {number} join", created_at=at(3))
        await poll(4)
        with store.transaction() as tx:
            players = {
                channel: {p.user_id for p in tx.players(game_id)}
                for channel, game_id in games.items()
            }
        assert players[first] == {BOB}
        assert players[second] == {carol}
        # The host's answers are replies: in each game's thread, or to the post they answer.
        target = {
            p["text"].split("\n")[0]: p["reply"]["in_reply_to_tweet_id"] for p in fake_x.posts
        }
        opened = [line for line in target if "is open" in line]
        assert sorted(target[line] for line in opened) == sorted([first, second])
        named = [p for p in fake_x.posts if f"game {number}" in p["text"]]
        assert {p["reply"]["in_reply_to_tweet_id"] for p in named} <= {second} | {
            m["id"] for m in fake_x.mentions if m["author_id"] == carol
        }
        assert fake_x.violations == []
    finally:
        store.dispose()


async def test_a_long_turn_post_cut_to_280_keeps_its_receipts_root_and_the_opening_its_commitment(
    make_adapter: Any, fake_x: Any, tmp_path: Any
) -> None:
    """Issue 31: on X a post is cut to 280 characters; what makes a post checkable later
    (the commitment of the opening post, a turn's receipts root) is kept whole."""
    import re

    store = Store(sqlite_url(tmp_path / "x.db"))
    clock = VirtualClock(START.timestamp())
    adapter = make_adapter(cursors=DatabaseCursors(store))
    host = Host(
        store,
        clock,
        {"twitter": adapter},
        AttachmentRenderer(store, AvatarCache(fetch=no_network), replay_gif=False),
        draw_secret=lambda: "5a" * 32,
    )
    fake_x.add_user(OPERATOR, "harbourmaster", "Harbour Master")
    # Six captains with the longest handles X allows: their shots make a long report.
    captains = [f"40000000000000000{i:02d}" for i in range(6)]
    for i, user in enumerate(captains):
        fake_x.add_user(user, f"captainlongnam{i}", f"Captain {i}")

    async def poll(minutes: int) -> None:
        clock.set(max(clock.now(), (START + timedelta(minutes=minutes)).timestamp()))
        await adapter.fetch_since(host.cursors, host.on_inbound)
        await host.relay.flush()

    try:
        root = fake_x.mention(OPERATOR, "@bstbot #bst new size=10 turn=1h", created_at=at(1))
        for user in captains:
            fake_x.mention(user, "@bstbot #bst join", created_at=at(2), conversation_id=root)
        await poll(3)
        for user in captains:
            fake_x.dm(user, "random")
        await poll(4)
        fake_x.mention(OPERATOR, "@bstbot #bst start", created_at=at(5), conversation_id=root)
        await poll(6)
        with store.transaction() as tx:
            game = tx.game(1)
            assert game is not None and game.phase == "battle"
            deadline = game.deadline
        for i, user in enumerate(captains):
            fake_x.mention(user, f"@bstbot #bst J{i + 1}", created_at=at(30), conversation_id=root)
        clock.set(deadline)
        await host.tick()
        commitment = re.compile(r"Luck committed: SHA-256 [0-9a-f]{64}\.")
        opening = next(p["text"] for p in fake_x.posts if "is open" in p["text"])
        assert commitment.search(opening), opening
        (turn_post,) = [p["text"] for p in fake_x.posts if "turn 1:" in p["text"]]
        assert "…" in turn_post, "the report was cut to fit"
        assert re.search(r"Receipts root of the 6 orders that stood: [0-9a-f]{64}\.", turn_post)
        assert turn_post.rstrip().endswith(MUTE_LINE)
        assert fake_x.violations == []
    finally:
        store.dispose()
