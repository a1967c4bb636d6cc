"""What each player is shown (rules §6), as plain values for renderers and replies.

Views are the only way secrets leave the rules: the public view holds nothing
about live ships, a private view adds exactly the viewer's own ships and own
collisions, and the revealed view (everything) is for finished games only.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.games.base import PlayerId
from bot.games.bst.cells import Cell
from bot.games.bst.fleet import ShipKind


class Phase(enum.Enum):
    SETUP = "setup"
    BATTLE = "battle"
    FINISHED = "finished"


class CaptainStatus(enum.Enum):
    ALIVE = "alive"
    ELIMINATED = "eliminated"
    LEFT = "left"


@dataclass(frozen=True)
class CaptainView:
    id: PlayerId
    name: str
    status: CaptainStatus


@dataclass(frozen=True)
class ShotView:
    """One shot of the turn just resolved: who fired, where, and whether it hit."""

    shooter: PlayerId
    shooter_name: str
    cell: Cell
    hit: bool


@dataclass(frozen=True)
class WreckView:
    """A destroyed ship, public to all with its owner."""

    owner: PlayerId
    owner_name: str
    kind: ShipKind
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class PublicView:
    """The public map's facts. ``turn`` is the turn in progress (0 in setup);
    ``shots`` are those of turn ``turn - 1`` (the one just resolved), or of
    the last turn in a finished game."""

    rows: int
    cols: int
    phase: Phase
    turn: int
    shots: tuple[ShotView, ...]
    wrecks: tuple[WreckView, ...]
    captains: tuple[CaptainView, ...]
    winners: tuple[PlayerId, ...] = ()
    draw: bool = False

    @property
    def alive(self) -> tuple[CaptainView, ...]:
        return tuple(c for c in self.captains if c.status is CaptainStatus.ALIVE)


@dataclass(frozen=True)
class OwnShipView:
    kind: ShipKind
    cells: tuple[Cell, ...]
    damaged: frozenset[Cell]
    destroyed: bool


@dataclass(frozen=True)
class PrivateView:
    """One captain's board: the public facts plus their own fleet and collisions."""

    viewer: PlayerId
    viewer_name: str
    public: PublicView
    ships: tuple[OwnShipView, ...]
    collisions: tuple[Cell, ...]
    """The viewer's own cells (or proposed cells) where a ship collided in the turn just resolved."""


@dataclass(frozen=True)
class FleetView:
    owner: PlayerId
    owner_name: str
    ships: tuple[OwnShipView, ...]


@dataclass(frozen=True)
class RevealedView:
    """Everything on the board: the replay's frame for one moment of a game."""

    public: PublicView
    fleets: tuple[FleetView, ...]
