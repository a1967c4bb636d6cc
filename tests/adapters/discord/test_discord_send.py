"""Sending: channel messages and DMs with nonces, attachments, and Discord's errors as DeliveryError."""

from __future__ import annotations

import pytest
from discord_fake import CHANNEL_ID, DM_CHANNEL_ID, TOKEN, USER_ID

from bot.adapters.discord.sending import (
    DM_OPEN_BURST,
    DM_OPEN_FIRST_BACKOFF,
    MAX_UPLOAD_BYTES,
    nonce_for,
)
from bot.adapters.discord.text import mentioned_users, split_text
from bot.host.messages import Address, Attachment, AttachmentKind, Choice, DeliveryError, Outbound

PUBLIC = Address("discord", channel=str(CHANNEL_ID))
PRIVATE = Address("discord", channel=str(CHANNEL_ID), user_id=str(USER_ID))
CHANNEL_MESSAGES = rf"/channels/{CHANNEL_ID}/messages"
DM_MESSAGES = rf"/channels/{DM_CHANNEL_ID}/messages"


async def test_a_public_post_carries_a_nonce_from_the_outbox_key(adapter, fake_discord):
    first = await adapter.send(PUBLIC, Outbound("Turn 3 resolved.", key="outbox-41"))
    await adapter.send(PUBLIC, Outbound("Turn 3 resolved.", key="outbox-41"))  # a retry
    await adapter.send(PUBLIC, Outbound("Turn 4 resolved.", key="outbox-42"))

    sent = fake_discord.requests_to("POST", CHANNEL_MESSAGES)
    nonces = [r.json["nonce"] for r in sent]
    assert nonces[0] == nonces[1] != nonces[2]
    assert nonces[0] == str(nonce_for("outbox-41"))
    assert all(len(n) <= 25 for n in nonces)
    assert all(r.json["enforce_nonce"] is True for r in sent)
    assert first.isdigit()


def test_nonces_are_stable_and_distinct():
    assert nonce_for("k") == nonce_for("k")
    assert nonce_for("k") != nonce_for("k", 1) != nonce_for("j")
    assert nonce_for("") is None


async def test_a_private_message_opens_the_dm_channel(adapter, fake_discord):
    await adapter.send(PRIVATE, Outbound("Your board after turn 3.", key="outbox-7"))
    [opened] = fake_discord.requests_to("POST", "/users/@me/channels")
    assert opened.json == {"recipient_id": USER_ID}
    [message] = fake_discord.requests_to("POST", DM_MESSAGES)
    assert message.json["content"] == "Your board after turn 3."
    assert message.json["nonce"] == str(nonce_for("outbox-7"))


async def test_a_known_dm_channel_is_reused_even_after_a_restart(
    adapter, make_adapter, inbox, fake_discord
):
    await adapter.send(PRIVATE, Outbound("Board 1.", key="outbox-1"))
    await adapter.send(PRIVATE, Outbound("Board 2.", key="outbox-2"))
    restarted = make_adapter()  # the same cursor store, a fresh discord.py cache
    await restarted.login(inbox)
    try:
        await restarted.send(PRIVATE, Outbound("Board 3.", key="outbox-3"))
    finally:
        await restarted.stop()
    assert len(fake_discord.requests_to("POST", "/users/@me/channels")) == 1
    assert len(fake_discord.requests_to("POST", DM_MESSAGES)) == 3


async def test_opening_dms_too_fast_is_retried_later_and_pauses_new_dms(adapter, fake_discord):
    fake_discord.dm_open_limit = (2, 60.0)
    for user in (USER_ID, USER_ID + 1):
        await adapter.send(
            Address("discord", channel=str(CHANNEL_ID), user_id=str(user)),
            Outbound("Your board.", key=f"board-{user}"),
        )
    third = Address("discord", channel=str(CHANNEL_ID), user_id=str(USER_ID + 2))
    with pytest.raises(DeliveryError) as caught:
        await adapter.send(third, Outbound("Your board.", key="board-3"))
    assert "40003" in str(caught.value)
    assert caught.value.permanent is False and caught.value.dms_closed is False
    assert caught.value.retry_after == pytest.approx(DM_OPEN_FIRST_BACKOFF)
    # The lane of DMs still to open waits (see DiscordAdapter.lane); nothing else does.
    assert caught.value.per_recipient is False
    opens = len(fake_discord.requests_to("POST", "/users/@me/channels"))
    # Meanwhile no new DM is opened (Discord would only refuse again) ...
    fourth = Address("discord", channel=str(CHANNEL_ID), user_id=str(USER_ID + 3))
    with pytest.raises(DeliveryError) as paused:
        await adapter.send(fourth, Outbound("Your board.", key="board-4"))
    assert paused.value.per_recipient is False
    assert 0 < paused.value.retry_after <= DM_OPEN_FIRST_BACKOFF
    assert len(fake_discord.requests_to("POST", "/users/@me/channels")) == opens
    # ... while players whose DM is open still get theirs.
    await adapter.send(PRIVATE, Outbound("Your next board.", key="board-5"))


