"""Game options of bst (rules §1, §3, §4, §5): parsed once at ``new`` and kept typed.

Every option has a canonical text form (``8h``, ``after_moves``, ``none``) so
that records and ``status`` show exactly what the game runs with.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.games.base import OptionError
from bot.games.bst.cells import MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS
from bot.games.bst.fleet import Loadout
from bot.games.duration import format_duration, parse_duration
from bot.games.numbers import whole_number


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


@dataclass(frozen=True)
class BstOptions:
    """A game's options, checked and typed; ``turn`` and ``setup_deadline`` are kept in
    their canonical text (``1h30m``), as records and ``status`` show them."""

    rows: int = 20
    cols: int = 20
    turn: str = "8h"
    shots: ShotTiming = ShotTiming.AFTER_MOVES
    placement_conflicts: ConflictPolicy = ConflictPolicy.FIRST_COME
    loadouts: LoadoutRule = LoadoutRule.BOTH
    max_turns: int | None = None
    setup_deadline: str | None = None
    late_join: bool = False

    def text(self) -> dict[str, str]:
        """Every option but the size, in canonical text (the record's ``options``)."""
        return {
            "turn": self.turn,
            "shots": self.shots.value,
            "placement_conflicts": self.placement_conflicts.value,
            "loadouts": self.loadouts.value,
            "max_turns": "none" if self.max_turns is None else str(self.max_turns),
            "setup_deadline": self.setup_deadline or "none",
            "late_join": "on" if self.late_join else "off",
        }

    @property
    def size_text(self) -> str:
        return f"{self.rows}x{self.cols}"

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


MAX_TURNS = 999_999_999

KNOWN_KEYS = (
    "size",
    "turn",
    "shots",
    "placement_conflicts",
    "loadouts",
    "max_turns",
    "setup_deadline",
    "late_join",
)

_SIZE = re.compile(r"^\s*(\d{1,4})\s*(?:[x×*]\s*(\d{1,4}))?\s*$", re.IGNORECASE)
_ON = {"on", "true", "yes", "1"}
_OFF = {"off", "false", "no", "0"}
_LOADOUT_WORDS = {
    "both": LoadoutRule.BOTH,
    "carrier+submarine": LoadoutRule.CARRIER_SUBMARINE,
    "carrier+sub": LoadoutRule.CARRIER_SUBMARINE,
    "carrier": LoadoutRule.CARRIER_SUBMARINE,
    "cruisers": LoadoutRule.CRUISERS,
    "cruiser": LoadoutRule.CRUISERS,
}


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


def _choice(key: str, text: str, words: Mapping[str, enum.Enum]) -> enum.Enum:
    try:
        return words[text.strip().lower()]
    except KeyError:
        expected = " or ".join(sorted({w.value for w in words.values()}))
        raise OptionError(f"{key}: expected {expected}; got {text.strip()!r}") from None


def _duration_or_none(key: str, text: str) -> str | None:
    if text.strip().lower() in ("none", "off", ""):
        return None
    try:
        return format_duration(parse_duration(text))
    except OptionError as error:
        raise OptionError(f"{key}: {error.message}") from None


def parse_options(options: Mapping[str, str]) -> BstOptions:
    """Check and normalise ``new`` options; unknown keys are refused, naming the known ones."""
    values: dict[str, object] = {}
    for raw_key, raw_value in options.items():
        key = raw_key.strip().lower()
        value = str(raw_value)
        if key == "size":
            values["rows"], values["cols"] = parse_size(value)
        elif key == "turn":
            turn = _duration_or_none("turn", value)
            if turn is None:
                raise OptionError("turn: expected a duration such as 8h, 10m or 1h30m")
            values["turn"] = turn
        elif key == "shots":
            values["shots"] = _choice(key, value, {t.value: t for t in ShotTiming})
        elif key == "placement_conflicts":
            values["placement_conflicts"] = _choice(
                key, value, {p.value: p for p in ConflictPolicy}
            )
        elif key == "loadouts":
            values["loadouts"] = _choice(key, value, _LOADOUT_WORDS)
        elif key == "max_turns":
            word = value.strip().lower()
            if word in ("none", "off", ""):
                values["max_turns"] = None
            elif (turns := whole_number(word)) is not None and 1 <= turns <= MAX_TURNS:
                values["max_turns"] = turns
            else:
                raise OptionError(
                    f"max_turns: expected a number of turns from 1 to {MAX_TURNS} such as 20, "
                    f"or none; got {value.strip()[:40]!r}"
                )
        elif key == "setup_deadline":
            values["setup_deadline"] = _duration_or_none(key, value)
        elif key == "late_join":
            word = value.strip().lower()
            if word in _ON:
                values["late_join"] = True
            elif word in _OFF:
                values["late_join"] = False
            else:
                raise OptionError(f"late_join: expected on or off; got {value.strip()!r}")
        else:
            raise OptionError(
                f"unknown option {raw_key!r}: the options are {', '.join(KNOWN_KEYS)}"
            )
    return BstOptions(**values)  # type: ignore[arg-type]
