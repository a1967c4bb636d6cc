"""A simulated bst captain for ``bst demo`` (``ROBOT``; :class:`bot.games.base.Robot`).

Each captain sees only its own private view (its ships and their damage, and the
public view in it: the last turn's shots, the wrecks) — what the host's board DMs and
public maps show a person — and remembers what it has seen. It places a legal fleet,
hunts in a checkerboard pattern, follows up a hit that did not sink a ship, moves a
ship away after it was hit, rotates now and then, and sometimes shoots blindly. Its
orders are plain text, sent through the host like anyone's.

bst's views show only the last turn, so a captain keeps a memory: the robot holds one
:class:`SimulatedCaptain` a player, made when it first sees that player in setup (a new
game starts a new memory) with its own random source, drawn from the demo's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import PlayerId, Said
from bot.games.bst.cells import Cell
from bot.games.bst.fleet import ShipKind
from bot.games.bst.status import Phase
from bot.games.bst.views import OwnShipView, PrivateView

FOLLOW_UP_MEMORY = 4


def _range(cells: list[Cell]) -> str:
    return f"{cells[0]}-{cells[-1]}" if len(cells) > 1 else str(cells[0])


@dataclass
class SimulatedCaptain:
    name: str
    rng: random.Random
    shot_at: dict[Cell, int] = field(default_factory=dict)  # cell → turn it was last shot
    open_hits: set[Cell] = field(default_factory=set)
    known_damage: set[Cell] = field(default_factory=set)

    def placement(self, rows: int, cols: int) -> str:
        """A legal fleet on an empty board (the host refuses one that overlaps another's)."""
        if self.rng.random() < 0.5:
            kinds = [ShipKind.CARRIER, ShipKind.SUBMARINE]
        else:
            kinds = [ShipKind.CRUISER, ShipKind.CRUISER]
        taken: set[Cell] = set()
        parts = []
        for kind in kinds:
            for _ in range(200):
                horizontal = self.rng.random() < 0.5
                length = kind.length
                row = self.rng.randrange(rows - (0 if horizontal else length - 1))
                col = self.rng.randrange(cols - (length - 1 if horizontal else 0))
                cells = [
                    Cell(row, col + i) if horizontal else Cell(row + i, col) for i in range(length)
                ]
                if not taken.intersection(cells):
                    taken.update(cells)
                    parts.append(f"{kind.value}: {_range(cells)}")
                    break
        return ", ".join(parts)

    def observe(self, view: PrivateView) -> None:
        public = view.public
        wrecked = {cell for wreck in public.wrecks for cell in wreck.cells}
        own = {cell for ship in view.ships for cell in ship.cells}
        for shot in public.shots:
            self.shot_at[shot.cell] = public.turn
            if shot.hit and shot.cell not in own:
                self.open_hits.add(shot.cell)
        self.open_hits -= wrecked

    def order(self, view: PrivateView) -> tuple[str, bool]:
        """(text, is_public) of this turn's order; a public one is sent with the tag."""
        rows, cols = view.public.rows, view.public.cols
        damage = {cell for ship in view.ships for cell in ship.damaged}
        fresh_damage = damage - self.known_damage
        self.known_damage = damage
        afloat = [ship for ship in view.ships if not ship.destroyed]
        if fresh_damage and afloat and self.rng.random() < 0.4:
            hit_ship = next((s for s in afloat if fresh_damage & set(s.cells)), None)
            move = self._move_away(hit_ship, rows, cols) if hit_ship else None
            if move:
                return move, False
        if afloat and self.rng.random() < 0.06:
            rotation = self._rotation(afloat, rows, cols)
            if rotation:
                return rotation, False
        return str(self._target(view, rows, cols)), True

    def _move_away(self, ship: OwnShipView, rows: int, cols: int) -> str | None:
        cells = list(ship.cells)
        if ship.kind is ShipKind.SUBMARINE:
            options = ["up", "down", "left", "right"]
        elif cells[0].row == cells[-1].row:
            options = ["left", "right"]
        else:
            options = ["up", "down"]
        self.rng.shuffle(options)
        for direction in options:
            most = 1 if ship.kind is ShipKind.SUBMARINE else len(cells)
            steps = self.rng.randint(1, most)
            d_row, d_col = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}[
                direction
            ]
            end = [c.shifted(d_row * steps, d_col * steps) for c in cells]
            if all(0 <= c.row < rows and 0 <= c.col < cols for c in end):
                return f"move {ship.kind.value} at {cells[0]} {steps} {direction}"
        return None

    def _rotation(self, ships: list[OwnShipView], rows: int, cols: int) -> str | None:
        for ship in ships:
            if ship.kind is ShipKind.SUBMARINE:
                continue
            cells = list(ship.cells)
            centre = cells[len(cells) // 2]
            half = len(cells) // 2
            horizontal = cells[0].row == cells[-1].row
            span = (
                [Cell(centre.row + i, centre.col) for i in range(-half, half + 1)]
                if horizontal
                else [Cell(centre.row, centre.col + i) for i in range(-half, half + 1)]
            )
            if all(0 <= c.row < rows and 0 <= c.col < cols for c in span):
                return f"rotate {ship.kind.value} at {centre}"
        return None

    def _target(self, view: PrivateView, rows: int, cols: int) -> Cell:
        own = {cell for ship in view.ships for cell in ship.cells}
        wrecked = {cell for wreck in view.public.wrecks for cell in wreck.cells}

        def fresh(cell: Cell) -> bool:
            return (
                0 <= cell.row < rows
                and 0 <= cell.col < cols
                and cell not in own
                and cell not in wrecked
            )

        # Ships move when hit, so around a hit only the last few turns' misses count.
        recent = {c for c, t in self.shot_at.items() if view.public.turn - t < FOLLOW_UP_MEMORY}

        # Follow up a hit: the cells next to it (re-shooting the hit cell is fine too:
        # a damaged ship that did not move is still there).
        for hit in sorted(self.open_hits, key=lambda c: (self.rng.random(), c)):
            around = [hit.shifted(dr, dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
            candidates = [c for c in around if fresh(c) and c not in recent]
            if candidates:
                return self.rng.choice(candidates)
            self.open_hits.discard(hit)
            if fresh(hit):
                return hit
        if self.rng.random() < 0.1:
            return Cell(self.rng.randrange(rows), self.rng.randrange(cols))  # a blind shot
        # Hunt: of a handful of open cells, the one nobody has shot at for longest.
        sample = [Cell(self.rng.randrange(rows), self.rng.randrange(cols)) for _ in range(40)]
        sample = [cell for cell in sample if fresh(cell)] or sample
        return min(sample, key=lambda cell: self.shot_at.get(cell, -1))


class BstRobot:
    """The simulated captains (``ROBOT``): one memory a player, made in setup."""

    demo_players = 12

    def __init__(self) -> None:
        self._captains: dict[PlayerId, SimulatedCaptain] = {}

    def orders(self, view: Any, player: PlayerId, rng: random.Random) -> list[Said]:
        assert isinstance(view, PrivateView)
        if view.public.phase is Phase.SETUP:
            # A new game, a new memory; its random source is the demo's next draw.
            captain = SimulatedCaptain(player, random.Random(rng.random()))
            self._captains[player] = captain
            if view.ships:
                return []  # placed already: the latest fleet would replace it
            return [Said(captain.placement(view.public.rows, view.public.cols), public=False)]
        captain = self._captains.setdefault(player, SimulatedCaptain(player, rng))
        captain.observe(view)
        if all(ship.destroyed for ship in view.ships):
            return []
        text, public = captain.order(view)
        return [Said(text, public=public)]


ROBOT = BstRobot()
