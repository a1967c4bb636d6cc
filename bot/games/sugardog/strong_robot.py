"""Sugar Dog's ``strong`` robot (:class:`StrongSugarDogRobot`): it keeps, for every other
captain, the set of cells their submarine can be in, and fires when a torpedo is likely
to find it.

Everything comes from its own :class:`~bot.games.sugardog.views.PrivateView`, whose public
part holds every turn as everyone saw it (``shared/rules/sugardog.md`` §2-§4):

* **Where each submarine can be.** At first anywhere. A contact of a cruising submarine
  or a ping puts it on one cell; a torpedo's first two contacts point back at its launcher;
  a silent turn lets it stay or step once (the set grows by a step); a torpedo that
  runs through a cell without an impact says no submarine was there.
* **Where it is in danger.** Torpedoes heard running (and its own) keep their line; and a
  captain who heard where it was lately fires along the line that joins them, two cells
  at once: a cell on such a line next to a possible enemy is a risk.
* **What it does**, by the best of: a torpedo, worth the chance it strikes at once; a
  silent step (or staying), worth the chance of a strike from there next turn, less the
  risk; a ping, worth what it tells when the enemy could be anywhere, less the risk of
  being heard next to an enemy in line.

Pure: no I/O; the randomness is the source it is given (ties between equal choices).
"""

from __future__ import annotations

import random

from bot.games.base import PlayerId
from bot.games.grid import Direction
from bot.games.sugardog.board import Cell
from bot.games.sugardog.robot import SugarDogRobot, _fresh, _torpedo_paths
from bot.games.sugardog.state import Status, UnitKind
from bot.games.sugardog.views import (
    ContactView,
    EliminatedView,
    ImpactView,
    LeftView,
    PingView,
    PrivateView,
    last_heard,
)

REACH = 2
"""A torpedo runs two cells at once when fired: what it meets there, it sinks now."""
FIRE_BONUS = 0.1
"""What a torpedo is worth beyond its chance of striking at once: it runs on, and the
chance of a better shot later is no strike now."""
NEXT_TURN = 0.7
"""What a strike's chance from a cell next turn is worth now (the enemy moves first)."""
PING_WORTH = 0.25
"""What a ping is worth when the enemy could be anywhere (less, the more is known)."""
HEARD_RANGE = 8
"""A captain fires at a heard submarine in line up to this far (as the easy robot does)."""


def _cells(size: int) -> set[Cell]:
    return {Cell(column, row) for column in range(size) for row in range(size)}


def _grow(cells: set[Cell], size: int) -> set[Cell]:
    """Where a submarine in ``cells`` can be after a silent turn: stayed, or one step."""
    grown = set(cells)
    for cell in cells:
        for direction in Direction:
            step = cell.step(direction)
            if step.on_board(size):
                grown.add(step)
    return grown


def _line(origin: Cell, direction: Direction, length: int) -> list[Cell]:
    cells, cell = [], origin
    for _ in range(length):
        cell = cell.step(direction)
        cells.append(cell)
    return cells


def _towards(origin: Cell, target: Cell) -> Direction | None:
    if origin == target:
        return None
    if origin.column == target.column:
        return Direction.UP if target.row > origin.row else Direction.DOWN
    if origin.row == target.row:
        return Direction.RIGHT if target.column > origin.column else Direction.LEFT
    return None


def whereabouts(view: PrivateView) -> dict[PlayerId, set[Cell]]:
    """Every other afloat captain's possible cells, from the public turns alone."""
    public = view.public
    size = public.size
    board = _cells(size)
    possible: dict[PlayerId, set[Cell]] = {
        c.id: set(board)
        for c in public.captains
        if c.id != view.viewer and c.status is Status.ALIVE
    }
    heard_torpedoes: set[tuple[PlayerId, int | None]] = set()
    for turn in public.turns:
        impacts = {fact.cell for fact in turn.facts if isinstance(fact, ImpactView)}
        launched: dict[tuple[PlayerId, int | None], list[Cell]] = {}
        for fact in turn.facts:
            if isinstance(fact, ContactView):
                unit = fact.unit
                if unit.kind is UnitKind.SUBMARINE:
                    if unit.owner in possible:
                        possible[unit.owner] = {fact.cell}
                    continue
                if unit.kind is not UnitKind.TORPEDO:
                    continue
                key = (unit.owner, unit.torpedo)
                if key not in heard_torpedoes and unit.owner == turn.player:
                    launched.setdefault(key, []).append(fact.cell)
                if fact.cell not in impacts:
                    # a torpedo meets whatever is in the cell it enters: nothing was there
                    for cells in possible.values():
                        if len(cells) > 1:
                            cells.discard(fact.cell)
            elif isinstance(fact, PingView):
                if fact.player in possible:
                    possible[fact.player] = {fact.cell}
                for sighting in fact.report:
                    unit = sighting.unit
                    if unit.kind is UnitKind.SUBMARINE and unit.owner in possible:
                        possible[unit.owner] = {sighting.cell}
            elif isinstance(fact, ImpactView):
                for unit in fact.destroyed:
                    if unit.kind is UnitKind.SUBMARINE:
                        possible.pop(unit.owner, None)
            elif isinstance(fact, EliminatedView | LeftView):
                possible.pop(fact.player, None)
        for key, run in launched.items():
            owner = key[0]
            if owner in possible:
                first = run[0]
                if len(run) >= 2:
                    back = Cell(2 * first.column - run[1].column, 2 * first.row - run[1].row)
                    possible[owner] = {back}
                else:
                    near = {first.step(d) for d in Direction} & possible[owner]
                    possible[owner] = near or possible[owner]
        heard_torpedoes |= {
            (fact.unit.owner, fact.unit.torpedo)
            for fact in turn.facts
            if isinstance(fact, ContactView) and fact.unit.kind is UnitKind.TORPEDO
        }
        mover = turn.player
        if mover in possible and turn.action == "silent" and not turn.timeout:
            possible[mover] = _grow(possible[mover], size)
        for owner, cells in possible.items():
            if not cells:
                possible[owner] = set(board)  # what was seen cannot be: start afresh
    return possible


