"""The fake is as strict as Bluesky where the bot could go wrong: what the real service
refuses, it refuses (so the adapter's passing tests mean something)."""

from __future__ import annotations

import pytest
from atproto import AsyncClient
from atproto_client import exceptions
from fake_bluesky import ALICE, APP_PASSWORD, BOT_DID, BOT_HANDLE


@pytest.fixture
async def client(fake_bsky):
    made = AsyncClient(fake_bsky.base_url)
    await made.login(BOT_HANDLE, APP_PASSWORD, fetch_bsky_profile=False)
    yield made
    await made.request.close()


def _post(text: str, **extra) -> dict:
    return {"$type": "app.bsky.feed.post", "text": text,
            "createdAt": "2026-07-26T09:00:00.000Z", **extra}  # fmt: skip


async def _create(client, record: dict, rkey: str = "3l2222222222a") -> None:
    await client.com.atproto.repo.create_record(
        data={"repo": BOT_DID, "collection": "app.bsky.feed.post", "rkey": rkey, "record": record}
    )


async def test_a_post_over_300_graphemes_is_refused(client, fake_bsky) -> None:
    with pytest.raises(exceptions.BadRequestError):
        await _create(client, _post("x" * 301))
    assert any("maxGraphemes 300" in v for v in fake_bsky.violations)
    fake_bsky.violations.clear()


async def test_a_facet_off_by_a_byte_is_refused(client, fake_bsky) -> None:
    text = "é #sonar"  # é is two bytes: the tag starts at byte 3, not 2
    facet = {"index": {"byteStart": 2, "byteEnd": 8},
             "features": [{"$type": "app.bsky.richtext.facet#tag", "tag": "sonar"}]}  # fmt: skip
    with pytest.raises(exceptions.BadRequestError):
        await _create(client, _post(text, facets=[facet]))
    assert any("tag facet" in v for v in fake_bsky.violations)
    fake_bsky.violations.clear()


async def test_a_record_key_is_used_once(client, fake_bsky) -> None:
    await _create(client, _post("one"))
    with pytest.raises(exceptions.BadRequestError):
        await _create(client, _post("two"))


async def test_chat_needs_the_proxy_header_and_takes_no_picture_nor_1001_graphemes(
    client, fake_bsky
) -> None:
    with pytest.raises(exceptions.RequestException):
        await client.chat.bsky.convo.get_convo_for_members(params={"members": [ALICE]})
    fake_bsky.violations.clear()
    chat = client.with_bsky_chat_proxy()
    convo = (await chat.chat.bsky.convo.get_convo_for_members(params={"members": [ALICE]})).convo
    with pytest.raises(exceptions.BadRequestError):
        await chat.chat.bsky.convo.send_message(
            data={"convoId": convo.id, "message": {"text": "y" * 1001}}
        )
    fake_bsky.violations.clear()
    images = {"$type": "app.bsky.embed.images", "images": []}
    with pytest.raises(exceptions.BadRequestError):
        await chat.chat.bsky.convo.send_message(
            data={"convoId": convo.id, "message": {"text": "board", "embed": images}}
        )
    fake_bsky.violations.clear()


async def test_an_app_password_without_dm_access_is_refused_the_chat(fake_bsky) -> None:
    fake_bsky.dm_access = False
    made = AsyncClient(fake_bsky.base_url)
    await made.login(BOT_HANDLE, APP_PASSWORD, fetch_bsky_profile=False)
    with pytest.raises(exceptions.UnauthorizedError) as refused:
        await made.with_bsky_chat_proxy().chat.bsky.convo.list_convos()
    assert "Bad token scope" in str(refused.value)
    await made.request.close()


async def test_a_spent_window_answers_429_with_the_ratelimit_headers(client, fake_bsky) -> None:
    fake_bsky.windows["*"].limit = len(fake_bsky.windows["*"].used) + 1
    await client.com.atproto.server.get_session()
    with pytest.raises(exceptions.RateLimitExceededError) as limited:
        await client.com.atproto.server.get_session()
    assert limited.value.remaining == 0 and limited.value.reset_at is not None
    assert limited.value.policy.endswith(";w=300")


async def test_logins_are_limited_to_30_in_5_minutes_and_300_a_day(fake_bsky) -> None:
    now = [0.0]
    fake_bsky.clock = lambda: now[0]
    allowed = []
    for n in range(320):
        now[0] = n * 11.0  # 30 in 5 minutes never binds at one every 11 s
        allowed.append(fake_bsky._spend("com.atproto.server.createSession")[1])
    assert allowed == [True] * 300 + [False] * 20
    now[0] = 86_400.0 + 11.0
    assert fake_bsky._spend("com.atproto.server.createSession")[1]
