"""The host's plain text on Discord (issue 24 item 8): markdown people typed is shown,
not rendered; the host's code spans, links and intended mentions are kept."""

from __future__ import annotations

import pytest

from bot.adapters.discord.markup import discord_plain


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            "[Free Nitro](https://evil.example/x) won",
            "\\[Free Nitro\\](https://evil.example/x) won",
        ),
        (
            "# Winner\n## me\n- one\n> quote\n-# small",
            "\\# Winner\n\\## me\n\\- one\n\\> quote\n\\-# small",
        ),
        ("#bst game 1: go", "#bst game 1: go"),  # a tag, not a heading
        (
            "**bold** __u__ ~~s~~ ||spoiler||",
            "\\*\\*bold\\*\\* \\_\\_u\\_\\_ \\~\\~s\\~\\~ \\|\\|spoiler\\|\\|",
        ),
        ("send `place first_come *` now", "send `place first_come *` now"),
        ("see https://example.com/a_b_c", "see https://example.com/a_b_c"),
        ("<@42> and <@7> and <@&9> and <@!42>", "<@42> and <\u200b@7> and <\u200b@&9> and <@!42>"),
        ("@everyone @here", "@\u200beveryone @\u200bhere"),
        ("a\\*b", "a\\\\\\*b"),
    ],
)
def test_people_s_words_are_shown_as_written(text: str, shown: str) -> None:
    assert discord_plain(text, ["42"]) == shown


# Names keep their ``_`` and ``*`` (issue 27): no italics or bold read into them.


def test_underscores_and_stars_in_names_are_escaped() -> None:
    assert discord_plain("sea_wolf hit E5, *star* missed") == r"sea\_wolf hit E5, \*star\* missed"


def test_code_spans_links_and_tags_are_left_as_they_are() -> None:
    text = "send `#bst my_ship` or see https://example.com/a_b, <@123> <t:1767283200:R>"
    assert discord_plain(text, ["123"]) == text


def test_text_without_marks_is_unchanged() -> None:
    assert discord_plain("#bst game 1, turn 2: Shots: ahab hit F3.") == (
        "#bst game 1, turn 2: Shots: ahab hit F3."
    )
