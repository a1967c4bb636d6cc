"""§3, "no probing with `random`": during setup `random` draws a fleet that fits the board
and the loadout only, never avoiding (so never depending on) another captain's ships, and
is answered at once with the fleet drawn. When setup closes, a fleet that overlaps one
placed before it (first come) is placed again at random, and only its owner is told."""

from __future__ import annotations

import random

from bst_helpers import join, new, pid, place
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import Channel
from bot.games.bst import BST, BstState, Place
from bot.games.bst.cells import Cell

FLEETS = [
    "carrier: A1-A5, sub: J10",
    "cruiser: C3-E3, cruiser: H5-H7",
    "carrier: F2-F6, sub: B9",
    "cruiser: A8-A10, cruiser: D1-F1",
    "carrier: E10-I10, sub: E5",
]


def cells_of(state: BstState, name: str) -> set[Cell]:
    captain = state.captain(pid(name))
    assert captain is not None
    return {cell for ship in captain.ships for cell in ship.cells}


def drawn(state: BstState, name: str, seed: int) -> tuple[BstState, str]:
    accepted = BST.rules.accept(state, pid(name), Place(None), Channel.PRIVATE, random.Random(seed))
    (notice,) = accepted.notices
    assert notice.to == pid(name)
    return accepted.state, notice.text


@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), others=st.lists(st.sampled_from(FLEETS), max_size=3))
def test_3_the_answer_to_random_is_the_same_whatever_the_other_fleets(
    seed: int, others: list[str]
) -> None:
    """The same draw on an empty board and on a board with other captains' fleets:
    `random` maps nothing (before: it avoided their ships, so ~100 draws drew them)."""
    alone = join(new(), "bob")
    crowded = join(new(), "bob", "x", "y", "z")
    for name, fleet in zip("xyz", others, strict=False):
        crowded = place(crowded, name, fleet)
    _, answer_alone = drawn(alone, "bob", seed)
    after, answer = drawn(crowded, "bob", seed)
    assert answer == answer_alone
    assert after.captain(pid("bob")).ships == drawn(alone, "bob", seed)[0].captain(pid("bob")).ships


def _overlapping_draw(state: BstState, name: str, other: str) -> tuple[BstState, int]:
    """``name``'s first `random` draw (by seed) that overlaps ``other``'s fleet."""
    for seed in range(500):
        after, _ = drawn(state, name, seed)
        if cells_of(after, name) & cells_of(after, other):
            return after, seed
    raise AssertionError("no overlapping draw in 500 seeds")


def test_3_a_drawn_fleet_overlapping_one_placed_before_it_is_placed_again_at_the_close() -> None:
    state = join(new(), "alice", "bob", "carol")
    state = place(state, "alice", "carrier: C1-C5, sub: A2")
    state, _ = _overlapping_draw(state, "bob", "alice")
    state = place(state, "carol", "cruiser: J1-J3, cruiser: J5-J7")
    alice_before = cells_of(state, "alice")
    started = BST.rules.start(state, random.Random(0))
    after = started.state
    # alice came first: her fleet stands; bob's is drawn again, apart from everyone's.
    assert cells_of(after, "alice") == alice_before
    cells = [cell for c in after.captains for ship in c.ships for cell in ship.cells]
    assert len(cells) == len(set(cells)) == 18
    # Only bob is told, and told nothing of where or whose.
    (notice,) = started.notices
    assert notice.to == pid("bob")
    assert notice.text.startswith(
        "Your fleet overlapped another captain's, placed before it, so you were placed at random: "
    )
    assert "alice" not in notice.text and "C" not in notice.text.split(": ")[0]
    assert after.captain(pid("bob")).placed_at_random
    # The order of placement is setup's alone: the battle's state keeps none of it.
    assert after.placements == 0 and all(c.placed_seq == 0 for c in after.captains)


def test_3_of_two_drawn_fleets_that_overlap_the_later_is_placed_again() -> None:
    state = join(new("6x6"), "alice", "bob")
    state, _ = drawn(state, "alice", 1)
    state, _ = _overlapping_draw(state, "bob", "alice")
    alice = cells_of(state, "alice")
    started = BST.rules.start(state, random.Random(0))
    assert cells_of(started.state, "alice") == alice
    assert not cells_of(started.state, "bob") & alice
    assert [n.to for n in started.notices] == [pid("bob")]


def test_3_a_fleet_sent_again_comes_after_the_fleets_placed_before_it() -> None:
    """First come counts from the placement that stands: alice's earlier fleet, sent
    again after bob's draw, no longer overlaps it, and bob's draw stands."""
    state = join(new(), "alice", "bob")
    state = place(state, "alice", "carrier: C1-C5, sub: A2")
    state, _ = _overlapping_draw(state, "bob", "alice")
    bob = cells_of(state, "bob")
    # alice moves away; a placement by hand overlapping bob's draw would be refused.
    free = [
        text
        for text in ("cruiser: J1-J3, cruiser: J5-J7", "cruiser: H1-H3, cruiser: H5-H7")
        if not bob & {Cell(ord(text[9]) - 65, c) for c in range(10)}
    ]
    state = place(state, "alice", free[0])
    started = BST.rules.start(state, random.Random(0))
    assert cells_of(started.state, "bob") == bob
    assert started.notices == ()


def test_3_placement_order_survives_the_codec() -> None:
    state = join(new(), "alice", "bob")
    state = place(state, "alice", "carrier: C1-C5, sub: A2")
    state, _ = drawn(state, "bob", 0)
    assert state.placements == 2
    assert [c.placed_seq for c in state.captains] == [1, 2]
    assert BST.codec.decode_state(BST.codec.encode_state(state)) == state
