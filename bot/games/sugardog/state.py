"""The state of one Sugar Dog game: frozen values, changed only by this package's rules.

A :class:`SugarDogState` holds the options, the phase, the captains in join
order (each with a submarine, mines and torpedoes, hidden from everyone else),
the turn order fixed at the start, the turn in progress and who is to move, and
the history of every turn played (orders and events with player ids): the
captains' logs and the public views are read from it. See
``shared/rules/sugardog.md`` for the rules these values follow.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from functools import cached_property

from bot.games.base import Event, PlayerId
from bot.games.grid import Direction
from bot.games.sugardog.board import Cell, board_size
from bot.games.sugardog.options import SugarDogOptions
from bot.games.sugardog.orders import Played

MINES_PER_SUBMARINE = 3


class Phase(enum.Enum):
    SETUP = "setup"
    BATTLE = "battle"
    FINISHED = "finished"


class Status(enum.Enum):
    """``alive``: the submarine is afloat (or, in setup, the captain is in the game)."""

    ALIVE = "alive"
    ELIMINATED = "eliminated"
    LEFT = "left"


class UnitKind(enum.Enum):
    """What can sit in a cell; the value order is the rules' tie-break order."""

    SUBMARINE = "submarine"
    MINE = "mine"
    TORPEDO = "torpedo"

    @property
    def rank(self) -> int:
        return _RANKS[self]


_RANKS = {UnitKind.SUBMARINE: 0, UnitKind.MINE: 1, UnitKind.TORPEDO: 2}


@dataclass(frozen=True)
class Torpedo:
    """A torpedo in the water: its owner's launch number, where it is and where it runs."""

    number: int
    cell: Cell
    direction: Direction


@dataclass(frozen=True)
class Captain:
    """One player and everything they have at sea.

    ``start_cell`` is the cell sent in setup (or drawn at the start); ``cell`` is
    the submarine's cell in battle, or where it was destroyed (or last was, for a
    captain who left). ``mines`` are in cell order, a cell twice for two mines."""

    id: PlayerId
    name: str
    status: Status = Status.ALIVE
    start_cell: Cell | None = None
    random_start: bool = False
    cell: Cell | None = None
    silent: bool = False
    mines_left: int = MINES_PER_SUBMARINE
    mines: tuple[Cell, ...] = ()
    torpedoes: tuple[Torpedo, ...] = ()
    launched: int = 0

    @property
    def afloat(self) -> bool:
        return self.status is Status.ALIVE and self.cell is not None


@dataclass(frozen=True)
class TurnEntry:
    """One change of the battle, as the captains' logs and the views need it.

    ``mover`` is whose turn it was (``turn`` in the record), ``player`` who gave
    ``order`` (the mover, or a captain who left during it); ``order`` None is the
    host ending the game. ``cell_after`` and ``mines_left_after`` are ``player``'s
    (private: only their own log shows them)."""

    number: int
    mover: PlayerId
    player: PlayerId
    order: Played | None
    timeout: bool
    events: tuple[Event, ...]
    cell_after: Cell | None = None
    mines_left_after: int = MINES_PER_SUBMARINE


@dataclass(frozen=True)
class SugarDogState:
    """One Sugar Dog game at one moment (see the module docstring)."""

    options: SugarDogOptions
    phase: Phase = Phase.SETUP
    captains: tuple[Captain, ...] = ()
    order: tuple[PlayerId, ...] = ()
    """The turn order fixed at the start (empty in setup)."""
    size: int = 0
    """The board's side from the start on (in setup it follows the captains: see :attr:`board`)."""
    turn: int = 0
    current: PlayerId | None = None
    winners: tuple[PlayerId, ...] = ()
    draw: bool = False
    history: tuple[TurnEntry, ...] = ()

    @cached_property
    def index(self) -> dict[PlayerId, int]:
        return {captain.id: i for i, captain in enumerate(self.captains)}

    def captain(self, player: PlayerId) -> Captain | None:
        position = self.index.get(player)
        return None if position is None else self.captains[position]

    def name(self, player: PlayerId) -> str:
        captain = self.captain(player)
        return player if captain is None else captain.name

    def with_captain(self, captain: Captain) -> SugarDogState:
        captains = list(self.captains)
        captains[self.index[captain.id]] = captain
        return replace(self, captains=tuple(captains))

    @property
    def present(self) -> tuple[Captain, ...]:
        """Captains still in the game (in setup: joined and not left)."""
        return tuple(c for c in self.captains if c.status is Status.ALIVE)

    @property
    def board(self) -> int:
        """The board's side now: during setup it counts the captains joined so far."""
        if self.phase is Phase.SETUP:
            return board_size(len(self.present))
        return self.size

    @property
    def afloat(self) -> tuple[Captain, ...]:
        return tuple(c for c in self.captains if c.afloat)
