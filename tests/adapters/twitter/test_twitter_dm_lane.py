"""X's DMs go at their own pace ([twitter] dms_per_minute) in a relay lane of their own:
a turn's public post never waits behind a deadline's boards. Through the production relay
and the fake X, the pace's waits moving the adapter's clock."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fake_x_api import FakeX
from x_support import ALICE, BOB

from bot.config import TwitterConfig
from bot.host.messages import Attachment
from bot.host.outbox.relay import Relay
from bot.host.runtime.clock import VirtualClock
from bot.store import OutboxRow, Store, dumps
from bot.wiring import sqlite_url

DM_ROUTE = "POST /2/dm_conversations/with/{participant_id}/messages"
POST_ROUTE = "POST /2/tweets"


async def no_attachments(row: OutboxRow) -> Sequence[Attachment]:
    return ()


async def test_a_public_post_never_waits_behind_paced_dms(
    fake_x: FakeX, make_adapter: Any, clock: Any, tmp_path: Path
) -> None:
    async def paced_sleep(seconds: float) -> None:
        clock.now += max(0.0, seconds)  # the pace's wait passes (virtually)
        await asyncio.sleep(0)

    config = TwitterConfig(enabled=True, bot_user_id=fake_x.bot_id, dms_per_minute=12)
    adapter = make_adapter(config=config, sleep=paced_sleep)
    store = Store(sqlite_url(tmp_path / "x.db"))
    relay = Relay(store, VirtualClock(), {"twitter": adapter}, no_attachments)
    try:
        with store.transaction() as tx:
            for n in range(20):  # a deadline's boards, by DM
                user = (BOB, ALICE)[n % 2]
                address = {"platform": "twitter", "user_id": user, "user_name": user}
                tx.enqueue(OutboxRow(game_id=0, turn=0, kind=f"board-{n}", recipient=user,
                                     address=dumps(address), text=f"Your board {n}",
                                     created_at=0.0))  # fmt: skip
            tx.enqueue(OutboxRow(game_id=0, turn=0, kind="map", recipient="",
                                 address=dumps({"platform": "twitter", "channel": "timeline"}),
                                 text="#bst game 1 · turn 1: the map", created_at=0.0))  # fmt: skip
        await relay.flush()
        order = [f"{method} {template}" for method, template, _ in fake_x.log]
        dms = [i for i, call in enumerate(order) if call == DM_ROUTE]
        [post] = [i for i, call in enumerate(order) if call == POST_ROUTE]
        assert len(dms) == 20
        assert post < dms[5], "the public post waited behind the DMs' pace"
    finally:
        store.dispose()
