"""The relay sends to several places at once where the platform takes it, each place's
messages in order, a retried message never overtaken, and a relay killed mid-deadline
loses and doubles nothing."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest
from host_fakes import HostKit, RecordingAdapter, no_attachments

from bot.host.messages import Address, Capabilities, DeliveryError, Outbound
from bot.host.outbox import relay as outbox
from bot.host.outbox.relay import Relay
from bot.store import OutboxRow, dumps


class SlowPlatform(RecordingAdapter):
    """Each send takes a while (a random few milliseconds); sends with a key already
    delivered are not posted again (Discord's nonce), and the fake counts how many sends
    are in flight at once, overall and per place."""

    def __init__(self, sends_at_once: int) -> None:
        super().__init__("slow")
        self.capabilities = Capabilities(sends_at_once=sends_at_once)
        self.in_flight: dict[str, int] = {}
        self.most_at_once = 0
        self.most_at_one_place = 0
        self.posted: dict[str, int] = {}  # key -> times posted on the platform
        self.repeated = 0  # sends of a key already posted
        self.order: dict[str, list[int]] = {}  # place -> row ids in the order posted
        self.rng = random.Random(7)
        # Hold the first sends until the bound is reached (or 2 s pass), so "several at
        # once" is seen however slowly a loaded machine lets the relay start them.
        self.wait_for_the_bound = False
        self._bound_reached = asyncio.Event()

    async def send(self, address: Address, outbound: Outbound) -> str:
        place = address.user_id or address.channel
        self.in_flight[place] = self.in_flight.get(place, 0) + 1
        try:
            self.most_at_once = max(self.most_at_once, sum(self.in_flight.values()))
            self.most_at_one_place = max(self.most_at_one_place, self.in_flight[place])
            if self.wait_for_the_bound and not self._bound_reached.is_set():
                if sum(self.in_flight.values()) >= self.capabilities.sends_at_once:
                    self._bound_reached.set()
                else:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._bound_reached.wait(), 2.0)
            if self.fail:
                raise self.fail.pop(0)
            if outbound.key in self.posted:
                self.repeated += 1  # the nonce: the platform answers with the first post
            else:
                self.order.setdefault(place, []).append(int(outbound.key.split("-")[1]))
                self.posted[outbound.key] = 1
            self.sent.append((address, outbound))
            # the platform has it; its answer takes a while to come back
            await asyncio.sleep(self.rng.uniform(0.001, 0.01))
            return f"m-{outbound.key}"
        finally:
            self.in_flight[place] -= 1


def write_rows(kit: HostKit, places: list[str], count: int) -> list[int]:
    """``count`` rows spread over ``places`` (DMs), round robin; their ids."""
    ids = []
    with kit.store.transaction() as tx:
        for n in range(count):
            user = places[n % len(places)]
            row = OutboxRow(
                game_id=0,
                turn=0,
                kind=f"board-{n}",
                recipient=user,
                address=dumps({"platform": "slow", "user_id": user, "user_name": user}),
                text=f"board {n} for {user}",
                created_at=kit.clock.now(),
            )
            assert tx.enqueue(row) and row.id is not None
            ids.append(row.id)
    return ids


def test_sends_go_to_several_places_at_once_each_place_in_order(kit: HostKit) -> None:
    platform = SlowPlatform(sends_at_once=4)
    platform.wait_for_the_bound = True
    relay = Relay(kit.store, kit.clock, {"slow": platform}, no_attachments)
    places = [f"u{n}" for n in range(10)]
    write_rows(kit, places, 60)
    assert asyncio.run(relay.flush()) == 60
    assert platform.most_at_once == 4  # concurrency happens, within the bound
    assert platform.most_at_one_place == 1  # never two at once to one place
    for place in places:
        sent = platform.order[place]
        assert sent == sorted(sent) and len(sent) == 6
    assert all(row.status == "sent" for row in kit.outbox())


def test_without_sends_at_once_everything_goes_strictly_in_id_order(kit: HostKit) -> None:
    platform = SlowPlatform(sends_at_once=1)
    relay = Relay(kit.store, kit.clock, {"slow": platform}, no_attachments)
    ids = write_rows(kit, ["a", "b", "c"], 12)
    assert asyncio.run(relay.flush()) == 12
    assert platform.most_at_once == 1
    assert [int(o.key.split("-")[1]) for _, o in platform.sent] == ids


def test_a_retried_message_is_not_overtaken_by_a_later_one_to_the_same_place(
    kit: HostKit,
) -> None:
    platform = SlowPlatform(sends_at_once=4)
    relay = Relay(kit.store, kit.clock, {"slow": platform}, no_attachments)
    ids = write_rows(kit, ["a", "b"], 6)  # a: ids[0], ids[2], ids[4]; b: the others
    platform.fail = [DeliveryError("502 Bad Gateway")]  # the first send (a's first) fails
    assert asyncio.run(relay.flush()) == 3  # b's three go; a's later two wait
    assert platform.order == {"b": [ids[1], ids[3], ids[5]]}
    assert asyncio.run(relay.flush()) == 0  # a's first is backing off: a still waits
    kit.clock.advance(outbox.backoff(1))
    assert asyncio.run(relay.flush()) == 3
    assert platform.order["a"] == [ids[0], ids[2], ids[4]]


def test_a_relay_killed_mid_deadline_delivers_every_board_once(kit: HostKit) -> None:
    """The relay is cancelled in the middle of a storm of boards, with sends in flight
    (some posted, their answers not yet back); a new relay, once the leases run out,
    finishes: every board posted exactly once, each player's in order."""
    platform = SlowPlatform(sends_at_once=8)
    places = [f"captain{n}" for n in range(40)]
    ids = write_rows(kit, places, 400)

    async def killed_mid_way() -> None:
        relay = Relay(kit.store, kit.clock, {"slow": platform}, no_attachments)
        wake = asyncio.Event()
        wake.set()
        running = asyncio.create_task(relay.run(wake))
        while len(platform.posted) < 150:
            await asyncio.sleep(0.001)
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running

    asyncio.run(killed_mid_way())
    assert 150 <= len(platform.posted) < 400
    left = [r for r in kit.outbox() if r.status == "pending"]
    assert left
    kit.clock.advance(outbox.CLAIM_SECONDS + 1)  # the dead relay's leases run out
    fresh = Relay(kit.store, kit.clock, {"slow": platform}, no_attachments)
    asyncio.run(fresh.flush())
    assert sorted(int(key.split("-")[1]) for key in platform.posted) == ids
    assert set(platform.posted.values()) == {1}  # none doubled on the platform
    # rows the platform had posted when the relay died were sent again by the new relay,
    # and not doubled thanks to their keys
    assert platform.repeated >= 1
    assert all(r.status == "sent" for r in kit.outbox())
    for place in places:
        assert platform.order[place] == sorted(platform.order[place])
