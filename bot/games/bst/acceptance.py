"""Accepting a captain's order when it arrives (rules §3, §4).

A placement (setup only, by DM) takes effect at once: it is checked on its own,
then against the ships other captains have placed, as ``placement_conflicts``
says, and the captain is told their fleet. ``random`` draws a fleet that fits the
board and the loadouts only, never avoiding anyone's ships, so its answer depends on
nobody else's fleet (§3, no probing with ``random``); a drawn fleet that overlaps one
placed before it is placed again when setup closes (see ``lifecycle.py``). A battle order (a shot in public, a
move or rotation by DM, or ``pass``) is checked against the board's edges and the
captain's own fleet — never against anyone else's ships, so a refusal gives
nothing away — and then stands until the turn closes (see ``turns.py``).
"""

from __future__ import annotations

import random
from dataclasses import replace

from bot.games.base import (
    OVERLAP_REFUSALS,
    Accepted,
    Channel,
    IllegalOrderError,
    Notice,
    PlayerId,
    WrongChannelError,
)
from bot.games.bst.cells import Cell
from bot.games.bst.fleet import ROWS, Orientation, ShipKind, axis_of
from bot.games.bst.movement import rotated
from bot.games.bst.options import BstOptions, ConflictPolicy
from bot.games.bst.orders import (
    EXAMPLES,
    Move,
    Order,
    Pass,
    Place,
    Rotate,
    Shoot,
    describe_order,
    range_text,
)
from bot.games.bst.placement import (
    board_text,
    check_fleet,
    conflicts,
    fleet_text,
    place_at_random,
)
from bot.games.bst.state import BstState, Captain
from bot.games.bst.views import CaptainStatus, Phase


def accept_order(
    state: BstState, player: PlayerId, order: Order, channel: Channel, rng: random.Random
) -> Accepted[BstState, Order]:
    """Refuse ``order`` with the reason, apply it now (a placement), or keep it standing."""
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
        return _accept_placement(state, captain, order, channel, rng)
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
            f"moves are private: send `{describe_order(order)}` to me by DM (it was not executed)"
        )
    ordered_ship(state, captain, order)
    return Accepted(state, order, ())


