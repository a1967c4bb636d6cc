"""The named things of U-Boat Shootout: boats' colours, islands and their powers.

U-boats are named by colours in join order: Red, Blue, Green, Yellow, Purple,
Orange (lower case in records, capitalised in messages, any case on input).
Islands are numbered; with ``island_powers=house`` islands 1 to 5 give their
owner Sonar, Long guns, Dry dock, Fog and Heavy torpedoes (rules §1, §7 in
``shared/rules/uboat.md``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.games.uboat.cells import Cell


class Colour(enum.Enum):
    """A U-boat's name, in join order."""

    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    YELLOW = "yellow"
    PURPLE = "purple"
    ORANGE = "orange"

    @property
    def title(self) -> str:
        """``Red``, as messages write it."""
        return self.value.capitalize()

    @property
    def index(self) -> int:
        """The place in colour order (Red 0 … Orange 5)."""
        return COLOURS.index(self)


COLOURS: tuple[Colour, ...] = tuple(Colour)
MAX_BOATS = len(COLOURS)
MIN_BOATS = 2
FULL_HEALTH = 3


class Power(enum.Enum):
    """A house island power, held by the island's owner (rules §7)."""

    SONAR = 1
    LONG_GUNS = 2
    DRY_DOCK = 3
    FOG = 4
    HEAVY_TORPEDOES = 5

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def effect(self) -> str:
        return _EFFECTS[self]


_LABELS = {
    Power.SONAR: "Sonar",
    Power.LONG_GUNS: "Long guns",
    Power.DRY_DOCK: "Dry dock",
    Power.FOG: "Fog",
    Power.HEAVY_TORPEDOES: "Heavy torpedoes",
}
_EFFECTS = {
    Power.SONAR: "the distance to the nearest enemy U-boat, privately, as each round begins",
    Power.LONG_GUNS: "+1 firing range",
    Power.DRY_DOCK: "+1 health at the end of each round in which the owner did not fire",
    Power.FOG: "the owner's moves and rams are announced without directions",
    Power.HEAVY_TORPEDOES: "the owner's direct hits do 3 damage",
}


@dataclass(frozen=True, order=True)
class Island:
    """An island: its number (1–99, distinct) and its tile."""

    number: int
    cell: Cell

    def __str__(self) -> str:
        return f"{self.number}@{self.cell}"


def power_of(number: int) -> Power | None:
    """The house power of island ``number`` (islands 6 and up have none)."""
    try:
        return Power(number)
    except ValueError:
        return None
