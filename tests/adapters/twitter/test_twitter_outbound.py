"""Posts, DMs, media uploads and how X's failures become DeliveryErrors."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time

import pytest
from fake_x_api import Failure, x_error
from x_support import ALICE, BEARER, BOB, MUTE_LINE, SECRETS

from bot.adapters.short_posts import weighted_length
from bot.adapters.twitter import TwitterCredentials
from bot.config import TwitterConfig
from bot.host.messages import Address, Attachment, AttachmentKind, DeliveryError, Outbound

PUBLIC = Address("twitter", channel="timeline")
TO_ALICE = Address("twitter", channel="timeline", user_id=ALICE, user_name="@alice")
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 10_000  # ~2.4 MiB: three chunks
MP4 = b"\x00\x00\x00\x18ftypmp42" + b"\x01" * 1_500_000


def image(alt: str = "") -> Attachment:
    return Attachment(AttachmentKind.IMAGE, "map.png", PNG, "image/png", alt_text=alt)


async def test_a_public_post_carries_the_mute_line_and_replies_when_asked(fake_x, make_adapter):
    adapter = make_adapter()
    post_id = await adapter.send(
        Address("twitter", channel="timeline", reply_to="1800000000000000123"),
        Outbound("#bst game 7 · turn 4\nH14: hit!", key="out-1"),
    )
    (post,) = fake_x.posts
    assert post["id"] == post_id
    assert post["text"].endswith("\n\n" + MUTE_LINE)
    assert post["reply"] == {"in_reply_to_tweet_id": "1800000000000000123"}


async def test_long_public_posts_fit_280_weighted_chars_keeping_tag_and_mute_line(
    fake_x, make_adapter
):
    body = "\n".join(
        ["#bst game 7 · turn 12", "盤面 🚢 " * 40, "details https://example.org/replay/7 " * 10]
    )
    await make_adapter().send(PUBLIC, Outbound(body, key="out-2"))
    text = fake_x.posts[0]["text"]
    assert weighted_length(text) <= 280
    assert text.startswith("#bst game 7 · turn 12\n")
    assert text.endswith(MUTE_LINE)
    assert "…" in text


async def test_an_image_is_uploaded_in_chunks_with_alt_text(fake_x, make_adapter):
    await make_adapter().send(
        PUBLIC, Outbound("#bst game 1 · turn 2", attachments=[image("The public map")], key="k")
    )
    (media_id,) = fake_x.uploads
    upload = fake_x.uploads[media_id]
    assert upload["media_category"] == "tweet_image"
    assert upload["media_type"] == "image/png"
    assert sorted(upload["chunks"]) == [0, 1, 2]
    assert all(len(c) <= 1024 * 1024 for c in upload["chunks"].values())
    assert upload["data"] == PNG
    assert fake_x.metadata == [
        {"id": media_id, "metadata": {"alt_text": {"text": "The public map"}}}
    ]
    assert fake_x.posts[0]["media"] == {"media_ids": [media_id]}


async def test_a_video_upload_waits_for_processing(fake_x, make_adapter, sleeps):
    fake_x.processing_states = ["in_progress", "in_progress", "succeeded"]
    video = Attachment(AttachmentKind.VIDEO, "replay.mp4", MP4, "video/mp4", alt_text="replay")
    await make_adapter().send(PUBLIC, Outbound("#bst game 1 ends", attachments=[video], key="v"))
    (media_id,) = fake_x.uploads
    assert fake_x.uploads[media_id]["media_category"] == "tweet_video"
    assert fake_x.status_polls == [media_id] * 3
    assert sleeps == [5.0, 10.0, 10.0]  # check_after_secs, injected sleep
    assert fake_x.metadata == []  # alt text is for images and GIFs
    assert fake_x.posts[0]["media"] == {"media_ids": [media_id]}


async def test_a_failed_processing_is_permanent(fake_x, make_adapter):
    fake_x.processing_states = ["failed"]
    video = Attachment(AttachmentKind.VIDEO, "replay.mp4", MP4, "video/mp4")
    with pytest.raises(DeliveryError) as caught:
        await make_adapter().send(PUBLIC, Outbound("#bst game 1 ends", attachments=[video]))
    assert caught.value.permanent
    assert fake_x.posts == []


async def test_a_dm_carries_the_board_image(fake_x, make_adapter):
    event_id = await make_adapter().send(
        TO_ALICE, Outbound("Turn 4: your board", attachments=[image("your board")], key="dm-1")
    )
    ((participant, body),) = fake_x.dms
    (media_id,) = fake_x.uploads
    assert participant == ALICE
    assert body == {"text": "Turn 4: your board", "attachments": [{"media_id": media_id}]}
    assert fake_x.uploads[media_id]["media_category"] == "dm_image"
    assert event_id.isdigit()
    assert MUTE_LINE not in body["text"]  # DMs are not posts


async def test_429_gives_retry_after_from_the_reset_header(fake_x, make_adapter, clock):
    reset = int(clock.now) + 120
    fake_x.fail(
        "POST /2/tweets",
        Failure(
            429,
            x_error(429, "Too Many Requests", "Too Many Requests", 88),
            {
                "x-rate-limit-limit": "100",
                "x-rate-limit-remaining": "0",
                "x-rate-limit-reset": str(reset),
            },
        ),
    )
    with pytest.raises(DeliveryError) as caught:
        await make_adapter().send(PUBLIC, Outbound("#bst turn 1"))
    assert caught.value.retry_after == pytest.approx(120)
    assert not caught.value.permanent


async def test_a_spent_budget_fails_before_calling_x(fake_x, make_adapter, clock):
    reset = int(clock.now) + 900
    fake_x.extra_headers["POST /2/tweets"] = {
        "x-rate-limit-limit": "100",
        "x-rate-limit-remaining": "0",
        "x-rate-limit-reset": str(reset),
    }
    adapter = make_adapter()
    await adapter.send(PUBLIC, Outbound("#bst turn 1"))
    with pytest.raises(DeliveryError) as caught:
        await adapter.send(PUBLIC, Outbound("#bst turn 2"))
    assert caught.value.retry_after == pytest.approx(900)
    assert len(fake_x.calls("POST", "/2/tweets")) == 1
    clock.now = reset + 1  # the window reset: sending works again
    await adapter.send(PUBLIC, Outbound("#bst turn 2"))
    assert len(fake_x.posts) == 2


async def test_503_is_retryable(fake_x, make_adapter):
    fake_x.fail(
        "POST /2/tweets",
        Failure(503, x_error(503, "Service Unavailable", "Service Unavailable", 130)),
    )
    with pytest.raises(DeliveryError) as caught:
        await make_adapter().send(PUBLIC, Outbound("#bst turn 1"))
    assert not caught.value.permanent and caught.value.retry_after is None


async def test_a_duplicate_403_on_a_retry_of_the_same_row_counts_as_posted(fake_x, make_adapter):
    """With the bot's timeline unreadable (a 503), X's duplicate-content 403 on a retry
    whose first attempt may have arrived is that attempt: counted as posted."""
    adapter = make_adapter()
    fake_x.lost_responses["POST /2/tweets"] = 1  # posted, but the answer never came
    with pytest.raises(DeliveryError):
        await adapter.send(PUBLIC, Outbound("#bst game 3 · turn 5", key="outbox-41"))
    down = Failure(503, x_error(503, "Service Unavailable", "Service Unavailable", 130))
    fake_x.fail("GET /2/users/{id}/tweets", down, times=2)
    again = await adapter.send(
        PUBLIC, Outbound("#bst game 3 · turn 5", key="outbox-41", retry=True)
    )
    assert again == "duplicate:outbox-41"
    assert len(fake_x.posts) == 1


async def test_a_post_whose_answer_was_lost_is_found_on_its_retry_not_posted_again(
    fake_x, make_adapter
):
    """Issue 40: X posts take no idempotency key. A post made whose answer was lost (a
    timeout, a 503) is looked for among the bot's own posts before its retry posts
    anything: found (its text as X keeps it, links in t.co and & escaped), its id is the
    row's, and nothing is posted or uploaded again."""
    adapter = make_adapter()
    to_alice = Address("twitter", channel="1800000000000000100", reply_to="1800000000000000123")
    outbound = Outbound(
        "#bst game 3 · turn 5: Q&A <F3> hit", key="outbox-43",
        link="https://bst.example/g/3", attachments=(image("The map"),), written_at=time.time(),
    )  # fmt: skip
    fake_x.lost_responses["POST /2/tweets"] = 1  # posted, but the answer never came
    with pytest.raises(DeliveryError) as lost:
        await adapter.send(to_alice, outbound)
    assert not lost.value.permanent
    uploads = len(fake_x.uploads)
    again = await adapter.send(to_alice, dataclasses.replace(outbound, retry=True))
    [post] = fake_x.posts
    assert again == post["id"]
    assert len(fake_x.calls("POST", "/2/tweets")) == 1 and len(fake_x.uploads) == uploads


