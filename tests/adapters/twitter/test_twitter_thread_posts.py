"""An end post's standings on X (issue 42, item 4): split over numbered posts, each a
reply to the one before, never cut (it kept 4 of 9)."""

from __future__ import annotations

from itertools import pairwise

from bot.adapters.short_posts import weighted_length
from bot.games.base import Standing
from bot.host.messages import Address, Outbound
from bot.host.play.ending import standings_text

PUBLIC = Address("twitter", channel="timeline")


async def test_nine_standings_are_all_posted_across_numbered_posts(fake_x, make_adapter):
    names = {f"p{n}": f"captain_number_{n}" for n in range(1, 10)}
    standings = [
        Standing(f"p{n}", n, (f"{40 - n} shots", f"{12 - n} hits", "afloat at the end"))
        for n in range(1, 10)
    ]
    text = standings_text("#bst game 9", standings, names)
    first = await make_adapter().send(PUBLIC, Outbound(text, key="end-9"))
    posts = fake_x.posts
    assert len(posts) > 1 and posts[0]["id"] == first
    assert posts[0]["text"].startswith(f"#bst game 9 is over. Final standings (1/{len(posts)}):")
    for before, post in pairwise(posts):
        assert post["reply"] == {"in_reply_to_tweet_id": before["id"]}
    said = "\n".join(post["text"] for post in posts)
    for line in text.splitlines()[1:]:
        assert line in said  # every standing, whole
    assert all(weighted_length(post["text"]) <= 280 for post in posts)
    assert fake_x.violations == []


async def test_a_long_text_that_is_no_list_stays_one_post(fake_x, make_adapter):
    body = "#bst game 7 · turn 12\n" + "word " * 80 + "\n" + "more " * 80
    await make_adapter().send(PUBLIC, Outbound(body, key="out-3"))
    (post,) = fake_x.posts
    assert "…" in post["text"]
