"""§4 and design rule 3: a captain's order is accepted or refused for reasons drawn
from their own ships and the board only — never from where other captains' ships are."""

from __future__ import annotations

import random

from bst_helpers import place
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import Channel, GameError, PlayerRef
from bot.games.bst import BST, BstState

ORDERS = [
    "#bst {cell}",
    "move carrier at {cell} 2 right",
    "move carrier at {cell} 5 left",
    "move carrier at {cell} 1 up",
    "move sub at {cell} 1 down",
    "move sub at {cell} 1 left",
    "rotate carrier at {cell}",
    "rotate sub at {cell}",
    "move cruiser at {cell} 1 up",
]
CELLS = ["A1", "A5", "C3", "E5", "E9", "H1", "J10", "E1", "B2"]


def battle(other_fleet: str) -> BstState:
    state = BST.new_game({"size": "10x10"})
    state = BST.join(state, PlayerRef("id-me", "me"))
    state = BST.join(state, PlayerRef("id-other", "other"))
    state = place(state, "me", "carrier: E1-E5, sub: B2")
    state = place(state, "other", other_fleet)
    return BST.start(state, random.Random(0)).state


def outcome(state: BstState, text: str) -> str:
    try:
        order = BST.parse(text)
        channel = Channel.PUBLIC if text.startswith("#bst") else Channel.PRIVATE
        accepted = BST.accept(state, "id-me", order, channel, random.Random(0))
    except GameError as error:
        return f"refused: {error.message}"
    return f"accepted: {BST.describe(accepted.standing) if accepted.standing else '-'}"


OTHER_FLEETS = st.sampled_from(
    [
        "cruiser: G1-G3, cruiser: J8-J10",
        "cruiser: E6-E8, cruiser: A1-A3",  # right next to my carrier
        "carrier: F1-F5, sub: D5",  # under the cells my moves would enter
        "carrier: A6-E6, sub: C3",
        "cruiser: H8-J8, cruiser: D1-D3",
    ]
)


@settings(max_examples=30, deadline=None)
@given(
    first=OTHER_FLEETS,
    second=OTHER_FLEETS,
    template=st.sampled_from(ORDERS),
    cell=st.sampled_from(CELLS),
)
def test_4_an_orders_acceptance_never_depends_on_other_captains_ships(
    first: str, second: str, template: str, cell: str
) -> None:
    text = template.format(cell=cell)
    assert outcome(battle(first), text) == outcome(battle(second), text)
