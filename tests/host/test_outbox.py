"""The relay: retries with backoff, retry-after, undeliverable + nudge, exactly once, in order."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from host_fakes import HostKit, RecordingAdapter, no_attachments

from bot.host.messages import Address, DeliveryError, Outbound
from bot.host.outbox.relay import Relay, backoff
from bot.store import OutboxRow, Tx, dumps


def pending(kit: HostKit) -> list[OutboxRow]:
    return [r for r in kit.outbox() if r.status == "pending"]


def test_retry_with_backoff_on_delivery_error(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10")
    kit.adapter.fail = [DeliveryError("network"), DeliveryError("network")]
    assert kit.flush() == 0
    (row,) = kit.outbox()
    assert (row.status, row.attempts) == ("pending", 1)
    assert row.next_attempt_at == kit.clock.now() + backoff(1) == kit.clock.now() + 2
    assert kit.flush() == 0  # not due yet: not even tried
    assert kit.adapter.fail  # the second failure is still queued
    kit.clock.advance(2)
    assert kit.flush() == 0
    (row,) = kit.outbox()
    assert row.attempts == 2 and row.next_attempt_at == kit.clock.now() + 4
    kit.clock.advance(4)
    assert kit.flush() == 1
    assert kit.outbox()[0].status == "sent"
    assert len(kit.adapter.sent) == 1


def test_retry_after_honoured_and_platform_waits(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10")
    kit.say("bob", "join")
    kit.adapter.fail = [DeliveryError("slow down", retry_after=30)]
    assert kit.flush() == 0  # the second row is not tried in this pass either
    rows = kit.outbox()
    assert rows[0].next_attempt_at == kit.clock.now() + 30
    assert rows[1].attempts == 0 and rows[1].status == "pending"
    kit.clock.advance(29)
    # the second row is due, but goes to the same channel as the first, which still waits:
    # a retried message is never overtaken by a later one to the same place
    assert kit.flush() == 0
    kit.clock.advance(1)
    assert kit.flush() == 2
    assert all(r.status == "sent" for r in kit.outbox())
    assert [o.key for _, o in kit.adapter.sent] == [f"outbox-{r.id}" for r in rows]


def test_a_per_recipient_refusal_holds_that_row_only(kit: HostKit) -> None:
    """Discord's 40003 (new DMs too fast) holds the refused message ten minutes; the
    lane's messages to other places go on at once instead of resting behind it (those to
    the same place wait: a place's messages keep their order)."""
    kit.say("alice", "#bst new size=10x10")
    kit.flush()
    kit.say("alice", "help", dm=True)
    kit.say("bob", "help", dm=True)
    kit.adapter.fail = [DeliveryError("opening DMs too fast", retry_after=600, per_recipient=True)]
    assert kit.flush() == 1  # bob's DM goes in the same pass
    to_alice, to_bob = kit.outbox()[-2:]
    assert '"user_name":"alice"' in to_alice.address and '"user_name":"bob"' in to_bob.address
    assert to_alice.status == "pending" and to_alice.next_attempt_at == kit.clock.now() + 600
    assert to_bob.status == "sent"
    kit.clock.advance(600)
    assert kit.flush() == 1
    assert all(r.status == "sent" for r in kit.outbox())


def test_permanent_failure_undeliverable_and_content_free_nudge(kit: HostKit) -> None:
    def bob_dms_closed(address: Address) -> DeliveryError | None:
        if address.is_dm and address.user_name == "bob":
            return DeliveryError("DMs closed", dms_closed=True)  # their setting (50007)
        return None

    kit.adapter.fail_for = bob_dms_closed
    kit.two_player_battle()
    kit.flush()
    bob_rows = [r for r in kit.outbox() if '"user_name":"bob"' in r.address]
    assert bob_rows and all(r.status == "undeliverable" for r in bob_rows)
    nudges = [r for r in kit.outbox() if r.kind.startswith("nudge:")]
    assert len(nudges) == 1  # one nudge, however many DMs failed
    assert nudges[0].status == "sent"
    (nudge,) = [o.text for a, o in kit.adapter.sent if "can't send you direct messages" in o.text]
    assert "@bob" in nudge
    # nothing of the board: no cells, no ship names, no grid
    assert not re.search(r"\b[A-J](10|[1-9])\b", nudge)
    for word in ("cruiser", "carrier", "submarine", "Your ships", "S  S"):
        assert word not in nudge
    assert not pending(kit)


