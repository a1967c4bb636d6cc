"""Ships and fleets of bst (rules §2).

Each player has exactly two ships, by one of two loadouts: an aircraft carrier
(5 cells) with a submarine (1 cell), or two cruisers (3 cells each). A ship is
a straight horizontal or vertical run of cells; its damage is kept by segment
index, so damage moves with the ship.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.games.bst.cells import Cell
from bot.games.grid import Direction as Direction  # re-exported: ships and their moves go together
from bot.games.grid import Rows


class ShipKind(enum.Enum):
    CARRIER = "carrier"
    SUBMARINE = "submarine"
    CRUISER = "cruiser"

    @property
    def length(self) -> int:
        return _LENGTHS[self]

    @property
    def title(self) -> str:
        return "aircraft carrier" if self is ShipKind.CARRIER else self.value


_LENGTHS = {ShipKind.CARRIER: 5, ShipKind.SUBMARINE: 1, ShipKind.CRUISER: 3}

# Player words for ships (rules §2); matched case-insensitively.
SHIP_WORDS: dict[str, ShipKind] = {
    "carrier": ShipKind.CARRIER,
    "aircraft carrier": ShipKind.CARRIER,
    "aircraftcarrier": ShipKind.CARRIER,
    "cv": ShipKind.CARRIER,
    "submarine": ShipKind.SUBMARINE,
    "sub": ShipKind.SUBMARINE,
    "cruiser": ShipKind.CRUISER,
}


class Loadout(enum.Enum):
    CARRIER_SUBMARINE = "carrier+submarine"
    TWO_CRUISERS = "cruisers"

    @property
    def kinds(self) -> tuple[ShipKind, ShipKind]:
        if self is Loadout.CARRIER_SUBMARINE:
            return (ShipKind.CARRIER, ShipKind.SUBMARINE)
        return (ShipKind.CRUISER, ShipKind.CRUISER)


class Orientation(enum.Enum):
    HORIZONTAL = "horizontal"
    VERTICAL = "vertical"
    NONE = "none"  # a submarine has no orientation


ROWS = Rows.FROM_TOP
"""Row ``A`` is the top row: a step up is to the row before (:mod:`bot.games.grid`)."""


def axis_of(direction: Direction) -> Orientation:
    """The line a ship moving ``direction`` lies along."""
    return Orientation.VERTICAL if direction.vertical else Orientation.HORIZONTAL


@dataclass(frozen=True)
class Ship:
    """A ship on the board.

    ``cells`` run top-to-bottom / left-to-right; ``damaged`` holds segment
    indices into ``cells`` so that damage moves with the ship.
    """

    kind: ShipKind
    cells: tuple[Cell, ...]
    damaged: frozenset[int] = frozenset()

    @property
    def orientation(self) -> Orientation:
        if len(self.cells) == 1:
            return Orientation.NONE
        if self.cells[0].row == self.cells[1].row:
            return Orientation.HORIZONTAL
        return Orientation.VERTICAL

    @property
    def destroyed(self) -> bool:
        return len(self.damaged) == len(self.cells)

    @property
    def damaged_cells(self) -> frozenset[Cell]:
        return frozenset(self.cells[i] for i in self.damaged)

    @property
    def centre(self) -> Cell:
        """The cell a rotation turns about: the 2nd of a cruiser, the 3rd of a carrier."""
        return self.cells[len(self.cells) // 2]

    def occupies(self, cell: Cell) -> bool:
        return cell in self.cells
