"""A game's running timers as the host keeps them: typed entries and pure functions.

The game declares, after every change, the timers that run now (:class:`Timer`); the
host keeps one :class:`TimerEntry` for each, stored with the game as a JSON list
(:func:`encode`, :func:`decode`: the same bytes the host always wrote). An entry runs
(``deadline`` set) or is stopped with the time it had left (``remaining``): held by the
game, or the whole game paused. Nothing here reads a clock or a row: every moment comes
in as an argument, so each step of a timer's life is a function of its inputs
(see :mod:`bot.host.play.lifecycle` for where they are read and saved).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.base import Timer

SETUP_TIMER = "setup"  # the key (or its start) of a setup window


@dataclass(frozen=True)
class TimerEntry:
    """One timer of a game: ``key`` and ``label`` as the game declared them; ``deadline``
    (epoch seconds) while it runs, else ``remaining`` (seconds left when it stopped).
    ``held`` and ``seconds`` (its full length) are None in entries stored before they were
    kept, and stay absent when such an entry is stored again."""

    key: str
    label: str
    deadline: float | None
    remaining: float | None
    held: bool | None = None
    seconds: float | None = None


def decode(stored: str) -> tuple[TimerEntry, ...]:
    """The entries of a game's stored timers ("" or "[]": none)."""
    return tuple(
        TimerEntry(
            key=str(item["key"]),
            label=str(item.get("label", "")),
            deadline=item.get("deadline"),
            remaining=item.get("remaining"),
            held=item.get("held"),
            seconds=item.get("seconds"),
        )
        for item in (json.loads(stored) if stored else None) or ()
    )


def encode(entries: Iterable[TimerEntry]) -> str:
    """The stored JSON of ``entries``: compact, each entry's keys in one order."""
    items = []
    for entry in entries:
        item: dict[str, Any] = {
            "key": entry.key,
            "label": entry.label,
            "deadline": entry.deadline,
            "remaining": entry.remaining,
        }
        if entry.held is not None:
            item["held"] = entry.held
        if entry.seconds is not None:
            item["seconds"] = entry.seconds
        items.append(item)
    return json.dumps(items, separators=(",", ":"), ensure_ascii=False)


def earliest_deadline(entries: Iterable[TimerEntry]) -> float | None:
    """The deadline the game waits for next (None: no timer runs)."""
    deadlines = [entry.deadline for entry in entries if entry.deadline is not None]
    return min(deadlines) if deadlines else None


def running(entries: Iterable[TimerEntry]) -> list[TimerEntry]:
    """The timers that run now, earliest first (by key among equal deadlines)."""
    return sorted(
        (entry for entry in entries if entry.deadline is not None),
        key=lambda entry: (entry.deadline, entry.key),
    )


def due(entries: Iterable[TimerEntry], now: float) -> TimerEntry | None:
    """The earliest running timer whose deadline has come, if any."""
    first = next(iter(running(entries)), None)
    return (
        first
        if first is not None and first.deadline is not None and first.deadline <= now
        else None
    )


def armed(
    declared: Sequence[Timer],
    previous: Sequence[TimerEntry],
    *,
    paused: bool,
    moment: float,
    now: float,
) -> tuple[TimerEntry, ...]:
    """The entries once the game declares ``declared`` at ``moment``: a timer already kept
    runs on (or stops, or starts again) as it is held now; a new one starts at
    ``moment``; one no longer declared is dropped. ``paused``: the whole game is."""
    kept = {entry.key: entry for entry in previous}
    entries = []
    for timer in declared:
        stopped = timer.held or paused
        old = kept.get(timer.key)
        deadline: float | None
        remaining: float | None
        if old is None:
            start = moment + timer.seconds
            if timer.key.startswith(SETUP_TIMER) and start <= now:
                # A setup window that would already be over (the host was down): the
                # windows that passed meanwhile are skipped; nothing happened in them.
                missed = int((now - start) // timer.seconds) + 1
                start += missed * timer.seconds
            deadline, remaining = start, None
            if stopped:
                deadline, remaining = None, timer.seconds
        else:
            deadline, remaining = old.deadline, old.remaining
            if stopped and old.deadline is not None:
                deadline, remaining = None, max(0.0, float(old.deadline) - moment)
            elif not stopped and old.deadline is None:
                deadline, remaining = moment + float(old.remaining or 0.0), None
        entries.append(
            TimerEntry(
                key=timer.key,
                label=timer.label,
                deadline=deadline,
                remaining=remaining,
                held=timer.held,
                seconds=timer.seconds,  # its full length (a reminder comes before its end)
            )
        )
    return tuple(entries)


def paused(entries: Iterable[TimerEntry], now: float) -> tuple[tuple[TimerEntry, ...], float]:
    """Every running timer stopped with the time it has left, and the time left on the
    earliest (0 when none ran)."""
    stopped = []
    left = []
    for entry in entries:
        if entry.deadline is not None:
            entry = dataclasses.replace(
                entry, deadline=None, remaining=max(0.0, entry.deadline - now)
            )
            left.append(entry.remaining)
        stopped.append(entry)
    return tuple(stopped), min((x for x in left if x is not None), default=0.0)


def extended(entries: Iterable[TimerEntry], seconds: float) -> tuple[TimerEntry, ...]:
    """Every timer the game has not held itself lengthened by ``seconds`` (running, or
    stopped with time left)."""
    return tuple(
        entry
        if entry.held
        else dataclasses.replace(entry, deadline=entry.deadline + seconds)
        if entry.deadline is not None
        else dataclasses.replace(entry, remaining=entry.remaining + seconds)
        if entry.remaining is not None
        else entry
        for entry in entries
    )


def longest_left(entries: Iterable[TimerEntry], now: float) -> list[float]:
    """Seconds left on each timer :func:`extended` would lengthen."""
    return [
        entry.deadline - now if entry.deadline is not None else entry.remaining or 0.0
        for entry in entries
        if not entry.held
    ]


def dropped(entries: Iterable[TimerEntry], key: str) -> tuple[TimerEntry, ...]:
    return tuple(entry for entry in entries if entry.key != key)
