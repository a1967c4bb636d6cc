"""Posts and chat messages out: records valid against the lexicons, facets on the right
UTF-8 bytes, replies threaded under the game's root, pictures within 1 MB with alt text,
record keys that make a retry harmless, text-only DMs within 1,000 graphemes, a player
who refuses DMs, the pace, the write budget, 429s, the mention budget, the bot label."""

from __future__ import annotations

import io
import random

import pytest
from bluesky_support import MemoryCursors
from fake_bluesky import ALICE, BOB, BOT_DID, BOT_HANDLE, CAROL, XrpcError
from PIL import Image

from bot.adapters.bluesky.platform import BlueskyConfig
from bot.adapters.bluesky.sending import tid_for
from bot.adapters.bluesky.text import dm_parts
from bot.host.messages import Address, Attachment, AttachmentKind, DeliveryError, Outbound

PUBLIC = Address("bluesky")


def noisy_png(width: int, height: int) -> bytes:
    """A picture PNG cannot squeeze below 1 MB."""
    rng = random.Random(7)
    image = Image.frombytes("RGB", (width, height), rng.randbytes(width * height * 3))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


async def test_a_post_carries_its_tags_as_facets_on_utf8_bytes(fake_bsky, make_adapter):
    adapter = make_adapter()
    text = "Ça commence: #sonar game 3 is open — reply #sonar join ⚓"
    uri = await adapter.send(PUBLIC, Outbound(text, key="outbox-1", written_at=1.0))
    (post,) = fake_bsky.bot_posts()
    assert post["uri"] == uri
    record = post["value"]
    data = record["text"].encode()
    tags = [
        data[f["index"]["byteStart"] : f["index"]["byteEnd"]].decode()
        for f in record["facets"]
        if f["features"][0]["$type"].endswith("#tag")
    ]
    assert tags == ["#sonar", "#sonar", "#sonar"]  # the mute line names it too
    assert record["text"].endswith("mute #sonar to hide Sonar")
    assert uri.rsplit("/", 1)[1] == tid_for("outbox-1", 1.0)


async def test_a_long_post_is_cut_to_300_graphemes_keeping_its_game_line(fake_bsky, make_adapter):
    adapter = make_adapter()
    text = "#sonar game 3, turn 2: " + " ".join(f"@x{i} missed A{i}." for i in range(90))
    await adapter.send(PUBLIC, Outbound(text, key="outbox-2"))
    (post,) = fake_bsky.bot_posts()
    assert len(post["value"]["text"]) <= 300
    assert post["value"]["text"].startswith("#sonar game 3, turn 2:")


async def test_replies_thread_under_the_games_root_with_uri_and_cid(fake_bsky, make_adapter):
    adapter = make_adapter()
    root = fake_bsky.post(CAROL, f"@{BOT_HANDLE} #bst new")
    shot = fake_bsky.post(ALICE, "#bst f3", reply_to=root)
    await adapter.send(
        Address("bluesky", channel=root, reply_to=shot), Outbound("#bst game 1: f3 noted", key="a")
    )
    await adapter.send(Address("bluesky", channel=root), Outbound("#bst game 1, turn 1", key="b"))
    first, second = fake_bsky.bot_posts()
    refs = first["value"]["reply"]
    assert (refs["root"]["uri"], refs["root"]["cid"]) == (root, fake_bsky.records[root]["cid"])
    assert (refs["parent"]["uri"], refs["parent"]["cid"]) == (shot, fake_bsky.records[shot]["cid"])
    assert second["value"]["reply"]["parent"]["uri"] == root
    assert second["value"]["reply"]["root"]["uri"] == root


async def test_a_map_over_1_mb_is_re_encoded_to_fit_with_its_alt_text(fake_bsky, make_adapter):
    adapter = make_adapter()
    big = noisy_png(900, 700)
    assert len(big) > 1_000_000
    picture = Attachment(AttachmentKind.IMAGE, "map.png", big, "image/png", "The map of turn 1")
    await adapter.send(PUBLIC, Outbound("#bst game 1, turn 1", (picture,), key="m"))
    (post,) = fake_bsky.bot_posts()
    (image,) = post["value"]["embed"]["images"]
    assert image["alt"] == "The map of turn 1"
    assert image["image"]["size"] <= 1_000_000
    assert image["aspectRatio"]["width"] > 0


async def test_a_picture_without_alt_text_gets_the_messages_first_line(fake_bsky, make_adapter):
    adapter = make_adapter()
    small = Attachment(AttachmentKind.IMAGE, "map.png", noisy_png(20, 20), "image/png")
    await adapter.send(PUBLIC, Outbound("#bst game 1, turn 1\nmore", (small,), key="n"))
    (post,) = fake_bsky.bot_posts()
    assert post["value"]["embed"]["images"][0]["alt"] == "#bst game 1, turn 1"


