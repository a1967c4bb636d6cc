"""The simulated Sonar captain (``bot/games/sonar/robot.py``): it acts only when the rules
let it, plays whole games legally from its own view, and reasons from the marks (a struck
sub's line, the distances) well enough to beat a captain who fires at random."""

from __future__ import annotations

import random

import pytest
from sonar_helpers import Table, given_game

from bot.games.base import Channel
from bot.games.sonar import SONAR
from bot.games.sonar.board import parse_cell
from bot.games.sonar.robot import ROBOT, own_cells_after_move
from bot.games.sonar.views import PrivateView


def robot_says(table: Table, player: str, seed: int = 0) -> list[str]:
    return [
        said.text
        for said in ROBOT.orders(SONAR.views.view(table.state, player), player, random.Random(seed))
    ]


def play_robots(
    table: Table, names: list[str], robots: set[str], seed: int, limit: int = 800
) -> int:
    """Play to the end (or ``limit`` turns): robots as the robot says, the others at random.
    Returns the turns played."""
    rng = random.Random(seed)
    for turns in range(limit):
        if SONAR.rules.outcome(table.state) is not None:
            return turns
        player = table.state.to_move
        assert player is not None
        name = names[int(player[1:]) - 1]
        if name in robots:
            view = SONAR.views.view(table.state, player)
            (said,) = ROBOT.orders(view, player, rng)
            assert said.public
            table.line(f"{name} public: #sonar {said.text}")
        else:
            table.line(f"{name} public: #sonar random")
        assert table.refusals == []
    return limit


def random_battle(size: int, names: list[str], seed: int, **options: str) -> Table:
    table = Table({"size": str(size), **options}, seed=seed)
    for name in names:
        table.say(name, "join", Channel.PRIVATE)
    table.line("@start")
    assert table.refusals == []
    return table


def test_the_robot_waits_in_setup_and_when_it_is_not_its_turn() -> None:
    table = Table({"placement": "given", "ships": "1", "size": "8"})
    table.say("ahab", "join", Channel.PRIVATE)
    table.say("nemo", "join", Channel.PRIVATE)
    assert robot_says(table, "p1") == []  # an unsent fleet is placed by the host
    table.line("@start")
    assert robot_says(table, "p2") == []
    assert len(robot_says(table, "p1")) == 1
    assert ROBOT.orders(SONAR.views.view(table.state, None), "p1", random.Random(0)) == []


@pytest.mark.parametrize(
    ("size", "names", "options"),
    [
        (8, ["ahab", "nemo"], {"ships": "3"}),
        (10, ["ahab", "nemo", "flint"], {"ships": "3"}),
        (12, ["ahab", "nemo", "flint", "drake"], {}),
        (12, ["ahab", "nemo"], {"ships": "4", "one_shot": "on"}),
    ],
)
def test_robots_play_whole_games_legally(
    size: int, names: list[str], options: dict[str, str]
) -> None:
    for seed in range(3):
        table = random_battle(size, names, seed, **options)
        turns = play_robots(table, names, set(names), seed)
        assert SONAR.rules.outcome(table.state) is not None, f"seed {seed}: no end in {turns} turns"
        record = table.record()
        for turn in record["turns"]:
            (order,) = turn["orders"]
            assert order["action"] == "shoot" and not order["random"]
            # never under its own subs (they are known to it)
            assert all(e.get("owner") != order["player"] for e in turn["events"])


def test_the_robot_fires_every_charge_it_may_at_distinct_cells() -> None:
    table = random_battle(16, ["ahab", "nemo"], seed=5)
    for _ in range(6):
        player = table.state.to_move
        assert player is not None
        allowed = table.state.shots_allowed(player)
        (text,) = robot_says(table, player)
        cells = text.split(", ")
        assert len(cells) == len(set(cells)) == allowed
        view = SONAR.views.view(table.state, player)
        assert isinstance(view, PrivateView)
        mine = {str(c) for c in own_cells_after_move(table.state.board, view)}
        assert not set(cells) & mine
        table.line(f"{table.state.name_of(player)} public: #sonar {text}")
        assert table.refusals == []


def test_4_3_a_struck_sub_with_a_known_facing_is_fired_at_along_its_line() -> None:
    # nemo's 3-sub sails right: e21 e20 e19 after turn 1, when ahab strikes its middle.
    table = given_game({"ahab": "2 a1 r, 3 c1 r", "nemo": "2 h13 r, 3 e20 r"}, size="12")
    table.line("ahab public: #sonar e20")
    table.line("nemo public: #sonar l24, k1")
    # Turn 3: the hit sailed from e20 to e21, so the sub faces right; after the move its
    # unhit segments are on e23 (the bow) and e21 (the stern).
    (text,) = robot_says(table, "p1")
    assert set(text.split(", ")) == {"e23", "e21"}
    table.line(f"ahab public: #sonar {text}")
    sunk = [e for e in table.record()["turns"][-1]["events"] if e["type"] == "sunk"]
    assert sunk == [{"type": "sunk", "player": "nemo", "sub": 2, "cells": ["e23", "e22", "e21"]}]


def test_4_3_a_miss_of_one_draws_the_charges_round_it() -> None:
    table = given_game({"ahab": "2 a1 ur", "nemo": "2 h13 ur"}, size="12")
    # turn 1: ahab's charge falls next to nemo's sub (on i13 h13 after the move): a miss of 1
    table.line("ahab public: #sonar h14")
    assert table.record()["turns"][0]["events"][0]["distance"] == 1
    table.line("nemo public: #sonar l24")
    (text,) = robot_says(table, "p1")
    board = table.state.board
    (cell,) = text.split(", ")
    assert board.distance(parse_cell(cell), parse_cell("h14")) <= 3


def test_the_robot_decides_from_its_own_view_alone() -> None:
    # nemo's sub differs between the games where nothing ahab sees tells them apart
    shots = ["ahab public: #sonar b2", "nemo public: #sonar c2", "flint public: #sonar d1"]
    one = given_game({"ahab": "2 a1 ur", "nemo": "2 a13 ur", "flint": "2 a9 ur"}, size="12")
    two = given_game({"ahab": "2 a1 ur", "nemo": "2 g17 dl", "flint": "2 a9 ur"}, size="12")
    one.play(shots)
    two.play(shots)
    assert SONAR.views.view(one.state, "p1") == SONAR.views.view(two.state, "p1")
    assert SONAR.views.reveal(one.state) != SONAR.views.reveal(two.state)
    for seed in range(5):
        assert robot_says(one, "p1", seed) == robot_says(two, "p1", seed)


def test_the_robot_beats_a_captain_who_fires_at_random() -> None:
    names = ["ahab", "nemo"]
    wins = 0
    for seed in range(10):
        table = random_battle(12, names, seed, ships="4")
        robot = names[seed % 2]  # first and second to move, in turn
        play_robots(table, names, {robot}, seed)
        outcome = SONAR.rules.outcome(table.state)
        assert outcome is not None
        wins += outcome.winners == (f"p{names.index(robot) + 1}",) and not outcome.draw
    assert wins >= 9
