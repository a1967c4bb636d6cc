"""The words beside every game's pictures: within X's limit, long lists cut to what fits
and ended with "and N more" (``renderers/alt_text.py``)."""

from __future__ import annotations

from datetime import UTC, datetime

from renderers.alt_text import (
    MAX_ALT_TEXT,
    Listing,
    compose_alt_text,
    cut_to_limit,
    deadline_sentences,
    list_within,
)
from renderers.style import ELLIPSIS

SHOTS = ["alice hit E5", "bob hit E5", "carol missed B8", "dave missed J1"]


def test_a_list_that_fits_is_given_whole() -> None:
    assert list_within(SHOTS, 100) == "alice hit E5, bob hit E5, carol missed B8, dave missed J1"


def test_a_long_list_is_cut_from_the_end_and_says_how_many_more() -> None:
    assert list_within(SHOTS, 40) == "alice hit E5, bob hit E5 and 2 more"
    assert list_within(SHOTS, 7) == "4 more"


def test_when_not_even_the_count_fits_the_caller_says_what_stands_instead() -> None:
    assert list_within(SHOTS, 3) == ""
    assert list_within(SHOTS, 3, none_fit="4") == "4"


def test_listings_follow_the_head_and_an_empty_one_says_its_own_sentence() -> None:
    text = compose_alt_text(
        ["Map of the 10 by 10 board."],
        [Listing("Shots: ", SHOTS[:2]), Listing("Wrecks: ", [], "No wrecks.")],
        ["Next deadline 2026-01-01 08:00 UTC."],
    )
    assert text == (
        "Map of the 10 by 10 board. Shots: alice hit E5, bob hit E5. No wrecks. "
        "Next deadline 2026-01-01 08:00 UTC."
    )


def test_many_long_lists_share_the_room_and_stay_within_the_limit() -> None:
    names = [f"captain number {i}" for i in range(300)]
    text = compose_alt_text(
        ["Head."], [Listing("Alive: ", names), Listing("Sunk: ", names)], ["Tail."]
    )
    assert len(text) <= MAX_ALT_TEXT
    assert text.startswith("Head. Alive: captain number 0")
    assert " more. Sunk: captain number 0" in text
    assert text.endswith(" more. Tail.")


def test_text_over_the_limit_is_cut_with_an_ellipsis() -> None:
    assert cut_to_limit("short") == "short"
    long = "word " * 400
    assert cut_to_limit(long) == long[: MAX_ALT_TEXT - 1] + ELLIPSIS
    assert len(cut_to_limit(long)) == MAX_ALT_TEXT
    # a cut just after a space does not leave the space before the ellipsis
    assert cut_to_limit("four" + long) == "four" + long[:994] + ELLIPSIS


def test_the_deadline_is_a_sentence_when_there_is_one() -> None:
    deadline = datetime(2026, 1, 1, 8, 0, tzinfo=UTC)
    now = datetime(2026, 1, 1, 0, 1, 30, tzinfo=UTC)
    assert deadline_sentences(None, now) == []
    assert deadline_sentences(deadline, now) == [
        "Next deadline 2026-01-01 08:00 UTC (in 7 h 58 min)."
    ]
