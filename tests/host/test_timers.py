"""A game's timers are typed entries and pure functions of them (bot.host.play.timers), stored
as the same JSON the host always wrote."""

from __future__ import annotations

import pytest

from bot.games.base import Timer
from bot.host.play import timers
from bot.host.play.timers import TimerEntry

T0 = 1_767_225_600.0  # 2026-01-01 00:00 UTC


@pytest.mark.parametrize(
    "stored",
    [
        "[]",
        '[{"key":"turn:3","label":"Turn 3","deadline":1767229200.0,"remaining":null,'
        '"held":false,"seconds":3600}]',
        # stored before "held" and "seconds" were kept; a whole-second deadline
        '[{"key":"turn:1","label":"Turn 1","deadline":null,"remaining":30.5},'
        '{"key":"move:ann","label":"ann\'s move","deadline":1767229200,"remaining":null}]',
    ],
)
def test_stored_timers_read_back_byte_for_byte(stored: str) -> None:
    assert timers.encode(timers.decode(stored)) == stored


def test_no_timers_stored_reads_as_none() -> None:
    assert timers.decode("") == ()


def _entry(key: str, deadline: float | None, remaining: float | None = None, *,
           held: bool = False, seconds: float = 60.0) -> TimerEntry:  # fmt: skip
    return TimerEntry(key, key.title(), deadline, remaining, held, seconds)


def test_a_new_timer_starts_at_the_moment_of_the_change() -> None:
    (entry,) = timers.armed([Timer("turn:1", 60, "Turn 1")], (), paused=False,
                            moment=T0, now=T0 + 5)  # fmt: skip
    assert entry == TimerEntry("turn:1", "Turn 1", T0 + 60, None, False, 60)


def test_a_timer_kept_runs_on_and_one_no_longer_declared_is_dropped() -> None:
    kept = _entry("turn:1", T0 + 30)
    gone = _entry("move:ann", T0 + 10)
    (entry,) = timers.armed([Timer("turn:1", 60, "Turn 1")], (kept, gone), paused=False,
                            moment=T0 + 20, now=T0 + 20)  # fmt: skip
    assert (entry.key, entry.deadline, entry.remaining) == ("turn:1", T0 + 30, None)


def test_a_held_timer_stops_with_its_time_left_and_runs_on_when_let_go() -> None:
    running = _entry("answer:bob", T0 + 50)
    (stopped,) = timers.armed([Timer("answer:bob", 60, "Bob's answer", held=True)], (running,),
                              paused=False, moment=T0 + 20, now=T0 + 20)  # fmt: skip
    assert (stopped.deadline, stopped.remaining, stopped.held) == (None, 30.0, True)
    (again,) = timers.armed([Timer("answer:bob", 60, "Bob's answer")], (stopped,),
                            paused=False, moment=T0 + 100, now=T0 + 100)  # fmt: skip
    assert (again.deadline, again.remaining) == (T0 + 130, None)


def test_a_paused_game_arms_its_new_timers_stopped() -> None:
    (entry,) = timers.armed([Timer("turn:2", 60, "Turn 2")], (), paused=True, moment=T0, now=T0)
    assert (entry.deadline, entry.remaining) == (None, 60)


def test_setup_windows_that_passed_while_the_host_was_down_are_skipped() -> None:
    (entry,) = timers.armed([Timer("setup:1", 60, "Setup")], (), paused=False,
                            moment=T0, now=T0 + 150)  # fmt: skip
    assert entry.deadline == T0 + 180  # the windows ending at +60 and +120 are gone


def test_pausing_stops_every_running_timer_and_tells_the_time_left_on_the_earliest() -> None:
    entries, left = timers.paused((_entry("a", T0 + 40), _entry("b", T0 + 25),
                                   _entry("c", None, 5.0)), T0 + 10)  # fmt: skip
    assert left == 15.0
    assert [(e.deadline, e.remaining) for e in entries] == [(None, 30.0), (None, 15.0), (None, 5.0)]
    assert timers.paused((), T0) == ((), 0.0)


def test_extending_lengthens_all_but_the_timers_the_game_holds() -> None:
    entries = (_entry("a", T0 + 40), _entry("b", None, 5.0), _entry("c", None, 9.0, held=True))
    extended = timers.extended(entries, 100)
    assert [(e.deadline, e.remaining) for e in extended] == [
        (T0 + 140, None), (None, 105.0), (None, 9.0)
    ]  # fmt: skip
    assert timers.longest_left(entries, T0) == [40.0, 5.0]


def test_the_due_timer_is_the_earliest_whose_deadline_has_come() -> None:
    entries = (_entry("b", T0 + 10), _entry("a", T0 + 10), _entry("c", T0 + 5), _entry("d", None))
    assert timers.due(entries, T0) is None
    assert timers.due(entries, T0 + 5) == entries[2]
    assert timers.due(timers.dropped(entries, "c"), T0 + 10) == entries[1]  # by key on a tie
    assert [e.key for e in timers.running(entries)] == ["c", "a", "b"]
    assert timers.earliest_deadline(entries) == T0 + 5
    assert timers.earliest_deadline(()) is None
