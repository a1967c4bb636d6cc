"""A Sonar turn (``shared/rules/sonar.md`` §4): the one function that changes the battle.

A turn always begins with the move: every sub on the board sails one step forward,
wrapping. Then the player to move fires up to ``S`` depth charges (``S`` counted as
the turn begins: their live subs, 1 with ``one_shot``, half rounded up in the game's
first turn), each in the order given: a charge on any sub segment, the shooter's own
included, is a hit, and the hit that completes a sub is the killer shot that sinks it
(it leaves the board at once); any other charge misses and is marked with the distance
to the nearest sub segment on the board at that moment. A turn may also end with no
shots: a timeout with ``on_timeout=skip``, the player leaving, or the host's ``end``.
Then the leaves asked for during the turn take effect (the player's subs leave the
board, unsunk). The game ends when at most one player still has live subs (the last
one wins; none: a draw between those whose last subs sank in this turn), or on
``end`` (a draw between the players with live subs, or the win of the only one left).
Otherwise the next player in
join order with live subs moves next.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.games.base import Event, Notice, PlayerId, Resolution
from bot.games.sonar.board import Cell
from bot.games.sonar.fleet import Submarine
from bot.games.sonar.state import (
    Action,
    Captain,
    Landing,
    Phase,
    ShotResult,
    SonarState,
    Status,
    TurnLog,
)


@dataclass(frozen=True)
class Play:
    """How the player to move ends their turn. ``cells``: the shots given (drawn by the
    host when ``at_random`` and none are given; a replay gives the drawn ones);
    ``timeout``: the move time ran out."""

    action: Action
    cells: tuple[Cell, ...] = ()
    at_random: bool = False
    timeout: bool = False


def resolve_turn(state: SonarState, play: Play, rng: random.Random) -> Resolution[SonarState]:
    """The turn in progress, resolved: the move, the shots, the leaves, the outcome."""
    return _Turn(state, rng).resolve(play)


def random_targets(
    state: SonarState, shooter: PlayerId, turn: int, rng: random.Random
) -> tuple[Cell, ...]:
    """The cells a ``random`` order fires at: as many as allowed, distinct, drawn after
    the move from the cells not under the shooter's own subs."""
    own = {
        cell
        for captain, _, cells in state.on_board(turn)
        if captain.id == shooter
        for cell in cells
    }
    open_water = [cell for cell in state.board.cells() if cell not in own]
    count = min(state.shots_allowed(shooter), len(open_water))
    return tuple(rng.sample(open_water, count))


