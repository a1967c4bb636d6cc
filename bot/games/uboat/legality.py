"""Whether an order fits its boat now (rules §3, contract "Orders").

An order is checked when it arrives, from the boat's cell then: a fire's target
must be on the board and within range (3, +1 with Long guns, −1 per round the
boat fired in a row just before, never below 0: at 0 only its own tile); a
route has 1 to 3 steps and no step may enter an island. When an invisible move
changes a boat's cell, its standing orders are checked again the same way.
Every reason names only the sender's own boat and the board, never another
player's secret. Rules in ``shared/rules/uboat.md``.
"""

from __future__ import annotations

from bot.games.uboat.cells import MAX_STEPS, Cell, Route, Sea, route_text
from bot.games.uboat.orders import Evade, Fire, Hold, JoinCrew, Move, Order, Ram, StartAt
from bot.games.uboat.state import Boat, UboatState
from bot.games.uboat.values import Power


def problem(state: UboatState, boat: Boat, order: Order) -> str | None:
    """Why ``order`` cannot be carried out by ``boat`` from where it is now (None: it can)."""
    if isinstance(order, Fire):
        return fire_problem(state, boat, order.cell)
    if isinstance(order, Move | Ram | Evade):
        return route_problem(state.sea, boat.cell, order.route, state.island_number)
    if isinstance(order, Hold | JoinCrew | StartAt):
        return None
    return None


def off_board(sea: Sea, cell: Cell) -> str | None:
    if sea.on_board(cell):
        return None
    last = Cell(sea.size - 1, sea.size - 1)
    return f"{cell} is off the {sea.size}x{sea.size} board (A1 to {last})"


def fire_problem(state: UboatState, boat: Boat, target: Cell) -> str | None:
    sea = state.sea
    outside = off_board(sea, target)
    if outside:
        return f"{outside}: fire at a tile on it, e.g. `fire {sea.example_cell()}`"
    reach = state.range_of(boat)
    distance = sea.distance(boat.cell, target)
    if distance <= reach:
        return None
    why = _range_reason(state, boat)
    why = f" ({why})" if why != str(reach) else ""  # (no "range is 3 (3)")
    if reach == 0:
        return (
            f"{target} is {distance} away and {boat.colour.title}'s range is 0 this round"
            f"{why}: it can fire only at its own tile, {boat.cell}"
        )
    return (
        f"{target} is {distance} away and {boat.colour.title}'s range is {reach} this round"
        f"{why}: fire at a tile at most {reach} away from {boat.cell}"
    )


def route_problem(
    sea: Sea,
    start: Cell,
    route: Route,
    island_number: dict[Cell, int],
) -> str | None:
    if not 1 <= len(route) <= MAX_STEPS:
        return (
            f"a route has 1 to {MAX_STEPS} steps; {route_text(route)!r} has {len(route)}: "
            "e.g. `move up up left`"
        )
    blocked = sea.blocked_step(start, route)
    if blocked is None:
        return None
    cell = sea.walk(start, route)[blocked - 1]
    return (
        f"step {blocked} of {route_text(route, ', ')} from {start} would enter island "
        f"{island_number[cell]} at {cell}: islands block movement"
    )


def _range_reason(state: UboatState, boat: Boat) -> str:
    """How the range came about, from the boat's own facts (all public or its crew's)."""
    parts = ["3"]
    if state.holds(boat.colour, Power.LONG_GUNS):
        parts.append("+1 with Long guns")
    if boat.fired_in_a_row:
        rounds = "round" if boat.fired_in_a_row == 1 else f"{boat.fired_in_a_row} rounds"
        parts.append(f"−{boat.fired_in_a_row} after firing the last {rounds} in a row")
    return ", ".join(parts)