async def test_a_retry_whose_twin_is_another_rows_post_is_posted(fake_x, make_adapter):
    """A retry's duplicate-content 403 is its own earlier attempt only if that attempt is
    among the bot's posts: when the twin answers another player (two refused alike) and
    this row's first attempt never reached X, this row is posted, marked apart."""
    adapter = make_adapter()
    refusal = "that cell is off the board: expected a cell such as H14"
    to_alice = Address("twitter", channel="timeline", reply_to="1800000000000000123")
    to_bob = Address("twitter", channel="timeline", reply_to="1800000000000000456")
    await adapter.send(to_alice, Outbound(refusal, key="outbox-8"))
    down = Failure(503, x_error(503, "Service Unavailable", "Service Unavailable", 130))
    fake_x.fail("POST /2/tweets", down)  # X took nothing, but the outcome is unknown
    with pytest.raises(DeliveryError):
        await adapter.send(to_bob, Outbound(refusal, key="outbox-9"))
    again = await adapter.send(to_bob, Outbound(refusal, key="outbox-9", retry=True))
    assert again.isdigit()
    assert [p["reply"]["in_reply_to_tweet_id"] for p in fake_x.posts] == [
        "1800000000000000123",
        "1800000000000000456",
    ]


async def test_two_new_posts_with_the_same_words_are_both_posted(fake_x, make_adapter):
    """Issue 20, item 4: two players refused with the same words are two posts. X's
    duplicate-content 403 on a first attempt is not "already posted"."""
    adapter = make_adapter()
    to_alice = Address("twitter", channel="timeline", reply_to="1800000000000000123")
    to_bob = Address("twitter", channel="timeline", reply_to="1800000000000000456")
    refusal = "that cell is off the board: expected a cell such as H14"
    first = await adapter.send(to_alice, Outbound(refusal, key="outbox-8"))
    second = await adapter.send(to_bob, Outbound(refusal, key="outbox-9"))
    assert first.isdigit() and second.isdigit() and first != second
    assert [p["reply"]["in_reply_to_tweet_id"] for p in fake_x.posts] == [
        "1800000000000000123",
        "1800000000000000456",
    ]
    texts = [p["text"] for p in fake_x.posts]
    assert texts[0] != texts[1] and all(refusal in t for t in texts)


