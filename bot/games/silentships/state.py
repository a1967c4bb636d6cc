"""The state of a game of Silent Ships: admirals, their cards, the units on the board.

Two admirals join; at the start one of them moves first (country ``C1``) and
turns alternate, player turn 1 being the first player's. Each admiral's eleven
ships are always in exactly one place: their deck (top first), their hand, their
discards (face-down, oldest first), the board as a unit (face-down or face-up),
or the opponent's pile of sunk ships. A turn goes through steps: ``actions``
(play, move, swap, end), and during an attack ``supports`` (the attacker adds
supports), ``response`` (the defender answers) and ``retreat`` (the attacker
chooses where a retreating target goes). See ``shared/rules/silentships.md``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from bot.games.base import PlayerId
from bot.games.silentships.cells import Cell, country_of
from bot.games.silentships.options import SilentShipsOptions
from bot.games.silentships.ships import Ship

INVADED = "invaded"  # the event of a turn that begins with an enemy unit on its player's country


class Phase(enum.Enum):
    SETUP = "setup"
    BATTLE = "battle"
    FINISHED = "finished"


class TurnStep(enum.Enum):
    """Where a turn stands: free actions, or one of the three steps of an attack."""

    ACTIONS = "actions"
    SUPPORTS = "supports"
    RESPONSE = "response"
    RETREAT = "retreat"


class Status(enum.Enum):
    ALIVE = "alive"
    ELIMINATED = "eliminated"
    LEFT = "left"


class Side(enum.Enum):
    ATTACK = "attack"
    DEFENCE = "defence"


class Reason(enum.Enum):
    """Why a game ended (the ``finished`` event's ``reason``)."""

    COUNTRY = "country"
    FLAG_SHIP = "flag_ship"
    AGREED = "agreed"
    MAX_TURNS = "max_turns"
    LEFT = "left"
    ENDED = "ended"  # the host ended the game: decided as an agreed stop


@dataclass(frozen=True)
class Unit:
    """A ship on the board."""

    owner: PlayerId
    ship: Ship
    cell: Cell
    face_up: bool = False


@dataclass(frozen=True)
class Admiral:
    """A player and the cards they hold. ``hand`` is in ship order; ``sank`` holds the
    opponent's ships this admiral sank, oldest first."""

    id: PlayerId
    name: str
    status: Status = Status.ALIVE
    hand: tuple[Ship, ...] = ()
    deck: tuple[Ship, ...] = ()
    discards: tuple[Ship, ...] = ()
    sank: tuple[Ship, ...] = ()


@dataclass(frozen=True)
class Supporter:
    """A unit added to one side of an attack, and the card discarded for it (None:
    a face-up Ammunition Ship's free support)."""

    side: Side
    cell: Cell
    discard: Ship | None


@dataclass(frozen=True)
class Attack:
    """The attack in progress: the attacking unit stands on ``origin`` (the square the
    attack came from), the target on ``target``. ``retreat_squares``: in step
    ``retreat``, where the attacker may send the retreating target."""

    number: int  # attacks counted from the start of the game, for the response timer
    attacker: PlayerId
    defender: PlayerId
    origin: Cell
    target: Cell
    supports: tuple[Supporter, ...] = ()
    retreat_squares: tuple[Cell, ...] = ()

    def supporting(self, cell: Cell) -> bool:
        return any(support.cell == cell for support in self.supports)

    def sides(self, side: Side) -> tuple[Supporter, ...]:
        return tuple(support for support in self.supports if support.side is side)


@dataclass(frozen=True)
class Fighter:
    """A unit that fought in a combat: its side, owner, the square it fought on, its ship
    and what it counted in its side's total."""

    side: Side
    owner: PlayerId
    cell: Cell
    ship: Ship
    value: int


@dataclass(frozen=True)
class Combat:
    """The turn's last combat (rules §4 step 4), kept until the next attack or the next
    turn so that pictures can show how it resolved. Every fighter was revealed by it, so
    all of it is public. ``fighters``: the attacker, the target, the attack's supports,
    then the defence's, in the order added."""

    attacker: PlayerId
    defender: PlayerId
    origin: Cell
    target: Cell
    fighters: tuple[Fighter, ...]
    attack: int
    defence: int
    winner: Side
    sunk: bool


@dataclass(frozen=True)
class SilentShipsState:
    options: SilentShipsOptions
    admirals: tuple[Admiral, ...] = ()  # join order
    units: tuple[Unit, ...] = ()  # cell order
    phase: Phase = Phase.SETUP
    turn: int = 0
    first: PlayerId | None = None
    dealt: tuple[tuple[PlayerId, tuple[Ship, ...]], ...] = ()  # each deck as dealt from
    step: TurnStep | None = None
    attack: Attack | None = None
    attacks: int = 0
    offer: PlayerId | None = None  # whose draw offer stands
    end_warned: int = 0  # the turn whose player was warned that `end` now loses
    out_of_time: bool = False  # the move time ran out during this attack: the turn ends after it
    combat: Combat | None = None  # the turn's last combat, for pictures
    # The turn player's orders of this turn not yet acknowledged, as they read (``play
    # fire at B4``): a play or a plain move gets no reply of its own (one each flooded a
    # player's DMs), they are told with the player's next answer (an attack's prompt, the
    # end of the turn).
    held: tuple[str, ...] = ()
    winners: tuple[PlayerId, ...] = ()
    reason: Reason | None = None

    # ------------------------------------------------------------ admirals

    def admiral(self, player: PlayerId) -> Admiral:
        for admiral in self.admirals:
            if admiral.id == player:
                return admiral
        raise KeyError(player)

    def has(self, player: PlayerId) -> bool:
        return any(admiral.id == player for admiral in self.admirals)

    def opponent(self, player: PlayerId) -> PlayerId:
        return next(admiral.id for admiral in self.admirals if admiral.id != player)

    @property
    def second(self) -> PlayerId | None:
        """The player who moves second (who wins ties when ships sunk decide)."""
        return None if self.first is None else self.opponent(self.first)

    @property
    def seats(self) -> tuple[PlayerId, ...]:
        """(first player, second player) once the battle has begun."""
        assert self.first is not None and self.second is not None
        return (self.first, self.second)

    @property
    def to_move(self) -> PlayerId | None:
        """Whose turn it is (None outside the battle)."""
        if self.phase is not Phase.BATTLE:
            return None
        return self.seats[(self.turn - 1) % 2]

    def country(self, player: PlayerId) -> Cell:
        return country_of(player == self.first)

    def invader(self, player: PlayerId) -> Unit | None:
        """The enemy unit on ``player``'s country, if one stands there (rules §5: ending
        one's turn so loses)."""
        if self.first is None:
            return None
        unit = self.unit_at(self.country(player))
        return unit if unit is not None and unit.owner != player else None

    def with_admiral(self, admiral: Admiral) -> SilentShipsState:
        return replace(
            self,
            admirals=tuple(admiral if a.id == admiral.id else a for a in self.admirals),
        )

    # ------------------------------------------------------------ units

    def unit_at(self, cell: Cell) -> Unit | None:
        for unit in self.units:
            if unit.cell == cell:
                return unit
        return None

    def units_of(self, player: PlayerId) -> tuple[Unit, ...]:
        return tuple(unit for unit in self.units if unit.owner == player)

    def with_units(self, units: tuple[Unit, ...] | list[Unit]) -> SilentShipsState:
        return replace(self, units=tuple(sorted(units, key=lambda unit: unit.cell)))

    def placing(self, unit: Unit) -> SilentShipsState:
        """This state with ``unit`` on its cell (replacing whatever stood there)."""
        return self.with_units([u for u in self.units if u.cell != unit.cell] + [unit])

    def without_unit(self, cell: Cell) -> SilentShipsState:
        return self.with_units([u for u in self.units if u.cell != cell])
