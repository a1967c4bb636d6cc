"""The turn player's actions (rules §3) and turning a unit face-up.

**Play** a ship from hand face-down on one's country square or the square left
or right of it, if empty. **Move** a unit to an adjacent square by discarding a
card of one's choice; a face-up Speed Boat may move 1 to 3 squares in a straight
line over empty squares. Moving onto an opponent's unit is an **attack** (a Speed
Boat's attack comes from the square before the target, where it stops first).
**Swap**: a face-up Special Operations Craft on an island or the opponent's
country changes places with one of its owner's sunk ships, which returns
face-down; the craft takes its place in the opponent's sunk pile. **Reveal**:
either player may turn their own face-down unit face-up at any time. A unit may
act any number of times in a turn. See ``shared/rules/silentships.md``.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import IllegalOrderError, PlayerId
from bot.games.silentships.cells import ISLANDS, Cell, cells_text, play_squares
from bot.games.silentships.changes import Log
from bot.games.silentships.orders import Move, Play, Reveal, Swap, order_entry
from bot.games.silentships.ships import Ship
from bot.games.silentships.state import Attack, SilentShipsState, TurnStep, Unit


def hand_text(ships: tuple[Ship, ...]) -> str:
    return ", ".join(ship.card.short for ship in ships) if ships else "empty"


def own_unit(state: SilentShipsState, player: PlayerId, cell: Cell, example: str) -> Unit:
    """The player's unit on ``cell``, or a refusal that lists where their units are."""
    unit = state.unit_at(cell)
    if unit is None or unit.owner != player:
        mine = [str(u.cell) for u in state.units_of(player)]
        where = f"your units are on {', '.join(mine)}" if mine else "you have no unit on the board"
        raise IllegalOrderError(f"you have no unit on {cell} ({where}): e.g. `{example}`")
    return unit


def discarding(state: SilentShipsState, player: PlayerId, ship: Ship, why: str) -> SilentShipsState:
    """The state after ``player`` discards ``ship`` from hand (refused if they don't hold it)."""
    admiral = state.admiral(player)
    if not admiral.hand:
        raise IllegalOrderError(f"{why} costs a card from your hand, and your hand is empty")
    if ship not in admiral.hand:
        raise IllegalOrderError(
            f"you hold no {ship.card.name} to discard (your hand: {hand_text(admiral.hand)})"
        )
    hand = list(admiral.hand)
    hand.remove(ship)
    return state.with_admiral(
        replace(admiral, hand=tuple(hand), discards=(*admiral.discards, ship))
    )


def play(state: SilentShipsState, player: PlayerId, order: Play, log: Log) -> SilentShipsState:
    admiral = state.admiral(player)
    squares = play_squares(state.country(player))
    example = f"play {admiral.hand[0].card.short if admiral.hand else 'frigate'} at {squares[1]}"
    if order.ship not in admiral.hand:
        raise IllegalOrderError(
            f"you hold no {order.ship.card.name} (your hand: {hand_text(admiral.hand)})"
        )
    if order.cell not in squares:
        raise IllegalOrderError(
            f"ships are played on {cells_text(squares)} only (your country and the squares "
            f"beside it): e.g. `{example}`"
        )
    if state.unit_at(order.cell) is not None:
        free = [cell for cell in squares if state.unit_at(cell) is None]
        hint = f"free now: {cells_text(free)}" if free else "all three are taken now"
        raise IllegalOrderError(f"{order.cell} is taken ({hint})")
    hand = list(admiral.hand)
    hand.remove(order.ship)
    state = state.with_admiral(replace(admiral, hand=tuple(hand)))
    state = state.placing(Unit(player, order.ship, order.cell))
    log.order(player, order_entry(order))
    log.event("played", {"player": player, "ship": order.ship.value, "cell": str(order.cell)})
    # No board now: the acknowledgement says what was done and the hand left, and the
    # board comes once, at the turn's end (a board a ship flooded the player's DMs).
    return state


