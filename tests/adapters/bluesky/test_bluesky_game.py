"""A public #bst game on Bluesky through the real host and the fake PDS: the game's
thread, posts naming it by number, several games at once, DMs as text boards."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bluesky_support import bluesky_host
from fake_bluesky import ALICE, BOB, BOT_HANDLE, CAROL

import bot.games.bst  # noqa: F401  (registers the game)
from bot.host.outbox.attachments import AttachmentRenderer
from bot.host.outbox.avatar_cache import AvatarCache
from bot.host.runtime.clock import VirtualClock
from bot.host.runtime.service import Host
from bot.store import DatabaseCursors, Store
from bot.wiring import no_network, sqlite_url

START = datetime(2026, 7, 26, 9, 0, tzinfo=UTC)


async def test_a_public_game_in_its_thread_with_text_boards_by_dm(
    make_adapter: Any, fake_bsky: Any, tmp_path: Any, clock: Any
) -> None:
    store = Store(sqlite_url(tmp_path / "b.db"))
    virtual = VirtualClock(START.timestamp())
    adapter = make_adapter(cursors=DatabaseCursors(store))
    host = bluesky_host(store, virtual, adapter)

    async def poll(minutes: int) -> None:
        virtual.set(max(virtual.now(), (START + timedelta(minutes=minutes)).timestamp()))
        clock.now = virtual.now()
        fake_bsky.tick(60)
        await adapter.fetch_since(host.cursors, host.on_inbound)
        await host.relay.flush()

    try:
        root = fake_bsky.post(CAROL, f"@{BOT_HANDLE} #bst new size=8 turn=1h")
        await poll(1)
        fake_bsky.post(ALICE, "#bst join", reply_to=root)
        fake_bsky.post(BOB, "#bst join", reply_to=root, notify=False)  # found by search
        await poll(2)
        with store.transaction() as tx:
            game = tx.game(1)
            assert game is not None and game.channel == root
            assert {p.user_id for p in tx.players(1)} == {ALICE, BOB}
        fake_bsky.dm(ALICE, "sub: A2\ncarrier: C1-C5")
        fake_bsky.dm(BOB, "cruiser: F1-F3, cruiser: H6-H8")
        await poll(3)
        fake_bsky.post(CAROL, "#bst start", reply_to=root)
        await poll(4)
        with store.transaction() as tx:
            game = tx.game(1)
            assert game is not None and game.phase == "battle"
            deadline = game.deadline
        fake_bsky.post(ALICE, "#bst f3", reply_to=root)
        virtual.set(deadline)
        clock.now = deadline
        await host.tick()
        turn_posts = [p for p in fake_bsky.bot_posts() if "turn 1:" in p["value"]["text"]]
        assert len(turn_posts) == 1
        record = turn_posts[0]["value"]
        assert "@alice.bsky.social hit F3" in record["text"]
        assert record["reply"]["root"]["uri"] == root
        assert record["embed"]["images"][0]["alt"]
        # A name is no mention: only the people the host names by their DID are linked.
        mentions = [f for f in record["facets"] if f["features"][0]["$type"].endswith("#mention")]
        assert mentions == []
        # The board by DM is the game's text board: no picture can ride in a chat message.
        assert any("F  S  S  x  ." in text for text in fake_bsky.dms_to(BOB))
        before = (len(fake_bsky.bot_posts()), len(fake_bsky.messages))
        await host.tick()
        assert (len(fake_bsky.bot_posts()), len(fake_bsky.messages)) == before
    finally:
        store.dispose()


async def test_two_games_at_once_each_in_its_thread(
    make_adapter: Any, fake_bsky: Any, tmp_path: Any, clock: Any
) -> None:
    store = Store(sqlite_url(tmp_path / "b.db"))
    virtual = VirtualClock(START.timestamp())
    adapter = make_adapter(cursors=DatabaseCursors(store))
    host = bluesky_host(store, virtual, adapter)

    async def poll() -> None:
        fake_bsky.tick(60)
        await adapter.fetch_since(host.cursors, host.on_inbound)
        await host.relay.flush()

    try:
        first = fake_bsky.post(CAROL, f"@{BOT_HANDLE} #bst new size=8 turn=1h")
        second = fake_bsky.post(ALICE, f"@{BOT_HANDLE} #bst new size=10 turn=2h")
        await poll()
        with store.transaction() as tx:
            games = {g.channel: g.id for g in tx.active_games()}
        assert set(games) == {first, second}
        number = games[second]
        fake_bsky.post(BOB, "#bst join", reply_to=first)
        fake_bsky.post(CAROL, f"#bst {number} join")  # names the game: anywhere
        await poll()
        with store.transaction() as tx:
            players = {c: {p.user_id for p in tx.players(g)} for c, g in games.items()}
        assert players[first] == {BOB}
        assert players[second] == {CAROL}
        for post in fake_bsky.bot_posts():
            assert post["value"]["reply"]["root"]["uri"] in (first, second) or (
                post["value"]["reply"]["root"]["uri"].startswith(f"at://{CAROL}")
            )
    finally:
        store.dispose()


async def test_a_player_who_takes_no_dms_from_the_bot_is_nudged_in_public(
    make_adapter: Any, fake_bsky: Any, tmp_path: Any
) -> None:
    """Their board cannot be sent: the host asks them in the game's thread to open their
    DMs, naming no secret (no ship, no cell of theirs)."""
    store = Store(sqlite_url(tmp_path / "b.db"))
    virtual = VirtualClock(START.timestamp())
    adapter = make_adapter(cursors=DatabaseCursors(store))
    host = bluesky_host(store, virtual, adapter)
    fake_bsky.people[BOB].accepts_dms = False

    async def poll() -> None:
        fake_bsky.tick(60)
        await adapter.fetch_since(host.cursors, host.on_inbound)
        await host.relay.flush()

    try:
        root = fake_bsky.post(CAROL, f"@{BOT_HANDLE} #bst new size=8 turn=1h")
        await poll()
        fake_bsky.post(ALICE, "#bst join", reply_to=root)
        fake_bsky.post(BOB, "#bst join", reply_to=root)
        await poll()
        fake_bsky.dm(BOB, "cruiser: F1-F3, cruiser: H6-H8")  # he may write; the bot may not
        fake_bsky.dm(ALICE, "sub: A2\ncarrier: C1-C5")
        await poll()
        fake_bsky.post(CAROL, "#bst start", reply_to=root)
        await poll()  # the battle's first boards go out by DM: bob's cannot
        nudges = [p for p in fake_bsky.bot_posts() if "direct messages" in p["value"]["text"]]
        assert nudges, [p["value"]["text"] for p in fake_bsky.bot_posts()]
        text = nudges[0]["value"]["text"]
        assert "@bob.bsky.social" in text and nudges[0]["value"]["reply"]["root"]["uri"] == root
        assert not any(secret in text for secret in ("F1", "H6", "cruiser"))
        # Bluesky has no menu of commands: the board is asked for by typing, nothing else.
        assert "Discord" not in text and "/bst" not in text and "`board`." in text
        assert fake_bsky.dms_to(BOB) == []
    finally:
        store.dispose()


async def test_with_a_web_page_the_private_link_comes_by_chat(
    make_adapter: Any, fake_bsky: Any, tmp_path: Any
) -> None:
    """Chat messages show no picture: the player's own page is the board in full."""
    store = Store(sqlite_url(tmp_path / "b.db"))
    adapter = make_adapter(cursors=DatabaseCursors(store))
    host = Host(
        store,
        VirtualClock(START.timestamp()),
        {"bluesky": adapter},
        AttachmentRenderer(store, AvatarCache(fetch=no_network), replay_gif=False),
        web_base_url="https://bst.example.org",
    )
    try:
        root = fake_bsky.post(CAROL, f"@{BOT_HANDLE} #bst new size=8 turn=1h")
        fake_bsky.post(ALICE, "#bst join", reply_to=root)
        await adapter.fetch_since(host.cursors, host.on_inbound)
        await host.relay.flush()
        links = [t for t in fake_bsky.dms_to(ALICE) if "https://bst.example.org/p/" in t]
        assert links
        linked = [v for v in fake_bsky.dm_views_to(ALICE) if v.get("facets")]
        assert linked and linked[0]["facets"][0]["features"][0]["uri"].startswith(
            "https://bst.example.org/p/"
        )
        assert not any("/p/" in p["value"]["text"] for p in fake_bsky.bot_posts())
    finally:
        store.dispose()


async def test_chatter_with_the_tag_found_by_search_gets_no_answer(
    make_adapter: Any, fake_bsky: Any, tmp_path: Any
) -> None:
    """The search reads anyone's post with the tag: talk about the game is no command,
    and a bot that answers strangers who used a hashtag is labelled spam."""
    store = Store(sqlite_url(tmp_path / "b.db"))
    adapter = make_adapter(cursors=DatabaseCursors(store))
    host = bluesky_host(store, VirtualClock(START.timestamp()), adapter)
    try:
        fake_bsky.post(CAROL, "loving the #bst games this week, so tense")
        await adapter.fetch_since(host.cursors, host.on_inbound)
        await host.relay.flush()
        assert fake_bsky.bot_posts() == [] and fake_bsky.messages == []
    finally:
        store.dispose()
