"""Post composition: X's weighted length, the mute line, leading mentions."""

from __future__ import annotations

from x_support import MUTE_LINE

from bot.adapters.short_posts import compose_post, mute_line, weighted_length
from bot.adapters.twitter import TwitterCredentials
from bot.adapters.twitter.text import strip_leading_mentions

BST = [("#bst", "BattleshipTwitter")]
SEVERAL = [("#bst", "BattleshipTwitter"), ("#sonar", "Sonar"), ("#tug", "Tug")]


def test_urls_count_23_and_cjk_and_emoji_count_2():
    assert weighted_length("abc") == 3
    assert weighted_length("https://example.org/a/very/long/path/indeed/yes") == 23
    assert weighted_length("see example.com") == 4 + 23
    assert weighted_length("盤面") == 4
    assert weighted_length("🚢") == 2
    assert weighted_length("…") == 2


def test_leading_mentions_are_stripped_but_not_later_ones():
    assert strip_leading_mentions("@bstbot #bst H14") == "#bst H14"
    assert strip_leading_mentions("@bstbot @alice  #bst join") == "#bst join"
    assert strip_leading_mentions("#bst kick @mallory") == "#bst kick @mallory"


def test_every_post_ends_with_the_mute_line_once():
    assert compose_post("#bst game 2 · turn 1", MUTE_LINE) == "#bst game 2 · turn 1\n\n" + MUTE_LINE
    assert compose_post("hello\n\n" + MUTE_LINE, MUTE_LINE).count(MUTE_LINE) == 1
    assert compose_post("hello") == "hello"  # no game hosted, nothing to mute


def test_the_mute_line_names_the_game_the_post_carries():
    assert mute_line("#bst game 2 · turn 1", BST) == MUTE_LINE
    assert mute_line("#TUG game 3 · turn 2: north pulls", SEVERAL) == "mute #tug to hide Tug"
    # The first tag decides; a longer word that starts like a tag is not that tag.
    assert mute_line("#tugboat spotted; #sonar game 1", SEVERAL) == "mute #sonar to hide Sonar"


def test_a_post_without_a_tag_names_every_games_tag():
    assert mute_line("there is no game in this channel", BST) == MUTE_LINE
    assert (
        mute_line("there is no game in this channel", SEVERAL)
        == "mute #bst, #sonar or #tug to hide these games"
    )
    assert mute_line("anything", []) == ""


def test_a_long_post_keeps_the_tag_line_and_fits():
    text = "Shots this turn: " + ", ".join(f"@captain{n} H{n}" for n in range(60))
    text += "\n#bst game 9 · turn 31 · next in 8 h"
    post = compose_post(text, mute_line(text, BST))
    assert weighted_length(post) <= 280
    assert "#bst game 9 · turn 31 · next in 8 h" in post
    assert post.endswith(MUTE_LINE)
    assert "…" in post


def test_credentials_repr_hides_values():
    creds = TwitterCredentials("k1", "s1", "t1", "a1", "b1")
    assert "k1" not in repr(creds) and "s1" not in str(creds)


def test_the_spec_check_is_not_vacuous(x_spec):
    import pytest
    from fake_x_api import SpecViolation

    with pytest.raises(SpecViolation):
        x_spec.validate_response("POST", "/2/tweets", 201, "application/json", {"data": {"id": 7}})
    with pytest.raises(SpecViolation):
        x_spec.validate_query("GET", "/2/dm_events", {"dm_event.fields": "sender_id"})
    x_spec.validate_query("GET", "/2/users/1/mentions", {"tweet.fields": "created_at"})


def test_a_busy_turns_post_shrinks_its_shots_and_keeps_its_deadline():
    shots = ", ".join(f"captain{n} hit H{n}" for n in range(40))
    text = f"#bst game 9, turn 2: Shots: {shots}. Turn 3 closes 2026-01-02 00:00 UTC."
    post = compose_post(text, mute_line(text, BST))
    assert weighted_length(post) <= 280
    assert post.startswith("#bst game 9, turn 2: Shots: captain0 hit H0")
    assert "… and 31 more. Turn 3 closes 2026-01-02 00:00 UTC." in post
    assert post.endswith(MUTE_LINE)


def test_a_post_links_the_games_page_whole_and_still_fits():
    """Issue 28: the game's page goes on its own line before the mute line; X counts it
    as 23 characters however long it is, and the body shrinks to make room."""
    page = "https://bst.example.org/games/9" + "/x" * 40  # long: still 23
    short = compose_post("#bst game 9 · turn 2", MUTE_LINE, link=page)
    assert short == f"#bst game 9 · turn 2\n{page}\n\n{MUTE_LINE}"
    text = "#bst game 9 · turn 31: " + ", ".join(f"H{n} by captain{n}" for n in range(60))
    post = compose_post(text, MUTE_LINE, link=page)
    assert weighted_length(post) <= 280
    assert post.endswith(f"\n{page}\n\n{MUTE_LINE}") and post.startswith("#bst game 9")
    # Without the link (no page configured) the post is as before.
    assert page not in compose_post(text, MUTE_LINE)
    assert compose_post("#bst game 9 · turn 2", MUTE_LINE) == f"#bst game 9 · turn 2\n\n{MUTE_LINE}"


def test_parts_to_keep_survive_the_cut_whole_wherever_they_were() -> None:
    """Issue 31: a commitment in the middle of a long post is moved to a line of its own
    and kept whole; the rest is cut around it. A post that fits is left as it was."""
    proof = "Luck committed: SHA-256 " + "ab" * 32 + "."
    text = "#bst game 7 is open " + "word " * 60 + proof + " Follow it on example.com/g/7"
    post = compose_post(text, "mute #bst to hide BattleshipTwitter", keep=[proof])
    assert weighted_length(post) <= 280
    assert post.splitlines()[-3] == proof
    assert post.startswith("#bst game 7 is open word") and "…" in post
    short = "#bst game 7: " + proof
    assert compose_post(short, "", keep=[proof]) == short
    # Without it, the cut loses the proof.
    assert proof not in compose_post(text, "mute #bst to hide BattleshipTwitter")
