"""The state of one bst game: frozen values, changed only by the rules of this package.

A :class:`BstState` holds the options, the phase and turn, every captain in
join order with their fleet (hidden from others, shown only through views), and
the public facts of the last resolved turn (its shots) plus each captain's own
collision cells from it (private). During setup it also counts the setup windows
that closed without enough captains (rules §3, §4), which names the next one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from bot.games.base import OVERLAP_REFUSALS, PlayerId
from bot.games.bst.cells import Cell
from bot.games.bst.fleet import Ship
from bot.games.bst.options import BstOptions
from bot.games.bst.status import CaptainStatus, Phase


@dataclass(frozen=True)
class Captain:
    """One player. ``ships`` is empty until a placement stands (or for a setup leaver);
    ``awaiting`` marks a late joiner who is placed at random when the turn closes.
    ``overlap_refusals`` counts the placements refused in setup for overlapping another
    captain's ships; past :data:`~bot.games.base.OVERLAP_REFUSALS` the captain's fleet
    is placed at random when setup closes (§3: no probing)."""

    id: PlayerId
    name: str
    status: CaptainStatus = CaptainStatus.ALIVE
    ships: tuple[Ship, ...] = ()
    awaiting: bool = False
    placed_at_random: bool = False
    overlap_refusals: int = 0

    @property
    def placed_by_host(self) -> bool:
        """Refused for overlaps too often: only the host places this captain's fleet."""
        return self.overlap_refusals > OVERLAP_REFUSALS

    @property
    def afloat(self) -> bool:
        """Still has an undestroyed ship (the test of §5.3)."""
        return any(not ship.destroyed for ship in self.ships)

    @property
    def in_battle(self) -> bool:
        """May give battle orders: alive, and not waiting for a late placement."""
        return self.status is CaptainStatus.ALIVE and not self.awaiting and bool(self.ships)


@dataclass(frozen=True)
class ShotRecord:
    """A shot of the last resolved turn (public)."""

    shooter: PlayerId
    cell: Cell
    hit: bool


@dataclass(frozen=True)
class BstState:
    """One bst game at one moment (see the module docstring)."""

    options: BstOptions
    phase: Phase = Phase.SETUP
    turn: int = 0
    captains: tuple[Captain, ...] = ()
    last_shots: tuple[ShotRecord, ...] = ()
    last_collisions: tuple[tuple[PlayerId, tuple[Cell, ...]], ...] = ()
    """Per captain, their own cells or proposed cells that collided last turn (private)."""
    winners: tuple[PlayerId, ...] = ()
    draw: bool = False
    setup_windows: int = 0
    """Setup windows that closed with fewer than two captains (the next one is window
    ``setup_windows``): it names the setup timer, and it is 0 once the battle is on."""

    @cached_property
    def index(self) -> dict[PlayerId, int]:
        """Captain id → position in ``captains``: lookups stay O(1) with thousands of captains."""
        return {captain.id: i for i, captain in enumerate(self.captains)}

    def captain(self, player: PlayerId) -> Captain | None:
        position = self.index.get(player)
        return None if position is None else self.captains[position]

    def with_captain(self, captain: Captain) -> BstState:
        """This state with ``captain`` (already in the game) replaced."""
        captains = list(self.captains)
        captains[self.index[captain.id]] = captain
        return replace(self, captains=tuple(captains))

    def occupancy(self, exclude: PlayerId | None) -> dict[Cell, PlayerId]:
        """Cell → owner over every placed ship (wrecks included) but ``exclude``'s."""
        return {
            cell: c.id
            for c in self.captains
            if c.id != exclude
            for ship in c.ships
            for cell in ship.cells
        }

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell.row < self.options.rows and 0 <= cell.col < self.options.cols

    @cached_property
    def collision_map(self) -> dict[PlayerId, tuple[Cell, ...]]:
        return dict(self.last_collisions)

    def collisions_of(self, player: PlayerId) -> tuple[Cell, ...]:
        return self.collision_map.get(player, ())
