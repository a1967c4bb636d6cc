"""Closing a turn of bst (rules §5): every standing order resolves at once.

Ships move together in lock-step (§5.1, ``movement.py``), then shots land (§5.2;
before the moves with ``shots=before_moves``, when a ship they destroy does not
move). Ships with every segment hit become wrecks, captains with no ship afloat
are eliminated, late joiners are placed at random, and when at most one captain is
afloat the game ends: a win, or a draw between those eliminated together (§5.3);
``max_turns`` ends it in a draw between those still alive.

The result depends only on the board and the orders: never on the order of the
mapping or on player ids (ties are broken by captain name, then id, then ship
index). Randomness (late joiners' fleets) comes only from the given ``random.Random``.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace

from bot.games.base import Event, IllegalOrderError, Notice, PlacementError, PlayerId, Resolution
from bot.games.bst.acceptance import ordered_ship
from bot.games.bst.cells import Cell, row_label
from bot.games.bst.events import finished
from bot.games.bst.fleet import Ship
from bot.games.bst.movement import WATER, Plan, resolve_movement
from bot.games.bst.options import ShotTiming
from bot.games.bst.orders import Move, Order, Rotate, Shoot
from bot.games.bst.placement import fleet_text, place_at_random
from bot.games.bst.state import BstState, ShotRecord
from bot.games.bst.views import CaptainStatus, Phase

FLEET = 2
"""Ships a fleet has (§2). A ship is numbered ``captain index * FLEET + ship index``:
one int that sorts, hashes and indexes as fast as the cells do."""

_ROTATION = Plan(None, 1)


def resolve_battle(
    state: BstState, orders: Mapping[PlayerId, Order], rng: random.Random
) -> Resolution[BstState]:
    """Close the turn in progress with the orders that stand (one per captain at most)."""
    if state.phase is not Phase.BATTLE:
        raise IllegalOrderError("there is no turn to resolve: the battle is not on")
    return _Battle(state, orders, rng).resolve()


class _Battle:
    """One turn's resolution (§5).

    Cost is proportional to the ships and orders involved, in flat ints: cells are
    numbered ``row * cols + col``, ships ``captain * FLEET + ship``, and one occupancy
    array (cell number → ship number, or ``WATER``) serves both movement and shots.
    The fleets are read from the state and copied only when a captain's ships change.
    Every ordering the record shows (by captain name, then id, then ship index) is a
    sort of ints by each captain's rank in that order, worked out once.
    """

    def __init__(
        self, state: BstState, orders: Mapping[PlayerId, Order], rng: random.Random
    ) -> None:
        self.state = state
        self.rng = rng
        self.orders = orders
        self.captains = list(state.captains)
        self.fleets: dict[int, list[Ship]] = {}  # copies of the fleets that change
        self.changed: set[int] = set()
        self.notices: list[Notice] = []
        self.collisions: tuple[tuple[PlayerId, tuple[Cell, ...]], ...] = ()
        self.destroyed: list[int] = []
        self.rows, self.cols = rows, cols = state.options.rows, state.options.cols
        self.labels = [row_label(row) for row in range(rows)]
        self.numbers = [str(col + 1) for col in range(cols)]
        occupancy = array("i", [WATER]) * (rows * cols)
        for ci, captain in enumerate(state.captains):
            number = ci * FLEET
            for ship in captain.ships:
                for cell in ship.cells:
                    occupancy[cell.row * cols + cell.col] = number
                number += 1
        self.occupancy = occupancy
        captains = self.captains
        self.by_rank = sorted(
            range(len(captains)), key=lambda i: (captains[i].name, captains[i].id)
        )
        self.rank = rank = [0] * len(captains)
        for position, ci in enumerate(self.by_rank):
            rank[ci] = position

    def in_ship_order(self, ships: Iterable[int]) -> list[int]:
        """Ship numbers sorted by their captain's name, then id, then ship index."""
        rank, by_rank = self.rank, self.by_rank
        places = sorted(rank[number // FLEET] * FLEET + number % FLEET for number in ships)
        return [by_rank[place // FLEET] * FLEET + place % FLEET for place in places]

    def ship(self, number: int) -> Ship:
        ci, si = divmod(number, FLEET)
        fleet = self.fleets.get(ci)
        if fleet is None:
            return self.captains[ci].ships[si]
        return fleet[si]

    def set_ship(self, number: int, ship: Ship) -> None:
        ci, si = divmod(number, FLEET)
        fleet = self.fleets.get(ci)
        if fleet is None:
            fleet = self.fleets[ci] = list(self.captains[ci].ships)
        fleet[si] = ship
        self.changed.add(ci)

    def text(self, cell: Cell) -> str:
        return self.labels[cell.row] + self.numbers[cell.col]

    def number_text(self, number: int) -> str:
        row, col = divmod(number, self.cols)
        return self.labels[row] + self.numbers[col]

    def range_text(self, cells: tuple[Cell, ...]) -> str:
        """``C1-C5`` for a run, ``A2`` for one cell (as ``orders.range_text``)."""
        if len(cells) == 1:
            return self.text(cells[0])
        return f"{self.text(cells[0])}-{self.text(cells[-1])}"

    def ship_event(self, kind: str, number: int) -> Event:
        ship = self.ship(number)
        labels, numbers = self.labels, self.numbers
        # A ship's cells are kept in board order: the record's sorted order needs no sort.
        return Event(
            kind,
            {
                "player": self.captains[number // FLEET].id,
                "ship": ship.kind.value,
                "cells": [labels[cell.row] + numbers[cell.col] for cell in ship.cells],
            },
        )

    def resolve(self) -> Resolution[BstState]:
        state = self.state
        captains, index, rank = self.captains, state.index, self.rank
        rows, cols = self.rows, self.cols
        area = rows * cols
        shots: list[int] = []  # rank of the shooter * area + cell number: sorts as §5.2 needs
        aimed: dict[int, Cell] = {}
        plans: dict[int, Plan] = {}
        for player, order in self.orders.items():
            ci = index.get(player)
            if ci is None or not captains[ci].in_battle:
                continue  # orders of players no longer alive are ignored
            if isinstance(order, Shoot):
                cell = order.cell
                if 0 <= cell.row < rows and 0 <= cell.col < cols:
                    shots.append(rank[ci] * area + cell.row * cols + cell.col)
                    aimed[ci] = cell
            elif isinstance(order, Move | Rotate):
                try:
                    ship_index = ordered_ship(state, captains[ci], order)
                except IllegalOrderError:
                    continue  # a stale order: validated on arrival, so this is only a guard
                if isinstance(order, Move):
                    plans[ci * FLEET + ship_index] = Plan(order.direction, order.steps)
                else:
                    plans[ci * FLEET + ship_index] = _ROTATION
        shots.sort()
        shot_events: list[Event] = []
        records: list[ShotRecord] = []
        before = state.options.shots is ShotTiming.BEFORE_MOVES
        if before:
            shot_events, records = self.land(shots, aimed)
            # A ship the shots destroyed is a wreck now: it does not move this turn.
            plans = {key: plan for key, plan in plans.items() if not self.ship(key).destroyed}
        events = self.move(plans)
        if not before:
            shot_events, records = self.land(shots, aimed)
        events.extend(shot_events)
        destroyed = self.in_ship_order(self.destroyed)
        events.extend(self.ship_event("destroyed", number) for number in destroyed)
        eliminated = sorted(
            {
                ci
                for ci in (number // FLEET for number in destroyed)
                if captains[ci].status is CaptainStatus.ALIVE
                and all(ship.destroyed for ship in self.fleets[ci])
            },
            key=rank.__getitem__,
        )
        for ci in eliminated:
            captains[ci] = replace(captains[ci], status=CaptainStatus.ELIMINATED)
            events.append(Event("eliminated", {"player": captains[ci].id}))
        self.place_late_joiners()
        for ci, fleet in self.fleets.items():
            captains[ci] = replace(captains[ci], ships=tuple(fleet))
        final = tuple(captains)
        alive = [c for c in final if c.status is CaptainStatus.ALIVE]
        phase, turn, draw = Phase.BATTLE, state.turn + 1, False
        winners: tuple[PlayerId, ...] = ()
        if len(alive) <= 1:
            phase, turn = Phase.FINISHED, state.turn
            if alive:
                winners = (alive[0].id,)
            else:
                # The last ships went down together: a draw between those eliminated now.
                winners, draw = tuple(final[ci].id for ci in sorted(eliminated)), True
        elif state.options.max_turns is not None and state.turn >= state.options.max_turns:
            phase, turn = Phase.FINISHED, state.turn
            winners, draw = tuple(c.id for c in alive), True
        if phase is Phase.FINISHED:
            events.append(finished(winners, draw))
        new_state = replace(
            state,
            phase=phase,
            turn=turn,
            captains=final,
            last_shots=tuple(records),
            last_collisions=self.collisions,
            winners=winners,
            draw=draw,
        )
        return Resolution(
            new_state,
            tuple(events),
            frozenset(final[ci].id for ci in self.changed),
            notices=tuple(self.notices),
        )

    def move(self, plans: dict[int, Plan]) -> list[Event]:
        if not plans:
            return []
        cols = self.cols
        footprints = {
            key: tuple(cell.row * cols + cell.col for cell in self.ship(key).cells) for key in plans
        }
        result = resolve_movement(self.occupancy, footprints, plans, self.rows, cols)
        for key, numbers in result.footprints.items():
            # Cells stay in board order and segment i stays segment i, so damage moves along.
            ship = self.ship(key)
            cells = tuple(Cell(number // cols, number % cols) for number in numbers)
            self.set_ship(key, Ship(ship.kind, cells, ship.damaged))
        outcomes = result.outcomes
        events = [self.ship_event(outcomes[key].value, key) for key in self.in_ship_order(outcomes)]
        per_owner: dict[int, list[tuple[int, frozenset[int]]]] = {}
        for key, hit_numbers in result.collisions.items():
            per_owner.setdefault(key // FLEET, []).append((key, hit_numbers))
        self.changed.update(per_owner)
        collisions: list[tuple[PlayerId, tuple[Cell, ...]]] = []
        heading = f"Turn {self.state.turn}: "
        number_text = self.number_text
        for owner in sorted(per_owner, key=self.rank.__getitem__):
            involved = per_owner[owner]
            if len(involved) == 1:
                own_numbers = sorted(involved[0][1])
            else:
                involved.sort()  # by ship index: the owner is the same
                own_numbers = sorted(set().union(*(group for _, group in involved)))
            own_cells = tuple(Cell(number // cols, number % cols) for number in own_numbers)
            collisions.append((self.captains[owner].id, own_cells))
            lines = []
            for key, group in involved:
                ship = self.ship(key)
                hit = own_numbers if len(involved) == 1 else sorted(group)
                where = ", ".join(map(number_text, hit))
                if key in plans:
                    lines.append(
                        f"your {ship.kind.value} collided at {where} and stopped at "
                        f"{self.range_text(ship.cells)}"
                    )
                else:
                    lines.append(f"a ship collided with your {ship.kind.value} at {where}")
            self.notices.append(
                Notice(
                    heading + "; ".join(lines) + ". Collisions do no damage.",
                    to=self.captains[owner].id,
                )
            )
        self.collisions = tuple(collisions)
        return events

    def land(
        self, shots: list[int], aimed: dict[int, Cell]
    ) -> tuple[list[Event], list[ShotRecord]]:
        """Land the shots, ``shots`` as ``resolve`` sorted them (by shooter, then cell)."""
        events: list[Event] = []
        records: list[ShotRecord] = []
        # What each owner hears of the hits on their ships: per (ship, cell) who hit it,
        # in the order the shots land; and where each ship sunk this turn took its last hit.
        told: dict[int, dict[tuple[int, str], list[int]]] = {}
        sank_at: dict[int, str] = {}
        area, occupancy, by_rank, captains = (
            self.rows * self.cols,
            self.occupancy,
            self.by_rank,
            self.captains,
        )
        for shot in shots:
            place, number = divmod(shot, area)
            shooter = by_rank[place]
            cell = aimed[shooter]
            key = occupancy[number]
            player = captains[shooter].id
            where = self.text(cell)
            if key != WATER:
                owner = key // FLEET
                ship = self.ship(key)
                first = ship.cells[0]
                # Cells run in board order along one row or one column.
                segment = cell.row - first.row + cell.col - first.col
                # Shots land at once: a ship sunk by an earlier shot of this turn still
                # hears of the later ones; a wreck of an earlier turn hears of none.
                if not ship.destroyed or key in sank_at:
                    told.setdefault(owner, {}).setdefault((key, where), []).append(shooter)
                if segment not in ship.damaged:
                    hit = Ship(ship.kind, ship.cells, ship.damaged | {segment})
                    self.set_ship(key, hit)
                    if hit.destroyed and not ship.destroyed:
                        self.destroyed.append(key)
                        sank_at[key] = where
                self.changed.add(owner)
                events.append(Event("shot", {"player": player, "cell": where, "result": "hit"}))
                records.append(ShotRecord(player, cell, True))
            else:
                events.append(Event("shot", {"player": player, "cell": where, "result": "miss"}))
                records.append(ShotRecord(player, cell, False))
        for owner in sorted(told, key=self.rank.__getitem__):
            per_ship: dict[int, list[str]] = {}
            for (key, where), shooters in told[owner].items():
                sunk = sank_at.get(key) == where
                per_ship.setdefault(key, []).append(self.hit_text(owner, where, shooters, sunk))
            said = [
                f"your {self.ship(key).kind.value} was {_and(parts)}"
                for key, parts in per_ship.items()
            ]
            text = f"Turn {self.state.turn}: " + "; ".join(said) + "."
            if all(ship.destroyed for ship in self.fleets.get(owner, self.captains[owner].ships)):
                text += " Your whole fleet is sunk: you are out of the battle."
            self.notices.append(Notice(text, to=self.captains[owner].id))
        return events, records

    def hit_text(self, owner: int, where: str, shooters: list[int], sunk: bool) -> str:
        """``hit at B4 by bob, carol and you``, or ``sunk at B4 by erin``."""
        names = [
            "you" if shooter == owner else self.captains[shooter].name
            for shooter in dict.fromkeys(shooters)
        ]
        by = "your own shot" if names == ["you"] else _and(names)
        what = "sunk" if sunk else "hit"
        return f"{what} at {where} by {by}"

    def place_late_joiners(self) -> None:
        late = [
            ci
            for ci, c in enumerate(self.captains)
            if c.awaiting and c.status is CaptainStatus.ALIVE
        ]
        if not late:
            return
        taken = _Taken(self.occupancy, self.cols)
        for ci in late:
            try:
                ships = place_at_random(self.state.options, taken, self.rng)
            except PlacementError:
                continue  # no room this turn: the newcomer waits for the next close
            for si, ship in enumerate(ships):
                taken.cover(ship.cells, ci * FLEET + si)
            self.fleets[ci] = list(ships)
            self.captains[ci] = replace(self.captains[ci], awaiting=False, placed_at_random=True)
            self.changed.add(ci)
            self.notices.append(
                Notice(
                    f"You join the battle from turn {self.state.turn + 1}, placed at random: "
                    f"{fleet_text(ships)}.",
                    to=self.captains[ci].id,
                )
            )


def _and(words: list[str]) -> str:
    """``bob``, ``bob and carol``, ``bob, carol and dave``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


class _Taken(Mapping[Cell, object]):
    """The occupancy array as the cells placement must avoid (``place_at_random`` asks
    only whether a cell is taken and how many are), without a dict of every cell."""

    def __init__(self, occupancy: array[int], cols: int) -> None:
        self.occupancy = occupancy
        self.cols = cols
        self.count = len(occupancy) - occupancy.count(WATER)

    def cover(self, cells: tuple[Cell, ...], number: int) -> None:
        for cell in cells:
            self.occupancy[cell.row * self.cols + cell.col] = number
        self.count += len(cells)

    def __contains__(self, cell: object) -> bool:
        if not isinstance(cell, Cell) or not 0 <= cell.col < self.cols:
            return False
        number = cell.row * self.cols + cell.col
        return 0 <= number < len(self.occupancy) and self.occupancy[number] != WATER

    def __getitem__(self, cell: Cell) -> object:
        if cell not in self:
            raise KeyError(cell)
        return True

    def __iter__(self) -> Iterator[Cell]:
        cols = self.cols
        return (
            Cell(number // cols, number % cols)
            for number, ship in enumerate(self.occupancy)
            if ship != WATER
        )

    def __len__(self) -> int:
        return self.count
