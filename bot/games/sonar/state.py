"""The state of one Sonar game (``shared/rules/sonar.md``): frozen values, changed only by
the rules in rules.py, setup_phase.py and resolution.py.

A :class:`SonarState` holds the options, the phase, the captains in join order with
their fleets (each sub kept as its course from turn 0, its hits and the turn it sank,
so where it is at any turn follows from the rules), how many turns have been resolved
(every sub has sailed that many steps), whose turn it is, and the public facts of the
last two resolved turns (the board now and the one before it).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cached_property

from bot.games.base import OVERLAP_REFUSALS, PlayerId
from bot.games.sonar.board import Board, Cell
from bot.games.sonar.fleet import Submarine
from bot.games.sonar.options import SonarOptions


class Phase(enum.Enum):
    SETUP = "setup"
    BATTLE = "battle"
    FINISHED = "finished"


class Status(enum.Enum):
    ALIVE = "alive"
    ELIMINATED = "eliminated"
    LEFT = "left"


class ShotResult(enum.Enum):
    """A shot's mark (§4.3): ``x`` hit, ``*X*`` the killer shot, or a miss with a distance."""

    HIT = "hit"
    SUNK = "sunk"
    MISS = "miss"


class Action(enum.Enum):
    """What ended a turn (the record's ``action`` of the player to move)."""

    SHOOT = "shoot"
    SKIP = "skip"
    LEAVE = "leave"
    END = "end"


@dataclass(frozen=True)
class Captain:
    """One player. ``fleet`` is the standing given fleet in setup, the fleet in play from
    the start (empty for one who left in setup). ``leaving``: a leave waits for the turn
    in progress to resolve. ``left_turn``: the turn their leave took effect (their subs
    left the board then, where they were)."""

    id: PlayerId
    name: str
    status: Status = Status.ALIVE
    fleet: tuple[Submarine, ...] = ()
    placed_at_random: bool = False
    overlap_refusals: int = 0
    """Fleets refused in setup, by an older version, for meeting another captain's placed
    sub: past :data:`~bot.games.base.OVERLAP_REFUSALS` the host places this fleet at random
    at the start and takes no more fleets from this captain. Fleets are no longer checked
    against other captains' subs in setup (see ``placed_seq``), so it only grows in states
    stored before that."""
    placed_seq: int = 0
    """The order of the standing given fleet among the fleets sent in setup (1 for the
    first; 0 for none, and once the battle is on): at the start, first come, a fleet that
    would meet a sub of one sent before it is refused and placed at random (§1)."""
    leaving: bool = False
    left_turn: int | None = None

    @property
    def afloat(self) -> tuple[Submarine, ...]:
        """The subs not sunk (on the board while the captain plays)."""
        return tuple(sub for sub in self.fleet if not sub.sunk)

    @property
    def placed_by_host(self) -> bool:
        return self.overlap_refusals > OVERLAP_REFUSALS

    @property
    def playing(self) -> bool:
        return self.status is Status.ALIVE

    def moves_of(self, turn: int) -> int:
        """How far this captain's subs have sailed by ``turn`` (they stop when the captain
        leaves; a sunk sub stops where it sank, see :meth:`Submarine.cells`)."""
        return turn if self.left_turn is None else min(turn, self.left_turn)

    def sub_cells(self, board: Board, sub: Submarine, turn: int) -> tuple[Cell, ...]:
        return sub.cells(board, self.moves_of(turn))


@dataclass(frozen=True)
class Landing:
    """Where a shot landed and what it found. ``owner`` and ``sub`` (a hit or a kill)
    are hidden from everyone but the record; ``distance`` is a miss's mark."""

    cell: Cell
    result: ShotResult
    distance: int | None = None
    owner: PlayerId | None = None
    sub: int | None = None


@dataclass(frozen=True)
class TurnLog:
    """The public facts of one resolved turn: whose it was, how it ended, its shots."""

    number: int
    player: PlayerId
    action: Action
    landings: tuple[Landing, ...] = ()
    at_random: bool = False
    timeout: bool = False


@dataclass(frozen=True)
class SonarState:
    options: SonarOptions
    phase: Phase = Phase.SETUP
    captains: tuple[Captain, ...] = ()
    ships: int | None = None
    """Subs per captain, fixed when the battle starts."""
    moves: int = 0
    """Turns resolved: every sub on the board has sailed this many steps."""
    to_move: PlayerId | None = None
    first: PlayerId | None = None
    recent: tuple[TurnLog, ...] = ()
    """The last two resolved turns, oldest first."""
    winners: tuple[PlayerId, ...] = ()
    draw: bool = False

    @property
    def board(self) -> Board:
        return Board(self.options.size)

    @property
    def turn(self) -> int:
        """The turn in progress (0 in setup; once finished, the last one resolved)."""
        if self.phase is Phase.BATTLE:
            return self.moves + 1
        return self.moves

    @cached_property
    def index(self) -> dict[PlayerId, int]:
        return {captain.id: i for i, captain in enumerate(self.captains)}

    def captain(self, player: PlayerId) -> Captain | None:
        position = self.index.get(player)
        return None if position is None else self.captains[position]

    def name_of(self, player: PlayerId | None) -> str:
        captain = None if player is None else self.captain(player)
        return captain.name if captain is not None else str(player)

    @property
    def present(self) -> tuple[Captain, ...]:
        """Captains who have not left (in setup: those who will play)."""
        return tuple(c for c in self.captains if c.status is not Status.LEFT)

    @property
    def in_battle(self) -> tuple[Captain, ...]:
        """Captains who were in the battle from its start, in join order."""
        if self.phase is Phase.SETUP:
            return ()
        return tuple(c for c in self.captains if c.fleet)

    def shots_allowed(self, player: PlayerId) -> int:
        """Charges ``player`` may fire in the turn in progress (§4.2): one per live sub
        (one with ``one_shot``), half of it rounded up in the game's first turn."""
        captain = self.captain(player)
        if captain is None:
            return 0
        allowed = min(1, len(captain.afloat)) if self.options.one_shot else len(captain.afloat)
        if self.moves == 0:
            allowed = (allowed + 1) // 2
        return allowed

    def on_board(self, turn: int) -> list[tuple[Captain, Submarine, tuple[Cell, ...]]]:
        """Every sub on the board after turn ``turn`` (not sunk by then, of a captain who
        had not left by then), with its cells, in join order then sub order."""
        board = self.board
        return [
            (captain, sub, captain.sub_cells(board, sub, turn))
            for captain in self.captains
            if captain.fleet and (captain.left_turn is None or captain.left_turn > turn)
            for sub in captain.fleet
            if not sub.sunk_by(turn)
        ]

    def last(self, count: int = 1) -> TurnLog | None:
        """The log of the ``count``-th last resolved turn, if kept."""
        return self.recent[-count] if len(self.recent) >= count else None
