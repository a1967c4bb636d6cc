"""One bad post never stops X (issue 24, item 1): the poll hands every mention and DM
over once, the answers go out, and the cursors move past them — a number out of any
range, a message that makes the host fail, a post the adapter cannot read."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from x_support import ALICE, BOB

import bot.games.bst  # noqa: F401  (registers the game)
from bot.adapters.twitter import catch_up
from bot.adapters.twitter.catch_up import DM_CURSOR, MENTIONS_CURSOR
from bot.host import lobby
from bot.host.attachments import AttachmentRenderer
from bot.host.avatar_cache import AvatarCache
from bot.host.clock import VirtualClock
from bot.host.inbox import FAILED_REPLY
from bot.host.service import Host
from bot.store import DatabaseCursors, Store
from bot.wiring import no_network, sqlite_url

START = datetime(2026, 7, 26, 9, 0, tzinfo=UTC)
HUGE = "99999999999999999999"


def at(minutes: int) -> str:
    return (START + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%S.000Z")


class XTable:
    def __init__(self, make_adapter: Any, tmp_path: Any) -> None:
        self.store = Store(sqlite_url(tmp_path / "x.db"))
        self.clock = VirtualClock(START.timestamp())
        self.adapter = make_adapter(cursors=DatabaseCursors(self.store))
        self.host = Host(
            self.store,
            self.clock,
            {"twitter": self.adapter},
            AttachmentRenderer(self.store, AvatarCache(fetch=no_network), replay_gif=False),
        )

    async def poll(self) -> int:
        handled = int(await self.adapter.fetch_since(self.host.cursors, self.host.on_inbound))
        await self.host.relay.flush()
        return handled

    async def cursor(self, key: str) -> str | None:
        return await self.host.cursors.get("twitter", key)


@pytest.fixture
def table(make_adapter: Any, tmp_path: Any):
    made = XTable(make_adapter, tmp_path)
    yield made
    made.store.dispose()


async def test_overflowing_numbers_are_refused_and_the_poller_moves_on(table: XTable, fake_x):
    fake_x.mention(ALICE, "@bstbot #bst new turn=99999999999d", created_at=at(1))
    fake_x.mention(ALICE, f"@bstbot #bst new seed={HUGE}", created_at=at(1))
    last_mention = fake_x.mention(BOB, "@bstbot #bst new size=8", created_at=at(2))
    fake_x.dm(ALICE, f"join {HUGE}")
    last_dm = fake_x.dm(BOB, "join 1")
    assert await table.poll() == 5
    assert await table.cursor(MENTIONS_CURSOR) == last_mention
    assert await table.cursor(DM_CURSOR) == last_dm
    answers = [p["text"] for p in fake_x.posts] + [body["text"] for _, body in fake_x.dms]
    assert any("at most 365d" in text for text in answers), answers
    assert any("from 0 to 999999999999999999" in text for text in answers), answers
    assert any(f"no game {HUGE} you can join" in text for text in answers), answers
    with table.store.transaction() as tx:
        (game,) = tx.active_games()
        assert {p.user_id for p in tx.players(game.id)} == {BOB}
    # Nothing is read, or answered, twice.
    sent = (len(fake_x.posts), len(fake_x.dms))
    assert await table.poll() == 0
    assert (len(fake_x.posts), len(fake_x.dms)) == sent


async def test_a_post_that_makes_the_host_fail_is_answered_and_passed(
    table: XTable, fake_x, monkeypatch: pytest.MonkeyPatch
):
    real_new, real_games = lobby.new, lobby.my_games

    def new(commands, tx, row, rest):
        if "poison" in row.text:
            raise OverflowError("Python int too large to convert to C int")
        return real_new(commands, tx, row, rest)

    def my_games(commands, tx, row):
        if "poison" in row.text:
            raise OverflowError("Python int too large to convert to C int")
        return real_games(commands, tx, row)

    monkeypatch.setattr(lobby, "new", new)
    monkeypatch.setattr(lobby, "my_games", my_games)
    fake_x.mention(ALICE, "@bstbot #bst new poison=1", created_at=at(1))
    last = fake_x.mention(BOB, "@bstbot #bst new size=8", created_at=at(2))
    # (By DM, a verb the host answers there: `new` by DM is refused before any handler.)
    fake_x.dm(ALICE, "games poison")
    assert await table.poll() == 3
    assert await table.cursor(MENTIONS_CURSOR) == last
    assert [body["text"] for _, body in fake_x.dms].count(FAILED_REPLY) == 2
    with table.store.transaction() as tx:
        assert len(tx.active_games()) == 1
    assert await table.poll() == 0  # the failed ones are not read again


async def test_a_post_the_adapter_cannot_read_is_passed_over(
    table: XTable, fake_x, monkeypatch: pytest.MonkeyPatch
):
    real = catch_up.post_inbound

    def post_inbound(post, users, channel, text):
        if "unreadable" in text:
            raise KeyError("created_at")
        return real(post, users, channel, text)

    monkeypatch.setattr(catch_up, "post_inbound", post_inbound)
    fake_x.mention(ALICE, "@bstbot #bst unreadable", created_at=at(1))
    last = fake_x.mention(BOB, "@bstbot #bst new size=8", created_at=at(2))
    assert await table.poll() == 1
    assert await table.cursor(MENTIONS_CURSOR) == last


async def test_a_game_number_of_five_thousand_digits_is_just_text(table: XTable, fake_x):
    last = fake_x.mention(ALICE, "@bstbot #bst " + "7" * 5000 + " join", created_at=at(1))
    assert await table.poll() == 1
    assert await table.cursor(MENTIONS_CURSOR) == last