def _accept_placement(
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
        raise IllegalOrderError(
            f"the battle has started: fleets can no longer be placed; now send {EXAMPLES}"
        )
    if channel is not Channel.PRIVATE:
        # Never echo the cells: the message itself may already have given them away.
        raise WrongChannelError(
            "placements are secret: send your placement to me by DM, not in the game channel"
        )
    seq = state.placements + 1
    if order.ships is None:
        # Drawn on an empty board: avoiding the others' ships would map them (§3).
        ships = place_at_random(state.options, {}, rng)
        placed = replace(captain, ships=ships, placed_at_random=True, placed_seq=seq)
        return Accepted(
            state.with_captain(placed, placements=seq),
            None,
            (
                Notice(
                    f"Placed at random: {fleet_text(ships)}. You may send another placement "
                    "until the battle starts. (A fleet drawn at random may overlap another "
                    "captain's, placed before it: then it is placed again at random when "
                    "setup closes, and you are told.)",
                    to=captain.id,
                ),
            ),
        )
    if captain.placed_by_host:
        raise IllegalOrderError(_PLACED_BY_HOST)
    ships = check_fleet(order.ships, state.options)
    overlapping = conflicts(ships, state, captain.id)
    if not overlapping:
        placed = replace(captain, ships=ships, placed_at_random=False, placed_seq=seq)
        return Accepted(
            state.with_captain(placed, placements=seq),
            None,
            (
                Notice(
                    f"Fleet placed: {fleet_text(ships)}. You may send a new placement "
                    "until the battle starts; the latest valid one stands.",
                    to=captain.id,
                ),
            ),
        )
    if state.options.placement_conflicts is ConflictPolicy.FIRST_COME:
        return _refused_for_overlap(state, captain)
    every_cell = sorted(cell for cells in overlapping.values() for cell in cells)
    named = ", ".join(map(str, every_cell))
    # both_retry (the original rule): every placement involved is withdrawn.
    new_state = state.with_captain(_unplaced(captain))
    notices = [
        Notice(
            f"Your placement overlaps another captain's ship at {named}: both placements "
            "are withdrawn. Send a new placement (or `random`).",
            to=captain.id,
        )
    ]
    # The others are read from the new state: it holds them unchanged, and asking the
    # old state would rebuild its index (handed on to the new one).
    for other_id in sorted(overlapping, key=lambda pid: _name_then_id(new_state, pid)):
        other = new_state.captain(other_id)
        assert other is not None
        new_state = new_state.with_captain(_unplaced(other))
        cells = ", ".join(map(str, sorted(overlapping[other_id])))
        notices.append(
            Notice(
                f"Another captain's placement overlapped your ship at {cells}: both placements "
                "are withdrawn. Send a new placement (or `random`).",
                to=other_id,
            )
        )
    return Accepted(new_state, None, tuple(notices))


_PLACED_BY_HOST = (
    f"after {OVERLAP_REFUSALS} refusals for overlapping other captains' ships, your fleet is "
    "placed at random when setup closes: the host no longer takes your placements"
)


def _refused_for_overlap(state: BstState, captain: Captain) -> Accepted[BstState, Order]:
    """first_come (§3): the placement overlaps another captain's ship. The answer never
    says where (the same words whoever's ships and wherever), and it is counted, which is
    why it is a notice with a changed state rather than a refusal that changes nothing:
    past the allowance, the captain's fleet is placed at random when setup closes."""
    refusals = captain.overlap_refusals + 1
    if refusals > OVERLAP_REFUSALS:
        counted = replace(
            captain, ships=(), placed_at_random=False, placed_seq=0, overlap_refusals=refusals
        )
        text = f"Your placement overlaps another captain's ship again: {_PLACED_BY_HOST}."
    else:
        counted = replace(captain, overlap_refusals=refusals)
        stands = "your previous placement stands" if captain.ships else "you hold no placement yet"
        text = (
            f"Refused: your placement overlaps another captain's ship ({refusals} of "
            f"{OVERLAP_REFUSALS} such refusals allowed in setup; after that your fleet is "
            f"placed at random). Place your fleet elsewhere (or send `random`); {stands}."
        )
    return Accepted(state.with_captain(counted), None, (Notice(text, to=captain.id),))


def _unplaced(captain: Captain) -> Captain:
    return replace(captain, ships=(), placed_at_random=False, placed_seq=0)


def _name_then_id(state: BstState, player: PlayerId) -> tuple[str, str]:
    captain = state.captain(player)
    return (captain.name if captain else "", player)


def _example_cell(options: BstOptions) -> str:
    return str(Cell(min(7, options.rows - 1), min(13, options.cols - 1)))


def ordered_ship(state: BstState, captain: Captain, order: Move | Rotate) -> int:
    """The index of the ship a move or rotation names, checked against §4 using only the
    captain's own fleet and the board's edges (never anyone else's ships)."""
    kind, at = order.kind, order.at
    # The first ship of that kind on that cell (compared as ints: a turn checks 100,000).
    row, col = at.row, at.col
    index = next(
        (
            i
            for i, s in enumerate(captain.ships)
            if s.kind is kind and any(c.row == row and c.col == col for c in s.cells)
        ),
        None,
    )
    if index is None:
        own = fleet_text(s for s in captain.ships if not s.destroyed) or "none afloat"
        raise IllegalOrderError(f"you have no {kind.value} at {at}; your ships: {own}")
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
        if ship.orientation is not axis_of(order.direction):
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
    d_col, d_row = ROWS.offset(order.direction)
    d_row, d_col = d_row * order.steps, d_col * order.steps
    first, last = ship.cells[0], ship.cells[-1]
    rows, cols = state.options.rows, state.options.cols
    if not (
        0 <= first.row + d_row < rows
        and 0 <= last.row + d_row < rows
        and 0 <= first.col + d_col < cols
        and 0 <= last.col + d_col < cols
    ):
        raise IllegalOrderError(
            f"moving your {kind.value} at {where} {order.steps} {order.direction.value} "
            f"would take it off {board_text(state.options)}"
        )
    return index


class _LazyRange:
    """A ship's cells as text, worked out only when a refusal message needs it."""

    def __init__(self, cells: tuple[Cell, ...]) -> None:
        self.cells = cells

    def __str__(self) -> str:
        return range_text(self.cells)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)
