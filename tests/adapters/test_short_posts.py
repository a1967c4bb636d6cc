"""A short post keeps the news and shrinks the routine (issue 42, item 4): on X's 280 and
at Bluesky's 300 graphemes a busy turn's shot list gives way, never the sinkings, the
eliminations or the deadline after it."""

from __future__ import annotations

import pytest

from bot.adapters.bluesky.text import POST_GRAPHEMES, compose, graphemes
from bot.adapters.short_posts import compose_post, mute_line, weighted_length

BST = [("#bst", "BattleshipTwitter")]
SHOTS = ", ".join(f"captain{n} {'hit' if n % 3 else 'missed'} H{n}" for n in range(24))
NEWS = (
    "carol's cruiser went down at B4-B6.",
    "dave's submarine went down at E5.",
    "dave is out of the battle.",
)
DEADLINE = "Turn 8 closes 2026-01-02 00:00 UTC."
# As the host writes a turn's report: its head, the game's lines and the deadline, one line.
TURN = f"#bst game 9, turn 7: Shots: {SHOTS}. {' '.join(NEWS)} {DEADLINE}"


def _x(text: str) -> str:
    post = compose_post(text, mute_line(text, BST))
    assert weighted_length(post) <= 280
    return post


def _bluesky(text: str) -> str:
    post = compose(text, mute_line(text, BST))
    assert graphemes(post) <= POST_GRAPHEMES
    return post


@pytest.mark.parametrize("platform", [_x, _bluesky], ids=["x", "bluesky"])
def test_a_busy_turn_keeps_every_sinking_elimination_and_the_deadline(platform) -> None:
    post = platform(TURN)
    assert post.startswith("#bst game 9, turn 7: Shots: captain0 missed H0")
    for news in NEWS:
        assert news in post
    assert DEADLINE in post
    # The list shrank, and says by how much.
    assert "more." in post and "captain23" not in post


def test_without_room_for_any_shot_the_list_becomes_its_count() -> None:
    news = " ".join(f"captain{n} is out of the battle." for n in range(5))
    post = _x(f"#bst game 9, turn 7: Shots: {SHOTS}. {news} {DEADLINE}")
    assert "Shots: 24 in all." in post and news in post and DEADLINE in post


def test_the_winner_is_kept_when_the_game_ends() -> None:
    """The last turn's report ends with the result, not a deadline: kept all the same."""
    post = _x(f"#bst game 9, turn 7: Shots: {SHOTS}. {NEWS[2]} erin wins the battle.")
    assert post.startswith("#bst game 9, turn 7: Shots:")
    assert NEWS[2] in post and "erin wins the battle." in post


def test_the_routine_before_the_news_goes_first_in_any_game() -> None:
    """A report of many routine sentences (U-Boat's shots and courses) ends with its news
    ("Blue was sunk."): the earliest sentences give way, the sinking stays."""
    routine = " ".join(f"Red fired at B{n} (Blue -1). Green: N, E, E, S." for n in range(9))
    text = f"#uboat game 4, round 6: {routine} Blue was sunk. Round 7 closes 2026-01-02 00:00 UTC."
    post = compose_post(text, "mute #uboat to hide U-Boat")
    assert weighted_length(post) <= 280
    assert post.startswith("#uboat game 4, round 6: … ")
    assert "Blue was sunk. Round 7 closes 2026-01-02 00:00 UTC." in post


def test_a_result_with_a_colon_and_commas_is_news_not_a_list() -> None:
    """Silent Ships' result (``ann wins: …, (ships sunk: ann 3, bob 2).``) reads like a
    list to a careless eye: it is the winner, kept whole."""
    result = "ann wins: bob's Flag Ship was sunk (ships sunk: ann 3, bob 2)."
    routine = " ".join(f"bob moved to C{n}." for n in range(30))
    post = _x(f"#silentships game 2, turn 9: {routine} {result}")
    assert post.startswith("#silentships game 2, turn 9: … ")
    assert result in post
