"""A captain's summary in a crowd (issue 33): the crowd told as counts, the captain's own
fleet in full. Its length does not grow with the crowd, it names no other captain's live
ship, and a game of at most 100 captains, shots and wrecks is summed up as before."""

from __future__ import annotations

import random

from bot.games.base import Given
from bot.games.bst import BST, BstState, Captain, Order, Shoot
from bot.games.bst.orders import range_text
from bot.games.bst.text import LISTED


def battle(captains: int, side: int) -> BstState:
    state = BST.rules.new_game({"size": f"{side}x{side}", "turn": "8h", "loadouts": "carrier+sub"})
    people = tuple(Captain(id=f"p{i + 1}", name=f"captain{i + 1}") for i in range(captains))
    return BST.rules.start(BstState(options=state.options, captains=people), random.Random(1)).state


def everyone_shoots_the_next(state: BstState) -> BstState:
    """One turn in which each captain shoots the next captain's submarine (every shot
    hits, every submarine sinks)."""
    ring = list(state.captains)
    orders: list[Given[Order]] = [
        Given(
            here.id,
            Shoot(min(there.ships, key=lambda s: len(s.cells)).cells[0]),
            sent_at=float(n),
            sequence=n,
        )
        for n, (here, there) in enumerate(zip(ring, ring[1:] + ring[:1], strict=True), start=1)
    ]
    return BST.rules.resolve(state, orders, random.Random(2)).state


def test_a_crowds_summary_counts_the_crowd_and_lists_the_captains_own_ships() -> None:
    state = everyone_shoots_the_next(battle(LISTED * 3, 60))
    me = state.captains[0]
    summary = BST.words.summary(state, me.id)
    alive = sum(1 for c in state.captains if c.afloat)
    wrecks = sum(1 for c in state.captains for s in c.ships if s.destroyed)
    assert wrecks > LISTED  # (every submarine in the ring sank: the wrecks are counted too)
    assert summary.splitlines()[1:4] == [
        f"Captains afloat: {alive:,} of {LISTED * 3:,}.",
        f"Shots last turn: {LISTED * 3:,}, {LISTED * 3:,} hits.",
        f"Wrecks: {wrecks:,} ships.",
    ]
    assert summary.splitlines()[-1].startswith("Your ships: ")
    for ship in me.ships:
        assert range_text(ship.cells) in summary
    # Nothing of another captain: neither their names nor any of their cells.
    for other in state.captains[1:]:
        assert other.name not in summary
        for ship in other.ships:
            assert str(ship.cells[0]) not in summary.split("Your ships: ")[0]


def test_a_captains_summary_does_not_grow_with_the_crowd() -> None:
    small = everyone_shoots_the_next(battle(LISTED * 2, 50))
    large = everyone_shoots_the_next(battle(LISTED * 8, 100))
    longest = max(len(BST.words.summary(large, c.id)) for c in large.captains[:50])
    assert longest < 400
    assert longest - max(len(BST.words.summary(small, c.id)) for c in small.captains[:50]) < 20
    assert len(BST.words.summary(large, None)) < 200  # the public summary (`status`) too


def test_a_game_of_at_most_100_captains_is_summed_up_by_name_as_before() -> None:
    state = everyone_shoots_the_next(battle(LISTED, 40))
    lines = BST.words.summary(state, "p1").splitlines()
    assert lines[1].startswith("Captains afloat: captain1, captain2, captain3")
    assert lines[2].startswith("Shots last turn: captain1 ")
    assert lines[3].startswith("Wrecks: captain")