class StrongSugarDogRobot(SugarDogRobot):
    """Sugar Dog's ``strong`` robot; see the module docstring. It remembers nothing:
    the public turns in its view hold all it needs. It sets out as the easy one does and
    chooses its moves its own way."""

    def choose(self, view: PrivateView, rng: random.Random) -> str:
        side = view.side
        here = side.cell
        assert here is not None
        size = view.public.size
        possible = whereabouts(view)
        if not possible:
            return "silent"
        danger = _torpedo_paths(view)
        for torpedo in side.torpedoes:
            danger.update(_line(torpedo.cell, torpedo.direction, REACH))
        heard = self.heard_at(view)

        def strike(origin: Cell, where: dict[PlayerId, set[Cell]]) -> float:
            """The expected submarines a torpedo fired from ``origin`` sinks at once, in
            its best direction."""
            best = 0.0
            for direction in Direction:
                line = set(_line(origin, direction, REACH))
                if not origin.step(direction).on_board(size):
                    continue
                chance = sum(len(cells & line) / len(cells) for cells in where.values())
                best = max(best, chance)
            return best

        def risk(cell: Cell, heard: Cell | None) -> float:
            """How likely a captain who heard us at ``heard`` sinks us at ``cell`` at once."""
            if heard is None:
                return 0.0
            total = 0.0
            for cells in possible.values():
                count = 0
                for enemy in cells:
                    direction = _towards(enemy, heard)
                    if direction is None or enemy.distance(heard) > HEARD_RANGE:
                        continue
                    if cell in _line(enemy, direction, REACH):
                        count += 1
                total += count / len(cells)
            return total

        choices: list[tuple[float, float, str]] = []
        for direction in Direction:
            if not here.step(direction).on_board(size):
                continue
            line = set(_line(here, direction, REACH))
            chance = sum(len(cells & line) / len(cells) for cells in possible.values())
            if chance > 0:
                # fired, it tells where we are: a miss may be answered along the same line
                worth = chance + FIRE_BONUS - (1 - chance) * risk(here, here)
                choices.append((worth, rng.random(), f"torpedo {direction.value}"))
        grown = {owner: _grow(cells, size) for owner, cells in possible.items()}
        for direction in (None, *Direction):
            cell = here if direction is None else here.step(direction)
            if not cell.on_board(size) or cell in danger:
                continue
            worth = NEXT_TURN * strike(cell, grown) - risk(cell, heard)
            text = "silent" if direction is None else f"silent {direction.value}"
            choices.append((worth, rng.random(), text))
        known = sum(1 / len(cells) for cells in possible.values()) / len(possible)
        if here not in danger:
            ping = PING_WORTH * (1 - known) - risk(here, here) - 0.5 * self.in_line(here, possible)
            choices.append((ping, rng.random(), "ping"))
        if not choices:
            return "silent"
        return max(choices)[2]

    def heard_at(self, view: PrivateView) -> Cell | None:
        """Where the others last heard our submarine, if it is fresh enough for them to
        fire at."""
        for heard in last_heard(view.public):
            unit = heard.unit
            if unit.kind is UnitKind.SUBMARINE and unit.owner == view.viewer:
                return heard.cell if _fresh(heard, view) else None
        return None

    @staticmethod
    def in_line(here: Cell, possible: dict[PlayerId, set[Cell]]) -> float:
        """How likely an enemy is in line with ``here`` (it would fire once it hears us)."""
        total = 0.0
        for cells in possible.values():
            lined = [
                c
                for c in cells
                if _towards(c, here) is not None and c.distance(here) <= HEARD_RANGE
            ]
            total += len(lined) / len(cells)
        return total


STRONG_ROBOT = StrongSugarDogRobot()
