"""A crowd's setup (issue 33): placements accepted one at a time hand the map of occupied
cells on from state to state instead of rebuilding it, and the map stays exact."""

from __future__ import annotations

import random

import pytest

from bot.games.base import Channel, GameError, PlayerId
from bot.games.bst import BST, BstState, Captain, Place
from bot.games.bst.cells import Cell
from bot.games.bst.fleet import ShipKind


def fresh(state: BstState, exclude: PlayerId | None = None) -> dict[Cell, PlayerId]:
    """The map as a full scan of the fleets gives it."""
    return {
        cell: c.id
        for c in state.captains
        if c.id != exclude
        for ship in c.ships
        for cell in ship.cells
    }


def crowd(captains: int, size: int, **options: str) -> BstState:
    state = BST.rules.new_game({"size": f"{size}x{size}", **options})
    people = tuple(Captain(id=f"p{i}", name=f"c{i}") for i in range(captains))
    return BstState(options=state.options, captains=people)


def test_3_an_accepted_placement_hands_the_map_on_and_the_older_state_builds_its_own() -> None:
    state = crowd(3, 10)
    rng = random.Random(1)
    state = BST.rules.accept(state, "p0", Place(None), Channel.PRIVATE, rng).state
    before = state.occupancy(None)
    after = BST.rules.accept(state, "p1", Place(None), Channel.PRIVATE, rng).state
    # The same map, changed where p1's ships went (rebuilding it made placement quadratic).
    assert after.occupancy(None) is before
    assert dict(after.occupancy(None)) == fresh(after)
    # The older state no longer holds it; asked again, it builds its own, still exact.
    assert state.occupancy(None) is not before
    assert dict(state.occupancy(None)) == fresh(state)
    assert after.index is state.index


@pytest.mark.parametrize("policy", ["first_come", "both_retry"])
def test_3_the_map_stays_exact_through_placements_overlaps_and_withdrawals(policy: str) -> None:
    state = crowd(60, 14, placement_conflicts=policy)
    rng = random.Random(7)
    for _ in range(400):
        player = f"p{rng.randrange(60)}"
        if rng.random() < 0.5:
            order = Place(None)
        else:  # by hand, often on someone's ships: refused, counted or withdrawn
            row, col = rng.randrange(14), rng.randrange(10)
            carrier = tuple(Cell(row, col + k) for k in range(5))
            order = Place(
                ((ShipKind.CARRIER, carrier), (ShipKind.SUBMARINE, (Cell((row + 2) % 14, 0),)))
            )
        try:
            state = BST.rules.accept(state, player, order, Channel.PRIVATE, rng).state
        except GameError:
            continue
        assert dict(state.occupancy(None)) == fresh(state)
        assert dict(state.occupancy(player)) == fresh(state, player)
        assert len(state.occupancy(player)) == len(fresh(state, player))
