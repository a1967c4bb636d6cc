"""The host's plain words in Discord's own markup, without the SDK.

* **Times.** The host writes a deadline as ``2026-01-01 08:00 UTC`` (its one format,
  :func:`bot.host.clock.format_utc`), which every platform can show. On Discord a
  timestamp tag shows it in each reader's own time zone, and counting down:
  ``<t:1767254400:f> (<t:1767254400:R>)``, to the second: the host names a deadline
  to the minute, and gives its exact moment beside the text (``Outbound.instants``).
  A countdown the host wrote beside it (``(in 7 hours)``) is dropped: Discord's counts
  live.
* **Buttons.** A button's custom id carries the whole command it stands for and the
  number of its game (``bst2:o:12:#sonar join``), so a click is understood with no state
  kept: the buttons of a message sent a week ago, before a restart, still work, and a
  click in a DM (which belongs to no channel) is about that game, not "the sender's one
  game". ``p`` marks a private answer (acknowledged to the clicker alone), ``o`` an open
  one. Buttons made before game numbers (``bst1:o:#sonar join``) still work as before.
"""

from __future__ import annotations

import re
from calendar import timegm
from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil
from time import strptime

from bot.host.messages import Choice

_UTC = re.compile(r"(\d{4}-\d{2}-\d{2} \d{2}:\d{2}) UTC(?: \(in [^()]*\))?")


def discord_times(text: str, instants: Sequence[float] = ()) -> str:
    """Every ``YYYY-MM-DD HH:MM UTC`` of ``text`` as Discord timestamp tags: to the second
    where one of ``instants`` (the exact deadlines) falls in that minute, rounded up so a
    countdown never reaches zero before the turn closes; else the minute itself."""
    exact: dict[int, int] = {}
    for instant in instants:
        exact.setdefault(int(instant // 60) * 60, ceil(instant))

    def tag(match: re.Match[str]) -> str:
        minute = timegm(strptime(match.group(1), "%Y-%m-%d %H:%M"))
        seconds = exact.get(minute, minute)
        return f"<t:{seconds}:f> (<t:{seconds}:R>)"

    return _UTC.sub(tag, text)


BUTTON_PREFIX = "bst2:"  # bst2:MODE:GAME:COMMAND
OLD_BUTTON_PREFIX = "bst1:"  # bst1:MODE:COMMAND, on messages sent before game numbers
MAX_CUSTOM_ID = 100  # Discord's limits
MAX_LABEL = 80
MAX_BUTTONS = 25  # five rows of five


@dataclass(frozen=True)
class Button:
    label: str
    custom_id: str


@dataclass(frozen=True)
class Click:
    """What a button stands for: the command, whether its answer is private, and the
    number of its game (0 on a button made before buttons carried one)."""

    text: str
    private: bool
    game: int = 0


def buttons_for(choices: Sequence[Choice], game: int = 0) -> list[Button]:
    """The buttons Discord can carry for ``choices`` of game number ``game``: a choice
    whose command does not fit a custom id, or beyond the 25th, stays typed only (the
    text says how)."""
    found: list[Button] = []
    seen: set[str] = set()
    for choice in choices:
        mode = "p" if choice.private else "o"
        custom_id = f"{BUTTON_PREFIX}{mode}:{game}:{choice.text}"
        if len(custom_id) > MAX_CUSTOM_ID or custom_id in seen:
            continue
        seen.add(custom_id)
        label = (
            choice.label if len(choice.label) <= MAX_LABEL else choice.label[: MAX_LABEL - 1] + "…"
        )
        found.append(Button(label, custom_id))
        if len(found) == MAX_BUTTONS:
            break
    return found


def command_of(custom_id: str) -> Click | None:
    """What a button stands for, or None for a custom id that is not one of the host's
    buttons. Buttons of either form work, whenever their message was sent."""
    game = 0
    if custom_id.startswith(BUTTON_PREFIX):
        mode, colon, rest = custom_id[len(BUTTON_PREFIX) :].partition(":")
        number, colon_2, text = rest.partition(":")
        if not (colon and colon_2 and number.isdigit()):
            return None
        game = int(number)
    elif custom_id.startswith(OLD_BUTTON_PREFIX):
        mode, colon, text = custom_id[len(OLD_BUTTON_PREFIX) :].partition(":")
        if not colon:
            return None
    else:
        return None
    if mode not in ("p", "o") or not text.strip():
        return None
    return Click(text, mode == "p", game)
