"""The state of one bst game: frozen values, changed only by the rules of this package.

A :class:`BstState` holds the options, the phase and turn, every captain in
join order with their fleet (hidden from others, shown only through views), and
the public facts of the last resolved turn (its shots) plus each captain's own
collision cells from it (private). During setup it also counts the setup windows
that closed without enough captains (rules §3, §4), which names the next one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from bot.games.base import OVERLAP_REFUSALS, PlayerId
from bot.games.bst.cells import Cell
from bot.games.bst.crowd import Crowd
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
    captains: Sequence[Captain] = ()
    """In join order; always a :class:`~bot.games.bst.crowd.Crowd` once made (any
    sequence given is turned into one), so that one captain's change shares the rest."""
    last_shots: tuple[ShotRecord, ...] = ()
    last_collisions: tuple[tuple[PlayerId, tuple[Cell, ...]], ...] = ()
    """Per captain, their own cells or proposed cells that collided last turn (private)."""
    winners: tuple[PlayerId, ...] = ()
    draw: bool = False
    setup_windows: int = 0
    """Setup windows that closed with fewer than two captains (the next one is window
    ``setup_windows``): it names the setup timer, and it is 0 once the battle is on."""

    def __post_init__(self) -> None:
        if not isinstance(self.captains, Crowd):
            object.__setattr__(self, "captains", Crowd(self.captains))

    @property
    def crowd(self) -> Crowd[Captain]:
        """``captains`` as the crowd it is (see ``__post_init__``)."""
        captains = self.captains
        assert isinstance(captains, Crowd)
        return captains

    @cached_property
    def index(self) -> dict[PlayerId, int]:
        """Captain id → position in ``captains``: lookups stay O(1) with thousands of captains."""
        return {captain.id: i for i, captain in enumerate(self.captains)}

    def captain(self, player: PlayerId) -> Captain | None:
        position = self.index.get(player)
        return None if position is None else self.captains[position]

    def with_captain(self, captain: Captain) -> BstState:
        """This state with ``captain`` (already in the game) replaced.

        A crowd's setup accepts 100,000 placements one at a time, so nothing here costs
        the crowd's size: the captains share every chunk but the changed one, and the
        index and the map of occupied cells are handed on (the map changed where the
        captain's ships changed), not rebuilt."""
        position = self.index[captain.id]
        before = self.captains[position]
        changed = replace(self, captains=self.crowd.replaced(position, captain))
        changed.__dict__[_INDEX] = self._take(_INDEX)
        owners: dict[Cell, PlayerId] | None = self._take(_CELL_OWNERS)
        if owners is not None:
            if before.ships != captain.ships:
                for ship in before.ships:
                    for cell in ship.cells:
                        if owners.get(cell) == before.id:
                            del owners[cell]
                for ship in captain.ships:
                    owners.update(dict.fromkeys(ship.cells, captain.id))
            changed.__dict__[_CELL_OWNERS] = owners
        return changed

    def with_newcomer(self, captain: Captain) -> BstState:
        """This state with ``captain`` (not yet in the game) added after the others: like
        :meth:`with_captain`, it shares the captains and hands the index and map on."""
        changed = replace(self, captains=self.crowd.appended(captain))
        index: dict[PlayerId, int] | None = self._take(_INDEX)
        if index is not None:
            index[captain.id] = len(self.captains)
            changed.__dict__[_INDEX] = index
        owners: dict[Cell, PlayerId] | None = self._take(_CELL_OWNERS)
        if owners is not None:
            for ship in captain.ships:
                owners.update(dict.fromkeys(ship.cells, captain.id))
            changed.__dict__[_CELL_OWNERS] = owners
        return changed

    def _take(self, name: str) -> Any:
        """A map this state built when first asked (the index, the occupied cells), taken
        from it, not copied, to hand on to the state that follows: only the newest state
        keeps it (an older one, asked again, builds its own), so no two states ever share
        a map that changes."""
        return self.__dict__.pop(name, None)

    def occupancy(self, exclude: PlayerId | None) -> Mapping[Cell, PlayerId]:
        """Cell → owner over every placed ship (wrecks included) but ``exclude``'s."""
        owners: dict[Cell, PlayerId] | None = self.__dict__.get(_CELL_OWNERS)
        if owners is None:
            owners = {cell: c.id for c in self.captains for ship in c.ships for cell in ship.cells}
            self.__dict__[_CELL_OWNERS] = owners
        captain = None if exclude is None else self.captain(exclude)
        if captain is None or not captain.ships:
            # Nothing of theirs to leave out: the map itself, read at dict speed (a
            # crowd's first placements each look up thousands of cells).
            return owners
        own = sum(len(ship.cells) for ship in captain.ships)
        return _Excluding(owners, captain.id, len(owners) - own)

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell.row < self.options.rows and 0 <= cell.col < self.options.cols

    @cached_property
    def collision_map(self) -> dict[PlayerId, tuple[Cell, ...]]:
        return dict(self.last_collisions)

    def collisions_of(self, player: PlayerId) -> tuple[Cell, ...]:
        return self.collision_map.get(player, ())


_INDEX = "index"
"""Where :attr:`BstState.index` keeps its map once built (``cached_property``)."""

_CELL_OWNERS = "_cell_owners"
"""Where a state keeps its map of occupied cells (built when first asked; see
:meth:`BstState.with_captain`). Not a field: it is never stored, compared or encoded."""


class _Excluding(Mapping[Cell, PlayerId]):
    """The map of occupied cells without one captain's: a view, not a copy."""

    def __init__(self, owners: Mapping[Cell, PlayerId], exclude: PlayerId, size: int) -> None:
        self._owners = owners
        self._exclude = exclude
        self._size = size

    def __getitem__(self, cell: Cell) -> PlayerId:
        owner = self._owners[cell]
        if owner == self._exclude:
            raise KeyError(cell)
        return owner

    def __contains__(self, cell: object) -> bool:
        owner = self._owners.get(cell)  # type: ignore[call-overload]
        return owner is not None and owner != self._exclude

    def __iter__(self) -> Iterator[Cell]:
        return (cell for cell, owner in self._owners.items() if owner != self._exclude)

    def __len__(self) -> int:
        return self._size
