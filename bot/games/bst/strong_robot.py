"""bst's ``strong`` robot (:class:`StrongBstRobot`): the classic density hunt, and a fleet
kept where the others are least likely to fire.

It sees what a person sees (its :class:`~bot.games.bst.views.PrivateView`: its own ships,
each turn's public shots, the wrecks and who is alive) and remembers every turn of it:

* **Where the others' ships can be.** Every footprint a live ship of another captain could
  have (a carrier's 5 cells, a cruiser's 3, a submarine's 1, by what the wrecks say each
  captain has left) is weighed by how well it agrees with what was seen: a miss makes the
  ship unlikely to be on that cell, less so as turns pass (ships move, rules §4); a hit
  that sank nothing makes a ship likely there, less so each turn (a hit ship often moves
  away). A cell's density is the weight of the footprints over it; it fires at the densest.
* **Where it is safe.** A cell is in danger when others are likely to fire at it next:
  beside a recent hit (that is where a hunter follows up), and where nobody has fired for
  long (hunters try fresh water first). When a ship of its own was just hit, or sits in
  danger while a step would take it somewhere much safer, it moves (or rotates) that ship
  instead of firing; being the last afloat is what wins.
* **Its fleet**: the carrier and the submarine, one cell that is hard to find.

Pure: no I/O, randomness only from the source it is given.
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

MISS_KEEPS = 0.93
"""How much of a miss's word ("no ship here") is left a turn later."""
HIT_KEEPS = 0.55
"""How much of a hit's word ("a ship here") is left a turn later (hit ships move)."""
HIT_WEIGHT = 40.0
"""How much likelier a footprint over a fresh hit is than one over plain water."""
FOLLOW_UP_TURNS = 4
"""Hunters fire beside a hit for this many turns (as the easy robots do)."""
HUNT_SAMPLE = 40
"""How many cells a hunter compares when it looks for the one shot least lately."""
MOVE_WORTH = 0.05
"""A move is made when it spares the fleet at least this many expected shots."""
STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def _range(cells: list[Cell]) -> str:
    return f"{cells[0]}-{cells[-1]}" if len(cells) > 1 else str(cells[0])


NEVER = -(10**9)
"""The turn of a shot that never fell."""


