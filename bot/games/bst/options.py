"""Game options of bst (rules §1, §3, §4, §5): parsed once at ``new`` and kept typed.

Every option has a canonical text form (``8h``, ``after_moves``, ``none``) so
that records and ``status`` show exactly what the game runs with.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from bot.games.base import ArgKind, OptionError
from bot.games.bst.cells import MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS
from bot.games.bst.fleet import Loadout
from bot.games.duration import parse_duration
from bot.games.option import (
    Option,
    OptionTable,
    as_text,
    choice,
    duration,
    enum_words,
    number,
    switch,
)


class ShotTiming(enum.Enum):
    """When shots land relative to movement (§5.2)."""

    AFTER_MOVES = "after_moves"
    BEFORE_MOVES = "before_moves"


class ConflictPolicy(enum.Enum):
    """What happens when a placement overlaps another captain's ships (§3)."""

    FIRST_COME = "first_come"
    BOTH_RETRY = "both_retry"


class LoadoutRule(enum.Enum):
    """Which fleets a game allows (§2)."""

    BOTH = "both"
    CARRIER_SUBMARINE = "carrier+submarine"
    CRUISERS = "cruisers"

    @property
    def loadouts(self) -> tuple[Loadout, ...]:
        if self is LoadoutRule.CARRIER_SUBMARINE:
            return (Loadout.CARRIER_SUBMARINE,)
        if self is LoadoutRule.CRUISERS:
            return (Loadout.TWO_CRUISERS,)
        return (Loadout.CARRIER_SUBMARINE, Loadout.TWO_CRUISERS)


MAX_TURNS = 999_999_999

_SIZE = re.compile(r"^\s*(\d{1,4})\s*(?:[x×*]\s*(\d{1,4}))?\s*$", re.IGNORECASE)


def parse_size(text: str) -> tuple[int, int]:
    """``20`` → 20×20, ``8x12`` → 8 rows by 12 columns."""
    match = _SIZE.match(text)
    if not match:
        raise OptionError(f"size: expected N or ROWSxCOLS such as 20 or 8x12; got {text.strip()!r}")
    rows = int(match.group(1))
    cols = int(match.group(2)) if match.group(2) else rows
    if not MIN_ROWS <= rows <= MAX_ROWS:
        raise OptionError(f"size: rows must be from {MIN_ROWS} to {MAX_ROWS}; got {rows}")
    if not MIN_COLS <= cols <= MAX_COLS:
        raise OptionError(f"size: columns must be from {MIN_COLS} to {MAX_COLS}; got {cols}")
    return rows, cols


def size_text(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


SIZE = Option(
    "size",
    ArgKind.TEXT,
    (20, 20),
    "Board size: N or ROWSxCOLS (default 20)",
    parse_size,
    size_text,
)
TURN = as_text(
    duration("turn", timedelta(hours=8), "Turn length, e.g. 8h, 30m, 1h30m (default 8h)")
)
SHOTS = choice(
    "shots",
    ShotTiming.AFTER_MOVES,
    "When shots land relative to moves",
    enum_words(ShotTiming),
)
PLACEMENT_CONFLICTS = choice(
    "placement_conflicts",
    ConflictPolicy.FIRST_COME,
    "What happens when placements overlap",
    enum_words(ConflictPolicy),
    # (The choices in the alphabet's order, as this refusal has always listed them.)
    refusal="{name}: expected both_retry or first_come; got {got}",
)
LOADOUTS = choice(
    "loadouts",
    LoadoutRule.BOTH,
    "Which fleets are allowed",
    {
        "both": LoadoutRule.BOTH,
        "carrier+submarine": LoadoutRule.CARRIER_SUBMARINE,
        "cruisers": LoadoutRule.CRUISERS,
        "carrier+sub": LoadoutRule.CARRIER_SUBMARINE,
        "carrier": LoadoutRule.CARRIER_SUBMARINE,
        "cruiser": LoadoutRule.CRUISERS,
    },
)
MAX_TURNS_OPTION = number(
    "max_turns",
    1,  # (unused: the default is none, below)
    1,
    MAX_TURNS,
    "End the game as a draw after this many turns",
    refusal="{name}: expected a number of turns from {low} to {high} such as 20, or none; "
    "got {got}",
).or_word("none", "off", "")
SETUP_DEADLINE = as_text(
    duration(
        "setup_deadline", timedelta(hours=24), "Close setup automatically after this long, e.g. 24h"
    )
).or_word("none", "off", "")
LATE_JOIN = switch("late_join", False, "Allow joining after setup")

OPTIONS = OptionTable(
    (SIZE, TURN, SHOTS, PLACEMENT_CONFLICTS, LOADOUTS, MAX_TURNS_OPTION, SETUP_DEADLINE, LATE_JOIN)
)
KNOWN_KEYS = OPTIONS.keys


@dataclass(frozen=True)
class BstOptions:
    """A game's options, checked and typed; ``turn`` and ``setup_deadline`` are kept in
    their canonical text (``1h30m``), as records and ``status`` show them."""

    size: tuple[int, int] = SIZE.default
    turn: str = TURN.default
    shots: ShotTiming = SHOTS.default
    placement_conflicts: ConflictPolicy = PLACEMENT_CONFLICTS.default
    loadouts: LoadoutRule = LOADOUTS.default
    max_turns: int | None = MAX_TURNS_OPTION.default
    setup_deadline: str | None = SETUP_DEADLINE.default
    late_join: bool = LATE_JOIN.default

    def text(self) -> dict[str, str]:
        """Every option but the size, in canonical text (the record's ``options``)."""
        options = OPTIONS.text(self)
        del options["size"]  # (records show it apart, as ``size_text``)
        return options

    @property
    def rows(self) -> int:
        return self.size[0]

    @property
    def cols(self) -> int:
        return self.size[1]

    @property
    def size_text(self) -> str:
        return size_text(self.size)

    @property
    def turn_seconds(self) -> float:
        """The length of a turn, and of every setup window after the first (§4)."""
        return parse_duration(self.turn).total_seconds()

    @property
    def setup_seconds(self) -> float | None:
        """The length of the first setup window; None when setup waits for ``start``."""
        if self.setup_deadline is None:
            return None
        return parse_duration(self.setup_deadline).total_seconds()


def parse_options(options: Mapping[str, str]) -> BstOptions:
    """Check and normalise ``new`` options; unknown keys are refused, naming the known ones."""
    return BstOptions(**OPTIONS.parse(options))
