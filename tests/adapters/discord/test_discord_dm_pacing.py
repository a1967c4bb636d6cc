"""New DMs are opened at a pace, and only DMs wait for it: a turn's public post, a reminder
or an answer never queues behind DMs being opened, and Discord's 40003 ("opening direct
messages too fast") pauses new DMs for about a minute, longer on each 40003 in a row, the
refused recipient going again with the rest. Through the production relay and the strict
fake Discord, on one virtual clock (the relay's, the DM pace's and the fake's window)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from discord_fake import CHANNEL_ID, USER_ID, FakeDiscord

from bot.adapters.discord import DiscordAdapter
from bot.adapters.discord.sending import DM_OPEN_FIRST_BACKOFF
from bot.host.messages import Address, Attachment, DeliveryError, Outbound
from bot.host.outbox.relay import Relay
from bot.host.runtime.clock import VirtualClock
from bot.store import OutboxRow, Store, dumps
from bot.wiring import sqlite_url

OPENS = "/users/@me/channels"
CHANNEL_POSTS = f"/channels/{CHANNEL_ID}/messages"


async def no_attachments(row: OutboxRow) -> Sequence[Attachment]:
    return ()


class Table:
    """A store, the relay on a virtual clock, and the adapter whose DM pace and the fake's
    DM-open window run on that clock too (a pace's wait moves it on)."""

    def __init__(self, adapter: DiscordAdapter, fake: FakeDiscord, tmp_path: Path) -> None:
        self.adapter, self.fake = adapter, fake
        self.clock = VirtualClock()
        self.store = Store(sqlite_url(tmp_path / "pacing.db"))
        self.relay = Relay(self.store, self.clock, {"discord": adapter}, no_attachments)
        fake.clock = self.clock.now
        adapter._delivery.dms.clock = self.clock.now

        async def sleep(seconds: float) -> None:
            self.clock.advance(max(0.0, seconds))
            await asyncio.sleep(0)

        adapter._delivery.dms.sleep = sleep

    def write(self, *addresses: dict[str, Any]) -> list[int]:
        ids = []
        with self.store.transaction() as tx:
            for n, address in enumerate(addresses):
                row = OutboxRow(
                    game_id=0,
                    turn=0,
                    kind=f"news-{len(ids)}-{n}-{self.clock.now()}",
                    recipient=address.get("user_id") or "",
                    address=dumps({"platform": "discord", **address}),
                    text=f"message {n}",
                    created_at=self.clock.now(),
                )
                assert tx.enqueue(row) and row.id is not None
                ids.append(row.id)
        return ids

    def rows(self) -> dict[int, OutboxRow]:
        with self.store.transaction() as tx:
            return {row.id or 0: row for row in tx.outbox()}

    def index_of(self, method: str, path: str) -> list[int]:
        return [
            i for i, r in enumerate(self.fake.requests) if r.method == method and r.path == path
        ]

    def dm_recipients(self) -> list[int]:
        """The users DMs were posted to, in the order posted."""
        by_channel = {
            int(channel["id"]): int(channel["recipients"][0]["id"])
            for channel in self.fake.channels.values()
            if channel.get("type") == 1
        }
        posted = []
        for request in self.fake.requests:
            if request.method == "POST" and request.path.endswith("/messages"):
                channel = int(request.path.split("/")[2])
                if channel in by_channel:
                    posted.append(by_channel[channel])
        return posted


@pytest.fixture
async def table(
    make_adapter: Any, inbox: Any, fake_discord: FakeDiscord, tmp_path: Path
) -> AsyncIterator[Table]:
    # Without the global pacing (its real waits are not the point here).
    adapter = make_adapter(requests_per_second=0, dm_opens_per_minute=60)
    await adapter.login(inbox)
    made = Table(adapter, fake_discord, tmp_path)
    try:
        yield made
    finally:
        await adapter.stop()
        made.store.dispose()


def dm(user: int) -> dict[str, Any]:
    return {"channel": str(CHANNEL_ID), "user_id": str(user), "user_name": f"captain {user}"}


async def test_a_public_post_never_waits_for_dms_being_opened(table: Table) -> None:
    """105 captains' start boards open their DMs at 60 a minute; the turn's map and a DM
    to a captain whose channel is open, written after them, go at once."""
    await table.adapter.send(
        Address("discord", channel=str(CHANNEL_ID), user_id=str(USER_ID)),
        Outbound("Welcome.", key="earlier"),
    )
    boards = table.write(*(dm(USER_ID + 100 + n) for n in range(60)))
    table.write({"channel": str(CHANNEL_ID)}, dm(USER_ID))
    await table.relay.flush()

    opens = table.index_of("POST", OPENS)
    assert len(opens) == 1 + len(boards)  # each new DM opened once, none refused
    [public] = table.index_of("POST", CHANNEL_POSTS)
    assert public < opens[40], "the public post waited for DMs being opened"
    # The captain whose DM is open gets theirs as early (their channel opened before).
    assert table.dm_recipients().index(USER_ID, 1) < 40
    assert all(row.status == "sent" for row in table.rows().values())


async def test_40003_pauses_new_dms_a_minute_then_longer_and_resets_on_success(
    table: Table,
) -> None:
    refusal = {"message": "You are opening direct messages too fast.", "code": 40003}
    adapter, fake, clock = table.adapter, table.fake, table.clock

    async def board(user: int) -> str:
        return await adapter.send(
            Address("discord", **dm(user)), Outbound("Board.", key=f"b{user}")
        )

    fake.fail_next("POST", OPENS, 403, refusal)
    with pytest.raises(DeliveryError) as first:
        await board(USER_ID + 1)
    assert first.value.retry_after == pytest.approx(DM_OPEN_FIRST_BACKOFF)
    # the lane of DM opens waits (only DMs still to open travel in it)
    assert first.value.per_recipient is False and first.value.permanent is False
    opened = len(fake.requests_to("POST", OPENS))
    with pytest.raises(DeliveryError) as paused:
        await board(USER_ID + 2)
    assert 0 < (paused.value.retry_after or 0) <= DM_OPEN_FIRST_BACKOFF
    assert len(fake.requests_to("POST", OPENS)) == opened  # no open tried meanwhile

    clock.advance(DM_OPEN_FIRST_BACKOFF)
    fake.fail_next("POST", OPENS, 403, refusal)
    with pytest.raises(DeliveryError) as second:
        await board(USER_ID + 1)
    assert second.value.retry_after == pytest.approx(2 * DM_OPEN_FIRST_BACKOFF)  # in a row

    clock.advance(2 * DM_OPEN_FIRST_BACKOFF)
    await board(USER_ID + 1)  # Discord accepts new DMs again
    fake.fail_next("POST", OPENS, 403, refusal)
    with pytest.raises(DeliveryError) as after_success:
        await board(USER_ID + 2)
    assert after_success.value.retry_after == pytest.approx(DM_OPEN_FIRST_BACKOFF)


async def test_the_refused_recipient_goes_again_with_the_rest_after_a_minute(
    table: Table,
) -> None:
    """Discord lets 8 new DMs open a minute here: the 9th is refused (40003); a minute
    later the DMs still to open resume, the refused one first, and nothing else waited."""
    table.fake.dm_open_limit = (8, 60.0)
    users = [USER_ID + 100 + n for n in range(12)]
    boards = table.write(*(dm(user) for user in users))
    [public] = table.write({"channel": str(CHANNEL_ID)})
    await table.relay.flush()
    rows = table.rows()
    assert rows[public].status == "sent"  # the channel never waits for DMs
    waiting = [i for i in boards if rows[i].status == "pending"]
    refused = waiting[0]
    assert "40003" in rows[refused].error
    assert rows[refused].next_attempt_at - table.clock.now() <= DM_OPEN_FIRST_BACKOFF

    table.clock.set(max(rows[i].next_attempt_at for i in waiting))
    await table.relay.flush()
    rows = table.rows()
    assert rows[refused].status == "sent", "the refused recipient was not retried with the rest"
    # every captain's board in the order written: the refused one before those after it
    sent = table.dm_recipients()
    assert sent[: len(users) - len(waiting) + 1] == users[: len(users) - len(waiting) + 1]


async def test_after_a_40003_new_dms_resume_at_a_slower_pace(table: Table) -> None:
    """The pace Discord refused is one it does not accept: after the pause, new DMs open
    at half of it, coming back towards the configured pace as they go through."""
    adapter, fake, clock = table.adapter, table.fake, table.clock
    opener = adapter._delivery.dms
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        clock.advance(max(0.0, seconds))
        await asyncio.sleep(0)

    opener.sleep = sleep

    async def board(user: int) -> None:
        await adapter.send(Address("discord", **dm(user)), Outbound("Board.", key=f"b{user}"))

    for n in range(6):  # the burst, then one at the configured pace (1 s)
        await board(USER_ID + 10 + n)
    assert waits == [pytest.approx(1.0)]
    fake.fail_next(
        "POST", OPENS, 403, {"message": "You are opening direct messages too fast.", "code": 40003}
    )
    with pytest.raises(DeliveryError) as refused:
        await board(USER_ID + 20)
    clock.advance(refused.value.retry_after or 0)
    waits.clear()
    for n in range(3):
        await board(USER_ID + 30 + n)
    assert waits[0] == pytest.approx(2.0)  # half the pace
    assert waits[0] > waits[1] > waits[2] > 1.0  # coming back as DMs go through
