"""Time, behind one interface: the real clock in production, a virtual one in
scripts, the demo and tests (it moves only when told)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """UTC epoch seconds."""
        ...


class RealClock:
    def now(self) -> float:
        return datetime.now(UTC).timestamp()


SCRIPT_EPOCH = datetime(2026, 1, 1, tzinfo=UTC).timestamp()


class VirtualClock:
    """Starts at 2026-01-01T00:00:00Z (the script contract) unless told otherwise."""

    def __init__(self, start: float = SCRIPT_EPOCH) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def set(self, when: float) -> None:
        if when < self._now:
            raise ValueError("a virtual clock never goes back")
        self._now = when

    def advance(self, seconds: float) -> None:
        self.set(self._now + seconds)


def to_datetime(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


def format_utc(timestamp: float) -> str:
    return to_datetime(timestamp).strftime("%Y-%m-%d %H:%M UTC")
