"""Rule 7 when platforms misbehave, at the relay, with fake platforms raising
DeliveryError the way each adapter maps its platform's errors:

* Discord 429 (retry_after), 5xx (retryable), 50007 (DMs closed: permanent);
* X 429 with x-rate-limit-reset (retry_after = reset - now), 503, and X's 403
  "duplicate content", which the X adapter counts as sent (returns normally).

Nothing is lost, nothing doubled, and one failing platform never stops another
game's turn from resolving or its posts from going out.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest
from host_kit import FakePlatform, MultiKit

from bot.host.messages import Address, DeliveryError, Outbound
from bot.host.play.turns import FETCH_PATIENCE
from bot.store import loads


def _all_sent_once(kit: MultiKit) -> None:
    rows = kit.outbox()
    for name, adapter in kit.adapters.items():
        counts = Counter(adapter.sent_keys())
        assert all(n == 1 for n in counts.values()), f"{name} doubled: {counts}"
    sent = {key for a in kit.adapters.values() for key in a.sent_keys()}
    for row in rows:
        key = f"outbox-{row.id}"
        if row.status == "sent":
            assert key in sent, key
        else:
            assert key not in sent, key
    assert sent <= {f"outbox-{r.id}" for r in rows}


@pytest.fixture
def kit(tmp_path: Path):
    made = MultiKit(tmp_path)
    yield made
    made.close()


def test_discord_429_waits_retry_after_then_sends_once_while_x_keeps_going(kit: MultiKit) -> None:
    discord_game = kit.battle("discord", "d")
    x_game = kit.battle("twitter", "x")
    calls = {"n": 0}

    def rate_limited(address: Address, outbound: Outbound) -> BaseException | None:
        calls["n"] += 1
        return DeliveryError("429 Too Many Requests", retry_after=30.0) if calls["n"] <= 3 else None

    kit.adapters["discord"].fault = rate_limited
    kit.flush()
    # The first 429 blocks Discord for this pass; X is not held up.
    assert kit.adapters["discord"].sent == []
    assert len(kit.adapters["twitter"].sent) == len(kit.outbox(x_game))
    pending = [r for r in kit.outbox(discord_game) if r.status == "pending"]
    assert pending and min(r.next_attempt_at for r in pending if r.attempts) >= kit.clock.now() + 30
    kit.clock.advance(10)
    kit.flush()
    assert kit.adapters["discord"].sent == []  # still inside retry-after
    for _ in range(4):
        kit.clock.advance(31)
        kit.flush()
    assert all(r.status == "sent" for r in kit.outbox())
    _all_sent_once(kit)


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_5xx_is_retried_with_backoff_and_sent_exactly_once(kit: MultiKit, status: int) -> None:
    kit.battle("discord", "d")
    failures = Counter[str]()

    def flaky(address: Address, outbound: Outbound) -> BaseException | None:
        if failures[outbound.key] < 2:
            failures[outbound.key] += 1
            return DeliveryError(f"{status} Server Error")
        return None

    kit.adapters["discord"].fault = flaky
    # each message fails twice, and the ones after it to the same channel wait for it
    # (never overtaken): the channel's messages go one after another, two passes each
    for _ in range(60):
        kit.flush()
        kit.clock.advance(60)
    rows = kit.outbox()
    assert all(r.status == "sent" and r.attempts == 3 for r in rows), [
        (r.id, r.status, r.attempts) for r in rows
    ]
    assert Counter(kit.adapters["discord"].attempts) == Counter({f"outbox-{r.id}": 3 for r in rows})
    _all_sent_once(kit)


def test_discord_50007_marks_dm_undeliverable_and_nudges_without_content(kit: MultiKit) -> None:
    game_id = kit.battle("discord", "d")
    kit.flush()
    kit.say("discord", "bob", "move cruiser at F1 1 right", channel="d", dm=True)

    def dms_closed(address: Address, outbound: Outbound) -> BaseException | None:
        if address.is_dm and address.user_id == "id-bob":
            return DeliveryError("403 Forbidden (error code: 50007)", dms_closed=True)
        return None

    kit.adapters["discord"].fault = dms_closed
    kit.clock.advance(3601)
    kit.tick()  # resolves turn 1 and sends: bob's DMs fail, permanently
    kit.flush()
    rows = kit.outbox(game_id)
    refused = [r for r in rows if r.status == "undeliverable"]
    assert refused and all('"user_id":"id-bob"' in r.address for r in refused)
    nudges = [r for r in rows if r.kind.startswith("nudge:")]
    assert len(nudges) == 1, "one nudge per captain, however many DMs failed"
    nudge = nudges[0]
    assert nudge.recipient == "public" and nudge.status == "sent"
    # Content-free: nothing of the undelivered DMs (cells, ships, the board) is in it.
    assert "cruiser" not in nudge.text.lower() and not any(
        f"{c}{n}" in nudge.text for c in "ABCDEFGHIJ" for n in range(1, 11)
    )
    for row in refused:
        assert row.text not in nudge.text
    # Retrying cannot help: a permanent failure is tried once, never again.
    attempts = Counter(kit.adapters["discord"].attempts)
    assert all(attempts[f"outbox-{r.id}"] == 1 for r in refused)
    kit.clock.advance(3600)
    kit.flush()
    assert Counter(kit.adapters["discord"].attempts) == attempts
    _all_sent_once(kit)


def test_a_dm_the_bot_itself_may_not_send_is_undeliverable_without_a_public_nudge(
    kit: MultiKit,
) -> None:
    """Issue 20, item 7: only "this user does not accept DMs" asks the player in public.
    The bot's own missing permission (Discord 50013, an X app without DM access) is the
    operator's to fix: the player could do nothing about it."""
    game_id = kit.battle("discord", "d")
    kit.flush()
    kit.say("discord", "bob", "move cruiser at F1 1 right", channel="d", dm=True)

    def missing_permission(address: Address, outbound: Outbound) -> BaseException | None:
        if address.is_dm and address.user_id == "id-bob":
            return DeliveryError("403 Forbidden (error code: 50013)", permanent=True)
        return None

    kit.adapters["discord"].fault = missing_permission
    kit.clock.advance(3601)
    kit.tick()
    kit.flush()
    rows = kit.outbox(game_id)
    assert [r for r in rows if r.status == "undeliverable"], "bob's DMs failed for good"
    assert [r for r in rows if r.kind.startswith("nudge:")] == []


