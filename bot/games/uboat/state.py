"""The state of a U-Boat Shootout game: players, their boats, the islands' owners.

Each player commands one U-boat (named by a colour in join order) and is its
captain; a player whose boat is sunk is adrift for one round and then joins
another boat's crew. A boat has a cell (secret), health 0–3 and the number of
rounds it fired in a row (its range shrinks). Islands belong to a boat or to no
one. A round may open with an evade window for the boats damaged in the round
before. Rules §1–§6 in ``shared/rules/uboat.md``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from bot.games.base import PlayerId
from bot.games.uboat.cells import Cell, Sea
from bot.games.uboat.options import UboatOptions
from bot.games.uboat.orders import Evade, RoundOrder
from bot.games.uboat.values import FULL_HEALTH, Colour, Island, Power, power_of


class Phase(enum.Enum):
    SETUP = "setup"
    BATTLE = "battle"
    FINISHED = "finished"


class Status(enum.Enum):
    """A player's status in the record: on a crew, adrift after a sinking, or gone."""

    ALIVE = "alive"
    ELIMINATED = "eliminated"
    LEFT = "left"


@dataclass(frozen=True)
class Player:
    """A player: ``colour`` names their own boat, ``crew`` the boat whose crew they are on
    now (None while adrift, or gone). ``start`` is the starting cell sent in setup."""

    id: PlayerId
    name: str
    colour: Colour | None
    crew: Colour | None = None
    left: bool = False
    start: Cell | None = None

    @property
    def status(self) -> Status:
        if self.left:
            return Status.LEFT
        return Status.ALIVE if self.crew is not None else Status.ELIMINATED


@dataclass(frozen=True)
class Boat:
    """A U-boat: its captain (the player who joined with it), where it started (and
    whether the host placed it), where it is, its health and its run of fire."""

    colour: Colour
    captain: PlayerId
    start: Cell
    placed_at_random: bool
    cell: Cell
    health: int = FULL_HEALTH
    fired_in_a_row: int = 0

    @property
    def afloat(self) -> bool:
        return self.health > 0


@dataclass(frozen=True)
class Said:
    """What a crew member said this round, as it arrived (the host keeps the orders
    themselves; this serves the acknowledgements and the crew's board)."""

    player: PlayerId
    order: RoundOrder | Evade


@dataclass(frozen=True)
class Ending:
    """How the game ended: the winning players (ids), whether it is a draw, the
    winning boats and every boat afloat's island sum; then the awards (rules §6,
    "Awards"): the captains earning a mark of victory and the First Duelist."""

    winners: tuple[PlayerId, ...]
    draw: bool
    boats: tuple[Colour, ...]
    scores: tuple[tuple[Colour, int], ...]
    marks: tuple[PlayerId, ...] = ()
    first_duelist: PlayerId | None = None


@dataclass(frozen=True)
class UboatState:
    options: UboatOptions
    phase: Phase = Phase.SETUP
    turn: int = 0
    players: tuple[Player, ...] = ()
    boats: tuple[Boat, ...] = ()  # colour order
    owners: tuple[Colour | None, ...] = ()  # one per island of options.islands
    evaders: frozenset[Colour] = frozenset()  # boats whose evade window is open now
    window_open: bool = False
    withdrawn: frozenset[tuple[PlayerId, int]] = frozenset()  # (sender, sequence) this round
    said: tuple[Said, ...] = ()  # each crew member's latest round order and evasion
    crew_choices: tuple[tuple[PlayerId, Colour], ...] = ()  # adrift players' latest `crew`
    joins: tuple[tuple[PlayerId, Colour], ...] = ()  # every crew join so far, in order
    last_round: tuple[Mapping[str, Any], ...] = ()  # the last resolved round's events
    this_window: tuple[Mapping[str, Any], ...] = ()  # this round's window events
    ending: Ending | None = None

    # --- lookups -----------------------------------------------------------

    @cached_property
    def sea(self) -> Sea:
        return self.options.sea

    @cached_property
    def island_number(self) -> dict[Cell, int]:
        return {island.cell: island.number for island in self.options.islands}

    def player(self, player: PlayerId) -> Player | None:
        return self._players_by_id.get(player)

    @cached_property
    def _players_by_id(self) -> dict[PlayerId, Player]:
        return {p.id: p for p in self.players}

    def boat(self, colour: Colour) -> Boat | None:
        for boat in self.boats:
            if boat.colour is colour:
                return boat
        return None

    def boat_of(self, player: PlayerId) -> Boat | None:
        """The boat whose crew ``player`` is on now."""
        found = self.player(player)
        if found is None or found.crew is None or found.left:
            return None
        return self.boat(found.crew)

    def crew_of(self, colour: Colour) -> tuple[Player, ...]:
        """The players on ``colour``'s crew now, in join order."""
        return tuple(p for p in self.players if p.crew is colour and not p.left)

    @property
    def afloat(self) -> tuple[Boat, ...]:
        return tuple(boat for boat in self.boats if boat.afloat)

    @property
    def present(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if not p.left)

    def owner(self, number: int) -> Colour | None:
        for island, owner in zip(self.options.islands, self.owners, strict=True):
            if island.number == number:
                return owner
        return None

    def islands_of(self, colour: Colour) -> tuple[Island, ...]:
        return tuple(
            island
            for island, owner in zip(self.options.islands, self.owners, strict=True)
            if owner is colour
        )

    def holds(self, colour: Colour, power: Power) -> bool:
        """Whether ``colour`` owns the island with this power, powers on."""
        return self.options.island_powers and any(
            power_of(island.number) is power for island in self.islands_of(colour)
        )

    def range_of(self, boat: Boat) -> int:
        """3, +1 with Long guns, −1 for each round it fired in a row just before (≥ 0)."""
        reach = 3 + (1 if self.holds(boat.colour, Power.LONG_GUNS) else 0)
        return max(0, reach - boat.fired_in_a_row)

    # --- changes -----------------------------------------------------------

    def with_player(self, player: Player) -> UboatState:
        return replace(
            self, players=tuple(player if p.id == player.id else p for p in self.players)
        )

    def with_boat(self, boat: Boat) -> UboatState:
        return replace(
            self, boats=tuple(boat if b.colour is boat.colour else b for b in self.boats)
        )
