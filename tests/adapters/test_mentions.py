"""The shared defusing of mentions (bot.adapters.mentions): every ``@`` a platform would
read as a mention is defused but the adapter's own; links and addresses keep theirs."""

from __future__ import annotations

from bot.adapters.mentions import JOINER, defuse


def test_a_name_like_a_handle_is_defused_and_the_kept_mention_is_not() -> None:
    text = "@victim@elsewhere.example hit F1; @alice.bsky.social, (＠bob) your move"
    assert defuse(text, ["@alice.bsky.social"]) == (
        f"@{JOINER}victim@elsewhere.example hit F1; @alice.bsky.social, (＠{JOINER}bob) your move"
    )


def test_a_longer_handle_that_starts_like_a_kept_one_is_defused() -> None:
    assert defuse("@alice2 and @alice", ["@alice"]) == f"@{JOINER}alice2 and @alice"


def test_links_and_addresses_keep_their_at_signs() -> None:
    text = "see https://mastodon.social/@bob or mail bob@example.org"
    assert defuse(text) == text


def test_a_defused_name_copied_into_a_command_reads_as_typed() -> None:
    from bot.host.commands.routing import readable

    assert readable(f"kick {defuse('@alice')}") == "kick @alice"
