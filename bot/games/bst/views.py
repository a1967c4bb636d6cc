"""What each player is shown (rules §6), as plain values for renderers and replies,
and the functions that take them from a state.

Views are the only way secrets leave the rules: the public view holds nothing
about live ships, a private view adds exactly the viewer's own ships and own
collisions, and the revealed view (everything) is for finished games only.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.base import PlayerId
from bot.games.bst.cells import Cell
from bot.games.bst.fleet import Ship, ShipKind
from bot.games.bst.state import BstState

# The phase and a captain's status are part of what a view says (renderers read them).
from bot.games.bst.status import CaptainStatus as CaptainStatus
from bot.games.bst.status import Phase as Phase


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


# --------------------------------------------------------------------- from a state


def view_of(state: BstState, viewer: PlayerId | None) -> PublicView | PrivateView:
    """The public view (``viewer`` None, or not a captain), or a captain's own board."""
    public = public_view(state)
    if viewer is None:
        return public
    captain = state.captain(viewer)
    if captain is None:
        return public
    return PrivateView(
        viewer=captain.id,
        viewer_name=captain.name,
        public=public,
        ships=tuple(_own_ship(ship) for ship in captain.ships),
        collisions=state.collisions_of(captain.id),
    )


def revealed_view(state: BstState) -> RevealedView:
    """Every fleet: for the replay of a finished game only."""
    return RevealedView(
        public=public_view(state),
        fleets=tuple(
            FleetView(c.id, c.name, tuple(_own_ship(ship) for ship in c.ships))
            for c in state.captains
        ),
    )


view = view_of
"""The Views part (``bot/games/base.py``) is this module: ``view`` and ``reveal``."""
reveal = revealed_view


_PUBLIC_VIEW = "_public_view"
"""Where a state keeps its public view once built (not a field: never stored or compared)."""


def public_view(state: BstState) -> PublicView:
    """The public facts of ``state``, built once per state: every private view of a turn
    shares it, so a crowd's 100,000 boards do not each walk 100,000 captains."""
    cached: PublicView | None = state.__dict__.get(_PUBLIC_VIEW)
    if cached is None:
        cached = state.__dict__[_PUBLIC_VIEW] = _public_view(state)
    return cached


def _public_view(state: BstState) -> PublicView:
    names = {c.id: c.name for c in state.captains}
    return PublicView(
        rows=state.options.rows,
        cols=state.options.cols,
        phase=state.phase,
        turn=state.turn,
        shots=tuple(
            ShotView(s.shooter, names.get(s.shooter, s.shooter), s.cell, s.hit)
            for s in state.last_shots
        ),
        wrecks=tuple(
            WreckView(c.id, c.name, ship.kind, ship.cells)
            for c in state.captains
            for ship in c.ships
            if ship.destroyed
        ),
        captains=tuple(CaptainView(c.id, c.name, c.status) for c in state.captains),
        winners=state.winners,
        draw=state.draw,
    )


def _own_ship(ship: Ship) -> OwnShipView:
    return OwnShipView(ship.kind, ship.cells, ship.damaged_cells, ship.destroyed)
