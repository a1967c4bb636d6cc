"""Setup of a Sugar Dog game: joining, secret starting cells and the start (rules §1).

Captains join in turn; each sends a starting cell by DM, which must lie on the
board for the captains joined so far (6 × 6 for two, 8 × 8 for three…); the
latest accepted one stands. Two submarines may start in one cell. At the start
the board is fixed for the captains present, the turn order is join order
rotated so that the captain the host names comes first, and a captain with no
starting cell (or one that a leave has pushed off the final board) gets a
random one, told privately. See ``shared/rules/sugardog.md`` §1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from bot.games.base import IllegalOrderError, PlayerId, PlayerRef
from bot.games.sugardog.board import Cell, board_size
from bot.games.sugardog.options import MAXIMUM_PLAYERS, MINIMUM_PLAYERS
from bot.games.sugardog.state import Captain, Phase, Status, SugarDogState


def join(state: SugarDogState, player: PlayerRef) -> SugarDogState:
    if state.phase is Phase.FINISHED:
        raise IllegalOrderError("this game is over: wait for the host to open a new one")
    if state.phase is Phase.BATTLE:
        raise IllegalOrderError("the hunt has begun, so joining is closed in this game")
    existing = state.captain(player.id)
    if existing is None or existing.status is Status.LEFT:
        _check_room(state)
    if existing is not None:
        if existing.status is Status.LEFT:
            # Leaving during setup costs nothing, so coming back is allowed.
            return state.with_captain(replace(existing, status=Status.ALIVE, name=player.name))
        raise IllegalOrderError("you are already in this game")
    return replace(state, captains=(*state.captains, Captain(player.id, player.name)))


def _check_room(state: SugarDogState) -> None:
    seated = sum(1 for captain in state.captains if captain.status is not Status.LEFT)
    if seated >= state.options.max_players:
        most = state.options.max_players
        raise IllegalOrderError(
            f"the game is full: it takes at most {most} captains (option max_players; "
            f"Sugar Dog takes {MINIMUM_PLAYERS} to {MAXIMUM_PLAYERS})"
        )


def leave_setup(state: SugarDogState, player: PlayerId) -> SugarDogState:
    captain = state.captain(player)
    if captain is None or captain.status is not Status.ALIVE:
        return state
    return state.with_captain(replace(captain, status=Status.LEFT, start_cell=None))


@dataclass(frozen=True)
class Start:
    """The battle as it begins, and who got a random starting cell."""

    state: SugarDogState
    random: tuple[PlayerId, ...]


def begin(state: SugarDogState, rng: random.Random, first: PlayerId | None) -> Start:
    """Close setup: fix the board and the turn order, draw the missing starting cells."""
    if state.phase is not Phase.SETUP:
        raise IllegalOrderError("the hunt has already begun")
    present = state.present
    if len(present) < 2:
        joined = "1 has joined" if len(present) == 1 else f"{len(present)} have joined"
        raise IllegalOrderError(f"starting needs at least two captains; {joined}")
    ids = [c.id for c in present]
    if first is not None and first not in ids:
        raise IllegalOrderError(
            "the captain named to move first has not joined this game: name one of "
            + ", ".join(c.name for c in present)
        )
    at = ids.index(first) if first is not None else 0
    order = tuple(ids[at:] + ids[:at])
    size = board_size(len(present))
    drawn: list[PlayerId] = []
    captains: list[Captain] = []
    for captain in state.captains:
        if captain.status is not Status.ALIVE:
            captains.append(captain)
            continue
        cell = captain.start_cell
        at_random = cell is None or not cell.on_board(size)
        if at_random:
            cell = Cell(rng.randrange(size), rng.randrange(size))
            drawn.append(captain.id)
        captains.append(replace(captain, start_cell=cell, random_start=at_random, cell=cell))
    started = replace(
        state,
        phase=Phase.BATTLE,
        captains=tuple(captains),
        order=order,
        size=size,
        turn=1,
        current=order[0],
    )
    return Start(started, tuple(drawn))