@dataclass
class StrongCaptain:
    """One captain's memory, a cell by its index ``row * cols + col``: the turn it was last
    missed, last hit (on another's ship, not wrecked since) and last fired at."""

    rng: random.Random
    rows: int = 0
    cols: int = 0
    missed: list[int] = field(default_factory=list)
    hit: list[int] = field(default_factory=list)
    shot: list[int] = field(default_factory=list)

    def index(self, cell: Cell) -> int:
        return cell.row * self.cols + cell.col

    # ------------------------------------------------------------------ setup
    def placement(self, rows: int, cols: int) -> str:
        """A carrier and a submarine on an empty board, apart."""
        while True:
            horizontal = self.rng.random() < 0.5
            row = self.rng.randrange(rows - (0 if horizontal else 4))
            col = self.rng.randrange(cols - (4 if horizontal else 0))
            carrier = [Cell(row, col + i) if horizontal else Cell(row + i, col) for i in range(5)]
            sub = Cell(self.rng.randrange(rows), self.rng.randrange(cols))
            if all(abs(sub.row - c.row) + abs(sub.col - c.col) > 2 for c in carrier):
                return f"carrier: {_range(carrier)}, sub: {sub}"

    # ------------------------------------------------------------------ memory
    def observe(self, view: PrivateView) -> None:
        public = view.public
        if not self.shot:
            self.rows, self.cols = public.rows, public.cols
            size = public.rows * public.cols
            self.missed, self.hit, self.shot = [NEVER] * size, [NEVER] * size, [NEVER] * size
        own = {self.index(cell) for ship in view.ships for cell in ship.cells}
        seen = public.turn - 1  # the turn the shots were fired in
        for shot in public.shots:
            at = self.index(shot.cell)
            self.shot[at] = seen
            if not shot.hit:
                self.missed[at] = seen
            elif at not in own and self.hit[at] <= self.missed[at]:
                # The first hit of a run counts, not each hit again on the same damaged
                # cell: refreshed by every repeat, two hunters fired at a ship's two hit
                # cells by turns for ever and never at its third.
                self.hit[at] = seen
        for wreck in public.wrecks:
            for cell in wreck.cells:
                self.hit[self.index(cell)] = NEVER

    # ------------------------------------------------------------------ a turn
    def order(self, view: PrivateView) -> tuple[str, bool]:
        public = view.public
        danger = self.danger(view)
        afloat = [ship for ship in view.ships if not ship.destroyed]
        best: tuple[float, str] | None = None
        for ship in afloat:
            here = sum(danger.get(c, 0.0) for c in ship.cells)
            for text, cells in self.moves(ship, public.rows, public.cols, view):
                gain = here - sum(danger.get(c, 0.0) for c in cells)
                if best is None or gain > best[0]:
                    best = (gain, text)
        if best is not None and best[0] > self.move_threshold(public):
            return best[1], False
        return str(self.target(view)), True

    def move_threshold(self, public: Any) -> float:
        """How many fewer shots a move must expect on the fleet to be worth a shot not
        fired."""
        return MOVE_WORTH

    def danger(self, view: PrivateView) -> dict[Cell, float]:
        """About how many shots each cell should expect next turn from hunters: beside a
        recent hit (where a hunter follows up), and where no shot fell for longest (a
        hunter takes the cell shot least lately of a handful it draws)."""
        public = view.public
        rows, cols, turn = public.rows, public.cols, public.turn
        size = rows * cols
        hunters = max(len(public.alive) - 1, 0)
        recent = [
            Cell(i // cols, i % cols)
            for i, when in enumerate(self.hit)
            if turn - 1 - when < FOLLOW_UP_TURNS
        ]
        recent += [
            c
            for ship in view.ships
            for c in ship.damaged
            if turn - 1 - self.shot[self.index(c)] < FOLLOW_UP_TURNS
        ]
        searching = hunters * (0.3 if recent else 0.9)
        groups: dict[int, int] = {}
        for when in self.shot:
            groups[when] = groups.get(when, 0) + 1
        share: dict[int, float] = {}
        older = 0
        for when in sorted(groups):
            count = groups[when]
            before = (1 - older / size) ** HUNT_SAMPLE
            after = (1 - (older + count) / size) ** HUNT_SAMPLE
            share[when] = searching * (before - after) / count
            older += count
        danger = {Cell(i // cols, i % cols): share[when] for i, when in enumerate(self.shot)}
        if recent:
            following = hunters * 0.9 / (len(recent) * 3)
            for cell in recent:
                for d_row, d_col in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
                    near = cell.shifted(d_row, d_col)
                    if near in danger:
                        danger[near] += following
        return danger

    def moves(
        self, ship: OwnShipView, rows: int, cols: int, view: PrivateView
    ) -> list[tuple[str, tuple[Cell, ...]]]:
        """Every legal move and rotation of ``ship``, with the footprint it would end on
        (one that ends on a wreck or another ship of its own would only collide)."""
        blocked = {c for w in view.public.wrecks for c in w.cells} | {
            c for s in view.ships if s is not ship for c in s.cells
        }
        cells = list(ship.cells)
        name = ship.kind.value
        found: list[tuple[str, tuple[Cell, ...]]] = []

        def fits(footprint: list[Cell]) -> bool:
            return all(
                0 <= c.row < rows and 0 <= c.col < cols and c not in blocked for c in footprint
            )

        if ship.kind is ShipKind.SUBMARINE:
            directions, most = list(STEPS), 1
        elif cells[0].row == cells[-1].row:
            directions, most = ["left", "right"], len(cells)
        else:
            directions, most = ["up", "down"], len(cells)
        for direction in directions:
            d_row, d_col = STEPS[direction]
            for steps in range(1, most + 1):
                end = [c.shifted(d_row * steps, d_col * steps) for c in cells]
                path = [c.shifted(d_row * s, d_col * s) for s in range(1, steps + 1) for c in cells]
                if not fits(path):
                    break
                found.append((f"move {name} at {cells[0]} {steps} {direction}", tuple(end)))
        if ship.kind is not ShipKind.SUBMARINE:
            centre = cells[len(cells) // 2]
            half = len(cells) // 2
            horizontal = cells[0].row == cells[-1].row
            span = [
                Cell(centre.row + i, centre.col) if horizontal else Cell(centre.row, centre.col + i)
                for i in range(-half, half + 1)
            ]
            if fits(span):
                found.append((f"rotate {name} at {centre}", tuple(span)))
        return found

    def target(self, view: PrivateView) -> Cell:
        """The densest cell: where the others' footprints, weighed by what was seen, meet
        most."""
        public = view.public
        rows, cols, now = public.rows, public.cols, public.turn - 1
        size = rows * cols
        weight = [1.0] * size
        for i in range(size):
            hit, missed = self.hit[i], self.missed[i]
            if hit > missed:
                weight[i] = 1 + HIT_WEIGHT * HIT_KEEPS ** (now - hit)
            elif missed != NEVER:
                weight[i] = 1 - MISS_KEEPS ** (now - missed + 1)
        for ship in view.ships:
            for cell in ship.cells:
                weight[self.index(cell)] = 0.0
        for wreck in public.wrecks:
            for cell in wreck.cells:
                weight[self.index(cell)] = 0.0
        density = [0.0] * size
        for length, count in self.lengths(view).items():
            # horizontal footprints (a submarine's, once: it has no orientation)
            for row in range(rows):
                base = row * cols
                for col in range(cols - length + 1):
                    start = base + col
                    product = count
                    for i in range(start, start + length):
                        product *= weight[i]
                    if product:
                        for i in range(start, start + length):
                            density[i] += product
            if length == 1:
                continue
            for row in range(rows - length + 1):
                for col in range(cols):
                    start = row * cols + col
                    product = count
                    for i in range(start, start + length * cols, cols):
                        product *= weight[i]
                    if product:
                        for i in range(start, start + length * cols, cols):
                            density[i] += product
        # a cell hit lately and not missed since is (if its ship stayed) damaged already:
        # firing there again does nothing, so its neighbours are the shots worth having
        for i in range(size):
            if self.hit[i] > self.missed[i] and now - self.hit[i] < FOLLOW_UP_TURNS:
                density[i] = 0.0
        top = max(density)
        if top <= 0:
            return Cell(self.rng.randrange(rows), self.rng.randrange(cols))
        best = [i for i in range(size) if density[i] >= top * 0.999]
        chosen = self.rng.choice(best)
        return Cell(chosen // cols, chosen % cols)

    def lengths(self, view: PrivateView) -> dict[int, float]:
        """How many ships of each length the other live captains have, on average: a
        captain's wrecks say its loadout; else either loadout is as likely."""
        public = view.public
        counts = {5: 0.0, 3: 0.0, 1: 0.0}
        wrecks: dict[PlayerId, list[ShipKind]] = {}
        for wreck in public.wrecks:
            wrecks.setdefault(wreck.owner, []).append(wreck.kind)
        for captain in public.alive:
            if captain.id == view.viewer:
                continue
            sunk = wrecks.get(captain.id, [])
            if ShipKind.CARRIER in sunk:
                counts[1] += 1
            elif ShipKind.SUBMARINE in sunk:
                counts[5] += 1
            elif ShipKind.CRUISER in sunk:
                counts[3] += 1
            else:
                counts[5] += 0.5
                counts[1] += 0.5
                counts[3] += 1.0
        return {length: count for length, count in counts.items() if count}


class StrongBstRobot:
    """bst's ``strong`` robot: one :class:`StrongCaptain` memory a player, made in setup."""

    demo_players = 12

    def __init__(self) -> None:
        self._captains: dict[PlayerId, StrongCaptain] = {}

    def orders(self, view: Any, player: PlayerId, rng: random.Random) -> list[Said]:
        assert isinstance(view, PrivateView)
        if view.public.phase is Phase.SETUP:
            captain = StrongCaptain(random.Random(rng.random()))
            self._captains[player] = captain
            if view.ships:
                return []
            return [Said(captain.placement(view.public.rows, view.public.cols), public=False)]
        captain = self._captains.setdefault(player, StrongCaptain(random.Random(rng.random())))
        captain.observe(view)
        if all(ship.destroyed for ship in view.ships):
            return []
        text, public = captain.order(view)
        return [Said(text, public=public)]


STRONG_ROBOT = StrongBstRobot()