async def test_a_retry_whose_first_attempt_arrived_does_not_post_twice(fake_bsky, make_adapter):
    adapter = make_adapter()
    fake_bsky.lose_answer_of.add("com.atproto.repo.createRecord")
    uri = await adapter.send(PUBLIC, Outbound("#bst game 1, turn 1", key="outbox-9"))
    again = await adapter.send(PUBLIC, Outbound("#bst game 1, turn 1", key="outbox-9", retry=True))
    assert uri == again
    assert len(fake_bsky.bot_posts()) == 1


async def test_a_dm_is_text_only_split_within_1000_graphemes(fake_bsky, make_adapter):
    adapter = make_adapter()
    board = "\n".join("ABCDEFGHIJ" * 6 for _ in range(30))  # 1,830 characters
    picture = Attachment(AttachmentKind.IMAGE, "board.png", b"png", "image/png")
    assert adapter.accepts_attachments(Address("bluesky", user_id=ALICE)) is False
    assert adapter.accepts_attachments(PUBLIC) is True
    await adapter.send(
        Address("bluesky", user_id=ALICE), Outbound(f"Your board:\n{board}", (picture,), key="d")
    )
    parts = fake_bsky.dms_to(ALICE)
    assert len(parts) == 2
    assert all(len(part) <= 1000 for part in parts)
    assert "\n".join(parts) == f"Your board:\n{board}"


async def test_a_retried_dm_that_arrived_is_not_sent_again(fake_bsky, make_adapter):
    adapter = make_adapter()
    fake_bsky.lose_answer_of.add("chat.bsky.convo.sendMessage")
    with pytest.raises(DeliveryError):
        await adapter.send(Address("bluesky", user_id=BOB), Outbound("Board: …", key="r"))
    await adapter.send(
        Address("bluesky", user_id=BOB), Outbound("Board: …", key="r", retry=True, written_at=0)
    )
    assert fake_bsky.dms_to(BOB) == ["Board: …"]


async def test_a_player_who_refuses_dms_is_told_in_public_by_the_host(fake_bsky, make_adapter):
    fake_bsky.people[BOB].accepts_dms = False
    adapter = make_adapter()
    with pytest.raises(DeliveryError) as refused:
        await adapter.send(Address("bluesky", channel="at://x", user_id=BOB), Outbound("hi"))
    assert refused.value.dms_closed and refused.value.permanent


async def test_dms_and_posts_keep_their_pace(fake_bsky, make_adapter, sleeps):
    adapter = make_adapter()
    for n in range(3):
        await adapter.send(Address("bluesky", user_id=ALICE), Outbound(f"dm {n}", key=f"d{n}"))
    assert sleeps == [2.0, 4.0]  # 30 a minute: 2 s apart (the test's clock stands still)
    sleeps.clear()
    for n in range(3):
        await adapter.send(PUBLIC, Outbound(f"#bst game {n}", key=f"p{n}"))
    assert sleeps == [12.0, 24.0]  # 5 a minute


async def test_the_write_budget_holds_a_post_back_before_bluesky_would(fake_bsky, make_adapter):
    config = BlueskyConfig(enabled=True, handle=BOT_HANDLE, points_per_hour=6)
    adapter = make_adapter(config=config)
    await adapter.send(PUBLIC, Outbound("#bst game 1", key="1"))
    await adapter.send(PUBLIC, Outbound("#bst game 2", key="2"))
    with pytest.raises(DeliveryError) as held:
        await adapter.send(PUBLIC, Outbound("#bst game 3", key="3"))
    assert held.value.retry_after is not None and held.value.retry_after > 3000
    assert len(fake_bsky.bot_posts()) == 2


async def test_a_429_says_when_to_try_again_from_the_ratelimit_headers(
    fake_bsky, make_adapter, clock
):
    adapter = make_adapter()
    fake_bsky.fail_next["com.atproto.repo.createRecord"] = XrpcError(429, "RateLimitExceeded")
    with pytest.raises(DeliveryError) as limited:
        await adapter.send(PUBLIC, Outbound("#bst game 1", key="1"))
    assert limited.value.retry_after is not None and not limited.value.permanent


async def test_a_spent_rate_window_is_waited_for_without_asking(fake_bsky, make_adapter):
    adapter = make_adapter()
    fake_bsky.windows["*"].limit = 6  # the login, the session, the write: then spent
    with pytest.raises(DeliveryError):
        for n in range(6):
            await adapter.send(PUBLIC, Outbound(f"#bst game {n}", key=str(n)))
    asked = len(fake_bsky.requests)
    with pytest.raises(DeliveryError) as waiting:
        await adapter.send(PUBLIC, Outbound("#bst game 9", key="9"))
    assert waiting.value.retry_after is not None
    assert len(fake_bsky.requests) == asked  # no request spent on a certain 429