def test_x_429_with_reset_then_503_then_duplicate_content(kit: MultiKit) -> None:
    game_id = kit.battle("twitter", "x")
    reset_at = kit.clock.now() + 900  # x-rate-limit-reset
    script: list[BaseException | str | None] = [
        DeliveryError("429 Too Many Requests", retry_after=reset_at - kit.clock.now()),
        DeliveryError("503 Service Unavailable"),
        "duplicate",  # X: 403 "You are not allowed to create a Tweet with duplicate content"
    ]
    x = kit.adapters["twitter"]

    def faults(address: Address, outbound: Outbound) -> BaseException | None:
        if not script:
            return None
        step = script.pop(0)
        if step == "duplicate":
            # The first attempt did reach X before the connection dropped: the post is
            # there, the retry is refused as a duplicate, the adapter counts it as sent.
            x.sent.append((address, outbound))
            return None
        return step  # type: ignore[return-value]

    x.fault = faults
    kit.flush()
    assert x.sent == []  # the 429 holds X for the rest of this pass
    limited = x.attempts[0]
    kit.clock.set(reset_at - 1)
    kit.flush()
    # Other rows may go (each would get its own 429 from X); the limited one waits for reset.
    assert x.attempts.count(limited) == 1
    kit.clock.set(reset_at)
    kit.flush()
    assert x.attempts.count(limited) >= 2
    for _ in range(6):
        kit.clock.advance(120)
        kit.flush()
    rows = kit.outbox(game_id)
    assert all(r.status == "sent" for r in rows)
    _all_sent_once(kit)


