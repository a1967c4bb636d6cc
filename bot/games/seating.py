"""Players seated at a table, and the rules every such game shares unless it says otherwise.

A game whose state keeps its players as :class:`Player` values (id, name, and the seat
they sit at, which a crew shares), its :class:`~bot.games.base.GamePhase`, its winners
and whether it was drawn lets its rules subclass :class:`SeatedRules`: players join in
setup (each taking the next of the game's ``seats``), leave only in setup, the host's
end is a draw among everyone, and the outcome and the standings (winners first) follow
from the winners. The game writes the rest: its start, its orders, its timers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Protocol, TypeVar

from bot.games.base import (
    Event,
    GamePhase,
    IllegalOrderError,
    NeutralRules,
    NeutralState,
    OrderT,
    Outcome,
    PlayerId,
    PlayerRef,
    Resolution,
    Standing,
    Step,
)
from bot.games.standings import ranked


@dataclass(frozen=True)
class Player:
    """A player at the table: the host's key, their name and their seat ('' where the
    game has no seats to share)."""

    id: PlayerId
    name: str
    seat: str = ""


class Table(NeutralState, Protocol):
    """What the seated rules read of a game's state (a frozen dataclass)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def phase(self) -> GamePhase: ...

    @property
    def players(self) -> tuple[Player, ...]: ...

    @property
    def winners(self) -> tuple[PlayerId, ...]: ...

    @property
    def draw(self) -> bool: ...


TableT = TypeVar("TableT", bound=Table)


def seat_of(state: Table, player: PlayerId) -> str | None:
    """The seat ``player`` sits at (None: not in the game)."""
    return next((p.seat for p in state.players if p.id == player), None)


def seated(state: Table, seat: str) -> tuple[PlayerId, ...]:
    """Everyone at ``seat``, in join order."""
    return tuple(p.id for p in state.players if p.seat == seat)


def everyone(state: Table) -> tuple[PlayerId, ...]:
    return tuple(p.id for p in state.players)


class SeatedRules(NeutralRules[TableT, OrderT]):
    """The neutral rules of a seated game (see the module's docstring)."""

    seats: ClassVar[tuple[str, ...]] = ("",)
    """The seats newcomers take in turn (``("north", "south")``: north, south, north…)."""

    staying: ClassVar[str] = "the game has started: players stay to its end"
    """The refusal of a ``leave`` once the game has started."""

    def join(self, state: TableT, player: PlayerRef) -> TableT:
        if state.phase is not GamePhase.SETUP:
            raise IllegalOrderError("the game has started: joining is closed")
        if seat_of(state, player.id) is not None:
            raise IllegalOrderError("you are already in this game")
        seat = self.seats[len(state.players) % len(self.seats)]
        return replace(state, players=(*state.players, Player(player.id, player.name, seat)))

    def remove(self, state: TableT, player: PlayerId) -> Resolution[TableT]:
        if state.phase is not GamePhase.SETUP:
            raise IllegalOrderError(self.staying)
        kept = tuple(p for p in state.players if p.id != player)
        return Resolution(replace(state, players=kept), (), frozenset())

    def finish(self, state: TableT) -> Resolution[TableT]:
        """The host's end: a draw among everyone still seated."""
        players = everyone(state)
        ended = replace(state, phase=GamePhase.FINISHED, winners=players, draw=True)
        drawn = Event("finished", {"winners": list(players), "draw": True})
        return Resolution(ended, (drawn,), frozenset())

    def outcome(self, state: TableT) -> Outcome | None:
        if state.phase is not GamePhase.FINISHED:
            return None
        return Outcome(state.winners, state.draw)

    def standings(self, state: TableT, history: Sequence[Step]) -> tuple[Standing, ...]:
        """Winners first, everyone else after them; each player's figure is their seat."""
        if state.phase is not GamePhase.FINISHED:
            return ()
        keys = {p.id: (1 if p.id in state.winners else 0,) for p in state.players}
        seats = {p.id: (f"seat {p.seat}",) if p.seat else () for p in state.players}
        return ranked(everyone(state), keys, seats.__getitem__)