async def test_a_dm_to_someone_who_takes_no_dms_is_permanent(fake_x, make_adapter):
    fake_x.closed_dms.add(BOB)
    with pytest.raises(DeliveryError) as caught:
        await make_adapter().send(Address("twitter", user_id=BOB), Outbound("Turn 1: your board"))
    assert caught.value.permanent
    assert "cannot send messages" in str(caught.value)


async def test_bad_credentials_are_permanent_and_never_quoted(fake_x, make_adapter):
    wrong = TwitterCredentials(
        "FAKEWRONGKEY", "FAKEWRONGSECRET", "1-FAKEWRONGTOKEN", "FAKEWRONGACCESSSECRET"
    )
    with pytest.raises(DeliveryError) as caught:
        await make_adapter(credentials=wrong).send(PUBLIC, Outbound("#bst turn 1"))
    assert caught.value.permanent
    text = f"{caught.value} {caught.value!r} {caught.value.args}"
    assert "401" in text and "X_API_KEY" in text
    assert "FAKEWRONG" not in text
    assert caught.value.__context__ is None and caught.value.__cause__ is None


async def test_credentials_never_reach_logs_or_errors(fake_x, make_adapter, caplog, credentials):
    caplog.set_level(logging.DEBUG)
    adapter = make_adapter()
    fake_x.mention(ALICE, "@bstbot #bst H14")
    fake_x.dm(ALICE, "board")
    from x_support import Collector, MemoryCursors

    await adapter.fetch_since(MemoryCursors(), Collector())
    await adapter.send(PUBLIC, Outbound("#bst turn 1", attachments=[image("map")]))
    errors: list[BaseException] = []
    fake_x.fail("POST /2/tweets", Failure(503, x_error(503, "Service Unavailable", "x", 130)))
    fake_x.closed_dms.add(BOB)
    for address, outbound in (
        (PUBLIC, Outbound("#bst turn 2")),
        (Address("twitter", user_id=BOB), Outbound("hi")),
        (PUBLIC, Outbound("#bst turn 1")),  # duplicate: not an error, logged
    ):
        try:
            await adapter.send(address, outbound)
        except DeliveryError as error:
            errors.append(error)
    assert len(errors) == 2
    haystack = (
        caplog.text
        + " ".join(f"{r.getMessage()} {r.args}" for r in caplog.records)
        + " ".join(f"{e} {e!r}" for e in errors)
        + repr(credentials)
        + repr(adapter)
    )
    for value in SECRETS:
        assert value not in haystack
    assert any("X API request" in r.getMessage() for r in caplog.records)  # logging was on


