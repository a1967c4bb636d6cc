"""bst states and orders as JSON-ready data (``bst-state/1`` and the record's orders).

A state keeps every ship as the two ends of its run (``C1-C5``), so a state with
thousands of captains stays small and decodes fast; an order is written exactly
as the record shows it (``{"action": "move", "ship": "cruiser", "at": "G7",
"steps": 3, "direction": "up"}``). Decoding is the exact inverse of encoding, and
fields added later have defaults, so states stored by older versions still decode.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import OrderSyntaxError
from bot.games.bst.cells import Cell, stored_cell
from bot.games.bst.fleet import Direction, Ship, ShipKind
from bot.games.bst.options import BstOptions, parse_options
from bot.games.bst.orders import Move, Order, Pass, Place, Rotate, Shoot, range_text
from bot.games.bst.record import game_record
from bot.games.bst.state import BstState, Captain, ShotRecord
from bot.games.bst.views import CaptainStatus, Phase

STATE_FORMAT = "bst-state/1"

record = game_record
"""The Codec part (``bot/games/base.py``) is this module; the record is ``record.py``'s."""


def encode_state(state: BstState) -> dict[str, Any]:
    """The state as ``bst-state/1`` JSON."""
    opts = state.options
    encoded: dict[str, Any] = {
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
                        "cells": range_text(ship.cells),
                        "damaged": sorted(ship.damaged),
                    }
                    for ship in c.ships
                ],
                "awaiting": c.awaiting,
                "placed_at_random": c.placed_at_random,
                # Only when non-zero: a state stored before the count existed decodes as 0.
                **({"overlap_refusals": c.overlap_refusals} if c.overlap_refusals else {}),
                # Only in setup (0 once the battle is on), so battle states are unchanged.
                **({"placed_seq": c.placed_seq} if c.placed_seq else {}),
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
    if state.setup_windows:
        # Only when non-zero: a state stored before the count existed decodes as 0.
        encoded["setup_windows"] = state.setup_windows
    if state.placements:
        encoded["placements"] = state.placements
    return encoded


def decode_state(data: Mapping[str, Any]) -> BstState:
    """Inverse of :func:`encode_state`."""
    options: BstOptions = parse_options(data["options"])
    captains = tuple(
        Captain(
            id=c["id"],
            name=c["name"],
            status=CaptainStatus(c["status"]),
            ships=tuple(
                Ship(
                    ShipKind(s["kind"]),
                    _ship_cells(s["cells"]),
                    frozenset(int(i) for i in s["damaged"]),
                )
                for s in c["ships"]
            ),
            awaiting=bool(c.get("awaiting", False)),
            placed_at_random=bool(c.get("placed_at_random", False)),
            overlap_refusals=int(c.get("overlap_refusals", 0)),
            placed_seq=int(c.get("placed_seq", 0)),
        )
        for c in data["captains"]
    )
    return BstState(
        options=options,
        phase=Phase(data["phase"]),
        turn=int(data["turn"]),
        captains=captains,
        last_shots=tuple(
            ShotRecord(s["shooter"], stored_cell(s["cell"]), bool(s["hit"]))
            for s in data.get("last_shots", ())
        ),
        last_collisions=tuple(
            (c["player"], tuple(stored_cell(cell) for cell in c["cells"]))
            for c in data.get("last_collisions", ())
        ),
        winners=tuple(data.get("winners", ())),
        draw=bool(data.get("draw", False)),
        setup_windows=int(data.get("setup_windows", 0)),
        placements=int(data.get("placements", 0)),
    )


def encode_order(order: Order) -> dict[str, Any]:
    """An order as the record writes it (without ``player``)."""
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


def decode_order(data: Mapping[str, Any]) -> Order:
    """Inverse of :func:`encode_order`; anything else is an OrderSyntaxError."""
    action = data.get("action")
    try:
        if action == "shoot":
            return Shoot(stored_cell(data["cell"]))
        if action == "move":
            return Move(
                ShipKind(data["ship"]),
                stored_cell(data["at"]),
                int(data["steps"]),
                Direction(data["direction"]),
            )
        if action == "rotate":
            return Rotate(ShipKind(data["ship"]), stored_cell(data["at"]))
        if action == "pass":
            return Pass()
        if action == "place":
            if data.get("random"):
                return Place(None)
            return Place(
                tuple(
                    (ShipKind(s["kind"]), tuple(stored_cell(c) for c in s["cells"]))
                    for s in data["ships"]
                )
            )
    except (KeyError, ValueError, TypeError) as error:
        raise OrderSyntaxError(f"not a bst order record: {dict(data)!r}") from error
    raise OrderSyntaxError(f"not a bst order record: {dict(data)!r}")


def _ship_cells(text: str) -> tuple[Cell, ...]:
    """Inverse of range_text for a ship stored in a state (``C1-C5`` or ``A2``)."""
    first, _, last = text.partition("-")
    start = stored_cell(first)
    end = stored_cell(last) if last else start
    if start.row == end.row:
        return tuple(Cell(start.row, col) for col in range(start.col, end.col + 1))
    return tuple(Cell(row, start.col) for row in range(start.row, end.row + 1))
