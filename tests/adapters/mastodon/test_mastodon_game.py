"""Whole games on Mastodon through the real host, the real Mastodon.py and the fake.

Mentions are read by the adapter (polled here, one explicit catch-up a step, as at a
deadline), recorded by the host with the adapter's cursor in the database; maps go out
as public posts with their pictures and alt text, boards as direct posts.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime, timedelta
from typing import Any

from fake_mastodon import FakeMastodon, Posted

import bot.games.bst  # noqa: F401  (registers the game)
from bot.host.outbox.attachments import AttachmentRenderer
from bot.host.outbox.avatar_cache import AvatarCache
from bot.host.runtime.clock import VirtualClock
from bot.host.runtime.service import Host
from bot.store import DatabaseCursors, Store
from bot.wiring import no_network, sqlite_url

START = datetime(2026, 7, 26, 9, 0, tzinfo=UTC)


def _handles_in(status: Posted, fake: FakeMastodon) -> set[str]:
    """Every account a status names with an @handle Mastodon reads as a mention."""
    return {account.id for account in fake._mentioned(status.text)}


async def test_a_whole_bst_game_by_mentions_and_direct_posts(
    make_adapter: Any, fake: FakeMastodon, tmp_path: Any
) -> None:
    store = Store(sqlite_url(tmp_path / "m.db"))
    clock = VirtualClock(START.timestamp())
    cursors = DatabaseCursors(store)
    adapter = make_adapter(cursors, config={"stream": False, "backfill": True})
    host = Host(
        store,
        clock,
        {"mastodon": adapter},
        AttachmentRenderer(store, AvatarCache(fetch=no_network), replay_gif=False),
    )
    operator = fake.add_account("harbourmaster", "Harbour Master")
    alice = fake.add_account("alice", "Alice")
    bob = fake.add_account("bob", "Bob", domain="elsewhere.example")

    async def step() -> None:
        await adapter.fetch_since(host.cursors, host.on_inbound)
        await host.relay.flush()

    try:
        # What start() does first: private mentions from strangers are let through.
        await adapter.set_up_account()
        root = fake.mention(operator, "#bst new size=8 turn=1h")
        await step()
        opened = [s for s in fake.posts_by_bot("public") if "is open" in s.text]
        assert [s.in_reply_to_id for s in opened] == [root]
        fake.mention(alice, "#bst join", in_reply_to_id=opened[0].id)
        fake.dm(alice, "sub: A2\ncarrier: C1-C5")
        fake.dm(bob, "#bst 1 join")
        fake.dm(bob, "cruiser: F1-F3, cruiser: H6-H8")
        await step()
        fake.mention(operator, "#bst start", in_reply_to_id=root)
        await step()
        for cell in ("F1", "F2", "F3", "H6", "H7", "H8"):
            # Stamped by the instance within the turn (an order counts for the turn of its
            # stamp): the host's clock here is a virtual one.
            stamp = datetime.fromtimestamp(clock.now() + 60, UTC)
            fake.mention(alice, f"#bst {cell}", in_reply_to_id=root, created_at=stamp)
            with store.transaction() as tx:
                game = tx.game(1)
                assert game is not None and game.phase == "battle", _dump(fake)
                deadline = game.deadline
            clock.set(deadline)
            await host.tick()  # catches up through the adapter first, then resolves
        with store.transaction() as tx:
            game = tx.game(1)
            assert game is not None and game.phase == "finished", _dump(fake)
        public = fake.posts_by_bot("public")
        turns = [s for s in public if "turn " in s.text and "Shots:" in s.text]
        assert len(turns) == 6 and all(s.in_reply_to_id for s in turns)
        assert all(s.media and all(m["description"] for m in s.media) for s in turns)
        # A name reads as one, and is no mention (its @ is defused: #40, 11).
        assert any("@\u200dalice wins" in s.text for s in public), _dump(fake)
        # Boards went privately, with their pictures, each to its one captain.
        to_bob = fake.direct_to(bob)
        assert to_bob and any(s.media for s in to_bob)
        players = {alice.id, bob.id, operator.id}
        for status in fake.posts_by_bot("direct"):
            [recipient] = status.audience
            assert _handles_in(status, fake) & players == {recipient}, status.text
        assert any("alice" in s.text for s in to_bob), "named, without the @"
        assert all(len(s.text) <= fake.max_characters for s in fake.posts_by_bot())
        before = len(fake.statuses)
        await host.tick()
        assert len(fake.statuses) == before, "nothing sent twice"
    finally:
        store.dispose()


async def test_one_account_runs_two_games_each_in_its_thread(
    make_adapter: Any, fake: FakeMastodon, tmp_path: Any
) -> None:
    store = Store(sqlite_url(tmp_path / "m.db"))
    clock = VirtualClock(START.timestamp())
    cursors = DatabaseCursors(store)
    adapter = make_adapter(cursors, config={"stream": False, "backfill": True})
    host = Host(
        store,
        clock,
        {"mastodon": adapter},
        AttachmentRenderer(store, AvatarCache(fetch=no_network), replay_gif=False),
    )
    operator = fake.add_account("harbourmaster", "Harbour Master")
    alice = fake.add_account("alice", "Alice")
    bob = fake.add_account("bob", "Bob")
    carol = fake.add_account("carol", "Carol")

    async def step(minutes: int) -> None:
        clock.set((START + timedelta(minutes=minutes)).timestamp())
        await adapter.fetch_since(host.cursors, host.on_inbound)
        await host.relay.flush()

    try:
        first = fake.mention(operator, "#bst new size=8 turn=1h")
        second = fake.mention(alice, "#bst new size=10 turn=2h")
        await step(1)
        with store.transaction() as tx:
            games = {g.channel: g.id for g in tx.active_games()}
        assert set(games) == {first, second}
        number = games[second]
        answer = next(s for s in fake.posts_by_bot() if s.in_reply_to_id == first)
        fake.mention(bob, "#bst join", in_reply_to_id=answer.id)  # deep in the first thread
        fake.mention(carol, f"#bst {number} join")  # names the second game
        await step(2)
        with store.transaction() as tx:
            players = {c: {p.user_id for p in tx.players(g)} for c, g in games.items()}
        assert players == {first: {bob.id}, second: {carol.id}}
    finally:
        store.dispose()


def _dump(fake: FakeMastodon) -> str:
    return "\n".join(
        f"{s.account.username} {s.visibility} {s.in_reply_to_id}: {s.text[:150]!r}"
        for s in fake.statuses.values()
    )


async def _connected(fake: FakeMastodon, connections: int) -> None:
    for _ in range(400):
        if fake.streams and fake.stream_connections >= connections:
            await asyncio.sleep(0.2)  # the poll that follows the connection
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the adapter never connected to the stream")


async def test_thirty_captains_lose_nothing_across_a_503_a_429_a_stream_drop_and_a_restart(
    make_adapter: Any, fake: FakeMastodon, tmp_path: Any
) -> None:
    """Issue 40: a whole game of 30 captains on the strict fake, through the host and the
    stream: a 503 on posting, a 429 on the catch-up, a dropped stream and a restart
    lose no order and no board; the statuses and media budgets hold."""
    fake.requests_per_window = 1500  # Mastodon's own API budget per account
    store = Store(sqlite_url(tmp_path / "m.db"))
    clock = VirtualClock(START.timestamp())
    cursors = DatabaseCursors(store)
    operator = fake.add_account("harbourmaster", "Harbour Master")
    captains = [fake.add_account(f"captain{n}", f"Captain {n}") for n in range(30)]
    live: dict[str, Any] = {}

    async def run() -> None:
        adapter = make_adapter(cursors, config={"backfill": True})
        host = Host(
            store,
            clock,
            {"mastodon": adapter},
            AttachmentRenderer(store, AvatarCache(fetch=no_network), replay_gif=False),
        )
        live.update(adapter=adapter, host=host)
        await adapter.start(host.on_inbound)

    async def step() -> None:
        await asyncio.sleep(0.3)  # what the stream brings is handed over
        clock.advance(300)  # a retried send is due again
        with contextlib.suppress(Exception):  # a 429 on the catch-up: the next one reads
            await live["adapter"].fetch_since(live["host"].cursors, live["host"].on_inbound)
        await live["host"].relay.flush()

    def game() -> Any:
        with store.transaction() as tx:
            return tx.game(1)

    async def play_turn(turn: int, sent: list[str], *, trouble: Any) -> None:
        stamp = datetime.fromtimestamp(clock.now() + 60, UTC)
        for n, captain in enumerate(captains):
            if n == 15:
                await trouble()
            cell = f"{'ABCDEFGHIJKLMNOPQRST'[n % 20]}{turn + n // 20 * 10}"
            sent.append(fake.mention(captain, f"#bst {cell}", in_reply_to_id=root,
                                     created_at=stamp))  # fmt: skip
        await step()
        clock.set(game().deadline)
        for _ in range(5):
            await live["host"].tick()
            if game().turn > turn or game().phase == "finished":
                return
            await step()
        raise AssertionError(_dump(fake))

    try:
        await run()
        await _connected(fake, 1)
        root = fake.mention(operator, "#bst new size=20 turn=1h")
        await step()
        fake.fail_next("POST", "/api/v1/statuses", 503)  # one answer fails, then goes
        joins = [fake.mention(c, "#bst join", in_reply_to_id=root) for c in captains]
        placements = [fake.dm(c, "#bst 1 random") for c in captains]
        for _ in range(3):
            await step()
        fake.mention(operator, "#bst start", in_reply_to_id=root)
        for _ in range(2):
            await step()
        assert game().phase == "battle", _dump(fake)
        with store.transaction() as tx:
            assert len(tx.players(1)) == 30
        orders: list[str] = []

        async def drop_and_throttle() -> None:
            await fake.drop_streams()
            fake.fail_next("GET", "/api/v1/notifications", 429)

        await play_turn(1, orders, trouble=drop_and_throttle)
        await _connected(fake, 2)

        async def restart() -> None:
            await live["adapter"].stop()
            await fake.drop_streams()

        await play_turn(2, orders, trouble=restart)
        await run()  # the restart: the cursors are in the database
        await step()
        for _ in range(3):
            await step()
        with store.transaction() as tx:
            unseen = [m for m in [*joins, *placements, *orders]
                      if not tx.inbound_seen("mastodon", m)]  # fmt: skip
            assert unseen == [], "every mention read once"
            assert len(tx.orders_of_turn(1, 1)) == len(tx.orders_of_turn(1, 2)) == 30
            undelivered = [(r.id, r.status, r.text[:60]) for r in tx.outbox() if r.status != "sent"]
            assert undelivered == []
        for captain in captains:
            # The start board and each turn's: a picture, or past the media budget the
            # board in words; always to this captain alone.
            boards = fake.direct_to(captain)
            assert len(boards) >= 3 and all(s.audience == {captain.id} for s in boards)
        assert all(len(s.text) <= fake.max_characters for s in fake.posts_by_bot())
        assert len(fake.uploads) <= 30 * (1 + len(fake.uploads_in_window))
        # Past the 30 uploads a half hour, boards went as text (none waited).
        assert any(s.media for s in fake.posts_by_bot("direct"))
        assert any(not s.media for s in fake.posts_by_bot("direct"))
    finally:
        await live["adapter"].stop()
        store.dispose()
