"""Durations as players and hosts write them: ``8h``, ``10m``, ``1h30m``, ``2d``, ``45s``."""

from __future__ import annotations

import re
from datetime import timedelta

from bot.games.base import OptionError

_PART = re.compile(r"([0-9]+)\s*(d|h|m|s)", re.IGNORECASE)
_WHOLE = re.compile(r"^\s*(?:[0-9]+\s*[dhms]\s*)+$", re.IGNORECASE)
_SECONDS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
LONGEST = timedelta(days=365)
"""No clock in any game runs longer (a turn, a setup, an ``extend``, a script's
``@wait``): a year is far past any game, and the bound keeps every deadline a date."""
_LONGEST_TEXT = "365d"
_MAX_DIGITS = 9  # 999999999s is already past LONGEST: more digits are refused unread


def parse_duration(text: str) -> timedelta:
    """``1h30m`` → 90 minutes. Raises OptionError with an example on anything else,
    and on anything longer than :data:`LONGEST`."""
    if not _WHOLE.match(text):
        raise OptionError(f"expected a duration such as 8h, 10m or 1h30m; got {_shown(text)!r}")
    parts = _PART.findall(text)
    if any(len(number.lstrip("0")) > _MAX_DIGITS for number, _ in parts):
        raise _too_long(text)
    seconds = sum(int(n) * _SECONDS[unit.lower()] for n, unit in parts)
    if seconds <= 0:
        raise OptionError(
            f"a duration must be longer than zero, such as 10m or 8h; got {_shown(text)!r}"
        )
    if seconds > LONGEST.total_seconds():
        raise _too_long(text)
    return timedelta(seconds=seconds)


def _too_long(text: str) -> OptionError:
    return OptionError(
        f"a duration must be at most {_LONGEST_TEXT} (such as 8h or 2d); got {_shown(text)!r}"
    )


def _shown(text: str) -> str:
    """What was typed, cut short: a refusal quotes it, and a post may be long."""
    text = text.strip()
    return text if len(text) <= 40 else text[:40] + "…"


def format_duration(delta: timedelta) -> str:
    """Canonical short form: 90 minutes → ``1h30m``; 8 hours → ``8h``."""
    seconds = int(delta.total_seconds())
    parts = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        amount, seconds = divmod(seconds, size)
        if amount:
            parts.append(f"{amount}{unit}")
    return "".join(parts) or "0s"


def humanize(delta: timedelta) -> str:
    """For people: ``7 h 58 min``, ``3 min``, ``2 d 4 h``."""
    seconds = max(0, int(delta.total_seconds()))
    days, seconds = divmod(seconds, 86400)
    hours, seconds = divmod(seconds, 3600)
    minutes = seconds // 60
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{minutes} min" if minutes else "less than a minute"
