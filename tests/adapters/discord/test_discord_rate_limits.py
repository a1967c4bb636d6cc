"""Discord's rate limits in the fake (``discord_limits``), and the adapter under them.

The fake's limits are checked first from outside, with plain HTTP requests: the global
50 a second, a channel's bucket of 5 posts per 5 s, the headers and 429 bodies Discord
sends. Then the adapter, through discord.py's own HTTP client: the bot's pacing
(``[discord] requests_per_second``) keeps it under the global limit without a single
429, and without pacing discord.py retries every 429 and nothing is posted twice.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import pytest
from discord_fake import (
    APP_ID,
    CHANNEL_ID,
    TOKEN,
    FakeDiscord,
    interaction_token,
)
from discord_limits import GLOBAL_PER_SECOND, RateLimits

from bot.adapters.discord.pacing import UNBOUND, GlobalPace
from bot.host.messages import Address, Outbound

HEADERS = {"Authorization": f"Bot {TOKEN}"}
RATE_HEADERS = (
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "X-RateLimit-Reset-After",
    "X-RateLimit-Bucket",
)


async def _post(
    session: aiohttp.ClientSession, fake: FakeDiscord, path: str, body: dict[str, Any]
) -> tuple[int, Any, Any]:
    async with session.post(f"{fake.base}{path}", json=body, headers=HEADERS) as response:
        answer = await response.json() if response.status != 204 else None
        return response.status, response.headers, answer


async def test_a_burst_past_50_a_second_is_refused_with_a_global_429(
    fake_discord: FakeDiscord, spec: Any
) -> None:
    fake_discord.limits = RateLimits()
    channels = [int(fake_discord.add_channel()["id"]) for _ in range(GLOBAL_PER_SECOND + 5)]
    async with aiohttp.ClientSession() as session:
        answers = [
            await _post(session, fake_discord, f"/channels/{c}/messages", {"content": "hi"})
            for c in channels
        ]
    statuses = [status for status, _, _ in answers]
    assert statuses == [200] * GLOBAL_PER_SECOND + [429] * 5
    ok_headers = answers[0][1]
    assert all(name in ok_headers for name in RATE_HEADERS)
    assert ok_headers["X-RateLimit-Limit"] == "5" and ok_headers["X-RateLimit-Remaining"] == "4"
    assert ok_headers["Via"] == "1.1 google"
    _, headers, body = answers[-1]
    assert headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    assert headers["Via"] == "1.1 google"
    assert int(headers["Retry-After"]) >= 1
    assert body["global"] is True and 0 < body["retry_after"] <= 1.0
    assert spec.errors(body, "components", "schemas", "RatelimitedResponse") == []
    # the refused requests were counted, and posted nothing
    assert len(fake_discord.requests) == len(channels)
    assert len(fake_discord.rate_limited) == 5
    assert sum(len(m) for m in fake_discord.posted.values()) == GLOBAL_PER_SECOND


async def test_a_channels_bucket_fills_after_five_posts_in_five_seconds(
    fake_discord: FakeDiscord, spec: Any
) -> None:
    fake_discord.limits = RateLimits()
    other = int(fake_discord.add_channel()["id"])
    path = f"/channels/{CHANNEL_ID}/messages"
    async with aiohttp.ClientSession() as session:
        answers = [await _post(session, fake_discord, path, {"content": "x"}) for _ in range(6)]
        elsewhere = await _post(
            session, fake_discord, f"/channels/{other}/messages", {"content": "y"}
        )
    assert [status for status, _, _ in answers] == [200] * 5 + [429]
    remaining = [headers["X-RateLimit-Remaining"] for _, headers, _ in answers]
    assert remaining == ["4", "3", "2", "1", "0", "0"]
    buckets = {headers["X-RateLimit-Bucket"] for _, headers, _ in answers}
    assert len(buckets) == 1  # one bucket, announced on every answer
    _, headers, body = answers[-1]
    assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
    assert 4.0 < float(headers["X-RateLimit-Reset-After"]) <= 5.0
    assert abs(float(headers["X-RateLimit-Reset"]) - time.time() - 5.0) < 1.0
    assert body["global"] is False and 4.0 < body["retry_after"] <= 5.0
    assert spec.errors(body, "components", "schemas", "RatelimitedResponse") == []
    # the bucket is the channel's: another channel's posts go on
    assert elsewhere[0] == 200 and elsewhere[1]["X-RateLimit-Remaining"] == "4"
    assert elsewhere[1]["X-RateLimit-Bucket"] in buckets


async def test_a_bucket_opens_again_when_its_window_ends() -> None:
    now = [100.0]
    limits = RateLimits(clock=lambda: now[0])
    path = f"/channels/{CHANNEL_ID}/messages"
    assert all(limits.admit("POST", path) is None for _ in range(5))
    refused = limits.admit("POST", path)
    assert refused is not None and refused[0] == 429
    now[0] += 5.0
    assert limits.admit("POST", path) is None
    assert limits.headers("POST", path)["X-RateLimit-Remaining"] == "4"


async def test_interactions_are_outside_the_global_limit(fake_discord: FakeDiscord) -> None:
    fake_discord.limits = RateLimits()
    channels = [int(fake_discord.add_channel()["id"]) for _ in range(GLOBAL_PER_SECOND)]
    interaction = fake_discord.snowflake()
    token = interaction_token(interaction, kind=2, channel_id=CHANNEL_ID)
    async with aiohttp.ClientSession() as session:
        for channel in channels:
            await _post(session, fake_discord, f"/channels/{channel}/messages", {"content": "x"})
        full = await _post(
            session, fake_discord, f"/channels/{CHANNEL_ID}/messages", {"content": "x"}
        )
        callback = await _post(
            session, fake_discord, f"/interactions/{interaction}/{token}/callback", {"type": 5}
        )
    assert full[0] == 429 and full[2]["global"] is True
    assert callback[0] == 204
    assert UNBOUND.search(f"/api/v10/interactions/1/{token}/callback")
    assert UNBOUND.search(f"/api/v10/webhooks/{APP_ID}/{token}/messages/@original")
    assert not UNBOUND.search(f"/api/v10/channels/{CHANNEL_ID}/messages")


async def _send_to_many(
    make_adapter: Any, inbox: Any, fake: FakeDiscord, count: int, **config: Any
) -> int:
    """``count`` messages to as many channels at once through the adapter (logged in
    first); the requests it made."""
    fake.limits = RateLimits()
    channels = [int(fake.add_channel()["id"]) for _ in range(count)]
    made = make_adapter(**config)
    await made.login(inbox)
    try:
        before = len(fake.requests)
        await asyncio.gather(
            *(
                made.send(Address("discord", str(c)), Outbound(f"post {n}", key=f"k{n}"))
                for n, c in enumerate(channels)
            )
        )
        return len(fake.requests) - before
    finally:
        await made.stop()


async def test_the_adapter_paced_stays_under_the_global_limit(
    fake_discord: FakeDiscord, make_adapter: Any, inbox: Any
) -> None:
    """120 posts at once: sent at the configured pace, not one 429, one request each."""
    requests = await _send_to_many(make_adapter, inbox, fake_discord, 120, requests_per_second=45)
    posts = fake_discord.requests_to("POST", r"/channels/\d+/messages")
    assert len(posts) == 120 and fake_discord.rate_limited == []
    assert requests == 120  # (the pace itself is checked on a virtual clock below)
    assert sum(len(m) for m in fake_discord.posted.values()) == 120


async def test_unpaced_discord_py_retries_each_429_and_posts_nothing_twice(
    fake_discord: FakeDiscord, make_adapter: Any, inbox: Any
) -> None:
    """Without the pacing (a rate-limit proxy's job then), the fake's limit is met: every
    refused request is sent again after its retry_after, and each post appears once."""
    requests = await _send_to_many(make_adapter, inbox, fake_discord, 120, requests_per_second=0)
    assert fake_discord.rate_limited  # the fake refused some
    assert requests == 120 + len(fake_discord.rate_limited)
    contents = [m["content"] for ms in fake_discord.posted.values() for m in ms]
    assert sorted(contents) == sorted(f"post {n}" for n in range(120))


async def test_the_pace_takes_turns_and_never_bursts_after_a_pause() -> None:
    now = [0.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    pace = GlobalPace(50, clock=lambda: now[0], sleep=sleep)
    for _ in range(3):
        await pace.turn()
    assert slept == pytest.approx([0.02, 0.04])  # the first goes at once, then one every 20 ms
    now[0] = 10.0  # a quiet spell: the next goes at once, the one after it 20 ms later
    slept.clear()
    await pace.turn()
    await pace.turn()
    assert slept == pytest.approx([0.02])