class _Turn:
    def __init__(self, state: SonarState, rng: random.Random) -> None:
        assert state.phase is Phase.BATTLE and state.to_move is not None
        self.state = state
        self.rng = rng
        self.board = state.board
        self.number = state.moves + 1
        self.mover = state.to_move
        self.captains = list(state.captains)
        self.events: list[Event] = []
        self.orders: list[Mapping[str, Any]] = []
        self.eliminated: list[PlayerId] = []
        self.at_random = False
        # Cell → (captain index, sub index, segment) over the subs on the board after the move.
        self.occupied: dict[Cell, tuple[int, int, int]] = {}
        for ci, captain in enumerate(self.captains):
            if not captain.playing:
                continue
            for si, sub in enumerate(captain.fleet):
                if sub.sunk:
                    continue
                for segment, cell in enumerate(captain.sub_cells(self.board, sub, self.number)):
                    self.occupied[cell] = (ci, si, segment)

    def resolve(self, play: Play) -> Resolution[SonarState]:
        cells = play.cells
        if play.action is Action.SHOOT and play.at_random and not cells:
            cells = random_targets(self.state, self.mover, self.number, self.rng)
        self.orders.append(_order_record(self.mover, play, cells))
        # Marked in the record and in public: random charges never fall on the
        # shooter's own subs, which is information for everyone (the seed's asterisk).
        self.at_random = play.action is Action.SHOOT and play.at_random
        landings = tuple(self.fire(cell) for cell in cells)
        leavers = [self.mover] if play.action is Action.LEAVE else []
        leavers += sorted(
            (c.id for c in self.captains if c.leaving and c.id != self.mover),
            key=lambda pid: (self.state.name_of(pid), pid),
        )
        for leaver in leavers:
            self.leave(leaver, own_turn=leaver == self.mover)
        log = TurnLog(self.number, self.mover, play.action, landings, play.at_random, play.timeout)
        new_state = replace(
            self.state,
            captains=tuple(self.captains),
            moves=self.number,
            recent=(*self.state.recent[-1:], log),
        )
        new_state = self.conclude(new_state, ended=play.action is Action.END)
        changed = frozenset(c.id for c in self.state.captains if c.playing)
        notices: tuple[Notice, ...] = ()
        if new_state.phase is Phase.BATTLE and new_state.to_move is not None:
            allowed = new_state.shots_allowed(new_state.to_move)
            notices = (
                Notice(
                    f"Turn {new_state.turn} is yours: fire up to {allowed} "
                    f"charge{'s' if allowed != 1 else ''} (e.g. `#sonar f11, a9`) or "
                    "`#sonar random`.",
                    to=new_state.to_move,
                ),
            )
        return Resolution(
            new_state, tuple(self.events), changed, notices=notices, orders=tuple(self.orders)
        )

    def fire(self, cell: Cell) -> Landing:
        drawn = {"random": True} if self.at_random else {}
        found = self.occupied.get(cell)
        if found is None:
            # Never empty: a turn fires at most one charge per live sub of the shooter, so
            # it cannot sink every sub on the board (rules §4.4, note).
            distance = self.board.nearest(cell, self.occupied)
            self.events.append(
                Event(
                    "shot",
                    {
                        "player": self.mover,
                        "cell": str(cell),
                        "result": "miss",
                        "distance": distance,
                        **drawn,
                    },
                )
            )
            return Landing(cell, ShotResult.MISS, distance=distance)
        ci, si, segment = found
        captain = self.captains[ci]
        sub = captain.fleet[si].struck(segment, self.number)
        self.captains[ci] = captain = _with_sub(captain, si, sub)
        result = ShotResult.SUNK if sub.sunk else ShotResult.HIT
        self.events.append(
            Event(
                "shot",
                {
                    "player": self.mover,
                    "cell": str(cell),
                    "result": result.value,
                    "owner": captain.id,
                    "sub": sub.id,
                    **drawn,
                },
            )
        )
        if sub.sunk:
            cells = captain.sub_cells(self.board, sub, self.number)
            for gone in cells:
                del self.occupied[gone]
            self.events.append(
                Event(
                    "sunk", {"player": captain.id, "sub": sub.id, "cells": [str(c) for c in cells]}
                )
            )
            if not captain.afloat:
                self.captains[ci] = replace(captain, status=Status.ELIMINATED, leaving=False)
                self.eliminated.append(captain.id)
                self.events.append(Event("eliminated", {"player": captain.id}))
        return Landing(cell, result, owner=captain.id, sub=sub.id)

    def leave(self, player: PlayerId, own_turn: bool) -> None:
        ci = self.state.index[player]
        captain = self.captains[ci]
        if captain.status is not Status.ALIVE:
            # Sunk out in this very turn: nothing is left to take off the board.
            return
        for sub in captain.afloat:
            for cell in captain.sub_cells(self.board, sub, self.number):
                self.occupied.pop(cell, None)
        self.captains[ci] = replace(
            captain, status=Status.LEFT, leaving=False, left_turn=self.number
        )
        if not own_turn:
            self.orders.append({"player": player, "action": "leave"})
        self.events.append(Event("left", {"player": player}))

    def conclude(self, state: SonarState, ended: bool) -> SonarState:
        alive = [c.id for c in self.captains if c.status is Status.ALIVE]
        if ended and len(alive) != 1:
            winners, draw = tuple(alive), True
        elif len(alive) <= 1:
            if alive:
                winners, draw = tuple(alive), False
            else:
                winners = tuple(c.id for c in self.captains if c.id in self.eliminated)
                draw = True
        else:
            return replace(state, to_move=self._next(alive))
        self.events.append(Event("finished", {"winners": list(winners), "draw": draw}))
        return replace(state, phase=Phase.FINISHED, to_move=None, winners=winners, draw=draw)

    def _next(self, alive: list[PlayerId]) -> PlayerId:
        order = [c.id for c in self.captains]
        start = order.index(self.mover)
        for step in range(1, len(order) + 1):
            candidate = order[(start + step) % len(order)]
            if candidate in alive:
                return candidate
        raise AssertionError("a battle with two players alive has someone to move")


def _with_sub(captain: Captain, index: int, sub: Submarine) -> Captain:
    fleet = list(captain.fleet)
    fleet[index] = sub
    return replace(captain, fleet=tuple(fleet))


def _order_record(player: PlayerId, play: Play, cells: tuple[Cell, ...]) -> dict[str, Any]:
    if play.action is Action.SHOOT:
        return {
            "player": player,
            "action": "shoot",
            "cells": [str(cell) for cell in cells],
            "random": play.at_random,
            "timeout": play.timeout,
        }
    return {"player": player, "action": play.action.value}
