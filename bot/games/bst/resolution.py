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
from collections.abc import Mapping
from dataclasses import replace

from bot.games.base import Event, IllegalOrderError, Notice, PlacementError, PlayerId, Resolution
from bot.games.bst.acceptance import ordered_ship
from bot.games.bst.cells import Cell, row_label
from bot.games.bst.events import finished
from bot.games.bst.fleet import Ship
from bot.games.bst.movement import Plan, resolve_movement
from bot.games.bst.options import ShotTiming
from bot.games.bst.orders import Move, Order, Rotate, Shoot, range_text
from bot.games.bst.placement import fleet_text, place_at_random
from bot.games.bst.state import BstState, ShotRecord
from bot.games.bst.views import CaptainStatus, Phase

ShipKey = tuple[int, int]
"""(captain index in join order, ship index in the captain's fleet)."""


def resolve_battle(
    state: BstState, orders: Mapping[PlayerId, Order], rng: random.Random
) -> Resolution[BstState]:
    """Close the turn in progress with the orders that stand (one per captain at most)."""
    if state.phase is not Phase.BATTLE:
        raise IllegalOrderError("there is no turn to resolve: the battle is not on")
    return _Battle(state, orders, rng).resolve()


class _Battle:
    """One turn's resolution (§5).

    Cost is proportional to the ships and orders involved: the fleets are read from
    the state and copied only when a captain's ships change, and one occupancy map
    (cell number → ship) serves both movement and shots.
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
        self.destroyed: list[ShipKey] = []
        self.cols = cols = state.options.cols
        self.labels = [row_label(row) for row in range(state.options.rows)]
        occupancy: dict[int, ShipKey] = {}
        for ci, captain in enumerate(state.captains):
            for si, ship in enumerate(captain.ships):
                for cell in ship.cells:
                    occupancy[cell.row * cols + cell.col] = (ci, si)
        self.occupancy = occupancy

    def sort_key(self, index: int) -> tuple[str, str]:
        captain = self.captains[index]
        return (captain.name, captain.id)

    def ship_key(self, key: ShipKey) -> tuple[str, str, int]:
        captain = self.captains[key[0]]
        return (captain.name, captain.id, key[1])

    def ship(self, key: ShipKey) -> Ship:
        fleet = self.fleets.get(key[0])
        if fleet is None:
            return self.captains[key[0]].ships[key[1]]
        return fleet[key[1]]

    def set_ship(self, key: ShipKey, ship: Ship) -> None:
        fleet = self.fleets.get(key[0])
        if fleet is None:
            fleet = self.fleets[key[0]] = list(self.captains[key[0]].ships)
        fleet[key[1]] = ship
        self.changed.add(key[0])

    def text(self, cell: Cell) -> str:
        return f"{self.labels[cell.row]}{cell.col + 1}"

    def ship_event(self, kind: str, key: ShipKey) -> Event:
        ship = self.ship(key)
        # A ship's cells are kept in board order: the record's sorted order needs no sort.
        return Event(
            kind,
            {
                "player": self.captains[key[0]].id,
                "ship": ship.kind.value,
                "cells": [self.text(cell) for cell in ship.cells],
            },
        )

    def resolve(self) -> Resolution[BstState]:
        state = self.state
        shots: list[tuple[int, Cell]] = []
        plans: dict[ShipKey, Plan] = {}
        for player, order in self.orders.items():
            index = state.index.get(player)
            if index is None or not self.captains[index].in_battle:
                continue  # orders of players no longer alive are ignored
            if isinstance(order, Shoot):
                if state.on_board(order.cell):
                    shots.append((index, order.cell))
            elif isinstance(order, Move | Rotate):
                try:
                    ship_index = ordered_ship(state, self.captains[index], order)
                except IllegalOrderError:
                    continue  # a stale order: validated on arrival, so this is only a guard
                if isinstance(order, Move):
                    plans[(index, ship_index)] = Plan(order.direction, order.steps)
                else:
                    plans[(index, ship_index)] = Plan(None, 1)
        shots.sort(key=lambda shot: (*self.sort_key(shot[0]), shot[1]))
        shot_events: list[Event] = []
        records: list[ShotRecord] = []
        before = state.options.shots is ShotTiming.BEFORE_MOVES
        if before:
            shot_events, records = self.land(shots)
            # A ship the shots destroyed is a wreck now: it does not move this turn.
            plans = {key: plan for key, plan in plans.items() if not self.ship(key).destroyed}
        events = self.move(plans)
        if not before:
            shot_events, records = self.land(shots)
        events.extend(shot_events)
        destroyed = sorted(self.destroyed, key=self.ship_key)
        events.extend(self.ship_event("destroyed", key) for key in destroyed)
        eliminated = sorted(
            {
                ci
                for ci, _ in destroyed
                if self.captains[ci].status is CaptainStatus.ALIVE
                and all(ship.destroyed for ship in self.fleets[ci])
            },
            key=self.sort_key,
        )
        for ci in eliminated:
            self.captains[ci] = replace(self.captains[ci], status=CaptainStatus.ELIMINATED)
            events.append(Event("eliminated", {"player": self.captains[ci].id}))
        self.place_late_joiners()
        for ci, fleet in self.fleets.items():
            self.captains[ci] = replace(self.captains[ci], ships=tuple(fleet))
        captains = tuple(self.captains)
        alive = [c for c in captains if c.status is CaptainStatus.ALIVE]
        phase, turn, draw = Phase.BATTLE, state.turn + 1, False
        winners: tuple[PlayerId, ...] = ()
        if len(alive) <= 1:
            phase, turn = Phase.FINISHED, state.turn
            if alive:
                winners = (alive[0].id,)
            else:
                # The last ships went down together: a draw between those eliminated now.
                winners, draw = tuple(captains[ci].id for ci in sorted(eliminated)), True
        elif state.options.max_turns is not None and state.turn >= state.options.max_turns:
            phase, turn = Phase.FINISHED, state.turn
            winners, draw = tuple(c.id for c in alive), True
        if phase is Phase.FINISHED:
            events.append(finished(winners, draw))
        new_state = replace(
            state,
            phase=phase,
            turn=turn,
            captains=captains,
            last_shots=tuple(records),
            last_collisions=self.collisions,
            winners=winners,
            draw=draw,
        )
        return Resolution(
            new_state,
            tuple(events),
            frozenset(captains[ci].id for ci in self.changed),
            notices=tuple(self.notices),
        )

    def move(self, plans: dict[ShipKey, Plan]) -> list[Event]:
        if not plans:
            return []
        cols = self.cols
        footprints = {
            key: tuple(cell.row * cols + cell.col for cell in self.ship(key).cells) for key in plans
        }
        result = resolve_movement(self.occupancy, footprints, plans, self.state.options.rows, cols)
        for key, numbers in result.footprints.items():
            # Cells stay in board order and segment i stays segment i, so damage moves along.
            ship = self.ship(key)
            cells = tuple(Cell(*divmod(number, cols)) for number in numbers)
            self.set_ship(key, Ship(ship.kind, cells, ship.damaged))
        events = [
            self.ship_event(result.outcomes[key].value, key)
            for key in sorted(result.outcomes, key=self.ship_key)
        ]
        per_owner: dict[int, list[tuple[ShipKey, list[Cell]]]] = {}
        for key, hit_numbers in result.collisions.items():
            per_owner.setdefault(key[0], []).append(
                (key, [Cell(*divmod(number, cols)) for number in sorted(hit_numbers)])
            )
            self.changed.add(key[0])
        collisions: list[tuple[PlayerId, tuple[Cell, ...]]] = []
        for owner in sorted(per_owner, key=self.sort_key):
            involved = sorted(per_owner[owner], key=lambda item: item[0][1])
            own_cells = tuple(sorted({cell for _, group in involved for cell in group}))
            collisions.append((self.captains[owner].id, own_cells))
            lines = []
            for key, group in involved:
                ship = self.ship(key)
                where = ", ".join(map(self.text, group))
                if key in plans:
                    lines.append(
                        f"your {ship.kind.value} collided at {where} and stopped at "
                        f"{range_text(ship.cells)}"
                    )
                else:
                    lines.append(f"a ship collided with your {ship.kind.value} at {where}")
            self.notices.append(
                Notice(
                    f"Turn {self.state.turn}: " + "; ".join(lines) + ". Collisions do no damage.",
                    to=self.captains[owner].id,
                )
            )
        self.collisions = tuple(collisions)
        return events

    def land(self, shots: list[tuple[int, Cell]]) -> tuple[list[Event], list[ShotRecord]]:
        events: list[Event] = []
        records: list[ShotRecord] = []
        told: dict[int, list[str]] = {}  # what each owner hears of the hits on their ships
        for shooter, cell in shots:
            key = self.occupancy.get(cell.row * self.cols + cell.col)
            if key is not None:
                ship = self.ship(key)
                segment = ship.cells.index(cell)
                if not ship.destroyed:
                    by = (
                        "your own shot"
                        if shooter == key[0]
                        else f"{self.captains[shooter].name}'s shot"
                    )
                    told.setdefault(key[0], []).append(
                        f"your {ship.kind.value} was hit at {self.text(cell)} ({by})"
                    )
                if segment not in ship.damaged:
                    hit = Ship(ship.kind, ship.cells, ship.damaged | {segment})
                    self.set_ship(key, hit)
                    if hit.destroyed and not ship.destroyed:
                        self.destroyed.append(key)
                self.changed.add(key[0])
            player = self.captains[shooter].id
            result = "hit" if key is not None else "miss"
            events.append(
                Event("shot", {"player": player, "cell": self.text(cell), "result": result})
            )
            records.append(ShotRecord(player, cell, key is not None))
        for owner in sorted(told, key=self.sort_key):
            self.notices.append(
                Notice(
                    f"Turn {self.state.turn}: " + "; ".join(told[owner]) + ".",
                    to=self.captains[owner].id,
                )
            )
        return events, records

    def place_late_joiners(self) -> None:
        late = [
            ci
            for ci, c in enumerate(self.captains)
            if c.awaiting and c.status is CaptainStatus.ALIVE
        ]
        if not late:
            return
        taken: dict[Cell, object] = {
            Cell(*divmod(number, self.cols)): True for number in self.occupancy
        }
        for ci in late:
            try:
                ships = place_at_random(self.state.options, taken, self.rng)
            except PlacementError:
                continue  # no room this turn: the newcomer waits for the next close
            for ship in ships:
                taken.update(dict.fromkeys(ship.cells, True))
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


# --------------------------------------------------------------------- helpers
