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

from bot.games.base import ArgKind
from bot.games.numbers import LARGEST
from bot.games.option import Option, OptionTable, duration, in_seconds, number

MINIMUM_MOVE_TIME = timedelta(minutes=1)
MINIMUM_PLAYERS = 2
MAXIMUM_PLAYERS = 11

MOVE_TIME = in_seconds(
    duration(
        "move_time",
        timedelta(days=1),
        "how long each captain has to move (at least 1m; default 1d)",
        least=MINIMUM_MOVE_TIME,
        refusal="{name}: at least 1m, such as 10m, 12h or 1d; got {got}",
    )
)
MAX_PLAYERS = number(
    "max_players",
    MAXIMUM_PLAYERS,
    MINIMUM_PLAYERS,
    MAXIMUM_PLAYERS,
    f"most captains who may join ({MINIMUM_PLAYERS} to {MAXIMUM_PLAYERS}; "
    f"default {MAXIMUM_PLAYERS})",
    refusal="{name}: expected a number from {low} to {high}, such as 4; got {got}",
)
_SEED = number(
    "seed",
    0,
    0,
    LARGEST,
    "seeds the random starting cells (a non-negative integer)",
    refusal="{name}: expected a whole number from {low} to {high} such as 7; got {got}",
)
SEED: Option[str | None] = Option(
    "seed",
    ArgKind.NUMBER,
    None,
    _SEED.doc,
    lambda text: str(_SEED.read(text)),
    lambda seed: seed or "",
    # (No maximum offered: a platform's menu takes the number as it is typed.)
    minimum=0,
)

OPTIONS = OptionTable((MOVE_TIME, MAX_PLAYERS, SEED))
KNOWN_KEYS = OPTIONS.keys
OPTION_ARGS = OPTIONS.args


@dataclass(frozen=True)
class SugarDogOptions:
    move_time: int = MOVE_TIME.default
    """Seconds."""
    seed: str | None = SEED.default
    max_players: int = MAX_PLAYERS.default

    def text(self) -> dict[str, str]:
        """Every option in canonical text (``seed`` and ``max_players`` only when given)."""
        options = OPTIONS.text(self)
        if self.max_players == MAX_PLAYERS.default:
            del options["max_players"]
        if self.seed is None:
            del options["seed"]
        return options


def parse_options(options: Mapping[str, str]) -> SugarDogOptions:
    """Check ``@game sugardog`` options; unknown keys are refused, naming the known ones."""
    return SugarDogOptions(**OPTIONS.parse(options))
