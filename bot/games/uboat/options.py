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

from bot.games.base import ArgKind, OptionError, OrderSyntaxError
from bot.games.numbers import whole_number
from bot.games.option import Option, OptionTable, choice, duration, in_seconds, number
from bot.games.uboat.cells import Sea, parse_cell
from bot.games.uboat.values import Island

MIN_SIZE, MAX_SIZE = 5, 26
MIN_ISLAND, MAX_ISLAND = 1, 99
MIN_ROUNDS, MAX_ROUNDS = 1, 99
MIN_ROUND = timedelta(minutes=2)
MAX_ROUND = timedelta(days=1)
MIN_EVADE = timedelta(minutes=1)

DEFAULT_ISLANDS_TEXT = "1@C3,2@G3,3@C7,4@G7,5@E5"
_EXAMPLE = "islands=none or islands=1@C3,2@E5"


def islands_text(islands: tuple[Island, ...]) -> str:
    return ",".join(map(str, sorted(islands))) if islands else "none"


def read_islands(text: str) -> tuple[Island, ...]:
    """``none`` or ``N@CELL`` joined by commas, numbers and cells distinct, ascending by
    number. Whether they fit the board is :func:`parse_options`' question (the size is
    another option)."""
    if text.strip().lower() == "none":
        return ()
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
            raise OptionError(f"island numbers must be from 1 to 99; got {number} ({_EXAMPLE})")
        try:
            cell = parse_cell(cell_text)
        except OrderSyntaxError:
            raise OptionError(
                f"{part.strip()!r} is not an island: write its number @ its cell, e.g. 5@E5"
            ) from None
        islands.append(Island(number, cell))
    numbers = [island.number for island in islands]
    cells = [island.cell for island in islands]
    if len(set(numbers)) != len(numbers):
        raise OptionError(f"island numbers must be distinct; got {text.strip()!r} ({_EXAMPLE})")
    if len(set(cells)) != len(cells):
        raise OptionError(f"island cells must be distinct; got {text.strip()!r} ({_EXAMPLE})")
    return tuple(sorted(islands))


SIZE = number(
    "size",
    9,
    MIN_SIZE,
    MAX_SIZE,
    "the sea's side (default 9)",
    refusal="{name} must be a whole number from {low} to {high}; got {got}",
)
ISLANDS = Option(
    "islands",
    ArgKind.TEXT,
    read_islands(DEFAULT_ISLANDS_TEXT),
    f"none, or N@CELL joined by commas (default {DEFAULT_ISLANDS_TEXT})",
    read_islands,
    islands_text,
)
ISLAND_POWERS = choice(
    "island_powers",
    True,
    "house island powers, or none (default house)",
    {"house": True, "none": False},
    refusal="{name} must be house or none; got {got}",
)
ROUNDS = number(
    "rounds",
    12,
    MIN_ROUNDS,
    MAX_ROUNDS,
    "rounds before the islands are counted (default 12)",
    refusal="{name} must be a whole number from {low} to {high}; got {got}",
)
ROUND = in_seconds(
    duration(
        "round",
        timedelta(minutes=10),
        "the length of a round, 2m to 1d (default 10m)",
        least=MIN_ROUND,
        most=MAX_ROUND,
        refusal="{name} must be from 2m to 1d; got {length} (e.g. round=10m or round=8h)",
    ),
    field="round_seconds",
)
EVADE_WINDOW = in_seconds(
    duration(
        "evade_window",
        MIN_EVADE,
        "the time for a damaged U-boat's invisible move, 1m to less than a round (default 1m)",
    ),
    field="evade_seconds",
)

OPTIONS = OptionTable(
    (SIZE, ISLANDS, ISLAND_POWERS, ROUNDS, ROUND, EVADE_WINDOW),
    unknown="unknown option {key!r}: the options of uboat are {names}",
    ignored=("seed",),  # (the host's)
)
KNOWN_KEYS = OPTIONS.keys


@dataclass(frozen=True)
class UboatOptions:
    """A game's options, checked. ``islands`` ascending by number."""

    size: int = SIZE.default
    islands: tuple[Island, ...] = ISLANDS.default
    island_powers: bool = ISLAND_POWERS.default
    rounds: int = ROUNDS.default
    round_seconds: int = ROUND.default
    evade_seconds: int = EVADE_WINDOW.default

    @property
    def sea(self) -> Sea:
        return Sea(self.size, frozenset(island.cell for island in self.islands))

    def text(self) -> dict[str, str]:
        """Every option in canonical text, in the contract's order."""
        return OPTIONS.text(self)


def parse_options(raw: Mapping[str, str]) -> UboatOptions:
    """The options from ``key=value`` texts (``seed`` belongs to the host and is ignored),
    then what depends on two of them: the islands on the board, the evade window
    shorter than the round."""
    options = UboatOptions(**OPTIONS.parse(raw))
    given = any(key.strip().lower() == ISLANDS.name for key in raw)
    _check_islands_fit(options.islands, options.size, given)
    if not MIN_EVADE.total_seconds() <= options.evade_seconds < options.round_seconds:
        round_text = ROUND.text(options.round_seconds)
        raise OptionError(
            f"evade_window must be from 1m to less than the round ({round_text}); "
            f"got {EVADE_WINDOW.text(options.evade_seconds)} (e.g. evade_window=1m)"
        )
    return options


def _check_islands_fit(islands: tuple[Island, ...], size: int, given: bool) -> None:
    for island in islands:
        if not (island.cell.row < size and island.cell.col < size):
            if not given:
                raise OptionError(
                    f"the default islands ({DEFAULT_ISLANDS_TEXT}) need size 7 or more: "
                    f"give a bigger size or your own islands ({_EXAMPLE})"
                )
            raise OptionError(
                f"island {island.number} at {island.cell} is off the {size}x{size} board "
                f"({_EXAMPLE})"
            )
    if len(islands) >= size * size:
        raise OptionError(f"islands must leave some water for the U-boats ({_EXAMPLE})")
