"""A crowd's turn is reported as a digest (issue 33): counts, and the sinkings and
eliminations by name up to a limit; a turn of at most 100 shots is reported in full."""

from __future__ import annotations

from bot.games.base import Event
from bot.games.bst import BST
from bot.games.bst.reports import DIGEST_SHOTS, NAMED


def shots(count: int) -> list[Event]:
    return [
        Event(
            "shot", {"player": f"p{i}", "cell": f"A{i + 1}", "result": "hit" if i % 3 else "miss"}
        )
        for i in range(count)
    ]


def sunk(count: int) -> list[Event]:
    return [
        Event("destroyed", {"player": f"p{i}", "ship": "submarine", "cells": [f"B{i + 1}"]})
        for i in range(count)
    ]


NAMES = {f"p{i}": f"captain{i}" for i in range(1000)}


def test_a_crowds_turn_is_reported_as_counts_and_the_first_sinkings_by_name() -> None:
    events = [*shots(DIGEST_SHOTS + 1), *sunk(NAMED + 5), Event("eliminated", {"player": "p3"})]
    report = BST.words.public_report(events, NAMES)
    assert report[0] == "101 shots, 67 hits; 25 ships sunk; 1 captain out of the battle."
    assert report[1].startswith("Sunk: captain0's submarine at B1, captain1's submarine at B2")
    assert report[1].endswith("captain19's submarine at B20 and 5 more.")
    assert report[2] == "Out of the battle: captain3."
    assert report[3] == "Every shot and sinking of the turn is in the game's record."
    assert not any("A5" in line for line in report)  # no shot is listed


def test_a_turn_of_at_most_100_shots_is_reported_in_full_as_before() -> None:
    report = BST.words.public_report([*shots(DIGEST_SHOTS), *sunk(1)], NAMES)
    assert report[0].startswith("Shots: captain0 miss A1, captain1 hit A2")
    assert report[1] == "captain0's submarine went down at B1."


def test_the_turns_page_names_every_sinking_the_chat_digest_left_out() -> None:
    """The report in full (the turn's web page, which the digest's post links) names every
    sinking and elimination; the chat post names the first 20 and counts the rest."""
    events = [*shots(DIGEST_SHOTS + 1), *sunk(NAMED + 5), Event("eliminated", {"player": "p3"})]
    in_full = BST.words.public_report_in_full(events, NAMES)
    digest = BST.words.public_report(events, NAMES)
    assert in_full[0] == digest[0]  # the same counts
    assert in_full[1].endswith("captain23's submarine at B24, captain24's submarine at B25.")
    assert "more" not in in_full[1]
    assert in_full[2:] == digest[2:]


def test_a_game_that_never_sums_up_reports_in_full_what_it_posts() -> None:
    """The neutral words: the report in full is the report (every game but bst's crowd)."""
    from bot.games.sonar import SONAR

    events = [Event("eliminated", {"player": "p1"})]
    assert SONAR.words.public_report_in_full(events, NAMES) == SONAR.words.public_report(
        events, NAMES
    )
