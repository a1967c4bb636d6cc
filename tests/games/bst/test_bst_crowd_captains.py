"""bst played by a crowd (issue 33's ``bst demo --players N --turns T``): the game declares
how (``BST.crowd``), so the command line names no game. Each captain's order comes from
its own view alone and is one the rules take."""

from __future__ import annotations

import random

from bot.games.base import Channel, PlayerRef
from bot.games.bst import BST


def test_a_crowd_has_a_board_of_ten_cells_a_captain_up_to_1000_by_1000() -> None:
    crowd = BST.crowd
    assert crowd is not None
    assert crowd.size_for(200) == "45" and crowd.size_for(10) == "20"
    assert crowd.size_for(100_000) == "1000" and crowd.size_for(100_001) is None
    assert crowd.room(BST.rules.new_game({"size": "30"})) == 90
    assert crowd.room(BST.rules.new_game({"size": "1000"})) == 100_000


def test_every_captains_order_is_one_the_rules_take_from_its_own_view() -> None:
    crowd = BST.crowd
    assert crowd is not None
    state = BST.rules.new_game({"size": "45"})
    for seat in range(1, 41):
        state = BST.rules.join(state, PlayerRef(f"p{seat}", f"captain{seat}"))
    rng = random.Random(3)
    setup = BST.rules.parse(crowd.setup_order)
    for seat in range(1, 41):
        state = BST.rules.accept(state, f"p{seat}", setup, Channel.PRIVATE, rng).state
    state = BST.rules.start(state, random.Random(4), None).state
    said = random.Random(5)
    kinds = set()
    for seat in sorted(BST.rules.to_act(state)):
        text, public = crowd.order(BST.views.view(state, seat), said)
        order = BST.rules.parse(text)
        channel = Channel.PUBLIC if public else Channel.PRIVATE
        assert BST.rules.accept(state, seat, order, channel, said).standing is not None, text
        kinds.add(text.split()[0])
    assert "#bst" in kinds and kinds & {"move", "rotate"}