DM_ROUTE = "POST /2/dm_conversations/with/{participant_id}/messages"


async def test_a_dm_whose_answer_was_lost_is_not_sent_twice_on_retry(fake_x, make_adapter):
    """X DMs take no idempotency key: X may have delivered a DM whose response was lost.
    The retry looks at the conversation first and finds it there."""
    adapter = make_adapter()
    board = Address("twitter", user_id=BOB)
    fake_x.lost_responses[DM_ROUTE] = 1
    with pytest.raises(DeliveryError) as caught:
        await adapter.send(board, Outbound("Turn 3: your board", key="outbox-7"))
    assert not caught.value.permanent and len(fake_x.dms) == 1  # delivered all the same
    again = await adapter.send(board, Outbound("Turn 3: your board", key="outbox-7", retry=True))
    assert len(fake_x.dms) == 1
    assert again == fake_x.sent_dm_events[0]["id"]
    assert not fake_x.violations


async def test_a_lost_board_dm_with_its_picture_is_found_on_retry_despite_its_tco_link(
    fake_x, make_adapter
):
    """X keeps a media DM's text with the media's t.co link at its end (and every link in
    it wrapped in t.co): the retry still recognises its own earlier send, and neither
    sends it nor uploads its picture again."""
    adapter = make_adapter()
    board = Address("twitter", user_id=BOB)
    fake_x.lost_responses[DM_ROUTE] = 1
    text = "Turn 3: your board, also at https://bst.example/games/1"
    lost = Outbound(text, attachments=(image(),), key="outbox-7")
    with pytest.raises(DeliveryError):
        await adapter.send(board, lost)
    [event] = fake_x.sent_dm_events
    assert event["text"] != text and "https://t.co/" in event["text"]  # as X keeps it
    uploads = len(fake_x.uploads)
    again = await adapter.send(board, dataclasses.replace(lost, retry=True))
    assert again == event["id"]
    assert len(fake_x.dms) == 1, "the retried board DM was sent twice"
    assert len(fake_x.uploads) == uploads  # its picture is not uploaded again either
    assert not fake_x.violations