async def test_a_40003_on_a_dms_first_message_pauses_new_dm_opens_too(adapter, fake_discord):
    fake_discord.fail_next(
        "POST",
        DM_MESSAGES,
        403,
        {"message": "You are opening direct messages too fast.", "code": 40003},
    )
    with pytest.raises(DeliveryError) as caught:
        await adapter.send(PRIVATE, Outbound("Your board.", key="board-1"))
    assert caught.value.per_recipient is True and caught.value.permanent is False
    other = Address("discord", channel=str(CHANNEL_ID), user_id=str(USER_ID + 1))
    with pytest.raises(DeliveryError):
        await adapter.send(other, Outbound("Your board.", key="board-2"))
    assert len(fake_discord.requests_to("POST", "/users/@me/channels")) == 1


async def test_new_dms_are_opened_at_a_pace(make_adapter, inbox, fake_discord):
    waits: list[float] = []

    async def no_sleep(seconds: float, *args: object) -> None:
        if seconds > 0:  # asyncio.sleep(0) is discord.py's yield, not a wait
            waits.append(seconds)

    # Without the global pacing: its real waits would refill the DM-open tokens.
    made = make_adapter(dm_opens_per_minute=30, requests_per_second=0)
    await made.login(inbox)
    made._delivery.dms.sleep = no_sleep
    try:
        for index in range(DM_OPEN_BURST + 2):
            user = str(USER_ID + index)
            await made.send(
                Address("discord", channel=str(CHANNEL_ID), user_id=user),
                Outbound("Your board.", key=f"board-{user}"),
            )
    finally:
        await made.stop()
    # A burst at once, then one new DM every two seconds.
    assert len(waits) == 2 and all(1.9 < w <= 2.0 for w in waits)


async def test_closed_dms_are_a_permanent_failure(adapter, fake_discord):
    fake_discord.fail_next(
        "POST", DM_MESSAGES, 403, {"message": "Cannot send messages to this user", "code": 50007}
    )
    with pytest.raises(DeliveryError) as caught:
        await adapter.send(PRIVATE, Outbound("Your board.", key="outbox-8"))
    assert caught.value.permanent is True
    assert "50007" in str(caught.value)
    assert TOKEN not in str(caught.value)


async def test_a_rate_limit_says_when_to_retry(adapter, fake_discord):
    fake_discord.fail_next(
        "POST",
        CHANNEL_MESSAGES,
        429,
        {"message": "You are being rate limited.", "retry_after": 64.57, "global": False},
        headers={"Retry-After": "65", "Via": "1.1 google", "X-RateLimit-Scope": "user"},
    )
    with pytest.raises(DeliveryError) as caught:
        await adapter.send(PUBLIC, Outbound("Turn 5.", key="outbox-9"))
    assert caught.value.retry_after == pytest.approx(64.57)
    assert caught.value.permanent is False


async def test_a_cloudflare_429_without_body_still_gives_retry_after(adapter, fake_discord):
    fake_discord.fail_next(
        "POST", CHANNEL_MESSAGES, 429, {"message": "rate limited"}, headers={"Retry-After": "12"}
    )
    with pytest.raises(DeliveryError) as caught:
        await adapter.send(PUBLIC, Outbound("Turn 5.", key="outbox-10"))
    assert caught.value.retry_after == 12.0


async def test_a_server_error_is_retryable(adapter, fake_discord):
    fake_discord.fail_next(
        "POST", CHANNEL_MESSAGES, 503, {"message": "Service Unavailable", "code": 0}
    )
    with pytest.raises(DeliveryError) as caught:
        await adapter.send(PUBLIC, Outbound("Turn 6.", key="outbox-11"))
    assert caught.value.permanent is False
    assert caught.value.retry_after is None


