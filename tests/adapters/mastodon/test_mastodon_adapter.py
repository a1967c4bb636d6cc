"""The Mastodon adapter against a strict fake instance, through the real Mastodon.py."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from fake_mastodon import FakeMastodon
from mastodon import MastodonServerError
from mastodon_support import Collector, MemoryCursors

from bot.adapters.mastodon.client import PLATFORM, RateLimited
from bot.adapters.mastodon.reading import NOTIFICATIONS_CURSOR
from bot.adapters.mastodon.section import MastodonConfig
from bot.host.messages import (
    Address,
    Attachment,
    AttachmentKind,
    DeliveryError,
    InboundKind,
    Outbound,
    PlatformRefused,
)

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64


def picture(n: int = 0) -> Attachment:
    return Attachment(AttachmentKind.IMAGE, f"map{n}.png", PNG, "image/png", f"The map, {n}")


async def test_start_marks_the_account_a_bot_and_accepts_private_mentions(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    assert not fake.bot.bot and fake.policy["for_private_mentions"] == "filter"
    adapter = make_adapter()
    await adapter.start(Collector())
    assert fake.bot.bot
    assert fake.policy["for_private_mentions"] == "accept"
    # Unchanged otherwise: limited accounts stay filtered (the moderators' call).
    assert fake.policy["for_limited_accounts"] == "filter"


async def test_a_refused_token_stops_the_host_saying_what_to_make(make_adapter: Any) -> None:
    adapter = make_adapter(access_token="wrong")
    with pytest.raises(PlatformRefused) as refused:
        await adapter.start(Collector())
    assert "read write" in str(refused.value) and "MASTODON_ACCESS_TOKEN" in str(refused.value)


async def test_mentions_and_direct_mentions_arrive_by_the_stream(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    alice = fake.add_account("alice", "Alice")
    bob = fake.add_account("bob", "Bob", domain="elsewhere.example")
    adapter = make_adapter()
    got = Collector()
    await adapter.start(got)
    await _streaming(fake)
    public = fake.mention(alice, "#sonar new")
    private = fake.dm(bob, "move E 2")
    await got.wait_for(2)
    first, second = got.items
    assert (first.kind, first.text, first.message_id, first.channel) == (
        InboundKind.PUBLIC, "#sonar new", public, public
    )  # fmt: skip
    assert first.sender.user_id == alice.id and first.sender.display_name == "@alice"
    assert (second.kind, second.text, second.message_id) == (InboundKind.DM, "move E 2", private)
    assert second.sender.display_name == "@bob@elsewhere.example"
    # Read by the stream alone: no poll after the one that followed the connection.
    assert fake.requests.count(("GET", "/api/v1/notifications")) == 1


async def _streaming(fake: FakeMastodon, connections: int = 1) -> None:
    for _ in range(200):
        if len(fake.streams) >= 1 and fake.stream_connections >= connections:
            await asyncio.sleep(0.1)  # the poll that follows the connection
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the adapter never connected to the stream")


async def test_a_dropped_stream_loses_nothing_the_reconnect_reads_since_the_cursor(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    alice = fake.add_account("alice", "Alice")
    adapter = make_adapter()
    got = Collector()
    await adapter.start(got)
    await _streaming(fake)
    fake.mention(alice, "#sonar 1 f1")
    await got.wait_for(1)
    await fake.drop_streams()
    # Sent while no stream is connected: no stream will ever bring these.
    missed = [fake.mention(alice, f"#sonar 1 f{n}") for n in range(2, 5)]
    await got.wait_for(4)
    await _streaming(fake, connections=2)
    fake.mention(alice, "#sonar 1 f9")
    await got.wait_for(5)
    await asyncio.sleep(0.2)
    ids = [item.message_id for item in got.items]
    assert ids[1:4] == missed and len(ids) == len(set(ids)) == 5, "each once, in order"
    assert [i.text for i in got.items][-1] == "#sonar f9"


async def test_first_start_ignores_the_backlog_then_polls_forward_page_by_page(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    alice = fake.add_account("alice", "Alice")
    fake.mention(alice, "#sonar join")  # before the bot ever ran
    cursors = MemoryCursors()
    adapter = make_adapter(cursors, config={"stream": False})
    got = Collector()
    await adapter.fetch_since(cursors, got)
    assert got.items == [] and cursors.values[(PLATFORM, NOTIFICATIONS_CURSOR)]
    # 170 mentions while the bot was down: three pages of 80, oldest first, none lost.
    sent = [fake.mention(alice, f"#sonar say {n}") for n in range(170)]
    assert await adapter.fetch_since(cursors, got) == 170
    assert [i.message_id for i in got.items] == sent
    assert await adapter.fetch_since(cursors, got) == 0, "caught up exactly once"


async def test_a_direct_post_reaches_its_player_alone_naming_nobody_else(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    alice = fake.add_account("alice", "Alice")
    bob = fake.add_account("bob", "Bob")
    carol = fake.add_account("carol", "Carol", domain="elsewhere.example")
    adapter = make_adapter()
    text = "Turn 2: @bob hit your sub at B2; @carol@elsewhere.example missed. @alice, your move."
    sent = await adapter.send(
        Address(PLATFORM, user_id=alice.id, user_name="@alice"),
        Outbound(text, attachments=(picture(),), key="outbox-7"),
    )
    [status] = fake.direct_to(alice)
    assert status.id == sent and status.audience == {alice.id}
    assert "@bob" not in status.text and "@carol" not in status.text and "bob hit" in status.text
    assert status.media and status.media[0]["description"] == "The map, 0"
    assert fake.direct_to(bob) == [] and fake.direct_to(carol) == []


async def test_a_retried_post_is_posted_once(fake: FakeMastodon, make_adapter: Any) -> None:
    adapter = make_adapter()
    outbound = Outbound("#sonar game 3 is open", key="outbox-12")
    first = await adapter.send(Address(PLATFORM, channel=""), outbound)
    again = await adapter.send(
        Address(PLATFORM, channel=""), Outbound(**{**outbound.__dict__, "retry": True})
    )
    assert first == again and len(fake.posts_by_bot()) == 1
    assert fake.posts_by_bot()[0].idempotency_key == "bst-outbox-12"


async def test_posts_fit_the_instance_limits(fake: FakeMastodon, make_adapter: Any) -> None:
    fake.max_characters = 200
    adapter = make_adapter()
    long = "#sonar game 3, turn 2: " + " ".join(f"shot {n}" for n in range(100))
    await adapter.send(
        Address(PLATFORM), Outbound(long, attachments=tuple(picture(n) for n in range(6)))
    )
    first, *rest = fake.posts_by_bot()
    assert all(len(s.text) <= 200 for s in (first, *rest)) and rest, "split, not cut"
    assert first.text.startswith(f"(1/{len(rest) + 1}) #sonar game 3, turn 2:")
    assert len(first.media) == 4 and all(m["description"] for m in first.media)
    assert "shot 99" in rest[-1].text and "…" not in "".join(s.text for s in rest)
    assert all("#sonar" in s.text for s in rest), "muting the tag hides every part"
    # One thread, in order: each part answers the one before it.
    assert [s.in_reply_to_id for s in rest] == [first.id, *(s.id for s in rest[:-1])]


async def test_rate_limits_are_raised_with_their_wait_not_slept_on(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    adapter = make_adapter()
    await adapter.send(Address(PLATFORM), Outbound("#sonar one", key="outbox-1"))
    fake.requests_in_window = fake.requests_per_window  # the window is spent
    with pytest.raises(DeliveryError) as limited:
        await adapter.send(Address(PLATFORM), Outbound("#sonar two", key="outbox-2"))
    assert limited.value.retry_after and 0 < limited.value.retry_after <= 302
    before = len(fake.requests)
    # The headers said so: the next send fails fast, without a request.
    with pytest.raises(DeliveryError):
        await adapter.send(Address(PLATFORM), Outbound("#sonar three", key="outbox-3"))
    assert len(fake.requests) == before


async def test_past_the_media_budget_maps_go_without_pictures_and_boards_as_text(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    """Issue 40.3: 30 uploads per 30 minutes. Past them nothing waits: a map goes
    without its picture (linking its page), a board as its words; boards leave the last
    two uploads to the maps."""
    alice = fake.add_account("alice", "Alice")
    adapter = make_adapter()
    for n in range(7):
        await adapter.send(
            Address(PLATFORM),
            Outbound(
                f"#sonar map {n}", attachments=tuple(picture(k) for k in range(4)), key=f"o{n}"
            ),
        )
    board = Attachment(AttachmentKind.IMAGE, "b.png", PNG, "image/png", "Your board: sub at A2")
    await adapter.send(
        Address(PLATFORM, user_id=alice.id), Outbound("#sonar turn 8", (board,), key="d8")
    )
    [dm] = fake.direct_to(alice)
    assert not dm.media and "Your board: sub at A2" in dm.text, "kept back for the maps"
    page = "https://bst.example.org/games/3"
    await adapter.send(
        Address(PLATFORM),
        Outbound("#sonar map 8", tuple(picture(k) for k in range(4)), key="o8", link=page),
    )
    await adapter.send(
        Address(PLATFORM), Outbound("#sonar map 9", (picture(),), key="o9", link=page)
    )
    *_, eighth, ninth = fake.posts_by_bot("public")
    assert len(eighth.media) == 2 and not ninth.media and page in ninth.text
    # The 31st upload was never asked for: the adapter counted them.
    assert len(fake.uploads) == 30 and fake.requests.count(("POST", "/api/v2/media")) == 30


async def test_a_429_on_an_upload_rests_the_pictures_not_the_posts(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    alice = fake.add_account("alice", "Alice")
    adapter = make_adapter()
    fake.fail_next("POST", "/api/v2/media", 429)
    board = Attachment(AttachmentKind.IMAGE, "b.png", PNG, "image/png", "Your board: sub at A2")
    await adapter.send(Address(PLATFORM), Outbound("#sonar map 1", (picture(),), key="o1"))
    await adapter.send(
        Address(PLATFORM, user_id=alice.id), Outbound("#sonar turn 1", (board,), key="d1")
    )
    [post] = fake.posts_by_bot("public")
    [dm] = fake.direct_to(alice)
    assert not post.media and not dm.media and "Your board: sub at A2" in dm.text
    assert fake.requests.count(("POST", "/api/v2/media")) == 1, "the family rests"


async def test_a_reply_in_a_games_thread_belongs_to_it(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    alice = fake.add_account("alice", "Alice")
    bob = fake.add_account("bob", "Bob")
    cursors = MemoryCursors()
    adapter = make_adapter(cursors, config={"stream": False, "backfill": True})
    root = fake.mention(alice, "#sonar new")
    got = Collector()
    await adapter.fetch_since(cursors, got)
    answer = await adapter.send(Address(PLATFORM, channel=root, reply_to=root),
                                Outbound("#sonar game 1 is open"))  # fmt: skip
    assert fake.statuses[answer].in_reply_to_id == root
    under_answer = fake.mention(bob, "#sonar join", in_reply_to_id=answer)
    deeper = fake.mention(alice, "#sonar f1", in_reply_to_id=under_answer)
    elsewhere = fake.mention(bob, "#sonar 1 f2")  # names its game by number
    await adapter.fetch_since(cursors, got)
    channels = {i.message_id: (i.channel, i.text) for i in got.items}
    assert channels[under_answer] == (root, "#sonar join")
    assert channels[deeper] == (root, "#sonar f1")
    assert channels[elsewhere] == (root, "#sonar f2")


async def test_a_restart_catches_up_exactly_once_and_a_first_start_ignores_the_backlog(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    alice = fake.add_account("alice", "Alice")
    fake.mention(alice, "#sonar new")  # sent before the bot ever ran: not a command now
    cursors = MemoryCursors()
    got = Collector()
    first = make_adapter(cursors)
    await first.start(got)
    await _streaming(fake)
    live = fake.mention(alice, "#sonar join")
    await got.wait_for(1)
    await first.stop()
    await fake.drop_streams()
    down = [fake.mention(alice, f"#sonar say {n}") for n in range(3)]  # while it is down
    second = make_adapter(cursors)
    await second.start(got)
    await got.wait_for(4)
    await _streaming(fake, connections=2)
    after = fake.mention(alice, "#sonar f1")
    await got.wait_for(5)
    await asyncio.sleep(0.2)
    assert [i.message_id for i in got.items] == [live, *down, after]


async def test_with_the_streaming_server_down_mentions_are_polled_ever_less_often(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    fake.streaming_down = True
    alice = fake.add_account("alice", "Alice")
    waits: list[float] = []
    links: list[bool] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        links.append(adapter.link.connected)  # after the poll that followed the failure
        await asyncio.sleep(0.01)

    got = Collector()
    adapter = make_adapter(sleep=sleep)
    await adapter.start(got)
    sent = fake.mention(alice, "#sonar join")
    await got.wait_for(1)
    for _ in range(200):
        if len(waits) >= 5:
            break
        await asyncio.sleep(0.02)
    assert [i.message_id for i in got.items] == [sent]
    # Each failed connection is followed by a poll, then a longer wait (at most `poll`).
    assert waits[:5] == [1.0, 5.0, 15.0, 60.0, 60.0]
    assert all(links[:5]), "the polls answer: the link is up"


async def test_a_status_the_instance_refuses_is_not_retried(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    adapter = make_adapter()
    await adapter.send(Address(PLATFORM), Outbound("#sonar game 1 is open", key="outbox-1"))
    fake.max_characters = 20  # the instance's limit changed after the bot read it
    with pytest.raises(DeliveryError) as refused:
        await adapter.send(Address(PLATFORM), Outbound("#sonar game 2 is open", key="outbox-2"))
    assert refused.value.permanent and "422" in str(refused.value)
    assert "character limit" in str(refused.value)


async def test_a_cut_post_keeps_its_proof_whole_and_links_the_games_page(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    """Issues 28 and 31 on Mastodon: a post cut to the instance's limit keeps its
    receipts root whole (the host's ``keep``) and the game page's link."""
    fake.max_characters = 300
    adapter = make_adapter()
    proof = "Receipts root " + "cd" * 32 + "."
    page = "https://bst.example.org/games/3"
    long = "#sonar game 3, turn 2: " + " ".join(f"shot {n}" for n in range(100)) + " " + proof
    await adapter.send(Address(PLATFORM), Outbound(long, link=page, keep=(proof,)))
    statuses = fake.posts_by_bot()
    assert all(fake.counted_length(s.text, s.mentions) <= 300 for s in statuses)
    assert statuses[0].text.startswith(f"(1/{len(statuses)}) #sonar game 3, turn 2:")
    assert any(proof in s.text for s in statuses) and page in statuses[-1].text


async def test_a_thread_lookup_that_fails_is_read_again_never_passed_over(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    """Issue 40.1: a 503 (or 429) on a status's context keeps the cursor before it; the
    next catch-up hands it over. Only a status that is gone is passed over."""
    alice = fake.add_account("alice", "Alice")
    cursors = MemoryCursors()
    adapter = make_adapter(cursors, config={"stream": False, "backfill": True})
    root = fake.mention(alice, "#sonar new")
    got = Collector()
    await adapter.fetch_since(cursors, got)
    answer = await adapter.send(
        Address(PLATFORM, channel=root, reply_to=root), Outbound("#sonar game 1 is open")
    )
    bob = fake.add_account("bob", "Bob")
    chat = fake.post(bob, "good luck", in_reply_to_id=answer)  # not to the bot: unread
    order = fake.mention(alice, "#sonar f1", in_reply_to_id=chat)
    later = fake.mention(alice, "#sonar 1 f2")
    fake.fail_next("GET", f"/api/v1/statuses/{order}/context", 503)
    with pytest.raises(MastodonServerError):
        await adapter.fetch_since(cursors, got)
    fake.fail_next("GET", f"/api/v1/statuses/{order}/context", 429)
    with pytest.raises(RateLimited):
        await adapter.fetch_since(cursors, got)
    assert [i.message_id for i in got.items] == [root], "nothing past the order yet"
    await adapter.fetch_since(cursors, got)
    assert [i.message_id for i in got.items] == [root, order, later]
    assert got.items[1].channel == root
    # A status deleted before it is read is passed over: the ones after it still come.
    gone = fake.mention(
        alice, "#sonar f3", in_reply_to_id=fake.post(bob, "ha", in_reply_to_id=chat)
    )
    after = fake.mention(alice, "#sonar 1 f4")
    fake.fail_next("GET", f"/api/v1/statuses/{gone}/context", 404)
    await adapter.fetch_since(cursors, got)
    assert [i.message_id for i in got.items][-1] == after
    assert gone not in [i.message_id for i in got.items]


async def test_a_spent_posting_budget_never_stops_reading(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    """Issue 40.2: statuses are 300 per 3 hours, reported by the posting calls alone.
    Spent, they refuse posts (with their 3-hour wait) but polls, catch-ups and thread
    lookups go on, and a stream reconnect never waits for them."""
    alice = fake.add_account("alice", "Alice")
    cursors = MemoryCursors()
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await asyncio.sleep(0.01)

    adapter = make_adapter(cursors, sleep=sleep)
    got = Collector()
    await adapter.start(got)
    await _streaming(fake)
    fake.spend_statuses()
    with pytest.raises(DeliveryError) as limited:
        await adapter.send(Address(PLATFORM), Outbound("#sonar game 1 is open", key="o1"))
    assert limited.value.retry_after and limited.value.retry_after > 300
    chat = fake.post(alice, "hello")  # not to the bot: its thread is looked up
    first = fake.mention(alice, "#sonar join", in_reply_to_id=chat)
    await got.wait_for(1)
    await fake.drop_streams()
    missed = fake.mention(alice, "#sonar f1", in_reply_to_id=chat)
    await got.wait_for(2)
    await _streaming(fake, connections=2)
    assert [i.message_id for i in got.items] == [first, missed]
    assert got.items[1].channel == chat
    assert all(wait <= 300 for wait in waits), "nothing waited for the posting budget"
    # Before the deadline, the host's catch-up reads too.
    later = fake.mention(alice, "#sonar f2", in_reply_to_id=chat)
    await adapter.fetch_since(cursors, got)
    assert later in [i.message_id for i in got.items]


async def test_statuses_spread_the_three_hour_budget_by_default(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    """Issue 40.2: by default (the old 20 direct posts a minute spent the 300 in 15
    minutes) a window's first 60 statuses go at once, the rest no faster than an even
    share of the window; direct posts leave 20 of it to public posts."""
    alice = fake.add_account("alice", "Alice")
    window = 3 * 3600
    start = time.time() // window * window + 60  # a minute into a 3-hour window
    fake.clock = lambda: start
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    defaults = MastodonConfig()
    adapter = make_adapter(
        sleep=sleep,
        clock=lambda: start,
        config={
            "posts_per_minute": defaults.posts_per_minute,
            "dms_per_minute": defaults.dms_per_minute,
        },
    )
    to_alice = Address(PLATFORM, user_id=alice.id)
    for n in range(3):
        await adapter.send(to_alice, Outbound(f"#sonar board {n}", key=f"d{n}"))
    assert waits == [], "a deadline's first statuses go at once"
    fake.spend_statuses(61)
    await adapter.send(to_alice, Outbound("#sonar board 3", key="d3"))
    await adapter.send(to_alice, Outbound("#sonar board 4", key="d4"))
    # 62 spent a minute into the window: the next waits for its share of the window.
    # (Mastodon.py moves the reset by the Date header, which counts whole seconds.)
    assert waits == [pytest.approx((63 - 60) * window / 280 - 60, abs=2)]
    # With only the public posts' reserve left, direct posts wait, each for itself.
    fake.spend_statuses(300 - 21)
    await adapter.send(to_alice, Outbound("#sonar board 5", key="d5"))
    with pytest.raises(DeliveryError) as held:
        await adapter.send(to_alice, Outbound("#sonar board 6", key="d6"))
    assert held.value.per_recipient
    await adapter.send(Address(PLATFORM), Outbound("#sonar turn 4", key="p4"))
    assert len(fake.posts_by_bot("public")) == 1


async def test_an_answer_names_its_asker_alone_so_mastodon_notifies_them(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    """Issue 40.12: Mastodon notifies the accounts a status mentions, not the author of
    the status it replies to: an answer opens with the asker's handle (theirs alone); a
    post in the thread that answers no one names no one."""
    alice = fake.add_account("alice", "Alice", domain="elsewhere.example")
    operator = fake.add_account("harbourmaster", "Harbour Master")
    cursors = MemoryCursors()
    adapter = make_adapter(cursors, config={"stream": False, "backfill": True})
    root = fake.mention(operator, "#sonar new")
    asked = fake.mention(alice, "#sonar help", in_reply_to_id=root)
    await adapter.fetch_since(cursors, Collector())
    answer = await adapter.send(
        Address(PLATFORM, channel=root, reply_to=asked), Outbound("#sonar help: fire at a cell")
    )
    turn = await adapter.send(Address(PLATFORM, channel=root), Outbound("#sonar game 1, turn 1"))
    assert fake.statuses[answer].text.startswith("@alice@elsewhere.example #sonar help")
    assert [a.id for a in fake.statuses[answer].mentions] == [alice.id]
    assert fake.statuses[turn].mentions == []


async def test_a_deleted_game_root_keeps_the_games_thread_through_the_bots_post(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    """Issue 40.7: the creator deletes their ``new`` post. Replies under the bot's first
    post (whose context now begins there) still belong to the game, after a restart too."""
    operator = fake.add_account("harbourmaster", "Harbour Master")
    bob = fake.add_account("bob", "Bob")
    cursors = MemoryCursors()
    adapter = make_adapter(cursors, config={"stream": False, "backfill": True})
    root = fake.mention(operator, "#sonar new")
    got = Collector()
    await adapter.fetch_since(cursors, got)
    opened = await adapter.send(
        Address(PLATFORM, channel=root, reply_to=root), Outbound("#sonar game 1 is open")
    )
    fake.delete(root)
    restarted = make_adapter(cursors, config={"stream": False})
    chat = fake.post(bob, "count me in?", in_reply_to_id=opened)
    joined = fake.mention(bob, "#sonar join", in_reply_to_id=chat)
    # The bot's posts, with the thread's first post gone, answer its own first post.
    top = await restarted.send(
        Address(PLATFORM, channel=root, reply_to=root), Outbound("#sonar game 1, turn 1")
    )
    assert fake.statuses[top].in_reply_to_id == opened
    under_top = fake.mention(bob, "#sonar f1", in_reply_to_id=top)
    again = make_adapter(cursors, config={"stream": False})  # knows no post of the bot's
    await again.fetch_since(cursors, got)
    channels = {i.message_id: i.channel for i in got.items}
    assert channels[joined] == root and channels[under_top] == root


async def test_a_long_direct_post_goes_as_numbered_direct_posts_each_to_its_player(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    """Issue 40.4: the help (up to 1,951 characters) was cut at 500 with "…". It goes
    whole, in numbered direct posts, each reaching its one player, the parts it must
    keep (a commitment) never split."""
    alice = fake.add_account("alice", "Alice")
    fake.add_account("bob", "Bob")
    adapter = make_adapter()
    commitment = "Commitment " + "ab" * 32 + "."
    lines = [f"Line {n}: @bob and you fire at cells, one a turn, until one fleet is sunk."
             for n in range(24)]  # fmt: skip
    text = "\n".join([*lines[:12], f"Your setup: {commitment}", *lines[12:]])
    assert len(text) > 1800
    await adapter.send(
        Address(PLATFORM, user_id=alice.id), Outbound(text, key="help-1", keep=(commitment,))
    )
    parts = fake.direct_to(alice)
    assert len(parts) == len(fake.posts_by_bot()) >= 4
    assert all(s.audience == {alice.id} and len(s.text) <= 500 for s in parts)
    assert all(s.text.startswith(f"@alice ({n}/{len(parts)}) ") for n, s in enumerate(parts, 1))
    assert sum(commitment in s.text for s in parts) == 1
    said = "\n".join(s.text for s in parts)
    assert all(f"Line {n}:" in said for n in range(24)) and "…" not in said


async def test_an_upload_is_waited_for_a_while_then_the_post_goes_without_it(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    """Issue 40.5: an upload the instance processes in the background (202) is asked
    about until it is done; one that never is (processing failed) is left out after a
    deadline, and the post, the game's last one here, still goes."""
    adapter = make_adapter()
    fake.processing_polls = 2
    slow = await adapter.send(Address(PLATFORM), Outbound("#sonar map 1", (picture(),), key="a"))
    [media] = fake.statuses[slow].media
    assert fake.requests.count(("GET", f"/api/v1/media/{media['id']}")) == 3
    fake.processing_polls = None  # processing fails: 206 for ever
    final = await asyncio.wait_for(
        adapter.send(Address(PLATFORM), Outbound("#sonar game 1 is over", (picture(),), key="b")),
        timeout=60,
    )
    assert fake.statuses[final].text.startswith("#sonar game 1 is over")
    assert not fake.statuses[final].media


async def test_a_streamed_mention_whose_thread_lookup_fails_comes_with_the_reconnect(
    fake: FakeMastodon, make_adapter: Any
) -> None:
    """Issue 40.1, by the stream: a 503 on the thread lookup of a streamed mention ends
    the connection before the cursor passes it; the reconnect's poll hands it over,
    once, before what came after it."""
    alice = fake.add_account("alice", "Alice")
    adapter = make_adapter()
    got = Collector()
    await adapter.start(got)
    await _streaming(fake)
    chat = fake.post(alice, "hello")
    fake.fail_next("GET", "/api/v1/statuses/", 503)
    order = fake.mention(alice, "#sonar f1", in_reply_to_id=chat)
    await got.wait_for(1)
    after = fake.mention(alice, "#sonar 1 f2")
    await got.wait_for(2)
    await asyncio.sleep(0.2)
    assert [i.message_id for i in got.items] == [order, after]
    assert got.items[0].channel == chat


def _three_parts(game: str) -> str:
    lines = [f"{game} line {n}: you fire at cells, one a turn, until one side is sunk."
             for n in range(15)]  # fmt: skip
    return "\n".join(lines)


@pytest.mark.parametrize("later", [0, 2 * 3600], ids=["at-once", "past-the-keys-hour"])
@pytest.mark.parametrize("direct", [True, False], ids=["direct", "public"])
async def test_a_split_message_refused_at_its_second_part_posts_each_part_once(
    fake: FakeMastodon, make_adapter: Any, direct: bool, later: int
) -> None:
    """Issue 40: a 429 on a later part says the instance took nothing of that part, so
    the outbox's next attempt does not say "may have arrived"; the parts already posted
    are not posted again, even when that attempt comes after Mastodon has forgotten
    their Idempotency-Keys (an hour; a spent statuses budget waits up to 3)."""
    alice = fake.add_account("alice", "Alice")
    adapter = make_adapter()
    address = Address(PLATFORM, user_id=alice.id) if direct else Address(PLATFORM)
    outbound = Outbound(_three_parts("#sonar game 2"), key="outbox-7")
    fake.fail_next("POST", "/api/v1/statuses", 429, after=1)
    with pytest.raises(DeliveryError) as refused:
        await adapter.send(address, outbound)
    assert refused.value.retry_after is not None
    now = time.time() + later
    fake.clock = lambda: now
    first = await adapter.send(address, outbound)
    posted = fake.posts_by_bot()
    assert [s.text.split(") ", 1)[0][-4:] for s in posted] == ["(1/3", "(2/3", "(3/3"]
    assert first == posted[0].id
    if not direct:
        assert [s.in_reply_to_id for s in posted[1:]] == [posted[0].id, posted[1].id]