def test_a_platform_down_does_not_stop_another_games_turns(kit: MultiKit) -> None:
    discord_game = kit.battle("discord", "d")
    x_game = kit.battle("twitter", "x")
    kit.flush()
    kit.say("twitter", "alice", "#bst H5", channel="x")
    discord = kit.adapters["discord"]
    discord.fault = lambda a, o: DeliveryError("503 Service Unavailable")
    discord.fetch_error = ConnectionError("gateway down")
    for hour in range(1, 4):
        kit.clock.advance(3600 - (FETCH_PATIENCE if hour > 1 else 0))
        assert kit.tick() == 1, f"hour {hour}: X's game resolves; Discord's waits for its orders"
        kit.clock.advance(FETCH_PATIENCE)
        assert kit.tick() == 1, f"hour {hour}: then Discord's resolves without them"
    assert kit.game(x_game).turn == 4 and kit.game(discord_game).turn == 4
    x_rows = kit.outbox(x_game)
    assert all(r.status == "sent" for r in x_rows), "X's posts went out while Discord was down"
    assert sum(1 for r in x_rows if r.kind == "map") == 4
    missed = [r for r in kit.outbox(discord_game) if r.kind == "map" and r.turn >= 1]
    assert len(missed) == 3 and all(r.status == "pending" for r in missed)
    # Discord comes back: everything it missed goes out once, in order.
    discord.fault = None
    discord.fetch_error = None
    for _ in range(12):
        kit.clock.advance(900)
        kit.flush()
    assert all(r.status == "sent" for r in kit.outbox())
    maps = [o.text for _, o in discord.sent if "Turn" in o.text or "turn" in o.text]
    assert maps, "the missed turns were posted"
    _all_sent_once(kit)


def test_4_a_turn_waits_for_a_platform_that_could_not_be_asked_for_its_orders(
    kit: MultiKit,
) -> None:
    """Rules §4: an order counts for the turn the platform stamped it in. If the platform
    cannot be asked at the deadline, its games wait (up to FETCH_PATIENCE) for it."""
    game_id = kit.battle("discord", "d")
    discord = kit.adapters["discord"]
    deadline = kit.game(game_id).deadline
    assert deadline is not None
    # Sent (stamped) during turn 1, still held by Discord when the deadline comes.
    discord.pending.append(kit.inbound("discord", "bob", "#bst A2", channel="d"))
    discord.fetch_error = ConnectionError("gateway down")
    kit.clock.set(deadline)
    assert kit.tick() == 0 and kit.game(game_id).turn == 1  # waits
    discord.fetch_error = None
    kit.clock.advance(30)  # the next sweep: Discord answers
    assert kit.tick() == 1
    with kit.store.transaction() as tx:
        [turn] = [t for t in tx.turns(game_id) if t.number == 1]
    assert [o["cell"] for o in loads(turn.orders)] == ["A2"]  # bob's order counted


def test_an_adapter_bug_is_retried_not_lost(kit: MultiKit) -> None:
    kit.battle("discord", "d")
    bugs = {"left": 3}

    def buggy(address: Address, outbound: Outbound) -> BaseException | None:
        if bugs["left"]:
            bugs["left"] -= 1
            return RuntimeError("adapter bug")
        return None

    kit.adapters["discord"].fault = buggy
    for _ in range(6):
        kit.flush()
        kit.clock.advance(60)
    assert all(r.status == "sent" for r in kit.outbox())
    _all_sent_once(kit)


def test_relay_never_sends_a_row_twice_when_two_flushes_race(kit: MultiKit) -> None:
    """Two relay passes at once (the relay loop and a tick) in one process."""
    kit.battle("discord", "d")
    slow = kit.adapters["discord"]
    original = FakePlatform.send

    async def slow_send(self: FakePlatform, address: Address, outbound: Outbound) -> str:
        await asyncio.sleep(0.001)
        return await original(self, address, outbound)

    slow.send = slow_send.__get__(slow)  # type: ignore[method-assign]

    async def race() -> None:
        await asyncio.gather(kit.host.relay.flush(), kit.host.relay.flush(), kit.host.tick())

    asyncio.run(race())
    assert Counter(slow.attempts) == Counter({f"outbox-{r.id}": 1 for r in kit.outbox()})
