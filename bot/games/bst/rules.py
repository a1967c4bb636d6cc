"""The rules of BattleshipTwitter (bst), as the host enforces them: see
``shared/rules/bst.md`` (mirrored in :meth:`BstGame.rules_text`).

Captains join a shared rectangular board and place two ships each in secret
(a carrier and a submarine, or two cruisers). Then the battle runs in turns: each
live captain may shoot one cell (in public), or move or rotate one ship (by DM),
or pass. At the deadline every order resolves at once: ships move together in
lock-step (§5.1, movement.py), then shots land (§5.2; before the moves with
``shots=before_moves``), ships with every segment hit become wrecks, captains
with no ship afloat are eliminated, and the last captain afloat wins (§5.3).

Everything here is pure and deterministic: randomness only from the given
``random.Random``, and a turn's result depends only on the board and the
orders, never on the order of the mapping or on player ids (ties are broken by
captain name, then id, then ship index).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.games.base import (
    Accepted,
    Channel,
    Event,
    IllegalOrderError,
    Notice,
    OrderSyntaxError,
    Outcome,
    PlacementError,
    PlayerId,
    PlayerRef,
    Resolution,
    WrongChannelError,
)
from bot.games.bst import reports
from bot.games.bst.cells import Cell, cells_text, parse_cell, row_label
from bot.games.bst.fleet import Direction, Orientation, Ship, ShipKind
from bot.games.bst.movement import Plan, resolve_movement, rotated
from bot.games.bst.options import BstOptions, ConflictPolicy, ShotTiming, parse_options
from bot.games.bst.orders import (
    Move,
    Order,
    Pass,
    Place,
    Rotate,
    Shoot,
    describe_order,
    parse_order,
    range_text,
)
from bot.games.bst.placement import (
    board_text,
    check_fleet,
    conflicts,
    fleet_text,
    place_at_random,
    place_many_at_random,
)
from bot.games.bst.state import BstState, Captain, ShotRecord
from bot.games.bst.views import (
    CaptainStatus,
    CaptainView,
    FleetView,
    OwnShipView,
    Phase,
    PrivateView,
    PublicView,
    RevealedView,
    ShotView,
    WreckView,
)

ShipKey = tuple[int, int]
"""(captain index in join order, ship index in the captain's fleet)."""

STATE_FORMAT = "bst-state/1"


class BstGame:
    """The bst rules behind the host's Game protocol."""

    name = "bst"
    tag = "#bst"
    battle_hint = "Shoot in public (`#bst H14`); move or rotate by DM."

    # ----------------------------------------------------------------- setup

    def new_game(self, options: Mapping[str, str]) -> BstState:
        return BstState(options=parse_options(options))

    def options(self, state: BstState) -> dict[str, str]:
        return state.options.text()

    def join(self, state: BstState, player: PlayerRef) -> BstState:
        existing = state.captain(player.id)
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is over: wait for the host to start a new one")
        if existing is not None:
            if state.phase is Phase.SETUP and existing.status is CaptainStatus.LEFT:
                # Leaving during setup costs nothing, so coming back is allowed.
                return _with_captain(state, replace(existing, status=CaptainStatus.ALIVE))
            if existing.status is CaptainStatus.LEFT:
                raise IllegalOrderError(
                    "you left this game, and the battle is on: wait for the next one"
                )
            raise IllegalOrderError("you are already in this game")
        if state.phase is Phase.BATTLE and not state.options.late_join:
            raise IllegalOrderError("the battle has started, so joining is closed in this game")
        captain = Captain(id=player.id, name=player.name, awaiting=state.phase is Phase.BATTLE)
        return replace(state, captains=(*state.captains, captain))

    def parse(self, text: str) -> Order:
        return parse_order(text)

    def describe(self, order: Order) -> str:
        return describe_order(order)

    # ----------------------------------------------------------------- orders

    def accept(
        self,
        state: BstState,
        player: PlayerId,
        order: Order,
        channel: Channel,
        rng: random.Random,
    ) -> Accepted[BstState, Order]:
        captain = state.captain(player)
        if captain is None:
            if state.phase is Phase.FINISHED:
                raise IllegalOrderError("this game is over")
            raise IllegalOrderError("you are not in this game: send `join`")
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is over: no more orders")
        if captain.status is CaptainStatus.LEFT:
            raise IllegalOrderError("you have left this game")
        if captain.status is CaptainStatus.ELIMINATED:
            raise IllegalOrderError(
                "you have been eliminated: both your ships are wrecks, but you may go on watching"
            )
        if isinstance(order, Place):
            return self._accept_place(state, captain, order, channel, rng)
        if state.phase is Phase.SETUP:
            raise IllegalOrderError(
                "the battle has not started yet: for now send your placement by DM, "
                "e.g. `sub: A2, carrier: C1-C5`, or `random`"
            )
        if captain.awaiting:
            raise IllegalOrderError(
                "you join the battle when this turn closes (your fleet is placed at random "
                "then): your orders count from the next turn"
            )
        if isinstance(order, Pass):
            return Accepted(state, order, ())
        if isinstance(order, Shoot):
            if channel is not Channel.PUBLIC:
                raise WrongChannelError(
                    f"shots are public: post `#bst {order.cell}` in the game channel"
                )
            if not state.on_board(order.cell):
                raise IllegalOrderError(
                    f"{order.cell} is off {board_text(state.options)}: shoot a cell such as "
                    f"`#bst {_example_cell(state.options)}`"
                )
            return Accepted(state, order, ())
        if channel is not Channel.PRIVATE:
            raise WrongChannelError(
                f"moves are private: send `{describe_order(order)}` to me by DM "
                "(it was not executed)"
            )
        _target(state, captain, order)
        return Accepted(state, order, ())

    def _accept_place(
        self,
        state: BstState,
        captain: Captain,
        order: Place,
        channel: Channel,
        rng: random.Random,
    ) -> Accepted[BstState, Order]:
        if state.phase is not Phase.SETUP:
            if captain.awaiting:
                raise IllegalOrderError(
                    "the battle is on: your fleet is placed at random when this turn closes"
                )
            raise IllegalOrderError("the battle has started: fleets can no longer be placed")
        if channel is not Channel.PRIVATE:
            # Never echo the cells: the message itself may already have given them away.
            raise WrongChannelError(
                "placements are secret: send your placement to me by DM, not in the game channel"
            )
        taken = _occupancy(state, exclude=captain.id)
        if order.ships is None:
            ships = place_at_random(state.options, taken, rng)
            placed = replace(captain, ships=ships, placed_at_random=True)
            return Accepted(
                _with_captain(state, placed),
                None,
                (
                    Notice(
                        f"Placed at random: {fleet_text(ships)}. You may send another placement "
                        "until the battle starts.",
                        to=captain.id,
                    ),
                ),
            )
        ships = check_fleet(order.ships, state.options)
        overlapping = conflicts(ships, taken, captain.id)
        if not overlapping:
            placed = replace(captain, ships=ships, placed_at_random=False)
            return Accepted(
                _with_captain(state, placed),
                None,
                (
                    Notice(
                        f"Fleet placed: {fleet_text(ships)}. You may send a new placement "
                        "until the battle starts; the latest valid one stands.",
                        to=captain.id,
                    ),
                ),
            )
        every_cell = sorted(cell for cells in overlapping.values() for cell in cells)
        named = ", ".join(map(str, every_cell))
        if state.options.placement_conflicts is ConflictPolicy.FIRST_COME:
            raise PlacementError(
                f"your placement overlaps a ship already placed by another captain at {named}: "
                "place your fleet elsewhere (or send `random`)"
            )
        # both_retry (the original rule): every placement involved is withdrawn.
        new_state = _with_captain(state, replace(captain, ships=(), placed_at_random=False))
        notices = [
            Notice(
                f"Your placement overlaps another captain's ship at {named}: both placements "
                "are withdrawn. Send a new placement (or `random`).",
                to=captain.id,
            )
        ]
        for other_id in sorted(overlapping, key=lambda pid: _sort_key(state, pid)):
            other = state.captain(other_id)
            assert other is not None
            new_state = _with_captain(new_state, replace(other, ships=(), placed_at_random=False))
            cells = ", ".join(map(str, sorted(overlapping[other_id])))
            notices.append(
                Notice(
                    f"Another captain's placement overlapped your ship at {cells}: both placements "
                    "are withdrawn. Send a new placement (or `random`).",
                    to=other_id,
                )
            )
        return Accepted(new_state, None, tuple(notices))

    # ----------------------------------------------------------------- turns

    def start(self, state: BstState, rng: random.Random) -> Resolution[BstState]:
        if state.phase is not Phase.SETUP:
            raise IllegalOrderError("the battle has already started")
        present = [c for c in state.captains if c.status is CaptainStatus.ALIVE]
        if len(present) < 2:
            raise IllegalOrderError(
                f"starting needs at least two captains; {len(present)} has joined"
                if len(present) == 1
                else f"starting needs at least two captains; {len(present)} have joined"
            )
        taken = _occupancy(state, exclude=None)
        captains = list(state.captains)
        notices: list[Notice] = []
        unplaced = [
            i
            for i, captain in enumerate(captains)
            if captain.status is CaptainStatus.ALIVE and not captain.ships
        ]
        fleets = place_many_at_random(state.options, taken, len(unplaced), rng)
        for i, ships in zip(unplaced, fleets, strict=True):
            captain = captains[i]
            captains[i] = replace(captain, ships=ships, placed_at_random=True)
            notices.append(
                Notice(
                    f"You sent no placement, so you were placed at random: {fleet_text(ships)}.",
                    to=captain.id,
                )
            )
        new_state = replace(state, phase=Phase.BATTLE, turn=1, captains=tuple(captains))
        return Resolution(
            new_state,
            (),
            frozenset(c.id for c in present),
            notices=tuple(notices),
        )

    def to_act(self, state: BstState) -> frozenset[PlayerId]:
        if state.phase is Phase.SETUP:
            return frozenset(c.id for c in state.captains if c.status is CaptainStatus.ALIVE)
        if state.phase is Phase.BATTLE:
            return frozenset(c.id for c in state.captains if c.in_battle)
        return frozenset()

    def resolve(
        self, state: BstState, orders: Mapping[PlayerId, Order], rng: random.Random
    ) -> Resolution[BstState]:
        if state.phase is not Phase.BATTLE:
            raise IllegalOrderError("there is no turn to resolve: the battle is not on")
        # (The host runs this with the cyclic collector paused: see bot/host/collector.py.)
        return _Turn(state, orders, rng).resolve()

    def remove(self, state: BstState, player: PlayerId) -> Resolution[BstState]:
        captain = state.captain(player)
        if captain is None:
            raise IllegalOrderError("that captain is not in this game")
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is over")
        if captain.status is not CaptainStatus.ALIVE:
            return Resolution(state, (), frozenset())
        if state.phase is Phase.SETUP:
            left = replace(captain, status=CaptainStatus.LEFT, ships=(), placed_at_random=False)
            return Resolution(_with_captain(state, left), (), frozenset())
        events: list[Event] = []
        wrecks: list[Ship] = []
        for ship in captain.ships:
            if ship.destroyed:
                wrecks.append(ship)
                continue
            wreck = replace(ship, damaged=frozenset(range(len(ship.cells))))
            wrecks.append(wreck)
            events.append(_ship_event("destroyed", captain.id, wreck))
        left = replace(captain, status=CaptainStatus.LEFT, ships=tuple(wrecks), awaiting=False)
        new_state = _with_captain(state, left)
        alive = [c for c in new_state.captains if c.status is CaptainStatus.ALIVE]
        if len(alive) <= 1:
            winners = tuple(c.id for c in alive)
            new_state = replace(new_state, phase=Phase.FINISHED, winners=winners, draw=False)
            events.append(_finished(winners, draw=False))
        return Resolution(new_state, tuple(events), frozenset({captain.id}))

    def finish(self, state: BstState) -> Resolution[BstState]:
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is already over")
        winners = tuple(c.id for c in state.captains if c.status is CaptainStatus.ALIVE)
        new_state = replace(state, phase=Phase.FINISHED, winners=winners, draw=True)
        return Resolution(new_state, (_finished(winners, draw=True),), frozenset())

    def outcome(self, state: BstState) -> Outcome | None:
        if state.phase is not Phase.FINISHED:
            return None
        return Outcome(winners=state.winners, draw=state.draw)

    # ----------------------------------------------------------------- views

    def view(self, state: BstState, viewer: PlayerId | None) -> PublicView | PrivateView:
        public = _public_view(state)
        if viewer is None:
            return public
        captain = state.captain(viewer)
        if captain is None:
            return public
        return PrivateView(
            viewer=captain.id,
            viewer_name=captain.name,
            public=public,
            ships=tuple(_own_ship(ship) for ship in captain.ships),
            collisions=state.collisions_of(captain.id),
        )

    def reveal(self, state: BstState) -> RevealedView:
        return RevealedView(
            public=_public_view(state),
            fleets=tuple(
                FleetView(c.id, c.name, tuple(_own_ship(ship) for ship in c.ships))
                for c in state.captains
            ),
        )

    # ----------------------------------------------------------------- storage

    def encode_state(self, state: BstState) -> dict[str, Any]:
        opts = state.options
        return {
            "format": STATE_FORMAT,
            "options": {"size": opts.size_text, **opts.text()},
            "phase": state.phase.value,
            "turn": state.turn,
            "captains": [
                {
                    "id": c.id,
                    "name": c.name,
                    "status": c.status.value,
                    "ships": [
                        {
                            "kind": ship.kind.value,
                            # A run as its two ends ("C1-C5"): a state with thousands of
                            # captains stays small and decodes fast.
                            "cells": range_text(ship.cells),
                            "damaged": sorted(ship.damaged),
                        }
                        for ship in c.ships
                    ],
                    "awaiting": c.awaiting,
                    "placed_at_random": c.placed_at_random,
                }
                for c in state.captains
            ],
            "last_shots": [
                {"shooter": s.shooter, "cell": str(s.cell), "hit": s.hit} for s in state.last_shots
            ],
            "last_collisions": [
                {"player": pid, "cells": [str(cell) for cell in cells]}
                for pid, cells in state.last_collisions
            ],
            "winners": list(state.winners),
            "draw": state.draw,
        }

    def decode_state(self, data: Mapping[str, Any]) -> BstState:
        options: BstOptions = parse_options(data["options"])
        captains = tuple(
            Captain(
                id=c["id"],
                name=c["name"],
                status=CaptainStatus(c["status"]),
                ships=tuple(
                    Ship(
                        ShipKind(s["kind"]),
                        _decode_run(s["cells"]),
                        frozenset(int(i) for i in s["damaged"]),
                    )
                    for s in c["ships"]
                ),
                awaiting=bool(c.get("awaiting", False)),
                placed_at_random=bool(c.get("placed_at_random", False)),
            )
            for c in data["captains"]
        )
        return BstState(
            options=options,
            phase=Phase(data["phase"]),
            turn=int(data["turn"]),
            captains=captains,
            last_shots=tuple(
                ShotRecord(s["shooter"], parse_cell(s["cell"]), bool(s["hit"]))
                for s in data.get("last_shots", ())
            ),
            last_collisions=tuple(
                (c["player"], tuple(parse_cell(cell) for cell in c["cells"]))
                for c in data.get("last_collisions", ())
            ),
            winners=tuple(data.get("winners", ())),
            draw=bool(data.get("draw", False)),
        )

    def encode_order(self, order: Order) -> dict[str, Any]:
        if isinstance(order, Shoot):
            return {"action": "shoot", "cell": str(order.cell)}
        if isinstance(order, Move):
            return {
                "action": "move",
                "ship": order.kind.value,
                "at": str(order.at),
                "steps": order.steps,
                "direction": order.direction.value,
            }
        if isinstance(order, Rotate):
            return {"action": "rotate", "ship": order.kind.value, "at": str(order.at)}
        if isinstance(order, Pass):
            return {"action": "pass"}
        if order.ships is None:
            return {"action": "place", "random": True}
        return {
            "action": "place",
            "ships": [
                {"kind": kind.value, "cells": [str(cell) for cell in cells]}
                for kind, cells in order.ships
            ],
        }

    def decode_order(self, data: Mapping[str, Any]) -> Order:
        action = data.get("action")
        try:
            if action == "shoot":
                return Shoot(parse_cell(data["cell"]))
            if action == "move":
                return Move(
                    ShipKind(data["ship"]),
                    parse_cell(data["at"]),
                    int(data["steps"]),
                    Direction(data["direction"]),
                )
            if action == "rotate":
                return Rotate(ShipKind(data["ship"]), parse_cell(data["at"]))
            if action == "pass":
                return Pass()
            if action == "place":
                if data.get("random"):
                    return Place(None)
                return Place(
                    tuple(
                        (ShipKind(s["kind"]), tuple(parse_cell(c) for c in s["cells"]))
                        for s in data["ships"]
                    )
                )
        except (KeyError, ValueError, TypeError) as error:
            raise OrderSyntaxError(f"not a bst order record: {dict(data)!r}") from error
        raise OrderSyntaxError(f"not a bst order record: {dict(data)!r}")

    def record_players(self, state: BstState) -> list[dict[str, Any]]:
        return [
            {
                "name": c.name,
                "status": c.status.value,
                "ships": [
                    {
                        "kind": ship.kind.value,
                        "cells": cells_text(ship.cells),
                        "damaged": cells_text(ship.damaged_cells),
                        "destroyed": ship.destroyed,
                    }
                    for ship in c.ships
                ],
            }
            for c in state.captains
        ]

    def record_board(self, state: BstState) -> dict[str, Any]:
        return {"rows": state.options.rows, "cols": state.options.cols}

    # ----------------------------------------------------------------- text

    def public_report(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        return reports.public_report(events, names)

    def private_report(self, events: Sequence[Event], viewer: PlayerId) -> list[str]:
        return reports.private_report(events, viewer)

    def summary(self, state: BstState, viewer: PlayerId | None) -> str:
        view = self.view(state, viewer)
        return summary_text(view)

    def help_text(self) -> str:
        return HELP_TEXT

    def rules_text(self) -> str:
        return RULES_TEXT


# --------------------------------------------------------------------- turn resolution


class _Turn:
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
                    ship_index = _target(state, self.captains[index], order)
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
            events.append(_finished(winners, draw))
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
        for shooter, cell in shots:
            key = self.occupancy.get(cell.row * self.cols + cell.col)
            if key is not None:
                ship = self.ship(key)
                segment = ship.cells.index(cell)
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


def _with_captain(state: BstState, captain: Captain) -> BstState:
    captains = list(state.captains)
    captains[state.index[captain.id]] = captain
    return replace(state, captains=tuple(captains))


def _sort_key(state: BstState, player: PlayerId) -> tuple[str, str]:
    captain = state.captain(player)
    return (captain.name if captain else "", player)


def _occupancy(state: BstState, exclude: PlayerId | None) -> dict[Cell, PlayerId]:
    """Cell → owner over every placed ship (wrecks included) but ``exclude``'s."""
    return {
        cell: c.id
        for c in state.captains
        if c.id != exclude
        for ship in c.ships
        for cell in ship.cells
    }


def _example_cell(options: BstOptions) -> str:
    return str(Cell(min(7, options.rows - 1), min(13, options.cols - 1)))


def _target(state: BstState, captain: Captain, order: Move | Rotate) -> int:
    """The index of the ship a move or rotation names, checked against §4 using only the
    captain's own fleet and the board's edges (never anyone else's ships)."""
    kind = order.kind
    found = [i for i, s in enumerate(captain.ships) if s.kind is kind and order.at in s.cells]
    if not found:
        own = fleet_text(s for s in captain.ships if not s.destroyed) or "none afloat"
        raise IllegalOrderError(f"you have no {kind.value} at {order.at}; your ships: {own}")
    index = found[0]
    ship = captain.ships[index]
    where = _LazyRange(ship.cells)
    if ship.destroyed:
        raise IllegalOrderError(f"your {kind.value} at {where} is destroyed: wrecks never move")
    if isinstance(order, Rotate):
        if kind is ShipKind.SUBMARINE:
            raise IllegalOrderError(
                "a submarine cannot rotate; it moves 1 cell any way instead, "
                f"e.g. `move sub at {order.at} 1 right`"
            )
        turned = rotated(ship.cells)
        if not all(map(state.on_board, turned)):
            raise IllegalOrderError(
                f"your {kind.value} at {where} cannot rotate: turned about {ship.centre} it "
                "would leave the board (a cruiser flush with an edge, or a carrier within one "
                "cell of it, cannot rotate off that edge)"
            )
        return index
    if kind is ShipKind.SUBMARINE:
        if order.steps != 1:
            raise IllegalOrderError(
                f"a submarine moves exactly 1 cell, e.g. `move sub at {order.at} 1 "
                f"{order.direction.value}`"
            )
    else:
        if ship.orientation is not order.direction.axis:
            along = "a row" if ship.orientation is Orientation.HORIZONTAL else "a column"
            ways = "left or right" if ship.orientation is Orientation.HORIZONTAL else "up or down"
            raise IllegalOrderError(
                f"your {kind.value} at {where} lies along {along}, so it moves {ways}, "
                f"e.g. `move {kind.value} at {order.at} 1 {ways.split()[0]}`"
            )
        if not 1 <= order.steps <= kind.length:
            raise IllegalOrderError(
                f"a {kind.value} moves 1 to {kind.length} cells; got {order.steps}"
            )
    # A move is straight, so it stays on the board at every step if both ends end on it.
    d_row, d_col = order.direction.delta
    ends = (ship.cells[0], ship.cells[-1])
    if not all(
        state.on_board(end.shifted(d_row * order.steps, d_col * order.steps)) for end in ends
    ):
        raise IllegalOrderError(
            f"moving your {kind.value} at {where} {order.steps} {order.direction.value} "
            f"would take it off {board_text(state.options)}"
        )
    return index


def _decode_run(text: str) -> tuple[Cell, ...]:
    """Inverse of range_text for a ship stored in a state (``C1-C5`` or ``A2``)."""
    first, _, last = text.partition("-")
    start = parse_cell(first)
    end = parse_cell(last) if last else start
    if start.row == end.row:
        return tuple(Cell(start.row, col) for col in range(start.col, end.col + 1))
    return tuple(Cell(row, start.col) for row in range(start.row, end.row + 1))


class _LazyRange:
    """A ship's cells as text, worked out only when a refusal message needs it."""

    def __init__(self, cells: tuple[Cell, ...]) -> None:
        self.cells = cells

    def __str__(self) -> str:
        return range_text(self.cells)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _ship_event(kind: str, owner: PlayerId, ship: Ship) -> Event:
    # A ship's cells are kept in board order, so the record's sorted order needs no sort.
    return Event(
        kind, {"player": owner, "ship": ship.kind.value, "cells": list(map(str, ship.cells))}
    )


def _finished(winners: Iterable[PlayerId], draw: bool) -> Event:
    return Event("finished", {"winners": list(winners), "draw": draw})


def _own_ship(ship: Ship) -> OwnShipView:
    return OwnShipView(ship.kind, ship.cells, ship.damaged_cells, ship.destroyed)


def _public_view(state: BstState) -> PublicView:
    names = {c.id: c.name for c in state.captains}
    return PublicView(
        rows=state.options.rows,
        cols=state.options.cols,
        phase=state.phase,
        turn=state.turn,
        shots=tuple(
            ShotView(s.shooter, names.get(s.shooter, s.shooter), s.cell, s.hit)
            for s in state.last_shots
        ),
        wrecks=tuple(
            WreckView(c.id, c.name, ship.kind, ship.cells)
            for c in state.captains
            for ship in c.ships
            if ship.destroyed
        ),
        captains=tuple(CaptainView(c.id, c.name, c.status) for c in state.captains),
        winners=state.winners,
        draw=state.draw,
    )


GRID_LIMIT = 30
"""Boards up to this many rows and columns get a text grid in the summary (console play)."""


def summary_text(view: PublicView | PrivateView) -> str:
    """What a view shows, as text: the caption of a board image, or the board on a console."""
    public = view.public if isinstance(view, PrivateView) else view
    lines = [f"#bst {public.rows}x{public.cols}, {_phase_text(public)}"]
    names = {c.id: c.name for c in public.captains}
    if public.phase is Phase.FINISHED:
        winners = ", ".join(names.get(w, w) for w in public.winners) or "no one"
        lines.append(f"Draw between {winners}." if public.draw else f"Winner: {winners}.")
    alive = ", ".join(c.name for c in public.alive) or "none"
    lines.append(f"Captains afloat: {alive}.")
    if public.shots:
        shots = ", ".join(
            f"{s.shooter_name} {s.cell} {'hit' if s.hit else 'miss'}" for s in public.shots
        )
        lines.append(f"Shots last turn: {shots}.")
    if public.wrecks:
        wrecks = ", ".join(
            f"{w.owner_name}'s {w.kind.value} {range_text(w.cells)}" for w in public.wrecks
        )
        lines.append(f"Wrecks: {wrecks}.")
    if isinstance(view, PrivateView):
        own = []
        for ship in view.ships:
            text = f"{ship.kind.value} {range_text(ship.cells)}"
            if ship.destroyed:
                text += " (destroyed)"
            elif ship.damaged:
                text += f" (hit at {', '.join(map(str, sorted(ship.damaged)))})"
            own.append(text)
        lines.append(f"Your ships: {', '.join(own) or 'none placed yet'}.")
        if view.collisions:
            lines.append(f"Your collisions last turn: {', '.join(map(str, view.collisions))}.")
    if public.rows <= GRID_LIMIT and public.cols <= GRID_LIMIT:
        lines.append(_grid(public, view if isinstance(view, PrivateView) else None))
    return "\n".join(lines)


def _phase_text(public: PublicView) -> str:
    if public.phase is Phase.SETUP:
        return "setup: join and place your fleet"
    if public.phase is Phase.BATTLE:
        return f"turn {public.turn}"
    return f"finished after turn {public.turn}"


def _grid(public: PublicView, private: PrivateView | None) -> str:
    """A text board: `.` water, `o` miss, `x` hit, `#` wreck; your ships `S`, damaged `*`."""
    marks: dict[Cell, str] = {}
    if private is not None:
        for ship in private.ships:
            for cell in ship.cells:
                marks[cell] = "*" if cell in ship.damaged else "S"
    for wreck in public.wrecks:
        for cell in wreck.cells:
            marks[cell] = "#"
    for shot in public.shots:
        marks[shot.cell] = "x" if shot.hit else "o"
    width = len(row_label(public.rows - 1))
    header = " " * (width + 1) + " ".join(f"{col + 1:>2}" for col in range(public.cols))
    rows = [
        f"{row_label(row):>{width}} "
        + " ".join(f"{marks.get(Cell(row, col), '.'):>2}" for col in range(public.cols))
        for row in range(public.rows)
    ]
    return "\n".join([header, *rows])


HELP_TEXT = """\
BattleshipTwitter (#bst): one shared board, two secret ships each, turns that close on a deadline.
Setup: `join`, then DM your fleet: `sub: A2, carrier: C1-C5` or `cruiser: B2-B4, cruiser: E5-G5`, or `random`.
Each turn, one action (a new one replaces the last):
  shoot (public): `#bst H14`
  move (DM): `move cruiser at G7 3 up` (along its length, 1 to its length; a sub moves 1 any way)
  rotate (DM): `rotate carrier at E8` (a quarter turn about its centre)
  `pass` withdraws your action.
Rows are letters from the top (A, B, … Z, AA…), columns numbers from the left.
Also: `board` (your private board), `status`, `rules`, `leave`."""

RULES_TEXT = """\
BattleshipTwitter rules, in short:
1. Board: rows A, B, C… from the top, columns 1, 2, 3… from the left; a cell is row then column, e.g. H14.
2. Fleet: an aircraft carrier (5 cells) and a submarine (1 cell), or two cruisers (3 cells each); straight lines.
3. Setup: `join`, then place your fleet by DM (`sub: A2, carrier: C1-C5` or `random`); resend to change it. \
A placement overlapping a ship already placed is refused (or, with placement_conflicts=both_retry, both \
placements are withdrawn). Captains without a placement are placed at random when the battle starts.
4. Each turn you may take one action: shoot one cell in public (`#bst H14`), or by DM move one ship \
1 to its length along its axis (`move cruiser at G7 3 up`; a sub moves 1 cell any way) or rotate it a \
quarter turn about its centre (`rotate carrier at E8`; subs cannot rotate). Name a ship by any cell it occupies.
5. At the deadline all ships move together one cell at a time. A ship stops for the turn if it would run \
into a ship that stays put, a cell another ship also wants, a ship that is itself stopped, or pass through \
a ship coming the other way; following a ship that moves away is fine. Collisions do no damage: you are \
told where your ship collided, not whose ship it was.
6. Then shots land (by default after the moves, so moving can dodge): a shot on any ship segment, yours and \
wrecks included, is a hit and damages that segment for good. A ship with every segment hit is a wreck, shown \
to all with its owner; it never moves again and still blocks.
7. A captain whose two ships are wrecks is eliminated. The last captain afloat wins; if the last ships sink \
together, those captains draw. `leave` turns your ships into wrecks."""
