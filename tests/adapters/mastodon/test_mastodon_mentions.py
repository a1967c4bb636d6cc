"""A post mentions only the accounts the adapter itself named (#40, 11): a player's name
that looks like a handle (a bridged ``@victim@elsewhere.example``) notifies nobody."""

from __future__ import annotations

from typing import Any

from fake_mastodon import FakeMastodon

from bot.adapters.mastodon.client import PLATFORM
from bot.host.messages import Address, Outbound


async def test_a_name_like_a_handle_notifies_nobody_and_the_adapters_mention_does(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    alice = fake.add_account("alice", "Alice")
    victim = fake.add_account("victim", "Victim", domain="elsewhere.example")
    adapter = make_adapter()
    await adapter.send(
        Address(PLATFORM),
        Outbound("#sonar game 1, turn 1: @victim@elsewhere.example hit F1.", key="a"),
    )
    who = adapter.mention(Address(PLATFORM, user_id=alice.id, user_name="alice"))
    await adapter.send(
        Address(PLATFORM),
        Outbound(
            f"#sonar game 1: {who}, your move (@victim@elsewhere.example waits)",
            key="b",
            mentions=(alice.id,),
        ),
    )
    report, nudge = fake.posts_by_bot()
    assert report.mentions == [] and victim not in nudge.mentions
    assert nudge.mentions == [alice]
    assert "victim@elsewhere.example hit F1" in report.text  # the name still reads
