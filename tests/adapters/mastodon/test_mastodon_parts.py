"""A message longer than a status, as numbered statuses (bot.adapters.mastodon.parts)."""

from __future__ import annotations

from bot.adapters.mastodon.parts import MAX_PARTS, numbered
from bot.adapters.short_posts import weighted_length


def test_a_message_that_fits_is_one_status_with_its_link_and_mute_line() -> None:
    [status] = numbered(
        "#sonar game 1 is open", limit=500, mute="mute #sonar", link="https://x.example/1"
    )
    assert status == "#sonar game 1 is open\nhttps://x.example/1\n\nmute #sonar"


def test_a_long_line_splits_between_words_never_inside_a_kept_part() -> None:
    proof = "Receipts root " + "cd" * 32 + "."
    text = " ".join(f"word{n}" for n in range(60)) + " " + proof + " " + "tail " * 20
    parts = numbered(text, limit=120, keep=(proof,))
    assert all(weighted_length(p) <= 120 for p in parts)
    assert sum(proof in p for p in parts) == 1
    said = " ".join(p.split(") ", 1)[1] for p in parts)
    assert all(f"word{n}" in said for n in range(60))


def test_past_the_most_statuses_the_last_is_shortened_keeping_its_proof() -> None:
    """A giant board as text: never more than MAX_PARTS statuses, and the proof stays."""
    proof = "Commitment " + "ef" * 32 + "."
    board = "\n".join("row " + "." * 90 for _ in range(80))
    parts = numbered(f"{board}\n{proof}", limit=500, mute="mute #bst", link="https://x.example/7",
                     keep=(proof,))  # fmt: skip
    assert len(parts) == MAX_PARTS and all(weighted_length(p) <= 500 for p in parts)
    assert proof in parts[-1] and parts[-1].endswith("https://x.example/7\n\nmute #bst")
    assert parts[0].startswith(f"(1/{MAX_PARTS}) row")