def move(state: SilentShipsState, player: PlayerId, order: Move, log: Log) -> SilentShipsState:
    """A move to an empty square, or the start of an attack (step ``supports``)."""
    unit = own_unit(state, player, order.origin, "move D1 to D2 discard patrol")
    destination = order.destination
    occupant = state.unit_at(destination)
    if occupant is not None and occupant.owner == player:
        raise IllegalOrderError(f"{destination} holds your own unit: one unit per square")
    path = order.origin.path_to(destination)
    reach = unit.ship.card.reach if unit.face_up else 1
    if path is None or len(path) > reach:
        if path is not None and len(path) <= unit.ship.card.reach:
            raise IllegalOrderError(
                f"your {unit.ship.card.name} on {order.origin} is face-down, so it moves one "
                f"square: `reveal {order.origin}` first"
            )
        raise IllegalOrderError(
            f"{destination} is not next to {order.origin}: a unit moves to an adjacent square "
            "(a face-up Speed Boat: 1 to 3 squares in a straight line), e.g. "
            f"`move {order.origin} to {order.origin.neighbours()[0]} discard …`"
        )
    blocked = [cell for cell in path[:-1] if state.unit_at(cell) is not None]
    if blocked:
        raise IllegalOrderError(
            f"the way from {order.origin} to {destination} is not clear ({blocked[0]} is "
            "taken): a Speed Boat moves over empty squares only"
        )
    state = discarding(state, player, order.discard, "a move")
    log.order(player, order_entry(order))
    # No board for a move either (the turn's end brings it); an attack's combat does.
    # A Speed Boat attacking from afar stops on the square before the target, where
    # its attack "came from" (and where it stays if the defence wins).
    if occupant is None:
        stop = destination
    else:
        stop = path[-2] if len(path) > 1 else order.origin
    if stop != order.origin:
        state = state.without_unit(order.origin).placing(replace(unit, cell=stop))
        log.event(
            "moved",
            {"player": player, "ship": unit.ship.value, "from": str(order.origin), "to": str(stop)},
        )
    if occupant is None:
        return state
    number = state.attacks + 1
    # (the defender hears of it with the question, at `go`, and gets a board with the
    # combat: one board a combat)
    log.event(
        "attack",
        {
            "player": player,
            "ship": unit.ship.value,
            "from": str(stop),
            "to": str(destination),
            "target": occupant.ship.value,
        },
    )
    return replace(
        state,
        step=TurnStep.SUPPORTS,
        attacks=number,
        attack=Attack(number, player, occupant.owner, stop, destination),
        combat=None,  # a new attack: the last combat is no longer the one to show
    )


def swap(state: SilentShipsState, player: PlayerId, order: Swap, log: Log) -> SilentShipsState:
    unit = own_unit(state, player, order.cell, "swap A2 with frigate")
    opponent = state.opponent(player)
    if not unit.ship.card.swaps_with_sunk or not unit.face_up:
        raise IllegalOrderError(
            f"only a face-up Special Operations Craft swaps, and your unit on {order.cell} is not "
            "one"
        )
    places = (*ISLANDS, state.country(opponent))
    if order.cell not in places:
        raise IllegalOrderError(
            f"the Special Operations Craft swaps only on an island or your opponent's country "
            f"({cells_text(places)}), not on {order.cell}"
        )
    pile = state.admiral(opponent).sank
    if order.ship not in pile:
        yours = ", ".join(ship.card.short for ship in pile) or "none"
        raise IllegalOrderError(
            f"your {order.ship.card.name} is not among your sunk ships (sunk: {yours})"
        )
    remaining = list(pile)
    remaining.remove(order.ship)
    state = state.with_admiral(replace(state.admiral(opponent), sank=(*remaining, unit.ship)))
    state = state.placing(Unit(player, order.ship, order.cell, face_up=False))
    log.order(player, order_entry(order))
    log.event("swapped", {"player": player, "cell": str(order.cell), "ship": order.ship.value})
    log.touch(player)
    return state


def reveal(state: SilentShipsState, player: PlayerId, order: Reveal, log: Log) -> SilentShipsState:
    unit = own_unit(state, player, order.cell, "reveal B4")
    if unit.face_up:
        raise IllegalOrderError(f"your unit on {order.cell} is face-up already")
    state = state.placing(replace(unit, face_up=True))
    log.order(player, order_entry(order))
    log.event("revealed", {"player": player, "ship": unit.ship.value, "cell": str(order.cell)})
    log.touch(player)
    return state
