"""Lock-step movement (rules §5.1).

All moves and rotations happen together in steps. In each step every ship still
moving proposes its next footprint (a move shifts it one cell; a rotation
proposes its turned footprint, in step 1 only). A proposal fails when one of
its cells lies

1. under a ship not moving this step (no order, stopped earlier, finished, a wreck),
2. in another ship's proposal of this step,
3. under a ship whose own proposal fails this step (to a fixpoint), or
4. under ship B while B's proposal covers a cell of this ship (passing through).

Everything else succeeds at once, so a ship may follow into a cell vacated in
the same step and ships round a closed cycle all move. A ship that fails stops
for the rest of the turn. The cost of a step is proportional to the cells of the
ships still moving: occupancy is a flat array indexed by cell number, never a
board scan.

Ships are small ints (the caller numbers them) and cells are ``row * cols + col``:
a turn of 100,000 captains resolves in plain ints, with no tuples hashed in the
inner loops. Results are sets and maps keyed by ship, computed without any
order-dependent choice, so they do not depend on the order of the orders or on
player ids.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, MutableSequence
from dataclasses import dataclass

from bot.games.bst.cells import Cell
from bot.games.bst.fleet import ROWS
from bot.games.grid import Direction

WATER = -1
"""The occupancy array's value for a cell no ship covers (ships are numbered from 0)."""


@dataclass(frozen=True)
class Plan:
    """What one ship tries to do this turn: ``steps`` shifts in ``direction``, or a rotation."""

    direction: Direction | None
    steps: int = 1

    @property
    def rotation(self) -> bool:
        return self.direction is None


class Outcome(enum.Enum):
    MOVED = "moved"
    ROTATED = "rotated"
    COLLISION = "collision"


@dataclass(frozen=True)
class MovementResult:
    footprints: dict[int, tuple[int, ...]]
    """Final cell numbers of every ship that changed place (board order)."""
    outcomes: dict[int, Outcome]
    """One outcome per planned ship."""
    collisions: dict[int, frozenset[int]]
    """Every ship involved in a collision (movers and what they hit) → its own or proposed cells."""


