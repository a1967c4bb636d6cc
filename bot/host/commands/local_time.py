"""A person's time: their IANA time zone and their quiet hours (issue 30).

Zones come from the standard library's ``zoneinfo`` with the ``tzdata`` package (so
every machine has them). Only a region's name (``Europe/Paris``) or ``UTC`` is taken:
abbreviations such as ``EST`` and the ``Etc/GMT+5`` zones are fixed offsets with no
daylight saving, so a winter setting would be an hour off all summer.

Quiet hours are two local clock times; a reminder that would fall inside them moves
earlier, to the minute before they begin (the last waking moment before the deadline). On a
day when a quiet hour's start does not exist (the clocks jump forward over it), it
moves forward with the clocks: ``02:30`` in Paris on the last Sunday of March is 03:30.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, available_timezones

DEFAULT_ZONE = "UTC"
LAST_WAKING_MINUTE = 60.0
_CLOCK = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


class SettingError(ValueError):
    """A setting that cannot be taken; the message says what was expected, with an example."""


@functools.cache
def _zones_by_lower_name() -> dict[str, str]:
    return {
        name.lower(): name
        for name in available_timezones()
        if "/" in name and not name.startswith(("Etc/", "SystemV/"))
    }


def parse_zone(text: str) -> str:
    """The IANA name of a zone given by name, in any case (``europe/paris`` → ``Europe/Paris``)."""
    given = text.strip()
    if given.upper() in ("UTC", "ETC/UTC", "Z"):
        return DEFAULT_ZONE
    found = _zones_by_lower_name().get(given.lower())
    if found is not None:
        return found
    if given and "/" not in given:
        raise SettingError(
            f"{given!r} is not a region's time zone: abbreviations such as EST are fixed "
            "offsets that ignore daylight saving. Give your region's IANA name, such as "
            "`me tz America/New_York` or `me tz Europe/Paris`"
        )
    raise SettingError(
        f"{given!r} is no IANA time zone I know: give one such as `me tz Europe/Paris` "
        "or `me tz America/New_York` (or `me tz UTC`)"
    )


def parse_clock(text: str) -> int:
    """``23:00`` → minutes after midnight."""
    match = _CLOCK.match(text.strip())
    if match is None:
        raise SettingError(f"expected a time of day as HH:MM, such as 23:00, got {text.strip()!r}")
    return int(match.group(1)) * 60 + int(match.group(2))


def parse_quiet(text: str) -> tuple[int, int] | None:
    """``23:00-08:00`` → (start, end) in minutes after local midnight; ``off`` → None."""
    given = text.strip()
    if given.lower() in ("off", "none"):
        return None
    start_text, sep, end_text = given.partition("-")
    if not sep:
        raise SettingError(
            f"expected quiet hours as START-END, such as `me quiet 23:00-08:00` "
            f"(or `me quiet off`), got {given!r}"
        )
    start, end = parse_clock(start_text), parse_clock(end_text)
    if start == end:
        raise SettingError(
            "quiet hours must start and end at different times, such as `me quiet 23:00-08:00`"
        )
    return start, end


def format_clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


@dataclass(frozen=True)
class PersonalTime:
    """One person's zone and quiet hours (minutes after local midnight, or None)."""

    zone: str = DEFAULT_ZONE
    quiet_start: int | None = None
    quiet_end: int | None = None

    def format(self, timestamp: float) -> str:
        """``2026-01-01 09:00 CET`` in their zone (``… UTC`` by default, as format_utc)."""
        local = datetime.fromtimestamp(timestamp, ZoneInfo(self.zone))
        return local.strftime("%Y-%m-%d %H:%M %Z")

    def quiet_since(self, timestamp: float) -> float | None:
        """When the quiet hours that ``timestamp`` falls in began (epoch seconds), or None
        when it falls outside them."""
        if self.quiet_start is None or self.quiet_end is None:
            return None
        zone = ZoneInfo(self.zone)
        today = datetime.fromtimestamp(timestamp, zone).date()
        spans_midnight = self.quiet_start > self.quiet_end
        for day in (today - timedelta(days=1), today):
            start = _at(day, self.quiet_start, zone)
            end_day = day + timedelta(days=1) if spans_midnight else day
            end = _at(end_day, self.quiet_end, zone)
            if start <= timestamp < end:
                return start
        return None

    def reminder_moment(self, nominal: float) -> float:
        """When a reminder meant for ``nominal`` goes: then, or if that falls in quiet
        hours, the last waking minute before they begin (the sweeper, every 30 s, lands
        in it)."""
        since = self.quiet_since(nominal)
        return nominal if since is None else since - LAST_WAKING_MINUTE


def _at(day: date, minutes: int, zone: ZoneInfo) -> float:
    """Epoch seconds of a local clock time on ``day``. A time the clocks skip (the gap of
    a spring-forward) is read with the offset before the jump (``fold=0``), which lands
    it after the jump: it moves forward by the gap."""
    local = datetime.combine(day, time(minutes // 60, minutes % 60), tzinfo=zone)
    return local.timestamp()