async def test_a_retried_dm_that_never_arrived_is_sent(fake_x, make_adapter):
    adapter = make_adapter()
    board = Address("twitter", user_id=BOB)
    await adapter.send(board, Outbound("Turn 2: your board", key="outbox-5"))
    fake_x.fail(DM_ROUTE, Failure(503, x_error(503, "Service Unavailable", "x", 130)))
    with pytest.raises(DeliveryError):
        await adapter.send(board, Outbound("Turn 3: your board", key="outbox-7"))
    await adapter.send(board, Outbound("Turn 3: your board", key="outbox-7", retry=True))
    assert [body["text"] for _, body in fake_x.dms] == ["Turn 2: your board", "Turn 3: your board"]
    assert not fake_x.violations


def at(moment: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(moment.replace("Z", "+00:00")).timestamp()


async def test_a_retried_dm_overtaken_by_later_dms_is_still_found_and_not_sent_twice(
    fake_x, make_adapter
):
    """A lost DM, then more DMs to the same player (other rows), then the retry: the lost
    one is no longer the bot's newest in the conversation, and is found all the same
    among every DM sent since the message was written (on pages of X's size)."""
    adapter = make_adapter()
    board = Address("twitter", user_id=BOB)
    fake_x.dm_page_size = 2
    written = at("2026-07-26T10:06:00.000Z")
    fake_x.dm_sent_at = "2026-07-26T10:06:00.000Z"
    fake_x.lost_responses[DM_ROUTE] = 1
    lost = Outbound("Turn 3: your board", key="outbox-7", written_at=written)
    with pytest.raises(DeliveryError):
        await adapter.send(board, lost)
    fake_x.dm_sent_at = "2026-07-26T10:06:05.000Z"
    for key, text in (("outbox-8", "Turn 3: alice fired"), ("outbox-9", "Turn 3: ack")):
        await adapter.send(board, Outbound(text, key=key, written_at=written + 5))
    fake_x.dm("1600000000000000002", "f11", created_at="2026-07-26T10:06:06.000Z")
    again = await adapter.send(board, dataclasses.replace(lost, retry=True))
    assert [body["text"] for _, body in fake_x.dms].count("Turn 3: your board") == 1
    assert again == fake_x.sent_dm_events[0]["id"]
    assert not fake_x.violations


async def test_a_retried_dm_is_not_mistaken_for_the_same_words_sent_before_it_was_written(
    fake_x, make_adapter
):
    adapter = make_adapter()
    board = Address("twitter", user_id=BOB)
    fake_x.dm_sent_at = "2026-07-26T09:00:00.000Z"
    await adapter.send(board, Outbound("Your order is `hold`.", key="outbox-3"))
    fake_x.fail(DM_ROUTE, Failure(503, x_error(503, "Service Unavailable", "x", 130)))
    later = Outbound("Your order is `hold`.", key="outbox-9", written_at=at("2026-07-26T10:06:00Z"))
    with pytest.raises(DeliveryError):
        await adapter.send(board, later)
    fake_x.dm_sent_at = "2026-07-26T10:07:00.000Z"
    await adapter.send(board, dataclasses.replace(later, retry=True))
    assert [body["text"] for _, body in fake_x.dms].count("Your order is `hold`.") == 2


async def test_13_a_game_rooted_on_someone_elses_conversation_still_posts(fake_x, make_adapter):
    """`@bot #bst new` sent as a reply to carol's post: the game's thread is carol's
    conversation, where X lets the bot reply only if carol mentioned it. The answer to the
    `new` goes to the post that spoke to the bot; the game's other posts go top-level."""
    adapter = make_adapter()
    carols = "1700000000000000001"  # carol's post, which does not mention the bot
    fake_x.foreign_posts.add(carols)
    opened = fake_x.mention(ALICE, "@bstbot #bst new", conversation_id=carols)
    answer = Address("twitter", channel=carols, reply_to=opened)
    await adapter.send(answer, Outbound("#bst game 4 is open", key="outbox-1"))
    await adapter.send(Address("twitter", channel=carols), Outbound("#bst game 4 · turn 1"))
    first, second = fake_x.posts
    assert first["reply"] == {"in_reply_to_tweet_id": opened}
    assert "reply" not in second  # top-level: still posted
    assert not fake_x.violations


async def test_the_fake_x_is_strict_on_post_length_and_app_only_dms(fake_x, make_adapter):
    """X counts a post's weighted length (CJK and emoji twice, a URL 23) and refuses one
    over 280; and DM endpoints refuse an app-only (bearer) token, as X does."""
    import aiohttp
    from fake_x_api import x_weighted_length

    from bot.adapters.short_posts import weighted_length

    for text in ("a" * 280, "海" * 140, "see https://example.com/" + "x" * 80, "⚓" * 10):
        assert x_weighted_length(text) == weighted_length(text), text
    status, body = fake_x._post_2_tweets(None, {"text": "海" * 141})
    assert status == 400
    fake_x.spec.validate_response("POST", "/2/tweets", 400, "application/json", body)
    # The adapter's posts always fit, CJK included.
    adapter = make_adapter()
    await adapter.send(PUBLIC, Outbound("#bst game 7 · " + "海" * 200, key="out-9"))
    (post,) = fake_x.posts
    assert x_weighted_length(post["text"]) <= 280
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            f"{fake_x.base_url}/2/dm_events", headers={"Authorization": f"Bearer {BEARER}"}
        ) as response,
    ):
        assert response.status == 403


