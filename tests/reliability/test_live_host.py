"""The running host as a process manager and a live platform see it (issue 20).

Item 8: each platform (and Discord's interaction follow-ups) sends in its own lane, so
one platform's slow send or rate-limit pause holds up no other. Item 12: a health
signal that turns unhealthy when a platform is disconnected too long or the relay is
stuck.
"""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path
from urllib.error import HTTPError

import pytest
from host_kit import FakePlatform, MultiKit

from bot.host.messages import Address, Capabilities, DeliveryError, Outbound


@pytest.fixture
def kit(tmp_path: Path):
    made = MultiKit(tmp_path)
    yield made
    made.close()


async def _until(condition, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not in time")


def _pending_rows(kit: MultiKit, platform: str) -> int:
    return sum(
        1 for r in kit.outbox() if r.status == "pending" and f'"platform":"{platform}"' in r.address
    )


def test_8_a_discord_reply_does_not_wait_behind_an_x_video(kit: MultiKit) -> None:
    """X's first row is a video X processes for minutes (status polls): Discord's rows,
    written after it, go out meanwhile."""
    kit.battle("twitter", "x")  # X's rows come first in the outbox
    kit.battle("discord", "d")
    assert _pending_rows(kit, "twitter") and _pending_rows(kit, "discord")
    processing = asyncio.Event()

    class SlowX(FakePlatform):
        async def send(self, address: Address, outbound: Outbound) -> str:
            self.attempts.append(outbound.key)
            await processing.wait()  # the video is still being processed
            return await super().send(address, outbound)

    slow = SlowX("twitter")
    kit.host.adapters["twitter"] = slow
    kit.host.relay.adapters = kit.host.adapters

    async def scenario() -> None:
        runner = asyncio.create_task(kit.host.run())
        try:
            await _until(lambda: _pending_rows(kit, "discord") == 0)
            assert len(slow.attempts) == 1 and slow.sent == []  # X still on its first row
        finally:
            processing.set()
            runner.cancel()
            with pytest.raises(asyncio.CancelledError):
                await runner

    asyncio.run(scenario())


def test_8_follow_ups_have_their_own_lane_beside_a_rate_limited_channel(kit: MultiKit) -> None:
    """Discord paused the channel messages (429, 30 s): the answers to commands, which
    must come within the interaction's 15 minutes, still go."""
    kit.battle("discord", "d")
    adapter = kit.adapters["discord"]
    followups: set[str] = set()

    def lane(address: Address) -> str:
        return "discord/follow-ups" if address.reply_to in followups else "discord"

    adapter.lane = lane  # type: ignore[attr-defined]
    adapter.capabilities = Capabilities(lanes=True)

    def limited(address: Address, outbound: Outbound) -> BaseException | None:
        if address.reply_to not in followups:
            return DeliveryError("429 Too Many Requests", retry_after=30.0)
        return None

    adapter.fault = limited
    kit.flush()  # everything so far meets the 429
    answer = kit.inbound("discord", "alice", "status", channel="d")
    followups.add(answer.message_id)
    kit.deliver(answer)
    kit.flush()
    replies = [o for a, o in adapter.sent if a.reply_to == answer.message_id]
    assert replies, "the follow-up went out while the channel lane waits"


# ---- item 12: the health signal ------------------------------------------------------


class LinkedPlatform(FakePlatform):
    """A fake platform that reports its connection, as the real adapters do."""

    def __init__(self, platform: str) -> None:
        from bot.host.messages import PlatformLink

        super().__init__(platform)
        self.now = 0.0
        self.link = PlatformLink(clock=lambda: self.now)
        self.capabilities = Capabilities(watched_link=True)


def _get(port: int) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as answer:
            return answer.status, json.loads(answer.read())
    except HTTPError as error:
        return error.code, json.loads(error.read())


def test_12_health_turns_unhealthy_when_a_platform_is_down_over_a_minute(tmp_path: Path) -> None:
    from bot.host.runtime.service import Host

    kit = MultiKit(tmp_path, platforms=())
    platform = LinkedPlatform("discord")
    host = Host(kit.store, kit.clock, {"discord": platform}, kit.host.relay.attachments,
                health_port=0)  # fmt: skip

    async def scenario() -> None:
        runner = asyncio.create_task(host.run())
        try:
            await _until(lambda: host.health_server is not None and host.health_server.port)
            port = host.health_server.port
            platform.link.up()
            status, body = await asyncio.to_thread(_get, port)
            assert (status, body["status"], body["platforms"]) == (
                200,
                "ok",
                {"discord": "connected"},
            )
            platform.link.down()
            platform.now += 30  # a reconnection takes seconds: still healthy
            assert (await asyncio.to_thread(_get, port))[0] == 200
            platform.now += 45
            status, body = await asyncio.to_thread(_get, port)
            assert status == 503 and body["status"] == "unhealthy"
            assert body["problems"] == ["discord disconnected for 75 s"]
            platform.link.up()
            assert (await asyncio.to_thread(_get, port))[0] == 200
        finally:
            runner.cancel()
            with pytest.raises(asyncio.CancelledError):
                await runner

    try:
        asyncio.run(scenario())
    finally:
        kit.close()


def test_12_health_turns_unhealthy_when_the_relay_is_stuck(tmp_path: Path) -> None:
    from bot.host.runtime.service import Host

    kit = MultiKit(tmp_path, platforms=("discord",))
    kit.battle("discord", "d")
    never = asyncio.Event()

    class Hanging(LinkedPlatform):
        async def send(self, address: Address, outbound: Outbound) -> str:
            await never.wait()  # a send that never returns
            return "never"

    platform = Hanging("discord")
    host = Host(kit.store, kit.clock, {"discord": platform}, kit.host.relay.attachments,
                health_port=0)  # fmt: skip
    host.stuck_after = 0.2

    async def scenario() -> None:
        runner = asyncio.create_task(host.run())
        try:
            await _until(lambda: host.relay.sending_since)
            platform.link.up()
            await asyncio.sleep(0.3)
            status, body = await asyncio.to_thread(_get, host.health_server.port)
            assert status == 503
            assert body["problems"][0].startswith("the relay has been sending one message for")
        finally:
            never.set()
            runner.cancel()
            with pytest.raises(asyncio.CancelledError):
                await runner

    try:
        asyncio.run(scenario())
    finally:
        kit.close()


# ---- item 9: resolution runs off the event loop ----------------------------------------


def test_9_a_turn_resolves_off_the_event_loop_which_stays_free_meanwhile(kit: MultiKit) -> None:
    """While turns resolve (a storm of them: see the benchmark ack_p99_storm_ms), the
    event loop must be free to acknowledge slash commands within Discord's 3 seconds.
    Each resolution here asks the loop to run a callback and waits for it: on the loop's
    own thread that could never happen."""
    import threading

    game_id = kit.battle("discord", "d")
    original = kit.host.turns.resolve_game
    seen: list[tuple[bool, bool]] = []
    loop_thread: list[threading.Thread] = []
    loop_ref: list[asyncio.AbstractEventLoop] = []

    def resolve_game(game: int, turn: int) -> bool:
        answered = threading.Event()
        loop_ref[0].call_soon_threadsafe(answered.set)
        off_loop = threading.current_thread() is not loop_thread[0]
        seen.append((off_loop, answered.wait(timeout=2.0)))
        return original(game, turn)

    kit.host.turns.resolve_game = resolve_game  # type: ignore[method-assign]

    async def scenario() -> int:
        loop_ref.append(asyncio.get_running_loop())
        loop_thread.append(threading.current_thread())
        return await kit.host.tick()

    kit.clock.advance(3601)
    assert asyncio.run(scenario()) == 1
    assert seen == [(True, True)]
    assert kit.game(game_id).turn == 2


def test_14_one_platform_failing_to_start_leaves_the_others_playing(kit: MultiKit) -> None:
    """Issue 26 item 14: X's start-up failing (its network, a 403) must not take the host,
    and Discord with it, down: the other platforms start and send."""
    kit.battle("discord", "d")

    class BrokenX(FakePlatform):
        async def start(self, on_inbound) -> None:  # type: ignore[no-untyped-def]
            raise OSError("X unreachable")

    kit.host.adapters["twitter"] = BrokenX("twitter")
    kit.host.relay.adapters = kit.host.adapters

    async def scenario() -> None:
        runner = asyncio.create_task(kit.host.run())
        try:
            await _until(lambda: _pending_rows(kit, "discord") == 0)
            assert not runner.done()
        finally:
            runner.cancel()
            with pytest.raises(asyncio.CancelledError):
                await runner

    asyncio.run(scenario())
