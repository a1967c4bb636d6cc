"""An answer too long for one Bluesky post (the help, the rules, a status asked in public)
goes whole, as numbered posts under the question, each within 300 graphemes; a game's
own post stays one post, shortened. Before, an answer was cut to its first 300
graphemes: the help outside a game lost every verb after its list of games."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

from bluesky_support import bluesky_host
from fake_bluesky import ALICE, BOT_HANDLE

from bot.adapters.bluesky.text import POST_GRAPHEMES, answer_parts, graphemes
from bot.host.messages import Address, Outbound
from bot.host.runtime.clock import VirtualClock
from bot.host.runtime.limits import Limits
from bot.store import DatabaseCursors, Store
from bot.wiring import sqlite_url

START = datetime(2026, 7, 26, 9, 0, tzinfo=UTC)


def _long_text(lines: int = 14) -> str:
    return "\n".join(
        f"- `verb{n}`: what the verb number {n} does, said in a line of about a hundred characters."
        for n in range(1, lines + 1)
    )


async def test_the_help_asked_in_public_arrives_whole_in_numbered_posts(
    make_adapter: Any, fake_bsky: Any, tmp_path: Any, clock: Any
) -> None:
    store = Store(sqlite_url(tmp_path / "b.db"))
    virtual = VirtualClock(START.timestamp())
    adapter = make_adapter(cursors=DatabaseCursors(store))
    # (private_answers off: answered where it was asked)
    host = bluesky_host(store, virtual, adapter, limits=Limits(private_answers=False))
    try:
        asked = fake_bsky.post(ALICE, f"@{BOT_HANDLE} help")
        virtual.set((START + timedelta(minutes=1)).timestamp())
        clock.now = virtual.now()
        fake_bsky.tick(60)
        await adapter.fetch_since(host.cursors, host.on_inbound)
        await host.relay.flush()
        with store.transaction() as tx:
            [answer] = [post for post in tx.outbox() if post.recipient == "public"]
        assert graphemes(answer.text) > 3 * POST_GRAPHEMES  # (the help outside a game)
        posts = [p for p in fake_bsky.bot_posts() if p["value"]["text"].startswith("(")]
        posts.sort(key=lambda post: int(post["value"]["text"][1:].split("/")[0]))
        assert len(posts) == len(fake_bsky.bot_posts()) > 1
        assert posts[0]["value"]["reply"]["parent"]["uri"] == asked
        for before, post in itertools.pairwise(posts):
            assert post["value"]["reply"]["parent"]["uri"] == before["uri"]
        for number, post in enumerate(posts, start=1):
            assert post["value"]["text"].startswith(f"({number}/{len(posts)}) ")
            assert graphemes(post["value"]["text"]) <= POST_GRAPHEMES
        said = " ".join(post["value"]["text"].split(") ", 1)[1] for post in posts)
        assert " ".join(answer.text.split()) in " ".join(said.split())  # nothing cut
        assert "…" not in said
    finally:
        store.dispose()


async def test_an_answer_in_parts_is_sent_once_however_often_it_is_retried(
    fake_bsky: Any, make_adapter: Any
) -> None:
    asked = fake_bsky.post(ALICE, f"@{BOT_HANDLE} rules")
    adapter = make_adapter()
    answer = Address("bluesky", reply_to=asked)
    text = _long_text()
    first = await adapter.send(answer, Outbound(text, key="reply:7", written_at=1.0))
    made = fake_bsky.bot_posts()
    assert len(made) == len(answer_parts(text)) > 1
    assert any(post["uri"] == first for post in made)
    await adapter.send(answer, Outbound(text, key="reply:7", written_at=1.0, retry=True))
    assert len(fake_bsky.bot_posts()) == len(made)


async def test_a_games_own_long_post_is_still_one_post(fake_bsky: Any, make_adapter: Any) -> None:
    adapter = make_adapter()
    text = "#bst game 3, turn 4: " + " ".join(f"captain{n} missed B{n}." for n in range(60))
    await adapter.send(Address("bluesky"), Outbound(text, key="turn:3:4", written_at=1.0))
    [post] = fake_bsky.bot_posts()
    assert graphemes(post["value"]["text"]) <= POST_GRAPHEMES
    assert post["value"]["text"].startswith("#bst game 3, turn 4:")


def test_each_part_fits_though_a_long_link_weighs_23() -> None:
    """X's weight counts a link as 23 characters; Bluesky counts every one of its
    graphemes, so the parts are measured again and the budget shrinks to fit."""
    link = "https://bst.example/games/1234/turns/56?view=public&highlight=" + "x" * 60
    parts = answer_parts(_long_text(), link=link)
    assert len(parts) > 1
    assert all(graphemes(part) <= POST_GRAPHEMES for part in parts)
    assert parts[-1].endswith(link)