async def test_a_deleted_channel_is_permanent(adapter, fake_discord):
    fake_discord.fail_next(
        "POST", CHANNEL_MESSAGES, 404, {"message": "Unknown Channel", "code": 10003}
    )
    with pytest.raises(DeliveryError) as caught:
        await adapter.send(PUBLIC, Outbound("Turn 7.", key="outbox-12"))
    assert caught.value.permanent is True


async def test_images_are_uploaded_and_an_oversized_video_becomes_a_note(adapter, fake_discord):
    image = Attachment(
        AttachmentKind.IMAGE, "turn-3.png", b"\x89PNG" + b"0" * 100, "image/png", "the map"
    )
    video = Attachment(
        AttachmentKind.VIDEO, "replay.mp4", b"0" * (MAX_UPLOAD_BYTES + 1), "video/mp4"
    )
    await adapter.send(PUBLIC, Outbound("Game over.", attachments=(image, video), key="outbox-13"))
    [message] = fake_discord.requests_to("POST", CHANNEL_MESSAGES)
    assert [f[1] for f in message.files] == ["turn-3.png"]
    assert message.files[0][2] == image.data
    assert message.json["attachments"][0]["filename"] == "turn-3.png"
    assert message.json["attachments"][0]["description"] == "the map"
    assert message.json["content"].startswith("Game over.\n")
    assert "replay.mp4 not attached" in message.json["content"]


async def test_long_text_is_split_each_part_with_its_own_nonce(adapter, fake_discord):
    text = "\n".join(f"line {i:04d} " + "x" * 40 for i in range(100))  # ~5000 characters
    await adapter.send(PUBLIC, Outbound(text, key="outbox-14"))
    sent = fake_discord.requests_to("POST", CHANNEL_MESSAGES)
    assert len(sent) == 3
    assert all(len(r.json["content"]) <= 2000 for r in sent)
    assert "\n".join(r.json["content"] for r in sent) == text
    assert len({r.json["nonce"] for r in sent}) == 3


async def test_a_reply_to_a_typed_move_threads_under_it(adapter, fake_discord):
    address = Address("discord", channel=str(CHANNEL_ID), reply_to="1100000000000000999")
    await adapter.send(address, Outbound("Ahab fires at H14.", key="outbox-15"))
    [message] = fake_discord.requests_to("POST", CHANNEL_MESSAGES)
    assert str(message.json["message_reference"]["message_id"]) == "1100000000000000999"
    assert message.json["message_reference"]["fail_if_not_exists"] is False


async def test_mentions_never_ping_everyone(adapter, fake_discord):
    await adapter.send(PUBLIC, Outbound("@everyone Captain <@1> sank.", key="outbox-16"))
    [message] = fake_discord.requests_to("POST", CHANNEL_MESSAGES)
    assert "everyone" not in message.json["allowed_mentions"]["parse"]


async def test_nonsense_addresses_are_permanent(adapter):
    with pytest.raises(DeliveryError) as caught:
        await adapter.send(Address("discord", channel=""), Outbound("hello"))
    assert caught.value.permanent
    with pytest.raises(DeliveryError) as caught:
        await adapter.send(Address("twitter", channel="1"), Outbound("hello"))
    assert caught.value.permanent


async def test_the_token_is_sent_as_a_bot_token_and_never_shown(adapter, fake_discord):
    assert fake_discord.requests[0].authorization == f"Bot {TOKEN}"
    assert TOKEN not in repr(adapter)


LEAKED = "1234567890123"  # the id of a message someone typed in the channel
LEAKED_PATH = rf"/channels/{CHANNEL_ID}/messages/{LEAKED}"


async def test_withdraw_deletes_the_typed_message(adapter, fake_discord, spec):
    await adapter.withdraw(Address("discord", str(CHANNEL_ID), reply_to=LEAKED))
    [request] = fake_discord.requests_to("DELETE", LEAKED_PATH)
    assert request.json is None
    assert fake_discord.deleted == [(CHANNEL_ID, int(LEAKED))]
    # The route and its answer, as Discord documents them.
    operation = spec.document["paths"]["/channels/{channel_id}/messages/{message_id}"]["delete"]
    assert operation["operationId"] == "delete_message" and "204" in operation["responses"]


async def test_withdraw_without_manage_messages_is_a_permanent_failure(adapter, fake_discord):
    fake_discord.fail_next(
        "DELETE", LEAKED_PATH, 403, {"message": "Missing Permissions", "code": 50013}
    )
    with pytest.raises(DeliveryError) as caught:
        await adapter.withdraw(Address("discord", str(CHANNEL_ID), reply_to=LEAKED))
    assert caught.value.permanent is True and "50013" in str(caught.value)
    assert TOKEN not in str(caught.value)