async def test_mentions_beyond_the_hours_budget_are_plain_names(fake_bsky, make_adapter):
    config = BlueskyConfig(enabled=True, handle=BOT_HANDLE, mentions_per_hour=2)
    adapter = make_adapter(config=config)
    names = [
        adapter.mention(Address("bluesky", user_id=did, user_name=f"@{handle}"))
        for did, handle in (
            (ALICE, "alice.bsky.social"),
            (BOB, "bob.bsky.social"),
            (CAROL, "carol.bsky.social"),
        )
    ]
    await adapter.send(
        PUBLIC,
        Outbound("#bst game 1: " + ", ".join(names), key="x", mentions=(ALICE, BOB, CAROL)),
    )
    (post,) = fake_bsky.bot_posts()
    mentioned = [
        f["features"][0]["did"]
        for f in post["value"]["facets"]
        if f["features"][0]["$type"].endswith("#mention")
    ]
    assert mentioned == [ALICE, BOB]
    assert "@carol.bsky.social" in post["value"]["text"]


async def test_start_labels_the_account_as_a_bot_once(fake_bsky, make_adapter):
    adapter = make_adapter()

    async def ignore(_inbound) -> None:
        return None

    await adapter.start(ignore)
    profile = fake_bsky.records[f"at://{BOT_DID}/app.bsky.actor.profile/self"]["value"]
    assert [label["val"] for label in profile["labels"]["values"]] == ["bot"]
    assert await adapter.label_as_bot() is False  # already labelled: nothing written


async def test_posts_never_name_the_app_password_and_cursors_hold_no_password(
    fake_bsky, make_adapter
):
    cursors = MemoryCursors()
    adapter = make_adapter(cursors)
    await adapter.send(PUBLIC, Outbound("#bst game 1", key="1"))
    assert all("abcd-efgh-ijkl-mnop" not in v for v in cursors.values.values())


def test_record_keys_are_tids_one_per_outbox_row() -> None:
    """Rows written in the same second (a turn's posts) never share a record key."""
    keys = {tid_for(f"outbox-{n}", 1_785_056_400.25) for n in range(1, 5001)}
    assert len(keys) == 5000
    assert tid_for("outbox-7", 1_785_056_400.25) == tid_for("outbox-7", 1_785_056_400.9)
    assert all(len(k) == 13 and k[0] in "234567abcdefghij" for k in keys)
    later = tid_for("outbox-8", 1_785_056_401.0)
    assert later > tid_for("outbox-7", 1_785_056_400.0)  # sortable by time


async def test_a_cut_post_keeps_its_proof_whole_and_links_the_games_page(fake_bsky, make_adapter):
    """Issues 28 and 31 on Bluesky: a long turn post keeps its receipts root whole (the
    host's ``keep``) and its game page link, each as on X, within 300 graphemes."""
    adapter = make_adapter()
    proof = "Receipts root " + "cd" * 32 + "."
    page = "https://bst.example.org/games/3"
    text = "#sonar game 3, turn 2: " + " ".join(f"x{i} missed A{i}." for i in range(60))
    await adapter.send(
        PUBLIC, Outbound(text + " " + proof, key="outbox-9", link=page, keep=(proof,))
    )
    (post,) = fake_bsky.bot_posts()
    posted = post["value"]["text"]
    assert len(posted) <= 300 and posted.startswith("#sonar game 3, turn 2:")
    assert proof in posted and page in posted
    links = [f for f in post["value"]["facets"] if f["features"][0]["$type"].endswith("#link")]
    assert [f["features"][0]["uri"] for f in links] == [page]


async def test_a_dm_refused_midway_sends_only_its_parts_not_yet_delivered_next_time(
    fake_bsky, make_adapter, monkeypatch
):
    """A long DM goes as several chat messages; a 429 on its second says the chat service
    took nothing of that one (so the next attempt is no 'retry' that looks first), but the
    first did arrive: the next attempt sends the rest, not the first again."""
    adapter = make_adapter()
    board = "\n".join(f"Row {n:03d}: " + "~ " * 40 for n in range(30))  # three messages
    send = fake_bsky.x_chat_bsky_convo_sendMessage
    calls = []

    def refuse_the_second(**kwargs):
        calls.append(kwargs["body"]["message"]["text"])
        if len(calls) == 2:
            raise XrpcError(429, "RateLimitExceeded", "Rate Limit Exceeded")
        return send(**kwargs)

    monkeypatch.setattr(fake_bsky, "x_chat_bsky_convo_sendMessage", refuse_the_second)
    to_alice = Address("bluesky", user_id=ALICE, user_name="alice.bsky.social")
    with pytest.raises(DeliveryError) as limited:
        await adapter.send(to_alice, Outbound(board, key="outbox-7", written_at=1.0))
    assert limited.value.retry_after is not None  # a refusal: the relay will not 'retry'
    ids = await adapter.send(to_alice, Outbound(board, key="outbox-7", written_at=1.0))
    assert len(dm_parts(board)) == 3
    assert fake_bsky.dms_to(ALICE) == dm_parts(board), "a part came twice"
    assert len(ids.split(",")) == 3
