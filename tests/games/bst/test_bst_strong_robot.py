"""bst's ``strong`` robot (bot/games/bst/strong_robot.py): declared beside the easy one,
it plays legal games from its own view alone, and gives the same orders in two games that
differ only in what another captain hides."""

from __future__ import annotations

import random

from bst_helpers import join, new, pid, place
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.robots_play import Table, fresh, new_table, play
from bot.games.base import Channel, Given
from bot.games.bst import BST, BstState, Order
from bot.games.bst.robot import ROBOT
from bot.games.bst.strong_robot import STRONG_ROBOT, StrongBstRobot


def test_bst_declares_an_easy_and_a_strong_robot() -> None:
    assert BST.robot_at("easy") is BST.robot is ROBOT
    assert BST.robot_at("strong") is STRONG_ROBOT
    assert BST.robot_at("grandmaster") is None
    assert hash(BST) == hash(BST)  # a game stays a hashable value with its levels


def test_a_strong_captain_plays_a_whole_game_legally_and_outlasts_easy_ones() -> None:
    wins = 0.0
    for seed in range(3):
        seats = [fresh(STRONG_ROBOT), *(fresh(ROBOT) for _ in range(5))]
        played = play(BST, seats, seed, {"size": "12"})
        wins += played.score("p1")
    assert wins >= 1  # a fair share of three games among six is a half


def test_a_strong_captain_fires_beside_a_fresh_hit() -> None:
    state = join(new("10x10"), "ahab", "nemo")
    state = place(state, "ahab", "carrier: A1-A5, sub: J10")
    state = place(state, "nemo", "cruiser: E4-E6, cruiser: H1-H3")
    state = BST.rules.start(state, random.Random(0), None).state
    shot = BST.rules.accept(
        state, pid("ahab"), BST.rules.parse("E5"), Channel.PUBLIC, random.Random(0)
    )
    assert shot.standing is not None
    state = BST.rules.resolve(
        state, [Given(pid("ahab"), shot.standing, 0.0, 0)], random.Random(0)
    ).state
    robot = StrongBstRobot()
    (said,) = robot.orders(BST.views.view(state, pid("ahab")), pid("ahab"), random.Random(1))
    assert said.public and said.text in {"D5", "F5", "E4", "E6"}


def two_games(mine: int, theirs: tuple[int, int]) -> tuple[BstState, BstState]:
    """The same game twice but for nemo's fleet, drawn at random with two seeds."""
    games = []
    for seed in theirs:
        state = join(new("10x10"), "ahab", "nemo")
        robot = StrongBstRobot()
        (said,) = robot.orders(BST.views.view(state, pid("ahab")), pid("ahab"), random.Random(mine))
        state = place(state, "ahab", said.text)
        state = place(state, "nemo", "random", seed=seed)
        games.append(BST.rules.start(state, random.Random(0), None).state)
    return games[0], games[1]


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**6))
def test_the_strong_robot_gives_the_same_orders_whatever_another_captain_hides(
    mine: int, one: int, two: int
) -> None:
    games = list(two_games(mine, (one, two)))
    robots = [StrongBstRobot(), StrongBstRobot()]
    rngs = [random.Random(mine), random.Random(mine)]
    me = pid("ahab")
    compared = 0
    for _ in range(12):
        views = [BST.views.view(state, me) for state in games]
        if views[0] != views[1]:
            break  # a shot found nemo in one game only: the games are told apart now
        said = [
            robot.orders(view, me, rng)
            for robot, view, rng in zip(robots, views, rngs, strict=True)
        ]
        assert said[0] == said[1]
        compared += 1
        for index, state in enumerate(games):
            orders: list[Given[Order]] = []
            for text in said[index]:
                channel = Channel.PUBLIC if text.public else Channel.PRIVATE
                accepted = BST.rules.accept(
                    state, me, BST.rules.parse(text.text), channel, random.Random(0)
                )
                assert accepted.standing is not None
                orders.append(Given(me, accepted.standing, 0.0, len(orders)))
            games[index] = BST.rules.resolve(state, orders, random.Random(0)).state
    assert compared >= 1


def test_strong_captains_alone_sink_each_other_instead_of_firing_at_old_hits_for_ever() -> None:
    """Three strong captains on 8×8, ten seeds: a hit cell fired at again by turns kept its
    hit fresh for ever, so two hunters shot a ship's two hit cells and never its third
    (19 of 20 such games were still going after 400 turns). Now nearly all end."""
    still_going = 0
    for seed in range(10):
        seats = {player: fresh(STRONG_ROBOT) for player in ("p1", "p2", "p3")}
        table = Table(BST, new_table(BST, 3, seed, {"size": "8x8"}), seats, seed)
        table.setup()
        for _ in range(400):
            if table.over() or not table.step(table.acting()):
                break
        still_going += not table.over()
    assert still_going <= 1