async def test_withdraw_of_a_message_already_gone_is_done(adapter, fake_discord):
    fake_discord.fail_next(
        "DELETE", LEAKED_PATH, 404, {"message": "Unknown Message", "code": 10008}
    )
    await adapter.withdraw(Address("discord", str(CHANNEL_ID), reply_to=LEAKED))
    assert len(fake_discord.requests_to("DELETE", LEAKED_PATH)) == 1


async def test_withdraw_of_a_slash_command_held_by_a_shard_is_done_not_refused(
    adapter, fake_discord
):
    """With several processes a slash command is known as ``ID@SHARD``: it is no message
    (its options show to nobody but the asker), so there is nothing to delete, and no
    "permanent failure" to log."""
    await adapter.withdraw(Address("discord", str(CHANNEL_ID), reply_to=f"{LEAKED}@3"))
    assert not fake_discord.requests_to("DELETE", r"/channels/.*")


async def test_withdraw_of_a_rate_limited_delete_says_when_to_retry(adapter, fake_discord):
    fake_discord.fail_next(
        "DELETE",
        LEAKED_PATH,
        429,
        {"message": "You are being rate limited.", "retry_after": 0.5, "global": False},
        headers={"Retry-After": "0.5", "X-RateLimit-Scope": "user"},
    )
    with pytest.raises(DeliveryError) as caught:
        await adapter.withdraw(Address("discord", str(CHANNEL_ID), reply_to=LEAKED))
    assert caught.value.permanent is False


async def test_a_message_naming_a_crowd_is_split_each_part_pinging_its_own(adapter, fake_discord):
    """150 players named: Discord takes 100 users in allowed_mentions and 2,000 characters,
    so the message goes as several posts, none cutting a mention, each pinging its own."""
    crowd = [str(USER_ID + 1000 + n) for n in range(150)]
    text = "Turn 3: " + ", ".join(f"<@{user}>" for user in crowd) + ": 5 minutes left."
    await adapter.send(PUBLIC, Outbound(text, key="reminder-3", mentions=tuple(crowd)))

    assert fake_discord.refusals == []
    sent = fake_discord.requests_to("POST", CHANNEL_MESSAGES)
    assert len(sent) >= 2
    for request in sent:
        content = request.json["content"]
        assert len(content) <= 2000
        assert len(request.json["allowed_mentions"]["users"]) <= 100
        allowed = {str(user) for user in request.json["allowed_mentions"]["users"]}
        assert allowed == set(mentioned_users(content))
    pinged = [user for users in fake_discord.pinged(CHANNEL_ID) for user in users]
    assert sorted(pinged) == sorted(int(user) for user in crowd)  # each once


def test_a_split_never_cuts_a_mention():
    text = " ".join(f"<@{10**17 + n}>" for n in range(130))
    for limit, most in ((2000, 100), (500, 100), (2000, 7), (61, 100)):
        parts = split_text(text, limit, most)
        assert all(len(part) <= limit for part in parts)
        assert all(len(mentioned_users(part)) <= most for part in parts)
        assert " ".join(parts) == text  # cut only between words
    assert split_text("") == [""]
    assert split_text("a\nb", 2) == ["a", "b"]


async def test_a_post_with_its_games_page_carries_a_link_button(adapter, fake_discord):
    """Issue 28: a turn's post links the game's page; on Discord as a link button (style 5,
    its url, no custom id) beside the message's own buttons."""
    page = "https://bst.example.org/games/7"
    await adapter.send(
        PUBLIC,
        Outbound(
            "#sonar game 7, turn 3.",
            key="outbox-90",
            choices=(Choice("Status", "#sonar status"),),
            game=7,
            link=page,
        ),
    )
    await adapter.send(PUBLIC, Outbound("#sonar game 7, turn 4.", key="outbox-91", game=7))
    first, second = fake_discord.requests_to("POST", CHANNEL_MESSAGES)
    buttons = [c for row in first.json["components"] for c in row["components"]]
    [link] = [b for b in buttons if b.get("url")]
    assert link["style"] == 5 and link["url"] == page and "custom_id" not in link
    assert len(buttons) == 2  # the message's own button is kept
    assert not second.json.get("components")  # no page, no link button
