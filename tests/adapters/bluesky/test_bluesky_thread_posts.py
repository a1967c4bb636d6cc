"""An end post's standings on Bluesky (issue 42, item 4): split over numbered posts within
300 graphemes, each a reply to the one before, never cut; a retry makes no twin."""

from __future__ import annotations

import itertools

from bot.adapters.bluesky.sending import tid_for
from bot.games.base import Standing
from bot.host.messages import Address, Outbound
from bot.host.play.ending import standings_text

PUBLIC = Address("bluesky")


def _standings() -> str:
    names = {f"p{n}": f"captain_number_{n}" for n in range(1, 10)}
    standings = [
        Standing(f"p{n}", n, (f"{40 - n} shots", f"{12 - n} hits", "afloat at the end"))
        for n in range(1, 10)
    ]
    return standings_text("#bst game 9", standings, names)


async def test_nine_standings_are_all_posted_across_numbered_posts(fake_bsky, make_adapter):
    text = _standings()
    adapter = make_adapter()
    first = await adapter.send(PUBLIC, Outbound(text, key="end-9", written_at=1.0))
    posts = sorted(fake_bsky.bot_posts(), key=lambda post: post["value"]["text"])
    assert len(posts) > 1 and posts[0]["uri"] == first
    assert first.rsplit("/", 1)[1] == tid_for("end-9", 1.0)
    assert posts[0]["value"]["text"].startswith(
        f"#bst game 9 is over. Final standings (1/{len(posts)}):"
    )
    for before, post in itertools.pairwise(posts):
        assert post["value"]["reply"]["parent"]["uri"] == before["uri"]
    said = "\n".join(post["value"]["text"] for post in posts)
    for line in text.splitlines()[1:]:
        assert line in said  # every standing, whole
    assert all(len(post["value"]["text"]) <= 300 for post in posts)
    # A retry of the same row finds its posts made: no twin.
    await adapter.send(PUBLIC, Outbound(text, key="end-9", written_at=1.0, retry=True))
    assert len(fake_bsky.bot_posts()) == len(posts)
