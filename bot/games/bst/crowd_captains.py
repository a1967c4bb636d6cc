"""bst played by a crowd of simulated captains (``bst demo --players 100000 --turns 3``):
the game's :class:`~bot.games.base.Crowd`.

Each captain looks only at its own fleet in its private view: mostly a shot at a random
cell, now and then a move of one step or a rotation, when it stays on the board. Simple on
purpose: the table demo's captains (:mod:`bot.games.bst.robot`) remember every shot they
see, which costs the crowd's size for every captain, every turn.
"""

from __future__ import annotations

import math
import random
from typing import Any

from bot.games.bst.cells import MAX_COLS, MAX_ROWS, Cell
from bot.games.bst.fleet import ShipKind
from bot.games.bst.state import BstState
from bot.games.bst.views import PrivateView

CELLS_PER_CAPTAIN = 10
"""A crowd fits at one captain per 10 cells (issue 33's 100,000 on 1000×1000): a fleet
takes 6, and first-come random placement needs room left to draw in."""

SMALLEST_SIDE = 20

_STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


class CrowdCaptains:
    """bst's :class:`~bot.games.base.Crowd`."""

    setup_order = "random"

    def size_for(self, players: int) -> str | None:
        side = max(SMALLEST_SIDE, math.ceil(math.sqrt(players * CELLS_PER_CAPTAIN)))
        return str(side) if side <= min(MAX_ROWS, MAX_COLS) else None

    def room(self, state: Any) -> int:
        assert isinstance(state, BstState)
        return state.options.rows * state.options.cols // CELLS_PER_CAPTAIN

    def order(self, view: Any, rng: random.Random) -> tuple[str, bool]:
        assert isinstance(view, PrivateView)
        rows, cols = view.public.rows, view.public.cols
        afloat = [ship for ship in view.ships if not ship.destroyed]
        roll = rng.random()
        if afloat and roll < 0.3:
            ship = rng.choice(afloat)
            cells = list(ship.cells)
            if roll < 0.05 and ship.kind is not ShipKind.SUBMARINE:
                centre, half = cells[len(cells) // 2], len(cells) // 2
                if half <= centre.row < rows - half and half <= centre.col < cols - half:
                    return f"rotate {ship.kind.value} at {centre}", False
            if ship.kind is ShipKind.SUBMARINE:
                ways = ["up", "down", "left", "right"]
            elif cells[0].row == cells[-1].row:
                ways = ["left", "right"]
            else:
                ways = ["up", "down"]
            way = rng.choice(ways)
            d_row, d_col = _STEPS[way]
            if all(0 <= c.row + d_row < rows and 0 <= c.col + d_col < cols for c in cells):
                return f"move {ship.kind.value} at {cells[0]} 1 {way}", False
        return f"#bst {Cell(rng.randrange(rows), rng.randrange(cols))}", True


CROWD = CrowdCaptains()
