"""A crowd turn's private reports read the events once, not once per captain (issue 33)."""

from __future__ import annotations

from collections.abc import Iterator

from bot.games.base import Event
from bot.games.bst import reports


class CountedEvents(list[Event]):
    """A turn's events that count how often they are read in full."""

    reads = 0

    def __iter__(self) -> Iterator[Event]:
        self.reads += 1
        return super().__iter__()


def _crowd_events(captains: int) -> CountedEvents:
    events = CountedEvents()
    for n in range(captains):
        events.append(Event("moved", {"player": f"p{n}", "ship": "Tug", "cells": [f"A{n}"]}))
        events.append(Event("shot", {"player": f"p{n}", "cell": "B1"}))
    return events


def test_crowd_private_reports_read_the_events_once() -> None:
    events = _crowd_events(2_000)
    lines = [reports.private_report(events, f"p{n}") for n in range(2_000)]
    assert lines[7] == ["Your Tug moved to A7."]
    assert events.reads == 1


def test_crowd_private_report_matches_a_full_read() -> None:
    events = _crowd_events(1_500)
    expected = [f"Your Tug moved to A{n}." for n in (3, 1_499)]
    got = reports.private_report(events, "p3") + reports.private_report(events, "p1499")
    assert got == expected
    assert reports.private_report(events, "nobody") == []
    # A new turn's events (another object) are grouped afresh, not answered from the old.
    other = _crowd_events(1_500)
    other[6] = Event("rotated", {"player": "p3", "ship": "Tug", "cells": ["C3", "C4"]})
    assert reports.private_report(other, "p3") == ["Your Tug turned to C3-C4."]


def test_small_turn_is_read_in_full_each_time() -> None:
    events = _crowd_events(10)
    reports.private_report(events, "p1")
    reports.private_report(events, "p2")
    assert events.reads == 2
