"""A post mentions only the accounts the adapter itself named (#40, 11): a player's name
``@someone`` (from another platform) is no mention on X."""

from __future__ import annotations

import re

from bot.host.messages import Address, Outbound

PUBLIC = Address("twitter", channel="timeline")
# twitter-text's mention: an @ (or ＠) not after a letter, digit or _!#$%&*@＠, then 1-20
# of [A-Za-z0-9_].
X_MENTION = re.compile(r"(?:^|(?<=[^a-zA-Z0-9_!#$%&*@＠]))[@＠]([a-zA-Z0-9_]{1,20})")


async def test_a_name_like_a_handle_is_no_mention_but_the_adapters_own_is(fake_x, make_adapter):
    adapter = make_adapter()
    who = adapter.mention(Address("twitter", user_id="2244994945", user_name="@alice"))
    await adapter.send(
        PUBLIC,
        Outbound(
            f"#bst game 7, turn 2: @someone hit F1, ＠other missed. {who}, your move.",
            key="out-1",
            mentions=("2244994945",),
        ),
    )
    (post,) = fake_x.posts
    assert X_MENTION.findall(post["text"]) == ["alice"]
    assert "someone hit F1" in post["text"]
