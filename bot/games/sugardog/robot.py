"""A simulated Sugar Dog captain for ``bst demo`` (``ROBOT``; :class:`bot.games.base.Robot`).

It plays from its own view only — its submarine, mines and torpedoes, and what was
announced to everyone — and always legally. In setup it sends a random starting cell.
On its turn, in this order of concern:

1. **Danger**: a torpedo heard running toward its cell (two contacts of the same
   torpedo in one turn give its heading) — it slips aside silently, or cruises away
   when a single step is not enough.
2. **A shot**: an enemy submarine heard or pinged within the last round, in its row or
   column — it fires a torpedo that way.
3. **Hunting**: a fresh enemy position that is not in line — it steps silently to
   share its row or column, now and then laying a mine where it leaves.
4. **Listening**: nothing fresh to go on — it pings now and then (which also tells
   everyone where it is), else runs silent a step, away from known mines and
   torpedo paths.

None of this reads another captain's hidden facts: everything comes from
:class:`~bot.games.sugardog.views.PrivateView`.
"""

from __future__ import annotations

import random
from typing import Any

from bot.games.base import PlayerId, Said
from bot.games.grid import Direction
from bot.games.sugardog.board import Cell
from bot.games.sugardog.state import Phase, Status, UnitKind
from bot.games.sugardog.views import ContactView, Heard, PrivateView, last_heard

PING_CHANCE = 0.35
"""How often a captain with nothing fresh to go on pings rather than creeps."""
MINE_CHANCE = 0.25
"""How often a captain closing in lays a mine as it goes."""
TORPEDO_REACH = 8
"""Targets further than this in a straight line are not worth a torpedo."""


def _fresh(heard: Heard, view: PrivateView) -> bool:
    """Heard within the last round of turns."""
    public = view.public
    return public.turn - heard.turn <= max(1, len(public.order))


def _line(origin: Cell, target: Cell) -> Direction | None:
    """The direction from ``origin`` straight to ``target`` (None: not in line, or same cell)."""
    if origin == target:
        return None
    if origin.column == target.column:
        return Direction.UP if target.row > origin.row else Direction.DOWN
    if origin.row == target.row:
        return Direction.RIGHT if target.column > origin.column else Direction.LEFT
    return None


def _torpedo_paths(view: PrivateView) -> set[Cell]:
    """Cells enemy torpedoes heard last turn will run through next (their heading comes
    from two contacts of the same torpedo in one turn), and their own cells."""
    danger: set[Cell] = set()
    for turn in view.public.turns[-max(1, len(view.public.order)) :]:
        runs: dict[tuple[PlayerId, int], list[Cell]] = {}
        for fact in turn.facts:
            unit = fact.unit if isinstance(fact, ContactView) else None
            if unit is None or unit.kind is not UnitKind.TORPEDO or unit.owner == view.viewer:
                continue
            assert isinstance(fact, ContactView) and unit.torpedo is not None
            runs.setdefault((unit.owner, unit.torpedo), []).append(fact.cell)
        for cells in runs.values():
            danger.add(cells[-1])
            if len(cells) >= 2:
                step = (cells[-1].column - cells[-2].column, cells[-1].row - cells[-2].row)
                ahead = cells[-1]
                for _ in range(4):
                    ahead = Cell(ahead.column + step[0], ahead.row + step[1])
                    danger.add(ahead)
    return danger


class SugarDogRobot:
    """See the module docstring."""

    demo_players = 2

    def orders(self, view: Any, player: PlayerId, rng: random.Random) -> list[Said]:
        if not isinstance(view, PrivateView) or view.viewer != player:
            return []
        public = view.public
        if public.phase is Phase.SETUP:
            if view.side.start_cell is not None:
                return []
            size = public.size
            return [Said(str(Cell(rng.randrange(size), rng.randrange(size))), public=False)]
        if public.phase is not Phase.BATTLE or public.current != player:
            return []
        if view.side.status is not Status.ALIVE or view.side.cell is None:
            return []
        return [Said(self.choose(view, rng), public=False)]

    def choose(self, view: PrivateView, rng: random.Random) -> str:
        side = view.side
        here = side.cell
        assert here is not None
        size = view.public.size
        danger = _torpedo_paths(view)
        mines = {h.cell for h in last_heard(view.public) if h.unit.kind is UnitKind.MINE}
        avoid = danger | mines | set(side.mines)

        def safe_steps() -> list[Direction]:
            return [
                d for d in Direction if here.step(d).on_board(size) and here.step(d) not in avoid
            ]

        if here in danger:
            steps = safe_steps()
            if steps:
                return f"silent {rng.choice(steps).value}"
            cruises = [
                (a, b)
                for a in Direction
                for b in Direction
                if here.step(a).on_board(size)
                and here.step(a).step(b).on_board(size)
                and here.step(a).step(b) not in avoid
                and here.step(a).step(b) != here
            ]
            if cruises:
                first, second = rng.choice(cruises)
                return f"cruise {first.value} {second.value}"
        enemies = [
            h
            for h in last_heard(view.public)
            if h.unit.kind is UnitKind.SUBMARINE and h.unit.owner != view.viewer and _fresh(h, view)
        ]
        enemies.sort(key=lambda h: (-h.turn, here.distance(h.cell), h.cell))
        for enemy in enemies:
            direction = _line(here, enemy.cell)
            if direction is not None and here.distance(enemy.cell) <= TORPEDO_REACH:
                return f"torpedo {direction.value}"
        if enemies:
            target = enemies[0].cell
            closer = [
                d for d in safe_steps() if _aligns(here.step(d), target) or _nearer(here, d, target)
            ]
            if closer:
                if side.mines_left and here not in side.mines and rng.random() < MINE_CHANCE:
                    return "mine"
                return f"silent {rng.choice(closer).value}"
        if rng.random() < PING_CHANCE:
            return "ping"
        steps = safe_steps()
        if steps and rng.random() < 0.8:
            return f"silent {rng.choice(steps).value}"
        return "silent"


def _aligns(cell: Cell, target: Cell) -> bool:
    return cell != target and (cell.column == target.column or cell.row == target.row)


def _nearer(here: Cell, direction: Direction, target: Cell) -> bool:
    return here.step(direction).distance(target) < here.distance(target)


ROBOT = SugarDogRobot()
