"""bst's simulated captain (bot/games/bst/robot.py), declared on the game value like every
other game's: it places a legal fleet in setup, gives only orders the rules accept, from
its own view, the same ones for the same seed, and its games end."""

from __future__ import annotations

import random

from bst_helpers import join, new, pid

from bot.games.base import Channel, Given
from bot.games.bst import BST, BstState, Order
from bot.games.bst.robot import ROBOT, BstRobot
from bot.games.bst.status import Phase


def test_bst_declares_its_robot_on_its_game_value() -> None:
    assert BST.robot is ROBOT
    assert ROBOT.demo_players == 12


def seated(names: list[str], seed: int, robot: BstRobot) -> BstState:
    """Everyone joins; each captain's robot sends its fleet by DM, as the demo does."""
    state = join(new("10x10"), *names)
    rng = random.Random(seed)
    for name in names:
        (said,) = robot.orders(BST.views.view(state, pid(name)), pid(name), rng)
        assert not said.public
        order = BST.rules.parse(said.text)
        state = BST.rules.accept(state, pid(name), order, Channel.PRIVATE, rng).state
    return state


def test_in_setup_each_captain_sends_a_fleet_the_rules_accept() -> None:
    state = seated(["ahab", "nemo"], seed=4, robot=BstRobot())
    placed = [c for c in state.captains if c.ships]
    assert len(placed) == 2


def test_the_same_seed_gives_the_same_fleets_and_orders() -> None:
    def game(seed: int) -> list[str]:
        robot = BstRobot()
        state = seated(["ahab", "nemo", "flint"], seed, robot)
        state = BST.rules.start(state, random.Random(seed)).state
        rng = random.Random(seed)
        said = []
        for player in sorted(BST.rules.to_act(state)):
            said += [s.text for s in robot.orders(BST.views.view(state, player), player, rng)]
        return [*(str(c.ships) for c in state.captains), *said]

    assert game(7) == game(7)
    assert game(7) != game(8)


def test_robots_play_a_game_to_its_end_with_orders_the_rules_accept() -> None:
    names = ["ahab", "nemo", "flint", "kidd"]
    robot = BstRobot()
    state = seated(names, seed=2, robot=robot)
    state = BST.rules.start(state, random.Random(2)).state
    rng = random.Random(2)
    for _ in range(300):
        if state.phase is not Phase.BATTLE:
            break
        given: list[Given[Order]] = []
        for player in sorted(BST.rules.to_act(state)):
            for said in robot.orders(BST.views.view(state, player), player, rng):
                order = BST.rules.parse(said.text)
                channel = Channel.PUBLIC if said.public else Channel.PRIVATE
                accepted = BST.rules.accept(state, player, order, channel, rng)
                assert accepted.standing is not None
                given.append(Given(player, accepted.standing, 0.0, len(given)))
        state = BST.rules.resolve(state, given, rng).state
    assert state.phase is Phase.FINISHED
