"""The options of a Sonar game (``shared/rules/sonar.md`` §1), parsed once at ``new``.

``size`` is the board's height ``n`` (even, 4 to 24; the width is ``2n``); ``ships``
the subs per player (1 to 16; by default 12 ÷ players, decided at the start);
``one_shot`` one charge a turn instead of one per live sub; ``hide_hits`` shows hits
only on the turn they happen; ``move_time`` the time a player has for a turn, and
``on_timeout`` what happens when it runs out (``random`` shots or ``skip``);
``placement`` whether the host places every fleet (``random``) or players may send
their own by DM during setup (``given``, which needs ``ships=N``). Every option has one
canonical text (``1h30m``, ``on``), the one records and ``status`` show.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from bot.games.base import OptionError
from bot.games.duration import format_duration, parse_duration
from bot.games.numbers import whole_number
from bot.games.sonar.board import MAX_ROWS, MIN_ROWS

MIN_SHIPS, MAX_SHIPS = 1, 16
MIN_PLAYERS, MAX_PLAYERS = 2, 4
SHARED_SUBS = 12
"""Without ``ships``, the players share twelve subs: 6, 4 or 3 each."""


class OnTimeout(enum.Enum):
    """What a turn whose ``move_time`` runs out does (§4)."""

    RANDOM = "random"
    SKIP = "skip"


class Placement(enum.Enum):
    """Who places the fleets (§1, §3)."""

    RANDOM = "random"
    GIVEN = "given"


KNOWN_KEYS = ("size", "ships", "one_shot", "hide_hits", "move_time", "on_timeout", "placement")

_ON = {"on", "true", "yes", "1"}
_OFF = {"off", "false", "no", "0"}


@dataclass(frozen=True)
class SonarOptions:
    size: int = 16
    ships: int | None = None
    """None: ``12 ÷ players``, fixed when the battle starts."""
    one_shot: bool = False
    hide_hits: bool = False
    move_time: int = 86400
    """Seconds."""
    on_timeout: OnTimeout = OnTimeout.RANDOM
    placement: Placement = Placement.RANDOM

    def ships_for(self, players: int) -> int:
        """The subs per player for this many players."""
        return self.ships if self.ships is not None else SHARED_SUBS // max(players, 1)

    def text(self, ships_in_use: int | None = None) -> dict[str, str]:
        """Every option in canonical text; ``ships`` is ``auto`` until the battle starts."""
        ships = self.ships if ships_in_use is None else ships_in_use
        return {
            "size": str(self.size),
            "ships": "auto" if ships is None else str(ships),
            "one_shot": _switch(self.one_shot),
            "hide_hits": _switch(self.hide_hits),
            "move_time": format_duration(timedelta(seconds=self.move_time)),
            "on_timeout": self.on_timeout.value,
            "placement": self.placement.value,
        }


def _switch(value: bool) -> str:
    return "on" if value else "off"


def _number(key: str, text: str, low: int, high: int, even: bool = False) -> int:
    word = text.strip()
    kind = "an even number" if even else "a number"
    value = whole_number(word)
    if value is None:
        raise OptionError(f"{key}: expected {kind} from {low} to {high}; got {word[:40]!r}")
    if not low <= value <= high or (even and value % 2):
        raise OptionError(f"{key}: expected {kind} from {low} to {high}; got {value}")
    return value


def _flag(key: str, text: str) -> bool:
    word = text.strip().lower()
    if word in _ON:
        return True
    if word in _OFF:
        return False
    raise OptionError(f"{key}: expected on or off; got {text.strip()!r}")


def _choice(key: str, text: str, kind: type[OnTimeout] | type[Placement]) -> OnTimeout | Placement:
    word = text.strip().lower()
    for member in kind:
        if member.value == word:
            return member
    expected = " or ".join(member.value for member in kind)
    raise OptionError(f"{key}: expected {expected}; got {text.strip()!r}")


def parse_options(options: Mapping[str, str]) -> SonarOptions:
    """Check and normalise the options of ``new``; an unknown key is refused, naming the
    known ones, and a value out of range names the range."""
    size, ships = 16, None
    one_shot = hide_hits = False
    move_time = 86400
    on_timeout, placement = OnTimeout.RANDOM, Placement.RANDOM
    for raw_key, raw_value in options.items():
        key, value = raw_key.strip().lower(), str(raw_value)
        if key == "size":
            size = _number(key, value, MIN_ROWS, MAX_ROWS, even=True)
        elif key == "ships":
            if value.strip().lower() != "auto":
                ships = _number(key, value, MIN_SHIPS, MAX_SHIPS)
        elif key == "one_shot":
            one_shot = _flag(key, value)
        elif key == "hide_hits":
            hide_hits = _flag(key, value)
        elif key == "move_time":
            try:
                move_time = int(parse_duration(value).total_seconds())
            except OptionError as error:
                raise OptionError(f"move_time: {error.message}") from None
        elif key == "on_timeout":
            on_timeout = OnTimeout(_choice(key, value, OnTimeout).value)
        elif key == "placement":
            placement = Placement(_choice(key, value, Placement).value)
        else:
            raise OptionError(
                f"unknown option {raw_key.strip()!r}: the options are {', '.join(KNOWN_KEYS)}"
            )
    if placement is Placement.GIVEN and ships is None:
        raise OptionError(
            "placement=given needs ships=N (the fleet each player sends), e.g. "
            "`@game sonar placement=given ships=4`"
        )
    return SonarOptions(size, ships, one_shot, hide_hits, move_time, on_timeout, placement)