def test_exactly_once_and_relay_rerun_sends_nothing(kit: HostKit) -> None:
    kit.two_player_battle()
    sent = kit.flush()
    assert sent == len(kit.outbox()) == len(kit.adapter.sent)
    assert all(r.status == "sent" and r.attempts == 1 for r in kit.outbox())
    assert all(r.platform_message_id for r in kit.outbox())
    assert kit.flush() == 0
    assert len(kit.adapter.sent) == sent


def test_messages_sent_in_id_order_with_stable_keys(kit: HostKit) -> None:
    kit.two_player_battle()
    kit.flush()
    keys = [o.key for _, o in kit.adapter.sent]
    ids = [int(k.removeprefix("outbox-")) for k in keys]
    assert ids == sorted(ids) == [r.id for r in kit.outbox()]


def test_adapter_exception_does_not_block_other_platforms(kit: HostKit) -> None:
    class Broken(RecordingAdapter):
        async def send(self, address, outbound):  # type: ignore[no-untyped-def]
            raise RuntimeError("adapter bug")

    good, broken = RecordingAdapter("good"), Broken("broken")
    relay = Relay(kit.store, kit.clock, {"good": good, "broken": broken}, no_attachments)
    with kit.store.transaction() as tx:
        for n, platform in enumerate(["broken", "good", "broken", "good"]):
            tx.enqueue(
                OutboxRow(
                    game_id=0,
                    turn=0,
                    kind=f"k{n}",
                    recipient="public",
                    address=dumps({"platform": platform, "channel": "c"}),
                    text=f"message {n}",
                    created_at=kit.clock.now(),
                )
            )
    assert asyncio.run(relay.flush()) == 2
    assert [o.text for _, o in good.sent] == ["message 1", "message 3"]
    rows = kit.outbox()
    assert [r.status for r in rows] == ["pending", "sent", "pending", "sent"]
    assert rows[0].attempts == 1 and "RuntimeError" in rows[0].error


class SlowAdapter(RecordingAdapter):
    """A send that lasts until the test lets it finish (a video upload, say)."""

    def __init__(self) -> None:
        super().__init__()
        self.started = asyncio.Event()
        self.finish = asyncio.Event()

    async def send(self, address: Address, outbound: Outbound) -> str:
        self.started.set()
        await self.finish.wait()
        return await super().send(address, outbound)


