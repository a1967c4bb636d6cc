"""The state of one bst game: frozen values, changed only by the rules of this package.

A :class:`BstState` holds the options, the phase and turn, every captain in
join order with their fleet (hidden from others, shown only through views), and
the public facts of the last resolved turn (its shots) plus each captain's own
collision cells from it (private). During setup it also counts the setup windows
that closed without enough captains (rules §3, §4), which names the next one, and the
placements accepted so far, which orders the fleets first come: a fleet drawn by `random`
never avoids anyone's ships (§3, no probing), so two fleets may overlap until setup
closes, when the later one is placed again.
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
    is placed at random when setup closes (§3: no probing). ``placed_seq`` orders the
    fleet that stands among the fleets placed in setup (1 for the first; 0 for none, and
    once the battle is on): of two fleets that overlap, the later is placed again."""

    id: PlayerId
    name: str
    status: CaptainStatus = CaptainStatus.ALIVE
    ships: tuple[Ship, ...] = ()
    awaiting: bool = False
    placed_at_random: bool = False
    overlap_refusals: int = 0
    placed_seq: int = 0

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
    placements: int = 0
    """Placements accepted in setup so far (each fleet's ``placed_seq``); 0 once the
    battle is on."""

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

    def with_captain(self, captain: Captain, *, placements: int | None = None) -> BstState:
        """This state with ``captain`` (already in the game) replaced, and the count of
        placements set to ``placements`` when given.

        A crowd's setup accepts 100,000 placements one at a time, so nothing here costs
        the crowd's size: the captains share every chunk but the changed one, and the
        index and the map of occupied cells are handed on (the map changed where the
        captain's ships changed), not rebuilt."""
        position = self.index[captain.id]
        before = self.captains[position]
        changed = replace(
            self,
            captains=self.crowd.replaced(position, captain),
            placements=self.placements if placements is None else placements,
        )
        changed.__dict__[_INDEX] = self._take(_INDEX)
        occupied: _Occupied | None = self._take(_CELL_OWNERS)
        if occupied is not None:
            if before.ships != captain.ships:
                occupied.remove(before)
                occupied.add(captain)
            changed.__dict__[_CELL_OWNERS] = occupied
        return changed

    def with_newcomer(self, captain: Captain) -> BstState:
        """This state with ``captain`` (not yet in the game) added after the others: like
        :meth:`with_captain`, it shares the captains and hands the index and map on."""
        changed = replace(self, captains=self.crowd.appended(captain))
        index: dict[PlayerId, int] | None = self._take(_INDEX)
        if index is not None:
            index[captain.id] = len(self.captains)
            changed.__dict__[_INDEX] = index
        occupied: _Occupied | None = self._take(_CELL_OWNERS)
        if occupied is not None:
            occupied.add(captain)
            changed.__dict__[_CELL_OWNERS] = occupied
        return changed

    def _take(self, name: str) -> Any:
        """A map this state built when first asked (the index, the occupied cells), taken
        from it, not copied, to hand on to the state that follows: only the newest state
        keeps it (an older one, asked again, builds its own), so no two states ever share
        a map that changes."""
        return self.__dict__.pop(name, None)

    def occupancy(self, exclude: PlayerId | None) -> Mapping[Cell, PlayerId]:
        """Cell → an owner, over every placed ship (wrecks included) but ``exclude``'s."""
        occupied = self._occupied()
        captain = None if exclude is None else self.captain(exclude)
        if captain is None or not captain.ships:
            # Nothing of theirs to leave out: the map itself, read at dict speed (a
            # crowd's first placements each look up thousands of cells).
            return occupied.owners
        own = sum(1 for ship in captain.ships for cell in ship.cells if cell not in occupied.shared)
        return _Excluding(occupied, captain.id, len(occupied.owners) - own)

    def owners_on(self, cell: Cell, exclude: PlayerId) -> list[PlayerId]:
        """Every captain but ``exclude`` with a ship on ``cell``."""
        occupied = self._occupied()
        several = occupied.shared.get(cell)
        if several is not None:
            return [owner for owner in several if owner != exclude]
        owner = occupied.owners.get(cell)
        return [] if owner is None or owner == exclude else [owner]

    def overlapping(self) -> bool:
        """Whether two captains' fleets share a cell (fleets drawn by `random` in setup,
        until setup closes)."""
        return bool(self._occupied().shared)

    def _occupied(self) -> _Occupied:
        occupied: _Occupied | None = self.__dict__.get(_CELL_OWNERS)
        if occupied is None:
            occupied = _Occupied()
            for captain in self.captains:
                occupied.add(captain)
            self.__dict__[_CELL_OWNERS] = occupied
        return occupied

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
"""Where a state keeps its :class:`_Occupied` map of occupied cells (built when first asked; see
:meth:`BstState.with_captain`). Not a field: it is never stored, compared or encoded."""


class _Occupied:
    """Who is on which cell. ``owners`` gives each occupied cell one owner (the first
    placed there): the fast path, since fleets rarely share a cell. ``shared`` lists every
    owner of the cells that several fleets cover (fleets drawn by `random` in setup may
    overlap until setup closes), so that taking one fleet away leaves the others' cells
    occupied. A captain's own two ships never share a cell."""

    def __init__(self) -> None:
        self.owners: dict[Cell, PlayerId] = {}
        self.shared: dict[Cell, list[PlayerId]] = {}

    def add(self, captain: Captain) -> None:
        owners, player = self.owners, captain.id
        for ship in captain.ships:
            for cell in ship.cells:
                first = owners.setdefault(cell, player)
                if first != player:
                    self.shared.setdefault(cell, [first]).append(player)

    def remove(self, captain: Captain) -> None:
        owners, shared, player = self.owners, self.shared, captain.id
        for ship in captain.ships:
            for cell in ship.cells:
                several = shared.get(cell)
                if several is None:
                    if owners.get(cell) == player:
                        del owners[cell]
                    continue
                if player in several:
                    several.remove(player)
                owners[cell] = several[0]
                if len(several) == 1:
                    del shared[cell]


class _Excluding(Mapping[Cell, PlayerId]):
    """The map of occupied cells without one captain's: a view, not a copy."""

    def __init__(self, occupied: _Occupied, exclude: PlayerId, size: int) -> None:
        self._owners = occupied.owners
        self._shared = occupied.shared
        self._exclude = exclude
        self._size = size

    def __getitem__(self, cell: Cell) -> PlayerId:
        owner = self._owners[cell]
        if owner != self._exclude:
            return owner
        for other in self._shared.get(cell, ()):
            if other != self._exclude:
                return other
        raise KeyError(cell)

    def __contains__(self, cell: object) -> bool:
        owner = self._owners.get(cell)  # type: ignore[call-overload]
        if owner is None:
            return False
        # A shared cell has at least two owners, so someone else's ship is on it.
        return owner != self._exclude or cell in self._shared

    def __iter__(self) -> Iterator[Cell]:
        return (cell for cell in self._owners if cell in self)

    def __len__(self) -> int:
        return self._size
