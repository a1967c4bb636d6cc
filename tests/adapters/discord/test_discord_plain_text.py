"""The host's words are plain text: on Discord, names and words keep their ``_`` and
``*`` (no italics or bold read into them), while the host's code spans, links and
Discord's own tags are left as they are (issue 27)."""

from __future__ import annotations

from bot.adapters.discord.markup import plain


def test_underscores_and_stars_in_names_are_escaped() -> None:
    assert plain("sea_wolf hit E5, *star* missed") == r"sea\_wolf hit E5, \*star\* missed"


def test_code_spans_links_and_tags_are_left_as_they_are() -> None:
    text = "send `#bst my_ship` or see https://example.com/a_b, <@123> <t:17_0:R>"
    assert plain(text) == text


def test_text_without_marks_is_unchanged() -> None:
    assert plain("#bst game 1, turn 2: Shots: ahab hit F3.") == (
        "#bst game 1, turn 2: Shots: ahab hit F3."
    )
