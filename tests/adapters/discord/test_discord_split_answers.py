"""A long answer goes in parts (2,000 characters each); when a part fails, the retry
resumes after the last part posted: an interaction's follow-ups take no nonce, so a part
sent again would show twice."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord_fake import APP_ID, CHANNEL_ID, DM_CHANNEL_ID, USER_ID, FakeDiscord

from bot.adapters.discord import DiscordAdapter
from bot.adapters.discord.text import split_text
from bot.host.messages import Address, DeliveryError, Outbound

FOLLOW_UPS = rf"/webhooks/{APP_ID}/[^/]+"


async def run(adapter: DiscordAdapter, payload: dict[str, Any]) -> None:
    interaction: discord.Interaction[Any] = discord.Interaction(
        data=payload, state=adapter.client._connection
    )
    await adapter.tree._call(interaction)


def long_answer() -> str:
    return "\n".join(f"line {n}: " + "x" * 60 for n in range(90))  # several parts


async def test_a_split_answer_retried_after_a_failed_part_posts_each_part_once(
    adapter: DiscordAdapter, fake_discord: FakeDiscord, payload_factory: Any
) -> None:
    interaction_id = fake_discord.snowflake()
    await run(adapter, payload_factory("help", interaction_id=interaction_id))
    address = Address("discord", channel=str(CHANNEL_ID), reply_to=str(interaction_id))
    answer = Outbound(long_answer(), key="outbox-12")
    parts = split_text(answer.text)
    assert len(parts) >= 3
    # The first part replaces the placeholder, the second is a follow-up; the third fails.
    with pytest.raises(DeliveryError):
        await _send_failing_third_part(adapter, fake_discord, address, answer)
    assert len(fake_discord.requests_to("POST", FOLLOW_UPS)) == 2  # 2nd posted, 3rd refused
    message_id = await adapter.send(address, answer)  # the relay's retry

    posted = [m["content"] for m in fake_discord.posted[CHANNEL_ID] if m.get("content")]
    for part in parts:
        assert posted.count(part) == 1, "a part of the answer was posted twice"
    assert message_id == fake_discord.posted[CHANNEL_ID][-1]["id"]


async def _send_failing_third_part(
    adapter: DiscordAdapter, fake: FakeDiscord, address: Address, answer: Outbound
) -> str:
    """Send ``answer`` with Discord refusing its second follow-up POST (the third part)
    with a 429 (a 5xx discord.py's webhook client sends again by itself)."""
    return await _send_refusing(adapter, fake, address, answer, f"/webhooks/{APP_ID}/")


async def _send_refusing(
    adapter: DiscordAdapter, fake: FakeDiscord, address: Address, answer: Outbound, prefix: str
) -> str:
    """Send ``answer`` with Discord refusing the second POST to a path starting with
    ``prefix`` with a 429."""
    original = fake._scripted_or_answered
    posts = 0

    def refuse_second(method: str, path: str, *rest: Any) -> Any:
        nonlocal posts
        if method == "POST" and path.startswith(prefix):
            posts += 1
            if posts == 2:
                fake.fail_next(
                    method,
                    re.escape(path),
                    429,
                    {"message": "You are being rate limited.", "retry_after": 1.0, "global": False},
                    {"Retry-After": "1"},
                )
        return original(method, path, *rest)

    fake._scripted_or_answered = refuse_second  # type: ignore[method-assign]
    try:
        return await adapter.send(address, answer)
    finally:
        fake._scripted_or_answered = original  # type: ignore[method-assign]


@pytest.mark.parametrize("dm", [True, False], ids=["dm", "channel"])
async def test_a_split_message_refused_at_a_later_part_posts_each_part_once(
    adapter: DiscordAdapter, fake_discord: FakeDiscord, dm: bool
) -> None:
    """Issue 40: a 429 on a later part says Discord took nothing of it, so the outbox's
    next attempt is no "may have arrived" retry; the parts already posted are not posted
    again, even once Discord has forgotten their nonces (it keeps them minutes, a 429 or
    a DM's back-off may wait longer)."""
    address = (
        Address("discord", channel=str(CHANNEL_ID), user_id=str(USER_ID))
        if dm
        else Address("discord", channel=str(CHANNEL_ID))
    )
    channel_id = DM_CHANNEL_ID if dm else CHANNEL_ID
    message = Outbound(long_answer(), key="outbox-31")
    parts = split_text(message.text)
    assert len(parts) >= 3
    with pytest.raises(DeliveryError) as refused:
        await _send_refusing(adapter, fake_discord, address, message, rf"/channels/{channel_id}/")
    assert refused.value.retry_after is not None
    fake_discord._nonces.clear()  # minutes later: Discord no longer knows the nonces
    last = await adapter.send(address, message)  # the outbox's next attempt

    posted = [m["content"] for m in fake_discord.posted[channel_id] if m.get("content")]
    assert posted == parts, "each part once, in order"
    assert last == fake_discord.posted[channel_id][-1]["id"]
