"""Options of a Sugar Dog game (shared/rules/sugardog.md §1; contract "Options").

``move_time`` (default ``1d``, at least ``1m``) is how long the captain to move
has before they hold position silently. ``max_players`` (default and most
:data:`MAXIMUM_PLAYERS`) caps the captains: the rules say "2 or more", but the board
grows with them (``N = 2 × players + 2``) and so does every turn's work, and one
player must not be able to fill a table of hundreds; 11 captains is the 24 × 24 board
the benchmarks hold to their goals. It is in the record only when it was given. ``seed`` seeds random starting cells;
the host normally takes it before the game sees its options, and it is kept
here only when it does arrive, so the record shows it exactly when it was given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from bot.games.base import Arg, ArgKind, OptionError
from bot.games.duration import format_duration, parse_duration
from bot.games.numbers import LARGEST, whole_number

DEFAULT_MOVE_TIME = 86400
MINIMUM_MOVE_TIME = 60
MINIMUM_PLAYERS = 2
MAXIMUM_PLAYERS = 11
KNOWN_KEYS = ("move_time", "max_players", "seed")

OPTION_ARGS = (
    Arg(
        "move_time",
        ArgKind.DURATION,
        "how long each captain has to move (at least 1m; default 1d)",
        required=False,
    ),
    Arg(
        "max_players",
        ArgKind.NUMBER,
        f"most captains who may join ({MINIMUM_PLAYERS} to {MAXIMUM_PLAYERS}; "
        f"default {MAXIMUM_PLAYERS})",
        required=False,
        minimum=MINIMUM_PLAYERS,
        maximum=MAXIMUM_PLAYERS,
    ),
    Arg(
        "seed",
        ArgKind.NUMBER,
        "seeds the random starting cells (a non-negative integer)",
        required=False,
        minimum=0,
    ),
)


@dataclass(frozen=True)
class SugarDogOptions:
    move_time: int = DEFAULT_MOVE_TIME
    """Seconds."""
    seed: str | None = None
    max_players: int = MAXIMUM_PLAYERS

    def text(self) -> dict[str, str]:
        """Every option in canonical text (``seed`` and ``max_players`` only when given)."""
        options = {"move_time": format_duration(timedelta(seconds=self.move_time))}
        if self.max_players != MAXIMUM_PLAYERS:
            options["max_players"] = str(self.max_players)
        if self.seed is not None:
            options["seed"] = self.seed
        return options


def parse_options(options: Mapping[str, str]) -> SugarDogOptions:
    """Check ``@game sugardog`` options; unknown keys are refused, naming the known ones."""
    move_time = DEFAULT_MOVE_TIME
    seed: str | None = None
    max_players = MAXIMUM_PLAYERS
    for raw_key, raw_value in options.items():
        key = raw_key.strip().lower()
        value = str(raw_value).strip()
        if key == "move_time":
            try:
                seconds = int(parse_duration(value).total_seconds())
            except OptionError as error:
                raise OptionError(f"move_time: {error.message}") from None
            if seconds < MINIMUM_MOVE_TIME:
                raise OptionError(f"move_time: at least 1m, such as 10m, 12h or 1d; got {value!r}")
            move_time = seconds
        elif key == "max_players":
            if not value.isdigit() or not MINIMUM_PLAYERS <= int(value) <= MAXIMUM_PLAYERS:
                raise OptionError(
                    f"max_players: expected a number from {MINIMUM_PLAYERS} to "
                    f"{MAXIMUM_PLAYERS}, such as 4; got {value!r}"
                )
            max_players = int(value)
        elif key == "seed":
            number = whole_number(value)
            if number is None:
                raise OptionError(
                    f"seed: expected a whole number from 0 to {LARGEST} such as 7; "
                    f"got {value[:40]!r}"
                )
            seed = str(number)
        else:
            raise OptionError(
                f"unknown option {raw_key.strip()!r}: the options are {', '.join(KNOWN_KEYS)}"
            )
    return SugarDogOptions(move_time=move_time, seed=seed, max_players=max_players)
