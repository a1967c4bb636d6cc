"""The options of a U-Boat Shootout game (``shared/rules/uboat.md`` §1, contract "Options").

``size`` 5–26 (default 9); ``islands`` ``none`` or ``N@CELL,…`` with numbers 1–99 and
numbers and cells distinct, on the board (default ``1@C3,2@G3,3@C7,4@G7,5@E5``, which
needs ``size`` ≥ 7); ``island_powers`` ``house`` or ``none``; ``rounds`` 1–99 (default
12); ``round`` 2m–1d (default 10m); ``evade_window`` from 1m to less than ``round``
(default 1m). Durations print in the host's form (``90m`` → ``1h30m``). An unknown key
or a bad value raises OptionError naming the known keys or the range.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from bot.games.base import OptionError, OrderSyntaxError
from bot.games.duration import format_duration, parse_duration
from bot.games.numbers import whole_number
from bot.games.uboat.cells import Sea, parse_cell
from bot.games.uboat.values import Island

MIN_SIZE, MAX_SIZE = 5, 26
MIN_ISLAND, MAX_ISLAND = 1, 99
MIN_ROUNDS, MAX_ROUNDS = 1, 99
MIN_ROUND = timedelta(minutes=2)
MAX_ROUND = timedelta(days=1)
MIN_EVADE = timedelta(minutes=1)

DEFAULT_ISLANDS_TEXT = "1@C3,2@G3,3@C7,4@G7,5@E5"
KNOWN_KEYS = ("size", "islands", "island_powers", "rounds", "round", "evade_window")
POWER_CHOICES = ("house", "none")


@dataclass(frozen=True)
class UboatOptions:
    """A game's options, checked. ``islands`` ascending by number."""

    size: int = 9
    islands: tuple[Island, ...] = ()
    island_powers: bool = True
    rounds: int = 12
    round_seconds: int = 600
    evade_seconds: int = 60

    @property
    def sea(self) -> Sea:
        return Sea(self.size, frozenset(island.cell for island in self.islands))

    def text(self) -> dict[str, str]:
        """Every option in canonical text, in the contract's order."""
        return {
            "size": str(self.size),
            "islands": islands_text(self.islands),
            "island_powers": "house" if self.island_powers else "none",
            "rounds": str(self.rounds),
            "round": format_duration(timedelta(seconds=self.round_seconds)),
            "evade_window": format_duration(timedelta(seconds=self.evade_seconds)),
        }


def islands_text(islands: tuple[Island, ...]) -> str:
    return ",".join(map(str, sorted(islands))) if islands else "none"


def parse_options(raw: Mapping[str, str]) -> UboatOptions:
    """The options from ``key=value`` texts (``seed`` belongs to the host and is ignored)."""
    unknown = sorted(key for key in raw if key.lower() not in KNOWN_KEYS and key.lower() != "seed")
    if unknown:
        raise OptionError(
            f"unknown option {unknown[0]!r}: the options of uboat are {', '.join(KNOWN_KEYS)}"
        )
    values = {key.lower(): value.strip() for key, value in raw.items()}
    size = _whole("size", values.get("size", "9"), MIN_SIZE, MAX_SIZE)
    islands_given = "islands" in values
    islands = _islands(values.get("islands", DEFAULT_ISLANDS_TEXT), size, islands_given)
    powers = values.get("island_powers", "house").lower()
    if powers not in POWER_CHOICES:
        raise OptionError(f"island_powers must be house or none; got {powers!r}")
    rounds = _whole("rounds", values.get("rounds", "12"), MIN_ROUNDS, MAX_ROUNDS)
    round_length = _duration("round", values.get("round", "10m"))
    if not MIN_ROUND <= round_length <= MAX_ROUND:
        raise OptionError(
            f"round must be from 2m to 1d; got {format_duration(round_length)} "
            "(e.g. round=10m or round=8h)"
        )
    evade = _duration("evade_window", values.get("evade_window", "1m"))
    if not MIN_EVADE <= evade < round_length:
        raise OptionError(
            f"evade_window must be from 1m to less than the round "
            f"({format_duration(round_length)}); got {format_duration(evade)} (e.g. evade_window=1m)"
        )
    return UboatOptions(
        size=size,
        islands=islands,
        island_powers=powers == "house",
        rounds=rounds,
        round_seconds=int(round_length.total_seconds()),
        evade_seconds=int(evade.total_seconds()),
    )


def _whole(key: str, text: str, low: int, high: int) -> int:
    number = whole_number(text)
    if number is None or not low <= number <= high:
        raise OptionError(f"{key} must be a whole number from {low} to {high}; got {text[:40]!r}")
    return number


def _duration(key: str, text: str) -> timedelta:
    try:
        return parse_duration(text)
    except OptionError as error:
        raise OptionError(f"{key}: {error.message}") from None


def _islands(text: str, size: int, given: bool) -> tuple[Island, ...]:
    if text.lower() == "none":
        return ()
    example = "islands=none or islands=1@C3,2@E5"
    islands: list[Island] = []
    for part in text.split(","):
        number_text, at, cell_text = part.strip().partition("@")
        number = whole_number(number_text)
        if not at or number is None:
            raise OptionError(
                f"islands is none or N@CELL joined by commas, e.g. {DEFAULT_ISLANDS_TEXT}; "
                f"got {part.strip()[:40]!r}"
            )
        if not MIN_ISLAND <= number <= MAX_ISLAND:
            raise OptionError(f"island numbers must be from 1 to 99; got {number} ({example})")
        try:
            cell = parse_cell(cell_text)
        except OrderSyntaxError:
            raise OptionError(
                f"{part.strip()!r} is not an island: write its number @ its cell, e.g. 5@E5"
            ) from None
        if not (cell.row < size and cell.col < size):
            if not given:
                raise OptionError(
                    f"the default islands ({DEFAULT_ISLANDS_TEXT}) need size 7 or more: "
                    f"give a bigger size or your own islands ({example})"
                )
            raise OptionError(
                f"island {number} at {cell} is off the {size}x{size} board ({example})"
            )
        islands.append(Island(number, cell))
    numbers = [island.number for island in islands]
    cells = [island.cell for island in islands]
    if len(set(numbers)) != len(numbers):
        raise OptionError(f"island numbers must be distinct; got {text!r} ({example})")
    if len(set(cells)) != len(cells):
        raise OptionError(f"island cells must be distinct; got {text!r} ({example})")
    if len(cells) >= size * size:
        raise OptionError(f"islands must leave some water for the U-boats ({example})")
    return tuple(sorted(islands))
