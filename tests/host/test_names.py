"""Names are shown as plain text on every platform (issue 24 item 8): where a name comes
in, the host drops control, format and bidi characters, folds look-alike letters and
neutralises its own markup (backticks, angle brackets)."""

from __future__ import annotations

import pytest

from bot.host.commands.names import MAX_NAME, plain_name


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("drake", "drake"),
        ("@alice", "@alice"),  # an X handle stays a handle
        ("evil\u202egnp.exe", "evilgnp.exe"),  # right-to-left override
        ("\u2066isolated\u2069 \u200fmark", "isolated mark"),  # bidi isolates and marks
        ("dr\u200bake", "drake"),  # a zero-width space: a look-alike of "drake"
        ("ｄｒａｋｅ", "drake"),  # fullwidth letters
        ("𝐝𝐫𝐚𝐤𝐞", "drake"),  # mathematical bold
        ("line\none\r\ttwo", "line one two"),
        ("bell\x07\x00nul", "bellnul"),
        ("<@80351110224678912>", "‹@80351110224678912›"),  # Discord's mention markup
        ("<<@80351110224678912>>", "‹‹@80351110224678912››"),  # the host's own token
        ("`kick` me", "ˋkickˋ me"),  # the host writes commands in backticks
        ("\u202e\u200b", "player"),  # nothing readable left
        ("", ""),
    ],
)
def test_a_name_is_kept_as_plain_text(given: str, kept: str) -> None:
    assert plain_name(given) == kept


def test_a_name_is_one_short_line() -> None:
    assert len(plain_name("x" * 10_000)) == MAX_NAME
