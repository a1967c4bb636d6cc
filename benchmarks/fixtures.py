"""Games to measure, built quickly and outside the timed parts.

Captains are made directly as the engine's own values and placed by the engine's own
``start`` (one call of its packing placement, not thousands of ``accept`` calls), and each
order is checked with ``BST.rules.accept`` so only legal orders are timed.
"""

from __future__ import annotations

import math
import random
from typing import Any

from bot.games.base import Channel, Given
from bot.games.bst import BST, BstState, Captain, Move, Order, Pass, Rotate, Shoot
from bot.games.bst.cells import Cell
from bot.games.bst.fleet import ROWS, ShipKind
from bot.games.bst.movement import rotated
from bot.games.bst.views import Phase
from bot.games.grid import Direction


def battle(captains: int, rows: int, cols: int, *, seed: int = 1, turn: str = "8h") -> BstState:
    """A game in its first battle turn with ``captains`` placed at random by ``BST.rules.start``."""
    state = BST.rules.new_game({"size": f"{rows}x{cols}", "turn": turn})
    people = tuple(Captain(id=f"p{i + 1}", name=f"captain{i + 1}") for i in range(captains))
    state = BstState(options=state.options, captains=people)
    started = BST.rules.start(state, random.Random(seed)).state
    assert started.phase is Phase.BATTLE
    return started


def side_for(captains: int, reference_captains: int = 10_000, reference_side: int = 250) -> int:
    """The square board side that keeps captains per cell as at the reference size."""
    return round(reference_side * math.sqrt(captains / reference_captains))


def _move(state: BstState, captain: Captain, rng: random.Random) -> Order | None:
    ships = [s for s in captain.ships if not s.destroyed]
    rng.shuffle(ships)
    for ship in ships:
        if ship.kind is ShipKind.SUBMARINE:
            directions = list(Direction)
        elif ship.cells[0].row == ship.cells[1].row:
            directions = [Direction.LEFT, Direction.RIGHT]
        else:
            directions = [Direction.UP, Direction.DOWN]
        rng.shuffle(directions)
        for direction in directions:
            steps = 1 if ship.kind is ShipKind.SUBMARINE else rng.randint(1, ship.kind.length)
            d_col, d_row = ROWS.offset(direction)
            ends = (ship.cells[0], ship.cells[-1])
            if all(state.on_board(e.shifted(d_row * steps, d_col * steps)) for e in ends):
                return Move(ship.kind, rng.choice(ship.cells), steps, direction)
    return None


def _rotate(state: BstState, captain: Captain, rng: random.Random) -> Order | None:
    for ship in captain.ships:
        if ship.destroyed or ship.kind is ShipKind.SUBMARINE:
            continue
        if all(map(state.on_board, rotated(ship.cells))):
            return Rotate(ship.kind, rng.choice(ship.cells))
    return None


def mixed_orders(
    state: BstState,
    *,
    seed: int = 2,
    shots: float = 0.6,
    moves: float = 0.3,
    count: int | None = None,
) -> dict[str, Order]:
    """One legal order for each of the first ``count`` captains in battle: ``shots`` of them
    shoot a random cell, ``moves`` move a ship, the rest rotate one (a captain whose ships
    cannot move or rotate shoots instead)."""
    rng = random.Random(seed)
    fighting = [c for c in state.captains if c.in_battle][:count]
    orders: dict[str, Order] = {}
    rows, cols = state.options.rows, state.options.cols
    for captain in fighting:
        roll = rng.random()
        order: Order | None = None
        if roll >= shots + moves:
            order = _rotate(state, captain, rng)
        elif roll >= shots:
            order = _move(state, captain, rng)
        if order is None:
            order = Shoot(Cell(rng.randrange(rows), rng.randrange(cols)))
        channel = Channel.PUBLIC if isinstance(order, Shoot) else Channel.PRIVATE
        accepted = BST.rules.accept(state, captain.id, order, channel, rng)
        assert accepted.standing is not None
        orders[captain.id] = accepted.standing
    return orders


def order_mix(orders: dict[str, Order]) -> str:
    kinds = [type(o).__name__.lower() for o in orders.values()]
    parts = [f"{kinds.count(k)} {k}" for k in ("shoot", "move", "rotate") if kinds.count(k)]
    return ", ".join(parts)


def long_game(turns: int, *, captains: int = 12, size: int = 20, seed: int = 3) -> list[BstState]:
    """The states of a game that lasts ``turns`` turns: after setup, then after each turn.

    Shots mostly fall on open water (a fair share still hit), so the battle goes the distance.
    """
    state = battle(captains, size, size, seed=seed)
    states = [state]
    rng = random.Random(seed)
    for number in range(turns):
        orders = mixed_orders(state, seed=seed * 1000 + number, shots=0.5, moves=0.4)
        occupied = {cell for c in state.captains for s in c.ships for cell in s.cells}
        for key, order in list(orders.items()):
            if isinstance(order, Shoot) and order.cell in occupied and rng.random() < 0.85:
                orders[key] = Pass()
        orders = {k: o for k, o in orders.items() if not isinstance(o, Pass)}
        state = BST.rules.resolve(state, given(orders), random.Random(number)).state
        if state.phase is not Phase.BATTLE:
            raise RuntimeError(f"the long game ended after {number + 1} turns; pick another seed")
        states.append(state)
    return states


def encode(state: BstState) -> dict[str, Any]:
    return BST.codec.encode_state(state)


def given(orders: dict[str, Order]) -> list[Given[Order]]:
    """Orders as the host hands them to ``resolve``: one a captain, in arrival order."""
    return [
        Given(player, order, sent_at=float(number), sequence=number)
        for number, (player, order) in enumerate(orders.items(), start=1)
    ]
