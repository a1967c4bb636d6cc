"""A crowd's setup (issue 33): placements and joins accepted one at a time share the crowd
of captains (one chunk copied, not the crowd) and hand the index and the map of occupied
cells on from state to state instead of rebuilding them; everything stays exact."""

from __future__ import annotations

import random

import pytest

from bot.games.base import Channel, GameError, PlayerId, PlayerRef
from bot.games.bst import BST, BstState, Captain, Place
from bot.games.bst.cells import Cell
from bot.games.bst.crowd import CHUNK
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


def every_owner(state: BstState, exclude: PlayerId | None = None) -> dict[Cell, set[PlayerId]]:
    """Cell → every captain (but ``exclude``) with a ship on it: fleets drawn by `random`
    may share cells until setup closes (rules §3, no probing with `random`)."""
    found: dict[Cell, set[PlayerId]] = {}
    for c in state.captains:
        if c.id != exclude:
            for ship in c.ships:
                for cell in ship.cells:
                    found.setdefault(cell, set()).add(c.id)
    return found


def assert_exact(state: BstState, exclude: PlayerId | None) -> None:
    """The map holds exactly the occupied cells, each with one of its owners."""
    occupied, expected = state.occupancy(exclude), every_owner(state, exclude)
    assert set(occupied) == set(expected)
    assert len(occupied) == len(expected)
    assert all(occupied[cell] in owners for cell, owners in expected.items())
    if exclude is not None:
        assert all(set(state.owners_on(cell, exclude)) == o for cell, o in expected.items())


def crowd(captains: int, size: int, **options: str) -> BstState:
    state = BST.rules.new_game({"size": f"{size}x{size}", **options})
    people = tuple(Captain(id=f"p{i}", name=f"c{i}") for i in range(captains))
    return BstState(options=state.options, captains=people)


def test_3_an_accepted_placement_hands_the_map_on_and_the_older_state_builds_its_own() -> None:
    state = crowd(3, 10)
    rng = random.Random(1)
    state = BST.rules.accept(state, "p0", Place(None), Channel.PRIVATE, rng).state
    before, index = state.occupancy(None), state.index
    after = BST.rules.accept(state, "p1", Place(None), Channel.PRIVATE, rng).state
    # The same map, changed where p1's ships went (rebuilding it made placement quadratic).
    assert after.occupancy(None) is before
    assert dict(after.occupancy(None)) == fresh(after)
    assert after.index is index
    # The older state no longer holds them; asked again, it builds its own, still exact.
    assert state.occupancy(None) is not before
    assert dict(state.occupancy(None)) == fresh(state)
    assert state.index is not index and state.index == index


def test_3_an_accepted_placement_copies_one_chunk_of_the_crowd_not_the_crowd() -> None:
    state = crowd(5 * CHUNK, 200)  # five chunks of captains
    rng = random.Random(2)
    for player in ("p0", f"p{2 * CHUNK + 7}", f"p{5 * CHUNK - 1}"):
        after = BST.rules.accept(state, player, Place(None), Channel.PRIVATE, rng).state
        # Four of the five chunks are the old state's own (before: a new tuple each time).
        assert after.crowd.shared_chunks(state.crowd) == 4
        assert [c.id for c in after.captains] == [c.id for c in state.captains]
        assert after.captain(player) != state.captain(player)
        state = after


def test_3_a_join_shares_the_crowd_and_hands_the_index_on() -> None:
    state = crowd(3 * CHUNK, 200)
    index = state.index
    joined = BST.rules.join(state, PlayerRef("newcomer", "new"))
    # Every full chunk is shared and the index is extended, not rebuilt (before: a new
    # tuple of every captain, and an index built again from it, at every join).
    assert joined.crowd.shared_chunks(state.crowd) == 3
    assert joined.index is index and joined.index["newcomer"] == 3 * CHUNK
    assert joined.captain("newcomer") == Captain(id="newcomer", name="new")
    # The older state builds its own index again, without the newcomer.
    assert state.captain("newcomer") is None and "newcomer" not in state.index


def test_3_states_that_branch_from_one_state_each_keep_their_own_captains() -> None:
    """The host may act on an older state again (a retried transaction): every branch
    sees its own captains, whichever state was asked first."""
    rng = random.Random(4)
    root = crowd(CHUNK + 3, 60)
    first = BST.rules.join(root, PlayerRef("x", "x"))
    second = BST.rules.join(root, PlayerRef("y", "y"))
    placed = BST.rules.accept(first, "p0", Place(None), Channel.PRIVATE, rng).state
    again = BST.rules.accept(root, "p0", Place(None), Channel.PRIVATE, rng).state
    assert first.captain("x") is not None and first.captain("y") is None
    assert second.captain("y") is not None and second.captain("x") is None
    assert root.captain("x") is None and root.captain("y") is None
    assert placed.captain("x") is not None and placed.captain("y") is None
    assert again.captain("x") is None and again.captain("p0") is not None
    for state in (root, first, second, placed, again):
        assert state.index == {c.id: i for i, c in enumerate(state.captains)}
        assert dict(state.occupancy(None)) == fresh(state)
        assert BST.codec.decode_state(BST.codec.encode_state(state)) == state


def test_3_a_crowd_joined_one_by_one_is_the_crowd_built_at_once() -> None:
    state = BST.rules.new_game({"size": "60x60"})
    for i in range(2 * CHUNK + 5):
        state = BST.rules.join(state, PlayerRef(f"p{i}", f"c{i}"))
        if i == CHUNK:
            state = BST.rules.remove(state, "p3").state  # leaving setup, then coming back
            state = BST.rules.join(state, PlayerRef("p3", "c3"))
    built = crowd(2 * CHUNK + 5, 60)
    assert state == built
    assert state.index == built.index
    assert BST.codec.encode_state(state) == BST.codec.encode_state(built)


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
        assert_exact(state, None)
        assert_exact(state, player)