async def test_a_deadlines_posts_and_dms_are_spread_at_the_configured_pace(
    fake_x, make_adapter, clock
):
    """Ten posts and ten DMs sent together go out one slot apart (posts 6 a minute, DMs
    12), every one of them: spread, never dropped. The two paces are separate."""
    waited: list[tuple[str, float]] = []
    sending = ["?"]

    async def sleep(seconds: float) -> None:
        waited.append((sending[0], seconds))
        await asyncio.sleep(0)

    config = TwitterConfig(
        enabled=True, bot_user_id=fake_x.bot_id, posts_per_minute=6, dms_per_minute=12
    )
    adapter = make_adapter(config=config, sleep=sleep)

    async def post(n: int) -> str:
        return await adapter.send(PUBLIC, Outbound(f"#bst game {n} · turn 2", key=f"map-{n}"))

    async def dm(n: int) -> str:
        return await adapter.send(TO_ALICE, Outbound(f"Your board {n}", key=f"board-{n}"))

    sending[0] = "post"
    await asyncio.gather(*(post(n) for n in range(10)))
    sending[0] = "dm"
    await asyncio.gather(*(dm(n) for n in range(10)))
    assert len(fake_x.posts) == 10 and len(fake_x.dms) == 10
    # Nine of each waited (the first goes at once), for their slots 10 s and 5 s apart.
    assert sorted(s for kind, s in waited if kind == "post") == pytest.approx(
        [10.0 * k for k in range(1, 10)]
    )
    assert sorted(s for kind, s in waited if kind == "dm") == pytest.approx(
        [5.0 * k for k in range(1, 10)]
    )


async def test_a_pace_of_0_sends_at_once(fake_x, make_adapter, sleeps):
    config = TwitterConfig(
        enabled=True, bot_user_id=fake_x.bot_id, posts_per_minute=0, dms_per_minute=0
    )
    adapter = make_adapter(config=config)
    for n in range(3):
        await adapter.send(PUBLIC, Outbound(f"#bst game {n}", key=f"map-{n}"))
    assert sleeps == [] and len(fake_x.posts) == 3


async def test_a_public_post_links_the_games_page_within_280(fake_x, make_adapter):
    page = "https://bst.example.org/games/7"
    body = "#bst game 7 · turn 12: " + "H14 hit by captain, " * 30
    await make_adapter().send(PUBLIC, Outbound(body, key="out-9", link=page))
    text = fake_x.posts[0]["text"]
    assert weighted_length(text) <= 280
    assert f"\n{page}\n" in text and text.endswith(MUTE_LINE)