def rotated(cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """The footprint a quarter turn about the centre cell, in board order.

    Segment i stays segment i (the end nearer the top-left stays so), which
    keeps damage on the same segments and makes two rotations the identity.
    """
    if len(cells) < 2:
        return cells
    centre = cells[len(cells) // 2]
    half = len(cells) // 2
    if cells[0].row == cells[1].row:
        return tuple(Cell(centre.row + k, centre.col) for k in range(-half, half + 1))
    return tuple(Cell(centre.row, centre.col + k) for k in range(-half, half + 1))


def shifted(cells: tuple[Cell, ...], direction: Direction) -> tuple[Cell, ...]:
    d_col, d_row = ROWS.offset(direction)
    return tuple(cell.shifted(d_row, d_col) for cell in cells)


def resolve_movement(
    occupancy: MutableSequence[int],
    footprints: Mapping[int, tuple[int, ...]],
    plans: Mapping[int, Plan],
    rows: int,
    cols: int,
) -> MovementResult:
    """Move every planned ship in lock-step.

    ``occupancy[row * cols + col]`` is the number of the ship on that cell (wrecks
    included) or :data:`WATER`; it is updated in place to the board after movement.
    ``footprints`` holds the current cell numbers of each planned ship.
    """
    current: dict[int, tuple[int, ...]] = {key: footprints[key] for key in plans}
    left = {key: (1 if plan.rotation else plan.steps) for key, plan in plans.items()}
    outcomes: dict[int, Outcome] = {}
    collisions: dict[int, set[int]] = {}

    def propose(cells: tuple[int, ...], plan: Plan) -> tuple[int, ...] | None:
        """The next footprint, or None if it would leave the board (a stale order)."""
        if plan.direction is None:
            centre_row, centre_col = divmod(cells[len(cells) // 2], cols)
            half = len(cells) // 2
            if cells[1] - cells[0] == 1:  # horizontal: turn to a column
                if centre_row - half < 0 or centre_row + half >= rows:
                    return None
                return tuple((centre_row + k) * cols + centre_col for k in range(-half, half + 1))
            if centre_col - half < 0 or centre_col + half >= cols:
                return None
            return tuple(centre_row * cols + centre_col + k for k in range(-half, half + 1))
        d_col, d_row = ROWS.offset(plan.direction)
        if d_row:
            row = cells[0] // cols + d_row if d_row < 0 else cells[-1] // cols + d_row
            if not 0 <= row < rows:
                return None
            return tuple(cell + d_row * cols for cell in cells)
        col = cells[0] % cols + d_col if d_col < 0 else cells[-1] % cols + d_col
        if not 0 <= col < cols:
            return None
        return tuple(cell + d_col for cell in cells)

    while left:
        proposals: dict[int, tuple[int, ...]] = {}
        failed: set[int] = set()
        for key in left:
            proposal = propose(current[key], plans[key])
            if proposal is None:
                failed.add(key)  # orders are validated on arrival: this only guards
                proposal = current[key]
            proposals[key] = proposal
        proposers: dict[int, list[int]] = {}
        for key, proposal in proposals.items():
            for cell in proposal:
                found = proposers.get(cell)
                if found is None:
                    proposers[cell] = [key]
                else:
                    found.append(key)
        # followers[o] = ships whose proposal covers a cell of o's current footprint
        followers: dict[int, list[int]] = {}
        for key, proposal in proposals.items():
            own = current[key]
            for cell in proposal:
                if len(proposers[cell]) > 1:  # rule 2
                    failed.add(key)
                if cell in own:
                    continue
                other = occupancy[cell]
                if other == WATER:
                    continue
                if other not in proposals:  # rule 1
                    failed.add(key)
                    continue
                followers.setdefault(other, []).append(key)
                if any(c in own for c in proposals[other]):  # rule 4
                    failed.add(key)
        # Rule 3: a failing ship stays put, so whoever wanted its cells fails too.
        pending = list(failed)
        while pending:
            stuck = pending.pop()
            for follower in followers.get(stuck, ()):
                if follower not in failed:
                    failed.add(follower)
                    pending.append(follower)
        for key in failed:
            _report(key, proposals, current, occupancy, proposers, failed, collisions)
            outcomes[key] = Outcome.COLLISION
            del left[key]
        moving = [key for key in proposals if key not in failed]
        for key in moving:
            for cell in current[key]:
                if occupancy[cell] == key:
                    occupancy[cell] = WATER
        for key in moving:
            current[key] = proposals[key]
            for cell in proposals[key]:
                occupancy[cell] = key
            left[key] -= 1
            if left[key] == 0:
                del left[key]
                outcomes[key] = Outcome.ROTATED if plans[key].rotation else Outcome.MOVED
    changed = {key: cells for key, cells in current.items() if cells != footprints[key]}
    return MovementResult(
        footprints=changed,
        outcomes=outcomes,
        collisions={key: frozenset(cells) for key, cells in collisions.items()},
    )


def _report(
    key: int,
    proposals: Mapping[int, tuple[int, ...]],
    current: Mapping[int, tuple[int, ...]],
    occupancy: MutableSequence[int],
    proposers: Mapping[int, list[int]],
    failed: set[int],
    collisions: dict[int, set[int]],
) -> None:
    """Tell both sides of each conflict of a failed proposal, each at its own cells."""
    own = current[key]
    for cell in proposals[key]:
        for other in proposers[cell]:
            if other != key:  # rule 2: both proposed this cell
                collisions.setdefault(key, set()).add(cell)
        if cell in own:
            continue
        other_ship = occupancy[cell]
        if other_ship != WATER and (other_ship not in proposals or other_ship in failed):
            # rules 1, 3, 4: this proposed cell is under the other ship, which stays
            collisions.setdefault(key, set()).add(cell)
            collisions.setdefault(other_ship, set()).add(cell)