def test_a_send_longer_than_its_lease_keeps_the_row_from_a_second_relay(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.host.outbox import relay as outbox

    monkeypatch.setattr(outbox, "RENEW_SECONDS", 0.02)
    kit.say("alice", "#bst new size=10x10")
    slow, other = SlowAdapter(), RecordingAdapter()
    first = Relay(kit.store, kit.clock, {"fake": slow}, no_attachments)
    second = Relay(kit.store, kit.clock, {"fake": other}, no_attachments)

    async def race() -> None:
        sending = asyncio.create_task(first.flush())
        await slow.started.wait()
        for _ in range(3):  # three leases' worth of time pass while the send lasts
            kit.clock.advance(outbox.CLAIM_SECONDS * 0.9)
            await asyncio.sleep(0.1)  # the first relay renews its lease meanwhile
            assert await second.flush() == 0
        slow.finish.set()
        assert await sending == 1

    asyncio.run(race())
    assert len(slow.sent) == 1 and other.sent == []
    assert [r.status for r in kit.outbox()] == ["sent"]


def test_a_platform_down_for_hours_delays_messages_but_loses_none(kit: HostKit) -> None:
    """Backoff is capped at 15 minutes and a passing failure never gives up early: a
    ten-hour outage (40+ attempts) ends with everything sent."""
    kit.say("alice", "#bst new size=10x10")
    kit.adapter.fail_for = lambda _address: DeliveryError("503 Service Unavailable")
    for _ in range(10 * 4):
        kit.clock.advance(900)
        kit.flush()
    (row,) = kit.outbox()
    assert (row.status, row.attempts > 20) == ("pending", True)
    kit.adapter.fail_for = None
    kit.clock.advance(900)
    kit.flush()
    assert [r.status for r in kit.outbox()] == ["sent"]


def test_a_message_failing_for_days_is_given_up_at_last(kit: HostKit) -> None:
    from bot.host.outbox.relay import GIVE_UP_SECONDS

    kit.say("alice", "#bst new size=10x10")
    kit.adapter.fail_for = lambda _address: DeliveryError("503 Service Unavailable")
    kit.flush()
    kit.clock.advance(GIVE_UP_SECONDS)
    kit.flush()
    assert [r.status for r in kit.outbox()] == ["undeliverable"]


def test_a_send_after_a_failed_attempt_is_marked_as_a_retry(kit: HostKit) -> None:
    """So an adapter without idempotency keys (X DMs) can look for a lost delivery."""
    kit.say("alice", "#bst new size=10x10")
    kit.adapter.fail = [DeliveryError("timeout")]
    kit.flush()
    kit.clock.advance(backoff(1))
    kit.flush()
    [(_, outbound)] = kit.adapter.sent
    assert outbound.retry is True
    kit.say("alice", "status")
    kit.flush()
    assert kit.adapter.sent[-1][1].retry is False


def test_only_an_attempt_whose_outcome_is_unknown_makes_the_next_look_first(
    kit: HostKit,
) -> None:
    """ "May have arrived" is an earlier attempt whose outcome is unknown (a timeout, a 5xx,
    a relay that died mid-send), not any earlier attempt: after a refusal that says the
    platform took nothing (a rate limit, a per-recipient refusal) the message is sent
    without looking; once unsure, a later refusal does not make it sure again."""
    kit.say("alice", "#bst new size=10x10")
    kit.adapter.fail = [DeliveryError("slow down", retry_after=30)]
    kit.flush()
    kit.clock.advance(30)
    kit.flush()
    [(_, refused_then_sent)] = kit.adapter.sent
    assert refused_then_sent.retry is False

    kit.say("alice", "status")
    kit.adapter.fail = [DeliveryError("timeout"), DeliveryError("slow down", retry_after=30)]
    kit.flush()
    kit.clock.advance(backoff(1))
    kit.flush()  # refused, definitely: but the timeout before it may have arrived
    kit.clock.advance(30)
    kit.flush()
    assert kit.adapter.sent[-1][1].retry is True


def test_a_row_whose_relay_died_mid_send_may_have_arrived(kit: HostKit) -> None:
    """A relay leased the row and died before recording how its send went: the next
    attempt cannot know, so it looks first."""
    kit.say("alice", "#bst new size=10x10")
    [row] = kit.outbox()
    with kit.store.transaction() as tx:
        assert tx.claim_outbox(row.id or 0, kit.clock.now(), kit.clock.now() + 60)
    kit.clock.advance(61)  # the lease ran out
    kit.flush()
    [(_, outbound)] = kit.adapter.sent
    assert outbound.retry is True


def test_sending_a_games_messages_never_reads_its_state(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The relay reads a game's record (lobby, channel, timers) for every message, never
    its state: a crowd's state is tens of megabytes, and reading it for each of 100,000
    boards was most of a crowd's turn."""
    kit.two_player_battle()
    kit.say("alice", "#bst F3")
    kit.clock.advance(8 * 3600)
    asyncio.run(kit.host.tick(send=False))  # the turn's posts and boards, not sent yet
    with kit.store.transaction() as tx:
        pending = sum(1 for row in tx.outbox() if row.status == "pending")
    assert pending >= 4

    def state_of(self: Any, game_id: int) -> None:
        raise AssertionError("the relay read the game's state")

    monkeypatch.setattr(Tx, "_state_of", state_of)
    assert kit.flush() == pending
