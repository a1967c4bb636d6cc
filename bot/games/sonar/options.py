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
from bot.games.option import OptionTable, choice, duration, enum_words, in_seconds, number, switch
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


SIZE = number(
    "size",
    16,
    MIN_ROWS,
    MAX_ROWS,
    "rows of the board, even (it has twice as many columns)",
    refusal="{name}: expected an even number from {low} to {high}; got {number}",
    even=True,
)
SHIPS = number(
    "ships",
    SHARED_SUBS,
    MIN_SHIPS,
    MAX_SHIPS,
    "subs per captain (default 12 ÷ captains)",
    refusal="{name}: expected a number from {low} to {high}; got {number}",
).or_word("auto")
ONE_SHOT = switch("one_shot", False, "one charge per turn instead of one per live sub")
HIDE_HITS = switch("hide_hits", False, "show hits only on the turn they happen")
MOVE_TIME = in_seconds(
    duration("move_time", timedelta(days=1), "time a captain has for a turn (default 1d)")
)
ON_TIMEOUT = choice(
    "on_timeout",
    OnTimeout.RANDOM,
    "when the move time runs out: random shots or skip",
    enum_words(OnTimeout),
)
PLACEMENT = choice(
    "placement",
    Placement.RANDOM,
    "random: the host places every fleet; given: captains may send their own (needs ships)",
    enum_words(Placement),
)

OPTIONS = OptionTable((SIZE, SHIPS, ONE_SHOT, HIDE_HITS, MOVE_TIME, ON_TIMEOUT, PLACEMENT))
KNOWN_KEYS = OPTIONS.keys


@dataclass(frozen=True)
class SonarOptions:
    size: int = SIZE.default
    ships: int | None = SHIPS.default
    """None: ``12 ÷ players``, fixed when the battle starts."""
    one_shot: bool = ONE_SHOT.default
    hide_hits: bool = HIDE_HITS.default
    move_time: int = MOVE_TIME.default
    """Seconds."""
    on_timeout: OnTimeout = ON_TIMEOUT.default
    placement: Placement = PLACEMENT.default

    def ships_for(self, players: int) -> int:
        """The subs per player for this many players."""
        return self.ships if self.ships is not None else SHARED_SUBS // max(players, 1)

    def text(self, ships_in_use: int | None = None) -> dict[str, str]:
        """Every option in canonical text; ``ships`` is ``auto`` until the battle starts."""
        options = OPTIONS.text(self)
        if ships_in_use is not None:
            options["ships"] = SHIPS.text(ships_in_use)
        return options


def parse_options(options: Mapping[str, str]) -> SonarOptions:
    """Check and normalise the options of ``new``; an unknown key is refused, naming the
    known ones, and a value out of range names the range."""
    parsed = SonarOptions(**OPTIONS.parse(options))
    if parsed.placement is Placement.GIVEN and parsed.ships is None:
        raise OptionError(
            "placement=given needs ships=N (the fleet each player sends), e.g. "
            "`@game sonar placement=given ships=4`"
        )
    return parsed
