"""Bluesky's chat messages go at their own pace ([bluesky] dms_per_minute) in a relay lane
of their own: a turn's public post never waits behind a deadline's boards. Through the
production relay and the fake PDS and chat service, the pace's waits moving the adapter's
clock (virtual time: nothing here waits or measures a wall clock)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bluesky_support import FakeClock
from fake_bluesky import ALICE, BOB, BOT_HANDLE, CAROL, FakeBluesky

from bot.adapters.bluesky.platform import BlueskyConfig
from bot.host.messages import Attachment
from bot.host.outbox.relay import Relay
from bot.host.runtime.clock import VirtualClock
from bot.store import OutboxRow, Store, dumps
from bot.wiring import sqlite_url

DM_CALL = ("POST", "chat.bsky.convo.sendMessage")
POST_CALL = ("POST", "com.atproto.repo.createRecord")


async def no_attachments(row: OutboxRow) -> Sequence[Attachment]:
    return ()


async def test_a_public_post_never_waits_behind_paced_dms(
    fake_bsky: FakeBluesky, make_adapter: Any, clock: FakeClock, tmp_path: Path
) -> None:
    async def paced_sleep(seconds: float) -> None:
        clock.now += max(0.0, seconds)  # the pace's wait passes (virtually)
        await asyncio.sleep(0)

    root = fake_bsky.post(CAROL, f"@{BOT_HANDLE} #bst new")
    config = BlueskyConfig(enabled=True, handle=BOT_HANDLE, dms_per_minute=12)
    adapter = make_adapter(config=config, sleep=paced_sleep)
    store = Store(sqlite_url(tmp_path / "bsky.db"))
    relay = Relay(store, VirtualClock(), {"bluesky": adapter}, no_attachments)
    try:
        with store.transaction() as tx:
            for n in range(20):  # a deadline's boards, by chat message
                user = (BOB, ALICE)[n % 2]
                address = {"platform": "bluesky", "user_id": user, "user_name": user}
                tx.enqueue(OutboxRow(game_id=0, turn=0, kind=f"board-{n}", recipient=user,
                                     address=dumps(address), text=f"Your board {n}",
                                     created_at=0.0))  # fmt: skip
            tx.enqueue(OutboxRow(game_id=0, turn=0, kind="map", recipient="",
                                 address=dumps({"platform": "bluesky", "channel": root}),
                                 text="#bst game 1 · turn 1: the map", created_at=0.0))  # fmt: skip
        await relay.flush()
        sends = [call for call in fake_bsky.requests if call in (DM_CALL, POST_CALL)]
        dms = [i for i, call in enumerate(sends) if call == DM_CALL]
        [post] = [i for i, call in enumerate(sends) if call == POST_CALL]
        assert len(dms) == 20
        assert post < dms[5], "the public post waited behind the DMs' pace"
        assert fake_bsky.dms_to(ALICE) and fake_bsky.bot_posts()
    finally:
        store.dispose()
