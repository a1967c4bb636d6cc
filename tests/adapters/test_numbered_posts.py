"""A message longer than one post, as numbered posts (bot.adapters.numbered_posts)."""

from __future__ import annotations

import itertools

from bot.adapters.numbered_posts import MAX_PARTS, numbered
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


def test_a_line_longer_than_a_post_runs_on_from_where_the_post_is() -> None:
    """The host's verbs are one long line each: each post is filled before the next opens
    (before, a long line's tail was a post of its own, and the help on Bluesky ran past
    the most posts and was cut)."""
    long_line = " ".join(f"`verb{n}`: does {n};" for n in range(40))
    parts = numbered(f"Anywhere:\n{long_line}\nThe end.", limit=120)
    bodies = [part.split(") ", 1)[1] for part in parts]
    room = 120 - weighted_length(f"({MAX_PARTS}/{MAX_PARTS}) ")
    for body, after in itertools.pairwise(bodies):
        assert weighted_length(f"{body} {after.split()[0]}") > room  # full: no word fits
    assert " ".join(" ".join(bodies).split()) == " ".join(f"Anywhere: {long_line} The end.".split())
    assert bodies[0].startswith("Anywhere:\n`verb0`")
